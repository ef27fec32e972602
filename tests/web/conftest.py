"""Fixtures for the browser client: a live server on a free port and headless Chromium;
for the board modules alone, a harness page (``harness/``) served with engine-built
positions (``site``, ``FIXTURES``); and where screenshots go (``shots``).

Chromium is Debian's package (``apt-get install chromium``), driven by Playwright for
Python with ``executable_path``; no browser is ever downloaded. Without it these tests
skip, saying so, unless VELVET_REQUIRE_SERVICES=1 (CI), where they fail.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "fastapi", reason="the server needs the [server] extra: pip install -e '.[server]'"
)


import velvet
from tests.server.conftest import LiveServer
from velvet.engine.record import GameRecord
from velvet.games import get_game
from velvet.server.app import Settings
from velvet.server.hinting import HintSettings

SERVER_TYPES = {
    "welcome",
    "state",
    "over",
    "error",
    "rematch",
    "rematch_offer",
    "rematch_declined",
    "pong",
    "hint",
    "forecast",
    "hint_cancelled",
    "timer",
    "log",
    "transfer",
    "seats",
    "emote",
}
CLIENT_TYPES = {
    "hello",
    "move",
    "undo",
    "resign",
    "rematch",
    "rematch_decline",
    "ping",
    "hint",
    "forecast",
    "hint_cancel",
    "transfer",
    "emote",
}
REQUIRED = os.environ.get("VELVET_REQUIRE_SERVICES") == "1"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
HOW = (
    "needs Debian's chromium (apt-get install -y chromium) and playwright==1.65.2 "
    "(pip install -e '.[test]'); VELVET_REQUIRE_SERVICES=1 makes this mandatory"
)


class WebServer(LiveServer):
    """``create_app`` under uvicorn in a thread of this process, SQLite in a tmp folder;
    hints think 60 simulations in a thread, forecasts play 3 games at most."""

    def __init__(self, folder: Path) -> None:
        super().__init__(
            Settings(
                db=f"sqlite:///{folder / 'web.sqlite3'}",
                bot_workers=0,
                rate=1000,
                http_rate=1000,
                hints=HintSettings(budget="60", workers=0, forecast_games=3),
            )
        )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    with WebServer(tmp_path_factory.mktemp("web")) as live:
        yield live


def _need_browser() -> str:
    path = shutil.which("chromium")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        path = None
    if path is None:
        if REQUIRED:
            pytest.fail(f"VELVET_REQUIRE_SERVICES=1 but the browser is missing: {HOW}")
        pytest.skip(HOW)
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium under Playwright (one per test module)."""
    path = _need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


# --- the board modules alone, on a harness page (no game server) --------------------

STATIC = Path(velvet.__file__).parent / "web" / "static"
HARNESS = Path(__file__).parent / "harness"
FIXTURES: dict[str, Any] = {}
"""Positions and replays by name, served as /fixture/NAME.json (set by the tests)."""


class _Handler(SimpleHTTPRequestHandler):
    def log_message(self, *_: Any) -> None:  # quiet
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path.startswith("/fixture/") and path.endswith(".json"):
            name = path[len("/fixture/") : -len(".json")]
            if name not in FIXTURES:
                self.send_error(404, f"no fixture {name}")
                return
            body = json.dumps(FIXTURES[name]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        for prefix, folder in (("/static/", STATIC), ("/harness/", HARNESS)):
            if path.startswith(prefix):
                file = (folder / path[len(prefix) :]).resolve()
                if folder.resolve() not in file.parents or not file.is_file():
                    self.send_error(404)
                    return
                body = file.read_bytes()
                kind = {
                    ".js": "text/javascript",
                    ".css": "text/css",
                    ".html": "text/html; charset=utf-8",
                }.get(file.suffix, "application/octet-stream")
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
        self.send_error(404)


@pytest.fixture(scope="session")
def site() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def shots() -> Path:
    """Where screenshots go: $VELVET_SCREENSHOTS, else a tmp folder."""
    folder = Path(os.environ.get("VELVET_SCREENSHOTS") or tempfile.mkdtemp(prefix="velvet-shots-"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Tab:
    """One browser context and page, recording its WebSocket frames and page errors."""

    def __init__(self, browser: Any, viewport: dict[str, int]) -> None:
        # the tests' own probes (wait_for_function strings, injected audit scripts) are
        # not the page's scripts: its CSP is checked in tests/server/test_hostile_http.py
        self.context = browser.new_context(viewport=viewport, bypass_csp=True)
        self.page = self.context.new_page()
        self.sent: list[str] = []
        self.received: list[str] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        ws.on("framesent", lambda payload: self.sent.append(_text(payload)))
        ws.on("framereceived", lambda payload: self.received.append(_text(payload)))

    def state(self) -> Any:
        return self.page.evaluate("window.velvet && window.velvet.state")

    def wait_version(self, version: int) -> None:
        self.page.wait_for_function(
            "v => window.velvet && window.velvet.state && window.velvet.state.version >= v",
            arg=version,
            timeout=15_000,
        )

    def no_sideways_scroll(self) -> None:
        width = self.page.evaluate("document.scrollingElement.scrollWidth")
        inner = self.page.evaluate("innerWidth")
        assert width <= inner, f"horizontal scroll: {width} > {inner}"

    def close(self) -> None:
        assert not self.errors, self.errors
        self.context.close()


def _text(payload: str | bytes) -> str:
    return payload.decode() if isinstance(payload, bytes) else payload


def check_frames(tab: Tab, seat: int | None, record: dict[str, Any]) -> int:
    """Only protocol messages; each state is exactly the engine's view for this seat."""
    game = get_game(str(record["game"]))
    views: list[Any] = []
    legal: list[list[str]] = []
    for state, _, _ in GameRecord.from_json(record).steps(game):
        views.append(
            json.loads(json.dumps(state.view(seat) if seat is not None else state.public_view()))
        )
        mine = not state.is_terminal() and state.current_player == seat
        legal.append([str(a) for a in state.legal_actions()] if mine else [])
    for text in tab.sent:
        message = json.loads(text)
        assert message["type"] in CLIENT_TYPES and message["v"] == 1, message
    states = 0
    for text in tab.received:
        message = json.loads(text)
        assert message["type"] in SERVER_TYPES, message
        if message["type"] == "state":
            states += 1
            version = message["version"]
            assert message["view"] == views[version], f"version {version}: not the seat's view"
            assert [a["text"] for a in message["legal"]] == (
                legal[version] if message["status"] != "over" else []
            )
            for event in message["events"]:
                if event["kind"] == "search" and event["data"].get("player") != seat:
                    assert "card" not in event["data"], event
    return states
