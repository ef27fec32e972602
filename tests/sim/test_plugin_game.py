"""A game installed as a plug-in reaches the lab by its name alone.

The toy games of ``tests/bots/velvet_toys.py`` are registered the way an installed
package registers a game: an entry point in the group ``velvet.games``, here in a
``*.dist-info`` folder of a temporary site directory. Nothing else is wired: with that
folder on the path, ``velvet sim duel``, ``velvet report`` and ``velvet arena duel`` run
(in fresh processes, as a user runs them, the pool's workers included); without it,
``duel`` is an unknown game.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOYS = ROOT / "tests" / "bots"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A site directory holding one installed distribution that registers two toy games."""
    folder = tmp_path / "site"
    info = folder / "velvet_toy_games-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: velvet-toy-games\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        "[velvet.games]\nduel = velvet_toys:DUEL\nrace = velvet_toys:RACE\n", encoding="utf-8"
    )
    return folder


def velvet(*args: str, site: Path | None) -> subprocess.CompletedProcess[str]:
    paths = [str(ROOT / "src"), str(TOYS), *([str(site)] if site else [])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    return subprocess.run(
        [sys.executable, "-m", "velvet", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_an_entry_point_game_runs_through_sim_report_and_arena(site: Path, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    sim = velvet(
        "sim", "duel", "--games", "6", "--seat", "random", "--seat", "greedy", "--seed", "5",
        "--workers", "1", "--out", str(runs), "--no-progress",
        site=site,
    )  # fmt: skip
    assert sim.returncode == 0, sim.stderr
    assert "6/6 games" in sim.stdout
    summary = json.loads((runs / "summary.json").read_text(encoding="utf-8"))
    assert summary["finished"] == 6 and summary["game"] == "duel"

    page = tmp_path / "duel.html"
    report = velvet("report", str(runs), "--out", str(page), site=site)
    assert report.returncode == 0, report.stderr
    assert "6 of 6" in page.read_text(encoding="utf-8")

    arena_dir = tmp_path / "arena"
    arena = velvet(
        "arena", "duel", "--bot", "random", "--bot", "greedy", "--games", "3", "--workers",
        "1", "--out", str(arena_dir), "--no-progress",
        site=site,
    )  # fmt: skip
    assert arena.returncode == 0, arena.stderr
    assert "random" in arena.stdout and "greedy" in arena.stdout
    ratings = json.loads((arena_dir / "ratings.json").read_text(encoding="utf-8"))
    assert ratings["game"] == "duel"

    helped = velvet("sim", "race", "--help", site=site)
    assert helped.returncode == 0, helped.stderr
    assert "Set-up options of race" in helped.stdout


def test_without_its_entry_point_the_game_is_unknown(tmp_path: Path) -> None:
    result = velvet("sim", "duel", "--games", "1", "--out", str(tmp_path / "r"), site=None)
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "error: unknown game 'duel': choose p5, vs or package.module:ATTRIBUTE naming a GameSpec"
    )
    assert not (tmp_path / "r").exists()
