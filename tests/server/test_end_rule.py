"""A move, undo or resign sent after a game has ended cites the clause that ended it."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient
from tests.server.conftest import hello, send


def _next(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(50):
        m = ws.receive_json()
        if m["type"] == kind:
            return dict(m)
    raise AssertionError(f"no {kind} message")


def test_after_a_deck_out_the_refusals_cite_vs_end_2(client: TestClient) -> None:
    # rule: VS-END-2  a player who cannot draw for their Draw Step loses; what is refused
    # afterwards cites that clause, not VS-END-1 (both players still have HP)
    for game in range(8):  # random VS games mostly end by a deck-out; play until one does
        r = client.post("/api/rooms", json={"game": "vs", "seats": ["human", "random"]})
        assert r.status_code == 201, r.text
        room = r.json()
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            state = hello(ws, room["invites"][0]["token"])
            pick = random.Random(game)
            for _ in range(3000):
                if state["status"] == "over":
                    break
                if state["legal"]:
                    action = pick.choice(state["legal"])["text"]
                    send(ws, type="move", version=state["version"], action=action)
                state = _next(ws, "state")
            assert state["status"] == "over"
            if "could not draw" not in state["result"]["text"]:
                continue
            for message in (
                {"type": "move", "version": state["version"], "action": "pass"},
                {"type": "undo", "version": state["version"]},
                {"type": "resign"},
            ):
                send(ws, **message)
                error = _next(ws, "error")
                assert error["code"] == "game_over" and error["rule"] == "VS-END-2", error
            return
    raise AssertionError("no game of 8 ended by a deck-out")
