"""The first schema: matches, plies, tokens.

The tables are written out here, not taken from ``regalia.server.store.metadata``: a migration is a
frozen step from one schema to the next, and the metadata will move on with later migrations.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("screen", sa.String(16), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("plies", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("to_act", sa.Integer, nullable=True),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("undo_by", sa.Integer, nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("matches_status_updated", "matches", ["status", "updated"])
    op.create_table(
        "plies",
        sa.Column(
            "match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("text", sa.String(200), nullable=False),
    )
    op.create_table(
        "tokens",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tokens")
    op.drop_table("plies")
    op.drop_index("matches_status_updated", "matches")
    op.drop_table("matches")
