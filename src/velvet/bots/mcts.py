"""Monte Carlo tree search from a player's view: MCTS (co-op, chance) and ISMCTS.

Both search one tree keyed by actions (open loop). Every iteration samples a
full state from the view with ``game.determinize`` — hidden cards *and* the
state's own RNG, so dice are re-rolled as sampled chance on every pass — then
descends by UCB, expands one action, plays out by the game's playout policy
(uniform at random unless its GameSpec names one; cut off after
``max_playout`` actions and scored by the game's evaluator) and backs up.
A child's UCB uses the number of iterations in which its action was legal
("availability"), as in single-observer ISMCTS (Cowling et al., 2012), since
different samples allow different actions.

* :class:`MCTSBot` credits every node with its own seat's return: right for
  P5, where all seats share one outcome (in two-player co-op each bot plays
  its own seat and plans its partner's moves as if they were its own).
* :class:`ISMCTSBot` credits each node with the return of the seat that chose
  it, so opponents are modelled as playing for themselves (Persona VS).

The move played is the root action with most visits (``final="visits"``,
ties by mean value) or with the best mean (``final="mean"``).
Neither reads anything but the view: the true state never reaches a bot.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from velvet.bots.budget import Budget
from velvet.bots.evaluators import (
    Evaluator,
    PlayoutPolicy,
    determinize,
    get_evaluator,
    uniform_playout,
)
from velvet.bots.expert import Pruner, StatePolicy
from velvet.bots.greedy import seat_of
from velvet.bots.memory import ViewMemory
from velvet.engine.core import Game, State
from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng

_SEED_RANGE = 1 << 62


class _Node:
    """Statistics of one action sequence from the root."""

    __slots__ = ("avail", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.children: dict[Any, _Node] = {}


class MCTSBot:
    """Open-loop UCT on sampled states; every seat plays for this bot's seat's return."""

    shared_outcome = True
    kind = "mcts"

    def __init__(
        self,
        budget: Budget | None = None,
        *,
        exploration: float = 1.4,
        max_playout: int = 300,
        final: str = "visits",
        evaluator: Evaluator | None = None,
        playout_policy: PlayoutPolicy | None = None,
        state_policy: StatePolicy | None = None,
        prune: Pruner | None = None,
        name: str = "",
    ) -> None:
        self.budget = budget or Budget(count=100)
        self.exploration = exploration
        if final not in ("visits", "mean"):
            raise ConfigError(f"unknown final choice '{final}': choose visits or mean")
        if max_playout < 0:
            raise ConfigError(f"max_playout must be 0 or more, not {max_playout}")
        self.max_playout = max_playout
        self.final = final
        self._evaluator = evaluator
        self.playout_policy = playout_policy or uniform_playout
        self.state_policy = state_policy
        self.prune = prune
        self.name = name or f"{self.kind}:{self.budget}"
        self.seat: int | None = None
        self.last_iterations = 0
        self.memory = ViewMemory()

    def choose(self, game: Game[Any], view: dict[str, Any], legal: Sequence[Any], rng: Rng) -> Any:
        if len(legal) == 1:
            return legal[0]
        me = seat_of(view, self.seat)
        self.memory.remember(view)
        evaluate = self._evaluator or get_evaluator(game.name)
        root = _Node(me)
        root_moves: Sequence[Any] | None = None
        if self.prune is not None:
            state = determinize(game, view, me, Rng(rng.randbelow(_SEED_RANGE)))
            root_moves = legal = self.prune(state, legal)
            if len(legal) == 1:
                return legal[0]
        meter = self.budget.meter()
        while meter.more():
            state = determinize(game, view, me, Rng(rng.randbelow(_SEED_RANGE)))
            self._iterate(game, state, root, me, rng, evaluate, root_moves)
        self.last_iterations = meter.done
        ranked: list[tuple[tuple[float, float], int]] = []
        for i, action in enumerate(legal):
            child = root.children.get(action)
            if child is None or not child.visits:
                score = (-math.inf, -math.inf)
            else:
                mean = child.total / child.visits
                score = (child.visits, mean) if self.final == "visits" else (mean, child.visits)
            ranked.append((score, i))
        ranked.sort(key=lambda item: item[0], reverse=True)
        top = [i for score, i in ranked if score == ranked[0][0]]
        choice = legal[top[rng.randbelow(len(top))]]
        return self._avoid_repeats(game, view, me, legal, ranked, choice, rng)

    def _avoid_repeats(
        self,
        game: Game[Any],
        view: dict[str, Any],
        me: int,
        legal: Sequence[Any],
        ranked: list[tuple[tuple[float, float], int]],
        choice: Any,
        rng: Rng,
    ) -> Any:
        """The choice, unless it leads straight back to a view already decided from.

        Then the next best action that does not (checked on one sampled state),
        so free no-progress actions cannot cycle for ever.
        """
        if not len(self.memory):
            return choice
        base = determinize(game, view, me, Rng(rng.randbelow(_SEED_RANGE)))
        order = [choice] + [legal[i] for _, i in ranked if legal[i] != choice]
        for action in order:
            state = base.clone()
            state.apply_unchecked(action)
            if state.is_terminal() or not self.memory.seen(state.view(me)):
                return action
        return choice

    def _iterate(
        self,
        game: Game[Any],
        state: State[Any],
        root: _Node,
        me: int,
        rng: Rng,
        evaluate: Evaluator,
        root_moves: Sequence[Any] | None = None,
    ) -> None:
        """One pass: descend by UCB (from ``root_moves`` at the root, if given, else every
        legal move), expand, play out, back up."""
        path = [root]
        node = root
        c = self.exploration
        moves = root_moves
        while not state.is_terminal():
            legal = moves if moves is not None else state.legal_actions()
            moves = None
            children = node.children
            untried = []
            for action in legal:
                child = children.get(action)
                if child is None:
                    untried.append(action)
                else:
                    child.avail += 1
            if untried:
                action = untried[rng.randbelow(len(untried))]
                child = _Node(state.current_player)
                children[action] = child
                state.apply_unchecked(action)
                path.append(child)
                break
            best_score = -math.inf
            chosen: Any = None
            for action in legal:
                child = children[action]
                score = child.total / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if score > best_score:
                    best_score, chosen = score, action
            node = children[chosen]
            state.apply_unchecked(chosen)
            path.append(node)
        depth = 0
        limit = self.max_playout
        policy = self.playout_policy
        smart = self.state_policy
        while depth < limit and not state.is_terminal():
            if smart is not None:
                state.apply_unchecked(smart(state, state.legal_actions(), rng))
            else:
                state.apply_unchecked(policy(state.legal_actions(), rng))
            depth += 1
        values = _Values(game, state, evaluate)
        if self.shared_outcome:
            reward = values.of(me)
            for node in path:
                node.visits += 1
                node.total += reward
        else:
            for node in path:
                node.visits += 1
                node.total += values.of(node.mover)


class ISMCTSBot(MCTSBot):
    """Single-observer information-set MCTS: each seat plays for its own return."""

    shared_outcome = False
    kind = "ismcts"


class _Values:
    """Per-seat values of a playout's end: true returns, else the evaluator on views."""

    __slots__ = ("_cache", "_evaluate", "_game", "_returns", "_state")

    def __init__(self, game: Game[Any], state: State[Any], evaluate: Evaluator) -> None:
        self._game = game
        self._state = state
        self._evaluate = evaluate
        self._returns = state.returns() if state.is_terminal() else None
        self._cache: dict[int, float] = {}

    def of(self, seat: int) -> float:
        if self._returns is not None:
            return self._returns[seat]
        value = self._cache.get(seat)
        if value is None:
            value = self._evaluate(self._game, self._state.view(seat), seat)
            self._cache[seat] = value
        return value
