"""Seats remember a bot takeover and when a dropped seat's grace period began.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    with op.batch_alter_table("velvet_seats") as batch:
        batch.add_column(
            sa.Column("taken_over", sa.Boolean, nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("dropped_at", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("velvet_seats") as batch:
        batch.drop_column("dropped_at")
        batch.drop_column("taken_over")
