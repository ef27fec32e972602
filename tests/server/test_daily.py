"""The daily challenge: the day's seed and set-up (the same in the terminal), the
leaderboard's order through HTTP, replays refused until the day ends, migration 0006."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from click.testing import CliRunner
from fastapi.testclient import TestClient
from tests.server.conftest import sqlite_url
from tests.server.test_accounts import as_, sign_up

from velvet.engine.daily import daily_seed, daily_setup, day_end, day_start, setup_seed
from velvet.engine.record import GameRecord
from velvet.games import get_game, get_spec
from velvet.server.app import Settings, create_app
from velvet.server.daily import Result, ranked
from velvet.server.storage import make_engine

DAY = date(2026, 12, 2)
NOON = day_start(DAY) + 12 * 3600


def _digest(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


# --- the day's game ----------------------------------------------------------------------


def test_the_seed_is_the_documented_digest_of_the_game_and_the_day() -> None:
    assert daily_seed("p5", DAY) == _digest("velvet daily p5 2026-12-02") == 8162151660967002992
    assert setup_seed("p5", DAY) == _digest("velvet daily setup p5 2026-12-02")
    assert daily_seed("p5", date(2026, 12, 3)) != daily_seed("p5", DAY)
    assert daily_seed("other", DAY) != daily_seed("p5", DAY)
    assert 0 <= daily_seed("p5", DAY) < 2**63  # fits a room's seed column


def test_the_set_up_is_stable_and_differs_from_day_to_day() -> None:
    spec, game = get_spec("p5"), get_game("p5")
    setup = daily_setup(spec, game, DAY)
    assert setup.options == {"thief": ["noir"], "persona": ["milady"], "palace": "okumura"}
    assert setup.config == {
        "players": [{"thief": "noir", "persona": "milady"}],
        "palace": "okumura",
    }
    assert daily_setup(spec, game, DAY) == setup
    week = {json.dumps(daily_setup(spec, game, date(2026, 12, d)).config) for d in range(1, 8)}
    assert len(week) > 1
    game.new_state(setup.config, setup.seed)  # a set-up the game takes


def test_velvet_daily_plays_the_days_set_up_in_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from velvet.cli import main

    monkeypatch.setenv("VELVET_DATA_DIR", str(tmp_path))
    out = CliRunner().invoke(
        main, ["daily", "--day", "2026-12-02", "--pace", "0"], input="quit\nn\n"
    )
    assert out.exit_code == 0, out.output
    assert "Daily challenge of 2026-12-02" in out.output
    assert "thief noir, persona milady, palace okumura" in out.output
    hashed = hashlib.sha256(str(daily_seed("p5", DAY)).encode()).hexdigest()
    assert hashed in out.output.replace("\n", "")  # the seed's SHA-256, as a room shows it
    bad = CliRunner().invoke(main, ["daily", "vs"])
    assert bad.exit_code == 2 and "has no daily challenge" in bad.output
    later = CliRunner().invoke(main, ["daily", "--day", "2999-01-01"])
    assert later.exit_code == 2 and "has not begun" in later.output


# --- the ranking -------------------------------------------------------------------------


def test_wins_rank_by_day_then_actions_then_time_and_losses_come_after() -> None:
    results = [
        Result("lost-early", None, "lost", None, 10, 100.0),
        Result("day9", None, "won", 9, 500, 300.0),
        Result("day7-more", None, "won", 7, 400, 100.0),
        Result("day7-late", None, "won", 7, 300, 250.0),
        Result("day7-first", None, "won", 7, 300, 200.0),
        Result("lost-late", None, "lost", None, 5, 900.0),
        Result("playing", None, "playing", None, 0, 0.0),
        Result("ada-worse", 1, "won", 12, 100, 50.0),
        Result("ada-best", 1, "won", 8, 900, 60.0),
        Result("ada-lost", 1, "lost", None, 1, 1.0),
    ]
    order = [r.room for r in ranked(results)]
    assert order == [
        "day7-first",
        "day7-late",
        "day7-more",
        "ada-best",  # an account once, at its best place
        "day9",
        "lost-early",
        "lost-late",
    ]


# --- through HTTP ------------------------------------------------------------------------


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def daily_client(tmp_path: Path, request: Any) -> Iterator[tuple[TestClient, Clock, str]]:
    """An app on SQLite (or, parametrized ``postgresql``, PostgreSQL) at noon of DAY."""
    backend = getattr(request, "param", "sqlite")
    url = sqlite_url(tmp_path) if backend == "sqlite" else request.getfixturevalue("pg_url")
    clock = Clock(NOON)
    settings = Settings(db=url, bot_workers=0, rate=1000, http_rate=1000, clock=clock)
    with TestClient(create_app(settings)) as client:
        yield client, clock, url


def _greet(ws: Any, secret: str) -> dict[str, dict[str, Any]]:
    """``hello``; the answers by type, up to the first state (or error)."""
    ws.send_text(json.dumps({"v": 1, "type": "hello", "token": secret}))
    got: dict[str, dict[str, Any]] = {}
    while "state" not in got and "error" not in got:
        m = ws.receive_json()
        got[m["type"]] = m
    return got


def _next(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(50):
        m = ws.receive_json()
        if m["type"] == kind:
            return dict(m)
    raise AssertionError(f"no {kind} message")


@pytest.mark.parametrize("daily_client", ["sqlite", "postgresql"], indirect=True)
def test_a_daily_game_is_the_days_and_its_replay_opens_when_the_day_ends(
    daily_client: tuple[TestClient, Clock, str],
) -> None:
    client, clock, _ = daily_client
    listed = client.get("/api/daily").json()
    assert [d["game"] for d in listed] == ["p5"] and listed[0]["day"] == "2026-12-02"
    info = client.get("/api/daily/p5").json()
    assert info["setup"] == [
        "Thief: Noir (Haru Okumura)",
        "Persona: Milady",
        "Palace: Spaceport of Greed (Okumura)",
    ]
    assert info["ends"] == day_end(DAY) and info["seconds_left"] == 12 * 3600
    assert info["rank_by"] == "day" and info["seats"] == 1 and info["seed"] is None
    assert info["seed_sha256"] == hashlib.sha256(str(daily_seed("p5", DAY)).encode()).hexdigest()
    started = client.post("/api/daily/p5")
    assert started.status_code == 201, started.text
    room, secret = started.json()["room"], started.json()["secret"]
    with client.websocket_connect(f"/ws/{room}") as ws:
        got = _greet(ws, secret)
        assert got["welcome"]["seat"] == 0 and "state" in got, got
        state = got["state"]
        ws.send_text(
            json.dumps({"v": 1, "type": "move", "version": 0, "action": state["legal"][0]["text"]})
        )
        _next(ws, "state")
        ws.send_text(json.dumps({"v": 1, "type": "resign"}))
        _next(ws, "over")
    board = client.get("/api/daily/p5/leaderboard").json()
    assert board["over"] is False and board["playing"] == 0
    assert [(e["result"], e["actions"], e["room"]) for e in board["entries"]] == [("lost", 1, None)]
    for path in (f"/api/rooms/{room}/replay", f"/api/rooms/{room}/record"):
        refused = client.get(path)
        assert refused.status_code == 403 and refused.json()["error"] == "daily_running"
        assert "00:00 UTC" in refused.json()["message"]
    clock.now = day_end(DAY)  # the day is over: replays open, the seed is shown
    assert client.get("/api/daily/p5?day=2026-12-02").json()["seed"] == daily_seed("p5", DAY)
    board = client.get("/api/daily/p5/leaderboard?day=2026-12-02").json()
    assert board["over"] is True and board["entries"][0]["room"] == room
    replay = client.get(f"/api/rooms/{room}/replay")
    assert replay.status_code == 200 and len(replay.json()["frames"]) == 2
    record = GameRecord.from_json(client.get(f"/api/rooms/{room}/record").json()["record"])
    setup = daily_setup(get_spec("p5"), get_game("p5"), DAY)
    assert record.seed == setup.seed and record.config == setup.config  # as `velvet daily`
    assert client.post("/api/daily/p5").json()["day"] == "2026-12-03"  # a new day's game


def test_the_leaderboard_through_http_ranks_wins_then_losses(
    daily_client: tuple[TestClient, Clock, str],
) -> None:
    client, clock, url = daily_client
    ada = sign_up(client, "Ada")
    rooms = [client.post("/api/daily/p5").json()["room"] for _ in range(3)]
    rooms.append(client.post("/api/daily/p5", headers=as_(ada)).json()["room"])
    again = client.post("/api/daily/p5", headers=as_(ada))  # one game a day per account
    assert again.status_code == 409 and again.json()["error"] == "daily_played"
    assert rooms[3] in again.json()["message"]
    late = client.post("/api/daily/p5").json()["room"]
    engine = make_engine(url)
    with engine.begin() as c:  # three finished games as the board would have counted them
        for room, state, turns, actions, at in [
            (rooms[0], "won", 14, 300, NOON + 30),
            (rooms[1], "lost", None, 20, NOON + 10),
            (rooms[2], "won", 11, 900, NOON + 50),
        ]:
            c.execute(
                sa.text(
                    "UPDATE velvet_daily SET state=:s, turns=:t, actions=:a, finished=:f "
                    "WHERE room=:r"
                ),
                {"s": state, "t": turns, "a": actions, "f": at, "r": room},
            )
        # the fourth ends won after 0 moves: the board reads its result and its day
        c.execute(
            sa.text("UPDATE velvet_rooms SET status='over', result=:res WHERE id=:r"),
            {"res": json.dumps({"returns": [1.0], "text": "won"}), "r": rooms[3]},
        )
    engine.dispose()
    board = client.get("/api/daily/p5/leaderboard").json()
    got = [(e["rank"], e["result"], e["turns"], e["actions"]) for e in board["entries"]]
    assert got == [
        (1, "won", 1, 0),
        (2, "won", 11, 900),
        (3, "won", 14, 300),
        (None, "lost", None, 20),
    ]
    assert [e["player"] for e in board["entries"]] == ["Ada", None, None, None]
    assert all(e["room"] is None for e in board["entries"])
    assert board["playing"] == 1
    # a game that ends after midnight, when the day's replays are open, is not ranked
    engine = make_engine(url)
    with engine.begin() as c:
        c.execute(
            sa.text("UPDATE velvet_rooms SET status='over', result=:res WHERE id=:r"),
            {"res": json.dumps({"returns": [1.0], "text": "won"}), "r": late},
        )
    engine.dispose()
    clock.now = day_end(DAY) + 60
    after = client.get("/api/daily/p5/leaderboard?day=2026-12-02").json()
    assert len(after["entries"]) == 4 and after["playing"] == 0
    assert late not in [e["room"] for e in after["entries"]]


def test_refusals_name_what_was_wrong(daily_client: tuple[TestClient, Clock, str]) -> None:
    client, _, _ = daily_client
    for path, code, status in [
        ("/api/daily/vs", "no_daily", 404),
        ("/api/daily/nope/leaderboard", "no_daily", 404),
        ("/api/daily/p5?day=2026-12-03", "bad_day", 422),
        ("/api/daily/p5/leaderboard?day=yesterday", "bad_day", 422),
        ("/api/daily/p5?day=2026-W49-3", "bad_day", 422),  # an ISO week date: not YYYY-MM-DD
        ("/api/daily/p5?day=20261202", "bad_day", 422),
    ]:
        answer = client.get(path)
        assert (answer.status_code, answer.json()["error"]) == (status, code), answer.text
    assert "2026-12-03 has not begun" in client.get("/api/daily/p5?day=2026-12-03").text
    assert client.post("/api/daily/vs").json()["error"] == "no_daily"


# --- the schema --------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_migration_0006_on_a_fresh_database_up_down_up(
    backend: str, tmp_path: Path, request: Any
) -> None:
    from alembic import command
    from alembic.config import Config

    from velvet.server.storage import Storage, migrate

    url = sqlite_url(tmp_path) if backend == "sqlite" else request.getfixturevalue("pg_url")
    storage = Storage(url)
    try:
        migrate(storage.engine)
        assert "velvet_daily" in sa.inspect(storage.engine).get_table_names()
        config = Config()
        config.set_main_option(
            "script_location", str(Path(__file__).parents[2] / "src/velvet/server/migrations")
        )
        with storage.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0005")
        tables = set(sa.inspect(storage.engine).get_table_names())
        assert "velvet_daily" not in tables and "velvet_seeks" in tables
        migrate(storage.engine)
        assert "velvet_daily" in sa.inspect(storage.engine).get_table_names()
    finally:
        storage.close()
