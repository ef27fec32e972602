"""Bot specs: ``random``, ``greedy``, ``mcts``, ``ismcts`` or a level, with a budget.

A spec is ``NAME`` or ``NAME:BUDGET`` where BUDGET is a number of simulations
(``mcts:200``) or of seconds (``hard:1.5s``), optionally followed by search
options: ``ismcts:800,c=0.2`` sets the UCB exploration constant. Levels pick the
search that fits the game (MCTS for co-op P5, ISMCTS for hidden-hand VS) and a
budget.
"""

from __future__ import annotations

import math

from velvet.bots.base import Bot, RandomBot
from velvet.bots.budget import Budget
from velvet.bots.evaluators import get_playout_policy
from velvet.bots.expert import get_expert
from velvet.bots.greedy import GreedyBot
from velvet.bots.mcts import ISMCTSBot, MCTSBot
from velvet.engine.errors import ConfigError
from velvet.games import find_spec

BOTS = ("random", "greedy", "mcts", "ismcts")
LEVELS = ("easy", "normal", "hard", "expert")
BOT_CHOICES = BOTS + LEVELS
"""Every bot name or level a spec may start with (for CLI help)."""

BOT_HELP = (
    "random | greedy[:N] | mcts[:N|:Ss] | ismcts[:N|:Ss] | easy | normal | hard[:N|:Ss] | "
    "expert[:N|:Ss] "
    "(N simulations or S seconds per decision); searches take ',c=X' (exploration)"
)
SEARCH_OPTIONS = ("c",)
"""Options a search spec may set after a comma: ``c`` = UCB exploration constant."""

LEVEL_DEFAULTS: dict[str, tuple[str, Budget]] = {
    "easy": ("search", Budget(count=30)),
    "normal": ("search", Budget(count=100)),
    "hard": ("search", Budget(count=800)),
    "expert": ("expert", Budget(count=800)),
}
"""Levels pick greedy or the search each game's GameSpec names (``search``), tuned by its
``search_tuning`` (UCB exploration, playout length before the evaluator scores) and
``greedy_follow``; ``expert`` is that search with the game's expert helpers
(velvet.bots.expert: a playout policy reading the sampled state, no-op moves pruned),
its leaves scored by the spec's ``expert_evaluator`` if it names one, and its
``expert_exploration``/``expert_max_playout`` tuning; a game without a spec gets
ISMCTS (safe with hidden information), exploration 1.4 and 300-action playouts. The
measurements behind the built-in games' values stand with their specs (velvet.p5.spec,
velvet.vs.spec). A game's ``levels`` facet (``GameSpec.levels``) replaces a level's entry
for that game (:func:`level_default`).
"""

LEVEL_KINDS = ("greedy", "search", "expert", "mcts", "ismcts")
"""What a game's ``levels`` facet may make a level (``GameSpec.levels``)."""


def level_default(level: str, game_name: str) -> tuple[str, Budget]:
    """The kind and budget of ``level`` for ``game_name``: its spec's ``levels`` entry, else
    :data:`LEVEL_DEFAULTS`; a ConfigError naming the game if that entry is not one."""
    game_spec = find_spec(game_name)
    table = game_spec.levels if game_spec is not None else {}
    unknown = sorted(set(table) - set(LEVELS))
    if unknown:
        raise ConfigError(
            f"game '{game_name}' levels: '{unknown[0]}' is no level; levels: {', '.join(LEVELS)}"
        )
    if level not in table:
        return LEVEL_DEFAULTS[level]
    entry = table[level]
    if not (isinstance(entry, tuple) and len(entry) == 2 and entry[0] in LEVEL_KINDS):
        raise ConfigError(
            f"game '{game_name}' levels: {level} = {entry!r} must be (kind, budget) with "
            f"kind one of {', '.join(LEVEL_KINDS)}, as in ('greedy', '5')"
        )
    kind, budget_text = entry
    try:
        return kind, Budget.parse(str(budget_text))
    except ConfigError as error:
        raise ConfigError(f"game '{game_name}' levels: {level}: {error}") from None


DEFAULT_BUDGETS = {
    "greedy": Budget(count=1),
    "mcts": Budget(count=100),
    "ismcts": Budget(count=100),
}


def make_bot(spec: str, game_name: str) -> Bot:
    """A fresh bot for ``game_name`` from a spec such as ``mcts:200`` or ``hard:1.5s``."""
    text = spec.strip().lower()
    text, comma, option_text = text.partition(",")
    if comma and not option_text.strip():
        raise ConfigError(f"bot '{spec}' ends in a comma: add an option such as c=0.2")
    options = _options(spec, option_text)
    name, sep, budget_text = text.partition(":")
    if name not in BOT_CHOICES:
        raise ConfigError(f"unknown bot '{spec}': choose one of {', '.join(BOT_CHOICES)}")
    if sep and not budget_text:
        raise ConfigError(f"bot '{spec}' has an empty budget: use {name}:200 or {name}:1.5s")
    try:
        budget = Budget.parse(budget_text) if sep else None
    except ConfigError as error:
        raise ConfigError(f"bot '{spec[:40]}': {error}") from None
    if name == "random":
        if budget is not None:
            raise ConfigError(f"bot '{spec}': random takes no budget; use 'random'")
        if options:
            raise ConfigError(f"bot '{spec}': random takes no options; use 'random'")
        return RandomBot()
    suffix = "".join(f",{key}={value:g}" for key, value in options.items())
    if name in LEVELS:
        kind, default = level_default(name, game_name)
        label = (f"{name}:{budget}" if budget else name) + suffix
        if kind == "expert":
            if get_expert(game_name) is not None:
                return _build_expert(budget or default, label, game_name, options)
            kind = "search"
        if kind == "search":
            game_spec = find_spec(game_name)
            kind = game_spec.search if game_spec is not None else "ismcts"
        return _build(kind, budget or default, label, game_name, options, spec)
    label = f"{name}:{budget or DEFAULT_BUDGETS[name]}{suffix}" if options else ""
    return _build(name, budget or DEFAULT_BUDGETS[name], label, game_name, options, spec)


def _options(spec: str, text: str) -> dict[str, float]:
    """Read ``c=0.2`` (comma-separated) after a spec's budget."""
    options: dict[str, float] = {}
    if not text:
        return options
    for part in text.split(","):
        key, eq, value = (x.strip() for x in part.partition("="))
        if key not in SEARCH_OPTIONS or not eq:
            raise ConfigError(
                f"bot '{spec}': unknown option '{part.strip()}'; use c=X (exploration), "
                "as in ismcts:800,c=0.2"
            )
        if key in options:
            raise ConfigError(f"bot '{spec}': option '{key}' is given twice")
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if not (math.isfinite(number) and number >= 0):
            raise ConfigError(
                f"bot '{spec}': {key}={value} must be a number 0 or more, as in c=0.2"
            )
        options[key] = number
    return options


def _build(
    kind: str,
    budget: Budget,
    name: str,
    game_name: str,
    options: dict[str, float] | None = None,
    spec: str = "",
) -> Bot:
    options = options or {}
    game_spec = find_spec(game_name)
    if kind == "greedy":
        if options:
            raise ConfigError(f"bot '{spec}': greedy is no search; options like c= need one")
        return GreedyBot(budget, name=name, follow=game_spec.greedy_follow if game_spec else 0)
    tuning = game_spec.search_tuning if game_spec is not None else {}
    exploration = options.get("c", float(tuning.get("exploration", 1.4)))
    playout = int(tuning.get("max_playout", 300))
    policy = get_playout_policy(game_name)
    bot = MCTSBot if kind == "mcts" else ISMCTSBot
    return bot(
        budget, exploration=exploration, max_playout=playout, playout_policy=policy, name=name
    )


def _build_expert(budget: Budget, name: str, game_name: str, options: dict[str, float]) -> Bot:
    """The game's search with its expert playout policy and pruning (``get_expert``), its
    leaves scored by the spec's ``expert_evaluator`` if it names one."""
    game_spec = find_spec(game_name)
    helpers = get_expert(game_name)
    assert helpers is not None
    policy, prune = helpers
    tuning = game_spec.search_tuning if game_spec is not None else {}
    exploration = float(tuning.get("expert_exploration", tuning.get("exploration", 1.4)))
    exploration = options.get("c", exploration)
    playout = int(tuning.get("expert_max_playout", tuning.get("max_playout", 300)))
    kind = game_spec.search if game_spec is not None else "ismcts"
    bot = MCTSBot if kind == "mcts" else ISMCTSBot
    evaluator = None
    if game_spec is not None and game_spec.expert_evaluator is not None:
        evaluator = game_spec.plugin("expert_evaluator", "expert leaf value")
    return bot(
        budget,
        exploration=exploration,
        max_playout=playout,
        evaluator=evaluator,
        playout_policy=get_playout_policy(game_name),
        state_policy=policy,
        prune=prune,
        name=name,
    )
