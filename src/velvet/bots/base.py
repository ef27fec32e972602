"""The one interface every bot implements.

A bot is given the game, the view of its seat, the legal actions and its own
seeded :class:`~velvet.engine.rng.Rng`; it never sees the true state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from velvet.engine.core import Game
from velvet.engine.rng import Rng


class Bot(Protocol):
    name: str
    seat: int | None
    """The seat it plays, when told (else read from the view); sims set it before play."""

    def choose(self, game: Game[Any], view: dict[str, Any], legal: Sequence[Any], rng: Rng) -> Any:
        """Pick one of ``legal``."""


class RandomBot:
    """Uniformly random among the legal actions."""

    name = "random"
    seat: int | None = None

    def choose(self, game: Game[Any], view: dict[str, Any], legal: Sequence[Any], rng: Rng) -> Any:
        return legal[rng.randbelow(len(legal))]
