"""What goes on a printed card, built from the card data of a loaded, validated set.

A :class:`PrintCard` is a name, a kind, corner badges (cost, weaknesses) and
body lines, each line with the icons of its costs or damage. Each game builds its own
(its spec's ``print_cards``: ``velvet.p5.printcards``, ``velvet.vs.printcards``) from its
card-text functions, so a printed card says what the engine does. They are laid out for print, with
an icon beside every cost and damage type; ``Game.describe_card`` gives the same
facts as plain lines for screens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.engine.spec import GameSpec
from velvet.games import get_spec

Icon = tuple[str, str]
"""(icon name, label printed beside it): ``("sp", "2")``, ``("fire", "")``."""


@dataclass(frozen=True, slots=True)
class Line:
    """One paragraph of card text, with icons printed in the margin before it."""

    text: str
    icons: tuple[Icon, ...] = ()
    dark: bool = False
    """A black box (a Persona VS skill): light text on dark ground."""


@dataclass(frozen=True, slots=True)
class PrintCard:
    """One card face as printed."""

    id: str
    name: str
    kind: str
    game: str
    lines: tuple[Line, ...]
    cost: str = ""
    """Top-left badge (Persona VS cost); empty for none."""
    corner: tuple[Icon, ...] = ()
    """Top-right icons (weaknesses, a React's damage type)."""
    costs: tuple[str, ...] = field(default=())
    """Every cost and health requirement as words ("1 SP", "Cost 2"), each of which the
    printed card carries, for checks that they reach the page."""


def print_cards(
    game: Game[Any], deck: Path | str | None = None, spec: GameSpec | None = None
) -> list[PrintCard]:
    """The cards to print for ``game`` (a VS ``deck`` prints its 40 cards instead), by its
    spec's ``print_cards`` (``spec``: the game's, by default the one registered under its
    name); a ConfigError if the game has no printed cards."""
    spec = spec or get_spec(game.name)
    make = spec.plugin("print_cards", "printed cards")
    if not callable(make):
        raise ConfigError(f"game '{spec.name}': print_cards {spec.print_cards} is not a function")
    return list(make(game, deck))
