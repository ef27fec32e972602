#!/usr/bin/env python
"""kill -9 of `velvet sim` at random moments: no orphaned worker, and the same results.

Plays one run straight through, then the same run again while killing `velvet sim`
(and so, through it, its pool) with SIGKILL at random moments and starting it over
until it finishes. After every kill it checks that no worker of the killed process
is still alive; at the end, that both runs hold the same rows (all but the timing
column). Linux only (it reads /proc).

    python benchmarks/kill_resume.py --kills 10 --games 400
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from velvet.sim.results import ResultStore


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def command(out: Path, games: int, workers: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "velvet.cli",
        "sim",
        "vs",
        "--games",
        str(games),
        "--seat",
        "greedy",
        "--seat",
        "random",
        "--workers",
        str(workers),
        "--seed",
        "3",
        "--out",
        str(out),
        "--no-progress",
    ]


def rows(out: Path) -> list[dict[str, object]]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in ResultStore(out).load_rows()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=10, help="kill -9 this many times")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="seed of the kill moments")
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux"):
        print("error: this script reads /proc (Linux only)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    env = {**os.environ}
    with tempfile.TemporaryDirectory() as folder:
        straight, killed = Path(folder) / "straight", Path(folder) / "killed"
        subprocess.run(
            command(straight, args.games, args.workers),
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        kills = orphans = 0
        while True:
            proc = subprocess.Popen(
                command(killed, args.games, args.workers),
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            if kills >= args.kills:
                proc.wait()
                break
            time.sleep(rng.uniform(1.0, 3.0))
            workers = children(proc.pid)
            if proc.poll() is not None:
                break
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            kills += 1
            time.sleep(2.0)
            left = [pid for pid in workers if alive(pid)]
            orphans += len(left)
            for pid in left:
                os.kill(pid, signal.SIGKILL)
        same = rows(straight) == rows(killed)
        print(
            f"kills {kills}, orphaned workers {orphans}, games {len(rows(killed))}, "
            f"identical rows: {'yes' if same else 'NO'}"
        )
        return 0 if same and not orphans else 1


if __name__ == "__main__":
    sys.exit(main())
