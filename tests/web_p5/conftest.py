"""The P5 board and the replay viewer in headless Chromium, on a page of their own.

A stdlib HTTP server thread serves ``src/velvet/web/static`` at ``/static/``, the
harness page (``harness/``) at ``/harness/`` and positions built with the engine at
``/fixture/NAME.json``. Tests skip only when Debian's ``chromium`` is absent and
``VELVET_REQUIRE_SERVICES`` is unset.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import velvet

STATIC = Path(velvet.__file__).parent / "web" / "static"
HARNESS = Path(__file__).parent / "harness"
FIXTURES: dict[str, Any] = {}
"""Positions and replays by name, served as /fixture/NAME.json (set by the tests)."""

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


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
def browser() -> Iterator[Any]:
    executable = shutil.which("chromium")
    if executable is None:
        if os.environ.get("VELVET_REQUIRE_SERVICES"):
            pytest.fail("VELVET_REQUIRE_SERVICES is set but Debian's chromium is not installed")
        pytest.skip("needs Debian's chromium (apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=executable, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
