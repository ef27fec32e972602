"""Moves reach other server processes through Redis pub/sub or PostgreSQL LISTEN/NOTIFY.

A process that commits a move publishes ``room version over`` on one channel; every
process that holds that room catches up from the database (the database, not
the message, is the truth, so a lost message costs only latency until the next).
A notice may carry what happened (velvet.server.notices: the move or undo committed, an
undo asked, a rematch offered, declined or made) as a typed record; on the channel it is
its text.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from velvet.server.notices import Notice, read_notice

CHANNEL = "velvet:moves"
PG_CHANNEL = "velvet_moves"
log = logging.getLogger("velvet.server")

Handler = Callable[[str, int, bool, Notice | None], Awaitable[None]]
"""Called with (room, version, over, notice) for every notice.

``notice`` is entry ``version`` (a move or an undo) when the notice is of one entry, or
a notice never committed (an undo asked, a rematch); None for a resignation or a
move too long to carry: a process one move behind applies an entry without reading
the database.
"""

MAX_ACTION = 1000
"""Longer action texts are left out of notices (PostgreSQL's limit is 8,000 bytes)."""


def notice(room: str, version: int, over: bool, action: str | None) -> str:
    """The text of a notice: ``room version over[ action]`` (``action``: the text of a
    ``Notice``, as the database's own notice of a commit sends the entry stored)."""
    head = f"{room} {version} {int(over)}"
    return head if action is None or len(action) > MAX_ACTION else f"{head} {action}"


class Bus:
    """No other processes: publishing does nothing."""

    shared = False
    """True when other processes may change the same rooms."""
    commit_channel: str | None = None
    """A PostgreSQL channel the database announces each committed move on, in the
    move's own transaction (then the server does not publish moves itself)."""

    async def publish(
        self, room: str, version: int, over: bool = False, said: Notice | None = None
    ) -> None:
        return None

    async def start(self, handler: Handler) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisBus(Bus):
    shared = True

    def __init__(self, url: str, channel: str = CHANNEL) -> None:
        import redis.asyncio as redis

        self.channel = channel
        self._redis = redis.Redis.from_url(url)
        self._task: asyncio.Task[None] | None = None

    async def publish(
        self, room: str, version: int, over: bool = False, said: Notice | None = None
    ) -> None:
        action = said.text() if said is not None else None
        try:
            await self._redis.publish(self.channel, notice(room, version, over, action))
        except Exception as error:  # a lost notice only delays other processes
            log.warning("redis publish failed: %s", error)

    async def start(self, handler: Handler) -> None:
        await self._redis.ping()
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(self.channel)
        self._task = asyncio.create_task(self._listen(pubsub, handler))

    async def _listen(self, pubsub: object, handler: Handler) -> None:
        from redis.asyncio.client import PubSub

        assert isinstance(pubsub, PubSub)
        while True:
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("redis listen failed: %s; retrying", error)
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            data = message.get("data")
            if isinstance(data, bytes):
                await _deliver(data.decode(errors="replace"), handler)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._redis.aclose()


async def _deliver(payload: str, handler: Handler) -> None:
    """Hand a ``room version over[ notice]`` to ``handler``; anything else is ignored."""
    parts = payload.split(" ", 3)
    if len(parts) >= 3 and parts[1].isdigit():
        said = read_notice(parts[3]) if len(parts) == 4 else None
        if len(parts) == 4 and said is None:
            return  # a notice of no kind this server sends
        try:
            await handler(parts[0], int(parts[1]), parts[2] == "1", said)
        except Exception:
            log.exception("catching up room %s failed", parts[0])


def _libpq_url(url: str) -> str:
    """``url`` as libpq reads it (without SQLAlchemy's ``+psycopg``)."""
    if url.startswith("postgresql+psycopg://"):
        return "postgresql://" + url[len("postgresql+psycopg://") :]
    return url


class PostgresBus(Bus):
    """Notices through PostgreSQL LISTEN/NOTIFY on the server's own database.

    One connection listens. A move's notice is sent by its own commit (``pg_notify``
    in the transaction, see ``Storage.notify_channel``): none is lost between the
    commit and the notice, and none is sent for a move that was not committed. Other
    changes (a resignation) are published through a second connection. A listening connection
    that drops is opened again (notices sent meanwhile are lost: the rooms catch
    up at their next notice, as with Redis).
    """

    shared = True

    def __init__(self, url: str, channel: str = PG_CHANNEL) -> None:
        self.url = _libpq_url(url)
        self.channel = channel
        self.commit_channel = channel
        self._task: asyncio.Task[None] | None = None
        self._sender: Any = None
        self._send_lock = asyncio.Lock()

    async def _connect(self) -> Any:
        import psycopg

        return await psycopg.AsyncConnection.connect(self.url, autocommit=True)

    async def publish(
        self, room: str, version: int, over: bool = False, said: Notice | None = None
    ) -> None:
        action = said.text() if said is not None else None
        try:
            async with self._send_lock:
                if self._sender is None or self._sender.closed:
                    self._sender = await self._connect()
                await self._sender.execute(
                    "SELECT pg_notify(%s, %s)", (self.channel, notice(room, version, over, action))
                )
        except Exception as error:  # a lost notice only delays other processes
            log.warning("postgresql notify failed: %s", error)
            self._sender = None

    async def start(self, handler: Handler) -> None:
        listener = await self._connect()
        await listener.execute(f'LISTEN "{self.channel}"')
        self._task = asyncio.create_task(self._listen(listener, handler))

    async def _listen(self, listener: Any, handler: Handler) -> None:
        while True:
            try:
                async for notice in listener.notifies():
                    await _deliver(notice.payload, handler)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await listener.close()
                raise
            except Exception as error:
                log.warning("postgresql listen failed: %s; retrying", error)
            with contextlib.suppress(Exception):
                await listener.close()
            await asyncio.sleep(0.5)
            try:
                listener = await self._connect()
                await listener.execute(f'LISTEN "{self.channel}"')
            except Exception as error:
                log.warning("postgresql listen failed: %s; retrying", error)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._sender is not None:
            with contextlib.suppress(Exception):
                await self._sender.close()


def make_bus(db: str, redis: str | None) -> Bus:
    """Redis when given; else LISTEN/NOTIFY on a PostgreSQL database; else no bus (SQLite)."""
    if redis:
        return RedisBus(redis)
    if db.startswith(("postgresql://", "postgresql+psycopg://")):
        return PostgresBus(db)
    return Bus()
