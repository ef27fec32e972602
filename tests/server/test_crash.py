"""Nothing lost: SIGKILL the server at random moments, restart it, check every acknowledged move.

Real server processes (``velvet serve``) on SQLite and on PostgreSQL; the players
are reference clients that reconnect by themselves. CI kills each server
``VELVET_KILLS`` times (default 3 per database); the full run of the issue is
``VELVET_KILLS=50`` (100 kills over both databases).
"""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select
from tests.server.conftest import ServerProcess, free_port, sqlite_url

from velvet.server.accounts import Accounts
from velvet.server.client import Client
from velvet.server.daily import daily_rows
from velvet.server.storage import Storage, seats

KILLS = int(os.environ.get("VELVET_KILLS", "3"))
ROOMS = 6


async def _seat(
    client: Client,
    room: str,
    seat: int,
    rng: random.Random,
    sent: dict[tuple[str, int], set[str]],
    acked: dict[tuple[str, int], str],
    stop: asyncio.Event,
) -> None:
    while not stop.is_set():
        try:
            msg = await asyncio.wait_for(client.inbox.get(), 0.2)
        except TimeoutError:
            continue
        if msg["type"] != "state":
            continue
        version = msg["version"]
        if msg["ack"]:
            assert msg["acked"] in sent[room, version - 1]
            acked[room, version] = msg["acked"]
        if msg["legal"] and msg["status"] == "playing":
            action = rng.choice(msg["legal"])["text"]
            sent.setdefault((room, version), set()).add(action)
            await client.move(version, action)


async def _run(server: ServerProcess, kills: int) -> dict[str, Any]:
    rng = random.Random(kills)
    cookies: dict[int, str] = {}
    async with httpx.AsyncClient(base_url=server.url) as http:
        for seat, name in enumerate(("Ada", "Bob")):  # the rated room's two accounts
            answer = await http.post(
                "/api/account/signup", json={"name": name, "password": "correct horse"}
            )
            assert answer.status_code == 201, answer.text
            cookies[seat] = f"velvet_session={answer.cookies['velvet_session']}"
            http.cookies.clear()
        rooms = []
        for n in range(ROOMS):
            body: dict[str, Any] = {"game": "vs"} if n % 2 else {"game": "p5", "players": 2}
            if n == ROOMS - 1:
                body = {"game": "vs", "seats": ["human", "random"]}
            rooms.append((await http.post("/api/rooms", json=body)).json())
        rated = (await http.post("/api/rooms", json={"game": "vs", "rated": True})).json()
        rooms.append(rated)
        daily = (await http.post("/api/daily/p5")).json()  # today's daily challenge
        ws = server.url.replace("http://", "ws://", 1)
        rooms.append(
            {
                "room": daily["room"],
                "websocket": f"{ws}/ws/{daily['room']}",
                "invites": [{"seat": 0, "token": daily["secret"]}],
            }
        )
    sent: dict[tuple[str, int], set[str]] = {}
    acked: dict[tuple[str, int], str] = {}
    stop = asyncio.Event()
    clients: list[Client] = []
    tasks = []
    resigner: Client | None = None
    for room in rooms:
        for invite in room["invites"]:
            cookie = cookies[invite["seat"]] if room is rated else None
            client = Client(
                room["websocket"], invite["token"], retry=0.05, max_retry=0.3, cookie=cookie
            )
            if room is rated and invite["seat"] == 1:
                resigner = client
            await client.start()
            clients.append(client)
            tasks.append(
                asyncio.create_task(
                    _seat(client, room["room"], invite["seat"], rng, sent, acked, stop)
                )
            )
    welcomes: list[int] = []
    for n in range(kills):
        await asyncio.sleep(rng.uniform(0.1, 1.0))
        if n == 0 and resigner is not None:  # the rated game ends as the server is killed
            await resigner.send({"type": "resign"})
            await asyncio.sleep(rng.uniform(0.0, 0.05))
        server.kill()
        welcomes = [c.welcomes for c in clients]
        await asyncio.sleep(rng.uniform(0.0, 0.2))
        await asyncio.to_thread(server.start)
    for _ in range(100):  # every client comes back by itself after the last restart
        if all(c.welcomes > w for c, w in zip(clients, welcomes, strict=True)):
            break
        await asyncio.sleep(0.1)
    back = sum(c.welcomes > w for c, w in zip(clients, welcomes, strict=True))
    if resigner is not None:  # if the kill came before the resignation was taken: again
        await resigner.send({"type": "resign"})
    await asyncio.sleep(1.0)  # play on
    stop.set()
    await asyncio.gather(*tasks)
    reconnects = [c.reconnects for c in clients]
    for client in clients:
        await client.close()
    return {
        "daily": daily["room"],
        "rated": rated["room"],
        "rooms": [r["room"] for r in rooms],
        "acked": acked,
        "back": back,
        "clients": len(clients),
        "reconnects": reconnects,
    }


def _check(db: str, tmp_path: Path) -> None:
    server = ServerProcess(db, free_port(), tmp_path / "server.log")
    server.start()
    try:
        outcome = asyncio.run(_run(server, KILLS))
    finally:
        server.stop()
    storage = Storage(db)
    try:
        _check_accounts(storage, outcome["rated"])
        with storage.engine.connect() as c:  # the daily game's row outlived the kills
            row = c.execute(select(daily_rows).where(daily_rows.c.room == outcome["daily"])).first()
            assert row is not None and row.game == "p5"
        acked: dict[tuple[str, int], str] = outcome["acked"]
        for room in outcome["rooms"]:
            loaded = storage.load_room(room)
            assert loaded is not None, f"room {room} was lost"
            _, actions = loaded
            for (name, version), action in acked.items():
                if name == room:
                    assert len(actions) >= version, f"{room}: acknowledged move {version} lost"
                    assert actions[version - 1] == action, f"{room}: move {version} differs"
    finally:
        storage.close()
    assert len(acked) > 10 * KILLS / 4, "too few moves were acknowledged to prove anything"
    assert outcome["back"] == outcome["clients"], "not every client came back by itself"
    assert all(n >= KILLS for n in outcome["reconnects"])


def _check_accounts(storage: Storage, rated: str) -> None:
    """The accounts made before the kills sign in; the rated room's seats are bound to
    them; its game (ended by a resignation just before a kill) is recorded and rated once,
    by the process that ended it or the next one to start."""
    accounts = Accounts(storage)
    ada, bob = accounts.sign_in("Ada", "correct horse"), accounts.sign_in("Bob", "correct horse")
    with storage.engine.connect() as c:
        bound = c.execute(
            select(seats.c.account).where(seats.c.room == rated).order_by(seats.c.seat)
        ).scalars()
        assert list(bound) == [ada.id, bob.id]
    assert accounts.pending_ends() == []
    board = accounts.leaderboard()
    assert sorted((p["name"], p["games"]) for p in board) == [("Ada", 1), ("Bob", 1)]
    assert board[0]["name"] == "Ada" and board[0]["rating"] > 1500 > board[1]["rating"]
    profile = accounts.profile("Bob")
    assert profile is not None and [g["result"] for g in profile["games"]] == ["lost"]


def test_sigkill_loses_no_acknowledged_move_on_sqlite(tmp_path: Path) -> None:
    _check(sqlite_url(tmp_path), tmp_path)


def test_sigkill_loses_no_acknowledged_move_on_postgresql(tmp_path: Path, pg_url: str) -> None:
    _check(pg_url, tmp_path)
