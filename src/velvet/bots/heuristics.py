"""Built-in evaluators for P5 and VS, reading only a seat's view (and public card data).

They give search a gradient before the game ends: P5 is rarely won by random
playouts, so progress through the palace is what a playout's end is scored
by; VS is scored by the HP race, with cards in hand and on the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from velvet.bots.evaluators import register_evaluator
from velvet.engine.core import Game


def _num(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _total(tokens: Any) -> float:
    return sum(_num(v) for v in tokens.values()) if isinstance(tokens, Mapping) else 0.0


def p5_evaluator(game: Game, view: dict[str, Any], player: int) -> float:
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


def vs_evaluator(game: Game, view: dict[str, Any], player: int) -> float:
    """The HP race, with hand and field size as tie-breakers."""
    winner = view.get("winner")
    if isinstance(winner, int) and winner >= 0:
        return 1.0 if winner == player else 0.0
    hp = view.get("hp") or [30, 30]
    other = 1 - player
    mine, theirs = _num(hp[player]), _num(hp[other])
    hands = view.get("hand_sizes") or [0, 0]
    decks = view.get("deck_sizes") or [1, 1]
    field = view.get("field") or [[], []]
    on_field = [sum(1 for slot in side if slot) for side in field] if len(field) == 2 else [0, 0]
    value = 0.5 + 0.4 * (mine - theirs) / 30.0
    value += 0.04 * (_num(hands[player]) - _num(hands[other])) / 5.0
    value += 0.04 * (on_field[player] - on_field[other]) / 3.0
    if _num(decks[player]) < 3:
        value -= 0.1
    return max(0.02, min(0.98, value))


register_evaluator("p5", p5_evaluator)
register_evaluator("vs", vs_evaluator)
