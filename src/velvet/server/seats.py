"""The seat desk: who holds each seat of a room, and a person's seat a bot plays for now.

It owns the seats' claims (an invite claimed once, a client's secret, a one-time move
code, an account bound in a rated room), the grace period of a person who left and the
takeover after it, and the background writes of those marks (one thread, in order).
The seats are read from and written to the database (velvet.server.storage), so a
claim made through another process counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from velvet.engine.core import player_name
from velvet.server import messages
from velvet.server.protocol import ErrorCode, ErrorMsg, TransferMsg
from velvet.server.room import Conn, Room
from velvet.server.storage import SeatRow, Storage, StorageError, token_digest, token_matches

log = logging.getLogger("velvet.server")
MOVE_CODE_SECONDS = 600
"""How long a seat's one-time move code (``transfer``) lasts."""


class SeatRefused(Exception):
    """A ``hello`` whose token opens no seat: its error code and message."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code


class SeatDesk:
    """The seats of a hub's rooms; ``kick(room)`` starts a bot that now plays a seat."""

    def __init__(self, storage: Storage, kick: Callable[[Room], None]) -> None:
        self.storage = storage
        self.kick = kick
        # seat marks are written one at a time, in the order they were made
        self.marks = ThreadPoolExecutor(max_workers=1, thread_name_prefix="velvet-seats")

    def resume(self, room: Room) -> None:
        """A room read from the database: its bot takeovers stand, its grace periods run on."""
        if room.over:
            return
        grace = room.row.options.get("grace")
        for s in room.row.seats:
            if s.who != "human":
                continue
            if s.taken_over:
                room.taken_over.add(s.seat)
            elif s.dropped_at is not None and grace and room.row.options.get("takeover"):
                left = max(0.0, s.dropped_at + float(grace) - time.time())
                room.grace[s.seat] = asyncio.create_task(self.grace(room, s.seat, left))
        self.kick(room)

    async def open_seat(
        self, room: Room, token: str, account: int | None = None, player: str | None = None
    ) -> tuple[int, str | None]:
        """The seat ``token`` opens, and the secret it was just given, if any.

        ``token`` is a client's seat secret (the seat it claimed), an unclaimed seat's
        invite (claimed now: the seat is bound to this client, whose new secret is
        returned), or a seat's one-time move code (the seat moves to this client; the
        old client's sockets here are closed). Digests are compared in constant time;
        the seats are read from the database, so a claim made through another process
        counts. A claim binds the seat to ``account`` too (the client's signed-in account,
        velvet.server.accounts, named ``player``). Raises SeatRefused (``invite_used``,
        ``code_spent``, ``bad_token``; in a rated room ``sign_in`` and ``same_account``).
        """
        rows = await asyncio.to_thread(self.storage.seats_of, room.row.id)
        people = [s for s in rows if s.who == "human"]
        for s in people:
            if s.secret_sha256 is not None and token_matches(token, s.secret_sha256):
                return s.seat, None
        secret = secrets.token_urlsafe(24)
        for s in people:
            if not token_matches(token, s.token_sha256):
                continue
            if s.secret_sha256 is None and room.row.options.get("rated"):
                _rated_claim(rows, s.seat, account)
            if s.secret_sha256 is None and await asyncio.to_thread(
                self.storage.claim_seat, room.row.id, s.seat, token_digest(secret), account
            ):
                self.bound(room, s.seat, token_digest(secret))
                if account is not None and player is not None:
                    room.players[s.seat] = player
                    for row in room.row.seats:
                        if row.seat == s.seat:
                            row.account = account
                messages.send_seats(room)  # "Open seat" is someone now
                return s.seat, secret
            raise SeatRefused(
                "invite_used",
                f"this invite to {player_name(s.seat)}'s seat was already used: the seat "
                "belongs to the browser (or velvet join) that opened the link first. If that "
                "was not you, the link was opened by someone else — ask the room's creator; "
                "if it was you on another device, move the seat from there (Move this seat "
                "to another device)",
            )
        for s in people:
            if s.move_sha256 is None or not token_matches(token, s.move_sha256):
                continue
            if await asyncio.to_thread(
                self.storage.take_move, room.row.id, s.seat, s.move_sha256, token_digest(secret)
            ):
                self.bound(room, s.seat, token_digest(secret))
                for c in list(room.conns):
                    if c.seat == s.seat:  # the old device: its secret opens nothing now
                        c.send(
                            ErrorMsg(
                                code="seat_moved",
                                message=f"{player_name(s.seat)}'s seat moved to another device "
                                "with its one-time code; this page now only watches",
                            )
                        )
                        c.close()
                return s.seat, secret
            break
        raise SeatRefused(
            "bad_token",
            "that token opens no seat here (a one-time move code works once, for "
            f"{MOVE_CODE_SECONDS // 60} minutes)",
        )

    def background(self, job: Callable[[], None]) -> None:
        """Run a small write in the seat-mark thread (a failure is logged, not fatal)."""
        future = self.marks.submit(job)

        def done(f: Any) -> None:
            if f.exception() is not None:
                log.warning("a background write failed: %s", f.exception())

        future.add_done_callback(done)

    def bound(self, room: Room, seat: int, digest: str) -> None:
        """Note in memory that ``seat`` now opens with the secret of this digest."""
        for s in room.row.seats:
            if s.seat == seat:
                s.secret_sha256, s.claimed_at, s.move_sha256 = digest, time.time(), None

    async def transfer(self, room: Room, conn: Conn) -> None:
        """``transfer``: a one-time code that moves ``conn``'s seat to another client."""
        assert conn.seat is not None
        code = secrets.token_urlsafe(12)
        until = time.time() + MOVE_CODE_SECONDS
        try:
            await asyncio.to_thread(
                self.storage.offer_move, room.row.id, conn.seat, token_digest(code), until
            )
        except StorageError as failure:
            conn.send(ErrorMsg(code="storage", message=str(failure)))
            return
        conn.send(TransferMsg(code=code, seconds=MOVE_CODE_SECONDS))

    async def grace(self, room: Room, seat: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        room.grace.pop(seat, None)
        if all(c.seat != seat for c in room.conns) and not room.over:
            room.taken_over.add(seat)
            messages.send_seats(room)
            saved = self.mark(room, seat, taken_over=True, dropped_at=None)
            with contextlib.suppress(Exception):  # logged by mark; the bot plays anyway
                await asyncio.wrap_future(saved)
            self.kick(room)

    def mark(
        self, room: Room, seat: int, taken_over: bool, dropped_at: float | None
    ) -> Future[None]:
        """Save a seat's takeover state in the background (a failure is logged, not fatal)."""
        future = self.marks.submit(
            self.storage.mark_seat, room.row.id, seat, taken_over, dropped_at
        )

        def done(f: Any) -> None:
            if f.exception() is not None:
                log.warning("seat %s of room %s not saved: %s", seat, room.row.id, f.exception())

        future.add_done_callback(done)
        return future

    def returned(self, room: Room, conn: Conn) -> None:
        """``conn``'s seat has a socket again: its grace period ends, its person plays again."""
        seat = conn.seat
        if seat is None:
            return
        task = room.grace.pop(seat, None)
        if task is not None:
            task.cancel()
        if seat in room.taken_over or task is not None:
            back = seat in room.taken_over
            room.taken_over.discard(seat)
            self.mark(room, seat, taken_over=False, dropped_at=None)
            if back:
                messages.send_seats(room, skip=conn)  # the person plays again

    def dropped(self, room: Room, seat: int) -> None:
        """``seat`` has no socket left: in a room with ``grace`` and ``takeover``, its grace
        period starts (a bot plays for it when it ends)."""
        grace = room.row.options.get("grace")
        if (
            not room.over
            and grace
            and room.row.options.get("takeover")
            and all(c.seat != seat for c in room.conns)
            and seat not in room.taken_over
            and seat not in room.grace
        ):
            room.grace[seat] = asyncio.create_task(self.grace(room, seat, float(grace)))
            self.mark(room, seat, taken_over=False, dropped_at=time.time())


def _rated_claim(rows: Sequence[SeatRow], seat: int, account: int | None) -> None:
    """A rated room's seat is claimed only by a signed-in account, not one holding the
    other seat (SeatRefused ``sign_in``, ``same_account``)."""
    if account is None:
        raise SeatRefused(
            "sign_in",
            f"this is a rated game: sign in (or sign up) first, then open the invite to "
            f"{player_name(seat)}'s seat again",
        )
    if any(s.account == account for s in rows if s.seat != seat):
        raise SeatRefused(
            "same_account",
            "your account already holds the other seat of this rated game; a rated game is "
            "between two accounts",
        )
