"""A match's time control (its notation, e.g. ``fischer:300+5``; null: none) and when the running
clock of the seat to act started (wall-clock seconds; null: no clock runs), so that a server reading
the match again goes on counting the turn in progress.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("matches", sa.Column("time_control", sa.String(64), nullable=True))
    op.add_column("matches", sa.Column("clock_since", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("clock_since")
        batch.drop_column("time_control")
