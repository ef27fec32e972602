#!/usr/bin/env python
"""Simulation throughput: games/s with 1 and 2 processes, and Ray (local) vs the pool.

Ray is measured twice: ``ray`` starts and stops Ray inside the timed job (what
one ``velvet sim --backend ray`` costs), ``ray-warm`` runs on a Ray started and
warmed up beforehand (what a job on a running cluster costs).

    python benchmarks/scaling.py vs --games 200 --seat random --seat random
    PYTHONPATH=tests/bots python benchmarks/scaling.py velvet_toys:DUEL --seat ismcts:20 \
        --seat random --games 400
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from velvet.engine.errors import VelvetError
from velvet.games import get_spec
from velvet.sim.run import run_sim, start_local_ray


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="p5, vs, or package.module:SIMGAME")
    parser.add_argument(
        "--seat",
        action="append",
        default=None,
        metavar="BOT",
        help="bot per seat (repeat); default random in each seat",
    )
    parser.add_argument("--games", type=int, default=200, help="games per measurement")
    parser.add_argument(
        "--workers",
        type=int,
        nargs="+",
        default=[1, 2],
        help="process counts to measure (default 1 2)",
    )
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray measurement")
    parser.add_argument("--config", default=None, help="game configuration as JSON")
    parser.add_argument("--seed", type=int, default=0, help="base seed")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        sim_game = get_spec(args.game)
        loaded = sim_game.load(())
        seats = args.seat or ["random"] * min(loaded.num_players)
        config = json.loads(args.config) if args.config else sim_game.config_for(loaded, len(seats))
        runs: list[tuple[str, int]] = [("pool", w) for w in args.workers]
        if not args.no_ray:
            runs += [("ray", max(args.workers)), ("ray-warm", max(args.workers))]
        print(
            f"{args.game}: {args.games} games, seats {' '.join(seats)}, {os.cpu_count()} cores here"
        )
        print(f"{'backend':<10}{'workers':>8}{'games/s':>12}{'wall s':>10}{'speed-up':>10}")
        base = None
        walls: dict[tuple[str, int], float] = {}
        for backend, workers in runs:

            def job(n_games: int, seed: int, backend: str = backend, workers: int = workers) -> int:
                with tempfile.TemporaryDirectory() as tmp:
                    summary = run_sim(
                        args.game,
                        n_games,
                        seats,
                        config,
                        seed,
                        Path(tmp) / "r",
                        workers=workers,
                        backend="ray" if backend.startswith("ray") else "pool",
                        progress=False,
                    )
                return summary.played_now

            warm = backend == "ray-warm"
            if warm:
                began = time.perf_counter()
                try:
                    start_local_ray(workers)
                except ImportError:
                    print(
                        "error: the Ray rows need Ray: pip install 'ray==2.60.0'", file=sys.stderr
                    )
                    return 2
                job(4 * workers, args.seed + 1)  # workers started and velvet imported
                print(
                    f"(Ray start-up and a {4 * workers}-game warm-up: "
                    f"{time.perf_counter() - began:.1f} s, not timed below)"
                )
            try:
                began = time.perf_counter()
                played = job(args.games, args.seed)
                wall = time.perf_counter() - began
            finally:
                if warm:
                    import ray  # type: ignore[import-untyped,import-not-found,unused-ignore]

                    ray.shutdown()
            rate = played / wall
            base = base or rate
            walls[(backend, workers)] = wall
            print(f"{backend:<10}{workers:>8}{rate:>12.1f}{wall:>10.2f}{rate / base:>9.2f}x")
        print(
            "(wall time includes starting the pool's workers; the ray row also starts and "
            "stops Ray itself; ray-warm runs on a Ray already started and warmed up)"
        )
        most = max(args.workers)
        pool = walls.get(("pool", most))
        for backend in ("ray", "ray-warm"):
            ray_wall = walls.get((backend, most))
            if pool and ray_wall:
                print(
                    f"{backend} overhead against the pool with {most} processes: "
                    f"{ray_wall / pool - 1:+.1%} wall time"
                )
    except (VelvetError, json.JSONDecodeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
