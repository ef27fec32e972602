"""Optional accounts: names and argon2 password hashes, sessions, the account a seat was
claimed by, game records per seat, and Glicko-2 ratings per game.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    op.create_table(
        "velvet_accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_key", sa.String(24), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "velvet_sessions",
        sa.Column("token_sha256", sa.String(64), primary_key=True),
        sa.Column("account", sa.Integer, sa.ForeignKey("velvet_accounts.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_velvet_sessions_account", "velvet_sessions", ["account"])
    op.create_table(
        "velvet_ratings",
        sa.Column("account", sa.Integer, sa.ForeignKey("velvet_accounts.id"), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("vol", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "velvet_results",
        sa.Column("room", sa.String(32), sa.ForeignKey("velvet_rooms.id"), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
    )
    op.create_table(
        "velvet_result_seats",
        sa.Column("room", sa.String(32), sa.ForeignKey("velvet_results.room"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account", sa.Integer, sa.ForeignKey("velvet_accounts.id"), nullable=True),
        sa.Column("who", sa.String(40), nullable=False),
        sa.Column("deck", sa.String(64), nullable=True),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=True),
        sa.Column("rating_after", sa.Float, nullable=True),
        sa.Column("rd_after", sa.Float, nullable=True),
    )
    op.create_index("ix_velvet_result_seats_account", "velvet_result_seats", ["account"])
    with op.batch_alter_table("velvet_seats") as batch:
        batch.add_column(sa.Column("account", sa.Integer, nullable=True))
        batch.create_index("ix_velvet_seats_account", ["account"])


def downgrade() -> None:
    with op.batch_alter_table("velvet_seats") as batch:
        batch.drop_index("ix_velvet_seats_account")
        batch.drop_column("account")
    op.drop_index("ix_velvet_result_seats_account", "velvet_result_seats")
    op.drop_table("velvet_result_seats")
    op.drop_table("velvet_results")
    op.drop_table("velvet_ratings")
    op.drop_index("ix_velvet_sessions_account", "velvet_sessions")
    op.drop_table("velvet_sessions")
    op.drop_table("velvet_accounts")
