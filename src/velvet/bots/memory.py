"""Repetition avoidance: the views a bot has already decided from in this game.

Some games allow free actions that change nothing for good (P5: equip and
unequip the same persona); a bot whose evaluator sees no difference could
cycle through them for ever. Bots remember the views they decided from and
steer away from actions that lead straight back to one.
"""

from __future__ import annotations

from typing import Any

from velvet.engine.core import canonical_json

MAX_REMEMBERED = 50_000
REPEAT_PENALTY = 0.5
"""Subtracted from the score of an action whose result is a view already seen."""


class ViewMemory:
    """A set of canonical views (cleared if it grows past MAX_REMEMBERED)."""

    __slots__ = ("_seen",)

    def __init__(self) -> None:
        self._seen: set[str] = set()

    def remember(self, view: dict[str, Any]) -> None:
        if len(self._seen) >= MAX_REMEMBERED:
            self._seen.clear()
        self._seen.add(canonical_json(view))

    def seen(self, view: dict[str, Any]) -> bool:
        return canonical_json(view) in self._seen

    def __len__(self) -> int:
        return len(self._seen)
