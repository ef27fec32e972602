"""Persona VS's balance bands (``velvet balance check``): one band per deck pairing.

Named by ``balance="velvet.vs.balance"`` in the game's spec. A band's subject is two
built-in decks, ``"p5-p4"``; its rate is the first deck's, over games that alternate
which deck sits first, the first player drawn (see ``GameSpec.balance``).
"""

from __future__ import annotations

from typing import Any

from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.engine.spec import BalanceGame

SUBJECT = "pairing"
DECKS = ("p5", "p4", "p3")
"""The built-in decks a pairing is made of."""


def check_subject(subject: str) -> None:
    """A pairing is two different built-in decks, ``"p5-p4"``."""
    a, _, b = subject.partition("-")
    if a not in DECKS or b not in DECKS or a == b:
        raise ValueError(f"a VS pairing is two of {', '.join(DECKS)} like 'p5-p4'")


def setup(game: Game[Any], subject: str, index: int) -> BalanceGame:
    """Game ``index`` of the pairing: even games seat the first deck first, odd the second;
    the first deck's seat counts."""
    from velvet.vs.game import VsGame

    if not isinstance(game, VsGame):
        raise ConfigError("the card set is not of Persona VS")
    a, _, b = subject.partition("-")
    first, second = (a, b) if index % 2 == 0 else (b, a)
    config = game.default_config(first, second)
    config["first_player"] = None
    return BalanceGame(config, seats=2, seat=0 if first == a else 1)
