"""The printed rules summary is a facet of the game's spec (``GameSpec.rules_summary``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.games import get_spec
from velvet.printing.summary import Section, summary


def race_summary(game: Game[Any]) -> list[Section]:
    """A toy game's own summary, named by import path from its spec only."""
    return [("A turn", (f"Roll or stop; reach exactly {game.target} (RACE-1).",))]  # type: ignore[attr-defined]


def test_a_game_without_a_rules_summary_is_told_so_not_given_another_games() -> None:
    spec = get_spec("tests.engine.toygame:SPEC")
    assert spec.rules_summary is None
    with pytest.raises(ConfigError) as info:
        summary(spec, spec.load(()))
    assert str(info.value) == (
        "game 'race' has no rules summary (its GameSpec sets no rules_summary)"
    )


def test_a_toy_games_summary_is_found_through_its_spec_alone() -> None:
    toy = get_spec("tests.engine.toygame:SPEC")
    spec = dataclasses.replace(toy, rules_summary="tests.printing.test_rules_summary:race_summary")
    assert summary(spec, spec.load(())) == [
        ("A turn", ("Roll or stop; reach exactly 10 (RACE-1).",))
    ]
    broken = dataclasses.replace(toy, rules_summary="tests.printing.test_rules_summary:pytest")
    with pytest.raises(ConfigError, match=r"rules_summary .*:pytest is not a function"):
        summary(broken, broken.load(()))


@pytest.mark.parametrize(("name", "clause"), [("p5", "(P5-SETUP-2)"), ("vs", "(VS-SETUP-1)")])
def test_each_built_in_game_prints_its_own_summary(name: str, clause: str) -> None:
    spec = get_spec(name)
    sections = summary(spec, spec.load(()))
    text = " ".join(line for _, lines in sections for line in lines)
    assert clause in text
    other = "VS-" if name == "p5" else "P5-"
    assert other not in text
