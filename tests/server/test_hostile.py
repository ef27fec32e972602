"""Hostile input: malformed, oversized, unauthorised and too fast, over HTTP and WebSockets.

The WebSocket fuzzer sends many bad messages of every kind to live rooms; the
room API is fuzzed by schemathesis from its OpenAPI document. Every case must
end in a clear refusal: no server error, no state change, the connection kept
or closed cleanly.
"""

from __future__ import annotations

import json
import os
import random
import string
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.core.result import Ok
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import SECRETS, LiveServer, hello, sqlite_url

from velvet.server.app import Settings, create_app

WS_MESSAGES = int(os.environ.get("VELVET_FUZZ_MESSAGES", "10000"))
HTTP_EXAMPLES = int(os.environ.get("VELVET_FUZZ_HTTP", "50"))


def _junk(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.printable) for _ in range(n))


def hostile(rng: random.Random, version: int, tokens: list[str], legal: set[str]) -> str | bytes:
    """One malformed or unauthorised client message (never a legal move)."""
    kind = rng.randrange(14)
    if kind == 0:
        return _junk(rng, rng.randrange(1, 80))  # not JSON
    if kind == 1:
        return json.dumps(rng.choice([[], 1, "move", None, True, 3.5]))  # not an object
    if kind == 2:
        return json.dumps({"v": rng.choice([0, 2, "1", None, 1.0, -1]), "type": "ping"})
    if kind == 3:
        return json.dumps({"v": 1, "type": rng.choice(["hack", "", "MOVE", "admin", 7])})
    if kind == 4:
        return json.dumps({"v": 1, "type": "move", "version": version})  # no action
    if kind == 5:
        return json.dumps({"v": 1, "type": "move", "version": "0", "action": "x"})
    if kind == 6:
        action = _junk(rng, rng.randrange(1, 40))
        if action.strip() in legal or action.strip().isdigit():
            action = "\x00" + action
        return json.dumps({"v": 1, "type": "move", "version": version, "action": action})
    if kind == 7:  # a legal text against a stale version
        stale = rng.choice([v for v in (version - 3, version - 1, version + 1, 10**6) if v >= 0])
        action = rng.choice(sorted(legal)) if legal else "pass"
        return json.dumps({"v": 1, "type": "move", "version": stale, "action": action})
    if kind == 8:
        return json.dumps({"v": 1, "type": "hello", "token": rng.choice(tokens)})  # hello twice
    if kind == 9:
        return json.dumps({"v": 1, "type": "move", "version": version, "action": "x" * 5000})
    if kind == 10:
        return "[" * rng.randrange(100, 3000)  # deep nesting
    if kind == 11:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 50)))
    if kind == 12:
        return json.dumps({"v": 1, "type": "ping", "extra": {"a": [1, 2, 3]}})
    return json.dumps({"v": 1, "type": "move", "version": version, "action": "", "x": 1})


def test_websocket_fuzz_changes_nothing_and_never_fails(tmp_path: Path) -> None:
    app = create_app(Settings(db=sqlite_url(tmp_path), bot_workers=0, rate=1e6, http_rate=1e6))
    rng = random.Random(10)
    with TestClient(app) as client:
        rooms = [client.post("/api/rooms", json={"game": g}).json() for g in ("vs", "p5")]
        other_tokens = [i["token"] for i in rooms[1]["invites"]]
        before = [client.get(f"/api/rooms/{r['room']}").json() for r in rooms]
        sent = errors = closed = 0
        while sent < WS_MESSAGES:
            room = rooms[sent % 2]
            token = rng.choice([*[i["token"] for i in room["invites"]], None])
            with client.websocket_connect(f"/ws/{room['room']}") as ws:
                state = hello(ws, token)
                legal = {a["text"] for a in state["legal"]}
                try:
                    for _ in range(200):
                        message = hostile(rng, state["version"], other_tokens, legal)
                        sent += 1
                        if isinstance(message, bytes):
                            ws.send_bytes(message)
                        else:
                            ws.send_text(message)
                        answer = ws.receive_json()
                        assert answer["type"] in ("error", "pong"), answer
                        errors += answer["type"] == "error"
                        assert "Traceback" not in answer.get("message", "")
                except WebSocketDisconnect:
                    closed += 1
        # huge payloads close the socket cleanly
        with client.websocket_connect(f"/ws/{rooms[0]['room']}") as ws:
            hello(ws, None)
            ws.send_text(json.dumps({"v": 1, "type": "ping", "pad": "x" * 100_000}))
            assert ws.receive_json()["code"] == "too_large"
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()
        # other rooms' tokens and garbage tokens open nothing
        for token in [*other_tokens, "A" * 32, "", "x"]:
            with client.websocket_connect(f"/ws/{rooms[0]['room']}") as ws:
                ws.send_text(json.dumps({"v": 1, "type": "hello", "token": token}))
                assert ws.receive_json()["type"] == "error"
                with pytest.raises(WebSocketDisconnect):
                    ws.receive_json()
        after = [client.get(f"/api/rooms/{r['room']}").json() for r in rooms]
    for info, room in zip(after, rooms, strict=True):
        # the greetings claimed the invites they sent: only that changed
        for seat, invite in zip(info["seats"], room["invites"], strict=True):
            claimed = invite["token"] in SECRETS
            assert seat.pop("claimed") is claimed
            assert seat.pop("display_name") == ("Guest" if claimed else "Open seat")
    for info in before:
        for seat in info["seats"]:
            assert seat.pop("claimed") is False
            assert seat.pop("display_name") == "Open seat"
    assert after == before  # no state changed
    assert errors > 0.9 * sent
    print(f"{sent} hostile messages: {errors} refused, {closed} sockets closed cleanly")


def test_a_socket_that_floods_is_slowed_then_closed(tmp_path: Path) -> None:
    app = create_app(Settings(db=sqlite_url(tmp_path), bot_workers=0, rate=5))
    with TestClient(app) as client:
        room = client.post("/api/rooms", json={"game": "p5"}).json()
        codes = []
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(f"/ws/{room['room']}") as ws,
        ):
            hello(ws, None)
            for _ in range(500):
                ws.send_text(json.dumps({"v": 1, "type": "ping"}))
                codes.append(ws.receive_json().get("code", "pong"))
    assert "rate_limited" in codes and codes[0] == "pong"


def test_http_bodies_over_the_limit_are_refused(client: TestClient) -> None:
    r = client.post("/api/rooms", content=b'{"game":"vs","cards":["' + b"x" * 2_000_000 + b'"]}')
    assert r.status_code == 413 and r.json()["error"] == "too_large"


# --- schemathesis on the OpenAPI document ---------------------------------------------------


def test_room_api_fuzz_gives_no_server_error(tmp_path: Path) -> None:
    """Valid and invalid requests for every operation of the OpenAPI document."""
    calls = 0
    with LiveServer(Settings(db=sqlite_url(tmp_path), bot_workers=0, http_rate=1e6)) as live:
        api = schemathesis.openapi.from_url(f"{live.url}/openapi.json")
        for result in api.get_all_operations():
            assert isinstance(result, Ok), result  # the document itself is valid
            operation = result.ok()
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

                @given(case=operation.as_strategy(generation_mode=mode))
                @settings(
                    max_examples=HTTP_EXAMPLES,
                    deadline=None,
                    suppress_health_check=list(HealthCheck),
                    database=None,
                    derandomize=True,
                )
                def check(case: Any) -> None:
                    nonlocal calls
                    calls += 1
                    response = case.call(base_url=live.url)
                    assert response.status_code < 500, (case.path, response.text)
                    if response.status_code >= 400:
                        body = json.loads(response.content)
                        # a refused room also names its option and seat (docs/protocol.md)
                        assert {"error", "message"} <= set(body), body
                        assert set(body) <= {"error", "message", "option", "seat"}, body
                        assert "\n" not in body["message"]

                try:
                    check()
                except Unsatisfiable:
                    assert mode is GenerationMode.NEGATIVE  # nothing to break in it
    assert calls >= 3 * HTTP_EXAMPLES
    print(f"{calls} fuzzed HTTP requests")
