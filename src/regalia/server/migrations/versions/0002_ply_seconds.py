"""The seconds each ply's seat used (the match layer's per-ply times; null for chance, automata and
the plies stored before).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("plies", sa.Column("seconds", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("plies") as batch:
        batch.drop_column("seconds")
