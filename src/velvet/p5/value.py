"""A day-aware leaf value for P5's ``expert`` level (P5's spec names it ``expert_evaluator``).

The plain evaluator (``p5_evaluator``) scores palace progress plus tokens and stats held,
whatever the day, so a search 16 actions deep values gathering as much on day 25 as on
day 3 and a day spent costs nothing: ``expert`` won, but late (median day 26). Here the
same palace progress is scored, but what is held counts only for the days still left to
use it, and every day gone costs: of two playouts that end equally far into the palace,
the one on an earlier day scores higher, so the search prefers winning sooner. It reads
only a seat's view (``day``, ``days``, the palace, the players' tokens and stats).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from velvet.engine.core import Game

DAY_COST = 0.3
"""What the whole calendar costs: a leaf on the last day scores this share less than the
same position on day 1 (what is held aside); a day is then about 1 % of the value."""
SHADOW_WEIGHT = 0.15
"""Of the palace's progress before the boss, the share for the revealed shadows' health."""


def _num(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _total(tokens: Any) -> float:
    return sum(_num(v) for v in tokens.values()) if isinstance(tokens, Mapping) else 0.0


def palace_progress(view: Mapping[str, Any]) -> float:
    """How far into the palace the view is, 0 (nothing done) to 1 (the boss has no health
    left): alert and revealed shadows' health up to 0.6, the boss's health above it."""
    found = view.get("palace")
    palace: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    boss = palace.get("boss")
    if isinstance(boss, Mapping):
        return 0.6 + 0.4 / (1.0 + 0.25 * _total(boss.get("remaining")))
    alert = min(100.0, _num(palace.get("alert"))) / 100.0
    shadows_left = sum(_total(s.get("remaining")) for s in palace.get("shadows", ()) or ())
    return 0.6 * alert + SHADOW_WEIGHT / (1.0 + 0.5 * shadows_left)


def time_used(view: Mapping[str, Any]) -> float:
    """The share of the calendar gone, 0 on day 1 to 1 on the last day."""
    days = _num(view.get("days"))
    if days <= 1:
        return 0.0
    return max(0.0, min(1.0, (_num(view.get("day")) - 1.0) / (days - 1.0)))


def p5_day_value(game: Game[Any], view: dict[str, Any], player: int) -> float:
    """Palace progress, plus tokens and stats weighted by the days left, less the days gone.

    A won game is 1 and a lost one 0; otherwise, with ``t`` the share of the calendar gone
    (:func:`time_used`), ``(0.02 + 0.75 · progress + (1 − t) · (0.1 · tokens/20 + 0.1 ·
    stats/30)) · (1 − DAY_COST · t)`` (tokens and stats capped at 20 and 30, averaged over
    the players), in [0, 1]: a day costs in proportion to what is at stake, and a position
    never reaches 0 (the search keeps telling late positions apart).
    """
    result = view.get("result")
    if result == 1:
        return 1.0
    if result == -1:
        return 0.0
    players = [p for p in view.get("players", ()) if isinstance(p, Mapping)]
    tokens = sum(_total(p.get("fresh")) for p in players) / max(1, len(players))
    stats = sum(_total(p.get("stats")) for p in players) / max(1, len(players))
    held = 0.1 * min(1.0, tokens / 20.0) + 0.1 * min(1.0, stats / 30.0)
    used = time_used(view)
    value = (0.02 + 0.75 * palace_progress(view) + (1.0 - used) * held) * (1.0 - DAY_COST * used)
    return max(0.0, min(1.0, value))
