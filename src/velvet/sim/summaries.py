"""Game-specific columns for results rows, and default configs for the CLI (p5, vs)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from velvet.engine.core import Game, State
from velvet.engine.errors import ConfigError


def p5_config(game: Game, seats: int, decks: Sequence[str]) -> dict[str, Any]:
    """The default P5 set-up for ``seats`` players (no deck files in P5)."""
    if decks:
        raise ConfigError("p5 takes no --deck files (decks belong to vs)")
    config: dict[str, Any] = getattr(game, "default_config")(seats)  # noqa: B009
    return config


def vs_config(game: Game, seats: int, decks: Sequence[str]) -> dict[str, Any]:
    """The default VS match (P5 deck against P4 deck), or the two --deck files given."""
    if seats not in (1, 2):
        raise ConfigError(f"vs is for 2 players: give 2 --seat bots, not {seats}")
    if decks and len(decks) != 2:
        raise ConfigError(f"vs needs 0 or 2 --deck files, not {len(decks)}")
    config: dict[str, Any] = getattr(game, "default_config")(*(decks or ("p5", "p4")))  # noqa: B009
    return config


def summarize_p5(state: State) -> dict[str, Any]:
    """P5 columns: palace, thief/persona per seat, day ended, confidants, shadows defeated."""
    return _pick(state.to_json(), P5_KEYS)


def summarize_vs(state: State) -> dict[str, Any]:
    """VS columns: decks, first player, turns, cards played per player."""
    return _pick(state.to_json(), VS_KEYS)


P5_KEYS = ("palace", "day", "thieves", "personas", "confidants", "shadows_defeated")
VS_KEYS = ("decks", "first_player", "turns", "turn", "cards_played")


def _pick(data: Any, keys: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if not isinstance(data, dict):
        return out
    for key in keys:
        if key in data:
            out[key] = data[key]
    return out
