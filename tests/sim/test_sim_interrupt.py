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
SCRIPT = (
    "import sys; from velvet.sim.cli import sim_command; "
    "sim_command.main(sys.argv[1:], prog_name='velvet sim')"
)


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
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def test_sigint_keeps_finished_chunks_and_rerun_completes(tmp_path: Path) -> None:
    out = tmp_path / "r"
    proc = velvet_sim(out, 600)
    deadline = time.time() + 30
    while time.time() < deadline and not list((out / "games").glob("part-*")):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stdout and "Traceback" not in stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["interrupted"] and 0 < summary["finished"] < 600
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]
    # the rerun asks for fewer games than were started, so it finishes quickly
    kept = summary["finished"]
    proc = velvet_sim(out, kept + 10)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 0, stderr
    assert json.loads((out / "summary.json").read_text())["finished"] >= kept + 10
