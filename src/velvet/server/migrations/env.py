"""Alembic environment: run with the connection the server hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from velvet.server.storage import metadata

connection: Connection | None = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the server always hands a connection over
    raise RuntimeError("run migrations through velvet.server.storage.migrate()")
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
