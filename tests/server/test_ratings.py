"""Glicko-2 (velvet.server.ratings) against Glickman's worked example, and a rated game's
end updating both players' ratings once: not again on a second call, a restart, or a
second process racing the first; a game ended by a process that died is rated at the
next start."""

from __future__ import annotations

import math
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import sqlite_url
from tests.server.test_accounts import as_, count, sign_up
from tests.server.test_seats import greet, make_room, next_of
from tests.server.test_storage import _room

from velvet.server.accounts import Accounts
from velvet.server.app import Settings, create_app
from velvet.server.ratings import BOT_RATINGS, Rating, rate_game, update
from velvet.server.storage import Storage, migrate


def test_glickmans_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system": 1500 (RD 200, vol 0.06) beats 1400 (RD
    30), loses to 1550 (RD 100) and to 1700 (RD 300): 1464.06, RD 151.52, vol 0.05999. The
    paper rounds its intermediate steps; unrounded, the rating is 1464.0507."""
    after = update(
        Rating(1500, 200, 0.06),
        [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)],
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.vol == pytest.approx(0.05999, abs=0.00001)


def test_the_new_volatility_solves_step_5_away_from_1500() -> None:
    """Step 5's f(x) = 0 at x = ln σ'² for a player far from 1500 (where a port that puts μ
    for φ in f goes wrong; at μ = 0 the two agree)."""
    player, games = Rating(2100, 60, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0)]
    after = update(player, games)
    mu, phi = (player.rating - 1500) / 173.7178, player.rd / 173.7178

    def g(p: float) -> float:
        return 1 / math.sqrt(1 + 3 * p * p / math.pi**2)

    opponents = [((o.rating - 1500) / 173.7178, o.rd / 173.7178, s) for o, s in games]
    es = [1 / (1 + math.exp(-g(p) * (mu - m))) for m, p, _ in opponents]
    v = 1 / sum(g(p) ** 2 * e * (1 - e) for (m, p, _), e in zip(opponents, es, strict=True))
    delta = v * sum(g(p) * (s - e) for (m, p, s), e in zip(opponents, es, strict=True))
    x, a = math.log(after.vol**2), math.log(0.06**2)
    f = (
        math.exp(x) * (delta**2 - phi**2 - v - math.exp(x)) / (2 * (phi**2 + v + math.exp(x)) ** 2)
        - (x - a) / 0.5**2
    )
    assert abs(f) < 2e-5  # the port's volatility (0.0600033) gives f = 9e-4
    assert abs(after.vol - 0.06) > 5e-6  # it moved: the check is not idle


def test_one_game_moves_both_players_and_a_draw_between_equals_moves_no_rating() -> None:
    win, loss = rate_game(Rating(), Rating(), 1.0)
    assert win.rating > 1500 > loss.rating and win.rating - 1500 == pytest.approx(
        1500 - loss.rating
    )
    assert win.rd < 350 and win.provisional  # one game: still provisional
    drawn, _ = rate_game(Rating(), Rating(), 0.5)
    assert drawn.rating == pytest.approx(1500)
    assert not Rating(1500, 60).provisional


def test_only_measured_bot_ratings_are_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    measured = {(game, bot, round(r)) for game, t in BOT_RATINGS.items() for bot, r in t.items()}
    with TestClient(create_app(Settings(db=sqlite_url(tmp_path), bot_workers=0))) as client:
        shown = client.get("/api/leaderboard").json()["bots"]
        assert {(b["game"], b["bot"], b["rating"]) for b in shown} == measured
        assert client.get("/api/leaderboard", params={"game": "p5"}).json()["bots"] == []
        monkeypatch.setitem(BOT_RATINGS, "vs", {})  # nothing measured: nothing shown
        assert client.get("/api/leaderboard").json()["bots"] == []


def _wait_rows(url: str, table: str, n: int) -> None:
    deadline = time.monotonic() + 10
    while count(url, table) < n and time.monotonic() < deadline:
        time.sleep(0.05)


def test_a_rated_game_updates_both_ratings_once(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    settings = Settings(db=url, bot_workers=0, rate=1000, http_rate=1000)
    with TestClient(create_app(settings)) as client:
        ada, bob = sign_up(client, "Ada"), sign_up(client, "Bob")
        room = make_room(client, game="vs", first="1", rated=True)
        path = f"/ws/{room['room']}"
        with (
            client.websocket_connect(path, headers=as_(ada)) as a,
            client.websocket_connect(path, headers=as_(bob)) as b,
        ):
            greet(a, room["invites"][0]["token"])
            greet(b, room["invites"][1]["token"])
            b.send_text('{"v": 1, "type": "resign"}')
            next_of(a, "over")
        _wait_rows(url, "velvet_ratings", 2)
        board = client.get("/api/leaderboard?game=vs").json()["players"]
        assert [p["name"] for p in board] == ["Ada", "Bob"]
        assert board[0]["rating"] == 1662 and board[1]["rating"] == 1338  # 1500 ± 162.2
        assert all(p["provisional"] and p["games"] == 1 for p in board)
        games = client.get("/api/players/Ada").json()["games"]
        assert games[0]["rated"] and games[0]["rating_before"] == 1500
        assert games[0]["rating_after"] == pytest.approx(1662.3, abs=0.1)
        storage = client.app.state.hub.storage  # type: ignore[attr-defined]  # Starlette app
        assert Accounts(storage).record_end(room["room"], []) is False  # once only
    with TestClient(create_app(settings)) as client:  # a restart rates nothing again
        time.sleep(0.3)
        again = client.get("/api/leaderboard?game=vs").json()["players"]
        seats = client.get(f"/api/rooms/{room['room']}").json()["seats"]
    assert [s["player"] for s in seats] == ["Ada", "Bob"]  # read back with the room
    assert again == board and count(url, "velvet_results") == 1


def _over_room_with_two_accounts(storage: Storage, room_id: str) -> Accounts:
    """A rated room whose game ended (Bob resigned) with no record: as a process leaves it
    that committed the end and died before recording it."""
    migrate(storage.engine)
    accounts = Accounts(storage)
    ada, bob = accounts.sign_up("Ada", "correct horse"), accounts.sign_up("Bob", "correct horse")
    row = _room(room_id)
    row.options = {"rated": True}
    storage.create_room(row)
    assert storage.claim_seat(room_id, 0, "s" * 64, ada.id)
    assert storage.claim_seat(room_id, 1, "t" * 64, bob.id)
    storage.finish(room_id, 0, {"returns": [1.0, 0.0], "resigned": 1})
    return accounts


def _raced(storage: Storage, other: Storage) -> None:
    """Two processes' storages record the same end at once: one does, once."""
    try:
        accounts = _over_room_with_two_accounts(storage, "r1")
        assert accounts.pending_ends() == ["r1"]
        outcomes: list[bool] = []
        racers = [
            threading.Thread(target=lambda s=s: outcomes.append(Accounts(s).record_end("r1", [])))
            for s in (storage, other)
        ]
        for t in racers:
            t.start()
        for t in racers:
            t.join(30)
        assert sorted(outcomes) == [False, True]
        assert accounts.pending_ends() == []
        board = accounts.leaderboard("vs")
        assert [(p["name"], p["games"]) for p in board] == [("Ada", 1), ("Bob", 1)]
        assert board[0]["rating"] == 1662
    finally:
        storage.close()
        other.close()


def test_a_rating_is_applied_once_by_racing_processes_on_sqlite(tmp_path: Path) -> None:
    _raced(Storage(sqlite_url(tmp_path)), Storage(sqlite_url(tmp_path)))


def test_a_rating_is_applied_once_by_racing_processes_on_postgresql(pg_url: str) -> None:
    _raced(Storage(pg_url), Storage(pg_url))


def test_a_game_ended_by_a_process_that_died_is_rated_at_the_next_start(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    storage = Storage(url)
    try:
        _over_room_with_two_accounts(storage, "r1")
    finally:
        storage.close()
    with TestClient(create_app(Settings(db=url, bot_workers=0))) as client:
        _wait_rows(url, "velvet_ratings", 2)
        board = client.get("/api/leaderboard").json()["players"]
    assert [(p["name"], p["rating"]) for p in board] == [("Ada", 1662), ("Bob", 1338)]
