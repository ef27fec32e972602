"""Rooms, seats and moves.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "velvet_rooms",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("cards", sa.JSON, nullable=False),
        sa.Column("config", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("nonce", sa.String(64), nullable=False),
        sa.Column("seed_sha256", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("listed", sa.Boolean, nullable=False),
        sa.Column("rematch_of", sa.String(32), nullable=True),
        sa.Column("rematch", sa.String(32), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("velvet_rooms_lobby", "velvet_rooms", ["listed", "status", "created"])
    op.create_table(
        "velvet_seats",
        sa.Column("room", sa.String(32), sa.ForeignKey("velvet_rooms.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("who", sa.String(40), nullable=False),
        sa.Column("token_sha256", sa.String(64), nullable=False),
    )
    op.create_table(
        "velvet_moves",
        sa.Column("room", sa.String(32), sa.ForeignKey("velvet_rooms.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("velvet_moves")
    op.drop_table("velvet_seats")
    op.drop_index("velvet_rooms_lobby", "velvet_rooms")
    op.drop_table("velvet_rooms")
