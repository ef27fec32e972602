"""The P5 helpers of the ``expert`` level (``velvet.bots.expert``): a playout policy that
reads the sampled state, and pruning of no-op moves. Named by P5's spec
(``expert_policy``, ``expert_prune``); they run only on states sampled from a seat's view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from velvet.engine.core import State
from velvet.engine.rng import Rng

if TYPE_CHECKING:
    from velvet.p5.state import P5State


def _position(s: P5State) -> tuple[Any, ...]:
    """Every part of a P5 position a no-op must leave as it was (fresh tokens aside)."""
    return (
        s.stats,
        s.conf,
        s.held,
        s.taken,
        s.party,
        s.drawn,
        s.grants,
        s.alert,
        s.rev,
        s.rem,
        s.boss_rem,
        s.locs,
        s.loc_conf,
        s.supply,
        s.result,
    )


def p5_is_noop(s: P5State, action: Any) -> bool:
    """Whether ``action`` is a no-op in ``s`` (see the module's docstring); ``s`` is kept."""
    from velvet.p5 import actions as A

    if type(action) is not A.Visit and type(action) is not A.Use:
        return False  # recruits and discovers roll or reveal; fights, orders and splits count
    trial = s.clone()
    before_rng = trial.rng.to_json()
    fresh = [f[:] for f in s.fresh]
    trial.apply_unchecked(action)
    if trial.dec or trial.rng.to_json() != before_rng:
        return False
    if _position(trial) != _position(s):
        return False
    for p, old in enumerate(fresh):
        now, spent_now, spent_was = trial.fresh[p], trial.spent[p], s.spent[p]
        for k in range(len(old)):
            if now[k] > old[k] or now[k] + spent_now[k] > old[k] + spent_was[k]:
                return False
    return True


def p5_prune(state: State[Any], legal: Sequence[Any]) -> list[Any]:
    """``legal`` without its no-ops; one turn-ending no-op stays when nothing else ends the
    turn (a day may have to pass), and the list is never empty."""
    from velvet.p5 import actions as A
    from velvet.p5.state import P5State

    if not isinstance(state, P5State) or len(legal) < 2:
        return list(legal)
    kept: list[Any] = []
    passes: list[Any] = []
    for action in legal:
        if p5_is_noop(state, action):
            if type(action) is A.Visit:
                passes.append(action)
        else:
            kept.append(action)
    free = (A.Use, A.Equip, A.Unequip)  # these leave the turn's action still to take
    if passes and all(type(a) in free for a in kept):
        kept.append(passes[0])
    return kept or list(legal)


_PALACE_TOKENS = 3
"""Fresh Stamina, SP and Bullet (together) from which a playout goes to the palace."""


def p5_expert_playout(state: State[Any], legal: Sequence[Any], rng: Rng) -> Any:
    """A P5 playout's move, as a player who plans would make it, at random within that.

    In a fight: any hit or skill before ending the turn (damage stays on a shadow,
    P5-PALACE-4). On the day's action: the palace once the player holds a few fresh
    tokens, else a location, recruit or discover that is not a no-op. After the action:
    end the turn (free skills are weighed by the tree, not the playout). No party
    changes while anything else is legal; a decision inside an effect is uniform.
    """
    from velvet.p5 import actions as A
    from velvet.p5.state import AFTER, FIGHT, IN_PALACE, MAIN, P5State

    if not isinstance(state, P5State) or state.dec:
        return _uniform(legal, rng)
    s = state
    phase = s.phase
    if phase == FIGHT:
        moves: list[Any] = [a for a in legal if type(a) is A.Hit or type(a) is A.Use]
        while moves:
            i = rng.randbelow(len(moves))
            if type(moves[i]) is A.Hit or not p5_is_noop(s, moves[i]):
                return moves[i]
            moves.pop(i)
        return A.END
    if phase == AFTER:
        return A.END if A.END in legal else _uniform(legal, rng)
    if phase == MAIN:
        p = s.turn
        fresh = s.fresh[p]
        if (
            s.loc[p] != IN_PALACE
            and fresh[0] + fresh[1] + fresh[2] >= _PALACE_TOKENS
            and A.PALACE in legal
        ):
            return A.PALACE
        moves = [
            a
            for a in legal
            if type(a) is A.Visit
            or type(a) is A.Recruit
            or type(a) is A.Discover
            or type(a) is A.Palace
        ]
        while moves:
            i = rng.randbelow(len(moves))
            if type(moves[i]) is not A.Visit or not p5_is_noop(s, moves[i]):
                return moves[i]
            moves.pop(i)
    return _uniform(legal, rng)


def _uniform(legal: Sequence[Any], rng: Rng) -> Any:
    """Uniform over ``legal``, party changes only when nothing else is legal."""
    from velvet.bots.heuristics import p5_playout

    return p5_playout(legal, rng)
