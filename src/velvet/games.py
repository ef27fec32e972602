"""Where a game name becomes a Game: the one registry the CLI, bots and sims use."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from velvet.engine.core import Game
from velvet.engine.errors import ConfigError

GAMES = ("p5", "vs")


def get_game(name: str, cards: Sequence[Path | str] = ()) -> Game:
    """The game ``name`` with its built-in card set, extended or replaced by ``cards``."""
    if name == "p5":
        from velvet.p5.game import load_p5_game

        return load_p5_game(cards)
    if name == "vs":
        from velvet.vs.game import load_vs_game

        return load_vs_game(cards)
    raise ConfigError(f"unknown game '{name}': choose one of {', '.join(GAMES)}")
