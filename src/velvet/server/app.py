"""The ASGI app: HTTP+JSON for rooms (OpenAPI at /openapi.json), WebSockets for play."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import html
import logging
import re
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from velvet import __version__
from velvet.engine.errors import ConfigError, VelvetError, printable
from velvet.games import find_spec
from velvet.learn import puzzles_web, review_web
from velvet.learn import web as learn_web
from velvet.server import (
    account_web,
    correspondence,
    daily,
    games,
    matchmaking,
    replay,
    your_games,
)
from velvet.server.accounts import Accounts
from velvet.server.bots import BotLimits, BotPool
from velvet.server.bus import make_bus
from velvet.server.hinting import HintPool, HintSettings
from velvet.server.limits import Bucket, RoomLimiter, ServeLimits, address_key
from velvet.server.matchmaking import Matchmaker, MatchSettings
from velvet.server.problems import problem, problem_bytes
from velvet.server.protocol import (
    MAX_MESSAGE_BYTES,
    AnyClient,
    Chat,
    CreateRoom,
    Emote,
    ErrorMsg,
    ForecastAsk,
    GameInfo,
    Hello,
    HintAsk,
    HintCancel,
    Move,
    Ping,
    Pong,
    Problem,
    RematchDecline,
    Resign,
    RoomCreated,
    RoomInfo,
    Transfer,
    Undo,
    parse_client,
)
from velvet.server.rooms import Conn, Hub, SeatRefused, row_seat_infos
from velvet.server.storage import Storage, StorageError, default_db_url, migrate

log = logging.getLogger("velvet.server")
MAX_BODY_BYTES = 1_048_576
HELLO_TIMEOUT = 10.0
STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
"""The browser client: plain ES modules, CSS and SVG (docs/web.md)."""


@dataclass
class Settings:
    db: str = field(default_factory=default_db_url)
    redis: str | None = None
    bot_workers: int = 1
    bot_limits: BotLimits = field(default_factory=BotLimits)
    """Bot budgets a room may name, and each bot move's deadline (velvet.server.bots)."""
    public_url: str | None = None
    allowed_origins: tuple[str, ...] = ()
    """Origins allowed on WebSockets besides the server's own host."""
    rate: float = 20.0
    """Messages per second a socket may send (with a burst of twice that)."""
    http_rate: float = 20.0
    """Room creations per second per client address (with a burst of twice that); the same
    for asks of ``POST /api/seats`` (your games)."""
    rooms_per_hour: int = 200
    """Room creations (rematches too) per client address in any hour."""
    forwarded_allow_ips: tuple[str, ...] = ()
    """Proxies whose ``X-Forwarded-For`` names the client (none: the socket's peer does)."""
    max_rooms: int = 2000
    """Rooms held in memory at once; beyond it idle ones are dropped, else 503."""
    idle_seconds: float = 120.0
    """A room nobody is connected to and no bot plays leaves memory after this long."""
    ws_per_seat: int = 8
    """WebSockets open at once on one seat of a room."""
    ws_per_address: int = 64
    """WebSockets open at once from one client address (seats and spectators)."""
    serve: ServeLimits = field(default_factory=ServeLimits)
    """Deadlines and connection caps of the HTTP server (velvet.server.limits)."""
    busy_ms: int = 5000
    """How long a SQLite write waits for a lock before the move is refused as "locked"."""
    hints: HintSettings = field(default_factory=HintSettings)
    """Hint budget, worker processes and forecast length (velvet.server.hinting)."""
    matchmaking: MatchSettings = field(default_factory=MatchSettings)
    """When a quick-pair ticket is offered a bot, when a seek's gone seeker drops out of
    the list (velvet.server.matchmaking)."""
    clock: Callable[[], float] = time.time
    """The wall clock the daily challenge reads its day from and stored moves and claims
    are stamped with (tests set it)."""
    sweep_seconds: float = correspondence.SWEEP_SECONDS
    """How often the correspondence rooms' deadlines are checked without being asked."""


class _HttpMiddleware:
    """An ASGI middleware for HTTP requests only; WebSockets and lifespan pass through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
        else:
            await self.http(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise NotImplementedError


class BodyLimit(_HttpMiddleware):
    """Refuse HTTP bodies over ``MAX_BODY_BYTES`` with 413 before they are read whole."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > MAX_BODY_BYTES):
                await _too_large(send)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > MAX_BODY_BYTES:
                raise _TooLarge
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await _too_large(send)


class _TooLarge(Exception):
    pass


async def _too_large(send: Send) -> None:
    body = problem_bytes("too_large", "request body over 1 MiB")
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": body})


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server app; its storage, bot pool and bus live as long as it runs."""
    settings = settings or Settings()
    state: dict[str, Hub] = {}
    players: dict[str, Accounts] = {}
    finders: dict[str, Matchmaker] = {}
    dailies: dict[str, daily.Daily] = {}
    ended: set[asyncio.Task[None]] = set()
    """Games being recorded (and rated) in the background."""
    sockets: Counter[str] = Counter()
    """Open WebSockets by client address (velvet.server.limits.address_key)."""
    reviewer = review_web.Reviewer()
    """The Review page's worker (POST /api/review), stopped with the app."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(settings.db, settings.busy_ms, settings.clock)
        await asyncio.to_thread(migrate, storage.engine)
        bus = make_bus(settings.db, settings.redis)
        hinter = HintPool(settings.hints)
        bots = BotPool(settings.bot_workers, settings.bot_limits)
        hub = Hub(storage, bots, bus, settings.public_url, hinter)
        hub.limiter = RoomLimiter(settings.http_rate, settings.rooms_per_hour)
        hub.max_rooms, hub.idle_seconds = settings.max_rooms, settings.idle_seconds
        players["accounts"] = accounts = Accounts(storage)

        async def record(room_id: str) -> None:
            try:
                await asyncio.to_thread(account_web.record_end, accounts, room_id)
            except StorageError as failure:  # recorded at the next start (pending_ends)
                log.warning("room %s: its result was not recorded (%s)", room_id, failure)

        def on_end(room_id: str) -> None:
            task = asyncio.create_task(record(room_id))
            ended.add(task)
            task.add_done_callback(ended.discard)

        async def catch_up_records() -> None:
            """Games that ended while no process recorded them (a crash, kill -9)."""
            with contextlib.suppress(StorageError):
                for room_id in await asyncio.to_thread(accounts.pending_ends):
                    await record(room_id)

        hub.on_end = lambda room: on_end(room.row.id)
        hub.names = accounts.names
        finders["matchmaker"] = Matchmaker(hub, accounts, settings.matchmaking)
        dailies["daily"] = daily.Daily(hub, accounts, settings.clock)
        on_start = asyncio.create_task(catch_up_records())
        ended.add(on_start)
        on_start.add_done_callback(ended.discard)
        await bus.start(hub.catch_up)
        sweeper = correspondence.Sweeper(hub, settings.clock, settings.sweep_seconds)
        sweeper.start()
        state["hub"] = hub
        app.state.hub = hub  # for the operator's (and the tests') inspection
        try:
            yield
        finally:
            await sweeper.close()
            if ended:
                await asyncio.wait(set(ended), timeout=10)
            await hub.close()
            await bus.close()
            hub.pool.close()
            hinter.close()
            reviewer.close()
            storage.close()

    app = FastAPI(
        title="Velvet server",
        version=__version__,
        description="Rooms over HTTP+JSON; play over WebSockets at /ws/{room} (docs/protocol.md).",
        lifespan=lifespan,
    )

    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders)
    # the page's scripts, styles and JSON, compressed (a phone on a slow line waits on the
    # bytes); a review's NDJSON progress is not, or its lines would wait in the compressor
    app.add_middleware(
        GZipMiddleware,
        minimum_size=1000,
        exclude_content_types=(*DEFAULT_EXCLUDED_CONTENT_TYPES, "application/x-ndjson"),
    )

    def hub() -> Hub:
        return state["hub"]

    def secure(request: Request) -> bool:
        """Cookies are Secure when the page is served over https (directly, through a
        trusted proxy, or at an https ``--public-url``)."""
        return request.url.scheme == "https" or (settings.public_url or "").startswith("https:")

    @app.exception_handler(VelvetError)
    async def velvet_error(_: Request, error: VelvetError) -> JSONResponse:
        field: dict[str, Any] = {}
        if isinstance(error, ConfigError) and error.option is not None:
            field = {"option": error.option, "seat": error.seat}  # for the form's field
        return problem("bad_options", str(error), 400, **field)

    @app.exception_handler(StorageError)
    async def storage_error(_: Request, error: StorageError) -> JSONResponse:
        return problem("storage", str(error), 503)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, error: RequestValidationError) -> JSONResponse:
        message = _first_error(error.errors())
        return problem("bad_request", message, 422, **_field_of(error.errors()))

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, error: HTTPException) -> JSONResponse:
        return problem("http", str(error.detail), error.status_code)

    problems: dict[int | str, dict[str, Any]] = {
        400: {"model": Problem},
        404: {"model": Problem},
        413: {"model": Problem},
        422: {"model": Problem},
        429: {"model": Problem},
        503: {"model": Problem},
    }

    @app.post("/api/rooms", response_model=RoomCreated, status_code=201, responses=problems)
    async def create_room(body: CreateRoom, request: Request) -> RoomCreated | JSONResponse:
        """Create a room; the answer holds one secret invite per human seat."""
        refusal = hub().limiter.refusal(request.client.host if request.client else None)
        if refusal is not None:
            return problem("rate_limited", refusal, 429)
        return await hub().create(body, own_base(request))

    @app.get("/api/games", response_model=list[GameInfo])
    async def game_list() -> list[GameInfo]:
        """Every game a room may be made of, with its seat counts, set-up options (as
        ``CreateRoom.options`` takes them), the bots this server allows, whether it has a
        forecast, and its browser board module: the lobby's form is built from it."""
        found = await asyncio.to_thread(games.catalog, hub().pool.check)
        return [GameInfo.model_validate(entry) for entry in found]

    @app.get("/api/i18n/{lang}")
    async def messages(lang: str) -> dict[str, Any]:
        """The message catalogue of ``lang`` (the terminal's, ``velvet.i18n``) for the
        browser: ``messages``, ``plurals`` and each game's card ``names``; a language
        without a catalogue gets English (``lang`` says which one was served)."""
        from velvet.i18n import catalogue

        return await asyncio.to_thread(catalogue, lang[:40])

    @app.get("/api/rooms", response_model=list[RoomInfo], responses=problems)
    async def lobby() -> list[RoomInfo]:
        """Listed rooms that are not over, newest first."""
        rows = await asyncio.to_thread(hub().storage.lobby)
        bound = [s.account for r in rows for s in r.seats if s.account is not None]
        names = await asyncio.to_thread(hub().names, bound) if bound else {}
        out = []
        for row in rows:
            room = hub().rooms.get(row.id)
            out.append(hub().info(room) if room is not None else _info_of(row, names))
        return out

    @app.get("/api/rooms/{room_id}", response_model=RoomInfo, responses=problems)
    async def room_info(room_id: str) -> RoomInfo | JSONResponse:
        """A room's public facts."""
        room = await hub().get(room_id[:64])
        if room is None:
            return _no_room(room_id)
        await correspondence.check(hub(), room, settings.clock())
        return hub().info(room)

    @app.get("/api/rooms/{room_id}/record", responses=problems)
    async def room_record(room_id: str) -> JSONResponse:
        """The game record, with the seed revealed, once the game is over."""
        room = await hub().get(room_id[:64])
        if room is None:
            return _no_room(room_id)
        if not room.over:
            return problem("not_over", "the record is given when the game is over", 409)
        refused = daily.replay_refusal(room.row, settings.clock())
        if refused is not None:
            return refused
        return JSONResponse(
            {
                "record": room.record().to_json(),
                "result": room.row.result,
                "seed": room.row.seed,
                "nonce": room.row.nonce,
                "seed_sha256": room.row.seed_sha256,
            }
            # the room's own card files, so that a review (POST /api/review) plays its cards
            | ({"cards": list(room.row.cards)} if room.row.cards else {})
        )

    def room_limit(request: Request) -> JSONResponse | None:
        """The refusal of a request that makes a room, past the client's room limit."""
        refusal = hub().limiter.refusal(request.client.host if request.client else None)
        if refusal is None:
            return None
        return problem("rate_limited", refusal, 429)

    app.include_router(matchmaking.make_router(lambda: finders["matchmaker"], room_limit))
    app.include_router(
        replay.make_router(hub, lambda room: daily.replay_refusal(room.row, settings.clock()))
    )
    app.include_router(
        daily.make_router(lambda: dailies["daily"], lambda: players["accounts"], room_limit)
    )  # /api/daily
    app.include_router(account_web.make_router(lambda: players["accounts"], secure))
    app.include_router(
        your_games.make_router(hub, lambda: players["accounts"], settings.http_rate, settings.clock)
    )  # /api/seats
    app.include_router(learn_web.make_router())  # GET /api/learn/...: the Learn page
    app.include_router(review_web.make_router(reviewer))  # POST /api/review: the Review page
    app.include_router(puzzles_web.make_router())  # /api/puzzles/...: the Puzzles page

    @app.get("/join/{room_id}", response_class=PlainTextResponse)
    async def join_page(room_id: str, request: Request) -> Response:
        """The browser client for a browser (the token stays in the URL fragment);
        for anything else, a line saying how to join from a terminal."""
        if "text/html" in request.headers.get("accept", ""):
            page = _client_page(request, await _board_of(room_id))
            page.headers["Vary"] = "Accept"
            return page
        return PlainTextResponse(
            f"Velvet room {room_id[:64]!r}.\n"
            f"Join from a terminal with: velvet join "
            f"'{(settings.public_url or own_base(request)).rstrip('/')}/join/"
            f"{quote(room_id[:64], safe='')}"
            "#<token from your invite>'\n",
            headers={"Vary": "Accept"},
        )

    async def _board_of(room_id: str) -> tuple[str, str] | None:
        """The room's game and its board module (None: no such room, or no board)."""
        try:
            rows = await asyncio.to_thread(hub().storage.rooms_of, [room_id[:64]])
        except StorageError:
            return None  # the page still opens; its WebSocket says what is wrong
        row = rows.get(room_id[:64])
        spec = find_spec(row.game) if row is not None else None
        return (spec.name, spec.board) if spec is not None and spec.board else None

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def lobby_page(request: Request) -> Response:
        """The browser client: the lobby."""
        return _client_page(request)

    @app.get("/review", response_class=HTMLResponse, include_in_schema=False)
    async def review_page(request: Request) -> Response:
        """The browser client: the Review page (docs/learn.md, "Review")."""
        return _client_page(request)

    @app.get("/daily", response_class=HTMLResponse, include_in_schema=False)
    async def daily_page(request: Request) -> Response:
        """The browser client: the daily challenge and its leaderboard (daily.js)."""
        return _client_page(request)

    @app.get("/games", response_class=HTMLResponse, include_in_schema=False)
    async def games_page(request: Request) -> Response:
        """The browser client: your games, your move first (mygames.js)."""
        return _client_page(request)

    @app.get("/leaderboard", response_class=HTMLResponse, include_in_schema=False)
    @app.get("/players/{name}", response_class=HTMLResponse, include_in_schema=False)
    async def player_pages(request: Request) -> Response:
        """The browser client: the leaderboard and players' profiles (account.js)."""
        return _client_page(request)

    @app.get("/learn", response_class=HTMLResponse, include_in_schema=False)
    @app.get("/learn/{game_name}", response_class=HTMLResponse, include_in_schema=False)
    async def learn_page(request: Request) -> Response:
        """The browser client: the Learn page (lessons, docs/learn.md)."""
        return _client_page(request)

    @app.get("/puzzles", response_class=HTMLResponse, include_in_schema=False)
    @app.get("/puzzles/{game_name}", response_class=HTMLResponse, include_in_schema=False)
    async def puzzles_page(request: Request) -> Response:
        """The browser client: the Puzzles page (docs/learn.md, "Puzzles")."""
        return _client_page(request)

    @app.get("/api/rooms/{room_id}/cards", responses=problems)
    async def room_cards(room_id: str, lang: str | None = None) -> JSONResponse:
        """Every card of the room's card set (custom cards included) in words and as data;
        ``lang``: the language of the words the game writes (``en`` by default)."""
        room = await hub().get(room_id[:64])
        if room is None:
            return _no_room(room_id)
        cards = await asyncio.to_thread(
            games.cards_json, room.row.game, tuple(room.row.cards), (lang or "")[:40]
        )
        return JSONResponse({"game": room.row.game, "cards": cards})

    app.mount("/static", _Static(directory=STATIC, check_dir=False), name="static")

    @app.get("/healthz", response_class=PlainTextResponse)
    async def health() -> str:
        return "ok"

    @app.websocket("/ws/{room_id}")
    async def play(ws: WebSocket, room_id: str) -> None:
        if not _origin_ok(ws, settings.allowed_origins):
            await ws.close(code=1008, reason="origin not allowed")
            return
        key = address_key(ws.client.host if ws.client else None)
        if sockets[key] >= settings.ws_per_address:
            await ws.close(code=1008, reason="too many sockets from this address")
            return
        sockets[key] += 1
        try:
            await ws.accept()
            with contextlib.suppress(WebSocketDisconnect):
                await _session(ws, hub(), room_id[:64], settings, players["accounts"])
        finally:
            sockets[key] -= 1
            if sockets[key] <= 0:
                del sockets[key]

    return app


_HOST = re.compile(r"[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")
"""A ``Host`` header fit to name in the page's Content-Security-Policy."""
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'{ws}; manifest-src 'self'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'; object-src 'none'"
)
"""The pages' policy: the client's own files only (no inline script or style)."""


class SecurityHeaders(_HttpMiddleware):
    """Every HTTP answer says: only this server's scripts and styles, never in a frame,
    no type sniffing, no referrer beyond this origin (docs/reliability.md)."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        host = next((v for k, v in scope.get("headers", []) if k == b"host"), b"")
        text = host.decode("latin-1")
        ws = f" ws://{text} wss://{text}" if _HOST.fullmatch(text) else ""
        extra = [
            (b"content-security-policy", CSP.format(ws=ws).encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"x-frame-options", b"DENY"),
            (b"referrer-policy", b"same-origin"),
            (b"cross-origin-opener-policy", b"same-origin"),
        ]

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [
                    *message.get("headers", []),
                    *((k, v) for k, v in extra if k not in names),
                ]
            await send(message)

        await self.app(scope, receive, with_headers)


def own_base(request: Request) -> str:
    """This server's own base URL, as the socket the request came in on names it (never
    the request's ``Host`` header, which the client writes): invite links without
    ``--public-url`` point where the server listens."""
    scheme = "https" if request.url.scheme in ("https", "wss") else "http"
    server = request.scope.get("server")
    if not server:
        return f"{scheme}://127.0.0.1"
    host, port = str(server[0]), server[1]
    if ":" in host:
        host = f"[{host}]"
    default = port is None or (scheme, int(port)) in (("http", 80), ("https", 443))
    root = str(request.scope.get("root_path", "")).rstrip("/")
    return f"{scheme}://{host}{'' if default else f':{port}'}{root}"


class _Static(StaticFiles):
    """The client's files, revalidated on every load (ETag: a 304 when unchanged), so an
    upgraded server never runs with last version's modules cached in a browser."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


_IMPORT = re.compile(r'\b(?:from|import)\s+"\./([\w-]+\.js)"')


@functools.cache
def _module_graph(entry: str) -> tuple[str, ...]:
    """``entry`` and every client module it imports statically (found in its text), each
    once, in the order found."""
    found: list[str] = []
    todo = [entry]
    while todo:
        name = todo.pop(0)
        if name in found:
            continue
        try:
            text = (STATIC / name).read_text(encoding="utf-8")
        except OSError:
            continue
        found.append(name)
        todo += _IMPORT.findall(text)
    return tuple(found)


def _preloads(board: tuple[str, str] | None) -> str:
    """Links that fetch at once what the page would find one import at a time: every module
    of app.js and, on a table, the board's modules and style sheet (which the board waits
    for before it is drawn)."""
    modules = list(_module_graph("app.js")[1:])
    links = []
    if board is not None:
        name, module = board
        modules += [m for m in _module_graph(module) if m not in modules]
        css = Path(module).with_suffix(".css").name
        game = html.escape(name, quote=True)
        if (STATIC / css).is_file():
            links.append(f'<link rel="stylesheet" href="static/{css}" data-board="{game}">')
    links += [f'<link rel="modulepreload" href="static/{m}">' for m in modules]
    return "\n".join(links)


def _client_page(request: Request, board: tuple[str, str] | None = None) -> HTMLResponse:
    """index.html with its base set to where the app is mounted (behind a proxy too) and
    its modules preloaded (``board``: a table's game and board module)."""
    try:
        page = (STATIC / "index.html").read_text(encoding="utf-8")
    except OSError:
        return HTMLResponse("<p>The browser client is not installed.</p>", status_code=500)
    base = html.escape(request.scope.get("root_path", "").rstrip("/") + "/", quote=True)
    page = page.replace("{{BASE}}", base).replace("{{PRELOAD}}", _preloads(board))
    return HTMLResponse(page, headers={"Cache-Control": "no-cache"})


def _info_of(row: Any, names: dict[int, str]) -> RoomInfo:
    """A room's public facts from its row (not in memory); ``names``: accounts by id."""
    return RoomInfo(
        room=row.id,
        game=row.game,
        status=row.status,
        version=row.version,
        seats=row_seat_infos(row, names),
        seed_sha256=row.seed_sha256,
        created=row.created,
        hotseat=bool(row.options.get("hotseat")),
        rated=bool(row.options.get("rated")),
        days_per_move=row.options.get("days_per_move"),
        hours_per_move=row.options.get("hours_per_move"),
    )


def _no_room(room_id: str) -> JSONResponse:
    return problem("no_room", f"no room {room_id[:64]!r}", 404)


def _field_of(errors: Any) -> dict[str, Any]:
    """``option`` (and ``seat``) of a refused request's first error, for the lobby's form:
    ``body.options.first`` -> ``first``; ``body.seats.1`` -> ``seats``, seat 1."""
    try:
        where = [x for x in errors[0].get("loc", ()) if x != "body"]
    except (IndexError, TypeError, AttributeError):
        return {}
    if where[:1] == ["options"]:
        where = where[1:]
    names = [x for x in where if isinstance(x, str)]
    seats = [x for x in where if isinstance(x, int)]
    if not names:
        return {}
    return {"option": names[0], "seat": seats[0] if seats else None}


def _first_error(errors: Any) -> str:
    try:
        first = errors[0]
        where = ".".join(str(x) for x in first.get("loc", ()) if x != "body")
        return printable(f"{where or 'body'}: {first.get('msg', 'invalid')}")
    except (IndexError, TypeError, AttributeError):
        return "invalid request"


def _origin_ok(ws: WebSocket, allowed: tuple[str, ...]) -> bool:
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser: nothing to check
    if origin in allowed:
        return True
    host = ws.headers.get("host", "")
    return urlsplit(origin).netloc == host and host != ""


def _parse(text: str) -> AnyClient | ErrorMsg:
    """A client message, or the error that answers it (velvet.server.protocol.parse_client)."""
    return parse_client(text)


async def _session(
    ws: WebSocket, hub: Hub, room_id: str, settings: Settings, accounts: Accounts
) -> None:
    """One socket: hello first, then moves, until it closes."""
    try:
        first = await asyncio.wait_for(ws.receive_text(), HELLO_TIMEOUT)
    except (TimeoutError, KeyError):
        await ws.close(code=1008, reason="say hello first")
        return
    hello = _parse(first) if len(first) <= MAX_MESSAGE_BYTES else None
    if not isinstance(hello, Hello):
        message = hello.message if isinstance(hello, ErrorMsg) else "message too large"
        await ws.send_text(ErrorMsg(code="hello_first", message=message).model_dump_json())
        await ws.close(code=1008, reason="say hello first")
        return
    try:
        room = await hub.get(room_id)
    except (StorageError, VelvetError) as error:
        await ws.send_text(ErrorMsg(code="storage", message=str(error)).model_dump_json())
        await ws.close(code=1011, reason="storage unavailable")
        return
    if room is None:
        await ws.send_text(
            ErrorMsg(code="no_room", message=f"no room {room_id!r}").model_dump_json()
        )
        await ws.close(code=1008, reason="no such room")
        return
    seat: int | None = None
    secret: str | None = None
    if hello.token is not None:
        try:
            account = await account_web.session_account(
                accounts, ws.cookies.get(account_web.COOKIE)
            )
            seat, secret = await hub.open_seat(
                room,
                hello.token,
                account.id if account is not None else None,
                account.name if account is not None else None,
            )
        except SeatRefused as no_seat:
            await ws.send_text(ErrorMsg(code=no_seat.code, message=str(no_seat)).model_dump_json())
            await ws.close(code=1008, reason=no_seat.code)
            return
        except StorageError as error:
            await ws.send_text(ErrorMsg(code="storage", message=str(error)).model_dump_json())
            await ws.close(code=1011, reason="storage unavailable")
            return
    if seat is not None and sum(c.seat == seat for c in room.conns) >= settings.ws_per_seat:
        message = f"seat {seat + 1} has {settings.ws_per_seat} sockets open; close one first"
        await ws.send_text(ErrorMsg(code="too_many_sockets", message=message).model_dump_json())
        await ws.close(code=1008, reason="too many sockets on this seat")
        return
    conn = Conn(seat, ws.client.host if ws.client else "", hello.lang)
    writer = asyncio.create_task(_writer(ws, conn))
    hub.attach(room, conn, secret)
    bucket = Bucket(settings.rate)
    refused = 0
    try:
        while not conn.closed:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                raw = frame.get("bytes") or b""
                text = (
                    raw.decode("utf-8", errors="replace") if len(raw) <= MAX_MESSAGE_BYTES else ""
                )
                if not text:
                    conn.send(ErrorMsg(code="bad_message", message="send JSON text frames"))
                    continue
            if len(text) > MAX_MESSAGE_BYTES:
                conn.send(ErrorMsg(code="too_large", message="message over 16 KiB"))
                conn.close()
                break
            if not bucket.allow():
                refused += 1
                conn.send(ErrorMsg(code="rate_limited", message="too many messages; slow down"))
                if refused > 100:
                    conn.close()
                    break
                continue
            parsed = _parse(text)
            await _handle(hub, room, conn, parsed)
    finally:
        hub.detach(room, conn)
        conn.close()
        with contextlib.suppress(Exception):
            await writer
        with contextlib.suppress(Exception):
            await ws.close()


async def _handle(hub: Hub, room: Any, conn: Conn, msg: AnyClient | ErrorMsg) -> None:
    if isinstance(msg, ErrorMsg):
        conn.send(msg)
    elif isinstance(msg, Ping):
        conn.send(Pong())
    elif isinstance(msg, Hello):
        conn.send(ErrorMsg(code="hello_twice", message="already greeted; open a new socket"))
    elif conn.seat is None:
        conn.send(ErrorMsg(code="spectator", message="spectators cannot act"))
    elif isinstance(msg, Move):
        await hub.move(room, conn.seat, msg.version, msg.action, conn)
    elif isinstance(msg, Undo):
        await hub.undo(room, conn.seat, msg.version, conn)
    elif isinstance(msg, Resign):
        await hub.resign(room, conn.seat, conn)
    elif isinstance(msg, HintAsk | ForecastAsk):
        hub.hint(room, conn, msg.version, msg.type)  # worked out in the background
    elif isinstance(msg, HintCancel):
        hub.cancel_hint(conn)
    elif isinstance(msg, Transfer):
        await hub.transfer(room, conn)
    elif isinstance(msg, RematchDecline):
        await hub.decline_rematch(room, conn)
    elif isinstance(msg, Emote):
        await hub.emote(room, conn, msg.emote)
    elif isinstance(msg, Chat):
        await hub.chat(room, conn, msg.text)
    else:
        await hub.rematch(room, conn)


async def _writer(ws: WebSocket, conn: Conn) -> None:
    while True:
        text = await conn.outbox.get()
        if text is None:
            break
        try:
            await ws.send_text(text)
        except Exception:
            conn.closed = True
            break
    with contextlib.suppress(Exception):
        await ws.close()
