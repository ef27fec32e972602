"""What goes on a printed card, built from the card data of a loaded, validated set.

A :class:`PrintCard` is a name, a kind, corner badges (cost, weaknesses) and
body lines, each line with the icons of its costs or damage. The words come
from the game's own card-text functions (``velvet.p5.cards``, ``velvet.vs.cards``),
so a printed card says what the engine does. They are laid out for print, with
an icon beside every cost and damage type; ``Game.describe_card`` gives the same
facts as plain lines for screens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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


# --- P5 -------------------------------------------------------------------------------------

_RES_NAME = {"stamina": "Stamina", "sp": "SP", "bullet": "Bullet", "cash": "Cash", "any": "ANY"}


def _amount(amount: Mapping[Any, int]) -> str:
    return " + ".join(f"{n} {_RES_NAME.get(k, k)}" for k, n in amount.items() if n)


def _p5_icons(amount: Mapping[Any, int]) -> tuple[Icon, ...]:
    return tuple((kind, str(n)) for kind, n in amount.items() if n)


def p5_cards(game: Game[Any], deck: Path | str | None = None) -> list[PrintCard]:
    """Thieves, personas, confidants, shadows and locations of a P5 card set, in file order.

    Palaces and the rules table are printed as boards (:mod:`velvet.printing.sheets`).
    """
    if deck is not None:
        raise ConfigError("--deck is for Persona VS; the P5 board game has no decks")
    from velvet.p5 import cards as p5
    from velvet.p5.game import P5Game

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


# --- VS -------------------------------------------------------------------------------------


def _vs_effects(effects: Sequence[object], context: str) -> str:
    from velvet.vs.cards import Effect, effect_text

    parts = [effect_text(e, context) for e in effects if isinstance(e, Effect)]
    text = "; ".join(parts)
    return (text[:1].upper() + text[1:] + ".") if text else ""


def vs_cards(game: Game[Any], deck: Path | str | None = None) -> list[PrintCard]:
    """Player cards and every card of a VS set (by id), or the 40 cards of ``deck``."""
    from velvet.vs import cards as vs
    from velvet.vs.decks import load_deck
    from velvet.vs.game import VsGame

    if not isinstance(game, VsGame):
        raise ConfigError(f"the VS cards are printed from the VS game, not '{game.name}'")

    out: list[PrintCard] = []
    if deck is None:
        players = list(game.cards.players)
        chosen = list(game.all_cards)
    else:
        ids = load_deck(deck, game)
        players = []
        chosen = [game.card(i) for i in ids]
    for pc in players:
        starter = game.card(pc.starter).name
        player_lines = (
            Line(f"Starts at {vs.HP_START} HP."),
            Line(f"VS starter: {starter}."),
            Line("Draw up to 5 cards at the end of each turn."),
        )
        out.append(PrintCard(pc.id, pc.name, "player", "vs", player_lines))
    for card in chosen:
        lines: list[Line] = []
        if isinstance(card, vs.Persona):
            if card.starter:
                lines.append(Line("VS starter"))
            if card.extra_cost_name:
                lines.append(
                    Line(
                        f"Also costs a persona named {card.extra_cost_name}, discarded from "
                        "hand or field (even from inside a stack)."
                    )
                )
            lines += [Line(vs.ability_text(a)) for a in card.abilities]
            lines += [
                Line(vs.skill_text(s), ((s.type, str(s.damage)),), dark=True) for s in card.skills
            ]
            if card.flavor:
                lines.append(Line(card.flavor))
            weak = ((card.weakness, ""),) if card.weakness else ()
            out.append(
                PrintCard(
                    card.id,
                    card.name,
                    "persona",
                    "vs",
                    tuple(lines),
                    cost=str(card.cost),
                    corner=weak,
                    costs=(f"Cost {card.cost}",),
                )
            )
        elif isinstance(card, vs.Support):
            lines += [Line(_vs_effects(card.effects, "support"))]
            if card.lowhp:
                lines.append(
                    Line("10 HP or less: " + _vs_effects(card.lowhp, "support"), dark=True)
                )
            out.append(PrintCard(card.id, card.name, "support", "vs", tuple(lines)))
        else:
            timing = f"React at {card.timing}"
            if card.vs_type:
                timing += f", against {card.vs_type.capitalize()} skills"
            lines += [Line(timing + "."), Line(_vs_effects(card.effects, "react"))]
            if card.lowhp:
                lines.append(Line("10 HP or less: " + _vs_effects(card.lowhp, "react"), dark=True))
            corner = ((card.vs_type, ""),) if card.vs_type else ()
            out.append(PrintCard(card.id, card.name, "react", "vs", tuple(lines), corner=corner))
    return out


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
