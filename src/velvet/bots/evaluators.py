"""Position evaluators for bots, registered by game name, and view sampling.

An evaluator scores a position for one seat from that seat's *view* alone
(a JSON-able dict), in ``[0, 1]`` (1 = certain win). Greedy bots call it after a
one-ply lookahead; MCTS bots call it when a playout is cut off.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from velvet.engine.core import Game, State
from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng

Evaluator = Callable[[Game, dict[str, Any], int], float]
"""``evaluate(game, view, player) -> value in [0, 1]`` for ``player``."""

_EVALUATORS: dict[str, Evaluator] = {}


def neutral_evaluator(game: Game, view: dict[str, Any], player: int) -> float:
    """Knows nothing: every unfinished position is an even game."""
    return 0.5


def register_evaluator(game_name: str, evaluator: Evaluator) -> None:
    """Make ``evaluator`` the default for bots playing ``game_name``."""
    _EVALUATORS[game_name] = evaluator


def get_evaluator(game_name: str) -> Evaluator:
    """The evaluator registered for ``game_name``, else the neutral one."""
    return _EVALUATORS.get(game_name, neutral_evaluator)


def determinize(game: Game, view: dict[str, Any], player: int, rng: Rng) -> State:
    """A full state consistent with ``view``, hidden parts sampled by the game."""
    method = getattr(game, "determinize", None)
    if method is None:
        raise ConfigError(f"game '{game.name}' cannot sample states from a view (no determinize)")
    state: State = method(view, player, rng)
    return state
