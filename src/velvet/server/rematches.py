"""Rematches: a finished room's offer, its answer, and the new room it makes.

Between two people who each claimed their own seat (not one screen) a rematch is an offer
the other seat accepts (the new room has the seats swapped) or declines; otherwise the new
room starts at once. The offer is kept on the room (``Room.rematch_offer``) and told to the
other processes on the bus (velvet.server.notices: ``RematchOffered``, ``RematchDeclined``,
``RematchMade``); the new room's row is made by velvet.server.room_rows.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

from velvet.server.bus import Bus
from velvet.server.notices import (
    Notice,
    RematchDeclined,
    RematchMade,
    RematchNotice,
    RematchOffered,
)
from velvet.server.protocol import ErrorMsg, RematchDeclinedMsg, RematchMsg, RematchOfferMsg
from velvet.server.room import Conn, Room
from velvet.server.room_rows import rematch_row
from velvet.server.storage import Conflict, SeatRow, Storage, StorageError


class RematchDesk:
    """The rematches of a hub's rooms; ``started(room_id)`` starts a new room's bots;
    ``refusal(address)`` says why that client may make no more rooms now."""

    def __init__(
        self,
        storage: Storage,
        bus: Bus,
        refusal: Callable[[str], str | None],
        started: Callable[[str], Awaitable[None]],
    ) -> None:
        self.storage = storage
        self.bus = bus
        self.refusal = refusal
        """Why an address may make no more rooms now (the hub's RoomLimiter), or None."""
        self.started = started

    async def rematch(self, room: Room, conn: Conn) -> None:
        """``rematch``: a new room with the same options, a new seed.

        Between two people who each claimed their own seat (not one screen) it is an offer:
        the other seat's ``rematch`` accepts it, and the new room has the seats swapped
        (each client's secret opens its own new seat, nobody else's); ``rematch_decline``
        turns it down. Otherwise (a bot, one screen, a seat never claimed) the new room
        starts at once with the seats as they are.
        """
        assert conn.seat is not None
        async with room.lock:
            if not room.over:
                conn.send(ErrorMsg(code="not_over", message="a rematch starts after the game"))
                return
            loaded = await asyncio.to_thread(self.storage.load_room, room.row.id)
            now = loaded[0].seats if loaded else list(room.row.seats)
            new_id = loaded[0].rematch if loaded else None
            if new_id is None:
                people = [s for s in now if s.who == "human"]
                mutual = (
                    len(people) == 2
                    and all(s.secret_sha256 is not None for s in people)
                    and not room.row.options.get("hotseat")
                )
                if mutual and room.rematch_offer in (None, conn.seat):
                    room.rematch_offer = conn.seat
                    for c in room.conns:
                        c.send(RematchOfferMsg(seat=conn.seat))
                    notice: Notice | None = RematchOffered(conn.seat)
                else:
                    notice = None
                if notice is not None:
                    await self.bus.publish(room.row.id, room.version, True, notice)
                    return
                refusal = self.refusal(conn.address)
                if refusal is not None:
                    conn.send(ErrorMsg(code="rate_limited", message=refusal))
                    return
                seats = list(reversed(now)) if mutual else list(now)
                row = rematch_row(room.row, seats, self.storage.clock())
                try:
                    await asyncio.to_thread(self.storage.create_room, row)
                except (Conflict, StorageError) as failure:
                    conn.send(ErrorMsg(code="storage", message=str(failure)))
                    return
                new_id = row.id
            room.row.rematch = new_id
            room.rematch_offer = None
            await self._tell(room, new_id, now)
        await self.bus.publish(room.row.id, room.version, True, RematchMade(new_id))
        await self.started(new_id)

    async def _tell(self, room: Room, new_id: str, old: Sequence[SeatRow]) -> None:
        """Send each socket of ``room`` its seat in the rematch ``new_id``: the seat its
        client's secret opens there (``old``: ``room``'s seats as claimed now)."""
        new_seats = await asyncio.to_thread(self.storage.seats_of, new_id)
        by_secret = {s.secret_sha256: s.seat for s in new_seats if s.secret_sha256}
        seat_of: dict[int | None, int | None] = {None: None}
        for s in old:
            digest = s.secret_sha256
            seat_of[s.seat] = by_secret.get(digest) if digest is not None else s.seat
        for c in room.conns:
            c.send(RematchMsg(room=new_id, seat=seat_of.get(c.seat)))

    async def decline(self, room: Room, conn: Conn) -> None:
        """``rematch_decline``: turn down the other seat's rematch offer."""
        assert conn.seat is not None  # spectators are refused before
        offer = room.rematch_offer
        if offer is None or offer == conn.seat:
            conn.send(ErrorMsg(code="no_offer", message="there is no rematch offer to decline"))
            return
        room.rematch_offer = None
        for c in room.conns:
            c.send(RematchDeclinedMsg(seat=conn.seat))
        await self.bus.publish(room.row.id, room.version, True, RematchDeclined(conn.seat))

    async def heard(self, room: Room, said: RematchNotice) -> None:
        """Another process's seat offered, declined or made the rematch of ``room``."""
        if isinstance(said, RematchOffered):
            if room.rematch_offer == said.seat:
                return  # this process's own offer
            room.rematch_offer = said.seat
            for c in room.conns:
                c.send(RematchOfferMsg(seat=said.seat))
        elif isinstance(said, RematchDeclined):
            if room.rematch_offer is not None:
                room.rematch_offer = None
                for c in room.conns:
                    c.send(RematchDeclinedMsg(seat=said.seat))
        elif room.row.rematch != said.room:
            room.row.rematch, room.rematch_offer = said.room, None
            old = await asyncio.to_thread(self.storage.seats_of, room.row.id)
            await self._tell(room, said.room, old)
