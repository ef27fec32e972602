"""``velvet serve`` and ``velvet join``."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import webbrowser

import click

from velvet.engine.errors import ConfigError

NEEDS_EXTRA = "online play needs the server extra: pip install -e '.[server]'"


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--db",
    metavar="URL",
    help="sqlite:///FILE or postgresql://… (default: SQLite in the user's data folder).",
)
@click.option(
    "--redis",
    metavar="URL",
    help="redis://… to pass moves between several processes on one database "
    "(without it, PostgreSQL's LISTEN/NOTIFY does).",
)
@click.option(
    "--bot-workers",
    type=click.IntRange(0, 64),
    default=min(4, os.cpu_count() or 1),
    show_default=True,
    help="Worker processes for bots (0: a thread, for tiny hosts).",
)
@click.option(
    "--max-bot-seconds",
    type=click.FloatRange(0.1, 3600),
    default=5.0,
    show_default=True,
    help="The longest time budget a room's bot may have (a longer one is refused when the "
    "room is made), and every bot move's deadline: the search then plays its best so far.",
)
@click.option(
    "--max-bot-simulations",
    type=click.IntRange(1, 10_000_000),
    default=5000,
    show_default=True,
    help="The largest simulation budget a room's bot may have (hard: 800).",
)
@click.option(
    "--hint-budget",
    default="1.5s",
    show_default=True,
    metavar="Ns|N",
    callback=lambda _c, _p, value: _budget(value),
    help="Seconds (like 1.5s) or simulations (like 400) behind each hint asked in a room.",
)
@click.option(
    "--hint-workers",
    type=click.IntRange(0, 64),
    default=1,
    show_default=True,
    help="Worker processes for hints and forecasts (0: a thread).",
)
@click.option(
    "--forecast-seconds",
    type=click.FloatRange(0.1, 600),
    default=3.0,
    show_default=True,
    help="A P5 forecast plays games (20 at most) for about this long.",
)
@click.option("--public-url", metavar="URL", help="Base of the invite links (behind a proxy).")
@click.option(
    "--allow-origin", "origins", multiple=True, metavar="ORIGIN", help="Extra WebSocket origin."
)
@click.option(
    "--forwarded-allow-ips",
    "proxies",
    multiple=True,
    metavar="IPS",
    help="Proxies (addresses or networks, comma-separated, or '*') whose X-Forwarded-For "
    "names the client; default none: limits count the socket's own peer.",
)
@click.option(
    "--per-address",
    type=click.IntRange(1, 10**6),
    default=64,
    show_default=True,
    help="Connections, and WebSockets, one client address may hold open at once.",
)
@click.option(
    "--rooms-per-hour",
    type=click.IntRange(1, 10**9),
    default=200,
    show_default=True,
    help="Rooms (rematches too) one client address may create in an hour.",
)
@click.option(
    "--rooms-per-second",
    type=click.FloatRange(0.1, 10**6),
    default=20.0,
    show_default=True,
    help="Rooms (quick-pair joins and seeks too) one client address may create a second, "
    "with a burst of twice that; raise it for a load test whose clients are one address.",
)
@click.option(
    "--max-connections",
    type=click.IntRange(16, 10**6),
    default=None,
    help="Open connections (HTTP and WebSocket) this process holds at once; default: what "
    "its descriptor limit leaves, at most 4096 (raise `ulimit -n` for more).",
)
@click.option(
    "--max-rooms",
    type=click.IntRange(1, 10**6),
    default=2000,
    show_default=True,
    help="Rooms this process holds in memory at once: idle ones are dropped first, then "
    "a new one is refused (503) until one is free.",
)
@click.option(
    "--no-browser",
    is_flag=True,
    help="Do not open the browser client (it opens when there is one).",
)
def serve_command(
    host: str,
    port: int,
    db: str | None,
    redis: str | None,
    bot_workers: int,
    max_bot_seconds: float,
    max_bot_simulations: int,
    hint_budget: str,
    hint_workers: int,
    forecast_seconds: float,
    public_url: str | None,
    origins: tuple[str, ...],
    proxies: tuple[str, ...],
    per_address: int,
    rooms_per_hour: int,
    rooms_per_second: float,
    max_connections: int | None,
    max_rooms: int,
    no_browser: bool,
) -> None:
    """Serve online play: rooms over HTTP, games over WebSockets (docs/deploy.md)."""
    try:
        import uvicorn

        from velvet.server.app import Settings, create_app
        from velvet.server.limits import ServeLimits, forwarded_hosts, uvicorn_options
    except ImportError as error:
        raise ConfigError(f"{NEEDS_EXTRA} ({error.name} is missing)") from None

    if db is not None and not db.startswith(("sqlite:", "postgresql:", "postgresql+psycopg:")):
        raise ConfigError(f"--db {db!r}: use sqlite:///FILE or postgresql://USER@HOST/DB")
    if redis is not None and not redis.startswith(("redis://", "rediss://", "unix://")):
        raise ConfigError(f"--redis {redis!r}: use redis://HOST:PORT")
    from velvet.server.bots import BotLimits
    from velvet.server.hinting import HintSettings

    hints = HintSettings(
        budget=hint_budget, workers=hint_workers, forecast_seconds=forecast_seconds
    )
    settings = Settings(
        redis=redis,
        bot_workers=bot_workers,
        bot_limits=BotLimits(seconds=max_bot_seconds, simulations=max_bot_simulations),
        public_url=public_url,
        allowed_origins=origins,
        hints=hints,
        forwarded_allow_ips=forwarded_hosts(proxies),
        rooms_per_hour=rooms_per_hour,
        http_rate=rooms_per_second,
        max_rooms=max_rooms,
        ws_per_address=per_address,
        serve=ServeLimits(connections_per_address=per_address, max_connections=max_connections),
    )
    if db is not None:
        settings.db = db
    address = public_url or f"http://{_local(host)}:{port}/"
    click.echo(f"Velvet server on http://{host}:{port} (database {settings.db.split('?')[0]})")
    click.echo(f"Play in the browser: {address}")
    if not no_browser and has_browser():
        threading.Timer(1.0, webbrowser.open, (address,)).start()
    options = uvicorn_options(host, port, settings.forwarded_allow_ips, settings.serve)
    uvicorn.run(create_app(settings), **options)


def _budget(text: str) -> str:
    """``--hint-budget`` checked as it is read (the hint search parses it again)."""
    from velvet.bots.budget import Budget

    try:
        return str(Budget.parse(text))
    except ConfigError as error:
        raise click.BadParameter(str(error)) from None


def _local(host: str) -> str:
    """The address a browser on this machine uses for ``host``."""
    if host in ("0.0.0.0", "::", ""):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def has_browser() -> bool:
    """Whether to open a browser: a person at a terminal, with a screen to show it on.

    Never under tests or in CI (output not a terminal), nor on a Linux host with no display.
    """
    if not sys.stdout.isatty() or os.environ.get("CI"):
        return False
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


@click.command("join")
@click.argument("url")
def join_command(url: str) -> None:
    """Join a room from an invite link (http://HOST/join/ROOM#TOKEN); no token: watch."""
    try:
        from velvet.server.client import checked_invite, play_terminal
    except ImportError as error:
        raise ConfigError(f"{NEEDS_EXTRA} ({error.name} is missing)") from None
    checked_invite(url)
    raise SystemExit(asyncio.run(play_terminal(url)))
