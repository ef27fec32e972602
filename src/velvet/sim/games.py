"""What the simulator needs to know about a game: its :class:`GameSpec` from the registry.

A spec names how to load the game, how to build a configuration for the CLI
and how to summarise a finished state into the game-specific columns of a
results row. ``p5`` and ``vs`` are built in; any other game is registered by an
entry point or named ``package.module:ATTRIBUTE`` pointing at a GameSpec, so a
custom (or test) game runs through the very same pipeline, in worker processes too.
"""

from __future__ import annotations

from velvet.engine.spec import GameSpec, Summarizer, Tracker, no_summary
from velvet.games import game_names, get_spec

SimGame = GameSpec
"""The simulator's name for a game's registry entry (one and the same class)."""

__all__ = ["GameSpec", "SimGame", "Summarizer", "Tracker", "builtin_games", "no_summary"]


def builtin_games() -> dict[str, GameSpec]:
    """The spec of every registered game, by name."""
    return {name: get_spec(name) for name in game_names()}


def resolve_game(name: str) -> GameSpec:
    """The spec of ``p5``, ``vs``, an installed game or ``package.module:ATTRIBUTE``."""
    return get_spec(name)
