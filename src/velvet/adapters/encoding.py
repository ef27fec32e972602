"""Fixed-size observation vectors of what one seat may see: the adapters' observer.

Each game names its encoder in its spec (``GameSpec.encoder``, ``module:Class``):
``Class(game, players)`` is an :class:`Encoder`. The encoding is defined on the
JSON-able view the engine gives a seat (``encode(view, seat)``), so an observation can
never hold what that seat may not see (principle 4); ``encode_state(state, seat)`` is
the fast path the adapters use, reading the same information from the state and giving
the same vector, element for element (tests/adapters/test_encoding.py). The built-in
games' encoders are ``velvet.vs.encoder`` and ``velvet.p5.encoder``; docs/rl.md lists
their blocks.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from velvet.adapters._engine import ConfigError, Game, spec_of

Vector = npt.NDArray[np.float32]


class Encoder(Protocol):
    """Turns one seat's view into a vector of ``size`` float32."""

    size: int

    def encode(self, view: Any, seat: int) -> Vector:
        """The vector of ``view``, the view of ``seat``."""
        ...

    def encode_state(self, state: Any, seat: int, into: Vector | None = None) -> Vector:
        """The vector of ``view(seat)`` read from ``state``, written into ``into`` if given."""
        ...


def encoder_for(game: Game[Any], players: int = 2) -> Encoder:
    """The observation encoder of ``game`` for ``players`` seats (its spec's ``encoder``);
    ConfigError if the game has none."""
    spec = spec_of(game)
    make = spec.plugin("encoder", "observation encoder for the RL adapters")
    if not callable(make):
        raise ConfigError(f"game '{spec.name}': encoder {spec.encoder} is not a class")
    encoder: Encoder = make(game, players)
    return encoder
