"""Hostile clients against the server's workers and its wire protocol.

Each test is an attack that once worked: a message that crashed its socket's handler, bot
budgets that stalled every room, one client holding every hint slot, workers that outlived
the server.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from tests.conftest import command, descendants, gone
from tests.server.conftest import ServerProcess, free_port, hello, send, sqlite_url
from websockets.sync.client import connect

from velvet.bots.budget import Budget
from velvet.engine.errors import ConfigError
from velvet.server.app import Settings, create_app
from velvet.server.bots import BotLimits, BotPool
from velvet.server.games import room_game
from velvet.server.hinting import HintSettings

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


# --- bot budgets and deadlines ------------------------------------------------------------


@pytest.mark.parametrize(
    "field, spec, said",
    [
        ("seats", "ismcts:3600s", "over this server's limit of 5s"),
        ("seats", "mcts:infs", "bad budget 'infs'"),
        ("seats", "mcts:nans", "bad budget 'nans'"),
        ("seats", "hard:1e9", "bad budget '1e9'"),
        ("seats", "greedy:1_000", "bad budget '1_000'"),
        ("seats", "mcts:99999999", "over this server's limit of 5000 simulations"),
        ("takeover", "ismcts:60s", "over this server's limit of 5s"),
        ("takeover", "mcts:infs", "bad budget 'infs'"),
    ],
)
def test_a_room_naming_a_bot_over_the_limits_is_refused(
    room_client: TestClient, field: str, spec: str, said: str
) -> None:
    """``ismcts:3600s`` and ``mcts:infs`` were taken: two such rooms stalled every room's
    bots. The refusal names the spec and the limit; no room is made."""
    body: dict[str, object] = {"game": "vs", "seats": ["human", spec]}
    if field == "takeover":
        body = {"game": "vs", "takeover": spec, "grace": 5}
    with room_client as client:
        answer = client.post("/api/rooms", json=body)
        assert answer.status_code == 400, answer.text
        assert said in answer.json()["message"] and spec in answer.json()["message"]
        fine = client.post("/api/rooms", json={"game": "vs", "seats": ["human", "mcts:2s"]})
        assert fine.status_code == 201, fine.text


def test_the_limits_are_the_servers_own(tmp_path: Path) -> None:
    limits = BotLimits(seconds=60, simulations=100)
    app = create_app(Settings(db=sqlite_url(tmp_path), bot_workers=0, bot_limits=limits))
    with TestClient(app) as client:
        ok = client.post(
            "/api/rooms", json={"game": "vs", "seats": ["human", "mcts:30s"], "first": "1"}
        )
        assert ok.status_code == 201, ok.text
        hard = client.post("/api/rooms", json={"game": "vs", "seats": ["human", "hard"]})
        assert hard.status_code == 400  # hard is 800 simulations
        assert "bot 'hard': budget 800 is over this server's limit of 100" in hard.text


def test_a_bot_move_stops_at_its_deadline_with_its_best_so_far() -> None:
    """Five million simulations allowed by the limits still end at the move's deadline."""
    game = room_game("vs", ())
    state = game.new_state(game.default_config(), 7)
    legal = [str(a) for a in state.legal_actions()]
    pool = BotPool(0, BotLimits(seconds=0.5, simulations=10**7))
    view = state.view(state.current_player)
    start = time.monotonic()
    text = asyncio.run(pool.choose("vs", (), "ismcts:5000000", view, legal, 3))
    took = time.monotonic() - start
    assert text in legal
    assert took < 3, f"the move took {took:.1f}s against a deadline of 0.5s"


def test_a_worker_past_its_deadline_is_replaced_and_a_legal_move_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker that does not answer (here: still loading when the deadline and grace have
    passed) is killed with its pool; the move is a legal one drawn from the move's seed."""
    from velvet.server import bots

    monkeypatch.setattr(bots, "DEADLINE_GRACE", -0.2)  # stuck once it runs at all (2 x 0.1 s)
    game = room_game("vs", ())
    state = game.new_state(game.default_config(), 7)
    legal = [str(a) for a in state.legal_actions()]
    view = state.view(state.current_player)
    pool = BotPool(1, BotLimits(seconds=0.1, simulations=5000))

    async def play() -> tuple[str, list[int], str]:
        first = pool.choose("vs", (), "mcts:5000", view, legal, 3)
        task = asyncio.ensure_future(first)
        await asyncio.sleep(0.05)
        pids = list(pool._pool._processes) if pool._pool is not None else []
        text = await task
        # the new pool works (its worker's start-up takes seconds on a busy machine)
        monkeypatch.setattr(bots, "DEADLINE_GRACE", 120.0)
        after = await pool.choose("vs", (), "random", view, legal, 4)
        return text, pids, after

    try:
        text, pids, after = asyncio.run(play())
    finally:
        pool.close()
    assert pool.replaced == 1  # once: the second move came from the new pool's worker
    assert text == bots.fallback(legal, 3) and after in legal
    assert pids and not gone(set(pids), 1.0), pids


# --- workers die with the server ----------------------------------------------------------


def _serve_with_workers(tmp_path: Path) -> tuple[ServerProcess, set[int]]:
    """``velvet serve`` with a bot worker and a hint worker running (a bot has moved, a
    seat that may ask for hints has joined); its descendants."""
    server = ServerProcess(
        sqlite_url(tmp_path), free_port(), tmp_path / "server.log", "--bot-workers", "1"
    )
    server.start()
    assert server.proc is not None
    body = {"game": "vs", "seats": ["human", "random"], "first": "2"}
    room = httpx.post(f"{server.url}/api/rooms", json=body, timeout=10).json()
    with connect(room["websocket"], open_timeout=10) as ws:
        ws.send(json.dumps({"v": 1, "type": "hello", "token": room["invites"][0]["token"]}))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # the bot's first move comes from its worker
            message = json.loads(ws.recv(timeout=30))
            if message["type"] == "state" and message["version"] >= 1:
                break
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < 3:
            time.sleep(0.1)  # a bot worker, a hint worker and their resource tracker
            workers = descendants(server.proc.pid)
    assert len(workers) >= 3, [command(p) for p in workers]
    return server, workers


@pytest.mark.parametrize("trial", range(2))
def test_kill_9_of_the_server_ends_every_worker(tmp_path: Path, trial: int) -> None:
    """kill -9 of ``velvet serve`` once left every worker and the resource tracker running
    (124 processes over 32 kills)."""
    server, workers = _serve_with_workers(tmp_path)
    try:
        server.kill()
        left = gone(workers, 5.0)
    finally:
        server.stop()
    assert not left, [command(p) for p in left]


def test_sigterm_of_the_server_ends_every_worker(tmp_path: Path) -> None:
    """SIGTERM (a graceful stop) once left the workers running in 5 trials of 10."""
    server, workers = _serve_with_workers(tmp_path)
    assert server.proc is not None
    try:
        server.proc.terminate()
        server.proc.wait(15)
        left = gone(workers, 5.0)
    finally:
        server.stop()
    assert not left, [command(p) for p in left]
    log = (tmp_path / "server.log").read_text()
    assert "leaked semaphore" not in log and "Traceback" not in log, log[-2000:]


# --- hint slots -----------------------------------------------------------------------------


def test_one_client_cannot_hold_every_hint_slot(tmp_path: Path) -> None:
    """40 sockets of one seat once held all 8 hint slots. Now one seat holds one slot
    (however many sockets it opens) and one address two (however many rooms it has)."""
    settings = Settings(
        db=sqlite_url(tmp_path),
        bot_workers=0,
        rate=1e6,
        http_rate=1e6,
        hints=HintSettings(budget="20s", workers=0),
    )
    with TestClient(create_app(settings)) as client, ExitStack() as stack:
        rooms = [client.post("/api/rooms", json={"game": "p5"}).json() for _ in range(3)]

        def seat_socket(room: dict[str, Any]) -> Any:
            ws = stack.enter_context(client.websocket_connect(f"/ws/{room['room']}"))
            hello(ws, room["invites"][0]["token"])
            return ws

        same_seat = [seat_socket(rooms[0]) for _ in range(6)]
        send(same_seat[0], type="hint", version=0)  # worked out for 20 s
        for ws in same_seat[1:]:
            send(ws, type="hint", version=0)
            answer = ws.receive_json()
            assert answer["code"] == "hint_busy" and "your seat" in answer["message"], answer
        second = seat_socket(rooms[1])
        send(second, type="hint", version=0)  # another seat at this address: a second slot
        third = seat_socket(rooms[2])
        send(third, type="hint", version=0)
        answer = third.receive_json()
        assert answer["code"] == "hint_full" and "your address" in answer["message"], answer
        send(same_seat[0], type="hint_cancel")  # a slot given back is free at once
        assert same_seat[0].receive_json()["type"] == "hint_cancelled"
        send(third, type="hint", version=0)
        send(third, type="ping")
        assert third.receive_json()["type"] == "pong"  # no refusal came before it
        send(second, type="hint_cancel")
        send(third, type="hint_cancel")
        assert second.receive_json()["type"] == third.receive_json()["type"] == "hint_cancelled"


def test_hint_slot_settings_are_checked() -> None:
    with pytest.raises(ConfigError, match="per seat must be 1 or more, not 0"):
        HintSettings(per_seat=0)
    with pytest.raises(ConfigError, match="per address must be 1 or more, not -1"):
        HintSettings(per_address=-1)


# --- velvet serve: its data folder and its shutdown ---------------------------------------


def test_serve_keeps_its_database_in_velvet_data_dir_and_stops_cleanly(tmp_path: Path) -> None:
    """``velvet serve`` once ignored VELVET_DATA_DIR (its database went to the XDG data
    folder) and warned of leaked semaphores when stopped with Ctrl-C."""
    data, xdg, port = tmp_path / "data", tmp_path / "xdg", free_port()
    env = {**os.environ, "VELVET_DATA_DIR": str(data), "XDG_DATA_HOME": str(xdg)}
    command_line = [sys.executable, "-m", "velvet.cli", "serve", "--port", str(port)]
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*command_line, "--bot-workers", "1"], stdout=out, stderr=subprocess.STDOUT, env=env
        )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{url}/healthz", timeout=0.5).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        body = {"game": "vs", "seats": ["human", "random"], "first": "2"}
        assert httpx.post(f"{url}/api/rooms", json=body, timeout=10).status_code == 201
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < 2:  # a bot worker, its tracker
            time.sleep(0.1)
            workers = descendants(proc.pid)
        proc.send_signal(signal.SIGINT)  # Ctrl-C
        proc.wait(20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    output = log.read_text()
    assert (data / "server.sqlite3").is_file(), output
    assert str(data / "server.sqlite3") in output
    assert not xdg.exists()
    assert "leaked semaphore" not in output and "Traceback" not in output, output[-3000:]
    assert not gone(workers, 5.0)


def test_a_capped_budget_stops_at_its_cap_whatever_its_count() -> None:
    meter = Budget(count=10**9).capped(0.2).meter()
    start = time.perf_counter()
    while meter.more() and time.perf_counter() - start < 5:
        pass
    assert time.perf_counter() - start < 1.5, "the cap did not stop the count"
    assert Budget.parse("2s").capped(10).cap == 10 and Budget(seconds=2).capped(1).cap == 1


@pytest.mark.parametrize(
    "text", ["infs", "nans", "inf", "1e3", "1e308s", "1_000", "١٢", "-1", "0x10"]
)
def test_a_budget_is_plain_digits(text: str) -> None:
    with pytest.raises(ConfigError, match="bad budget"):
        Budget.parse(text)


def test_moves_queued_behind_a_stuck_worker_are_still_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Replacing a stuck pool drops the moves still queued in it: they are asked again of
    the new pool, or get the fallback (they once raised CancelledError, which would end
    their room's bot task without a move)."""
    from velvet.server import bots

    monkeypatch.setattr(bots, "DEADLINE_GRACE", -0.2)  # every move is stuck once it runs
    game = room_game("vs", ())
    state = game.new_state(game.default_config(), 7)
    legal = [str(a) for a in state.legal_actions()]
    view = state.view(state.current_player)
    pool = BotPool(1, BotLimits(seconds=0.1, simulations=5000))

    async def play() -> list[str]:
        moves = [pool.choose("vs", (), "mcts:5000", view, legal, seed) for seed in range(4)]
        return await asyncio.gather(*moves)

    try:
        texts = asyncio.run(play())
    finally:
        pool.close()
    assert all(text in legal for text in texts) and pool.replaced >= 1
