"""Persona VS's printed cards (``GameSpec.print_cards``): player cards, personas, supports
and reacts as :class:`velvet.printing.cardtext.PrintCard` faces."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.printing.cardtext import Line, PrintCard
from velvet.vs import cards as vs
from velvet.vs.decks import load_deck
from velvet.vs.game import VsGame


def _vs_effects(effects: Sequence[object], context: str) -> str:
    parts = [vs.effect_text(e, context) for e in effects if isinstance(e, vs.Effect)]
    text = "; ".join(parts)
    return (text[:1].upper() + text[1:] + ".") if text else ""


def print_cards(game: Game[Any], deck: Path | str | None = None) -> list[PrintCard]:
    """Player cards and every card of a VS set (by id), or the 40 cards of ``deck``."""
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
