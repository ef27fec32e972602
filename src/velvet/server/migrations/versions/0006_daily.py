"""The daily challenge: one row per game started from it (its day, player and result).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    op.create_table(
        "velvet_daily",
        sa.Column("room", sa.String(32), sa.ForeignKey("velvet_rooms.id"), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("account", sa.Integer, nullable=True),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("turns", sa.Integer, nullable=True),
        sa.Column("actions", sa.Integer, nullable=True),
        sa.Column("finished", sa.Float, nullable=True),
    )
    op.create_index("ix_velvet_daily_day", "velvet_daily", ["game", "day", "state"])
    # one game a day per account (anonymous rows, account NULL, are each their own)
    op.create_index(
        "ux_velvet_daily_account", "velvet_daily", ["game", "day", "account"], unique=True
    )


def downgrade() -> None:
    op.drop_index("ux_velvet_daily_account", "velvet_daily")
    op.drop_index("ix_velvet_daily_day", "velvet_daily")
    op.drop_table("velvet_daily")
