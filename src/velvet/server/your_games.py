"""``POST /api/seats``: the rooms whose seats a client holds (the secrets its claims gave
it, sent in the body; and the signed-in account's seats), with whose move it is — the
browser's "Your games" page (docs/web.md). It says nothing about a seat the caller does
not hold: no view, no hand, no token, and a secret that opens nothing only comes back as
its index in ``unknown``."""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from velvet.engine.errors import VelvetError
from velvet.games import find_spec
from velvet.server import account_web, correspondence
from velvet.server.accounts import Accounts
from velvet.server.limits import MAX_KEYS, Bucket, address_key
from velvet.server.problems import problem
from velvet.server.protocol import Problem, YourGame, YourGames, YourGamesAsk
from velvet.server.rooms import Hub, row_seat_infos
from velvet.server.storage import RoomRow, StorageError, token_matches


def opened_seat(row: RoomRow, secret: str) -> int | None:
    """The person's seat of ``row`` that ``secret`` opens: the secret its claim gave, or the
    invite of a seat nobody has claimed yet (which would claim it). Constant-time checks."""
    for s in row.seats:
        if s.who != "human":
            continue
        if s.secret_sha256 is not None:
            if token_matches(secret, s.secret_sha256):
                return s.seat
        elif token_matches(secret, s.token_sha256):
            return s.seat
    return None


def make_router(
    hub: Callable[[], Hub],
    accounts: Callable[[], Accounts],
    rate: float,
    clock: Callable[[], float] = time.time,
) -> APIRouter:
    """The route; ``rate``: asks a second per client address (a burst of twice that), as
    each may read up to 110 rooms; ``clock``: now, for correspondence deadlines."""
    router = APIRouter()
    buckets: OrderedDict[str, Bucket] = OrderedDict()

    def allowed(request: Request) -> bool:
        key = address_key(request.client.host if request.client else None)
        bucket = buckets.get(key)
        if bucket is None:
            bucket = buckets[key] = Bucket(rate)
            while len(buckets) > MAX_KEYS:
                buckets.popitem(last=False)
        buckets.move_to_end(key)
        return bucket.allow()

    @router.post(
        "/api/seats",
        response_model=YourGames,
        responses={422: {"model": Problem}, 429: {"model": Problem}, 503: {"model": Problem}},
    )
    async def your_games(body: YourGamesAsk, request: Request) -> YourGames | JSONResponse:
        """The games of the seats this client holds: the seat secrets in the body (at most
        60) and, signed in, the account's seats; each with whose move it is, the caller's
        move first."""
        if not allowed(request):
            return problem("rate_limited", "too many asks for your games; slow down", 429)
        store = hub().storage
        account = await account_web.session_account(
            accounts(), request.cookies.get(account_web.COOKIE)
        )
        theirs = await asyncio.to_thread(store.rooms_of_account, account.id) if account else []
        asked = list(dict.fromkeys(s.room for s in body.seats))
        rows = await asyncio.to_thread(store.rooms_of, list(dict.fromkeys(asked + theirs)))
        here: dict[str, set[int]] = {}
        unknown: list[int] = []
        for index, held in enumerate(body.seats):
            row = rows.get(held.room)
            seat = opened_seat(row, held.secret) if row is not None else None
            if seat is None:
                unknown.append(index)
            else:
                here.setdefault(held.room, set()).add(seat)
        mine = {room: set(seats) for room, seats in here.items()}
        if account is not None:
            for room in theirs:
                for s in rows[room].seats if room in rows else ():
                    if s.account == account.id:
                        mine.setdefault(room, set()).add(s.seat)
        bound = [s.account for r in mine for s in rows[r].seats if s.account is not None]
        names = await asyncio.to_thread(hub().names, bound) if bound else {}
        games = [
            await _game(hub(), rows[room], seats, here.get(room, set()), names, clock())
            for room, seats in mine.items()
        ]
        games.sort(key=lambda g: (not g.your_move, g.status == "over", -g.created))
        return YourGames(
            games=games, unknown=unknown, player=account.name if account is not None else None
        )

    return router


async def _game(
    hub: Hub, row: RoomRow, seats: set[int], here: set[int], names: dict[int, str], now: float
) -> YourGame:
    """One room's status for a caller holding ``seats`` (``here``: through its secrets);
    a correspondence game past its deadline at ``now`` is lost on time first."""
    room = hub.rooms.get(row.id)
    if room is None and row.status != "over":
        try:
            room = await hub.get(row.id)  # whose move it is needs the position
        except (StorageError, VelvetError):
            room = None  # shown without whose move it is
    due = await correspondence.check(hub, room, now) if room is not None else None
    to_move = room.to_move() if room is not None else None
    yours = (
        room is not None
        and to_move is not None
        and to_move in seats
        and room.bot_for(to_move) is None
    )
    spec = find_spec(row.game)
    ended = room.row.result if room is not None else row.result
    return YourGame(
        room=row.id,
        game=row.game,
        title=(spec.short_title or row.game) if spec is not None else row.game,
        status=room.row.status if room is not None else row.status,
        version=room.version if room is not None else row.version,
        seats=sorted(seats),
        here=sorted(here),
        to_move=to_move,
        your_move=yours,
        players=hub.seat_infos(room) if room is not None else row_seat_infos(row, names),
        result=(str(ended.get("text") or "") or None) if ended else None,
        cooperative=spec is not None and spec.cooperative,
        hotseat=bool(row.options.get("hotseat")),
        rated=bool(row.options.get("rated")),
        created=row.created,
        days_per_move=correspondence.days_of(row),
        hours_per_move=correspondence.hours_of(row),
        deadline=due,
    )
