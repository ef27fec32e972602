"""Legal action ids: the lookup by the engine's own action objects gives the same ids.

``legal_ids`` finds most ids by the identity of the action objects the engines hand
out (the ones ``action_from_id`` gives), and by value otherwise (an engine that made
actions on the fly; after a few such decisions a game is looked up by value only).
Either way the ids must be the ones ``action_to_id`` names, in order.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from velvet.adapters._engine import _tables, action_table, default_config, legal_ids, load_game


@pytest.mark.parametrize("game_name", ["vs", "p5"])
def test_legal_ids_are_the_games_own_ids_in_legal_order(game_name: str) -> None:
    game = load_game(game_name)
    config = default_config(game, 2)
    table = action_table(game)
    assert len(table) == len(game.action_ids())
    made_on_the_fly = 0
    checked = 0
    for seed in range(6):
        state = game.new_state(config, seed)
        rng = random.Random(seed)
        while not state.is_terminal() and checked < 4000:
            legal = state.legal_actions()
            ids = legal_ids(game, state)
            assert ids == [game.action_to_id(a) for a in legal]
            assert [table[i] for i in ids] == legal
            made_on_the_fly += sum(1 for a, i in zip(legal, ids, strict=True) if a is not table[i])
            checked += 1
            state.apply_unchecked(legal[rng.randrange(len(legal))])
    assert checked > 500
    # Both engines hand out the table's own objects (P5 shares its actions without a
    # card with the table since velvet.p5.actions.GO etc.): ids found by identity only.
    assert made_on_the_fly == 0 and _tables(game).misses == 0


def test_legal_ids_of_equal_but_other_action_objects() -> None:
    # Copies of the engine's actions (equal, not the same objects) get the same ids.
    game = load_game("vs")
    state = game.new_state(default_config(game, 2), 3)
    legal = state.legal_actions()
    want = legal_ids(game, state)

    class Copying:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def legal_actions(self) -> list[Any]:
            return [copy.copy(a) for a in self.inner.legal_actions()]

    copies = Copying(state)
    assert all(a is not b for a, b in zip(copies.legal_actions(), legal, strict=True))
    assert legal_ids(game, copies) == want  # type: ignore[arg-type]


def test_legal_ids_by_value_only_after_many_misses() -> None:
    # An engine that keeps making new action objects: after MISSES decisions the lookup
    # goes by value at once, and the ids stay the same.
    game = load_game("p5")
    state = game.new_state(default_config(game, 2), 5)
    want = legal_ids(game, state)
    tables = _tables(game)

    class Copying:
        def legal_actions(self) -> list[Any]:
            return [copy.copy(a) for a in state.legal_actions()]

    try:
        for _ in range(tables.MISSES + 3):
            assert legal_ids(game, Copying()) == want  # type: ignore[arg-type]
        assert tables.misses == tables.MISSES
    finally:
        tables.misses = 0  # the tables are per game object, shared with other tests
