"""Finding a game: open seeks (a room with one seat waiting) and the quick-pair queue.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    op.create_table(
        "velvet_seeks",
        sa.Column("room", sa.String(32), sa.ForeignKey("velvet_rooms.id"), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("account", sa.Integer, nullable=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("min_rating", sa.Float, nullable=True),
        sa.Column("max_rating", sa.Float, nullable=True),
        sa.Column("setup", sa.JSON, nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("here", sa.Boolean, nullable=False),
    )
    op.create_index("ix_velvet_seeks_state", "velvet_seeks", ["state", "game"])
    op.create_table(
        "velvet_queue",
        sa.Column("ticket", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("account", sa.Integer, nullable=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("secret_sha256", sa.String(64), nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("room", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
    )
    op.create_index("ix_velvet_queue_state", "velvet_queue", ["state", "game"])


def downgrade() -> None:
    op.drop_index("ix_velvet_queue_state", "velvet_queue")
    op.drop_table("velvet_queue")
    op.drop_index("ix_velvet_seeks_state", "velvet_seeks")
    op.drop_table("velvet_seeks")
