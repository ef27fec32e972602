"""How much thinking a bot may do: a number of simulations or of seconds."""

from __future__ import annotations

import time
from dataclasses import dataclass

from velvet.engine.errors import ConfigError


@dataclass(frozen=True, slots=True)
class Budget:
    """Either ``count`` simulations (samples) or ``seconds`` of wall time per decision."""

    count: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if (self.count is None) == (self.seconds is None):
            raise ConfigError("a budget is either a number of simulations or of seconds")
        if self.count is not None and self.count <= 0:
            raise ConfigError(f"budget {self.count} must be a positive number of simulations")
        if self.seconds is not None and not self.seconds > 0:
            raise ConfigError(f"budget {self.seconds}s must be a positive number of seconds")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """Read ``200`` (simulations) or ``1.5s`` (seconds)."""
        raw = text.strip().lower()
        allowed = "a positive integer like 200 or seconds like 1.5s"
        try:
            if raw.endswith("s"):
                return cls(seconds=float(raw[:-1]))
            return cls(count=int(raw))
        except ValueError:
            raise ConfigError(f"bad budget '{text}': use {allowed}") from None

    def __str__(self) -> str:
        return f"{self.seconds:g}s" if self.seconds is not None else str(self.count)

    def meter(self) -> Meter:
        return Meter(self)


class Meter:
    """Counts one decision's work against its budget (at least one unit always runs)."""

    __slots__ = ("_deadline", "_left", "done")

    def __init__(self, budget: Budget) -> None:
        self.done = 0
        self._left = budget.count
        self._deadline = (
            time.perf_counter() + budget.seconds if budget.seconds is not None else None
        )

    def more(self) -> bool:
        """True while the budget allows another unit of work; counts it."""
        if self.done and (
            (self._left is not None and self.done >= self._left)
            or (self._deadline is not None and time.perf_counter() >= self._deadline)
        ):
            return False
        self.done += 1
        return True
