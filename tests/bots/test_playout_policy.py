"""Search playouts follow the game's playout policy; P5's skips persona-party changes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from velvet_toys import RaceGame

from velvet.bots import MCTSBot, make_bot
from velvet.bots.budget import Budget
from velvet.bots.evaluators import get_playout_policy, uniform_playout
from velvet.bots.heuristics import p5_playout
from velvet.engine.rng import Rng
from velvet.games import get_game, get_spec
from velvet.p5 import actions as A


def test_mcts_playouts_take_the_policy_s_actions() -> None:
    seen: list[int] = []

    def first(legal: Sequence[Any], rng: Rng) -> Any:
        seen.append(len(legal))
        return legal[0]

    game = RaceGame()
    state = game.new_state({"players": 1}, 0)
    bot = MCTSBot(Budget(count=20), max_playout=5, playout_policy=first)
    assert bot.choose(game, state.view(0), state.legal_actions(), Rng(0)) in state.legal_actions()
    assert seen


def test_a_game_without_a_policy_plays_out_uniformly() -> None:
    assert get_playout_policy("race") is uniform_playout
    bot = make_bot("mcts:4", "race")
    assert isinstance(bot, MCTSBot) and bot.playout_policy is uniform_playout


def test_p5_levels_use_p5_playout_and_longer_playouts() -> None:
    bot = make_bot("normal", "p5")
    assert isinstance(bot, MCTSBot)
    assert bot.playout_policy is p5_playout
    assert bot.max_playout == get_spec("p5").search_tuning["max_playout"] == 16


def _after_window_with_party() -> list[A.P5Action]:
    """The legal actions after Joker/Arsene's first visit (P5-ARSENE-3 window)."""
    game = get_game("p5")
    config = {"players": [{"thief": "joker", "persona": "arsene"}], "palace": "kamoshida"}
    state = game.new_state(config, 0)
    visit = next(a for a in state.legal_actions() if type(a) is A.Visit)
    state.apply(visit)
    while state.view(0)["dec"]:
        state.apply(state.legal_actions()[0])
    return state.legal_actions()


def test_p5_playout_never_changes_the_party_while_anything_else_is_legal() -> None:
    legal = _after_window_with_party()
    party = [a for a in legal if type(a) is A.Equip or type(a) is A.Unequip]
    others = [a for a in legal if a not in party]
    assert party and A.End() in others
    rng = Rng(3)
    picks = {p5_playout(legal, rng) for _ in range(300)}
    assert picks == set(others)


def test_p5_playout_changes_the_party_when_nothing_else_is_legal() -> None:
    only = [A.Equip("pixie"), A.Unequip("jack-frost")]
    rng = Rng(0)
    assert {p5_playout(only, rng) for _ in range(100)} == set(only)
