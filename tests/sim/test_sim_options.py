"""``velvet sim GAME --option NAME=VALUE``: a game's set-up options without hand-written JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from velvet.engine.rng import Rng
from velvet.games import get_spec
from velvet.sim.cli import sim_command
from velvet.sim.results import ResultStore
from velvet.sim.run import first_player_score
from velvet.vs.game import load_vs_game

RANDOM_SEATS = ["--seat", "random", "--seat", "random", "--workers", "1"]


def _sim(tmp_path: Path, *args: str) -> Any:
    return CliRunner().invoke(sim_command, ["vs", *args, "--out", str(tmp_path / "r")])


def _rows(tmp_path: Path) -> list[dict[str, Any]]:
    return ResultStore(tmp_path / "r").load_rows()


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["-o", "colour=red"], "game 'vs' has no option 'colour'; its options: player_card, "),
        (["-o", "second_draws=3"], "second_draws must be one of 0, 1, 2, not '3'"),
        (["-o", "first=0"], "first must be one of 1, 2, random, not '0'"),
        (["-o", "second_draws"], "write NAME=VALUE"),
        (["-o", "=1"], "write NAME=VALUE"),
        (["-o", "first=1", "-o", "first=2"], "--option first given twice"),
        (["-o", "second_draws=1", "--config", "{}"], "give either --config or --option"),
        (["-o", "deck=p3", "--deck", "p5"], "give either --deck or --option deck"),
        (["-o", "deck=p3", "-o", "deck=p4", "-o", "deck=p5"], "at most twice"),
        (["-o", "deck=missing.toml"], "missing.toml"),
    ],
)
def test_bad_options_are_one_line_and_change_nothing(
    tmp_path: Path, args: list[str], fragment: str
) -> None:
    result = _sim(tmp_path, "-n", "2", *RANDOM_SEATS, *args)
    assert result.exit_code == 2, result.output
    assert fragment in result.output
    assert result.output.startswith("error: ") and result.output.count("\n") == 1
    assert not (tmp_path / "r").exists()


def test_second_draws_reaches_the_config_the_rows_and_the_summary(tmp_path: Path) -> None:
    # rule: VS-SETUP-2 (the offset is extra cards after the hands of 5)
    # rule: VS-SETUP-4 (first=2 fixes who begins)
    result = _sim(tmp_path, "-n", "4", *RANDOM_SEATS, "-o", "second-draws=2", "-o", "first=2")
    assert result.exit_code == 0, result.output
    assert "set-up: first_player=1, second_draws=2" in result.output
    assert "first player: win" in result.output and "over 4" in result.output
    meta = json.loads((tmp_path / "r" / "run.json").read_text())
    assert meta["config"]["second_draws"] == 2 and meta["config"]["first_player"] == 1
    rows = _rows(tmp_path)
    assert [r["second_draws"] for r in rows] == [2, 2, 2, 2]
    assert [r["first_player"] for r in rows] == [1, 1, 1, 1]
    summary = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert summary["setup"] == {"first_player": 1, "second_draws": 2}
    first = summary["first_player"]
    assert first["n"] == 4
    assert first["wins"] == sum(r["return_1"] for r in rows)
    assert first["wins"] == summary["win_rates"][1]["wins"] + 0.5 * sum(
        r["return_0"] == r["return_1"] for r in rows
    )


def test_without_the_option_the_rows_show_no_offset(tmp_path: Path) -> None:
    result = _sim(tmp_path, "-n", "3", *RANDOM_SEATS)
    assert result.exit_code == 0, result.output
    assert [r["second_draws"] for r in _rows(tmp_path)] == [0, 0, 0]
    assert "second_draws" not in json.loads((tmp_path / "r" / "run.json").read_text())["config"]


def test_per_seat_options_repeat_in_seat_order(tmp_path: Path) -> None:
    result = _sim(tmp_path, "-n", "2", *RANDOM_SEATS, "-o", "deck=p3", "-o", "deck=p5")
    assert result.exit_code == 0, result.output
    rows = _rows(tmp_path)
    assert {(r["deck_0"], r["deck_1"]) for r in rows} == {("p3", "p5")}


def test_vary_setup_keeps_the_offset_and_the_first_player(tmp_path: Path) -> None:
    args = ["-n", "12", *RANDOM_SEATS, "--vary-setup", "-o", "second_draws=1", "-o", "first=1"]
    result = _sim(tmp_path, *args)
    assert result.exit_code == 0, result.output
    rows = _rows(tmp_path)
    assert len({(r["deck_0"], r["deck_1"]) for r in rows}) > 1  # the decks do vary
    assert {r["second_draws"] for r in rows} == {1}
    assert {r["first_player"] for r in rows} == {0}


def test_vary_keeps_the_rules_and_redraws_the_decks() -> None:
    spec = get_spec("vs")
    assert spec.vary is not None
    game = load_vs_game()
    config = game.default_config("p5", "p4") | {"second_draws": 2, "first_player": 1}
    drawn = spec.vary(game, config, Rng(3))
    assert drawn["second_draws"] == 2 and drawn["first_player"] == 1
    plain = spec.vary(game, game.default_config("p5", "p4"), Rng(3))
    assert "second_draws" not in plain and plain["players"] == drawn["players"]


def test_same_seeds_same_first_player_whatever_the_offset(tmp_path: Path) -> None:
    """The offset is dealt after the first player is drawn: runs on one seed pair up."""
    firsts = []
    for offset in ("0", "2"):
        out = tmp_path / offset
        args = ["vs", "-n", "6", *RANDOM_SEATS, "-o", f"second_draws={offset}", "--seed", "5"]
        result = CliRunner().invoke(sim_command, [*args, "--out", str(out)])
        assert result.exit_code == 0, result.output
        rows = sorted(ResultStore(out).load_rows(), key=lambda r: r["index"])
        firsts.append([r["first_player"] for r in rows])
    assert firsts[0] == firsts[1]


def test_first_player_score_counts_a_draw_half() -> None:
    row = {"first_player": 1, "return_0": 0.5, "return_1": 0.5}
    assert first_player_score(row) == 0.5
    assert first_player_score(row | {"return_0": 0.0, "return_1": 1.0}) == 1.0
    assert first_player_score(row | {"return_0": 1.0, "return_1": 0.0}) == 0.0


def test_help_lists_the_games_options() -> None:
    result = CliRunner().invoke(sim_command, ["vs", "--help"])
    assert result.exit_code == 0
    assert "--option NAME=VALUE" in result.output
    assert "Set-up options of vs" in result.output
    assert "second_draws=0|1|2" in result.output and "first=1|2|random" in result.output
    assert "Set-up options of p5" not in result.output
    result = CliRunner().invoke(sim_command, ["--help"])
    assert "Set-up options of vs" in result.output and "Set-up options of p5" in result.output
    result = CliRunner().invoke(sim_command, ["nosuch.module:SPEC", "--help"])
    assert result.exit_code == 0 and "no options shown" in result.output
