"""A seat belongs to whoever claims its invite first (issue 25): the claim gives that client
a secret of its own, a second claim is refused, a one-time code moves the seat, and a
joining socket is sent the log so far as it may see it."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import sqlite_url
from tests.server.test_storage import _room

from velvet.engine.core import Event
from velvet.server.app import Settings, create_app
from velvet.server.storage import (
    Storage,
    make_engine,
    migrate,
)


def make_room(client: TestClient, **options: Any) -> dict[str, Any]:
    r = client.post("/api/rooms", json=options)
    assert r.status_code == 201, r.text
    return dict(r.json())


def greet(ws: Any, token: str | None) -> list[dict[str, Any]]:
    """Send ``hello`` raw; the messages up to the first state (or the refusal)."""
    ws.send_text(json.dumps({"v": 1, "type": "hello", "token": token}))
    got = []
    while True:
        m = ws.receive_json()
        got.append(m)
        if m["type"] in ("state", "error"):
            return got


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(60):
        m = ws.receive_json()
        if m["type"] == kind:
            return dict(m)
    raise AssertionError(f"no {kind} message")


def test_the_first_claim_binds_the_seat_and_a_second_claim_is_refused(
    client: TestClient,
) -> None:
    room = make_room(client, game="vs", first="1")
    invite = room["invites"][1]["token"]
    path = f"/ws/{room['room']}"
    with client.websocket_connect(path) as friend:
        welcome = greet(friend, invite)[0]
        assert welcome["type"] == "welcome" and welcome["seat"] == 1
        secret = welcome["secret"]
        assert isinstance(secret, str) and len(secret) >= 32 and secret != invite
        info = client.get(f"/api/rooms/{room['room']}").json()
        assert [s["claimed"] for s in info["seats"]] == [False, True]
        with client.websocket_connect(path) as host:  # the room's creator opens the link too
            refusal = greet(host, invite)[-1]
            assert refusal["type"] == "error" and refusal["code"] == "invite_used"
            assert "already used" in refusal["message"]
            with pytest.raises(WebSocketDisconnect):
                host.receive_json()
        with client.websocket_connect(path) as again:  # the friend's own secret opens it
            messages = greet(again, secret)
            assert messages[0]["seat"] == 1 and messages[0]["secret"] is None
            assert messages[-1]["type"] == "state" and messages[-1]["view"]["hand"]


def test_the_claim_holds_in_another_process_and_in_the_rematch(tmp_path: Path) -> None:
    settings = Settings(db=sqlite_url(tmp_path), bot_workers=0)
    with TestClient(create_app(settings)) as client:
        room = make_room(client, game="vs", seats=["human", "random"])
        invite = room["invites"][0]["token"]
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            secret = greet(ws, invite)[0]["secret"]
    with TestClient(create_app(settings)) as client:  # a new process, the same database
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            assert greet(ws, invite)[-1]["code"] == "invite_used"
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            assert greet(ws, secret)[0]["seat"] == 0
            ws.send_text(json.dumps({"v": 1, "type": "resign"}))
            next_of(ws, "over")
            ws.send_text(json.dumps({"v": 1, "type": "rematch"}))
            new = next_of(ws, "rematch")["room"]
        with client.websocket_connect(f"/ws/{new}") as ws:
            assert greet(ws, secret)[0]["seat"] == 0  # the seat is this client's there too
        with client.websocket_connect(f"/ws/{new}") as ws:
            assert greet(ws, invite)[-1]["code"] == "invite_used"


def test_a_one_time_code_moves_the_seat_and_the_old_secret_stops(client: TestClient) -> None:
    room = make_room(client, game="vs", first="1")
    path = f"/ws/{room['room']}"
    with client.websocket_connect(path) as first:
        old = greet(first, room["invites"][0]["token"])[0]["secret"]
        first.send_text(json.dumps({"v": 1, "type": "transfer"}))
        offer = next_of(first, "transfer")
        assert offer["seconds"] == 600 and len(offer["code"]) >= 16
        with client.websocket_connect(path) as second:
            welcome = greet(second, offer["code"])[0]
            assert welcome["seat"] == 0 and welcome["secret"] not in (None, old)
            moved = next_of(first, "error")
            assert moved["code"] == "seat_moved"
    with client.websocket_connect(path) as ws:
        assert greet(ws, old)[-1]["code"] == "bad_token"
    with client.websocket_connect(path) as ws:  # the code works once
        assert greet(ws, offer["code"])[-1]["code"] == "bad_token"
    with client.websocket_connect(path) as ws:
        ws.send_text(json.dumps({"v": 1, "type": "hello", "token": None}))
        next_of(ws, "state")
        ws.send_text(json.dumps({"v": 1, "type": "transfer"}))
        assert next_of(ws, "error")["code"] == "spectator"


def test_one_screen_rooms_say_so_to_the_lobby_and_every_socket(client: TestClient) -> None:
    shared = make_room(client, game="vs", hotseat=True)
    own = make_room(client, game="vs")
    listed = {r["room"]: r["hotseat"] for r in client.get("/api/rooms").json()}
    assert listed[shared["room"]] is True and listed[own["room"]] is False
    assert client.get(f"/api/rooms/{shared['room']}").json()["hotseat"] is True
    with client.websocket_connect(f"/ws/{shared['room']}") as ws:
        assert greet(ws, None)[0]["hotseat"] is True
    with client.websocket_connect(f"/ws/{own['room']}") as ws:
        assert greet(ws, None)[0]["hotseat"] is False
    bad = client.post("/api/rooms", json={"game": "vs", "hotseat": "yes please"})
    assert bad.status_code == 422 and "hotseat" in bad.json()["message"]


def test_a_late_joiner_gets_the_log_so_far_as_it_may_see_it(client: TestClient) -> None:
    room = make_room(client, game="vs", first="1", seats=["human", "human"])
    tokens = [i["token"] for i in room["invites"]]
    path = f"/ws/{room['room']}"
    live: dict[str, list[str]] = {"0": [], "1": [], "watch": []}
    with (
        client.websocket_connect(path) as a,
        client.websocket_connect(path) as b,
        client.websocket_connect(path) as w,
    ):
        first = {"0": greet(a, tokens[0]), "1": greet(b, tokens[1])}
        secrets = {k: v[0]["secret"] for k, v in first.items()}
        states = {k: v[-1] for k, v in first.items()}
        assert not any(m["type"] == "log" for m in first["0"])  # nothing happened yet
        greet(w, None)
        socks = {"0": a, "1": b, "watch": w}
        for _ in range(14):
            mover = "0" if states["0"]["to_move"] == 0 else "1"
            state = states[mover]
            if state["status"] == "over":
                break
            action = state["legal"][-1]["text"]
            socks[mover].send_text(
                json.dumps({"v": 1, "type": "move", "version": state["version"], "action": action})
            )
            for key, ws in socks.items():
                got = next_of(ws, "state")
                live[key] += [e["text"] for e in got["events"]]
                if key != "watch":
                    states[key] = got
        hub = client.app.state.hub  # type: ignore[attr-defined]
        held = hub.rooms[room["room"]]
        hand = states["0"]["view"]["hand"]
        card = hand[0]["id"] if isinstance(hand[0], dict) else hand[0]
        # a card searched into Player 1's hand: only Player 1 may see which
        held.remember([Event("search", {"player": 0, "card": card})])
        named = hub.log_msg(held, 0).entries[-1].text
        hidden = [hub.log_msg(held, s).entries[-1].text for s in (1, None)]
        assert (
            named
            != hidden[0]
            == hidden[1]
            == "Player 1 takes a card from their deck into their hand."
        )
        held.history.pop()
    assert live["watch"]
    for key, token in (("watch", None), ("0", secrets["0"]), ("1", secrets["1"])):
        with client.websocket_connect(path) as late:
            messages = greet(late, token)
            log = next(m for m in messages if m["type"] == "log")
            assert [e["text"] for e in log["entries"]] == live[key], key
            assert log["version"] == messages[-1]["version"]


def test_claims_on_sqlite(tmp_path: Path) -> None:
    _claims(Storage(sqlite_url(tmp_path)))


def test_claims_on_postgresql(pg_url: str) -> None:
    _claims(Storage(pg_url))


def _claims(storage: Storage) -> None:
    try:
        migrate(storage.engine)
        storage.create_room(_room("r1"))  # test_storage's room: two human seats
        assert storage.claim_seat("r1", 0, "s" * 64) is True
        assert storage.claim_seat("r1", 0, "t" * 64) is False  # the second claim loses
        assert storage.seats_of("r1")[0].secret_sha256 == "s" * 64
        assert storage.seats_of("r1")[1].secret_sha256 is None
        storage.offer_move("r1", 0, "c" * 64, time.time() + 60)
        assert storage.take_move("r1", 0, "x" * 64, "u" * 64) is False  # a wrong code
        assert storage.take_move("r1", 0, "c" * 64, "u" * 64) is True
        assert storage.take_move("r1", 0, "c" * 64, "v" * 64) is False  # spent
        assert storage.seats_of("r1")[0].secret_sha256 == "u" * 64
        storage.offer_move("r1", 1, "d" * 64, time.time() - 1)  # already run out
        assert storage.take_move("r1", 1, "d" * 64, "w" * 64) is False
    finally:
        storage.close()


def test_a_room_made_before_claims_opens_once_with_its_invite(tmp_path: Path) -> None:
    """A database taken back to the schema before seat claims (revision 0002, which has no
    seat secrets): after the upgrade its rooms' invites open their seats, once."""
    from alembic import command
    from alembic.config import Config

    url = sqlite_url(tmp_path)
    settings = Settings(db=url, bot_workers=0)
    with TestClient(create_app(settings)) as client:
        room = make_room(client, game="vs", seats=["human", "random"])
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            assert greet(ws, room["invites"][0]["token"])[0]["secret"]
    engine = make_engine(url)
    config = Config()
    config.set_main_option(
        "script_location", str(Path(__file__).parents[2] / "src/velvet/server/migrations")
    )
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0002")
    with engine.begin() as connection:
        columns = {c["name"] for c in sa.inspect(connection).get_columns("velvet_seats")}
    assert "secret_sha256" not in columns
    engine.dispose()
    invite = room["invites"][0]["token"]
    with TestClient(create_app(settings)) as client:  # upgrades to the newest schema
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            assert greet(ws, invite)[0]["secret"]
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            assert greet(ws, invite)[-1]["code"] == "invite_used"
