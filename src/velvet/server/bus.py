"""Moves reach other server processes through Redis pub/sub.

A process that commits a move publishes ``room version over`` on one channel; every
process that holds that room catches up from the database (the database, not
the message, is the truth, so a lost message costs only latency until the next).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

CHANNEL = "velvet:moves"
log = logging.getLogger("velvet.server")

Handler = Callable[[str, int, bool], Awaitable[None]]
"""Called with (room, version, over) for every notice."""


class Bus:
    """No other processes: publishing does nothing."""

    shared = False
    """True when other processes may change the same rooms."""

    async def publish(self, room: str, version: int, over: bool = False) -> None:
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

    async def publish(self, room: str, version: int, over: bool = False) -> None:
        try:
            await self._redis.publish(self.channel, f"{room} {version} {int(over)}")
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
            if not isinstance(data, bytes):
                continue
            parts = data.decode(errors="replace").split(" ")
            if len(parts) == 3 and parts[1].isdigit():
                try:
                    await handler(parts[0], int(parts[1]), parts[2] == "1")
                except Exception:
                    log.exception("catching up room %s failed", parts[0])

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._redis.aclose()
