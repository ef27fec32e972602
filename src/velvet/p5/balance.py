"""The P5 board game's balance bands (``velvet balance check``): one band per palace.

Named by ``balance="velvet.p5.balance"`` in the game's spec; a band's games are solo
games of the default thief and persona in its palace (see ``GameSpec.balance``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.engine.spec import BalanceGame

if TYPE_CHECKING:
    from velvet.p5.game import P5Game

SUBJECT = "palace"


def check_subject(subject: str) -> None:
    """Any palace id may be a subject: the card set says which exist (``setup``)."""


def _p5(game: Game[Any]) -> P5Game:
    from velvet.p5.game import P5Game

    if not isinstance(game, P5Game):
        raise ConfigError("the card set is not of the P5 board game")
    return game


def subjects(game: Game[Any]) -> list[str]:
    """Every palace of the card set, in its order."""
    return [palace.id for palace in _p5(game).cards.palaces]


def setup(game: Game[Any], subject: str, index: int) -> BalanceGame:
    """A solo game of the default thief and persona in the palace ``subject``."""
    p5 = _p5(game)
    if subject not in p5.palace_index:
        raise ConfigError(f"the card set has no palace '{subject}'")
    config: dict[str, Any] = p5.default_config(1)
    config["palace"] = subject
    return BalanceGame(config, seats=1, seat=0)
