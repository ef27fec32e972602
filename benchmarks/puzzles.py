"""Generate the built-in puzzles (docs/learn.md, "Puzzles"): mine games of the easy bot
against itself for positions with one clearly best move, verified from the mover's view.

    PYTHONPATH=src python benchmarks/puzzles.py GAME COUNT --seed S [--min-gap G] [--out DIR]
    PYTHONPATH=src python benchmarks/puzzles.py GAME 0 --recheck [--min-gap G]

Reproducible: the same seed (and code) gives the same files. Prints the time it took.
``--recheck`` judges every built-in puzzle of GAME again under today's code and calibration
maps (with ``--min-gap`` as it was made with: 0.01 for P5) and says how many still pass.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from velvet.games import get_game
from velvet.learn.puzzles import MIN_GAP, Settings, judge_position, load_puzzles, write_puzzles


def recheck(game_name: str, settings: Settings) -> None:
    """Judge every built-in puzzle again; print how many still pass and why the others fail."""
    started = time.perf_counter()
    puzzles = load_puzzles(get_game(game_name))
    passed, failed = 0, dict[str, int]()
    for puzzle in puzzles:
        verdict = judge_position(puzzle.start(), puzzle.seat, settings)
        if verdict.ok and verdict.best is not None and str(verdict.best.action) == puzzle.answer:
            passed += 1
        else:
            why = verdict.reason.split(":")[0]
            failed[why] = failed.get(why, 0) + 1
    took = time.perf_counter() - started
    print(f"{passed} of {len(puzzles)} {game_name} puzzles still pass in {took:.0f} s; {failed}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("count", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first", type=int, default=1, help="number of the first file")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--bot", default="easy")
    parser.add_argument("--min-gap", type=float, default=MIN_GAP, help="in chance to win")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--recheck", action="store_true", help="judge the built-in ones again")
    args = parser.parse_args()
    if args.recheck:
        recheck(args.game, Settings(min_gap=args.min_gap))
        return
    out = args.out or Path(__file__).parents[1] / "src/velvet/data/puzzles" / args.game
    started = time.perf_counter()
    written = write_puzzles(
        get_game(args.game),
        out,
        args.count,
        args.seed,
        args.bot,
        Settings(min_gap=args.min_gap),
        first=args.first,
        progress=None if args.quiet else lambda line: print(line, flush=True),
    )
    took = time.perf_counter() - started
    print(f"{len(written)} puzzles of {args.game} in {took:.0f} s (seed {args.seed})")


if __name__ == "__main__":
    main()
