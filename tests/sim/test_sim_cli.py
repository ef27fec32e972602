"""The click commands: velvet sim and velvet report, their help and their errors."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from velvet.sim.cli import report_command, sim_command


def test_sim_then_report(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "r"
    result = runner.invoke(
        sim_command,
        [
            "velvet_toys:RACE",
            "--games",
            "12",
            "--seat",
            "mcts:5",
            "--seed",
            "3",
            "--workers",
            "1",
            "--out",
            str(out),
            "--config",
            '{"players": 1}',
        ],
    )
    assert result.exit_code == 0, result.output
    assert "12/12 games" in result.output and "mcts:5" in result.output
    assert json.loads((out / "summary.json").read_text())["finished"] == 12
    page = tmp_path / "r.html"
    result = runner.invoke(report_command, [str(out), "--out", str(page)])
    assert result.exit_code == 0, result.output
    assert page.exists()


def test_report_combines_runs_only_when_asked(tmp_path: Path) -> None:
    runner = CliRunner()
    for seed in ("3", "4"):
        args = ["velvet_toys:RACE", "--games", "4", "--seat", "random", "--seed", seed]
        args += ["--workers", "1", "--out", str(tmp_path / seed), "--config", '{"players": 1}']
        assert runner.invoke(sim_command, args).exit_code == 0
    dirs = [str(tmp_path / "3"), str(tmp_path / "4")]
    page = tmp_path / "r.html"
    result = runner.invoke(report_command, [*dirs, "--out", str(page)])
    assert result.exit_code == 2 and "base_seed differs" in result.output
    assert not page.exists()
    result = runner.invoke(report_command, [*dirs, "--out", str(page), "--combine"])
    assert result.exit_code == 0, result.output
    assert "8 of 8" in page.read_text()


def test_default_seats_fill_the_game(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        sim_command,
        [
            "velvet_toys:DUEL",
            "-n",
            "4",
            "--workers",
            "1",
            "--out",
            str(tmp_path / "d"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "seat 1 random" in result.output


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["velvet_toys:DUEL", "--seat", "wizard"], "unknown bot 'wizard'"),
        (["velvet_toys:DUEL", "--games", "0"], "--games must be a positive number"),
        (["velvet_toys:DUEL", "--config", "{bad"], "--config is not JSON"),
        (["velvet_toys:DUEL", "--config", "[1]"], "--config must be a JSON object"),
        (["velvet_toys:DUEL", "--deck", "a.toml"], "has no option --deck"),
        (["chess"], "unknown game 'chess'"),
        (["velvet_toys:DUEL", "--backend", "ray", "--address", "127.0.0.1:1"], "cannot reach Ray"),
    ],
)
def test_sim_errors_are_one_line_with_status_2(
    tmp_path: Path, args: list[str], fragment: str
) -> None:
    result = CliRunner().invoke(sim_command, [*args, "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert fragment in result.output
    assert "Traceback" not in result.output


def test_report_of_a_missing_directory_fails_cleanly(tmp_path: Path) -> None:
    result = CliRunner().invoke(report_command, [str(tmp_path / "none")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    (tmp_path / "plain").mkdir()
    result = CliRunner().invoke(report_command, [str(tmp_path / "plain")])
    assert result.exit_code == 2 and "not a results directory" in result.output


@pytest.mark.parametrize("command", [sim_command, report_command])
def test_help_texts(command: click.Command) -> None:
    result = CliRunner().invoke(command, ["--help"])
    assert result.exit_code == 0
    assert "Usage:" in result.output
    if command is sim_command:
        for option in (
            "--games",
            "--seat",
            "--cards",
            "--deck",
            "--seed",
            "--workers",
            "--backend",
            "--address",
            "--out",
        ):
            assert option in result.output
