"""The bot driver: moves for the seats a bot plays (a bot seat, or a person's seat taken over).

It owns the one task per room that asks the bot pool (velvet.server.bots) for a move and
makes it through the hub's checked ``move`` path, like a person's. A room whose every seat
a bot plays moves only while someone watches it. A bot's seed is drawn from the room's
nonce, seed and version, so a replayed room's bots choose alike.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable, Callable

from velvet.server.bots import BotPool
from velvet.server.clock import Clock
from velvet.server.room import Conn, Room

log = logging.getLogger("velvet.server")

Move = Callable[[Room, int, int, str, Conn | None], Awaitable[None]]
"""The hub's checked move: ``move(room, seat, version, text, conn)``."""


class BotDriver:
    """Drives the bots of a hub's rooms: ``move`` makes a chosen move (the hub's checked
    path), ``done(room)`` is told when a room's bots stop (it may leave memory)."""

    def __init__(
        self, pool: BotPool, clock: Clock, move: Move, done: Callable[[Room], None]
    ) -> None:
        self.pool = pool
        self.clock = clock
        self.move = move
        self.done = done

    def kick(self, room: Room) -> None:
        """Start the bot if a bot is to move and none is thinking; time a person's turn."""
        self.clock.arm(room)
        seat = room.to_move()
        if seat is None or room.bot_for(seat) is None:
            return
        if not room.conns and room.unattended():
            return
        if room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.create_task(self.drive(room))

    async def drive(self, room: Room) -> None:
        """Move for the bots while one is to move (and someone watches an all-bot room)."""
        while True:
            seat = room.to_move()
            if seat is None:
                break
            spec = room.bot_for(seat)
            if spec is None or (not room.conns and room.unattended()):
                break  # a person's turn, or nobody left to watch the bots
            await self.play_for(room, seat, spec)
        self.done(room)

    async def play_for(self, room: Room, seat: int, spec: str) -> None:
        """One move of bot ``spec`` for ``seat`` (the first legal one if the bot fails)."""
        version = room.version
        actions = room.state.legal_actions()
        legal = [str(a) for a in actions]
        room.legal = (version, dict(zip(legal, actions, strict=True)))
        view = room.state.view(seat)
        seed = int.from_bytes(
            hashlib.sha256(f"{room.row.nonce}:{room.row.seed}:{version}".encode()).digest()[:8],
            "big",
        )
        try:
            text = await self.pool.choose(
                room.row.game, tuple(room.row.cards), spec, view, legal, seed
            )
        except Exception:
            log.exception("bot %s failed in room %s", spec, room.row.id)
            text = legal[0]
        before = room.version
        await self.move(room, seat, version, text, None)
        if room.version == before:
            await asyncio.sleep(0.05)  # a conflict or a storage failure: try again soon
