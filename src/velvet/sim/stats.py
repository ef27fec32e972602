"""Small statistics for win rates: Wilson score intervals."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Rate:
    """``wins`` out of ``n`` with its 95% Wilson interval ``[low, high]``."""

    wins: float
    n: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.wins / self.n if self.n else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "wins": self.wins,
            "n": self.n,
            "rate": round(self.rate, 6),
            "ci95": [round(self.low, 6), round(self.high, 6)],
        }

    def __str__(self) -> str:
        return f"{self.rate:6.1%} [{self.low:5.1%}, {self.high:5.1%}] (n={self.n})"


def wilson(wins: float, n: int, z: float = Z95) -> Rate:
    """The Wilson score interval: sound near 0% and 100% and for small ``n``."""
    if n <= 0:
        return Rate(wins, 0, 0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Rate(wins, n, max(0.0, centre - half), min(1.0, centre + half))


def difference(a: Rate, b: Rate) -> tuple[float, float, float]:
    """``a.rate - b.rate`` with its 95% interval (Newcombe's hybrid score method,
    built from the two Wilson intervals): ``(difference, low, high)``."""
    d = a.rate - b.rate
    low = d - math.sqrt((a.rate - a.low) ** 2 + (b.high - b.rate) ** 2)
    high = d + math.sqrt((a.high - a.rate) ** 2 + (b.rate - b.low) ** 2)
    return d, max(-1.0, low), min(1.0, high)
