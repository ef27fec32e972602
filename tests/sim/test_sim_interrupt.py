"""A real Ctrl-C (SIGINT) to `velvet sim` keeps finished games; the rerun resumes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

TOYS = str(Path(__file__).resolve().parents[1] / "bots")
WAIT_LIMIT = 600
"""Seconds before a stuck command fails the test; a slow but working one never reaches it."""
SCRIPT = (
    "import sys; from velvet.sim.cli import sim_command; "
    "sim_command.main(sys.argv[1:], prog_name='velvet sim')"
)


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def velvet_sim(out: Path, n: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([TOYS, os.environ.get("PYTHONPATH", "")])}
    args = [
        "velvet_toys:RACE",
        "-n",
        str(n),
        "--seat",
        "mcts:40",
        "--workers",
        "2",
        "--out",
        str(out),
        "--seed",
        "5",
    ]
    return subprocess.Popen(
        [sys.executable, "-c", SCRIPT, *args],
        env=env,
        # A shell that starts a command in the background without job control leaves SIGINT
        # ignored, and Python then never raises KeyboardInterrupt: give the command Ctrl-C back.
        preexec_fn=_default_sigint,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def wait_for_first_chunk(proc: subprocess.Popen[str], games: Path) -> None:
    """Block until a finished result chunk is on disk (no fixed sleep: the machine may be slow).

    Fails at once, with the command's stderr, if the command exits first.
    """
    deadline = time.monotonic() + WAIT_LIMIT
    while not [p for p in games.glob("part-*") if not p.name.endswith(".tmp")]:
        if proc.poll() is not None:
            _, stderr = proc.communicate()
            raise AssertionError(f"velvet sim ended before the first chunk: {stderr}")
        if time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"no result chunk after {WAIT_LIMIT} s")
        time.sleep(0.05)


GAMES = 100_000
"""So many games that the run cannot end between its first chunk and the signal."""


def test_sigint_keeps_finished_chunks_and_rerun_completes(tmp_path: Path) -> None:
    out = tmp_path / "r"
    proc = velvet_sim(out, GAMES)
    wait_for_first_chunk(proc, out / "games")
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=WAIT_LIMIT)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stdout and "Traceback" not in stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["interrupted"] and 0 < summary["finished"] < GAMES
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]
    # the rerun asks for fewer games than were started, so it finishes quickly
    kept = summary["finished"]
    proc = velvet_sim(out, kept + 10)
    stdout, stderr = proc.communicate(timeout=WAIT_LIMIT)
    assert proc.returncode == 0, stderr
    assert json.loads((out / "summary.json").read_text())["finished"] >= kept + 10
