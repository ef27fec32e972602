#!/usr/bin/env python
"""Bot strength: win rates with 95% Wilson intervals, sides swapped.

Two-seat games play BOT_A against BOT_B twice over, once in each seat, and
report each bot's win rate per seat and pooled. One-seat or co-op games
(P5) play each bot alone (every seat the same bot) and report its win rate.

    python benchmarks/strength.py vs ismcts:50 random --games 200
    PYTHONPATH=tests/bots python benchmarks/strength.py velvet_toys:DUEL ismcts:50 random
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from velvet.engine.errors import VelvetError
from velvet.games import get_spec
from velvet.sim.run import run_sim
from velvet.sim.stats import Rate, wilson


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="bots: random | greedy[:N] | mcts[:N|:Ss] | "
        "ismcts[:N|:Ss] | easy | normal | hard[:N|:Ss]",
    )
    parser.add_argument("game", help="p5, vs, or package.module:SIMGAME")
    parser.add_argument("bots", nargs="+", metavar="BOT", help="bot specs to compare")
    parser.add_argument("--games", type=int, default=100, help="games per pairing and side")
    parser.add_argument(
        "--seats",
        type=int,
        default=None,
        help="seats per game (default: 2 for two-player games, else 1)",
    )
    parser.add_argument("--config", default=None, help="game configuration as JSON")
    parser.add_argument("--seed", type=int, default=0, help="base seed")
    parser.add_argument("--workers", type=int, default=None, help="processes (default all)")
    return parser.parse_args(argv)


def play(
    game: str, seats: list[str], config: dict[str, Any], args: argparse.Namespace, seed: int
) -> list[Rate]:
    with tempfile.TemporaryDirectory() as tmp:
        summary = run_sim(
            game,
            args.games,
            seats,
            config,
            seed,
            Path(tmp) / "r",
            workers=args.workers,
            progress=False,
        )
    if summary.errors:
        print(f"  warning: {summary.errors} game(s) failed", file=sys.stderr)
    return [wilson(w["wins"], w["n"]) for w in summary.win_rates]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        sim_game = get_spec(args.game)
        loaded = sim_game.load(())
        n_seats = args.seats or (2 if min(loaded.num_players) >= 2 else 1)
        config = json.loads(args.config) if args.config else sim_game.config_for(loaded, n_seats)
        began = time.perf_counter()
        print(f"{args.game}: {args.games} games per side, seed {args.seed}")
        if n_seats == 2:
            if len(args.bots) != 2:
                print("give exactly two bots for a two-seat game", file=sys.stderr)
                return 2
            a, b = args.bots
            first = play(args.game, [a, b], config, args, args.seed)
            second = play(args.game, [b, a], config, args, args.seed + 1)
            print(f"{'bot':<16}{'as seat 0':>32}{'as seat 1':>32}{'pooled':>32}")
            for name, r0, r1 in ((a, first[0], second[1]), (b, second[0], first[1])):
                pooled = wilson(r0.wins + r1.wins, r0.n + r1.n)
                print(f"{name:<16}{r0!s:>32}{r1!s:>32}{pooled!s:>32}")
        else:
            print(f"{'bot':<16}{'win rate [95% CI]':>32}")
            for bot in args.bots:
                rate = play(args.game, [bot] * n_seats, config, args, args.seed)[0]
                print(f"{bot:<16}{rate!s:>32}")
        print(f"({time.perf_counter() - began:.1f}s)")
    except (VelvetError, json.JSONDecodeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
