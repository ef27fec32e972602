"""The daily challenge (docs/web.md, "Daily challenge"): one seeded set-up per UTC day for
everyone, for each co-op game whose spec declares one (``GameSpec.daily``), and a
leaderboard per day.

* ``POST /api/daily/{game}`` starts today's game: a room of the day's seed and set-up
  (``velvet.engine.daily``, the same as ``velvet daily``), unlisted, no undo, no hints,
  every seat claimed by the caller (the answer holds the seat secret). A signed-in
  account has one game a day (the same seed deals the same cards and dice: a second try
  would know them); anonymous games each count, as "Anonymous".
* ``GET /api/daily`` and ``GET /api/daily/{game}?day=`` say what the day's challenge is.
* ``GET /api/daily/{game}/leaderboard?day=`` ranks the day's finished games: wins by the
  day (turn) they were won on, then the number of actions (fewer first), then the time
  they finished; losses after. A game finished after its day ended is not ranked (the
  day's replays were open by then).
* Until the day ends (00:00 UTC) the board names no room, and a daily room's replay and
  record are refused (``daily_running``): nobody can follow the best game's moves while
  the day's challenge is open. After it, each entry links its replay.

Each game started here is a row of ``velvet_daily`` (migration 0006). Its result is read
from the room's stored record when a board that lists it is asked for (and saved there
once): no hook in the rooms, and a game that ended while no process watched is counted.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    func,
    insert,
    select,
    update,
)

from velvet.engine.daily import (
    DailySetup,
    daily_setup,
    day_end,
    day_of,
    parse_day,
    rank_key,
)
from velvet.engine.errors import ConfigError, VelvetError
from velvet.engine.record import GameRecord
from velvet.games import find_spec, game_names
from velvet.server import account_web, games
from velvet.server.accounts import Accounts
from velvet.server.problems import Refused as _Refused
from velvet.server.problems import problem
from velvet.server.protocol import CreateRoom, Problem
from velvet.server.rooms import Hub, seed_commitment
from velvet.server.storage import (
    Conflict,
    RoomRow,
    Storage,
    StorageError,
    insert_room,
    metadata,
    moves,
    rooms,
    token_digest,
)

Clock = Callable[[], float]

daily_rows = Table(
    "velvet_daily",
    metadata,
    Column("room", String(32), ForeignKey("velvet_rooms.id"), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("day", String(10), nullable=False),
    Column("account", Integer, nullable=True),
    Column("started", Float, nullable=False),
    Column("state", String(12), nullable=False),
    Column("turns", Integer, nullable=True),
    Column("actions", Integer, nullable=True),
    Column("finished", Float, nullable=True),
)
"""One row per daily game: ``state`` is ``playing``, ``won``, ``lost`` or ``late``
(finished after its day ended: not ranked); ``turns`` the day (turn) a won game ended on,
``actions`` its moves, ``finished`` its last move's time. Migration 0006 makes
``(game, day, account)`` unique: one game a day per account."""

BOARD_SIZE = 100
"""Entries a leaderboard lists at most (wins first)."""


class DailyInfo(BaseModel):
    game: str
    title: str
    day: str
    """The UTC date, ``YYYY-MM-DD``."""
    today: bool
    ends: float
    """When the day ends (Unix time): its replays open then."""
    seconds_left: float
    seats: int
    setup: list[str]
    """The day's set-up in words ("Palace: …")."""
    seed_sha256: str
    """SHA-256 of the seed's decimal text (the seed itself: docs/web.md, "Daily challenge")."""
    rank_by: str
    """What a win is ranked by first, fewer first (the results column: ``day``)."""
    seed: int | None = None
    """The seed itself, once the day has ended (before: None; ``seed_sha256`` commits it)."""


class DailyStarted(BaseModel):
    """A daily game this client holds: ``hello`` with ``secret`` opens its seats."""

    room: str
    seat: int
    seats: list[int]
    secret: str
    day: str
    game: str


class DailyEntry(BaseModel):
    rank: int | None
    """1, 2 … for wins; None for a loss."""
    player: str | None
    """The account's name, or None (anonymous)."""
    result: Literal["won", "lost"]
    turns: int | None
    """The day (turn) the game was won on (the game's ``rank_by`` column)."""
    actions: int
    finished: float
    room: str | None
    """The room (its replay: ``/join/{room}?replay``) once the day has ended, else None."""


class DailyBoard(BaseModel):
    game: str
    day: str
    over: bool
    """The day has ended: replays are open."""
    ends: float
    entries: list[DailyEntry]
    playing: int
    """Games of the day not finished yet."""


@dataclass
class Result:
    """A daily game's row, as ranked."""

    room: str
    account: int | None
    state: str
    turns: int | None
    actions: int
    finished: float


def ranked(results: Sequence[Result]) -> list[Result]:
    """Wins by turns, then actions, then finish time; then losses by finish time; an
    account kept once, at its best place; games still playing left out."""
    won = sorted(
        (r for r in results if r.state == "won"),
        key=lambda r: (r.turns if r.turns is not None else 1 << 30, r.actions, r.finished),
    )
    lost = sorted((r for r in results if r.state == "lost"), key=lambda r: (r.finished, r.room))
    seen: set[int] = set()
    out = []
    for r in won + lost:
        if r.account is not None:
            if r.account in seen:
                continue
            seen.add(r.account)
        out.append(r)
    return out


def daily_games() -> list[str]:
    """The registered games with a daily challenge."""
    return [n for n in game_names() if (s := find_spec(n)) is not None and s.daily is not None]


def _spec_of(game: str) -> Any:
    spec = find_spec(game) if game in game_names() else None
    if spec is None or spec.daily is None:
        raise _Refused(
            "no_daily",
            404,
            f"no daily challenge of {game[:40]!r}; games with one: "
            f"{', '.join(daily_games()) or 'none'}",
        )
    return spec


def setup_of(game: str, day: date) -> DailySetup:
    """The day's set-up of a game with a daily challenge (built-in cards)."""
    spec = _spec_of(game)
    return daily_setup(spec, games.room_game(game), day)


def setup_words(spec: Any, game: Any, options: Mapping[str, Any], seats: int) -> list[str]:
    """The day's set-up in words, one line per option (a per-seat option's values joined,
    for the day's seats only): "Thief: Noir (Haru Okumura)"."""
    out = []
    for option in spec.options:
        if option.name not in options:
            continue
        info = games.option_json(option, game, seats)
        names = {c["id"]: c["name"] for c in info["choices"]}
        value = options[option.name]
        items = list(value)[:seats] if isinstance(value, list | tuple) else [value]
        said = " / ".join(names.get(str(v), str(v)) for v in items)
        label = str(info["label"])
        out.append(f"{label[:1].upper()}{label[1:]}: {said}")
    return out


def replay_refusal(row: RoomRow, now: float) -> JSONResponse | None:
    """A daily room's replay or record before its day ends: refused (``daily_running``)."""
    day = row.options.get("daily")
    if not isinstance(day, str):
        return None
    try:
        ends = day_end(date.fromisoformat(day))
    except ValueError:
        return None
    if now >= ends:
        return None
    left = _duration(ends - now)
    return problem(
        "daily_running",
        f"this is a game of the daily challenge of {day}: its replay opens when "
        f"the day ends at 00:00 UTC (in {left})",
        403,
    )


def _duration(seconds: float) -> str:
    minutes = max(1, int(seconds // 60))
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"


class Daily:
    """The daily challenge over the app's hub and accounts."""

    def __init__(self, hub: Hub, accounts: Accounts, clock: Clock = time.time) -> None:
        self.hub, self.accounts, self.clock = hub, accounts, clock

    @property
    def storage(self) -> Storage:
        return self.hub.storage

    def day(self, text: str | None) -> date:
        today = day_of(self.clock())
        try:
            return parse_day(text, today) if text else today
        except ConfigError as bad:
            raise _Refused("bad_day", 422, str(bad)) from None

    def info(self, game: str, day: date) -> DailyInfo:
        spec = _spec_of(game)
        setup = setup_of(game, day)
        ends = day_end(day)
        return DailyInfo(
            game=game,
            title=spec.short_title or spec.title or game,
            day=day.isoformat(),
            today=day == day_of(self.clock()),
            ends=ends,
            seconds_left=max(0.0, ends - self.clock()),
            seats=setup.seats,
            setup=setup_words(spec, games.room_game(game), setup.options, setup.seats),
            seed_sha256=hashlib.sha256(str(setup.seed).encode()).hexdigest(),
            rank_by=rank_key(spec),
            seed=setup.seed if self.clock() >= ends else None,
        )

    async def start(self, game: str, account: int | None) -> DailyStarted:
        """Today's game of ``game``: a room of the day's seed and set-up, every seat the
        caller's (one secret opens them all)."""
        day = day_of(self.clock())
        setup = await asyncio.to_thread(setup_of, game, day)
        secret = secrets.token_urlsafe(24)
        request = CreateRoom(
            game=game,
            seats=["human"] * setup.seats,
            players=setup.seats,
            options=dict(setup.options),
            listed=False,
            undo="off",
            hints="off",
        )
        claim = (token_digest(secret), account)
        row, _ = await self.hub.new_row(request, [claim] * setup.seats)
        row.config = dict(setup.config)
        row.seed = setup.seed
        row.seed_sha256 = seed_commitment(row.nonce, row.seed)
        row.options["daily"] = day.isoformat()
        values = {
            "room": row.id,
            "game": game,
            "day": day.isoformat(),
            "account": account,
            "started": self.clock(),
            "state": "playing",
        }

        def save() -> None:
            if account is not None:
                self._played(game, day.isoformat(), account)
            try:
                with self.storage._tx() as c:
                    insert_room(c, row)
                    c.execute(insert(daily_rows).values(**values))
            except Conflict:  # the same account's other start won the race
                self._played(game, day.isoformat(), account)
                raise StorageError("the game could not be saved; try again") from None

        await asyncio.to_thread(save)
        await self.hub.started(row.id)
        return DailyStarted(
            room=row.id,
            seat=0,
            seats=list(range(setup.seats)),
            secret=secret,
            day=day.isoformat(),
            game=game,
        )

    def _played(self, game: str, day: str, account: int | None) -> None:
        """Refuse (``daily_played``) a second game of the day for an account."""
        with self.storage._tx() as c:
            room = c.execute(
                select(daily_rows.c.room).where(
                    daily_rows.c.game == game,
                    daily_rows.c.day == day,
                    daily_rows.c.account == account,
                )
            ).scalar()
        if room is not None:
            raise _Refused(
                "daily_played",
                409,
                f"your account has played the daily challenge of {day} already (room {room}; "
                "Your games lists it): one game a day counts",
            )

    def board(self, game: str, day: date) -> DailyBoard:
        """The day's leaderboard (results of games that ended since the last ask settled)."""
        spec = _spec_of(game)
        self._settle(game, day.isoformat(), rank_key(spec))
        with self.storage._tx() as c:
            rows = (
                c.execute(
                    select(daily_rows).where(
                        daily_rows.c.game == game, daily_rows.c.day == day.isoformat()
                    )
                )
                .mappings()
                .all()
            )
        results = [
            Result(
                r["room"],
                r["account"],
                r["state"],
                r["turns"],
                int(r["actions"] or 0),
                float(r["finished"] or r["started"]),
            )
            for r in rows
            if r["state"] in ("won", "lost")
        ]
        best = ranked(results)[:BOARD_SIZE]
        ids = [r.account for r in best if r.account is not None]
        names = self.accounts.names(ids) if ids else {}
        ends = day_end(day)
        over = self.clock() >= ends
        entries = []
        place = 0
        for r in best:
            if r.state == "won":
                place += 1
            entries.append(
                DailyEntry(
                    rank=place if r.state == "won" else None,
                    player=names.get(r.account) if r.account is not None else None,
                    result="won" if r.state == "won" else "lost",
                    turns=r.turns,
                    actions=r.actions,
                    finished=r.finished,
                    room=r.room if over else None,
                )
            )
        return DailyBoard(
            game=game,
            day=day.isoformat(),
            over=over,
            ends=ends,
            entries=entries,
            playing=sum(r["state"] == "playing" for r in rows),
        )

    def _settle(self, game: str, day: str, key: str) -> None:
        """Record the result of each of the day's games that is over but not yet counted."""
        with self.storage._tx() as c:
            ended = (
                c.execute(
                    select(daily_rows.c.room)
                    .join(rooms, rooms.c.id == daily_rows.c.room)
                    .where(
                        daily_rows.c.game == game,
                        daily_rows.c.day == day,
                        daily_rows.c.state == "playing",
                        rooms.c.status == "over",
                    )
                )
                .scalars()
                .all()
            )
        for room in ended:
            values = self._result(room, key, day_end(date.fromisoformat(day)))
            if values is None:
                continue
            with self.storage._tx() as c:
                c.execute(
                    update(daily_rows)
                    .where(daily_rows.c.room == room, daily_rows.c.state == "playing")
                    .values(**values)
                )

    def _result(self, room: str, key: str, ends: float) -> dict[str, Any] | None:
        """A finished daily room's result, from its stored row and moves (``late`` if it
        finished at or after ``ends``, its day's end)."""
        loaded = self.storage.load_room(room)
        if loaded is None:
            return None
        row, actions = loaded
        with self.storage._tx() as c:
            last = c.execute(select(func.max(moves.c.at)).where(moves.c.room == room)).scalar()
        returns = (row.result or {}).get("returns") or []
        won = bool(returns) and all(float(x) > 0 for x in returns)
        turns = None
        if won:
            try:
                game = games.room_game(row.game, row.cards)
                record = GameRecord.start(game, row.config, row.seed)
                record.actions = list(actions)
                state = record.replay(game)
                spec = find_spec(row.game)
                summary = spec.summarize(state) if spec is not None else {}
                turns = int(summary[key]) if summary.get(key) is not None else None
            except (VelvetError, ValueError, KeyError, TypeError):
                turns = None  # counted as a win on no known day: last among wins
        finished = float(last) if last is not None else self.clock()
        return {
            "state": "late" if finished >= ends else "won" if won else "lost",
            "turns": turns,
            "actions": len(actions),
            "finished": finished,
        }


def make_router(
    daily: Callable[[], Daily],
    accounts: Callable[[], Accounts],
    limit: Callable[[Request], JSONResponse | None],
) -> APIRouter:
    """``/api/daily`` (docs/protocol.md, "Daily challenge"); ``limit(request)``: the
    room-creation rate limit's refusal, if any."""
    router = APIRouter()
    problems: dict[int | str, dict[str, Any]] = {
        code: {"model": Problem} for code in (404, 409, 422, 429, 503)
    }

    @router.get("/api/daily", response_model=list[DailyInfo])
    async def today() -> list[DailyInfo]:
        """Today's challenge of every game that has one."""
        day = daily().day(None)
        return [await asyncio.to_thread(daily().info, g, day) for g in daily_games()]

    @router.get("/api/daily/{game}", response_model=DailyInfo, responses=problems)
    async def one(
        game: str, day: str | None = Query(default=None, description="YYYY-MM-DD (UTC); today")
    ) -> DailyInfo | JSONResponse:
        """The game's challenge of a day (today by default): its set-up in words."""
        try:
            return await asyncio.to_thread(daily().info, game, daily().day(day))
        except _Refused as no:
            return no.response()

    @router.post(
        "/api/daily/{game}", response_model=DailyStarted, status_code=201, responses=problems
    )
    async def start(game: str, request: Request) -> DailyStarted | JSONResponse:
        """Start today's challenge: a room of the day's set-up whose seats are yours."""
        refused = limit(request)
        if refused is not None:
            return refused
        account = await account_web.session_account(
            accounts(), request.cookies.get(account_web.COOKIE)
        )
        try:
            return await daily().start(game, account.id if account is not None else None)
        except _Refused as no:
            return no.response()

    @router.get("/api/daily/{game}/leaderboard", response_model=DailyBoard, responses=problems)
    async def board(
        game: str, day: str | None = Query(default=None, description="YYYY-MM-DD (UTC); today")
    ) -> DailyBoard | JSONResponse:
        """The day's finished games, best first (rooms named once the day has ended)."""
        try:
            return await asyncio.to_thread(daily().board, game, daily().day(day))
        except _Refused as no:
            return no.response()

    return router
