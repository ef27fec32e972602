"""Shared positions for the adapter tests: mid-game states reached by seeded random play."""

from __future__ import annotations

import random
from typing import Any

from velvet.adapters._engine import State, default_config, load_game


def mid_game(
    game_name: str, players: int, seed: int, decisions: int, seat: int | None = None
) -> State[Any]:
    """A state after ``decisions`` seeded random decisions (or the end, if sooner),
    then, if ``seat`` is given, more until that seat decides."""
    game = load_game(game_name)
    state = game.new_state(default_config(game, players), seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_unchecked(legal[rng.randrange(len(legal))])
    while seat is not None and not state.is_terminal() and state.current_player != seat:
        legal = state.legal_actions()
        state.apply_unchecked(legal[rng.randrange(len(legal))])
    return state


def rebuilt(state: State[Any], data: dict[str, Any]) -> State[Any]:
    return state.game.state_from_json(data)
