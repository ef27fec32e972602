"""A results row's own cells are checked as the game's spec declares them (``result_cells``)."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

import pytest

import velvet.games
from velvet.engine.errors import RecordError
from velvet.games import get_spec, registered_spec
from velvet.sim.results import check_rows
from velvet.sim.run import game_seed

TOY = "tests.engine.toygame:SPEC"
TOY_WITH_CELLS = dataclasses.replace(
    get_spec(TOY), result_cells=(("score_{s}", "count"), ("bonus", "whole?"))
)
"""The toy game with result cells, declared in its spec only (no other file knows them)."""


def _meta(game: str) -> dict[str, Any]:
    return {"game": game, "seats": ["random", "random"], "base_seed": 7, "n_games": 1}


def _row(**cells: Any) -> dict[str, Any]:
    row = {"index": 0, "seed": game_seed(7, 0), "return_0": 1.0, "return_1": 0.0}
    return {**row, "winner": 0, "length": 12, **cells}


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game registered as ``race``, as an installed package's entry point does it."""
    monkeypatch.setattr(
        velvet.games, "_installed", lambda: {"race": "tests.sim.test_result_cells:TOY_WITH_CELLS"}
    )


@pytest.mark.usefixtures("registered")
def test_a_toy_games_cells_are_checked_from_its_spec(tmp_path: Path) -> None:
    path = tmp_path / "part-000000000-00001.csv"
    check_rows([_row(score_0=10, score_1=4)], _meta("race"), path)
    check_rows([_row(score_0=10, score_1=4, bonus=-3)], _meta("race"), path)
    with pytest.raises(RecordError, match="row 1: no column 'score_1': not a game of 'race'"):
        check_rows([_row(score_0=10)], _meta("race"), path)
    with pytest.raises(RecordError, match=r"column 'score_0' must be a whole number 0\.\."):
        check_rows([_row(score_0=-1, score_1=4)], _meta("race"), path)
    with pytest.raises(RecordError, match="column 'bonus' must be a whole number"):
        check_rows([_row(score_0=1, score_1=4, bonus="x")], _meta("race"), path)


def test_a_game_named_by_a_path_in_a_results_folder_is_not_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """run.json is data: its game name never makes Velvet import the module it names."""
    (tmp_path / "velvet_probe_module.py").write_text(
        "from tests.engine.toygame import SPEC\nraise SystemExit('imported')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    name = "velvet_probe_module:SPEC"
    assert registered_spec(name) is None
    check_rows([_row()], _meta(name), tmp_path / "part-000000000-00001.csv")
    assert "velvet_probe_module" not in sys.modules
    assert registered_spec("p5") is get_spec("p5")
