"""The observation encoder and reward shaping of the toy game DUEL (tests/bots/velvet_toys.py):
a third game's own adapter plug-ins, named by its spec, and nothing else of Velvet edited."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from velvet.engine.core import Game

Vector = npt.NDArray[np.float32]


class DuelEncoder:
    """Hand, table and gone cards as ones over the card values; the scores; who leads."""

    def __init__(self, game: Game[Any], players: int) -> None:
        self.cards = len(game.action_ids())
        self.size = 3 * self.cards + 4

    def encode(self, view: Any, seat: int) -> Vector:
        out = np.zeros(self.size, dtype=np.float32)
        n = self.cards
        for block, key in enumerate(("hand", "table", "gone")):
            for card in view[key]:
                out[block * n + card - 1] = 1.0
        out[3 * n] = view["score"][seat] / 10.0
        out[3 * n + 1] = view["score"][1 - seat] / 10.0
        out[3 * n + 2] = 1.0 if view["leader"] == seat else 0.0
        out[3 * n + 3] = view["opponent_hand"] / 10.0
        return out

    def encode_state(self, state: Any, seat: int, into: Vector | None = None) -> Vector:
        vector = self.encode(state.view(seat), seat)
        if into is None:
            return vector
        into[:] = vector
        return into


def score_lead(state: Any, seat: int) -> float:
    """The shaping potential: rounds won ahead of the other seat, a tenth each."""
    score: list[int] = state.score
    return (score[seat] - score[1 - seat]) / 10.0
