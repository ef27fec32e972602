"""The rules summary printed with the cards: short clauses with their rule IDs.

Each game's spec names its summary (``GameSpec.rules_summary``: ``p5_summary`` and
``vs_summary`` here are the built-in games'); :func:`summary` finds it only there.
Numbers that are game data (supply, days, party size, stat cap) come from the
loaded card set, so a custom set prints its own.
"""

from __future__ import annotations

from typing import Any

from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.engine.spec import GameSpec

Section = tuple[str, tuple[str, ...]]


def p5_summary(game: Game[Any]) -> list[Section]:
    from velvet.p5.game import P5Game

    if not isinstance(game, P5Game):
        raise ConfigError(f"the P5 rules summary is for the P5 board game, not '{game.name}'")
    rules = game.cards.rules
    supply = ", ".join(f"{n} {k}" for k, n in rules.supply.items())
    solo = ", ".join(f"{n} {k}" for k, n in rules.solo_gain.items() if n) or "nothing"
    return [
        (
            "Set-up",
            (
                f"Supply: {supply}; spent tokens stay with their owner (P5-COMP-3).",
                "Lay out the starting locations; shuffle the others into the locations deck "
                "(P5-SETUP-2). Reveal one confidant under each starting location (P5-SETUP-6).",
                "Each player picks a thief and a persona; stats start at the thief's values "
                "(P5-SETUP-3). Remove the confidants of thieves in play (P5-SETUP-5).",
                "Pick a palace: its 0% row is active (P5-SETUP-7). Reveal "
                f"{rules.reveal_per_player} shadows per player (P5-SETUP-8).",
                f"Solo: gain {solo} (P5-SETUP-10). Arsène starts with "
                f"{rules.arsene_shadows} random shadows (P5-SETUP-11).",
            ),
        ),
        (
            "A day",
            (
                "Each player takes exactly one turn a day, in any order (P5-DAY-1); a turn is "
                "one action: Visit, Recruit, Discover or Visit the Palace (P5-DAY-2).",
                "You never end an action where you started it (P5-DAY-3); a location with "
                "another player's marker is occupied (P5-DAY-4).",
                "Visit: carry out the location's effects top to bottom; an effect you cannot "
                "pay is skipped (P5-VISIT-1, P5-VISIT-2).",
                "Recruit: pass both stat checks to take the confidant; otherwise +1 to one "
                "checked stat (P5-RECRUIT-1 to 3).",
                "Discover: spend 1 Cash, reveal a location and a confidant, move there and "
                "visit or recruit (P5-DISCOVER-1, 2).",
                f"The boss must fall by day {rules.days}, or everyone loses (P5-END-2).",
            ),
        ),
        (
            "The palace and combat",
            (
                "Entering: carry out every On Palace Enter effect of the active rows and "
                "revealed shadows, in your order (P5-PALACE-1); then fight (P5-PALACE-2).",
                "A shadow's health is typed requirements; meet them by spending your tokens "
                "or with skill damage of that type (P5-COMBAT-1, 2).",
                "Weakness: damage of a type the shadow is weak to becomes ANY, which meets any "
                "requirement (P5-COMBAT-4). Amp adds 1 Bullet damage (P5-COMBAT-5).",
                "All revealed shadows defeated: the alert rises a row and new shadows are "
                "revealed (P5-PALACE-3). At 100% the boss appears (P5-BOSS-1); defeat it to "
                "win (P5-END-1).",
                "Checks roll as many Phantom Thief dice as the stat; one success passes "
                "(P5-CHECK-1). Dice: abilities roll one die after paying (P5-CHECK-2).",
            ),
        ),
        (
            "Words on the cards",
            (
                "Gain: take fresh tokens from the supply. Spend: flip fresh to spent (Cash is "
                "discarded). Restore: flip spent back to fresh. Pay: spend if you can; a "
                "shadow's or palace's Pay you cannot meet is ignored (P5-TERM-*).",
                "1/Day, 1/Palace: once per day, once per palace entry. Auto: always on.",
                f"Arsène uses the persona abilities of the shadows held; the active party "
                f"holds {rules.party_size} (P5-ARSENE-1 to 3).",
            ),
        ),
    ]


def vs_summary(game: Game[Any]) -> list[Section]:
    from velvet.vs.cards import HP_START, LOWHP

    return [
        (
            "Set-up",
            (
                "Each player takes a player card and its 40-card deck, puts the VS starter "
                "into their hand and shuffles (VS-SETUP-1).",
                f"Draw up to 5 cards (VS-SETUP-2); both start at {HP_START} HP (VS-SETUP-3).",
                "A deck is 40 cards with its starter and at most 2 cards of a name (VS-DECK-1).",
            ),
        ),
        (
            "A turn",
            (
                "Planning Step, then Skill Step, then Draw Step (VS-TURN-1).",
                "Planning: summon, fuse, change and play supports, in any order (VS-PLAN-1).",
                "Summon: pay the cost by discarding cards from hand or sending field personas "
                "to the discard pile, 1 each (VS-SUMMON-1). At most 1 main and 2 subs "
                "(VS-FIELD-1).",
                "Fuse: put a persona from hand on your field personas, paying its full cost; "
                "it has every ability and skill of its stack (VS-FUSE-1 to 5).",
                "Skill: the main declares a skill; the opponent may React at declaration and "
                "at resolution (VS-SKILL-1). A hit on the main's weakness gives 1 more "
                "(VS-MORE-1 to 3).",
                "Draw: draw up to 5 cards (VS-DRAW-1).",
            ),
        ),
        (
            "Winning and the cards",
            (
                "A player at 0 HP, or who cannot draw, loses (VS-END-1, VS-END-2).",
                "Persona: cost top-left, weakness top-right; white boxes are abilities (from "
                "main or sub), black boxes are skills (main only) (VS-COMP-2, VS-FIELD-2).",
                f"Support and React boxes marked '{LOWHP} HP or less' replace the normal "
                "effect while your HP is that low (VS-LOWHP-1).",
                "No two personas of the same name on one field (VS-RULE-NAME).",
            ),
        ),
    ]


def summary(spec: GameSpec, game: Game[Any]) -> list[Section]:
    """The rules summary sections of ``game``, by its spec's ``rules_summary``; a
    ConfigError if the game has none (print it with ``--no-rules``)."""
    make = spec.plugin("rules_summary", "rules summary")
    if not callable(make):
        raise ConfigError(
            f"game '{spec.name}': rules_summary {spec.rules_summary} is not a function"
        )
    return list(make(game))
