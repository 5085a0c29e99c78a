"""Whether a match is public (``public``): listed by ``GET /api/matches`` to everyone. Matches are
private unless created public; those stored before this migration are public, as every match was
listed then.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("matches", sa.Column("public", sa.Boolean, nullable=False, server_default=sa.true()))
    with op.batch_alter_table("matches") as batch:
        batch.alter_column("public", server_default=sa.false())


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("public")
