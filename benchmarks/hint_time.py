#!/usr/bin/env python
"""How long a server hint takes at a budget, and what it costs another room's moves.

Part 1 times ``velvet.server.hinting.work_hint`` (what a hint worker runs) on
``--positions`` positions per game, taken every few moves of random games, for each
``--budget``: the median and slowest time, and how many of the search's simulations
went to the three choices shown (the rest went to the other choices).

Part 2 (``--latency``) runs the server app in this process, asks for a hint of
``--latency-budget`` in one room and meanwhile makes ``--moves`` moves in another
room, once with the hint in a worker process (``hint_workers=1``, the default) and
once in a thread of the server's process (``hint_workers=0``); it prints each
round's move times and the ratio of their medians, both measured in this run.

    python benchmarks/hint_time.py --budget 400 --budget 1.5s
    python benchmarks/hint_time.py --latency
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from velvet.engine.core import State
from velvet.engine.rng import Rng
from velvet.server import games
from velvet.server.hinting import HintSettings, work_hint
from velvet.server.protocol import CreateRoom


def positions(game_name: str, count: int, seed: int) -> list[State[Any]]:
    """``count`` positions of random games: one every 7 moves, a new game when one ends."""
    game = games.room_game(game_name, ())
    config = games.build_config(game, CreateRoom(game=game_name))
    rng = Rng(seed)
    out: list[State[Any]] = []
    state = game.new_state(config, rng.randbelow(1 << 62))
    step = 0
    while len(out) < count:
        if state.is_terminal():
            state = game.new_state(config, rng.randbelow(1 << 62))
        legal = state.legal_actions()
        if step % 7 == 3 and len(legal) > 1:
            out.append(state.clone())
        state.apply_unchecked(legal[rng.randbelow(len(legal))])
        step += 1
    return out


def time_hints(budgets: list[str], count: int, seed: int) -> None:
    for game_name in ("p5", "vs"):
        states = positions(game_name, count, seed)
        for budget in budgets:
            answers = [work_hint(s, s.current_player, budget) for s in states]
            took = [a["seconds"] for a in answers]
            shown = [sum(h["visits"] for h in a["hints"]) for a in answers]
            print(
                f"{game_name} hint budget {budget}: median {statistics.median(took):.2f} s, "
                f"slowest {max(took):.2f} s over {len(took)} positions; median "
                f"{statistics.median(shown):.0f} simulations behind the three choices shown"
            )


def latency(budget: str, moves: int) -> None:
    from fastapi.testclient import TestClient

    from velvet.server.app import Settings, create_app

    medians = {}
    for workers in (1, 0):
        with tempfile.TemporaryDirectory() as folder:
            settings = Settings(
                db=f"sqlite:///{Path(folder) / 'bench.sqlite3'}",
                bot_workers=0,
                rate=1000,
                http_rate=1000,
                hints=HintSettings(budget=budget, workers=workers),
            )
            with TestClient(create_app(settings)) as client:
                waits = _round(client, moves)
        medians[workers] = statistics.median(waits)
        where = "a worker process" if workers else "a thread of the server"
        shown = ", ".join(f"{w * 1000:.0f}" for w in waits)
        print(f"hint in {where}: moves in another room took {shown} ms")
    ratio = medians[0] / medians[1] if medians[1] else float("nan")
    print(f"median move time, hint in a thread / hint in a process: {ratio:.2f}")


def _round(client: Any, moves: int) -> list[float]:
    def room() -> tuple[Any, dict[str, Any]]:
        made = client.post("/api/rooms", json={"game": "p5"}).json()
        ws = client.websocket_connect(f"/ws/{made['room']}").__enter__()
        ws.send_text(json.dumps({"v": 1, "type": "hello", "token": made["invites"][0]["token"]}))
        ws.receive_json()
        return ws, ws.receive_json()

    def until(ws: Any, kind: str) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = ws.receive_json()
            if message["type"] == kind:
                return message

    a, state_a = room()
    b, state_b = room()
    ask = {"v": 1, "type": "hint", "version": state_a["version"]}
    a.send_text(json.dumps(ask))  # the first hint starts the worker
    until(a, "hint")
    a.send_text(json.dumps(ask))
    time.sleep(0.2)
    waits = []
    for _ in range(moves):
        legal = state_b["legal"]
        if not legal:
            break
        began = time.perf_counter()
        move = {"v": 1, "type": "move", "version": state_b["version"], "action": legal[0]["text"]}
        b.send_text(json.dumps(move))
        state_b = until(b, "state")
        waits.append(time.perf_counter() - began)
    until(a, "hint")
    a.__exit__(None, None, None)
    b.__exit__(None, None, None)
    return waits


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", action="append", help="hint budget (repeat; default 1.5s)")
    parser.add_argument("--positions", type=int, default=8, help="positions per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--latency", action="store_true", help="part 2 instead of part 1")
    parser.add_argument("--latency-budget", default="4s")
    parser.add_argument("--moves", type=int, default=10)
    args = parser.parse_args(argv)
    if args.latency:
        latency(args.latency_budget, args.moves)
    else:
        time_hints(args.budget or ["1.5s"], args.positions, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
