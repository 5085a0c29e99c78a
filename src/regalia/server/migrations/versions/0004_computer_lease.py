"""The lease of a match's computer move: the server process that thinks about it (``lease_owner``)
and until when (``lease_until``, wall-clock seconds) unless it renews the lease; null when no
computer seat is to act. Another process takes over a move whose lease ran out.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("matches", sa.Column("lease_owner", sa.String(64), nullable=True))
    op.add_column("matches", sa.Column("lease_until", sa.Float, nullable=True))
    op.create_index("matches_lease_until", "matches", ["lease_until"])


def downgrade() -> None:
    op.drop_index("matches_lease_until", table_name="matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("lease_owner")
