"""Finding a game: seeks and quick pairing (docs/web.md, "Finding a game").

* A **seek** is a room of two human seats whose first seat is the seeker's (claimed by the
  seeker's client at once) and whose second waits; ``GET /api/seeks`` lists the open ones
  and ``POST /api/seeks/{room}/take`` gives the waiting seat to whoever asks first. A seek
  leaves the list when it is taken, cancelled, or when its seeker has been gone (no status
  poll, no socket on the seat) for ``seek_gone`` seconds.
* The **quick-pair queue** holds one ticket per waiting player and game. Every poll of a
  ticket pairs the game's waiting tickets by rating (closest first, each ticket's window
  widening with its wait, :func:`pairs`), makes the room and gives each ticket its own
  seat: the seat opens with the secret that ticket's holder got when joining, and nobody
  else's. After ``bot_after`` seconds unpaired a ticket is offered the bot level whose
  measured rating (velvet.server.ratings.BOT_RATINGS) is nearest its own.

Both live in the server's database (``velvet_seeks``, ``velvet_queue``), so every process
of a deployment sees the same seeks and queue; taking a seek or pairing two tickets is one
transaction that succeeds only while they still wait, so two takers never both win.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator
from sqlalchemy import Boolean, Column, Float, ForeignKey, Integer, String, Table, insert, select
from sqlalchemy import update as sql_update
from sqlalchemy.types import JSON

from velvet.games import find_spec, game_names
from velvet.server import account_web, games
from velvet.server.accounts import Account, Accounts
from velvet.server.problems import Refused as _Refused
from velvet.server.protocol import CreateRoom, ErrorCode, OptionName, OptionValue
from velvet.server.ratings import BOT_ANCHOR, BOT_RATINGS, Rating
from velvet.server.rooms import Hub, Room
from velvet.server.storage import (
    Conflict,
    RoomRow,
    insert_room,
    metadata,
    seats,
    token_digest,
    token_matches,
)

WINDOW_START = 100.0
"""Rating points apart two tickets may be paired when both have just joined."""
WINDOW_GROWTH = 20.0
"""Rating points each ticket's window widens by per second it waits."""
WINDOW_MAX = 1200.0
TAKEN = "someone else took this seek first; take another, or post your own"


@dataclass(frozen=True)
class MatchSettings:
    """Timings of finding a game (``Settings.matchmaking``; tests shorten them)."""

    bot_after: float = 30.0
    """Seconds a ticket waits unpaired before it is offered a bot."""
    seek_gone: float = 60.0
    """A seek leaves the list once its seeker has been gone this long."""
    stale: float = 20.0
    """A ticket not polled for this long has left (its page closed)."""
    pair_every: float = 1.0
    """Seconds between pairing passes that polls run (each join runs one at once): a pass
    reads up to 500 waiting tickets, so one a poll is what 500 players polling each second
    cannot afford (benchmarks/serve_match.py: 2 pairs a second at 500 players)."""


seek_rows = Table(
    "velvet_seeks",
    metadata,
    Column("room", String(32), ForeignKey("velvet_rooms.id"), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("account", Integer, nullable=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("min_rating", Float, nullable=True),
    Column("max_rating", Float, nullable=True),
    Column("setup", JSON, nullable=False),
    Column("state", String(12), nullable=False),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Column("here", Boolean, nullable=False),
)

queue_rows = Table(
    "velvet_queue",
    metadata,
    Column("ticket", String(32), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("account", Integer, nullable=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("secret_sha256", String(64), nullable=False),
    Column("state", String(12), nullable=False),
    Column("joined", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Column("room", String(32), nullable=True),
    Column("seat", Integer, nullable=True),
)

Secret = Annotated[str, Field(min_length=16, max_length=128)]
Bound = Annotated[int, Field(ge=0, le=4000)]


def _registered(name: str) -> str:
    if name not in game_names():
        raise ValueError(f"unknown game '{name}': choose {', '.join(game_names())}")
    return name


class SeekRequest(BaseModel):
    """``POST /api/seeks``: a room for two, the seeker's seat claimed, the other waiting."""

    model_config = ConfigDict(extra="forbid")
    game: str
    options: dict[OptionName, OptionValue] = Field(default_factory=dict, max_length=32)
    """The game's set-up options, as ``CreateRoom.options`` (decks per seat: the seeker is
    the first seat)."""
    rated: bool = False
    """Rated (Glicko-2): the seeker and the taker must both be signed in."""
    min_rating: Bound | None = None
    """Only a taker rated at least this may take it (anonymous players count as 1500)."""
    max_rating: Bound | None = None

    @model_validator(mode="after")
    def _check(self) -> SeekRequest:
        _registered(self.game)
        if (
            self.min_rating is not None
            and self.max_rating is not None
            and self.min_rating > self.max_rating
        ):
            raise ValueError("min_rating is above max_rating")
        return self


class SeekInfo(BaseModel):
    room: str
    game: str
    title: str
    setup: list[str]
    """The set-up in words ("player card: Joker (Persona 5) vs Yu Narukami (Persona 4)"),
    the seeker's seat first; empty: the game's default set-up."""
    rated: bool
    player: str | None
    """The seeker's account name, or null (anonymous)."""
    rating: int
    provisional: bool
    min_rating: int | None
    max_rating: int | None
    seat: int
    """The waiting seat (0-based), the one a taker gets."""
    created: float


class SeekCreated(BaseModel):
    room: str
    seat: int
    """The seeker's seat."""
    secret: str
    """The seeker's seat secret: send it in ``hello`` (and to cancel, or poll, the seek);
    show it to nobody. No other seat's token is ever given out here."""
    seek: SeekInfo


class SeatGiven(BaseModel):
    """A seat this client now holds: ``hello`` with ``secret`` opens it (only it)."""

    room: str
    seat: int
    secret: str


class SeekOwner(BaseModel):
    model_config = ConfigDict(extra="forbid")
    secret: Secret


class SeekStatus(BaseModel):
    room: str
    state: Literal["open", "taken", "cancelled", "gone"]
    opponent: str | None = None
    """The taker's account name once taken (null: anonymous or not yet)."""


class QueueJoin(BaseModel):
    """``POST /api/queue``: wait to be paired in ``game`` (its default set-up)."""

    model_config = ConfigDict(extra="forbid")
    game: str
    rated: bool = False
    """Only with other rated tickets; signed in only."""

    @model_validator(mode="after")
    def _check(self) -> QueueJoin:
        _registered(self.game)
        return self


class BotOffer(BaseModel):
    bot: str
    """The bot level offered: the one whose rating is nearest yours."""
    rating: int
    """Its fixed rating: measured in the arena against the other bots, on a scale
    anchored at ``anchor`` (velvet.server.ratings)."""
    anchor: str
    """The bot level rated 1500 by convention (not by games against people)."""


class QueueTicket(BaseModel):
    ticket: str
    """The ticket's id (poll ``GET /api/queue/{ticket}``, leave with ``DELETE``)."""
    secret: str
    """Your seat secret in the room you are paired into (only yours): keep it, send it in
    that room's ``hello``; it is given only here, once."""
    game: str
    rated: bool
    rating: int
    provisional: bool
    bot_after: float
    """Seconds after which a bot is offered if nobody is paired with you."""


class QueueStatus(BaseModel):
    ticket: str
    state: Literal["waiting", "paired", "bot", "left"]
    waited: float
    window: int
    """How many rating points apart your opponent may be now (it widens as you wait)."""
    room: str | None = None
    seat: int | None = None
    """Your seat in ``room`` (open it with your ticket's ``secret``)."""
    opponent: str | None = None
    bot: BotOffer | None = None
    """Offered once you waited ``bot_after`` seconds (and a bot rating is measured)."""


@dataclass(frozen=True)
class Waiting:
    """A ticket in the queue, as the pairing reads it."""

    ticket: str
    rating: float
    joined: float
    rated: bool = False
    account: int | None = None
    secret_sha256: str = ""


def window(waited: float) -> float:
    """How far apart (rating points) a ticket accepts an opponent after ``waited`` seconds."""
    return min(WINDOW_MAX, WINDOW_START + WINDOW_GROWTH * max(0.0, waited))


def pairs(waiting: Sequence[Waiting], now: float) -> list[tuple[Waiting, Waiting]]:
    """Disjoint pairs of ``waiting``, closest ratings first (ties: who waited longest).

    Two tickets pair when both are rated or both not, they are not one account, and their
    ratings are within both tickets' windows (:func:`window`). In each pair the ticket
    that joined first comes first (it gets the first seat)."""
    found = []
    widths = {t.ticket: window(now - t.joined) for t in waiting}
    for a, b in combinations(waiting, 2):
        if a.rated != b.rated or (a.account is not None and a.account == b.account):
            continue
        gap = abs(a.rating - b.rating)
        if gap <= widths[a.ticket] and gap <= widths[b.ticket]:
            first, second = (a, b) if (a.joined, a.ticket) <= (b.joined, b.ticket) else (b, a)
            found.append((gap, first.joined, second.joined, first, second))
    found.sort(key=lambda x: (x[0], x[1], x[2]))
    taken: set[str] = set()
    out = []
    for _, _, _, first, second in found:
        if first.ticket in taken or second.ticket in taken:
            continue
        taken |= {first.ticket, second.ticket}
        out.append((first, second))
    return out


def nearest_bot(game: str, rating: float) -> BotOffer | None:
    """The bot level of ``game`` whose measured rating is nearest ``rating`` (None: no bot
    of that game has a measured rating, so none is offered)."""
    table = BOT_RATINGS.get(game, {})
    if not table:
        return None
    level = min(table, key=lambda name: (abs(table[name] - rating), table[name]))
    return BotOffer(bot=level, rating=round(table[level]), anchor=BOT_ANCHOR.get(game, level))


def _two_players(game: str) -> None:
    spec = find_spec(game)
    if spec is None or 2 not in spec.players:
        raise _Refused(
            "not_two_players", 400, f"{game} is not played by two: host a room for it instead"
        )


def setup_words(game: str, options: dict[str, Any]) -> list[str]:
    """The set-up options a seek names, in words, per seat for a per-seat option."""
    info: dict[str, Any] = {}
    for entry in games.catalog(lambda _s, _g: None):
        if entry["name"] == game:
            info = {o["name"]: o for o in entry["options"]}
    out = []
    for name, value in options.items():
        option = info.get(name)
        if option is None:
            continue
        if option["multiple"]:
            items = value if isinstance(value, list) else [value]
            items = [*items, *[None] * (2 - len(items))][:2]
            said = " vs ".join(_word(option, v, i) for i, v in enumerate(items))
            out.append(f"{option['label']}: {said}")
        else:
            out.append(f"{option['label']}: {_word(option, value)}")
    return out


def _word(option: dict[str, Any], item: Any, seat: int | None = None) -> str:
    """One value of an option in words (a seat's default where it is left out)."""
    if isinstance(item, dict):
        return "a custom file"
    if item is None:
        defaults = option["defaults"]
        item = defaults[seat] if seat is not None and seat < len(defaults) else None
    names = {c["id"]: c["name"] for c in option["choices"]}
    return names.get(str(item), str(item)) if item is not None else "default"


class Matchmaker:
    """Seeks and the queue over the hub's storage (synchronous parts run in threads)."""

    def __init__(self, hub: Hub, accounts: Accounts, settings: MatchSettings) -> None:
        self.hub = hub
        self.accounts = accounts
        self.settings = settings
        self._pairing: dict[str, asyncio.Lock] = {}
        self._paired_at: dict[str, float] = {}
        """When this process last ran a pairing pass of each game (time.monotonic)."""
        hub.on_seat = self.on_seat

    @property
    def storage(self) -> Any:
        return self.hub.storage

    # --- seeks ----------------------------------------------------------------------------

    async def post_seek(self, body: SeekRequest, account: Account | None) -> SeekCreated:
        _two_players(body.game)
        if body.rated and account is None:
            raise _Refused("sign_in", 403, "a rated seek is between accounts: sign in first")
        who = account.id if account is not None else None
        rating = await asyncio.to_thread(self.accounts.rating, who, body.game)
        secret = secrets.token_urlsafe(24)
        request = CreateRoom(
            game=body.game,
            seats=["human", "human"],
            players=2,
            options=body.options,
            rated=body.rated,
            listed=False,
        )
        row, _ = await self.hub.new_row(request, [(token_digest(secret), who)])
        row.options["seek"] = True
        words = await asyncio.to_thread(setup_words, body.game, dict(body.options))
        now = time.time()
        values = {
            "room": row.id,
            "game": row.game,
            "seat": 1,
            "rated": body.rated,
            "account": who,
            "rating": rating.rating,
            "rd": rating.rd,
            "min_rating": body.min_rating,
            "max_rating": body.max_rating,
            "setup": words,
            "state": "open",
            "created": now,
            "seen": now,
            "here": False,
        }

        def save() -> None:
            with self.storage._tx() as c:
                insert_room(c, row)
                c.execute(insert(seek_rows).values(**values))

        await asyncio.to_thread(save)
        await self.hub.started(row.id)
        name = account.name if account is not None else None
        return SeekCreated(room=row.id, seat=0, secret=secret, seek=_seek_info(values, name))

    def seek_list(self, game: str | None) -> list[SeekInfo]:
        """Open seeks whose seeker is here (or was, within ``seek_gone``), newest first;
        seeks gone longer are marked so."""
        now = time.time()
        gone_before = now - self.settings.seek_gone
        with self.storage._tx() as c:
            c.execute(
                sql_update(seek_rows)
                .where(
                    seek_rows.c.state == "open",
                    seek_rows.c.here.is_(False),
                    seek_rows.c.seen < gone_before,
                )
                .values(state="gone")
            )
            query = select(seek_rows).where(seek_rows.c.state == "open")
            if game is not None:
                query = query.where(seek_rows.c.game == game)
            rows = c.execute(query.order_by(seek_rows.c.created.desc()).limit(100)).mappings()
            found = [dict(r) for r in rows]
        names = self.accounts.names([r["account"] for r in found if r["account"] is not None])
        return [_seek_info(r, names.get(r["account"])) for r in found]

    def _seek(self, room: str) -> dict[str, Any] | None:
        with self.storage._tx() as c:
            row = c.execute(select(seek_rows).where(seek_rows.c.room == room)).mappings().first()
            return dict(row) if row is not None else None

    def _owner(self, room: str, secret: str) -> dict[str, Any]:
        """The seek of ``room`` if ``secret`` is its seeker's; else _Refused."""
        seek = self._seek(room)
        if seek is None:
            raise _Refused("no_seek", 404, f"no seek {room!r}")
        owner = [s for s in self.storage.seats_of(room) if s.seat != seek["seat"]]
        digest = owner[0].secret_sha256 if owner else None
        if digest is None or not token_matches(secret, digest):
            raise _Refused("bad_token", 403, "that secret is not the seeker's")
        return seek

    def seek_status(self, room: str, secret: str) -> SeekStatus:
        """The seeker's poll: keeps the seek listed, and says when it was taken."""
        seek = self._owner(room, secret)
        if seek["state"] == "open":
            with self.storage._tx() as c:
                c.execute(
                    sql_update(seek_rows).where(seek_rows.c.room == room).values(seen=time.time())
                )
        opponent = None
        if seek["state"] == "taken":
            taker = [s for s in self.storage.seats_of(room) if s.seat == seek["seat"]]
            if taker and taker[0].account is not None:
                opponent = self.accounts.names([taker[0].account]).get(taker[0].account)
        return SeekStatus(room=room, state=seek["state"], opponent=opponent)

    def cancel_seek(self, room: str, secret: str) -> SeekStatus:
        seek = self._owner(room, secret)
        with self.storage._tx() as c:
            c.execute(
                sql_update(seek_rows)
                .where(seek_rows.c.room == room, seek_rows.c.state == "open")
                .values(state="cancelled")
            )
        state = "cancelled" if seek["state"] == "open" else seek["state"]
        return SeekStatus(room=room, state=state)

    def take_seek(self, room: str, account: Account | None) -> tuple[SeatGiven, str | None]:
        """Give the waiting seat to this client: one transaction, so of two takers one wins
        and the other is told ``seek_taken``."""
        seek = self._seek(room)
        if seek is None or seek["state"] in ("cancelled", "gone"):
            raise _Refused("no_seek", 404, f"no open seek {room!r}: it was cancelled or left")
        if seek["state"] == "taken":
            raise _Refused("seek_taken", 409, TAKEN)
        who = account.id if account is not None else None
        if who is not None and who == seek["account"]:
            raise _Refused("own_seek", 409, "this is your own seek; wait for someone to take it")
        if seek["rated"] and who is None:
            raise _Refused("sign_in", 403, "this seek is rated: sign in (or sign up) to take it")
        rating = self.accounts.rating(who, seek["game"])
        low, high = seek["min_rating"], seek["max_rating"]
        if (low is not None and rating.rating < low) or (high is not None and rating.rating > high):
            span = f"{round(low) if low is not None else 0}–{round(high) if high else '∞'}"
            mine = round(rating.rating)
            raise _Refused("seek_range", 403, f"this seek is for ratings {span}; yours is {mine}")
        secret = secrets.token_urlsafe(24)
        try:
            with self.storage._tx() as c:
                taken = c.execute(
                    sql_update(seek_rows)
                    .where(seek_rows.c.room == room, seek_rows.c.state == "open")
                    .values(state="taken")
                )
                claimed = c.execute(
                    sql_update(seats)
                    .where(
                        seats.c.room == room,
                        seats.c.seat == seek["seat"],
                        seats.c.secret_sha256.is_(None),
                    )
                    .values(secret_sha256=token_digest(secret), claimed_at=time.time(), account=who)
                )
                if taken.rowcount != 1 or claimed.rowcount != 1:
                    raise Conflict("taken")
        except Conflict:
            raise _Refused("seek_taken", 409, TAKEN) from None
        name = account.name if account is not None else None
        return SeatGiven(room=room, seat=int(seek["seat"]), secret=secret), name

    def on_seat(self, room: Room, seat: int, here: bool) -> None:
        """The hub's presence hook: the seeker's socket came to, or left, a seek's room."""
        if not room.row.options.get("seek") or seat != 0:
            return

        def mark() -> None:
            with self.storage._tx() as c:
                c.execute(
                    sql_update(seek_rows)
                    .where(seek_rows.c.room == room.row.id)
                    .values(here=here, seen=time.time())
                )

        self.hub.background(mark)

    # --- the queue ------------------------------------------------------------------------

    async def join(self, body: QueueJoin, account: Account | None) -> QueueTicket:
        _two_players(body.game)
        if body.rated and account is None:
            raise _Refused("sign_in", 403, "the rated queue is for accounts: sign in first")
        who = account.id if account is not None else None
        rating = await asyncio.to_thread(self.accounts.rating, who, body.game)
        ticket, secret = secrets.token_urlsafe(12), secrets.token_urlsafe(24)
        now = time.time()

        def save() -> None:
            with self.storage._tx() as c:
                if who is not None:  # one ticket an account: a new one replaces the old
                    c.execute(
                        sql_update(queue_rows)
                        .where(queue_rows.c.account == who, queue_rows.c.state == "waiting")
                        .values(state="left")
                    )
                c.execute(
                    insert(queue_rows).values(
                        ticket=ticket,
                        game=body.game,
                        rated=body.rated,
                        account=who,
                        rating=rating.rating,
                        rd=rating.rd,
                        secret_sha256=token_digest(secret),
                        state="waiting",
                        joined=now,
                        seen=now,
                    )
                )

        await asyncio.to_thread(save)
        await self.pair(body.game)
        return QueueTicket(
            ticket=ticket,
            secret=secret,
            game=body.game,
            rated=body.rated,
            rating=round(rating.rating),
            provisional=rating.provisional,
            bot_after=self.settings.bot_after,
        )

    def _ticket(self, ticket: str) -> dict[str, Any]:
        with self.storage._tx() as c:
            row = (
                c.execute(select(queue_rows).where(queue_rows.c.ticket == ticket))
                .mappings()
                .first()
            )
        if row is None:
            raise _Refused("no_ticket", 404, f"no ticket {ticket!r} in the queue: join again")
        return dict(row)

    async def status(self, ticket: str) -> QueueStatus:
        """A ticket's poll: it counts as here, the queue is paired, and its state told."""
        row = await asyncio.to_thread(self._ticket, ticket)
        if row["state"] == "waiting":
            if time.time() - float(row["seen"]) >= self.settings.stale / 4:
                # a write a poll would commit 500 a second for 500 players: a quarter of
                # the stale time is fresh enough to tell a ticket still polled

                def seen() -> None:
                    with self.storage._tx() as c:
                        c.execute(
                            sql_update(queue_rows)
                            .where(queue_rows.c.ticket == ticket)
                            .values(seen=time.time())
                        )

                await asyncio.to_thread(seen)
            if await self.pair(row["game"], at_once=False):
                row = await asyncio.to_thread(self._ticket, ticket)
        return await asyncio.to_thread(self._status_of, row)

    def _status_of(self, row: dict[str, Any]) -> QueueStatus:
        waited = time.time() - float(row["joined"])
        out = QueueStatus(
            ticket=row["ticket"],
            state=row["state"],
            waited=round(waited, 1),
            window=round(window(waited)),
            room=row["room"],
            seat=row["seat"],
        )
        if row["state"] == "waiting" and waited >= self.settings.bot_after:
            out.bot = nearest_bot(row["game"], float(row["rating"]))
        if row["state"] == "paired" and row["room"] is not None:
            other = [s for s in self.storage.seats_of(row["room"]) if s.seat != row["seat"]]
            if other and other[0].account is not None:
                out.opponent = self.accounts.names([other[0].account]).get(other[0].account)
        return out

    async def leave(self, ticket: str) -> QueueStatus:
        row = await asyncio.to_thread(self._ticket, ticket)

        def left() -> None:
            with self.storage._tx() as c:
                c.execute(
                    sql_update(queue_rows)
                    .where(queue_rows.c.ticket == ticket, queue_rows.c.state == "waiting")
                    .values(state="left")
                )

        await asyncio.to_thread(left)
        row = await asyncio.to_thread(self._ticket, ticket)
        return await asyncio.to_thread(self._status_of, row)

    async def play_bot(self, ticket: str) -> QueueStatus:
        """Take the bot offered to a ticket that waited ``bot_after``: a room against it."""
        row = await asyncio.to_thread(self._ticket, ticket)
        waited = time.time() - float(row["joined"])
        offer = nearest_bot(row["game"], float(row["rating"]))
        if row["state"] != "waiting" or waited < self.settings.bot_after or offer is None:
            why = (
                f"the ticket is {row['state']}"
                if row["state"] != "waiting"
                else f"a bot is offered after {self.settings.bot_after:g} s in the queue"
                if offer is None or waited < self.settings.bot_after
                else ""
            )
            if offer is None and row["state"] == "waiting":
                why = f"no bot of {row['game']} has a measured rating to offer"
            raise _Refused("no_bot_offer", 409, f"no bot is offered to this ticket: {why}")
        request = CreateRoom(game=row["game"], seats=["human", offer.bot], listed=False)
        made, _ = await self.hub.new_row(request, [(row["secret_sha256"], row["account"])])

        def save() -> None:
            with self.storage._tx() as c:
                done = c.execute(
                    sql_update(queue_rows)
                    .where(queue_rows.c.ticket == ticket, queue_rows.c.state == "waiting")
                    .values(state="bot", room=made.id, seat=0)
                )
                if done.rowcount != 1:
                    raise Conflict("paired meanwhile")
                insert_room(c, made)

        try:
            await asyncio.to_thread(save)
        except Conflict:
            pass  # paired with a person meanwhile: the status says where
        else:
            await self.hub.started(made.id)
        return await self.status(ticket)

    async def pair(self, game: str, at_once: bool = True) -> bool:
        """Pair ``game``'s waiting tickets (one pass at a time in this process; another
        process's pass is kept out by each pairing's transaction). Not ``at_once`` (a
        poll): only if no pass ran in the last ``settings.pair_every`` seconds. True if a
        pass ran."""
        lock = self._pairing.setdefault(game, asyncio.Lock())
        if not at_once and lock.locked():
            return False  # a pass is under way: the next poll reads what it pairs
        async with lock:
            now = time.monotonic()
            if not at_once and now - self._paired_at.get(game, -1e9) < self.settings.pair_every:
                return False
            self._paired_at[game] = now
            waiting = await asyncio.to_thread(self._waiting, game)
            for first, second in pairs(waiting, time.time()):
                request = CreateRoom(
                    game=game, seats=["human", "human"], players=2, rated=first.rated
                )
                claims = [(t.secret_sha256, t.account) for t in (first, second)]
                row, _ = await self.hub.new_row(request, claims)
                try:
                    await asyncio.to_thread(self._pair_two, first, second, row)
                except Conflict:
                    continue  # one of them left or was paired by another process
                await self.hub.started(row.id)
        return True

    def _waiting(self, game: str) -> list[Waiting]:
        """The game's tickets waiting and polled lately; those not polled lately leave."""
        stale = time.time() - self.settings.stale
        with self.storage._tx() as c:
            c.execute(
                sql_update(queue_rows)
                .where(queue_rows.c.state == "waiting", queue_rows.c.seen < stale)
                .values(state="left")
            )
            rows = c.execute(
                select(queue_rows)
                .where(queue_rows.c.game == game, queue_rows.c.state == "waiting")
                .order_by(queue_rows.c.joined)
                .limit(500)
            ).mappings()
            return [
                Waiting(
                    r["ticket"],
                    float(r["rating"]),
                    float(r["joined"]),
                    bool(r["rated"]),
                    r["account"],
                    r["secret_sha256"],
                )
                for r in rows
            ]

    def _pair_two(self, first: Waiting, second: Waiting, row: RoomRow) -> None:
        with self.storage._tx() as c:
            for seat, t in enumerate((first, second)):
                done = c.execute(
                    sql_update(queue_rows)
                    .where(queue_rows.c.ticket == t.ticket, queue_rows.c.state == "waiting")
                    .values(state="paired", room=row.id, seat=seat)
                )
                if done.rowcount != 1:
                    raise Conflict(f"ticket {t.ticket} no longer waits")
            insert_room(c, row)


def _seek_info(r: dict[str, Any], name: str | None) -> SeekInfo:
    spec = find_spec(r["game"])
    rating = Rating(float(r["rating"]), float(r["rd"]))
    return SeekInfo(
        room=r["room"],
        game=r["game"],
        title=spec.title if spec is not None else r["game"],
        setup=list(r["setup"]),
        rated=bool(r["rated"]),
        player=name,
        rating=round(rating.rating),
        provisional=rating.provisional,
        min_rating=round(r["min_rating"]) if r["min_rating"] is not None else None,
        max_rating=round(r["max_rating"]) if r["max_rating"] is not None else None,
        seat=int(r["seat"]),
        created=float(r["created"]),
    )


def make_router(
    matchmaker: Callable[[], Matchmaker], limit: Callable[[Request], JSONResponse | None]
) -> APIRouter:
    """``/api/seeks`` and ``/api/queue`` (docs/protocol.md, "Finding a game");
    ``limit(request)``: the room-creation rate limit's refusal, if any."""
    router = APIRouter()
    problems: dict[int | str, dict[str, Any]] = {
        code: {"model": _ProblemModel} for code in (400, 403, 404, 409, 422, 429, 503)
    }

    async def who(request: Request) -> Account | None:
        token = request.cookies.get(account_web.COOKIE)
        return await account_web.session_account(matchmaker().accounts, token)

    @router.post("/api/seeks", response_model=SeekCreated, status_code=201, responses=problems)
    async def post_seek(body: SeekRequest, request: Request) -> SeekCreated | JSONResponse:
        """Post a seek: a room whose first seat is yours (its secret in the answer) and
        whose second waits in the lobby's list for whoever takes it."""
        refused = limit(request)
        if refused is not None:
            return refused
        try:
            return await matchmaker().post_seek(body, await who(request))
        except _Refused as no:
            return no.response()

    @router.get("/api/seeks", response_model=list[SeekInfo])
    async def seek_list(game: str | None = None) -> list[SeekInfo]:
        """Open seeks (newest first), with the seeker's rating (provisional marked)."""
        return await asyncio.to_thread(matchmaker().seek_list, game[:16] if game else None)

    @router.post("/api/seeks/{room}/take", response_model=SeatGiven, responses=problems)
    async def take_seek(room: str, request: Request) -> SeatGiven | JSONResponse:
        """Take a seek's waiting seat; the answer holds your secret for it (only yours)."""
        account = await who(request)
        try:
            given, name = await asyncio.to_thread(matchmaker().take_seek, room[:64], account)
        except _Refused as no:
            return no.response()
        bound = account.id if account is not None else None
        await matchmaker().hub.seat_claimed(given.room, given.seat, given.secret, bound, name)
        return given

    @router.post("/api/seeks/{room}/status", response_model=SeekStatus, responses=problems)
    async def seek_status(room: str, body: SeekOwner) -> SeekStatus | JSONResponse:
        """The seeker's poll (every few seconds keeps the seek listed): open or taken."""
        try:
            return await asyncio.to_thread(matchmaker().seek_status, room[:64], body.secret)
        except _Refused as no:
            return no.response()

    @router.delete("/api/seeks/{room}", response_model=SeekStatus, responses=problems)
    async def cancel_seek(room: str, body: SeekOwner) -> SeekStatus | JSONResponse:
        """Cancel your seek (its secret in the body): it leaves the list."""
        try:
            return await asyncio.to_thread(matchmaker().cancel_seek, room[:64], body.secret)
        except _Refused as no:
            return no.response()

    @router.post("/api/queue", response_model=QueueTicket, status_code=201, responses=problems)
    async def join(body: QueueJoin, request: Request) -> QueueTicket | JSONResponse:
        """Join the quick-pair queue of a game: a ticket and your future seat's secret."""
        refused = limit(request)
        if refused is not None:
            return refused
        try:
            return await matchmaker().join(body, await who(request))
        except _Refused as no:
            return no.response()

    @router.get("/api/queue/{ticket}", response_model=QueueStatus, responses=problems)
    async def status(ticket: str) -> QueueStatus | JSONResponse:
        """Poll a ticket (every second or two; one not polled for a while leaves)."""
        try:
            return await matchmaker().status(ticket[:64])
        except _Refused as no:
            return no.response()

    @router.delete("/api/queue/{ticket}", response_model=QueueStatus, responses=problems)
    async def leave(ticket: str) -> QueueStatus | JSONResponse:
        """Leave the queue (a ticket already paired stays paired: its status says where)."""
        try:
            return await matchmaker().leave(ticket[:64])
        except _Refused as no:
            return no.response()

    @router.post("/api/queue/{ticket}/bot", response_model=QueueStatus, responses=problems)
    async def play_bot(ticket: str, request: Request) -> QueueStatus | JSONResponse:
        """Play the bot offered after the wait instead (a room against it, your seat first)."""
        refused = limit(request)
        if refused is not None:
            return refused
        try:
            return await matchmaker().play_bot(ticket[:64])
        except _Refused as no:
            return no.response()

    return router


class _ProblemModel(BaseModel):
    error: ErrorCode
    message: str
