"""Built-in evaluators for P5 and VS, reading only a seat's view (and public card data).

They give search a gradient before the game ends: P5 is rarely won by random
playouts, so progress through the palace is what a playout's end is scored
by; VS is scored by the HP race, with cards in hand and on the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from velvet.engine.core import Game
from velvet.engine.rng import Rng
from velvet.p5.actions import Equip, Unequip

if TYPE_CHECKING:
    from velvet.vs.game import VsGame


def _num(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _total(tokens: Any) -> float:
    return sum(_num(v) for v in tokens.values()) if isinstance(tokens, Mapping) else 0.0


def p5_evaluator(game: Game[Any], view: dict[str, Any], player: int) -> float:
    """Palace progress (alert rows, shadow and boss health left) plus tokens and stats.

    Nothing rewards time left: that would make waiting (free actions) look good.
    """
    result = view.get("result")
    if result == 1:
        return 1.0
    if result == -1:
        return 0.0
    found = view.get("palace")
    palace: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    alert = min(100.0, _num(palace.get("alert"))) / 100.0
    shadows_left = sum(_total(s.get("remaining")) for s in palace.get("shadows", ()) or ())
    boss = palace.get("boss")
    if isinstance(boss, Mapping):
        boss_left = _total(boss.get("remaining"))
        progress = 0.6 + 0.4 / (1.0 + 0.25 * boss_left)
    else:
        progress = 0.6 * alert + 0.15 / (1.0 + 0.5 * shadows_left)
    players = [p for p in view.get("players", ()) if isinstance(p, Mapping)]
    tokens = sum(_total(p.get("fresh")) for p in players) / max(1, len(players))
    stats = sum(_total(p.get("stats")) for p in players) / max(1, len(players))
    value = 0.02 + 0.75 * progress + 0.1 * min(1.0, tokens / 20.0) + 0.1 * min(1.0, stats / 30.0)
    return max(0.0, min(1.0, value))


def p5_playout(legal: Sequence[Any], rng: Rng) -> Any:
    """A P5 search playout's action: uniform, but no party change while anything else is legal.

    A persona party's draft (P5-ARSENE-3) is free, may be opened after every turn's
    action and runs to dozens of one-shadow changes: uniform playouts spent their few
    actions there and never reached the palace, so every day's choice looked alike and
    the bot drafted instead of fighting. The tree still weighs party changes at its own
    decisions; playouts keep the draft's ``done`` and the turn's end.
    """
    plain = [a for a in legal if type(a) is not Equip and type(a) is not Unequip]
    pool = plain or legal
    return pool[rng.randbelow(len(pool))]


def _skill_damage(game: VsGame | None, card_id: object, index: object = None) -> float:
    """Printed damage of one skill of a card, or its best skill (public card data: the
    game's compiled skills, none for a Support or React)."""
    if game is None or not isinstance(card_id, str) or card_id not in game.index:
        return 0.0
    damages = [float(skill.damage) for skill in game.skills[game.index[card_id]]]
    if isinstance(index, int) and 0 <= index < len(damages):
        return damages[index]
    return max(damages, default=0.0)


def _side_strength(game: VsGame | None, side: Any) -> tuple[float, float, float]:
    """(has a main, number of subs, best skill damage of the main's whole stack)."""
    if not isinstance(side, list | tuple) or not side:
        return 0.0, 0.0, 0.0
    main = side[0] if isinstance(side[0], list | tuple) else []
    subs = sum(1 for slot in side[1:] if slot)
    best = max((_skill_damage(game, card) for card in main), default=0.0)
    return (1.0 if main else 0.0), float(subs), best


def vs_evaluator(game: Game[Any], view: dict[str, Any], player: int) -> float:
    """The HP race (counting a declared skill's damage), then board, then hand.

    A declared skill has not hit yet while the defender may React, so its printed
    damage counts as pending unless negated; without that, a one-ply search would
    prefer ending the turn (which refills the hand) to attacking.
    """
    from velvet.vs.game import VsGame  # loaded with the game (not here: P5 runs never need it)

    vs = game if isinstance(game, VsGame) else None
    winner = view.get("winner")
    if isinstance(winner, int) and winner >= 0:
        return 1.0 if winner == player else 0.0
    hp = [_num(v) for v in (view.get("hp") or [30, 30])]
    other = 1 - player
    skill = view.get("skill")
    attacker = view.get("turn")
    step = str(view.get("step", ""))
    if (
        isinstance(skill, list)
        and len(skill) == 3
        and isinstance(attacker, int)
        and attacker in (0, 1)
        and not view.get("negated")
        and step.startswith("react-declaration")
    ):
        hp[1 - attacker] -= _skill_damage(vs, skill[1], skill[2])
    hands = [_num(v) for v in (view.get("hand_sizes") or [0, 0])]
    decks = view.get("deck_sizes") or [1, 1]
    if isinstance(attacker, int) and attacker in (0, 1) and step != "draw":
        # The turn player's Draw Step refills the hand to 5 (VS-DRAW-1) whatever is
        # decided before it, so attacking is not scored below ending the turn early.
        hands[attacker] = max(hands[attacker], min(5.0, hands[attacker] + _num(decks[attacker])))
    field = view.get("field") or [[], []]
    sides = [_side_strength(vs, field[i]) if len(field) == 2 else (0.0, 0.0, 0.0) for i in (0, 1)]
    mine, theirs = sides[player], sides[other]
    value = 0.5 + 0.35 * (hp[player] - hp[other]) / 30.0
    value += 0.06 * (mine[0] - theirs[0]) + 0.02 * (mine[1] - theirs[1])
    value += 0.01 * (mine[2] - theirs[2])
    value += 0.008 * (hands[player] - hands[other])
    if _num(decks[player]) < 3:
        value -= 0.1
    return max(0.02, min(0.98, value))
