"""A seat handed to a bot stays handed over across a restart; a grace period resumes."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from tests.server.conftest import hello, send, sqlite_url

from velvet.server.app import Settings, create_app


def _room(client: TestClient, grace: int) -> dict[str, Any]:
    answer = client.post(
        "/api/rooms", json={"game": "vs", "first": "1", "grace": grace, "takeover": "random"}
    )
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def _who(client: TestClient, room: str) -> list[str]:
    return [s["who"] for s in client.get(f"/api/rooms/{room}").json()["seats"]]


def _wait_for(client: TestClient, room: str, who: list[str], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while _who(client, room) != who:
        assert time.monotonic() < deadline, f"seats are {_who(client, room)}, not {who}"
        time.sleep(0.05)


def _bot_moves_for_seat_0(ws: Any, state: dict[str, Any]) -> None:
    """Play seat 1 on ``ws`` until seat 0 (nobody connected) has moved at least once."""
    waiting_for_bot: int | None = None
    for _ in range(200):
        if waiting_for_bot is not None and state["version"] > waiting_for_bot:
            return
        if state["to_move"] == 0:
            waiting_for_bot = state["version"]
        elif state["legal"]:
            send(ws, type="move", version=state["version"], action=state["legal"][0]["text"])
        state = ws.receive_json()
        while state["type"] != "state":
            state = ws.receive_json()
    raise AssertionError("the bot never moved for seat 0")


def test_a_seat_handed_to_a_bot_stays_with_the_bot_after_a_restart(tmp_path: Path) -> None:
    settings = Settings(db=sqlite_url(tmp_path), bot_workers=0)
    with TestClient(create_app(settings)) as client:
        room = _room(client, grace=1)
        t0, t1 = (i["token"] for i in room["invites"])
        with client.websocket_connect(f"/ws/{room['room']}") as a:
            hello(a, t0)
        _wait_for(client, room["room"], ["random", "human"])
    with TestClient(create_app(settings)) as client:  # a new process on the same database
        assert _who(client, room["room"]) == ["random", "human"]
        with client.websocket_connect(f"/ws/{room['room']}") as b:
            _bot_moves_for_seat_0(b, hello(b, t1))
        with client.websocket_connect(f"/ws/{room['room']}") as a:  # the person comes back
            hello(a, t0)
            assert _who(client, room["room"]) == ["human", "human"]
    with TestClient(create_app(settings)) as client:
        assert _who(client, room["room"]) == ["human", "human"]


def test_a_grace_period_cut_by_a_restart_runs_on_after_it(tmp_path: Path) -> None:
    settings = Settings(db=sqlite_url(tmp_path), bot_workers=0)
    with TestClient(create_app(settings)) as client:
        room = _room(client, grace=2)
        t0, t1 = (i["token"] for i in room["invites"])
        with client.websocket_connect(f"/ws/{room['room']}") as b:
            hello(b, t1)
            with client.websocket_connect(f"/ws/{room['room']}") as a:
                hello(a, t0)
            assert _who(client, room["room"]) == ["human", "human"]  # grace not over
        # the server stops within the grace period, seat 1 still connected
    started = time.monotonic()
    with TestClient(create_app(settings)) as client:
        with client.websocket_connect(f"/ws/{room['room']}") as b:
            hello(b, t1)
            _wait_for(client, room["room"], ["random", "human"])
        assert time.monotonic() - started < 5
