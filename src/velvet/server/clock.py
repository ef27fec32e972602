"""The clock: each room's turn timer, the decision it times and the hint time added.

A room with a ``turn_timer`` times each person's decision; when its deadline passes, the
room's ``takeover`` bot (``random`` if none) plays for that seat. The seat's own hints move
the deadline by the time they took, by at most ``HINT_TIME_CAP`` of the timer. The
deadline and the decision timed are the room's (``Room.timer_for``, ``deadline``,
``extended``); this module reads and sets them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from velvet.server.protocol import TimerMsg
from velvet.server.room import Room

HINT_TIME_CAP = 1.0
"""A decision's deadline is extended for its seat's hints by at most this share of the
room's turn timer (1.0: a decision lasts at most twice the timer, however many hints)."""


class Clock:
    """Times the rooms' decisions; ``play_for(room, seat, bot)`` moves for a seat whose
    time ran out, then ``kick(room)`` starts what comes next (the bots)."""

    def __init__(
        self,
        play_for: Callable[[Room, int, str], Awaitable[None]],
        kick: Callable[[Room], None],
    ) -> None:
        self.play_for = play_for
        self.kick = kick

    def extend(self, room: Room, seat: int, version: int, seconds: float) -> None:
        """A hint of ``seat`` for decision ``version`` took ``seconds``: if that decision is
        still timed, its deadline moves by as much (within HINT_TIME_CAP), told to the room."""
        timed = room.timer is not None and not room.timer.done()
        if not timed or room.timer_for != (version, seat) or room.version != version:
            return
        cap = HINT_TIME_CAP * float(room.row.options.get("turn_timer") or 0)
        added = max(0.0, min(seconds, cap - room.extended))
        if added <= 0:
            return
        room.deadline += added
        room.extended += added
        left = max(0.0, room.deadline - time.monotonic())
        message = TimerMsg(version=version, seat=seat, added=round(added, 2), left=round(left, 2))
        text = message.model_dump_json()
        for c in room.conns:
            c.send(text)

    def arm(self, room: Room) -> None:
        """Time the decision now pending (a timer already running for it is kept)."""
        seconds = room.row.options.get("turn_timer")
        seat = room.to_move()
        wanted = seconds and seat is not None and room.bot_for(seat) is None
        if room.timer is not None and not room.timer.done():
            if wanted and room.timer_for == (room.version, seat):
                return
            room.timer.cancel()
        room.timer = None
        if wanted and seat is not None:
            room.timer_for = (room.version, seat)
            room.deadline, room.extended = time.monotonic() + float(seconds or 0), 0.0
            timeout = self._timeout(room, seat, room.version, float(seconds or 0))
            room.timer = asyncio.create_task(timeout)

    async def _timeout(self, room: Room, seat: int, version: int, seconds: float) -> None:
        """Play for ``seat`` when its decision's deadline passes. The seat's own hints move
        the deadline by the time they took (``extend``), and one still being worked out
        holds the timer (within HINT_TIME_CAP): asking for a hint never costs the turn.
        The deadline was set by ``arm``, so a state sent before this task first runs
        already tells the time left."""
        cap = HINT_TIME_CAP * seconds
        while True:
            left = room.deadline - time.monotonic()
            if left > 0:
                await asyncio.sleep(left)
            elif room.extended < cap and room.hint_pending(seat, version):
                await asyncio.sleep(0.05)  # the hint's end extends the deadline
            else:
                break
        if room.version == version and room.to_move() == seat:
            spec = str(room.row.options.get("takeover") or "random")
            await self.play_for(room, seat, spec)
            self.kick(room)


def time_left(room: Room, to_move: int | None) -> float | None:
    """Seconds left for the pending decision if its timer already runs (a seat that
    joins or reconnects mid-decision), else None: the decision gets the whole timer."""
    timed = room.timer is not None and not room.timer.done()
    if not timed or to_move is None or room.timer_for != (room.version, to_move):
        return None
    return round(max(0.0, room.deadline - time.monotonic()), 1)
