"""The P5 board game's printed cards (``GameSpec.print_cards``): thieves, personas,
confidants, shadows and locations as :class:`velvet.printing.cardtext.PrintCard` faces."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.p5 import cards as p5
from velvet.p5.game import P5Game
from velvet.printing.cardtext import Icon, Line, PrintCard

_RES_NAME = {"stamina": "Stamina", "sp": "SP", "bullet": "Bullet", "cash": "Cash", "any": "ANY"}


def _amount(amount: Mapping[Any, int]) -> str:
    return " + ".join(f"{n} {_RES_NAME.get(k, k)}" for k, n in amount.items() if n)


def _p5_icons(amount: Mapping[Any, int]) -> tuple[Icon, ...]:
    return tuple((kind, str(n)) for kind, n in amount.items() if n)


def print_cards(game: Game[Any], deck: Path | str | None = None) -> list[PrintCard]:
    """Thieves, personas, confidants, shadows and locations of a P5 card set, in file order.

    Palaces and the rules table are printed as boards (:mod:`velvet.printing.sheets`).
    """
    if deck is not None:
        raise ConfigError("--deck is for Persona VS; the P5 board game has no decks")
    if not isinstance(game, P5Game):
        raise ConfigError(f"the P5 cards are printed from the P5 game, not '{game.name}'")
    cs = game.cards
    out: list[PrintCard] = []

    def ability(a: p5.Ability) -> Line:
        icons = _p5_icons(a.cost)
        if a.type:
            icons += ((a.type, ""),)
        return Line(p5.ability_text(a), icons)

    def costs(abilities: Sequence[p5.Ability]) -> tuple[str, ...]:
        return tuple(_amount({k: n}) for a in abilities for k, n in a.cost.items() if n)

    for t in cs.thieves:
        printed = {str(k): n for k, n in t.stats.items()}
        stats = "  ".join(f"{s.capitalize()} {printed[s]}" for s in p5.STATS)
        out.append(
            PrintCard(
                t.id,
                t.name,
                "thief",
                "p5",
                (Line(f"Social stats: {stats}"), ability(t.passive)),
                costs=costs([t.passive]),
            )
        )
    for p in cs.personas:
        head = (
            (Line("Persona party: uses the persona abilities of the shadows you hold."),)
            if p.party
            else ()
        )
        out.append(
            PrintCard(
                p.id,
                p.name,
                "persona",
                "p5",
                head + tuple(ability(a) for a in p.skills),
                costs=costs(p.skills),
            )
        )
    for c in cs.confidants:
        checks = " + ".join(s.capitalize() for s in c.checks)
        lines = [Line(f"Recruit: {checks} checks")]
        if c.arcana:
            lines.insert(0, Line(f"Arcana: {c.arcana}"))
        lines.append(ability(c.ability))
        out.append(
            PrintCard(c.id, c.name, "confidant", "p5", tuple(lines), costs=costs([c.ability]))
        )
    for s in cs.shadows:
        lines = [Line(f"Health: {_amount(s.health)}", _p5_icons(s.health))]
        if s.text:
            lines.append(Line(s.text))
        if s.on_enter:
            lines.append(Line(f"On Palace Enter: {p5.effect_text(s.on_enter)}"))
        if s.on_death:
            lines.append(Line(f"On Death: {p5.effect_text(s.on_death)}"))
        persona = ability(s.persona)
        lines.append(Line(f"Persona: {persona.text}", persona.icons))
        weak = tuple((w, "") for w in s.weak)
        out.append(
            PrintCard(
                s.id,
                s.name,
                "shadow",
                "p5",
                tuple(lines),
                corner=weak,
                costs=(
                    *(_amount({k: n}) for k, n in s.health.items() if n),
                    *costs([s.persona]),
                ),
            )
        )
    for loc in cs.locations:
        lines = [Line("Starting location")] if loc.start else []
        if loc.text:
            lines.append(Line(loc.text))
        lines.append(Line(p5.effect_text(loc.effects)))
        out.append(PrintCard(loc.id, loc.name, "location", "p5", tuple(lines)))
    return out
