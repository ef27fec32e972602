"""The ``expert`` level's search helpers: a playout policy that reads the sampled state,
and pruning of moves that change nothing but their cost.

Both run only on states the search sampled from the bot's own view
(``game.determinize``), never on the true state: what they read is what the view
allows. A game opts in by its GameSpec's ``expert_policy`` and ``expert_prune`` (import
paths, resolved when the level is first built: P5's are in ``velvet.p5.expert``) or by
:func:`register_expert`.

*Pruning.* A move is a **no-op** when, played on a clone of the state, it draws no random
number, opens no decision, and leaves every part of the position that can matter unchanged —
stats, confidants, shadows held or taken, the party, the palace (alert, revealed shadows,
their health, the boss), the locations, the supply and the result — while no player gains a
fresh token (its cost may be paid, its use counted, the turn may pass and the marker move).
A Weapons Shop visit with no Cash, a restore with nothing spent or a skill whose damage
lands only on met requirements are no-ops. P5's ``p5_prune`` (``velvet.p5.expert``) removes
no-ops from a list of legal moves but keeps one move that ends the turn, and never returns
an empty list: a move that changes the state in any other way is never removed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from velvet.engine.core import State
from velvet.engine.rng import Rng
from velvet.engine.spec import resolve
from velvet.games import find_spec

StatePolicy = Callable[[State[Any], Sequence[Any], Rng], Any]
"""``policy(state, legal, rng) -> action``: a playout's action, reading the sampled state."""
Pruner = Callable[[State[Any], Sequence[Any]], list[Any]]
"""``prune(state, legal) -> the legal moves worth searching`` (never empty)."""

_EXPERTS: dict[str, tuple[StatePolicy, Pruner]] = {}


def register_expert(game_name: str, policy: StatePolicy, pruner: Pruner) -> None:
    """Make ``policy`` and ``pruner`` the ``expert`` level's helpers for ``game_name``."""
    _EXPERTS[game_name] = (policy, pruner)


def get_expert(game_name: str) -> tuple[StatePolicy, Pruner] | None:
    """The expert helpers of ``game_name``: registered, or named by its spec; else None."""
    if game_name not in _EXPERTS:
        spec = find_spec(game_name)
        if spec is None or spec.expert_policy is None or spec.expert_prune is None:
            return None
        _EXPERTS[game_name] = (
            resolve(spec.expert_policy, "expert playout policy"),
            resolve(spec.expert_prune, "expert pruning"),
        )
    return _EXPERTS.get(game_name)
