"""The client's HTTP side, without a browser: pages, cards, package data, ``velvet serve``."""

from __future__ import annotations

import fnmatch
import sys
import threading
import tomllib
import webbrowser
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from tests.web.conftest import WebServer
from velvet.server import cli as server_cli
from velvet.server.app import STATIC

ROOT = Path(__file__).parents[2]
CUSTOM = """
[[persona]]
id = "901"
name = "Velvet Test Persona"
cost = 1
weakness = "wind"
skills = [{ name = "Bufula", type = "ice", damage = 4 }]
"""


@pytest.mark.parametrize("accept", ["text/html,application/xhtml+xml", "*/*"])
def test_join_links_answer_browsers_with_the_client(server: WebServer, accept: str) -> None:
    answer = httpx.get(f"{server.url}/join/abc", headers={"accept": accept})
    assert answer.status_code == 200
    if accept.startswith("text/html"):
        assert 'src="static/app.js"' in answer.text and '<base href="/">' in answer.text
    else:
        assert answer.text.startswith("Velvet room 'abc'.")
        assert "velvet join 'http://127.0.0.1:" in answer.text


def test_the_lobby_page_and_its_files_are_served(server: WebServer) -> None:
    page = httpx.get(f"{server.url}/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert 'href="static/cards.css"' in page.text  # the card faces' sheet, for every game
    names = ("app.js", "net.js", "lobby.js", "table.js", "vs.js", "dom.js", "style.css")
    for name in (*names, "cards.js", "cards.css"):
        answer = httpx.get(f"{server.url}/static/{name}")
        assert answer.status_code == 200, name
        assert answer.headers["cache-control"] == "no-cache"
    assert httpx.get(f"{server.url}/static/nothing.js").status_code == 404


def test_a_room_lists_its_cards_custom_ones_included(server: WebServer) -> None:
    created = httpx.post(f"{server.url}/api/rooms", json={"game": "vs", "cards": [CUSTOM]})
    assert created.status_code == 201, created.text
    answer = httpx.get(f"{server.url}/api/rooms/{created.json()['room']}/cards").json()
    cards: dict[str, Any] = answer["cards"]
    assert answer["game"] == "vs"
    assert cards["901"]["name"] == "Velvet Test Persona"
    assert "Weakness: wind" in cards["901"]["lines"]
    assert cards["p5"]["kind"] == "player" and cards["001"]["name"] == "Arsène"
    p5 = httpx.post(f"{server.url}/api/rooms", json={"game": "p5"}).json()["room"]
    p5_cards = httpx.get(f"{server.url}/api/rooms/{p5}/cards").json()["cards"]
    assert p5_cards["thief:joker"]["kind"] == "thief"
    missing = httpx.get(f"{server.url}/api/rooms/nope/cards")
    assert missing.status_code == 404 and missing.json()["error"] == "no_room"


def test_every_client_file_is_package_data() -> None:
    """A clean clone's ``pip install`` ships the client: package-data covers each file."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["velvet"]
    package = ROOT / "src" / "velvet"
    files = [p for p in STATIC.rglob("*") if p.is_file()]
    assert {p.name for p in files} >= {"index.html", "app.js", "vs.js", "style.css"}
    for path in files:
        relative = path.relative_to(package).as_posix()
        assert any(fnmatch.fnmatch(relative, p) for p in patterns), relative
        assert "http://" not in path.read_text(encoding="utf-8").replace("http://www.w3.org", "")
        assert "https://" not in path.read_text(encoding="utf-8"), f"{relative} loads from the web"


def test_serve_prints_the_address_and_opens_a_browser_only_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import uvicorn

    opened: list[str] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: None)
    monkeypatch.setattr(webbrowser, "open", opened.append)

    class Now:
        def __init__(self, _delay: float, function: Any, args: tuple[str]) -> None:
            self.function, self.args = function, args

        def start(self) -> None:
            self.function(*self.args)

    monkeypatch.setattr(threading, "Timer", Now)
    runner = CliRunner()
    db = ["--db", "sqlite:///:memory:", "--port", "8799"]
    out = runner.invoke(server_cli.serve_command, db)
    assert out.exit_code == 0, out.output
    assert "Play in the browser: http://127.0.0.1:8799/" in out.output
    assert opened == []  # not a terminal (tests, CI): no browser
    monkeypatch.setattr(server_cli, "has_browser", lambda: True)
    runner.invoke(server_cli.serve_command, [*db, "--no-browser"])
    assert opened == []
    runner.invoke(server_cli.serve_command, db)
    assert opened == ["http://127.0.0.1:8799/"]


def test_no_browser_without_a_display(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert not server_cli.has_browser()
    monkeypatch.setenv("DISPLAY", ":0")
    assert server_cli.has_browser()
