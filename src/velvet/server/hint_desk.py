"""The hint desk: hints and forecasts a seat asks for, worked out beside the game.

It owns the searches running for sockets (one per socket, within the pool's slots per
room seat and per address), their cancellation, and the turn time their work is worth:
the seat's clock (velvet.server.clock) is extended by the time a hint took. An answer
goes to the asking socket only and never changes the game; one overtaken by a move is
dropped and its search stopped.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from velvet.engine.core import State, player_name
from velvet.engine.errors import VelvetError
from velvet.server.clock import Clock
from velvet.server.hinting import HintPool
from velvet.server.protocol import ErrorMsg, ForecastMsg, HintCancelledMsg, HintMsg
from velvet.server.room import Conn, Room

log = logging.getLogger("velvet.server")


class HintDesk:
    """The hints of every room of a hub, worked out by ``hinter``."""

    def __init__(self, hinter: HintPool, clock: Clock) -> None:
        self.hinter = hinter
        self.clock = clock
        self.tasks: set[asyncio.Task[None]] = set()

    def refusal(self, room: Room, conn: Conn, version: int, kind: str) -> ErrorMsg | None:
        """Why ``conn`` may not have a ``kind`` (hint or forecast) now, or None.

        Every refusal's code starts with ``hint_`` (a move's own codes stay the move's).
        """
        seat = conn.seat
        if not room.hints_allowed():
            return ErrorMsg(
                code="hint_off", message="this room gives no hints (its hints option is off)"
            )
        if kind == "forecast" and not room.forecasts():
            return ErrorMsg(
                code="hint_no_forecast",
                message=f"the game '{room.game.name}' offers no forecast (in P5: the chance "
                "to beat the boss in time)",
            )
        if room.over:
            return ErrorMsg(code="hint_over", message="the game is over: there is nothing to hint")
        if version != room.version:
            return ErrorMsg(
                code="hint_stale",
                message=f"{kind} asked at version {version}; the game is at {room.version}",
            )
        if seat is not None and room.to_move() == seat and room.bot_for(seat) is not None:
            return ErrorMsg(
                code="hint_not_your_turn",
                message="a bot plays your seat now (it was handed over); hints are for "
                "the player whose decision it is",
            )
        if seat is None or room.to_move() != seat:
            who = room.to_move()
            whose = player_name(who) if who is not None else "nobody"
            return ErrorMsg(
                code="hint_not_your_turn",
                message=f"hints are for the player whose decision it is; it is {whose}'s",
            )
        if conn.hinting is not None:
            return ErrorMsg(
                code="hint_busy",
                message=f"a {conn.hinting} is already being worked out for you; wait for it",
            )
        return self.hinter.slots.refusal((room.row.id, seat), conn.address)

    def ask(self, room: Room, conn: Conn, version: int, kind: str) -> None:
        """Start working out a ``hint`` or a ``forecast`` for ``conn``'s seat; the answer
        (or a refusal) goes to that socket only, and never changes the game."""
        error = self.refusal(room, conn, version, kind)
        if error is not None:
            conn.send(error)
            return
        assert conn.seat is not None  # refused above otherwise
        conn.hinting = kind
        conn.hint_version = version
        state = room.state.clone()  # the room's state moves on; the worker reads this copy
        work = self._work_out(room, conn, conn.seat, version, kind, state, time.monotonic())
        task = asyncio.create_task(work)
        conn.hint_task = task
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        self.hinter.slots.hold(task, (room.row.id, conn.seat), conn.address)

    def cancel(self, conn: Conn) -> None:
        """``hint_cancel``: stop the hint or forecast being worked out for ``conn``. Its slot
        is free at once (another may be asked), its answer never comes, and its search ends
        at its next check (velvet.server.hinting.HintPool)."""
        kind, task = conn.hinting, conn.hint_task
        if kind is None or task is None or task.done():
            conn.send(
                ErrorMsg(
                    code="hint_none",
                    message="no hint or forecast is being worked out for you "
                    "(an answer may have just been sent)",
                )
            )
            return
        self.drop(conn)
        conn.send(
            HintCancelledMsg(
                kind="forecast" if kind == "forecast" else "hint", version=conn.hint_version
            )
        )

    def drop(self, conn: Conn) -> None:
        """Cancel ``conn``'s pending hint, if any, and free its slot and the server's."""
        task = conn.hint_task
        conn.hinting, conn.hint_task = None, None
        if task is not None and not task.done():
            self.tasks.discard(task)
            self.hinter.slots.release(task)
            task.cancel()

    async def _work_out(
        self,
        room: Room,
        conn: Conn,
        seat: int,
        version: int,
        kind: str,
        state: State[Any],
        asked: float,
    ) -> None:
        try:
            if kind == "forecast":
                found = await self.hinter.forecast(state, seat)
            else:
                found = await self.hinter.hint(state, seat)
        except VelvetError as error:
            conn.send(ErrorMsg(code="hint_failed", message=f"no {kind}: {error}"))
            return
        except Exception:
            log.exception("%s failed in room %s", kind, room.row.id)
            conn.send(ErrorMsg(code="hint_failed", message=f"the {kind} could not be worked out"))
            return
        finally:
            if conn.hint_task is asyncio.current_task():  # not cancelled, nor replaced
                conn.hinting, conn.hint_task = None, None
            self.clock.extend(room, seat, version, time.monotonic() - asked)
        if room.version != version:
            conn.send(overtaken(kind, version, room.version))
            return
        if kind == "forecast":
            conn.send(ForecastMsg(version=version, **found))
        else:
            conn.send(HintMsg(version=version, **found))

    def overtaken(self, room: Room) -> None:
        """Stop the hints ``room``'s version has overtaken (their answers would be
        dropped), telling each socket so."""
        for c in list(room.conns):
            if c.hinting is not None and c.hint_version != room.version:
                kind, asked = c.hinting, c.hint_version
                self.drop(c)
                c.send(overtaken(kind, asked, room.version))

    def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()


def overtaken(kind: str, asked: int, version: int) -> ErrorMsg:
    return ErrorMsg(
        code="hint_stale",
        message=f"the game moved on (to version {version}) while the {kind} "
        f"for version {asked} was worked out; ask again",
    )
