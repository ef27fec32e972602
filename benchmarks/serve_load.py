#!/usr/bin/env python
"""Load on `velvet serve`: N concurrent games over real WebSockets, moves/s and latency.

The load generator (this process) keeps N games going: every seat is a client
that answers each view with a random legal move; when a game ends another
starts. Latency is from a move sent to the acknowledging view received. With
``--rate R`` players think between moves so that R moves/s are offered in all
(an open load: latency at that rate); without it they answer at once (a closed
load: the most moves/s the server gives). The server runs as separate
processes, configured per setup:

    sqlite1   one process on SQLite (WAL, synchronous=FULL)
    pg1       one process on PostgreSQL
    pg2       two processes on PostgreSQL + Redis; each game's seats on different processes
    pg2notify two processes on PostgreSQL, moves passed on by LISTEN/NOTIFY (no Redis)

    python benchmarks/serve_load.py --games 200 --seconds 20 --setups sqlite1,pg1,pg2
    python benchmarks/serve_load.py --games 200 --seconds 20 --rate 500

All traffic goes to 127.0.0.1. PostgreSQL (127.0.0.1:5432, database test) and
Redis (127.0.0.1:6379) must answer for the pg setups; tables go to a schema of
their own, dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

PG = os.environ.get("VELVET_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("VELVET_BENCH_REDIS", "redis://127.0.0.1:6379/0")


def cpu_seconds(pids: tuple[int, ...]) -> float:
    """User + system CPU time the processes ``pids`` have used so far (Linux /proc)."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime in clock ticks
    return total / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: str, log: Path, *extra: str) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    command = [sys.executable, "-m", "velvet.cli", "serve", "--port", str(port), "--db", db]
    with log.open("ab") as out:
        proc = subprocess.Popen(
            # every client is this process: lift the per-address limits of a public server
            [
                *command,
                "--bot-workers",
                "0",
                "--per-address",
                "100000",
                "--rooms-per-hour",
                "1000000000",
                "--no-browser",
                *extra,
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server failed: {log.read_text()[-1500:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=0.5).status_code == 200:
                return proc, port
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise SystemExit("server did not start")


class Load:
    def __init__(
        self,
        ports: list[int],
        games: int,
        seconds: float,
        warmup: float,
        rate: float | None,
        pids: tuple[int, ...] = (),
    ) -> None:
        self.ports = ports
        self.pids = pids
        self.think = games / rate if rate else 0.0
        self.games = games
        self.seconds = seconds
        self.warmup = warmup
        self.latencies: list[float] = []
        self.moves = 0
        self.finished = 0
        self.errors = 0
        self.measuring = False
        self.stop = False
        self.playing = 0
        self.playing_at_start = 0

    async def game(self, http: httpx.AsyncClient, n: int) -> None:
        rng = random.Random(n)
        while not self.stop:
            game = "vs" if n % 2 else "p5"
            body: dict[str, Any] = {"game": game, "listed": False}
            if game == "p5":
                body["players"] = 2
            answer = await http.post("/api/rooms", json=body)
            if answer.status_code == 429:  # the server's per-address limit on new rooms
                await asyncio.sleep(0.2 + rng.random() * 0.3)
                continue
            answer.raise_for_status()
            room = answer.json()
            path = f"/ws/{room['room']}"
            seats = []
            for i, invite in enumerate(room["invites"]):
                port = self.ports[i % len(self.ports)]
                ws = await connect(f"ws://127.0.0.1:{port}{path}", compression=None)
                await ws.send(json.dumps({"v": 1, "type": "hello", "token": invite["token"]}))
                seats.append(ws)
            self.playing += 1
            await asyncio.gather(*(self.seat(ws, rng) for ws in seats))
            self.playing -= 1
            for ws in seats:
                await ws.close()
            self.finished += 1

    async def seat(self, ws: ClientConnection, rng: random.Random) -> None:
        sent_at = 0.0
        async for raw in ws:
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "over" or self.stop:
                return
            if kind == "error":
                self.errors += 1
                continue
            if kind != "state":
                continue
            if msg["ack"] and self.measuring:
                self.latencies.append(time.perf_counter() - sent_at)
                self.moves += 1
            if msg["legal"] and msg["status"] == "playing":
                action = rng.choice(msg["legal"])["text"]
                if self.think:
                    await asyncio.sleep(self.think * rng.uniform(0.5, 1.5))
                sent_at = time.perf_counter()
                await ws.send(
                    json.dumps(
                        {"v": 1, "type": "move", "version": msg["version"], "action": action}
                    )
                )

    async def run(self) -> dict[str, float]:
        limits = httpx.Limits(max_connections=50)
        async with httpx.AsyncClient(
            base_url=f"http://127.0.0.1:{self.ports[0]}", limits=limits, timeout=30
        ) as http:
            tasks = [asyncio.create_task(self.game(http, n)) for n in range(self.games)]
            await asyncio.sleep(self.warmup)
            self.measuring = True
            self.playing_at_start = self.playing
            cpu = cpu_seconds(self.pids)
            start = time.perf_counter()
            await asyncio.sleep(self.seconds)
            self.measuring = False
            elapsed = time.perf_counter() - start
            cpu = cpu_seconds(self.pids) - cpu
            self.stop = True
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        lat = sorted(self.latencies) or [float("nan")]
        return {
            "moves_per_s": self.moves / elapsed,
            "p50_ms": 1000 * statistics.median(lat),
            "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))],
            "moves": self.moves,
            "games_finished": self.finished,
            "errors": self.errors,
            "playing": self.playing_at_start,
            "server_cpu_ms_per_move": 1000 * cpu / max(1, self.moves),
        }


def run_setup(name: str, args: argparse.Namespace, folder: Path) -> dict[str, float]:
    procs: list[subprocess.Popen[bytes]] = []
    schema = None
    try:
        if name == "sqlite1":
            db = f"sqlite:///{folder / 'bench.sqlite3'}"
            procs_ports = [start_server(db, folder / "sqlite.log")]
        else:
            import psycopg

            schema = f"velvet_bench_{secrets.token_hex(4)}"
            with psycopg.connect(PG, autocommit=True) as c:
                c.execute(f"CREATE SCHEMA {schema}")
            db = f"{PG}?options=-csearch_path%3D{schema}"
            count = 2 if name.startswith("pg2") else 1
            extra = ("--redis", REDIS) if name == "pg2" else ()
            procs_ports = [
                start_server(db, folder / f"{name}-{i}.log", *extra) for i in range(count)
            ]
        procs = [p for p, _ in procs_ports]
        ports = [port for _, port in procs_ports]
        pids = tuple(p.pid for p in procs)
        load = Load(ports, args.games, args.seconds, args.warmup, args.rate, pids)
        return asyncio.run(load.run())
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        if schema is not None:
            import psycopg

            with psycopg.connect(PG, autocommit=True) as c:
                c.execute(f"DROP SCHEMA {schema} CASCADE")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time per setup")
    parser.add_argument(
        "--warmup",
        type=float,
        default=15.0,
        help="seconds before measuring (the server admits 20 new rooms/s per address, "
        "so 200 games need about 10 s to start)",
    )
    parser.add_argument("--setups", default="sqlite1,pg1,pg2", help="comma-separated setups")
    parser.add_argument(
        "--rate",
        type=float,
        help="offered moves/s over all games (players think games/rate s, ±50 %%, "
        "between moves); default: no thinking, as fast as the server answers",
    )
    args = parser.parse_args(argv)
    setups = args.setups.split(",")
    unknown = set(setups) - {"sqlite1", "pg1", "pg2", "pg2notify"}
    if unknown:
        parser.error(f"unknown setups {sorted(unknown)}: choose from sqlite1, pg1, pg2, pg2notify")
    results = {}
    with tempfile.TemporaryDirectory(prefix="velvet-bench-") as tmp:
        for name in setups:
            results[name] = run_setup(name, args, Path(tmp))
            r = results[name]
            print(
                f"{name:8} {args.games} games: {r['moves_per_s']:7.1f} moves/s  "
                f"p50 {r['p50_ms']:6.1f} ms  p99 {r['p99_ms']:6.1f} ms  "
                f"server CPU {r['server_cpu_ms_per_move']:.2f} ms/move  "
                f"({r['moves']} moves, {r['games_finished']} games over, {r['errors']} errors, "
                f"{r['playing']} games playing when measuring began)",
                flush=True,
            )
    for two in ("pg2", "pg2notify"):
        if "pg1" in results and two in results:
            ratio = results[two]["moves_per_s"] / results["pg1"]["moves_per_s"]
            print(f"two processes ({two}) / one (PostgreSQL): {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
