#!/usr/bin/env python
"""The full balance check: `normal` bots, 40 solo games per P5 palace, 200 per VS pairing.

The same check as `velvet balance check --full` (velvet.sim.balance), with a
timing line; the bands and the reference runs behind them are in
src/velvet/data/balance.toml. A P5 `normal` game takes a few seconds and a VS one
about ten on one shared core, so the whole profile takes well over an hour;
`--only` runs one palace or pairing.

    python benchmarks/balance_check.py --only kamoshida
    python benchmarks/balance_check.py --profile short --game p5 --cards my-cards.toml
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from velvet.engine.errors import VelvetError
from velvet.sim.balance import BANDS_FILE, PROFILES, Outcome, check


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", choices=PROFILES, default="full")
    parser.add_argument("--game", default=None, help="one game only (a game with bands)")
    parser.add_argument("--cards", action="append", default=[], help="custom card file")
    parser.add_argument("--bands", type=Path, default=BANDS_FILE, help="bands file")
    parser.add_argument("--only", action="append", default=[], help="palace or pairing")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    began = time.perf_counter()

    def show(outcome: Outcome) -> None:
        print(outcome.line(), flush=True)

    try:
        outcomes = check(
            args.profile, args.cards, args.bands, args.only, progress=show, game=args.game
        )
    except VelvetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    failed = [o.entry.subject for o in outcomes if not o.ok]
    print(
        f"{len(outcomes) - len(failed)} of {len(outcomes)} inside their band"
        + (f"; outside: {', '.join(failed)}" if failed else "")
        + f" ({time.perf_counter() - began:.0f}s)"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
