"""A game's ``levels`` facet: a bot level played otherwise for that game (``GameSpec.levels``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pytest
import velvet_toys

from velvet.bots import make_bot, registry
from velvet.bots.greedy import GreedyBot
from velvet.bots.mcts import ISMCTSBot, MCTSBot
from velvet.engine.errors import ConfigError
from velvet.engine.spec import GameSpec
from velvet.games import get_spec


def _with_levels(monkeypatch: pytest.MonkeyPatch, levels: Mapping[str, object]) -> None:
    """The toy Duel, its spec given ``levels``, as the registry finds it."""
    spec = dataclasses.replace(velvet_toys.DUEL, levels=levels)  # type: ignore[arg-type]  # bad entries on purpose

    def find(name: str) -> GameSpec | None:
        return spec if name == "duel" else get_spec(name)

    monkeypatch.setattr(registry, "find_spec", find)


def test_a_level_entry_replaces_the_default_kind_and_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _with_levels(monkeypatch, {"easy": ("greedy", "5"), "normal": ("mcts", "40")})
    easy = make_bot("easy", "duel")
    assert type(easy) is GreedyBot and easy.budget.count == 5 and easy.name == "easy"
    again = make_bot("easy:9", "duel")  # a budget given by the player keeps the game's kind
    assert type(again) is GreedyBot and again.budget.count == 9 and again.name == "easy:9"
    normal = make_bot("normal", "duel")
    assert type(normal) is MCTSBot and normal.budget.count == 40
    hard = make_bot("hard", "duel")  # not in the table: the default (ISMCTS, no spec search)
    assert type(hard) is ISMCTSBot and hard.budget.count == registry.LEVEL_DEFAULTS["hard"][1].count


@pytest.mark.parametrize(
    ("levels", "fragment"),
    [
        ({"eazy": ("greedy", "5")}, "'eazy' is no level"),
        ({"easy": ("beam", "5")}, "kind one of greedy, search"),
        ({"easy": "greedy:5"}, "must be (kind, budget)"),
        ({"easy": ("greedy", "five")}, "levels: easy: bad budget 'five'"),
    ],
)
def test_a_bad_level_entry_is_one_clear_error_naming_the_game(
    monkeypatch: pytest.MonkeyPatch, levels: Mapping[str, object], fragment: str
) -> None:
    _with_levels(monkeypatch, levels)
    with pytest.raises(ConfigError) as error:
        make_bot("easy", "duel")
    assert "game 'duel' levels" in str(error.value) and fragment in str(error.value)


def test_the_built_in_games_level_tables() -> None:
    """VS's easy sits between greedy and normal as greedy with more samples (docs/lab.md,
    "A per-game easy"); P5 keeps the defaults (easy is its search with 30)."""
    vs_easy = make_bot("easy", "vs")
    kind, budget = get_spec("vs").levels["easy"]
    assert kind == "greedy" and type(vs_easy) is GreedyBot
    assert vs_easy.budget.count == int(budget) > 1
    assert vs_easy.follow == get_spec("vs").greedy_follow
    p5_easy = make_bot("easy", "p5")
    assert type(p5_easy) is MCTSBot and p5_easy.budget.count == 30
    assert not get_spec("p5").levels
