"""Two server processes on one PostgreSQL database, moves passed on through Redis.

Each seat of a room is connected to a different process, a spectator to a
third socket; every move made on one process reaches the others.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
from tests.server.conftest import REDIS_URL, ServerProcess, free_port

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
