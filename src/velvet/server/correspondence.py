"""Correspondence rooms: a time per move, and the loss on time when it runs out.

A room made with ``days_per_move`` (1, 3 or 7) or ``hours_per_move`` (1, 4 or 12) gives
each decision that many days (or hours) from the move before it (the first decision: from
the room's creation). The deadline is read
from what is stored (the room's options, its last move's commit time), so it survives a
restart; nothing is kept in memory. When it has passed, the seat to move loses
(``flagged`` in the result), committed like a resignation. Deadlines are checked when a
room is asked about (``POST /api/seats``, ``GET /api/rooms/ID``) and by ``Sweeper``
every minute over the rooms not over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from velvet.engine.core import player_name
from velvet.games import find_spec
from velvet.server.room import Room
from velvet.server.storage import Conflict, RoomRow, StorageError

log = logging.getLogger("velvet.server")

DAY = 86_400.0
DAYS_PER_MOVE = (1, 3, 7)
"""The choices a room has (``CreateRoom.days_per_move``)."""
HOURS_PER_MOVE = (1, 4, 12)
"""The choices in hours (``CreateRoom.hours_per_move``)."""
HOUR = 3_600.0
SWEEP_SECONDS = 60.0


def days_of(row: RoomRow) -> int | None:
    """The room's days per move, or None (counted in hours, or not a correspondence room)."""
    days = row.options.get("days_per_move")
    return int(days) if days else None


def hours_of(row: RoomRow) -> int | None:
    """The room's hours per move, or None (counted in days, or not a correspondence room)."""
    hours = row.options.get("hours_per_move")
    return int(hours) if hours else None


def per_move(row: RoomRow) -> float | None:
    """Seconds each decision may take, or None: not a correspondence room."""
    days, hours = days_of(row), hours_of(row)
    return days * DAY if days else hours * HOUR if hours else None


def deadline(row: RoomRow, last_move: float | None) -> float | None:
    """When the pending decision runs out (Unix time), or None (no time per move, over)."""
    seconds = per_move(row)
    if seconds is None or row.status == "over":
        return None
    start = last_move if last_move is not None else row.created
    return start + seconds


def flag_result(room: Room, seat: int) -> dict[str, Any]:
    """The result of ``seat`` running out of time: it loses (co-op: everyone does)."""
    players = len(room.row.seats)
    spec = find_spec(room.game.name)
    name = player_name(seat)
    if spec is not None and spec.cooperative:
        returns = [0.0] * players
        text = f"{name} ran out of time; the game is lost."
    else:
        returns = [0.0 if s == seat else 1.0 for s in range(players)]
        others = [player_name(s) for s in range(players) if s != seat]
        text = f"{name} ran out of time" + (f"; {others[0]} wins." if others else ".")
    return {"returns": returns, "text": text, "flagged": seat}


async def check(hub: Any, room: Room, now: float) -> float | None:
    """Flag ``room``'s seat to move if its deadline passed at ``now``; return the deadline
    still running (None: none, or the game is over now)."""
    if per_move(room.row) is None or room.over:
        return None
    last = await asyncio.to_thread(hub.storage.last_moves, [room.row.id])
    due = deadline(room.row, last.get(room.row.id))
    seat = room.to_move()
    if due is None or seat is None or now < due:
        return due
    async with room.lock:
        if room.over or room.to_move() != seat:
            return None
        result = flag_result(room, seat)
        try:
            await asyncio.to_thread(hub.storage.finish, room.row.id, room.version, result)
        except Conflict:
            return None  # a move or an end came first: the next check reads it
        room.row.status, room.row.result = "over", result
        hub.announce_end(room)
    await hub.bus.publish(room.row.id, room.version, True)
    return None


class Sweeper:
    """Every ``seconds``, checks the deadlines of the rooms not over (``clock``: now)."""

    def __init__(self, hub: Any, clock: Callable[[], float], seconds: float = SWEEP_SECONDS):
        self.hub, self.clock, self.seconds = hub, clock, seconds
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._loop())

    async def sweep(self) -> int:
        """One pass; returns how many games were lost on time."""
        flagged = 0
        ids = await asyncio.to_thread(self.hub.storage.playing)
        rows = await asyncio.to_thread(self.hub.storage.rooms_of, ids)
        for row in rows.values():
            if per_move(row) is None:
                continue
            room = await self.hub.get(row.id)
            if room is not None and await check(self.hub, room, self.clock()) is None:
                flagged += room.over
        return flagged

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.seconds)
            try:
                await self.sweep()
            except (StorageError, OSError) as failure:
                log.warning("correspondence sweep failed: %s", failure)

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
