"""Two server processes on one PostgreSQL database, moves passed on through Redis
or, without Redis, PostgreSQL LISTEN/NOTIFY.

Each seat of a room is connected to a different process, a spectator to a
third socket; every move made on one process reaches the others.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
from tests.server.conftest import REDIS_URL, LiveServer, ServerProcess, free_port

from velvet.server.app import Settings
from velvet.server.client import Client


async def _play(a: ServerProcess, b: ServerProcess) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=a.url) as http:
        vs = (await http.post("/api/rooms", json={"game": "vs"})).json()
        bot = (
            await http.post("/api/rooms", json={"game": "vs", "seats": ["human", "random"]})
        ).json()
    rng = random.Random(5)
    results: dict[str, Any] = {}

    async def seat(url: str, token: str | None, name: str, moves: bool) -> None:
        client = Client(url, token)
        await client.start()
        versions = []
        errors: list[str] = []
        last_move: tuple[int, str] | None = None
        try:
            while True:
                try:
                    msg = await asyncio.wait_for(client.inbox.get(), 30)
                except TimeoutError:
                    last = client.last_state or {}
                    raise AssertionError(
                        f"{name}: nothing for 30 s after version {last.get('version')}, "
                        f"to move {last.get('to_move')}, legal {len(last.get('legal', []))}, "
                        f"errors {errors[-3:]}"
                    ) from None
                if msg["type"] == "error":
                    errors.append(f"{msg['code']}: {msg['message']}")
                    if msg["code"] == "rate_limited" and last_move is not None:
                        await asyncio.sleep(1.0)  # faster than any person: wait, then again
                        await client.move(*last_move)
                if msg["type"] == "state":
                    versions.append(msg["version"])
                    if moves and msg["legal"] and msg["status"] == "playing":
                        last_move = (msg["version"], rng.choice(msg["legal"])["text"])
                        await client.move(*last_move)
                if msg["type"] == "over":
                    results[name] = (versions, msg["record"]["actions"])
                    return
        finally:
            await client.close()

    ws_a, ws_b = vs["websocket"], vs["websocket"].replace(f":{a.port}", f":{b.port}")
    bot_b = bot["websocket"].replace(f":{a.port}", f":{b.port}")
    await asyncio.wait_for(
        asyncio.gather(
            seat(ws_a, vs["invites"][0]["token"], "seat0", True),
            seat(ws_b, vs["invites"][1]["token"], "seat1", True),
            seat(ws_b, None, "spectator", False),
            seat(bot_b, bot["invites"][0]["token"], "vs_bot", True),
        ),
        timeout=240,
    )
    return results


def test_a_room_split_over_two_processes_plays_to_the_end(tmp_path: Path, pg_url: str) -> None:
    redis = ("--redis", REDIS_URL)
    a = ServerProcess(pg_url, free_port(), tmp_path / "a.log", *redis)
    b = ServerProcess(pg_url, free_port(), tmp_path / "b.log", *redis)
    a.start()
    b.start()
    try:
        results = asyncio.run(_play(a, b))
    finally:
        a.stop()
        b.stop()
    record = results["seat0"][1]
    assert len(record) > 20
    assert results["seat1"][1] == record == results["spectator"][1]
    # the spectator on the other process saw the game advance move by move
    seen = results["spectator"][0]
    assert seen[-1] == len(record) and len(set(seen)) > len(record) // 2
    assert len(results["vs_bot"][1]) > 20


async def _moves_cross_between_apps(a: str, b: str) -> list[tuple[str, dict[str, Any]]]:
    """Seat 0 on ``a``, seat 1 and a spectator on ``b``; moves until each app has passed one on.

    Returns, for each move, the app it was made on and the state the other app's
    clients received for it.
    """
    async with httpx.AsyncClient(base_url=a) as http:
        room = (await http.post("/api/rooms", json={"game": "vs"})).json()
    on_a = room["websocket"]
    on_b = on_a.replace(a.replace("http://", "ws://"), b.replace("http://", "ws://"))
    assert on_b != on_a
    seats = [Client(on_a, room["invites"][0]["token"]), Client(on_b, room["invites"][1]["token"])]
    watcher = Client(on_b, None)
    clients = [*seats, watcher]
    crossed: list[tuple[str, dict[str, Any]]] = []
    try:
        for c in clients:
            await c.start()
        for c in clients:
            await c.settle(-1)
        version = 0
        while {app for app, _ in crossed} != {"a", "b"} and version < 40:
            state = watcher.last_state
            assert state is not None and state["version"] == version
            seat = state["to_move"]
            mover = seats[seat]
            mine = mover.last_state
            assert mine is not None and mine["version"] == version
            await mover.move(version, mine["legal"][0]["text"])
            others = [seats[0]] if seat == 1 else [seats[1], watcher]
            for c in [mover, *others]:
                await c.settle(version, timeout=10)
            version += 1
            for c in others:
                got = c.last_state
                assert got is not None and got["version"] == version, (seat, version, got)
            crossed.append(("a" if seat == 0 else "b", dict(others[0].last_state or {})))
        return crossed
    finally:
        for c in clients:
            await c.close()


def test_postgres_notify_carries_moves_between_two_apps_without_redis(pg_url: str) -> None:
    settings = Settings(db=pg_url, bot_workers=0, rate=1000.0, http_rate=1000.0)
    with LiveServer(settings) as a, LiveServer(settings) as b:
        crossed = asyncio.run(_moves_cross_between_apps(a.url, b.url))
    assert {app for app, _ in crossed} == {"a", "b"}
    for n, (_, state) in enumerate(crossed, start=1):
        assert state["version"] == n and state["events"]


async def _until(client: Client, check: Any, timeout: float = 10.0) -> dict[str, Any]:
    """The client's latest state once ``check(state)`` holds (fails after ``timeout``)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        state = client.last_state
        if state is not None and check(state):
            return state
        await asyncio.sleep(0.02)
    raise AssertionError(f"no such state within {timeout} s; last: {client.last_state}")


async def _undo_asked_on_one_app_agreed_on_the_other(a: str, b: str) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(base_url=a) as http:
        room = (await http.post("/api/rooms", json={"game": "vs", "first": "1"})).json()
    on_a = room["websocket"]
    on_b = on_a.replace(a.replace("http://", "ws://"), b.replace("http://", "ws://"))
    first = Client(on_a, room["invites"][0]["token"])
    second = Client(on_b, room["invites"][1]["token"])
    try:
        for c in (first, second):
            await c.start()
        start = await _until(first, lambda s: s["version"] == 0 and s["legal"])
        await first.move(0, start["legal"][0]["text"])  # ends the Planning: no secret shown
        await _until(second, lambda s: s["version"] == 1)
        await first.send({"type": "undo", "version": 1})  # a request, made on app a
        asked = await _until(second, lambda s: s["undo_asked"] == 0)  # heard on app b
        await second.send({"type": "undo", "version": 1})  # agreed on app b
        back = await _until(first, lambda s: s["version"] == 2)
        return [start, asked, back]
    finally:
        for c in (first, second):
            await c.close()


def test_an_undo_request_reaches_the_other_seat_on_another_process(pg_url: str) -> None:
    settings = Settings(db=pg_url, bot_workers=0, rate=1000.0, http_rate=1000.0)
    with LiveServer(settings) as a, LiveServer(settings) as b:
        start, asked, back = asyncio.run(_undo_asked_on_one_app_agreed_on_the_other(a.url, b.url))
    assert asked["version"] == 1 and asked["undo"] is True  # the other seat may agree
    assert "Player 1 asks to take back" in asked["events"][0]["text"]
    assert back["view"] == start["view"] and back["undo_asked"] is None
    assert back["events"][0]["text"] == "Player 1 takes back 1 move."
