"""Correspondence rooms (issue 25, "your turn, even days later"): days per move, shown in
the lobby and in "your games" with the deadline, a loss on time recorded when it passes
(with an injected clock), found by the sweeper too when nobody asks, and all of it read
back after a restart."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.server.conftest import hello, send, sqlite_url
from tests.server.test_app import next_of
from tests.server.test_seats import greet, make_room
from tests.server.test_your_games import ask

from velvet.server.app import Settings, create_app
from velvet.server.correspondence import DAY
from velvet.server.storage import make_engine


class Now:
    """A wall clock the test moves on."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


def serve(url: str, now: Now) -> TestClient:
    return TestClient(
        create_app(Settings(db=url, bot_workers=0, rate=1000, http_rate=1000, clock=now))
    )


@pytest.fixture
def db(tmp_path: Path) -> Iterator[str]:
    yield sqlite_url(tmp_path)


def _play_first_move(client: TestClient, room: dict[str, Any]) -> list[str]:
    """Both seats claimed, Player 1 makes a move; the two secrets."""
    secrets = []
    with client.websocket_connect(f"/ws/{room['room']}") as a:
        got = greet(a, room["invites"][0]["token"])
        secrets.append(got[0]["secret"])
        state = got[-1]
        a.send_json({"v": 1, "type": "move", "version": 0, "action": state["legal"][0]["text"]})
        while not a.receive_json().get("ack"):
            pass
    with client.websocket_connect(f"/ws/{room['room']}") as b:
        secrets.append(greet(b, room["invites"][1]["token"])[0]["secret"])
    return secrets


def _corr_flow(url: str) -> None:
    now = Now()
    with serve(url, now) as client:
        room = make_room(client, game="vs", first="1", seats=["human", "human"], days_per_move=3)
        lobby = {r["room"]: r for r in client.get("/api/rooms").json()}
        assert lobby[room["room"]]["days_per_move"] == 3
        secrets = _play_first_move(client, room)
        held = [{"room": room["room"], "secret": s} for s in secrets]
        game = ask(client, held[1:])["games"][0]
        assert game["days_per_move"] == 3 and game["to_move"] == 1 and game["your_move"]
        assert 3 * DAY - 60 < game["deadline"] - time.time() <= 3 * DAY
    now.offset = 2 * DAY  # a restart, two days later: still Player 2's move, one day left
    with serve(url, now) as client:
        game = ask(client, held[1:])["games"][0]
        assert game["status"] == "playing" and game["your_move"]
        assert DAY - 60 < game["deadline"] - now() <= DAY
    now.offset = 3 * DAY + 5  # the deadline has passed: Player 2 lost on time
    with serve(url, now) as client:
        game = ask(client, held[:1])["games"][0]
        assert game["status"] == "over" and game["deadline"] is None
        assert game["result"] == "Player 2 ran out of time; Player 1 wins."
        record = client.get(f"/api/rooms/{room['room']}/record").json()
        assert record["result"]["flagged"] == 1 and record["result"]["returns"] == [1.0, 0.0]
    with serve(url, now) as client:  # recorded: read back as over after another restart
        assert client.get(f"/api/rooms/{room['room']}").json()["status"] == "over"


def test_a_correspondence_game_survives_a_restart_and_is_lost_on_time_on_sqlite(db: str) -> None:
    _corr_flow(db)


def test_a_correspondence_game_is_lost_on_time_on_postgresql(pg_url: str) -> None:
    _corr_flow(pg_url)


def _status(url: str, room: str) -> str:
    """The room's status as stored, read past the app (asking the app would check it)."""
    engine = make_engine(url)
    try:
        with engine.connect() as c:
            found = c.execute(sa.text("SELECT status FROM velvet_rooms WHERE id=:r"), {"r": room})
            return str(found.scalar_one())
    finally:
        engine.dispose()


def test_the_sweeper_flags_a_room_nobody_asks_about(db: str) -> None:
    now = Now()
    settings = Settings(
        db=db, bot_workers=0, rate=1000, http_rate=1000, clock=now, sweep_seconds=0.05
    )
    with TestClient(create_app(settings)) as client:
        room = make_room(client, game="vs", first="1", seats=["human", "human"], days_per_move=1)
        _play_first_move(client, room)
        time.sleep(0.5)  # ten sweeps within the day: nothing is flagged
        assert _status(db, room["room"]) == "playing"
        now.offset = DAY + 5  # Player 2's day has run out; nobody asks about the room
        for _ in range(100):
            if _status(db, room["room"]) == "over":
                break
            time.sleep(0.05)
        assert _status(db, room["room"]) == "over", "the sweeper did not flag the room"
        result = client.get(f"/api/rooms/{room['room']}/record").json()["result"]
        assert result["flagged"] == 1 and result["returns"] == [1.0, 0.0]


def test_the_table_is_told_the_deadline_and_it_counts_from_the_last_move(db: str) -> None:
    now = Now()
    with serve(db, now) as client:
        room = make_room(client, game="vs", first="1", seats=["human", "human"], days_per_move=3)
        created = client.get(f"/api/rooms/{room['room']}").json()["created"]
        with client.websocket_connect(f"/ws/{room['room']}") as a:
            state = greet(a, room["invites"][0]["token"])[-1]
            assert state["deadline"] == pytest.approx(created + 3 * DAY)  # no move yet
            a.send_json({"v": 1, "type": "move", "version": 0, "action": state["legal"][0]["text"]})
            while not (moved := a.receive_json()).get("ack"):
                pass
            assert now() - 5 < moved["deadline"] - 3 * DAY <= now()  # from the move
        plain = make_room(client, game="vs", first="1", seats=["human", "human"])
        with client.websocket_connect(f"/ws/{plain['room']}") as b:
            assert greet(b, plain["invites"][0]["token"])[-1]["deadline"] is None
    now.offset = DAY  # a restart a day later: read back from the stored move's time
    with serve(db, now) as client, client.websocket_connect(f"/ws/{room['room']}") as a:
        state = greet(a, room["invites"][1]["token"])[-1]
        assert state["deadline"] == pytest.approx(moved["deadline"], abs=2)
        assert state["to_move"] == 1


def test_a_room_without_days_per_move_never_flags(db: str) -> None:
    now = Now()
    with serve(db, now) as client:
        room = make_room(client, game="vs", first="1", seats=["human", "human"])
        secrets = _play_first_move(client, room)
    now.offset = 30 * DAY
    with serve(db, now) as client:
        game = ask(client, [{"room": room["room"], "secret": secrets[1]}])["games"][0]
        assert game["status"] == "playing" and game["deadline"] is None
        assert game["days_per_move"] is None


def test_a_room_counted_in_hours_is_lost_after_its_hour(db: str) -> None:
    now = Now()
    with serve(db, now) as client:
        room = make_room(client, game="vs", first="1", seats=["human", "human"], hours_per_move=1)
        info = client.get(f"/api/rooms/{room['room']}").json()
        assert info["hours_per_move"] == 1 and info["days_per_move"] is None
        secrets = _play_first_move(client, room)
        game = ask(client, [{"room": room["room"], "secret": secrets[1]}])["games"][0]
        assert game["hours_per_move"] == 1 and 3540 < game["deadline"] - now() <= 3600
        now.offset = 3599  # a second to go: still playing
        assert client.get(f"/api/rooms/{room['room']}").json()["status"] == "playing"
        now.offset = 3601
        assert client.get(f"/api/rooms/{room['room']}").json()["status"] == "over"
        record = client.get(f"/api/rooms/{room['room']}/record").json()
        assert record["result"]["flagged"] == 1


@pytest.mark.parametrize(
    ("body", "status", "code", "option"),
    [
        ({"days_per_move": 2}, 422, "bad_request", "days_per_move"),  # not one of 1, 3, 7
        ({"days_per_move": 3, "turn_timer": 60}, 400, "bad_options", "days_per_move"),
        ({"hours_per_move": 2}, 422, "bad_request", "hours_per_move"),  # not one of 1, 4, 12
        ({"hours_per_move": 4, "turn_timer": 60}, 400, "bad_options", "hours_per_move"),
        ({"hours_per_move": 4, "days_per_move": 1}, 400, "bad_options", "hours_per_move"),
    ],
)
def test_bad_time_per_move_is_refused_naming_the_field(
    db: str, body: dict[str, Any], status: int, code: str, option: str
) -> None:
    with serve(db, Now()) as client:
        r = client.post("/api/rooms", json={"game": "vs", "seats": ["human", "human"], **body})
        assert r.status_code == status, r.text
        assert r.json()["error"] == code and r.json()["option"] == option
        assert client.get("/api/rooms").json() == []  # nothing was made


def test_a_room_and_its_rematch_are_stamped_by_the_servers_clock(db: str) -> None:
    now = Now()
    now.offset = 10 * DAY  # a clock far from the machine's: every stamp must come from it
    with serve(db, now) as client:
        room = make_room(client, game="vs", first="1", seats=["human", "random"])
        created = client.get(f"/api/rooms/{room['room']}").json()["created"]
        assert now() - 5 < created <= now()
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            hello(ws, room["invites"][0]["token"])
            send(ws, type="resign")
            while next_of(ws, "state")["status"] != "over":
                pass
            send(ws, type="rematch")
            again = next_of(ws, "rematch")["room"]
        stamped = client.get(f"/api/rooms/{again}").json()["created"]
        assert now() - 5 < stamped <= now()
