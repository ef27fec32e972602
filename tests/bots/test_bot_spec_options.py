"""Bot specs set the search's exploration constant: ``ismcts:800,c=0.2``."""

from __future__ import annotations

import pytest

from velvet.bots import make_bot
from velvet.bots.mcts import ISMCTSBot, MCTSBot
from velvet.engine.errors import ConfigError
from velvet.games import get_spec


@pytest.mark.parametrize(
    ("spec", "game", "kind", "c", "count", "name"),
    [
        ("ismcts:800,c=0.2", "vs", ISMCTSBot, 0.2, 800, "ismcts:800,c=0.2"),
        ("hard,c=0.5", "p5", MCTSBot, 0.5, 800, "hard,c=0.5"),
        ("normal:50,c=1.5", "vs", ISMCTSBot, 1.5, 50, "normal:50,c=1.5"),
        ("mcts, c = 0", "p5", MCTSBot, 0.0, 100, "mcts:100,c=0"),
        ("hard", "vs", ISMCTSBot, get_spec("vs").search_tuning["exploration"], 800, "hard"),
    ],
)
def test_spec_sets_the_exploration_constant(
    spec: str, game: str, kind: type, c: float, count: int, name: str
) -> None:
    bot = make_bot(spec, game)
    assert type(bot) is kind
    assert isinstance(bot, MCTSBot)
    assert bot.exploration == c
    assert bot.budget.count == count
    assert bot.name == name
    # the name is itself a spec that rebuilds the same bot (figures in docs/ replay from it)
    again = make_bot(bot.name, game)
    assert isinstance(again, MCTSBot) and again.exploration == c


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("greedy,c=1", "greedy is no search"),
        ("random,c=1", "random takes no options"),
        ("mcts,c=-1", "must be a number 0 or more"),
        ("mcts,c=abc", "must be a number 0 or more"),
        ("mcts,c=nan", "must be a number 0 or more"),
        ("mcts,k=2", "unknown option 'k=2'"),
        ("mcts,c", "unknown option 'c'"),
        ("mcts,c=1,c=2", "given twice"),
        ("mcts:100,", "ends in a comma"),
    ],
)
def test_bad_options_are_one_clear_line(spec: str, fragment: str) -> None:
    with pytest.raises(ConfigError) as info:
        make_bot(spec, "p5")
    assert fragment in str(info.value)
    assert spec in str(info.value)
    assert "\n" not in str(info.value)
