"""How long ``velvet --help`` takes to start, beside a bare ``python -c pass``.

Both run as fresh processes, alternately, ``--runs`` times each; the medians and
their ratio are printed. The budget is 0.3 s for ``velvet --help``.

    python3 benchmarks/cli_start.py --runs 15
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

BUDGET = 0.3


def timed(argv: list[str]) -> float:
    began = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command")
    args = parser.parse_args(argv)
    if args.runs < 1:
        print("error: --runs must be 1 or more", file=sys.stderr)
        return 2
    bare = [sys.executable, "-c", "pass"]
    velvet = [sys.executable, "-m", "velvet.cli", "--help"]
    times: dict[str, list[float]] = {"python -c pass": [], "velvet --help": []}
    for _ in range(args.runs):
        times["python -c pass"].append(timed(bare))
        times["velvet --help"].append(timed(velvet))
    base = statistics.median(times["python -c pass"])
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:<16} median {median * 1000:7.1f} ms   ratio {median / base:5.2f}x")
    help_time = statistics.median(times["velvet --help"])
    verdict = "within" if help_time < BUDGET else "OVER"
    print(f"velvet --help is {verdict} the {BUDGET:.1f} s budget")
    return 0


if __name__ == "__main__":
    sys.exit(main())
