"""Hostile clients against the server's workers and its wire protocol.

Each test is an attack that once worked: a message that crashed its socket's handler, bot
budgets that stalled every room, one client holding every hint slot, workers that outlived
the server.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import hello, sqlite_url

from velvet.server.app import Settings, create_app

# --- the wire protocol --------------------------------------------------------------------


@pytest.fixture
def room_client(tmp_path: Path) -> TestClient:
    return TestClient(
        create_app(Settings(db=sqlite_url(tmp_path), bot_workers=0, rate=1e6, http_rate=1e6))
    )


@pytest.mark.parametrize(
    "message",
    [
        '{"v": 1, "type": "move", "version": ' + "9" * 5000 + ', "action": "pass"}',
        '{"v": ' + "1" * 4301 + ', "type": "ping"}',
        '{"v": 1, "type": "ping", "pad": [' + "7" * 10_000 + "]}",
        '{"v": 1, "type": "ping", "pad": -' + "7" * 4400 + "}",
        '{"v": 1, "type": "ping", "pad": NaN}',
        '{"v": 1, "type": "ping", "pad": -Infinity}',
    ],
    ids=["version", "v", "nested", "negative", "nan", "infinity"],
)
def test_a_huge_integer_is_refused_and_the_socket_lives_on(
    room_client: TestClient, message: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Over 4,300 digits Python refuses to make a number: that ValueError once escaped the
    socket's handler (a traceback in the log, the socket dropped with 1006)."""
    caplog.set_level(logging.WARNING)
    with room_client as client:
        room = client.post("/api/rooms", json={"game": "vs"}).json()
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            hello(ws, room["invites"][0]["token"])
            ws.send_text(message)
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["code"] == "bad_json", answer
            assert "JSON" in answer["message"]
            ws.send_text(json.dumps({"v": 1, "type": "ping"}))
            assert ws.receive_json()["type"] == "pong"  # the socket is still served
        # as the first message too: refused as a hello, closed cleanly
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            ws.send_text(message)
            answer = ws.receive_json()
            assert answer["code"] == "hello_first" and "JSON" in answer["message"], answer
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]


@pytest.mark.parametrize("version", ["1.0", "true", '"1"', "1e0", "null", "2"])
def test_only_the_integer_1_is_version_1(room_client: TestClient, version: str) -> None:
    """``1.0 == True == 1`` in Python: they once passed as protocol version 1."""
    with room_client as client:
        room = client.post("/api/rooms", json={"game": "vs"}).json()
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            hello(ws, room["invites"][0]["token"])
            ws.send_text('{"v": ' + version + ', "type": "ping"}')
            answer = ws.receive_json()
            assert answer["code"] == "protocol_version", answer
            assert "the integer 1" in answer["message"], answer
            ws.send_text('{"type": "ping"}')
            assert ws.receive_json()["code"] == "protocol_version"
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            token = json.dumps(room["invites"][0]["token"])
            ws.send_text('{"v": ' + version + ', "type": "hello", "token": ' + token + "}")
            answer = ws.receive_json()
            assert answer["code"] == "hello_first", answer
            assert "protocol version" in answer["message"]
