"""Random whole games from many seeds, with the invariants checked after every action."""

from __future__ import annotations

from typing import Any

import pytest

from tests.p5.helpers import total_tokens
from velvet.engine.rng import Rng
from velvet.p5.effects import party_limit
from velvet.p5.game import P5Game
from velvet.p5.state import P5State


def configs(game: P5Game, seed: int) -> dict[str, object]:
    cs = game.cards
    players = 1 + seed % 2
    thieves = [t.id for t in cs.thieves]
    personas = [p.id for p in cs.personas]
    return {
        "players": [
            {
                "thief": thieves[(seed + 4 * i) % len(thieves)],
                "persona": personas[(seed // 2 + 5 * i) % len(personas)],
            }
            for i in range(players)
        ],
        "palace": cs.palaces[seed % len(cs.palaces)].id,
    }


def check(state: P5State, total: list[int]) -> None:
    g = state.game
    # rule: P5-COMP-3  no token created or lost; the supply never exceeds its size
    assert total_tokens(state) == total
    assert all(0 <= state.supply[k] <= g.supply0[k] for k in range(4))
    for p in range(state.n):
        assert min(state.fresh[p]) >= 0 and min(state.spent[p]) >= 0
        assert state.spent[p][3] == 0  # Cash has one side (P5-COMP-2)
        # rule: P5-COMP-4  stats stay within bounds
        assert all(0 <= v <= g.stat_cap for v in state.stats[p])
        granted = [sum(gr[k] for gr in state.grants[p]) for k in range(3)]
        assert all(granted[k] <= state.fresh[p][k] + state.spent[p][k] for k in range(3))
        assert len(state.party[p]) <= party_limit(state, p)
    assert all(sum(r) > 0 for r in state.rem)  # defeated shadows leave at once
    assert 1 <= state.day <= g.days + 1


@pytest.mark.slow
def test_thousand_random_games_keep_invariants(game: P5Game) -> None:
    # rule: P5-END-1
    # rule: P5-END-2
    # rule: P5-DAY-5
    outcomes = {1: 0, -1: 0}
    for seed in range(1000):
        state = game.new_state(configs(game, seed), seed)
        assert isinstance(state, P5State)
        total = total_tokens(state)
        assert total == list(game.supply0)
        rng = Rng(seed ^ 0x5EED)
        steps = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal, "a live game always has a legal action"
            state.apply_unchecked(legal[rng.randbelow(len(legal))])
            check(state, total)
            steps += 1
            assert steps < 5000
        # every game ends by the boss or after day 28
        assert state.result in (1, -1)
        assert (state.result == -1) == (state.day == game.days + 1)
        outcomes[state.result] += 1
    assert outcomes[-1] > 0


def eager(state: P5State, rng: Rng) -> Any:
    """A simple player that stocks up, then fights: reaches the boss in some games."""
    legal = state.legal_actions()
    names = [str(a) for a in legal]
    if state.phase == 3 and not state.dec:
        attacks = [
            a
            for a, t in zip(legal, names, strict=True)
            if t.startswith(("use", "hit")) and "@" in t
        ]
        if attacks:
            return attacks[rng.randbelow(len(attacks))]
        return legal[-1]  # end
    if state.phase == 1 and not state.dec:
        if sum(state.fresh[state.turn][:3]) >= 9 and "palace" in names:
            return legal[names.index("palace")]
        equips = [a for a, t in zip(legal, names, strict=True) if t.startswith("equip")]
        if equips:
            return equips[0]
        shops = [
            a
            for a, t in zip(legal, names, strict=True)
            if t in ("visit home", "visit clinic", "visit weapons-shop", "visit sales-clerk")
        ]
        if shops:
            return shops[rng.randbelow(len(shops))]
    return legal[rng.randbelow(len(legal))]


@pytest.mark.slow
def test_eager_games_reach_the_boss_and_keep_invariants(game: P5Game) -> None:
    # rule: P5-BOSS-1
    # rule: P5-END-1
    results = []
    for seed in range(300):
        state = game.new_state(configs(game, seed), seed)
        assert isinstance(state, P5State)
        total = total_tokens(state)
        rng = Rng(seed)
        while not state.is_terminal():
            state.apply_unchecked(eager(state, rng))
            check(state, total)
        results.append(state.result)
    assert results.count(1) > 0 and results.count(-1) > 0
