"""The hub: the one place where moves are checked, committed and announced.

A room in memory (velvet.server.room) holds the state rebuilt from its committed entries
and the sockets connected to it. A move is checked against the engine's legal list,
committed, and only then applied and sent out (velvet.server.messages), each seat getting
its own view. The hub holds the rooms of this process and one of each desk: the seats
(velvet.server.seats), the bots (velvet.server.bot_driver), the turn clock
(velvet.server.clock) and the hints (velvet.server.hint_desk); a new room's row is made
by velvet.server.room_rows and the notices between processes are typed by
velvet.server.notices. The names those modules
took from here are still importable from here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from velvet.engine.core import Event, State, choose_by_text, player_name
from velvet.engine.errors import IllegalActionError, VelvetError
from velvet.engine.undo import MAX_SNAPSHOTS
from velvet.games import find_spec
from velvet.server import correspondence, messages, room_rows
from velvet.server.bot_driver import BotDriver
from velvet.server.bots import BotPool
from velvet.server.bus import Bus
from velvet.server.clock import HINT_TIME_CAP, Clock
from velvet.server.hint_desk import HintDesk
from velvet.server.hinting import HintPool, HintSettings
from velvet.server.limits import RoomLimiter
from velvet.server.messages import row_seat_infos, seat_display, undo_text
from velvet.server.notices import (
    Chatted,
    Emoted,
    Entry,
    MoveEntry,
    Notice,
    RematchDeclined,
    RematchMade,
    RematchOffered,
    UndoAsked,
    UndoEntry,
    read_entry,
)
from velvet.server.protocol import (
    CHAT_MAX,
    EMOTES,
    ChatMsg,
    CreateRoom,
    EmoteMsg,
    ErrorMsg,
    Invite,
    LogMsg,
    RoomCreated,
    RoomInfo,
    SeatInfo,
    Welcome,
)
from velvet.server.rematches import RematchDesk
from velvet.server.room import (
    CHAT_SECONDS,
    EMOTE_SECONDS,
    LOG_LIMIT,
    OUTBOX_LIMIT,
    Conn,
    Room,
    end_rule,
    hints_default,
    replay_room,
    undo_entry,
)
from velvet.server.room_rows import seed_commitment
from velvet.server.seats import MOVE_CODE_SECONDS, SeatDesk, SeatRefused
from velvet.server.storage import (
    Conflict,
    RoomRow,
    Storage,
    StorageError,
    token_digest,
)

log = logging.getLogger("velvet.server")


class RoomsFull(StorageError):
    """This process holds ``max_rooms`` rooms and none of them is idle."""


def chat_line(text: str) -> str:
    """``text`` as one line of plain words: control characters (a newline, an escape) and
    runs of spaces become one space, the ends trimmed, at most ``CHAT_MAX`` characters."""
    words = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in text)
    return " ".join(words.split())[:CHAT_MAX]


def _too_soon(conn: Conn, since: float, seconds: float, what: str) -> bool:
    """Whether ``conn`` said its last ``what`` less than ``seconds`` ago (``since``): then
    it is told to wait (``rate_limited``)."""
    if since >= seconds:
        return False
    message = f"one {what} every {seconds:.0f} seconds; wait a moment"
    conn.send(ErrorMsg(code="rate_limited", message=message))
    return True


class Hub:
    """All rooms this process serves."""

    def __init__(
        self,
        storage: Storage,
        pool: BotPool,
        bus: Bus | None = None,
        public_url: str | None = None,
        hinter: HintPool | None = None,
    ) -> None:
        self.storage = storage
        self.pool = pool
        self.hinter = hinter or HintPool(HintSettings(workers=0))
        self.clock = Clock(self._bot_move, self._kick)
        """The rooms' turn timers (velvet.server.clock)."""
        self.desk = HintDesk(self.hinter, self.clock)
        """The hints being worked out (velvet.server.hint_desk)."""
        self.bots = BotDriver(pool, self.clock, self.move, self._maybe_evict)
        """The bots' moves and takeovers' moves (velvet.server.bot_driver)."""
        self.bus = bus or Bus()
        storage.notify_channel = self.bus.commit_channel
        self.public_url = public_url
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.limiter = RoomLimiter(20.0, 200)
        """Rooms (and rematches) one client address may create."""
        self.rematches = RematchDesk(
            storage, self.bus, lambda address: self.limiter.refusal(address), self.started
        )
        """Rematch offers, answers and the rooms they make (velvet.server.rematches)."""
        self.max_rooms = 2000
        """Rooms held in memory at most (idle ones are dropped first)."""
        self.idle_seconds = 120.0
        """An idle room leaves memory after this long (it is read again when asked for)."""
        self._swept = time.monotonic()
        self._closing = False
        self.seats = SeatDesk(storage, self._kick)
        """The seats' claims, grace periods and takeovers (velvet.server.seats)."""
        self.on_end: Callable[[Room], None] | None = None
        """Called when a game ends in this process (the app records results and ratings)."""
        self.names: Callable[[list[int]], dict[int, str]] = lambda _ids: {}
        """Account names by id (the app's velvet.server.accounts.Accounts.names)."""
        self.on_seat: Callable[[Room, int, bool], None] | None = None
        """Called when a seat's first socket comes (True) or its last one goes (False)
        (matchmaking keeps a seek listed while its seeker is here)."""

    # --- rooms ----------------------------------------------------------------------------

    async def create(self, request: CreateRoom, base_url: str) -> RoomCreated:
        row, tokens = await self.new_row(request)
        await asyncio.to_thread(self.storage.create_room, row)
        await self.started(row.id)
        base = (self.public_url or base_url).rstrip("/")
        invites = [
            Invite(seat=s.seat, name=player_name(s.seat), url=f"{base}/join/{row.id}#{t}", token=t)
            for s, t in zip(row.seats, tokens, strict=True)
            if s.who == "human"
        ]
        ws = base.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
        return RoomCreated(
            room=row.id,
            seed_sha256=row.seed_sha256,
            invites=invites,
            spectate=f"{base}/join/{row.id}",
            websocket=f"{ws}/ws/{row.id}",
        )

    async def new_row(
        self, request: CreateRoom, claims: Sequence[tuple[str, int | None] | None] = ()
    ) -> tuple[RoomRow, list[str]]:
        """A new room's row, checked, not yet saved, and each seat's invite token
        (velvet.server.room_rows.new_row, with this server's bot limits)."""
        return await room_rows.new_row(request, self.pool.check, claims, self.storage.clock)

    async def started(self, room_id: str) -> None:
        """A room just saved: its bots start if one moves first (it loads when someone
        comes if this process is full)."""
        with contextlib.suppress(RoomsFull):
            self._start(await self.get(room_id))

    def _start(self, room: Room | None) -> None:
        """A room just made: its bots start if one moves first; else it need not stay."""
        if room is not None:
            self._kick(room)
            self._maybe_evict(room)

    async def get(self, room_id: str) -> Room | None:
        """The room in memory, loading (replaying) it from the database if needed."""
        self._sweep()
        room = self.rooms.get(room_id)
        if room is not None:
            room.used = time.monotonic()
            return room
        lock = self._loading.setdefault(room_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(room_id)
            if room is not None:
                return room
            if len(self.rooms) >= self.max_rooms:
                self._sweep(make_room=True)
            loaded = await asyncio.to_thread(self.storage.load_room, room_id)
            if loaded is None:
                self._loading.pop(room_id, None)
                return None
            row, actions = loaded
            room = await asyncio.to_thread(replay_room, row, actions)
            if correspondence.per_move(row) is not None and actions:
                last = await asyncio.to_thread(self.storage.last_moves, [room_id])
                room.moved_at = last.get(room_id)
            bound = {s.seat: s.account for s in row.seats if s.account is not None}
            if bound:
                names = await asyncio.to_thread(self.names, list(bound.values()))
                room.players = {seat: names[a] for seat, a in bound.items() if a in names}
            self.rooms[room_id] = room
            self.seats.resume(room)
        if self.bus.shared:
            async with room.lock:  # a notice may have come while it was being read
                await self._catch_up(room)
        return room

    def info(self, room: Room) -> RoomInfo:
        return messages.room_info(room)

    def seat_infos(self, room: Room) -> list[SeatInfo]:
        return messages.seat_infos(room)

    def seats_changed(self, room: Room, skip: Conn | None = None) -> None:
        """Tell the room's sockets (but ``skip``) who plays each seat now (``seats``)."""
        messages.send_seats(room, skip)

    # --- sockets and seats (velvet.server.seats) -------------------------------------

    async def open_seat(
        self, room: Room, token: str, account: int | None = None, player: str | None = None
    ) -> tuple[int, str | None]:
        """The seat ``token`` opens, and the secret it was just given, if any
        (velvet.server.seats.SeatDesk.open_seat; raises SeatRefused)."""
        return await self.seats.open_seat(room, token, account, player)

    async def seat_claimed(
        self, room_id: str, seat: int, secret: str, account: int | None, player: str | None
    ) -> None:
        """A seat claimed outside a socket (a seek taken): the room in memory learns it."""
        room = self.rooms.get(room_id)
        if room is None:
            return
        self.seats.bound(room, seat, token_digest(secret))
        if account is not None and player is not None:
            room.players[seat] = player
            for row in room.row.seats:
                if row.seat == seat:
                    row.account = account

    def background(self, job: Callable[[], None]) -> None:
        """Run a small write in the seat-mark thread (a failure is logged, not fatal)."""
        self.seats.background(job)

    def _ended(self, room: Room) -> None:
        """The game just ended here: its record (and ratings) are written in the background."""
        if self.on_end is not None:
            self.on_end(room)

    def announce_end(self, room: Room) -> None:
        """The game was just ended outside a move (a loss on time, velvet.server.
        correspondence; under the room's lock): told to its sockets and recorded."""
        self._announce(room, [], mover=None)
        self._ended(room)

    async def transfer(self, room: Room, conn: Conn) -> None:
        """``transfer``: a one-time code that moves ``conn``'s seat to another client."""
        await self.seats.transfer(room, conn)

    def log_msg(self, room: Room, seat: int | None, lang: str = "en") -> LogMsg:
        """The log so far, each event as ``seat`` (None: a spectator) may see it, in ``lang``."""
        return messages.log_msg(room, seat, lang)

    def attach(self, room: Room, conn: Conn, secret: str | None = None) -> None:
        """Add ``conn`` to the room; ``secret``: the seat secret its claim just gave it."""
        room.conns.add(conn)
        room.used = time.monotonic()
        seat = conn.seat
        if seat is not None and self.on_seat and sum(c.seat == seat for c in room.conns) == 1:
            self.on_seat(room, seat, True)
        self.seats.returned(room, conn)
        conn.send(
            Welcome(
                room=room.row.id,
                game=room.row.game,
                seat=conn.seat,
                seats=self.seat_infos(room),
                seed_sha256=room.row.seed_sha256,
                turn_timer=room.row.options.get("turn_timer"),
                hints=conn.seat is not None and room.hints_allowed(),
                forecast=conn.seat is not None and room.hints_allowed() and room.forecasts(),
                secret=secret,
                hotseat=bool(room.row.options.get("hotseat")),
                emotes=room.emotes_allowed(),
                chat=room.chat_allowed(),
            )
        )
        if room.history:
            conn.send(self.log_msg(room, conn.seat, conn.lang))
        conn.send(messages.state_msg(room, conn.seat, [], ack=False, lang=conn.lang))
        if room.over:
            conn.send(messages.record_msg(room))
        elif conn.seat is not None and room.hints_allowed():
            self.hinter.warm()  # a seat that may ask has come: its first hint need not wait
        self._kick(room)

    def detach(self, room: Room, conn: Conn) -> None:
        was_here = conn in room.conns
        room.conns.discard(conn)
        room.used = time.monotonic()
        gone = all(c.seat != conn.seat for c in room.conns)
        if was_here and conn.seat is not None and self.on_seat and gone and not self._closing:
            self.on_seat(room, conn.seat, False)
        self.desk.drop(conn)  # nobody is left to read its answer
        if conn.seat is not None and not self._closing:
            self.seats.dropped(room, conn.seat)
        self._maybe_evict(room)

    def _maybe_evict(self, room: Room) -> None:
        if room.idle():
            self._evict(room)

    def _evict(self, room: Room) -> None:
        if room.timer is not None:
            room.timer.cancel()
        if self.rooms.get(room.row.id) is room:
            del self.rooms[room.row.id]
            self._loading.pop(room.row.id, None)

    def _sweep(self, make_room: bool = False) -> None:
        """Drop rooms idle for ``idle_seconds`` (checked every few seconds); with
        ``make_room``, the least recently used idle ones too, until one more fits (else
        RoomsFull: every room in memory is in use)."""
        now = time.monotonic()
        if not make_room and now - self._swept < min(5.0, self.idle_seconds):
            return
        self._swept = now
        idle = sorted((r for r in self.rooms.values() if r.idle()), key=lambda r: r.used)
        for room in idle:
            if now - room.used >= self.idle_seconds or (
                make_room and len(self.rooms) >= self.max_rooms
            ):
                self._evict(room)
        if make_room and len(self.rooms) >= self.max_rooms:
            raise RoomsFull(
                f"the server holds {self.max_rooms} rooms in use; try again in a moment"
            )

    # --- moves ----------------------------------------------------------------------------

    async def move(self, room: Room, seat: int, version: int, text: str, conn: Conn | None) -> None:
        """Check, commit, apply and announce one move; refusals go to ``conn`` only."""
        async with room.lock:
            error = self._refusal(room, seat, version)
            known = room.known_legal(text) if error is None else None
            if error is None and known is None:
                try:
                    action = choose_by_text(room.state, text)
                except IllegalActionError as illegal:
                    error = ErrorMsg(code="illegal", message=str(illegal), rule=illegal.rule_id)
                except VelvetError as bad:
                    error = ErrorMsg(code="invalid", message=str(bad))
            if error is not None:
                if conn is not None:
                    conn.send(error)
                return
            after = room.state.clone()
            if known is not None:  # taken from this version's legal list: no need to ask again
                action = known
                events = after.apply_unchecked(action)
            else:
                events = after.apply(action)
            finished = _result(after) if after.is_terminal() else None
            number = room.version + 1
            try:
                await asyncio.wrap_future(
                    self.storage.submit_move(room.row.id, number, seat, str(action), finished)
                )
            except Conflict:
                await self._catch_up(room)
                if conn is not None:
                    conn.send(
                        ErrorMsg(code="stale", message="another move was made first; try again")
                    )
                return
            except StorageError as failure:
                if conn is not None:
                    conn.send(ErrorMsg(code="storage", message=str(failure)))
                return
            before, room.state = room.state, after
            room.push(str(action), before)
            room.moved_at = self.storage.clock()
            if finished is not None:
                room.row.status = "over"
                room.row.result = finished
            room.row.version = number
            self._announce(room, events, mover=conn, action=str(action))
            if finished is not None:
                self._ended(room)
        if self.bus.commit_channel is None:  # else the commit has announced it
            await self.bus.publish(
                room.row.id, number, finished is not None, MoveEntry(str(action))
            )
        self._kick(room)

    async def undo(self, room: Room, seat: int, version: int, conn: Conn) -> None:
        """Take back ``seat``'s last move and the bot moves after it, where the room allows.

        Committed like a move (an ``!undo N`` entry: the moves after the first N are taken
        back), so it holds after a restart; the record keeps the moves that stand and lists
        the ones taken back under ``taken_back``.
        """
        async with room.lock:
            asker = room.asker()
            agreeing = asker is not None and asker != seat and not room.alone()
            keep = room.undo_target(asker if agreeing and asker is not None else seat)
            error: ErrorMsg | None = None
            if room.over:
                rule = end_rule(room)
                error = ErrorMsg(code="game_over", message="the game is over", rule=rule)
            elif not room.undo_allowed():
                error = ErrorMsg(
                    code="undo_off", message="this room allows no undo (its undo option is off)"
                )
            elif version != room.version:
                error = ErrorMsg(
                    code="stale",
                    message=f"undo asked at version {version}; the game is at {room.version}",
                )
            elif asker == seat:
                error = ErrorMsg(
                    code="undo_asked", message="your undo waits for the other player to agree"
                )
            elif keep is None:
                error = ErrorMsg(
                    code="nothing_to_undo",
                    message="nothing to undo: no move of yours since the last die roll, "
                    "shuffle or hidden card (those cannot be taken back)",
                )
            if error is not None:
                conn.send(error)
                return
            assert keep is not None  # no refusal: there is a move to go back to
            asked = not room.alone() and not agreeing
            if asked:
                room.undo_asked = (seat, room.version)
                self._announce(room, [Event("undo_ask", {"player": seat})], mover=None)
                notice: tuple[int, Notice] = (room.version, UndoAsked(seat))
            else:
                room.undo_asked = None
                taken = await self._commit_undo(room, seat, keep, conn)
                if taken is None:
                    return
                notice = taken
        if asked:  # the other seat may be on another process: it is told through the bus
            await self.bus.publish(room.row.id, notice[0], False, notice[1])
            return
        if self.bus.commit_channel is None:
            await self.bus.publish(room.row.id, notice[0], False, notice[1])
        self._kick(room)

    async def _commit_undo(
        self, room: Room, seat: int, keep: int, conn: Conn
    ) -> tuple[int, UndoEntry] | None:
        """Commit and apply ``seat``'s undo back to ``keep`` moves (under the room's lock).

        Returns the version and entry committed, or None when it was refused (told to
        ``conn``)."""
        try:
            state = await asyncio.to_thread(room.state_after, keep)
        except VelvetError as failure:
            conn.send(ErrorMsg(code="nothing_to_undo", message=f"cannot undo: {failure}"))
            return None
        entry = UndoEntry(keep)
        number = room.version + 1
        try:
            await asyncio.wrap_future(
                self.storage.submit_move(room.row.id, number, seat, entry.text(), None)
            )
        except Conflict:
            await self._catch_up(room)
            conn.send(ErrorMsg(code="stale", message="another move was made first; try again"))
            return None
        except StorageError as failure:
            conn.send(ErrorMsg(code="storage", message=str(failure)))
            return None
        event = room.take_back(keep, state)
        room.row.version = number
        room.moved_at = self.storage.clock()
        self._announce(room, [event], mover=conn, action=entry.text())
        return number, entry

    def _refusal(self, room: Room, seat: int, version: int) -> ErrorMsg | None:
        if room.over:
            return ErrorMsg(code="game_over", message="the game is over", rule=end_rule(room))
        if version != room.version:
            return ErrorMsg(
                code="stale",
                message=f"move made against version {version}; the game is at {room.version}",
            )
        if room.to_move() != seat:
            who = room.to_move()
            return ErrorMsg(
                code="not_your_turn",
                message=f"it is {player_name(who) if who is not None else 'nobody'}'s turn",
            )
        return None

    # --- hints (velvet.server.hint_desk) ------------------------------------------------

    def hint(self, room: Room, conn: Conn, version: int, kind: str) -> None:
        """Start working out a ``hint`` or a ``forecast`` for ``conn``'s seat."""
        self.desk.ask(room, conn, version, kind)

    def cancel_hint(self, conn: Conn) -> None:
        """``hint_cancel``: stop the hint or forecast being worked out for ``conn``."""
        self.desk.cancel(conn)

    async def resign(self, room: Room, seat: int, conn: Conn) -> None:
        async with room.lock:
            if room.over:
                rule = end_rule(room)
                conn.send(ErrorMsg(code="game_over", message="the game is over", rule=rule))
                return
            players = len(room.row.seats)
            winners = [s for s in range(players) if s != seat]
            spec = find_spec(room.game.name)
            if spec is not None and spec.cooperative:
                # Every seat wins or loses together (P5): one resigns, all lose.
                result = {
                    "returns": [0.0] * players,
                    "text": f"{player_name(seat)} resigned; the game is lost"
                    + {1: ".", 2: " for both (co-op)."}.get(players, " for everyone (co-op)."),
                    "resigned": seat,
                }
            else:
                result = {
                    "returns": [0.0 if s == seat else 1.0 for s in range(players)],
                    "text": f"{player_name(seat)} resigned"
                    + (f"; {player_name(winners[0])} wins." if winners else "."),
                    "resigned": seat,
                }
            try:
                await asyncio.to_thread(self.storage.finish, room.row.id, room.version, result)
            except Conflict:
                await self._catch_up(room)
                conn.send(ErrorMsg(code="stale", message="the game moved on; try again"))
                return
            except StorageError as failure:
                conn.send(ErrorMsg(code="storage", message=str(failure)))
                return
            room.row.status = "over"
            room.row.result = result
            self._announce(room, [], mover=None)
            self._ended(room)
        await self.bus.publish(room.row.id, room.version, True)

    async def rematch(self, room: Room, conn: Conn) -> None:
        """``rematch``: offer, accept or start a rematch (RematchDesk.rematch)."""
        await self.rematches.rematch(room, conn)

    async def emote(self, room: Room, conn: Conn, emote: str) -> None:
        """``emote``: tell the room (here and on the other processes) what ``conn``'s seat
        said; at most one every ``EMOTE_SECONDS`` from a socket."""
        assert conn.seat is not None  # spectators are refused before
        if not room.emotes_allowed():
            conn.send(ErrorMsg(code="emotes_off", message="this room's emotes are off"))
            return
        now = time.monotonic()
        if _too_soon(conn, now - conn.emoted_at, EMOTE_SECONDS, "emote"):
            return
        conn.emoted_at = now
        said = Emoted(conn.seat, emote, secrets.token_hex(6))
        self._tell_emote(room, said)
        await self._publish_said(room, said)

    async def chat(self, room: Room, conn: Conn, text: str) -> None:
        """``chat``: tell the room (here and on the other processes) the line ``conn``'s seat
        wrote, made one line of plain text (:func:`chat_line`); at most one every
        ``CHAT_SECONDS`` from a socket, and only in a room with text chat."""
        assert conn.seat is not None  # spectators are refused before
        if not room.chat_allowed():
            conn.send(ErrorMsg(code="chat_off", message="this room has no text chat"))
            return
        line = chat_line(text)
        if not line:
            conn.send(ErrorMsg(code="bad_message", message="chat: the line holds no words"))
            return
        now = time.monotonic()
        if _too_soon(conn, now - conn.chatted_at, CHAT_SECONDS, "chat line"):
            return
        conn.chatted_at = now
        said = Chatted(conn.seat, secrets.token_hex(6), line)
        self._tell_chat(room, said)
        await self._publish_said(room, said)

    async def _publish_said(self, room: Room, said: Emoted | Chatted) -> None:
        """Tell the other processes what a seat said; this one knows it by its nonce when
        the bus brings it back (and does not tell it twice)."""
        room.emoted.append(said.nonce)
        await self.bus.publish(room.row.id, room.version, room.over, said)

    def _tell_chat(self, room: Room, said: Chatted) -> None:
        if 0 <= said.seat < len(room.row.seats) and room.chat_allowed():
            message = ChatMsg(seat=said.seat, text=chat_line(said.words)).model_dump_json()
            for c in room.conns:
                c.send(message)

    def _tell_emote(self, room: Room, said: Emoted) -> None:
        if 0 <= said.seat < len(room.row.seats) and said.emote in EMOTES:
            message = EmoteMsg.model_validate({"seat": said.seat, "emote": said.emote})
            for c in room.conns:
                c.send(message)

    async def decline_rematch(self, room: Room, conn: Conn) -> None:
        """``rematch_decline``: turn down the other seat's rematch offer."""
        await self.rematches.decline(room, conn)

    async def catch_up(
        self, room_id: str, version: int, over: bool, said: Notice | None = None
    ) -> None:
        """A process changed ``room_id``: replay the moves this one has not seen.

        A notice of the one entry this process lacks carries that entry (a move or an
        undo): it is applied as it comes (the notice is sent after the commit); anything
        else is read from the database. An undo asked and a rematch's notices are told
        to the room's sockets.
        """
        room = self.rooms.get(room_id)
        if room is not None and isinstance(said, UndoAsked):
            await self._heard_ask(room, version, said.seat)
            return
        if room is not None and isinstance(said, RematchOffered | RematchDeclined | RematchMade):
            await self.rematches.heard(room, said)
            return
        if isinstance(said, Emoted | Chatted):
            if room is not None and said.nonce not in room.emoted:  # not this process's own
                if isinstance(said, Emoted):
                    self._tell_emote(room, said)
                else:
                    self._tell_chat(room, said)
            return
        entry = said if isinstance(said, MoveEntry | UndoEntry) else None

        def seen() -> bool:
            assert room is not None
            return room.version >= version and (room.over or not over)

        if room is None or seen():
            return  # not here, or this process made that change itself
        async with room.lock:
            if seen():  # this process's own move, announced before its commit returned
                return
            if not (entry is not None and not over and self._apply_notice(room, version, entry)):
                await self._catch_up(room)
        self._kick(room)

    async def _heard_ask(self, room: Room, version: int, seat: int) -> None:
        """Another process's seat asked, at ``version``, to take its last move back."""
        if not 0 <= seat < len(room.row.seats):
            return  # not a notice of this server's
        async with room.lock:
            if room.version < version:
                await self._catch_up(room)
            if room.over or room.version != version or room.undo_asked == (seat, version):
                return  # moved on already, or this process's own request
            room.undo_asked = (seat, version)
            self._announce(room, [Event("undo_ask", {"player": seat})], mover=None)

    def _apply_notice(self, room: Room, version: int, entry: Entry) -> bool:
        """Apply entry ``version`` if it is the next one here; False if not."""
        if room.over or room.version != version - 1:
            return False
        try:
            events = room.apply_entry(entry)
        except VelvetError:
            return False  # not a move of this state: the database says what happened
        room.row.version = version
        room.moved_at = self.storage.clock()  # told just now: near enough its commit
        self._announce(room, events, mover=None)
        return True

    async def _catch_up(self, room: Room) -> None:
        try:
            loaded = await asyncio.to_thread(self.storage.changes, room.row.id, room.version)
        except StorageError:
            return
        if loaded is None:
            return
        row, new = loaded
        events: list[Event] = []
        for text in new:
            events.extend(room.apply_entry(read_entry(text)))
        if new:
            room.moved_at = self.storage.clock()
        changed = bool(new) or row.status != room.row.status
        room.row.status, room.row.result = row.status, row.result
        room.row.version, room.row.rematch = row.version, row.rematch
        if changed:
            self._announce(room, events, mover=None)

    # --- announcing -----------------------------------------------------------------------

    def _announce(
        self, room: Room, events: Sequence[Event], mover: Conn | None, action: str | None = None
    ) -> None:
        """Send the room's change to its sockets (velvet.server.messages.broadcast), stop
        the hints it overtook and time the decision now pending."""
        messages.broadcast(room, events, mover, action)
        self.desk.overtaken(room)
        self.clock.arm(room)

    # --- bots (velvet.server.bot_driver) -------------------------------------------------

    def _kick(self, room: Room) -> None:
        """Start the bot if a bot is to move and none is thinking; time a person's turn
        (velvet.server.bot_driver.BotDriver.kick)."""
        self.bots.kick(room)

    async def _bot_move(self, room: Room, seat: int, spec: str) -> None:
        """One move of bot ``spec`` for ``seat`` (BotDriver.play_for)."""
        await self.bots.play_for(room, seat, spec)

    async def close(self) -> None:
        self._closing = True  # sockets closed by the shutdown are not seats dropped
        self.desk.close()
        for room in list(self.rooms.values()):
            for task in [room.bot_task, room.timer, *room.grace.values()]:
                if task is not None:
                    task.cancel()
            for c in room.conns:
                c.close()
        self.rooms.clear()
        await asyncio.to_thread(self.seats.marks.shutdown, True)  # the seat marks made so far


def _result(state: State[Any]) -> dict[str, Any]:
    return {"returns": list(state.returns()), "text": state.outcome_text()}


_replay = replay_room  # the name the tests knew

__all__ = [
    "HINT_TIME_CAP",
    "LOG_LIMIT",
    "MAX_SNAPSHOTS",
    "MOVE_CODE_SECONDS",
    "OUTBOX_LIMIT",
    "Conn",
    "Hub",
    "Room",
    "RoomsFull",
    "SeatRefused",
    "_replay",
    "end_rule",
    "hints_default",
    "replay_room",
    "row_seat_infos",
    "seat_display",
    "seed_commitment",
    "undo_entry",
    "undo_text",
]
