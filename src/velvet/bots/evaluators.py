"""Position evaluators for bots, found by game name, and view sampling.

An evaluator scores a position for one seat from that seat's *view* alone
(a JSON-able dict), in ``[0, 1]`` (1 = certain win). Greedy bots call it after a
one-ply lookahead; MCTS bots call it when a playout is cut off.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from velvet.engine.core import Game, State, View
from velvet.engine.rng import Rng
from velvet.engine.spec import resolve

Evaluator = Callable[[Game[Any], dict[str, Any], int], float]
"""``evaluate(game, view, player) -> value in [0, 1]`` for ``player``."""

_EVALUATORS: dict[str, Evaluator] = {}


def neutral_evaluator(game: Game[Any], view: dict[str, Any], player: int) -> float:
    """Knows nothing: every unfinished position is an even game."""
    return 0.5


def register_evaluator(game_name: str, evaluator: Evaluator) -> None:
    """Make ``evaluator`` the default for bots playing ``game_name`` (before its spec's)."""
    _EVALUATORS[game_name] = evaluator


def get_evaluator(game_name: str) -> Evaluator:
    """The evaluator registered for ``game_name``, else its GameSpec's, else the neutral one."""
    found = _EVALUATORS.get(game_name)
    if found is not None:
        return found
    from velvet.games import find_spec

    spec = find_spec(game_name)
    evaluator: Evaluator = neutral_evaluator
    if spec is not None and spec.evaluator is not None:
        evaluator = resolve(spec.evaluator, f"evaluator of game '{game_name}'")
    _EVALUATORS[game_name] = evaluator
    return evaluator


PlayoutPolicy = Callable[[Sequence[Any], Rng], Any]
"""``policy(legal, rng) -> action``: the action a search playout takes from ``legal``."""


def uniform_playout(legal: Sequence[Any], rng: Rng) -> Any:
    """Any legal action, each as likely."""
    return legal[rng.randbelow(len(legal))]


def get_playout_policy(game_name: str) -> PlayoutPolicy:
    """The playout policy ``game_name``'s GameSpec names, else :func:`uniform_playout`."""
    from velvet.games import find_spec

    spec = find_spec(game_name)
    if spec is None or spec.playout_policy is None:
        return uniform_playout
    policy: PlayoutPolicy = resolve(spec.playout_policy, f"playout policy of game '{game_name}'")
    return policy


def determinize(game: Game[Any], view: View, player: int, rng: Rng) -> State[Any]:
    """A full state consistent with ``view``, hidden parts sampled by the game."""
    return game.determinize(view, player, rng)
