"""The expert level: no-op pruning (never a move that changes the position), its P5 playout
policy, and a search that still reads only its seat's view."""

from __future__ import annotations

from typing import Any

import pytest

from velvet.bots import ISMCTSBot, MCTSBot, make_bot
from velvet.bots.budget import Budget
from velvet.engine.rng import Rng
from velvet.games import get_game
from velvet.p5 import actions as A
from velvet.p5.expert import p5_expert_playout, p5_is_noop, p5_prune
from velvet.p5.game import P5Game
from velvet.p5.state import CA, FIGHT, P5State

BOOKKEEPING = {
    "rng",
    "day",
    "phase",
    "turn",
    "went",
    "fresh",
    "spent",
    "loc",
    "used_day",
    "used_pal",
    "party_set",
    "dec",
    "work",
}
"""What a no-op may change: the clock, whose turn, the marker, uses counted, tokens paid."""


def _p5() -> P5Game:
    game = get_game("p5")
    assert isinstance(game, P5Game)
    return game


def _solo(seed: int = 0, **player: str) -> P5State:
    game = _p5()
    config = game.default_config(1)
    config["players"][0].update(player)
    state = game.new_state(config, seed)
    assert isinstance(state, P5State)
    return state


def _changes_only_bookkeeping(before: P5State, action: Any) -> bool:
    """Independent of the pruner: the whole state as JSON, field by field."""
    after = before.clone()
    after.apply_unchecked(action)
    a, b = before.to_json(), after.to_json()
    if any(a[f] != b[f] for f in a if f not in BOOKKEEPING):
        return False
    for p in range(before.n):
        for k in range(4):
            if b["fresh"][p][k] > a["fresh"][p][k]:
                return False
            if b["fresh"][p][k] + b["spent"][p][k] > a["fresh"][p][k] + a["spent"][p][k]:
                return False
    return a["rng"] == b["rng"] and not b["dec"]


def test_a_weapons_shop_visit_without_cash_is_a_no_op_and_with_cash_is_not() -> None:
    state = _solo()
    shop = A.Visit("weapons-shop")
    assert shop in state.legal_actions()
    state.fresh[0][CA] = 0
    assert p5_is_noop(state, shop)
    assert shop not in p5_prune(state, state.legal_actions())
    state.fresh[0][CA] = 1
    assert not p5_is_noop(state, shop)
    assert shop in p5_prune(state, state.legal_actions())


def test_a_restore_with_nothing_spent_is_a_no_op_until_a_token_is_spent() -> None:
    state = _solo()
    home = A.Visit("home")
    state.spent[0] = [0, 0, 0, 0]
    assert p5_is_noop(state, home)
    state.spent[0][0] = 1  # one spent Stamina: Home restores it
    assert not p5_is_noop(state, home)


def test_pruning_keeps_a_day_passing_move_when_every_move_is_a_no_op() -> None:
    state = _solo()
    state.fresh[0] = [0, 0, 0, 0]
    state.spent[0] = [0, 0, 0, 0]
    legal = [A.Visit("weapons-shop"), A.Visit("clinic")]
    assert all(p5_is_noop(state, a) for a in legal)
    assert p5_prune(state, legal) == [A.Visit("weapons-shop")]


@pytest.mark.parametrize("players", [1, 2])
def test_pruning_never_removes_a_move_that_changes_the_position(players: int) -> None:
    """Random P5 games: every move pruned changes only bookkeeping (checked on the state's
    JSON, not by the pruner's own test), every other kind of move is kept, and the pruned
    list is never empty."""
    game = _p5()
    pruned = 0
    for seed in range(6):
        config = game.default_config(players)
        state = game.new_state(config, seed)
        rng = Rng(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            kept = p5_prune(state, legal)
            assert kept and all(a in legal for a in kept)
            for action in legal:
                if action in kept:
                    continue
                pruned += 1
                assert type(action) in (A.Visit, A.Use), action
                assert _changes_only_bookkeeping(state, action), action
            state.apply_unchecked(legal[rng.randbelow(len(legal))])
    assert pruned > 0  # the sweep did meet no-ops


def _in_fight(seed: int = 0) -> P5State:
    state = _solo(seed)
    state.apply_unchecked(A.PALACE)
    while state.dec:
        state.apply_unchecked(state.legal_actions()[0])
    assert state.phase == FIGHT
    return state


def test_the_expert_playout_fights_before_ending_a_palace_turn() -> None:
    state = _in_fight()
    legal = state.legal_actions()
    assert any(type(a) is A.Hit for a in legal) and A.END in legal
    picks = {p5_expert_playout(state, legal, Rng(i)) for i in range(60)}
    assert A.END not in picks and picks <= set(legal)
    assert any(type(a) is A.Hit for a in picks)


def test_the_expert_playout_goes_to_the_palace_with_tokens_and_skips_no_op_visits() -> None:
    state = _solo()
    state.fresh[0] = [2, 1, 1, 0]
    legal = state.legal_actions()
    assert {p5_expert_playout(state, legal, Rng(i)) for i in range(30)} == {A.PALACE}
    state.fresh[0] = [0, 0, 0, 0]
    picks = {p5_expert_playout(state, legal, Rng(i)) for i in range(200)}
    assert A.Visit("weapons-shop") not in picks and A.Visit("clinic") not in picks
    assert A.Visit("sales-clerk") in picks


def test_the_expert_level_searches_p5_with_its_helpers_and_vs_without() -> None:
    bot = make_bot("expert", "p5")
    assert isinstance(bot, MCTSBot) and bot.prune is p5_prune
    assert bot.state_policy is p5_expert_playout
    fifty = make_bot("expert:50", "p5")
    assert isinstance(fifty, MCTSBot) and fifty.budget == Budget(count=50)
    other = make_bot("expert", "vs")
    assert isinstance(other, ISMCTSBot) and other.prune is None


def test_the_expert_choice_depends_only_on_the_p5_view() -> None:
    """Two full states that agree on the seat's view (the shadow deck and dice differ)."""
    game = get_game("p5")
    state = _in_fight(3)
    view = state.view(0)
    a = game.determinize(view, 0, Rng(1))
    b = game.determinize(view, 0, Rng(2))
    assert a.to_json() != b.to_json()
    assert a.view(0) == b.view(0) == view
    picks = [
        make_bot("expert:30", "p5").choose(game, s.view(0), s.legal_actions(), Rng(7))
        for s in (a, b)
    ]
    assert picks[0] == picks[1]
