#!/usr/bin/env python
"""Persona VS deck balance: each built-in deck against each other, sides swapped.

Every pairing of the built-in decks (p5, p4, p3) is played with both seat
orders, the same bot in both seats and the first player drawn at random
(``first_player`` null, VS-SETUP-4); ``--second-draws N`` gives the second
player N more cards at set-up (the first-player offset). It prints each pairing's win rate for
its first-named deck with a 95% Wilson interval, and the first player's rate.
A draw (the turn cap) counts half a win to each deck.

    python benchmarks/deck_balance.py --games 400 --seed 11 --workers 2
    python benchmarks/deck_balance.py --games 60 --bot normal --workers 2
    python benchmarks/deck_balance.py --games 100 --bot normal --second-draws 1
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from velvet.bots import make_bot
from velvet.engine.errors import VelvetError
from velvet.sim.results import ResultStore
from velvet.sim.run import run_sim
from velvet.sim.stats import wilson
from velvet.vs.game import load_vs_game

DECKS = ("p5", "p4", "p3")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="bots: random | greedy[:N] | ismcts[:N|:Ss] | easy | normal | hard",
    )
    parser.add_argument(
        "--games", type=int, default=400, help="games per pairing, half in each seat order"
    )
    parser.add_argument("--seed", type=int, default=11, help="base seed")
    parser.add_argument("--bot", default="greedy", help="the bot in both seats (default greedy)")
    parser.add_argument("--workers", type=int, default=None, help="processes (default all)")
    parser.add_argument(
        "--second-draws",
        type=int,
        default=0,
        choices=(0, 1, 2),
        help="offset for going first: extra set-up cards for the second player (default 0)",
    )
    parser.add_argument(
        "--keep",
        type=Path,
        default=None,
        help="keep the results in this new folder (one run per pairing and seat order; "
        "`velvet report --combine KEEP/*` pools them)",
    )
    return parser.parse_args(argv)


def play(a: str, b: str, games: int, seed: int, args: argparse.Namespace, root: Path) -> list[Any]:
    """Play ``games`` games of deck ``a`` (seat 0) against deck ``b`` (seat 1); the rows."""
    config = load_vs_game().default_config(a, b)
    config["first_player"] = None
    if args.second_draws:
        config["second_draws"] = args.second_draws
    out = root / f"{a}-{b}"
    run_sim(
        "vs",
        games,
        [args.bot, args.bot],
        config,
        seed,
        out,
        workers=args.workers,
        progress=False,
    )
    return ResultStore(out).load_rows()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.games < 2:
        print("error: --games must be at least 2 (one game per seat order)", file=sys.stderr)
        return 2
    if args.keep is not None and args.keep.exists() and any(args.keep.iterdir()):
        # run_sim resumes a directory by its config alone, not by card texts: start afresh
        print(f"error: --keep {args.keep} is not empty; give a new folder", file=sys.stderr)
        return 2
    try:
        make_bot(args.bot, "vs")  # a bad spec fails before any game is played
    except VelvetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    began = time.perf_counter()
    print(
        f"vs deck balance: {args.bot} vs {args.bot}, {args.games} games per pairing, "
        f"seed {args.seed}"
        + (f", second player +{args.second_draws} card(s)" if args.second_draws else "")
    )
    print(f"{'pairing':<10}{'first deck wins [95% CI]':>34}{'draws':>7}{'errors':>8}")
    first_wins, first_n = 0.0, 0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            root = args.keep or Path(tmp)
            for k, (a, b) in enumerate(itertools.combinations(DECKS, 2)):
                half = args.games // 2
                seed = args.seed * 1000 + 10 * k
                rows = play(a, b, half, seed, args, root)
                rows += play(b, a, args.games - half, seed + 1, args, root)
                wins, n, draws, errors = 0.0, 0, 0, 0
                for row in rows:
                    if row.get("error"):
                        errors += 1
                        continue
                    seat_a = 0 if row["deck_0"] == a else 1
                    wins += float(row[f"return_{seat_a}"])
                    n += 1
                    draws += row.get("winner") is None
                    first = row.get("first_player")
                    if isinstance(first, int):
                        first_wins += float(row[f"return_{first}"])
                        first_n += 1
                rate = wilson(wins, n)
                print(f"{a + ' v ' + b:<10}{rate!s:>34}{draws:>7}{errors:>8}")
    except VelvetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{'first player':<10}{wilson(first_wins, first_n)!s:>34}")
    print(f"({time.perf_counter() - began:.0f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
