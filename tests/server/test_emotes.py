"""Preset emotes (issue 25, chat): a seat's emote reaches the room's other seats and its
spectators, here and on another server process; spectators cannot say one, a socket says
at most one every few seconds, an emote that is not one of the presets is refused by
name, and the bus notice that carries one reads back as it was written."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import LiveServer, sqlite_url
from tests.server.test_seats import greet, make_room, next_of

from velvet.server.app import Settings, create_app
from velvet.server.client import Client
from velvet.server.notices import Emoted, read_notice
from velvet.server.protocol import EMOTES


def test_an_emote_reaches_the_other_seat_and_the_spectators(tmp_path: Path) -> None:
    settings = Settings(db=sqlite_url(tmp_path), bot_workers=0, rate=1000, http_rate=1000)
    with TestClient(create_app(settings)) as client:
        room = make_room(client, game="vs", seats=["human", "human"])
        path = f"/ws/{room['room']}"
        with (
            client.websocket_connect(path) as a,
            client.websocket_connect(path) as b,
            client.websocket_connect(path) as watcher,
        ):
            greet(a, room["invites"][0]["token"])
            greet(b, room["invites"][1]["token"])
            greet(watcher, None)
            a.send_json({"v": 1, "type": "emote", "emote": "well_played"})
            for ws in (b, watcher, a):  # the sender sees it too: the room's one record
                assert next_of(ws, "emote") == {
                    "v": 1,
                    "type": "emote",
                    "seat": 0,
                    "emote": "well_played",
                }
            a.send_json({"v": 1, "type": "emote", "emote": "nice"})  # too soon
            refused = next_of(a, "error")
            assert refused["code"] == "rate_limited" and "one emote every" in refused["message"]
            watcher.send_json({"v": 1, "type": "emote", "emote": "hello"})
            assert next_of(watcher, "error")["code"] == "spectator"
            b.send_json({"v": 1, "type": "emote", "emote": "you are bad"})
            bad = next_of(b, "error")
            assert bad["code"] == "bad_message" and "emote" in bad["message"]
            b.send_json({"v": 1, "type": "emote", "emote": "oops"})  # b's first real one
            assert next_of(a, "emote") == {"v": 1, "type": "emote", "seat": 1, "emote": "oops"}


def test_a_room_made_without_emotes_refuses_them_and_says_so(tmp_path: Path) -> None:
    settings = Settings(db=sqlite_url(tmp_path), bot_workers=0, rate=1000, http_rate=1000)
    with TestClient(create_app(settings)) as client:
        room = make_room(client, game="vs", seats=["human", "human"], emotes=False)
        plain = make_room(client, game="vs", seats=["human", "human"])
        with (
            client.websocket_connect(f"/ws/{room['room']}") as a,
            client.websocket_connect(f"/ws/{room['room']}") as b,
            client.websocket_connect(f"/ws/{plain['room']}") as c,
        ):
            assert greet(a, room["invites"][0]["token"])[0]["emotes"] is False
            greet(b, room["invites"][1]["token"])
            assert greet(c, plain["invites"][0]["token"])[0]["emotes"] is True
            a.send_json({"v": 1, "type": "emote", "emote": "hello"})
            refused = next_of(a, "error")
            assert (refused["code"], refused["message"]) == (
                "emotes_off",
                "this room's emotes are off",
            )
            b.send_json({"v": 1, "type": "ping"})
            heard = [b.receive_json()["type"]]
            while heard[-1] != "pong":
                heard.append(b.receive_json()["type"])
            assert "emote" not in heard  # nothing was said to the other seat
        bad = client.post("/api/rooms", json={"game": "vs", "emotes": "maybe"})
        assert bad.status_code == 422 and "emotes" in bad.text


def test_an_emote_notice_reads_back_and_a_malformed_one_is_ignored() -> None:
    said = Emoted(1, "good_game", "a1b2c3")
    assert said.text() == "!emote 1 good_game a1b2c3" and read_notice(said.text()) == said
    for text in ("!emote 1 good_game", "!emote x nice n", "!emote 1  n", "!emote"):
        assert read_notice(text) is None, text
    assert "good_game" in EMOTES and len(set(EMOTES)) == len(EMOTES)


async def said_across(
    a: str, b: str, room: dict[str, Any], message: dict[str, Any]
) -> list[dict[str, Any]]:
    """Make a VS room (``room``: its options) on server ``a``, seat one person there and the
    other on server ``b``; the first sends ``message``: every message of that type either
    heard, the other's first."""
    kind = message["type"]
    async with httpx.AsyncClient(base_url=a) as http:
        made = (await http.post("/api/rooms", json={"game": "vs", **room})).json()
    on_a = made["websocket"]
    on_b = on_a.replace(a.replace("http://", "ws://"), b.replace("http://", "ws://"))
    heard: list[dict[str, Any]] = []
    said: list[dict[str, Any]] = []
    first = Client(on_a, made["invites"][0]["token"], on_message=said.append)
    second = Client(on_b, made["invites"][1]["token"], on_message=heard.append)
    try:
        for c in (first, second):
            await c.start()
        for c in (first, second):
            await c.settle(0)
        await first.send(message)
        for _ in range(250):
            if any(m["type"] == kind for m in heard):
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.3)  # time for a doubled notice to arrive, if it would
        return [m for m in heard + said if m["type"] == kind]
    finally:
        for c in (first, second):
            await c.close()


@pytest.mark.parametrize("bus", ["postgres", "redis"])
def test_an_emote_said_on_one_process_is_heard_once_on_another(pg_url: str, bus: str) -> None:
    from tests.server.conftest import REDIS_URL

    redis = REDIS_URL if bus == "redis" else None
    settings = Settings(db=pg_url, bot_workers=0, rate=1000.0, http_rate=1000.0, redis=redis)
    with LiveServer(settings) as a, LiveServer(settings) as b:
        emotes = asyncio.run(said_across(a.url, b.url, {}, {"type": "emote", "emote": "good_luck"}))
    said = {"v": 1, "type": "emote", "seat": 0, "emote": "good_luck"}
    assert emotes == [said, said], json.dumps(emotes)  # once on each side, never twice
