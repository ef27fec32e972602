"""The rules a state class delegates to (``velvet.engine.rules``), one holder for both games."""

from __future__ import annotations

from types import ModuleType

import pytest

import velvet.p5.game
import velvet.vs.game
from velvet.engine.rules import Rules
from velvet.p5 import state as p5_state
from velvet.vs import state as vs_state

CONTRACT = ("apply_unchecked", "explain", "label", "legal_actions", "public_view", "view")


@pytest.mark.parametrize(
    ("state", "own"), [(p5_state, "labels"), (vs_state, "mod_sources")], ids=["p5", "vs"]
)
def test_each_game_holds_the_contracts_rules_and_its_own(state: ModuleType, own: str) -> None:
    # importing a game binds its rules
    assert velvet.p5.game.P5Game is not None and velvet.vs.game.VsGame is not None
    assert isinstance(state.RULES, Rules)
    assert state.Rules.names() == tuple(sorted((*CONTRACT, own)))
    for name in state.Rules.names():
        assert callable(getattr(state.RULES, name)), name


@pytest.mark.parametrize(
    ("state", "cls"),
    [(p5_state, p5_state.P5State), (vs_state, vs_state.VsState)],
    ids=["p5", "vs"],
)
def test_the_two_calls_of_every_step_sit_straight_on_the_state_class(
    state: ModuleType, cls: type
) -> None:
    assert velvet.p5.game.P5Game is not None and velvet.vs.game.VsGame is not None
    assert vars(cls)["legal_actions"] is state.RULES.legal_actions
    assert vars(cls)["apply_unchecked"] is state.RULES.apply_unchecked
