"""Fixtures for the server: an app on a fresh SQLite file, live servers, service URLs."""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Self

import httpx
import pytest

pytest.importorskip(
    "fastapi", reason="the server needs the [server] extra: pip install -e '.[server]'"
)

import uvicorn
from fastapi.testclient import TestClient

from velvet.server.app import Settings, create_app
from velvet.server.protocol import MAX_MESSAGE_BYTES

PG_URL = os.environ.get("VELVET_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("VELVET_TEST_REDIS", "redis://127.0.0.1:6379/0")
SERVICES_REQUIRED = os.environ.get("VELVET_REQUIRE_SERVICES") == "1"
HOW = (
    "needs PostgreSQL on 127.0.0.1:5432 (trust auth, database test) and Redis on "
    "127.0.0.1:6379; start them and run again (VELVET_REQUIRE_SERVICES=1 makes this mandatory)"
)


def _answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def need_services() -> None:
    """Skip (or, where they are required, fail) when PostgreSQL or Redis is not there."""
    if _answers("127.0.0.1", 5432) and _answers("127.0.0.1", 6379):
        return
    if SERVICES_REQUIRED:
        pytest.fail(f"VELVET_REQUIRE_SERVICES=1 but the services do not answer: {HOW}")
    pytest.skip(HOW)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A PostgreSQL URL whose tables live in a schema of their own (dropped afterwards)."""
    need_services()
    import psycopg

    schema = f"velvet_test_{secrets.token_hex(6)}"
    with psycopg.connect(PG_URL.replace("postgresql://", "postgresql://", 1), autocommit=True) as c:
        c.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as c:
            c.execute(f"DROP SCHEMA {schema} CASCADE")


def sqlite_url(folder: Path) -> str:
    return f"sqlite:///{folder / 'velvet.sqlite3'}"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(db=sqlite_url(tmp_path), bot_workers=0, rate=1000, http_rate=1000))
    with TestClient(app) as test_client:
        yield test_client


SECRETS: dict[str, str] = {}
"""Seat secrets the server gave for the invites these tests claimed (invite → secret):
like every client, a test that comes back sends its seat's secret, not the spent invite."""


def claim(ws: Any, token: str | None, lang: str | None = None) -> dict[str, Any]:
    """Send ``hello`` with ``token`` (an invite: the secret it gave before, if any) and
    ``lang`` if given; return the welcome, keeping the secret a claim answers with."""
    sent = SECRETS.get(token, token) if token is not None else None
    message = {"v": 1, "type": "hello", "token": sent}
    if lang is not None:
        message["lang"] = lang
    ws.send_text(json.dumps(message))
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    if token is not None and welcome.get("secret"):
        SECRETS[token] = welcome["secret"]
    return dict(welcome)


def hello(ws: Any, token: str | None, lang: str | None = None) -> dict[str, Any]:
    """Greet; return the first state message (after the welcome and the log, if any)."""
    claim(ws, token, lang)
    state = ws.receive_json()
    if state["type"] == "log":
        state = ws.receive_json()
    assert state["type"] == "state", state
    return dict(state)


def send(ws: Any, **message: Any) -> None:
    ws.send_text(json.dumps({"v": 1, **message}))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """uvicorn serving the app in a thread of this process, on a real socket."""

    def __init__(self, settings: Settings) -> None:
        self.port = free_port()
        config = uvicorn.Config(
            create_app(settings),
            host="127.0.0.1",
            port=self.port,
            log_level="error",
            ws_max_size=MAX_MESSAGE_BYTES,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Self:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the live server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)


class ServerProcess:
    """``velvet serve`` in a process of its own, to kill and restart."""

    def __init__(self, db: str, port: int, log: Path, *extra: str) -> None:
        self.db, self.port, self.log, self.extra = db, port, log, extra
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "velvet.cli", "serve", "--port", str(self.port)]
        command += ["--db", self.db, "--bot-workers", "0", *self.extra]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text()[-2000:]
            try:
                if httpx.get(f"{self.url}/healthz", timeout=0.5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
