"""Repetition avoidance: the views a bot has already decided from in this game.

Some games allow free actions that change nothing for good (P5: equip and
unequip the same persona outside the palace, P5-ARSENE-3); a bot whose
evaluator sees no difference could cycle through them for ever. Bots remember
the views they decided from and steer away from actions that lead straight
back to one. (Free *skills* cannot cycle: the P5 card schema refuses an
activated ability without a 1/Day or 1/Palace limit that costs nothing in the end.)

The check runs for every candidate action on the search path, so a view is
remembered by a 16-byte BLAKE2b digest of its ``repr`` rather than by its
canonical JSON: cheaper to compute and to keep (``benchmarks/bot_memory.py``
measures what the bots gain). ``repr`` follows the view's key order, which
the engine builds the same way every time; two equal views in another order
would only miss a repeat, never flag a false one.
"""

from __future__ import annotations

import hashlib
from typing import Any

MAX_REMEMBERED = 50_000
REPEAT_PENALTY = 0.5
"""Subtracted from the score of an action whose result is a view already seen."""


def fingerprint(view: dict[str, Any]) -> bytes:
    """A 16-byte digest of a view, equal for equal views built in the same order."""
    return hashlib.blake2b(repr(view).encode("utf-8", "surrogatepass"), digest_size=16).digest()


class ViewMemory:
    """A set of view fingerprints (cleared if it grows past MAX_REMEMBERED)."""

    __slots__ = ("_seen",)

    def __init__(self) -> None:
        self._seen: set[bytes] = set()

    def remember(self, view: dict[str, Any]) -> None:
        if len(self._seen) >= MAX_REMEMBERED:
            self._seen.clear()
        self._seen.add(fingerprint(view))

    def seen(self, view: dict[str, Any]) -> bool:
        return fingerprint(view) in self._seen

    def __len__(self) -> int:
        return len(self._seen)
