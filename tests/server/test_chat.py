"""Text chat (issue 25, chat): a room made with ``chat`` lets its seats write lines to each
other; the line reaches the room's seats and spectators, here and on another process, as
one line of plain text; a room without it refuses by name, and so does the server for a
spectator, a line too long or with no words, and a second line too soon. The bus notice
that carries a line reads back as written, spaces and all."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import LiveServer, sqlite_url
from tests.server.test_emotes import said_across
from tests.server.test_seats import greet, make_room, next_of

from velvet.server.app import Settings, create_app
from velvet.server.notices import Chatted, read_notice
from velvet.server.rooms import chat_line


def _settings(tmp_path: Path) -> Settings:
    return Settings(db=sqlite_url(tmp_path), bot_workers=0, rate=1000, http_rate=1000)


def test_a_chat_line_reaches_the_room_as_plain_text(tmp_path: Path) -> None:
    with TestClient(create_app(_settings(tmp_path))) as client:
        room = make_room(client, game="vs", seats=["human", "human"], chat=True)
        path = f"/ws/{room['room']}"
        with (
            client.websocket_connect(path) as a,
            client.websocket_connect(path) as b,
            client.websocket_connect(path) as watcher,
        ):
            assert greet(a, room["invites"][0]["token"])[0]["chat"] is True
            greet(b, room["invites"][1]["token"])
            greet(watcher, None)
            a.send_json({"v": 1, "type": "chat", "text": "  gl hf\n<b>have fun</b>\x1b[31m  "})
            said = {"v": 1, "type": "chat", "seat": 0, "text": "gl hf <b>have fun</b> [31m"}
            for ws in (b, watcher, a):  # the sender too: the room's one record of it
                assert next_of(ws, "chat") == said
            a.send_json({"v": 1, "type": "chat", "text": "again"})  # too soon
            soon = next_of(a, "error")
            assert soon["code"] == "rate_limited" and "one chat line every" in soon["message"]
            watcher.send_json({"v": 1, "type": "chat", "text": "hi"})
            assert next_of(watcher, "error")["code"] == "spectator"
            b.send_json({"v": 1, "type": "chat", "text": "x" * 201})
            long = next_of(b, "error")
            assert long["code"] == "bad_message" and "text" in long["message"]
            b.send_json({"v": 1, "type": "chat", "text": "\n\t "})
            empty = next_of(b, "error")
            assert empty["code"] == "bad_message" and "no words" in empty["message"]
            b.send_json({"v": 1, "type": "chat", "text": "thanks!"})
            assert next_of(a, "chat") == {"v": 1, "type": "chat", "seat": 1, "text": "thanks!"}


def test_a_room_made_without_chat_refuses_it_and_says_nothing_to_the_others(
    tmp_path: Path,
) -> None:
    with TestClient(create_app(_settings(tmp_path))) as client:
        room = make_room(client, game="vs", seats=["human", "human"])  # chat is off by default
        with (
            client.websocket_connect(f"/ws/{room['room']}") as a,
            client.websocket_connect(f"/ws/{room['room']}") as b,
        ):
            assert greet(a, room["invites"][0]["token"])[0]["chat"] is False
            greet(b, room["invites"][1]["token"])
            a.send_json({"v": 1, "type": "chat", "text": "hello"})
            refused = next_of(a, "error")
            assert (refused["code"], refused["message"]) == (
                "chat_off",
                "this room has no text chat",
            )
            b.send_json({"v": 1, "type": "ping"})
            heard = [b.receive_json()["type"]]
            while heard[-1] != "pong":
                heard.append(b.receive_json()["type"])
            assert "chat" not in heard
        bad = client.post("/api/rooms", json={"game": "vs", "chat": "yes please"})
        assert bad.status_code == 422 and "chat" in bad.text


def test_a_chat_notice_reads_back_and_a_malformed_one_is_ignored() -> None:
    said = Chatted(1, "a1b2c3", "see you  at   the palace!")
    assert said.text() == "!chat 1 a1b2c3 see you  at   the palace!"
    assert read_notice(said.text()) == said
    for text in ("!chat 1 a1b2c3", "!chat x n hi", "!chat 1  hi", "!chat"):
        assert read_notice(text) is None, text
    assert chat_line("a\u200b\u0000b\r\nc") == "a b c"  # format and control characters
    assert chat_line("é" * 300) == "é" * 200


@pytest.mark.parametrize("bus", ["postgres", "redis"])
def test_a_chat_line_on_one_process_is_heard_once_on_another(pg_url: str, bus: str) -> None:
    from tests.server.conftest import REDIS_URL

    redis = REDIS_URL if bus == "redis" else None
    settings = Settings(db=pg_url, bot_workers=0, rate=1000.0, http_rate=1000.0, redis=redis)
    with LiveServer(settings) as a, LiveServer(settings) as b:
        message = {"type": "chat", "text": "from the other process"}
        lines = asyncio.run(said_across(a.url, b.url, {"chat": True}, message))
    said = {"v": 1, "type": "chat", "seat": 0, "text": "from the other process"}
    assert lines == [said, said], json.dumps(lines)  # once on each side, never twice
