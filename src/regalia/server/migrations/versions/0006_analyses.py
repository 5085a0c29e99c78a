"""The analyses of finished matches (``analyses``): one row per match asked for, its status
(``queued``, ``running``, ``done``, ``failed``), its progress (``done`` of ``total`` decisions), the
budget, the result (the analysis JSON and where each best move would have been played) or the
error, and the server process working on it (``owner``, with ``updated`` wall-clock seconds: an
analysis whose process stopped updating it is taken over).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column(
            "match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("budget", sa.String(128), nullable=False),
        sa.Column("done", sa.Integer, nullable=False, server_default="0"),
        sa.Column("total", sa.Integer, nullable=False, server_default="0"),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("error", sa.String(500), nullable=True),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("updated", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
