"""The words the server writes come in each socket's language (``hello``'s ``lang``).

Action labels, the events of a state and the log are written per socket: a Japanese
socket reads Japanese words and card names, an English one (or one whose language Velvet
has no catalogue of) the engine's English, in the same room at the same time; what a
client sends back (an action's ``text``) never changes.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient
from tests.server.conftest import LiveServer, claim, hello, send, sqlite_url
from tests.server.test_app import make_room, next_of

from velvet.server.app import Settings
from velvet.server.client import Client

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def labels(state: dict[str, Any]) -> dict[str, str]:
    return {a["text"]: a["label"] for a in state["legal"]}


def test_each_socket_reads_the_words_in_its_own_language(client: TestClient) -> None:
    room = make_room(client, game="vs", first="1")
    token = room["invites"][0]["token"]
    with (
        client.websocket_connect(f"/ws/{room['room']}") as ja,
        client.websocket_connect(f"/ws/{room['room']}") as en,
    ):
        start = hello(ja, token, lang="ja-JP")
        english = hello(en, None, lang="fr")  # no French catalogue: English
        words = labels(start)
        assert words["end"] == "プランニングステップを終える"
        summons = [label for text, label in words.items() if text.startswith("summon ")]
        assert summons and all("召喚する" in s and JAPANESE.search(s) for s in summons)
        assert english["legal"] == []  # a spectator has no moves
        summon = next(text for text in words if text.startswith("summon "))
        send(ja, type="move", version=start["version"], action=summon)
        moved_ja = next_of(ja, "state")
        moved_en = next_of(en, "state")
    said_ja = " ".join(e["text"] for e in moved_ja["events"])
    said_en = " ".join(e["text"] for e in moved_en["events"])
    assert JAPANESE.search(said_ja), said_ja
    assert "summons" in said_en and not JAPANESE.search(said_en), said_en


def test_a_late_socket_reads_the_log_in_its_language(client: TestClient) -> None:
    room = make_room(client, game="vs", first="1")
    token = room["invites"][0]["token"]
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        start = hello(ws, token)
        assert labels(start)["end"] == "End the Planning Step"  # no lang: English
        send(ws, type="move", version=start["version"], action="end")
        next_of(ws, "state")
    for lang, japanese in (("ja", True), ("en", False)):
        with client.websocket_connect(f"/ws/{room['room']}") as late:
            claim(late, None, lang)
            log = late.receive_json()
            assert log["type"] == "log"
            text = " ".join(e["text"] for e in log["entries"])
            assert bool(JAPANESE.search(text)) is japanese, text


def test_a_language_tag_too_long_is_refused(client: TestClient) -> None:
    room = make_room(client, game="vs")
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        send(ws, type="hello", token=None, lang="x" * 41)
        answer = ws.receive_json()
    assert answer["type"] == "error" and "lang" in answer["message"]


async def _first_labels(url: str, lang: str | None) -> list[str]:
    async with httpx.AsyncClient(base_url=url) as http:
        made = (await http.post("/api/rooms", json={"game": "vs", "first": "1"})).json()
    got: list[dict[str, Any]] = []
    client = Client(
        made["websocket"], made["invites"][0]["token"], on_message=got.append, lang=lang
    )
    try:
        await client.start()
        for _ in range(250):
            if any(m["type"] == "state" for m in got):
                break
            await asyncio.sleep(0.02)
    finally:
        await client.close()
    state = next(m for m in got if m["type"] == "state")
    return [a["label"] for a in state["legal"]]


def test_the_terminal_client_asks_for_its_language(tmp_path: Path) -> None:
    """``velvet join`` sends the terminal's language (``--lang``); without one, English."""
    settings = Settings(db=sqlite_url(tmp_path), bot_workers=0, rate=1000.0, http_rate=1000.0)
    with LiveServer(settings) as server:
        japanese = asyncio.run(_first_labels(server.url, "ja"))
        english = asyncio.run(_first_labels(server.url, None))
    assert "プランニングステップを終える" in japanese
    assert "End the Planning Step" in english
