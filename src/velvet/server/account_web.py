"""HTTP for accounts: sign-up, sign-in (rate limited), sign-out, who am I, profiles and the
leaderboard (docs/web.md "Accounts and ratings"; the pages are the browser client's)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from velvet.games import find_spec
from velvet.server import games
from velvet.server.accounts import (
    SESSION_SECONDS,
    Account,
    AccountError,
    Accounts,
)
from velvet.server.limits import MAX_KEYS, address_key
from velvet.server.problems import problem
from velvet.server.ratings import BOT_RATINGS
from velvet.server.storage import Storage

log = logging.getLogger("velvet.server")
COOKIE = "velvet_session"
WINDOW = 300.0
"""Sign-in attempts are counted over the last five minutes."""
PER_NAME = 5
"""Sign-in attempts on one name in the window."""
PER_ADDRESS = 20
"""Sign-in and sign-up attempts from one client address in the window."""


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=64)
    password: str = Field(max_length=1024)


class SignInLimiter:
    """Attempts per name and per client address in a sliding window; ``refusal`` gives
    the seconds until the next attempt is allowed, or None (the attempt is then counted).
    Kept in the process's memory: with several processes each counts its own."""

    def __init__(self, per_name: int = PER_NAME, per_address: int = PER_ADDRESS) -> None:
        self.per_name, self.per_address = per_name, per_address
        self._stamps: OrderedDict[str, deque[float]] = OrderedDict()

    def refusal(self, name: str | None, host: str | None) -> float | None:
        now = time.monotonic()
        keys = [(f"address:{address_key(host)}", self.per_address)]
        if name is not None:
            keys.append((f"name:{name.casefold()[:64]}", self.per_name))
        wait = 0.0
        for key, most in keys:
            stamps = self._stamps.setdefault(key, deque())
            self._stamps.move_to_end(key)
            while stamps and stamps[0] <= now - WINDOW:
                stamps.popleft()
            if len(stamps) >= most:
                wait = max(wait, stamps[0] + WINDOW - now)
        if wait > 0:
            return wait
        for key, _ in keys:
            self._stamps[key].append(now)
        while len(self._stamps) > MAX_KEYS:
            self._stamps.popitem(last=False)
        return None


def _refused(error: AccountError) -> JSONResponse:
    status = {"name_taken": 409, "wrong_password": 401}.get(error.code, 422)
    return problem(error.code, str(error), status)


def _too_many(wait: float) -> JSONResponse:
    seconds = max(1, int(wait + 0.999))
    message = f"too many sign-in attempts; try again in {seconds} s"
    return problem("rate_limited", message, 429, headers={"Retry-After": str(seconds)})


def _decks(storage: Storage, room_id: str) -> tuple[list[str | None], bool]:
    """Each seat's deck (the game's ``deck_{seat}`` start column), from the room's set-up,
    and whether the game is co-op."""
    loaded = storage.load_room(room_id)
    if loaded is None:
        return [], False
    row = loaded[0]
    spec = find_spec(row.game)
    if spec is None:
        return [], False
    try:
        game = games.room_game(row.game, row.cards)
        columns = spec.start(game.new_state(row.config, row.seed))
    except Exception:  # a record without decks is still a record
        log.exception("room %s: its decks could not be read", room_id)
        return [], spec.cooperative
    decks = [
        (str(columns[f"deck_{s.seat}"]) if columns.get(f"deck_{s.seat}") else None)
        for s in row.seats
    ]
    return decks, spec.cooperative


def record_end(accounts: Accounts, room_id: str) -> bool:
    """Write an ended room's record and ratings (once: see Accounts.record_end)."""
    decks, cooperative = _decks(accounts.storage, room_id)
    return accounts.record_end(room_id, decks, cooperative)


def make_router(accounts: Callable[[], Accounts], secure: Callable[[Request], bool]) -> APIRouter:
    """The account routes; ``secure(request)``: whether cookies are marked Secure (https)."""
    router = APIRouter()
    limiter = SignInLimiter()

    def host(request: Request) -> str | None:
        return request.client.host if request.client else None

    def signed_in(response: JSONResponse, request: Request, token: str) -> JSONResponse:
        response.set_cookie(
            COOKIE,
            token,
            max_age=SESSION_SECONDS,
            path=request.scope.get("root_path", "").rstrip("/") + "/",
            httponly=True,
            samesite="lax",
            secure=secure(request),
        )
        return response

    @router.post("/api/account/signup", status_code=201)
    async def sign_up(body: Credentials, request: Request) -> JSONResponse:
        """A new account (a name and a password of 10+ characters); signs it in."""
        wait = limiter.refusal(None, host(request))
        if wait is not None:
            return _too_many(wait)
        try:
            account = await asyncio.to_thread(accounts().sign_up, body.name, body.password)
        except AccountError as error:
            return _refused(error)
        token = await asyncio.to_thread(accounts().new_session, account)
        return signed_in(JSONResponse({"name": account.name}, status_code=201), request, token)

    @router.post("/api/account/signin")
    async def sign_in(body: Credentials, request: Request) -> JSONResponse:
        """Sign in: 401 for a wrong name or password, 429 (Retry-After) when too many
        attempts were made on the name or from the address."""
        wait = limiter.refusal(body.name, host(request))
        if wait is not None:
            return _too_many(wait)
        try:
            account = await asyncio.to_thread(accounts().sign_in, body.name, body.password)
        except AccountError as error:
            return _refused(error)
        token = await asyncio.to_thread(accounts().new_session, account)
        return signed_in(JSONResponse({"name": account.name}), request, token)

    @router.post("/api/account/signout")
    async def sign_out(request: Request) -> JSONResponse:
        """End this browser's session (the cookie is cleared)."""
        await asyncio.to_thread(accounts().end_session, request.cookies.get(COOKIE))
        response = JSONResponse({"name": None})
        response.delete_cookie(
            COOKIE,
            path=request.scope.get("root_path", "").rstrip("/") + "/",
            httponly=True,
            samesite="lax",
            secure=secure(request),
        )
        return response

    @router.get("/api/account")
    async def who(request: Request) -> JSONResponse:
        """The signed-in account's name, or null."""
        account = await session_account(accounts(), request.cookies.get(COOKIE))
        return JSONResponse({"name": account.name if account else None})

    @router.get("/api/players/{name}")
    async def profile(name: str) -> JSONResponse:
        """A player's ratings per game, finished games (opponent, result, deck, rating
        change) and rooms being played."""
        found = await asyncio.to_thread(accounts().profile, name[:64])
        if found is None:
            return problem("no_player", f"no player {name[:64]!r}", 404)
        return JSONResponse(found)

    @router.get("/api/leaderboard")
    async def leaderboard(game: str | None = None) -> JSONResponse:
        """Rated players by rating (``game``: one game's); provisional ratings are marked.
        Bots appear once their rating is measured (velvet.server.ratings.BOT_RATINGS)."""
        players = await asyncio.to_thread(accounts().leaderboard, game[:16] if game else None)
        bots: list[dict[str, Any]] = [
            {"game": name, "bot": level, "rating": round(rating)}
            for name, table in BOT_RATINGS.items()
            if game is None or name == game
            for level, rating in table.items()
        ]
        return JSONResponse({"game": game, "players": players, "bots": bots})

    return router


async def session_account(accounts: Accounts, token: str | None) -> Account | None:
    """The account a session cookie signs in (None without one)."""
    if not token:
        return None
    return await asyncio.to_thread(accounts.session, token)
