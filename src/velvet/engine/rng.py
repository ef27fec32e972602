"""The one seeded random number generator that a game state holds.

SplitMix64 keeps its whole state in one integer, so cloning and serialising
it costs nothing. Tests script outcomes: every draw first takes the next
scripted value, so dice and shuffles can be rigged without touching rules.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence
from typing import Any, TypeVar

from mypy_extensions import mypyc_attr

from velvet.engine.errors import RecordError

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
T = TypeVar("T")


class ScriptError(ValueError):
    """A scripted outcome does not fit the draw it was used for (a test bug)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # openspiel_game's probe subclasses it
class Rng:
    """Deterministic PRNG with an optional queue of scripted outcomes."""

    __slots__ = ("_script", "_state")

    def __init__(self, seed: int, script: Iterable[int] = ()) -> None:
        self._state = seed & _MASK
        self._script: list[int] = list(script)

    def _next64(self) -> int:
        self._state = s = (self._state + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``; a scripted value if one is queued."""
        if self._script:
            value = self._script.pop(0)
            if not 0 <= value < n:
                raise ScriptError(f"scripted outcome {value} is outside [0, {n})")
            return value
        return self._next64() % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place (each swap is one scriptable draw)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def script(self, values: Iterable[int]) -> None:
        """Queue outcomes that the next draws return, in order."""
        self._script.extend(values)

    @property
    def scripted(self) -> tuple[int, ...]:
        return tuple(self._script)

    def clone(self) -> Rng:
        return Rng(self._state, self._script)  # the script list is copied

    def to_json(self) -> dict[str, Any]:
        return {"state": self._state, "script": list(self._script)}

    @classmethod
    def from_json(cls, data: Any) -> Rng:
        if (
            not isinstance(data, dict)
            or not isinstance(data.get("state"), int)
            or not isinstance(data.get("script", []), list)
            or not all(isinstance(v, int) for v in data.get("script", []))
        ):
            raise RecordError("rng: expected {'state': int, 'script': [int, ...]}")
        return cls(data["state"], data.get("script", []))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Rng) and self._state == other._state and self._script == other._script
        )

    def __hash__(self) -> int:
        return hash((self._state, tuple(self._script)))

    def __repr__(self) -> str:
        return f"Rng(state={self._state:#x}, script={self._script!r})"
