"""What the simulator needs to know about a game, beyond the engine contract.

A :class:`SimGame` names how to load the game, how to build a default
configuration for the CLI and how to summarise a finished state into the
game-specific columns of a results row. ``p5`` and ``vs`` are built in; any
other game is named ``package.module:ATTRIBUTE`` pointing at a SimGame, so a
custom (or test) game runs through the very same pipeline, in worker
processes too.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from velvet.engine.core import Game, State
from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng

Scalar = str | int | float | bool | None
Summarizer = Callable[[State], Mapping[str, Any]]
Tracker = Callable[[State, Any, dict[str, Any]], None]
"""``track(state, action, columns)``: called before each action; may add to ``columns``."""


def no_summary(state: State) -> dict[str, Any]:
    """The summary of a game that offers none."""
    return {}


@dataclass(frozen=True)
class SimGame:
    """How to load, configure and summarise one game for batch simulation."""

    name: str
    load: Callable[[Sequence[str]], Game]
    summarize: Summarizer = no_summary
    """Columns read from the finished state."""
    start: Summarizer = no_summary
    """Columns read from the state as the game begins (decks, first player ...)."""
    track: Tracker | None = None
    vary: Callable[[Game, dict[str, Any], Rng], dict[str, Any]] | None = None
    """``vary(game, config, rng)``: a random valid set-up like ``config`` (for --vary-setup)."""
    turns_key: str | None = None
    """Which summary column counts days or turns (copied to the ``turns`` column)."""
    default_config: Mapping[str, Any] = field(default_factory=dict)
    make_config: Callable[[Game, int, Sequence[str]], dict[str, Any]] | None = None
    """``make_config(game, seats, deck_files)`` for the CLI; else ``default_config``."""

    def config_for(self, game: Game, seats: int, decks: Sequence[str] = ()) -> dict[str, Any]:
        if self.make_config is not None:
            return self.make_config(game, seats, decks)
        if decks:
            raise ConfigError(f"game '{self.name}' takes no deck files")
        return dict(self.default_config)


def _load_builtin(name: str) -> Callable[[Sequence[str]], Game]:
    def load(cards: Sequence[str]) -> Game:
        from velvet.games import get_game

        return get_game(name, list(cards))

    return load


def builtin_games() -> dict[str, SimGame]:
    """SimGames for the games Velvet ships (summaries from velvet.sim.summaries)."""
    from velvet.sim import summaries

    return {
        "p5": SimGame(
            "p5",
            _load_builtin("p5"),
            summaries.summarize_p5,
            turns_key="day",
            vary=summaries.vary_p5,
            make_config=summaries.p5_config,
        ),
        "vs": SimGame(
            "vs",
            _load_builtin("vs"),
            summaries.summarize_vs,
            start=summaries.start_vs,
            track=summaries.track_vs,
            vary=summaries.vary_vs,
            turns_key="turns",
            make_config=summaries.vs_config,
        ),
    }


def resolve_game(name: str) -> SimGame:
    """The SimGame for ``p5``, ``vs`` or ``package.module:ATTRIBUTE``."""
    builtins = builtin_games()
    if name in builtins:
        return builtins[name]
    allowed = f"choose {', '.join(builtins)} or package.module:ATTRIBUTE naming a SimGame"
    module_name, sep, attr = name.partition(":")
    if not sep or not module_name or not attr:
        raise ConfigError(f"unknown game '{name}': {allowed}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"game '{name}': cannot import {module_name} ({exc})") from None
    sim_game = getattr(module, attr, None)
    if not isinstance(sim_game, SimGame):
        raise ConfigError(f"game '{name}': {module_name}.{attr} is not a SimGame; {allowed}")
    return sim_game
