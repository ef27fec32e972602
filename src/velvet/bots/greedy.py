"""Greedy bot: one-ply lookahead on sampled states, scored by an evaluator."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from velvet.bots.budget import Budget
from velvet.bots.evaluators import Evaluator, determinize, get_evaluator
from velvet.bots.memory import REPEAT_PENALTY, ViewMemory
from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng

_SEED_RANGE = 1 << 62


class GreedyBot:
    """Tries each legal action on states sampled from the view; keeps the best mean score.

    Each sample is one ``determinize(game, view, ...)`` shared by all actions
    (common random numbers), so actions are compared on the same hidden cards
    and dice. A finished game scores its true return; otherwise the evaluator
    registered for the game scores the resulting *view*, less a penalty if that
    view is one this bot already decided from (so it cannot cycle for ever).
    """

    def __init__(
        self,
        budget: Budget | None = None,
        evaluator: Evaluator | None = None,
        name: str = "",
        follow: int = 0,
    ) -> None:
        self.budget = budget or Budget(count=1)
        self._evaluator = evaluator
        self.follow = follow
        self.name = name or f"greedy:{self.budget}"
        self.seat: int | None = None
        self.memory = ViewMemory()

    def choose(self, game: Game[Any], view: dict[str, Any], legal: Sequence[Any], rng: Rng) -> Any:
        if len(legal) == 1:
            return legal[0]
        evaluate = self._evaluator or get_evaluator(game.name)
        player = seat_of(view, self.seat)
        memory = self.memory
        memory.remember(view)
        totals = [0.0] * len(legal)
        meter = self.budget.meter()
        while meter.more():
            base = determinize(game, view, player, Rng(rng.randbelow(_SEED_RANGE)))
            for i, action in enumerate(legal):
                state = base.clone()
                state.apply_unchecked(action)
                if self.follow:
                    self._follow(game, state, player, evaluate)
                if state.is_terminal():
                    totals[i] += state.returns()[player]
                else:
                    after = state.view(player)
                    totals[i] += evaluate(game, after, player)
                    if memory.seen(after):
                        totals[i] -= REPEAT_PENALTY
        best = max(totals)
        ties = [i for i, total in enumerate(totals) if total == best]
        return legal[ties[rng.randbelow(len(ties))]]

    def _follow(self, game: Game[Any], state: Any, player: int, evaluate: Evaluator) -> None:
        """Play this seat's own next decisions one ply greedily, until the turn passes.

        Without it, an action that opens a sequence of the same player's decisions
        (a summon, then its cost payments) is scored half-way, before it pays off.
        """
        for _ in range(self.follow):
            if state.is_terminal() or state.current_player != player:
                return
            legal = state.legal_actions()
            best, best_value = legal[0], float("-inf")
            if len(legal) > 1:
                for action in legal:
                    trial = state.clone()
                    trial.apply_unchecked(action)
                    value = (
                        trial.returns()[player]
                        if trial.is_terminal()
                        else evaluate(game, trial.view(player), player)
                    )
                    if value > best_value:
                        best, best_value = action, value
            state.apply_unchecked(best)


def seat_of(view: dict[str, Any], seat: int | None = None) -> int:
    """The seat a bot plays: the one it was given, else the one its view names."""
    if seat is not None:
        return seat
    for key in ("player", "seat", "viewer", "me"):
        value = view.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    raise ConfigError("a bot needs its seat: set bot.seat or give the view a 'player' key")
