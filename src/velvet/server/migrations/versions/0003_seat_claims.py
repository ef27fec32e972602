"""A seat belongs to whoever claims its invite first: the secret that client got, and a
one-time code that moves the seat to another device.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    with op.batch_alter_table("velvet_seats") as batch:
        batch.add_column(sa.Column("secret_sha256", sa.String(64), nullable=True))
        batch.add_column(sa.Column("claimed_at", sa.Float, nullable=True))
        batch.add_column(sa.Column("move_sha256", sa.String(64), nullable=True))
        batch.add_column(sa.Column("move_until", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("velvet_seats") as batch:
        batch.drop_column("move_until")
        batch.drop_column("move_sha256")
        batch.drop_column("claimed_at")
        batch.drop_column("secret_sha256")
