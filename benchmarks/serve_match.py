#!/usr/bin/env python
"""Quick pairing under load on `velvet serve`, and the memory of idle seats.

``match`` mode: N players (default 500) each join a game's quick-pair queue
(``POST /api/queue``), poll their ticket every second or so as the browser does,
and when paired open their seat over a real WebSocket and play the game out
with random legal moves; then they queue again. With ``--accounts`` (the
default) every player is a signed-in account and queues rated: the accounts are
made in the server's database before it starts (every client here is one
address, and the server limits sign-ups per address), each with its own session
cookie. Measured over ``--seconds`` after ``--warmup``: the wait from joining
to being paired (median and p90), pairs made per second, moves per second, and
the move latency (a move sent to the acknowledging view, p50 and p99).

``idle`` mode: N seats (default 5000) of N/2 rooms open their sockets, say
hello, and then sit; the server's resident memory before and after, over N, is
the memory one connected idle seat costs.

    python benchmarks/serve_match.py match --players 500 --seconds 60
    python benchmarks/serve_match.py idle --seats 5000

One server process on SQLite (``--db`` for another URL). All traffic goes to
127.0.0.1. The figures are the machine's own: docs/benchmarks.md gives them
with the load they were measured under.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).parent))
from serve_load import start_server

PASSWORD = "bench-password-0123"
MIN_THINK = 1 / 16
"""Seconds a player waits at least before a move: a socket may send 20 messages a second
(``Settings.rate``), and an answer at once to every view of a fast game goes past it."""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rss_kib(pid: int) -> int:
    """The resident memory of process ``pid`` (Linux /proc), in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def make_sessions(db: str, players: int) -> list[str]:
    """``players`` accounts in the database at ``db`` (migrated first), a session each.

    One password hash serves them all (argon2 is slow on purpose: 500 hashes would take
    minutes, and no sign-in happens here)."""
    from sqlalchemy import insert

    from velvet.server import accounts as tables
    from velvet.server.accounts import Account, Accounts
    from velvet.server.storage import Storage, migrate

    storage = Storage(db, 5000)
    migrate(storage.engine)
    hashed = tables._HASHER.hash(PASSWORD)
    try:
        with storage._tx() as c:
            rows = [
                {
                    "name": f"bench{n:05d}",
                    "name_key": f"bench{n:05d}",
                    "password_hash": hashed,
                    "created": time.time(),
                }
                for n in range(players)
            ]
            ids = c.execute(insert(tables.accounts).returning(tables.accounts.c.id), rows)
            names = [str(r["name"]) for r in rows]
            made = [Account(int(i), n) for i, n in zip(ids.scalars(), names, strict=True)]
        return [Accounts(storage).new_session(account) for account in made]
    finally:
        storage.close()


class Match:
    def __init__(self, port: int, args: argparse.Namespace, sessions: list[str]) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.ws_base = f"ws://127.0.0.1:{port}"
        self.args = args
        self.sessions = sessions
        self.measuring = False
        self.stop = False
        self.waits: list[float] = []
        self.latencies: list[float] = []
        self.paired = 0
        self.moves = 0
        self.games = 0
        self.errors: list[str] = []
        self.bot_offers = 0

    def error(self, text: str) -> None:
        if len(self.errors) < 1000:
            self.errors.append(text)

    async def player(self, n: int) -> None:
        rng = random.Random(n)
        cookies = {"velvet_session": self.sessions[n]} if self.sessions else {}
        headers = {"Cookie": f"velvet_session={self.sessions[n]}"} if self.sessions else {}
        limits = httpx.Limits(max_connections=2)
        async with httpx.AsyncClient(
            base_url=self.base, cookies=cookies, limits=limits, timeout=60
        ) as http:
            await asyncio.sleep(rng.random() * self.args.ramp)
            while not self.stop:
                joined = time.perf_counter()
                answer = await http.post(
                    "/api/queue", json={"game": self.args.game, "rated": bool(self.sessions)}
                )
                if answer.status_code != 201:
                    self.error(f"queue {answer.status_code}: {answer.text[:200]}")
                    await asyncio.sleep(1 + rng.random())
                    continue
                ticket = answer.json()
                status: dict[str, Any] = {}
                offered = False
                while not self.stop:
                    await asyncio.sleep(rng.uniform(0.8, 1.2))  # the lobby polls about 1/s
                    got = await http.get(f"/api/queue/{ticket['ticket']}")
                    if got.status_code != 200:
                        self.error(f"poll {got.status_code}: {got.text[:200]}")
                        break
                    status = got.json()
                    if status.get("bot") and not offered:
                        offered = True
                        if self.measuring:
                            self.bot_offers += 1
                    if status["state"] != "waiting":
                        break
                if self.stop or status.get("state") != "paired":
                    continue
                if self.measuring:
                    self.waits.append(time.perf_counter() - joined)
                    self.paired += 1
                await self.play(status["room"], ticket["secret"], headers, rng)

    async def play(
        self, room: str, secret: str, headers: dict[str, str], rng: random.Random
    ) -> None:
        async with connect(
            f"{self.ws_base}/ws/{room}",
            compression=None,
            additional_headers=headers,
            open_timeout=60,
            max_size=2**24,
        ) as ws:
            await ws.send(json.dumps({"v": 1, "type": "hello", "token": secret}))
            sent_at = 0.0
            async for raw in ws:
                msg = json.loads(raw)
                kind = msg["type"]
                if kind == "over":
                    self.games += 1
                    return
                if self.stop:
                    return
                if kind == "error":
                    self.error(f"ws {msg.get('code')}: {msg.get('message', '')[:200]}")
                    continue
                if kind != "state":
                    continue
                if msg.get("ack") and self.measuring:
                    self.latencies.append(time.perf_counter() - sent_at)
                    self.moves += 1
                if msg["legal"] and msg["status"] == "playing":
                    action = rng.choice(msg["legal"])["text"]
                    await asyncio.sleep(MIN_THINK)
                    sent_at = time.perf_counter()
                    await ws.send(
                        json.dumps(
                            {"v": 1, "type": "move", "version": msg["version"], "action": action}
                        )
                    )

    async def run(self) -> dict[str, Any]:
        tasks = [asyncio.create_task(self.player(n)) for n in range(self.args.players)]
        await asyncio.sleep(self.args.warmup)
        self.measuring = True
        start = time.perf_counter()
        await asyncio.sleep(self.args.seconds)
        self.measuring = False
        elapsed = time.perf_counter() - start
        self.stop = True
        await asyncio.sleep(0)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return {
            "players": self.args.players,
            "rated": bool(self.sessions),
            "seconds": round(elapsed, 1),
            "paired_tickets": self.paired,
            "pairs_per_s": round(self.paired / 2 / elapsed, 2),
            "wait_p50_s": round(statistics.median(self.waits), 2) if self.waits else None,
            "wait_p90_s": round(percentile(self.waits, 0.9), 2) if self.waits else None,
            "moves_per_s": round(self.moves / elapsed, 1),
            "move_p50_ms": round(1000 * statistics.median(self.latencies), 1)
            if self.latencies
            else None,
            "move_p99_ms": round(1000 * percentile(self.latencies, 0.99), 1)
            if self.latencies
            else None,
            "games_over": self.games,
            "bot_offers": self.bot_offers,
            "errors": len(self.errors),
            "first_errors": self.errors[:5],
        }


async def idle(port: int, pid: int, seats: int, game: str) -> dict[str, Any]:
    """Open ``seats`` seat sockets of two-seat rooms, say hello on each, and measure."""
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", limits=limits, timeout=60
    ) as http:
        rooms = []
        for _ in range(seats // 2):
            made = await http.post(
                "/api/rooms", json={"game": game, "seats": ["human", "human"], "listed": False}
            )
            made.raise_for_status()
            rooms.append(made.json())
        await asyncio.sleep(1)
        before = rss_kib(pid)
        sockets = []
        gate = asyncio.Semaphore(100)

        async def open_one(room: dict[str, Any], invite: dict[str, Any]) -> None:
            async with gate:
                ws = await connect(
                    f"ws://127.0.0.1:{port}/ws/{room['room']}",
                    compression=None,
                    open_timeout=120,
                    max_size=2**24,
                )
                await ws.send(json.dumps({"v": 1, "type": "hello", "token": invite["token"]}))
                welcome = json.loads(await ws.recv())
                if welcome["type"] != "welcome":
                    raise RuntimeError(f"no welcome: {welcome}")
                sockets.append(ws)

        await asyncio.gather(*(open_one(r, i) for r in rooms for i in r["invites"]))
        await asyncio.sleep(3)  # let the views go out and the server settle
        after = rss_kib(pid)
        for ws in sockets:
            await ws.close()
    return {
        "seats": len(sockets),
        "rooms": len(rooms),
        "rss_before_mib": round(before / 1024, 1),
        "rss_after_mib": round(after / 1024, 1),
        "kib_per_seat": round((after - before) / max(1, len(sockets)), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=["match", "idle"], help="what to measure")
    parser.add_argument("--game", default="vs", help="a two-player game (default vs)")
    parser.add_argument("--players", type=int, default=500, help="match: players (default 500)")
    parser.add_argument(
        "--no-accounts",
        dest="accounts",
        action="store_false",
        help="match: anonymous players in the unrated queue (default: signed-in accounts, rated)",
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="match: measured time")
    parser.add_argument("--warmup", type=float, default=20.0, help="match: seconds before")
    parser.add_argument(
        "--ramp", type=float, default=10.0, help="match: players join over this many seconds"
    )
    parser.add_argument("--seats", type=int, default=5000, help="idle: seats (default 5000)")
    parser.add_argument("--db", help="the server's database URL (default: a new SQLite file)")
    parser.add_argument("--json", dest="as_json", action="store_true", help="print JSON only")
    args = parser.parse_args(argv)
    if args.players < 2 or args.seats < 2:
        parser.error("--players and --seats must be 2 or more")
    with tempfile.TemporaryDirectory(prefix="velvet-match-") as tmp:
        folder = Path(tmp)
        db = args.db or f"sqlite:///{folder / 'bench.sqlite3'}"
        sessions: list[str] = []
        if args.mode == "match" and args.accounts:
            began = time.perf_counter()
            sessions = make_sessions(db, args.players)
            if not args.as_json:
                print(
                    f"{len(sessions)} accounts made in {time.perf_counter() - began:.0f} s",
                    flush=True,
                )
        # every client is one address here: lift the server's per-address room rate too
        lift = ["--rooms-per-second", "100000", "--max-rooms", str(max(2000, args.seats))]
        lift += ["--max-connections", str(max(4096, args.seats + args.players + 200))]
        proc, port = start_server(db, folder / "server.log", *lift)
        try:
            if args.mode == "match":
                result = asyncio.run(Match(port, args, sessions).run())
            else:
                result = asyncio.run(idle(port, proc.pid, args.seats, args.game))
        except BaseException:
            log = (folder / "server.log").read_text(errors="replace")
            print(f"the server's log ends:\n{log[-3000:]}", file=sys.stderr)
            raise
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
    if args.as_json:
        print(json.dumps(result))
    elif args.mode == "match":
        r = result
        print(
            f"{r['players']} players ({'rated, accounts' if r['rated'] else 'anonymous'}), "
            f"{r['seconds']} s: paired wait p50 {r['wait_p50_s']} s, p90 {r['wait_p90_s']} s; "
            f"{r['pairs_per_s']} pairs/s; {r['moves_per_s']} moves/s, move latency p50 "
            f"{r['move_p50_ms']} ms, p99 {r['move_p99_ms']} ms; {r['games_over']} games over, "
            f"{r['bot_offers']} bot offers, {r['errors']} errors {r['first_errors']}"
        )
    else:
        r = result
        print(
            f"{r['seats']} idle seats in {r['rooms']} rooms: server RSS {r['rss_before_mib']} "
            f"→ {r['rss_after_mib']} MiB, {r['kib_per_seat']} KiB a seat"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
