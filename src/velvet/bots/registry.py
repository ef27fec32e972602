"""Bot specs: ``random``, ``greedy``, ``mcts``, ``ismcts`` or a level, with a budget.

A spec is ``NAME`` or ``NAME:BUDGET`` where BUDGET is a number of simulations
(``mcts:200``) or of seconds (``hard:1.5s``). Levels pick the search that fits
the game (MCTS for co-op P5, ISMCTS for hidden-hand VS) and a budget.
"""

from __future__ import annotations

from velvet.bots.base import Bot, RandomBot
from velvet.bots.budget import Budget
from velvet.bots.greedy import GreedyBot
from velvet.bots.mcts import ISMCTSBot, MCTSBot
from velvet.engine.errors import ConfigError
from velvet.games import find_spec

BOTS = ("random", "greedy", "mcts", "ismcts")
LEVELS = ("easy", "normal", "hard")
BOT_CHOICES = BOTS + LEVELS
"""Every bot name or level a spec may start with (for CLI help)."""

BOT_HELP = (
    "random | greedy[:N] | mcts[:N|:Ss] | ismcts[:N|:Ss] | easy | normal | hard[:N|:Ss] "
    "(N simulations or S seconds per decision)"
)

LEVEL_DEFAULTS: dict[str, tuple[str, Budget]] = {
    "easy": ("greedy", Budget(count=1)),
    "normal": ("search", Budget(count=100)),
    "hard": ("search", Budget(count=800)),
}
"""Levels pick greedy or the search each game's GameSpec names (``search``), tuned by its
``search_tuning`` (UCB exploration, playout length before the evaluator scores) and
``greedy_follow``; a game without a spec gets ISMCTS (safe with hidden information),
exploration 1.4 and 300-action playouts. The measurements behind the built-in games'
values stand with their specs (velvet.p5.spec, velvet.vs.spec).
"""

DEFAULT_BUDGETS = {
    "greedy": Budget(count=1),
    "mcts": Budget(count=100),
    "ismcts": Budget(count=100),
}


def make_bot(spec: str, game_name: str) -> Bot:
    """A fresh bot for ``game_name`` from a spec such as ``mcts:200`` or ``hard:1.5s``."""
    text = spec.strip().lower()
    name, sep, budget_text = text.partition(":")
    if name not in BOT_CHOICES:
        raise ConfigError(f"unknown bot '{spec}': choose one of {', '.join(BOT_CHOICES)}")
    if sep and not budget_text:
        raise ConfigError(f"bot '{spec}' has an empty budget: use {name}:200 or {name}:1.5s")
    budget = Budget.parse(budget_text) if sep else None
    if name == "random":
        if budget is not None:
            raise ConfigError(f"bot '{spec}': random takes no budget; use 'random'")
        return RandomBot()
    if name in LEVELS:
        kind, default = LEVEL_DEFAULTS[name]
        if kind == "search":
            game_spec = find_spec(game_name)
            kind = game_spec.search if game_spec is not None else "ismcts"
        return _build(kind, budget or default, f"{name}:{budget}" if budget else name, game_name)
    return _build(name, budget or DEFAULT_BUDGETS[name], "", game_name)


def _build(kind: str, budget: Budget, name: str, game_name: str) -> Bot:
    spec = find_spec(game_name)
    if kind == "greedy":
        return GreedyBot(budget, name=name, follow=spec.greedy_follow if spec else 0)
    tuning = spec.search_tuning if spec is not None else {}
    exploration = float(tuning.get("exploration", 1.4))
    playout = int(tuning.get("max_playout", 300))
    if kind == "mcts":
        return MCTSBot(budget, exploration=exploration, max_playout=playout, name=name)
    return ISMCTSBot(budget, exploration=exploration, max_playout=playout, name=name)
