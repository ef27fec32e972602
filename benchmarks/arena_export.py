#!/usr/bin/env python
"""Fold a `velvet arena` folder into one small CSV of its games plus its ratings.json.

Every finished game of every run in the folder becomes one row (run, index, seed, bots,
returns, winner, length, day or turn, palace or decks), so the arena's figures can be
refitted from the committed file (``velvet.sim.arena.fit_bradley_terry``) without the
folder of result chunks.

    python benchmarks/arena_export.py arena-results/vs-seed23 benchmarks/data/arena-vs-seed23
"""

from __future__ import annotations

import argparse
import csv
import shutil
import sys
from pathlib import Path

from velvet.engine.errors import VelvetError
from velvet.sim.arena import ARENA_FILE, RATINGS_FILE
from velvet.sim.results import RUN_FILE, ResultStore

COLUMNS = (
    "run",
    "index",
    "seed",
    "bot_0",
    "bot_1",
    "return_0",
    "return_1",
    "winner",
    "length",
    "turns",
    "first_player",
    "deck_0",
    "deck_1",
    "palace",
    "thief_0",
    "persona_0",
    "error",
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("arena", type=Path, help="a velvet arena --out folder")
    parser.add_argument("target", type=Path, help="writes TARGET.csv and TARGET.json")
    args = parser.parse_args(argv)
    if not (args.arena / ARENA_FILE).is_file():
        print(
            f"error: {args.arena} has no {ARENA_FILE}: not a velvet arena folder", file=sys.stderr
        )
        return 2
    runs = sorted(p for p in args.arena.iterdir() if (p / RUN_FILE).is_file())
    args.target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(args.target.with_suffix(".csv"), "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=COLUMNS, extrasaction="ignore")
            writer.writeheader()
            for run in runs:
                for row in ResultStore(run).load_rows():
                    writer.writerow({"run": run.name, **row})
    except VelvetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if (args.arena / RATINGS_FILE).is_file():
        shutil.copyfile(args.arena / RATINGS_FILE, args.target.with_suffix(".json"))
    print(f"wrote {args.target.with_suffix('.csv')} ({len(runs)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
