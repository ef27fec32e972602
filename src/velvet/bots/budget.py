"""How much thinking a bot may do: a number of simulations or of seconds."""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass

from velvet.engine.errors import ConfigError

_COUNT = re.compile(r"[0-9]{1,12}")
_SECONDS = re.compile(r"(?:[0-9]{1,9}(?:\.[0-9]*)?|\.[0-9]+)s")
"""Budgets are plain decimal digits: ``inf``, ``nan``, ``1e9``, ``1_000`` and non-ASCII
digits, all of which Python's ``float``/``int`` would take, are refused."""


@dataclass(frozen=True, slots=True)
class Budget:
    """Either ``count`` simulations (samples) or ``seconds`` of wall time per decision.

    ``cap`` (optional) is a deadline in seconds on top of either: the decision stops there
    with what it found so far, whatever its count (a server's bot deadline).
    """

    count: int | None = None
    seconds: float | None = None
    cap: float | None = None

    def __post_init__(self) -> None:
        if (self.count is None) == (self.seconds is None):
            raise ConfigError("a budget is either a number of simulations or of seconds")
        if self.count is not None and not (type(self.count) is int and self.count > 0):
            raise ConfigError(f"budget {self.count} must be a positive number of simulations")
        if self.seconds is not None and not (math.isfinite(self.seconds) and self.seconds > 0):
            raise ConfigError(f"budget {self.seconds}s must be a positive number of seconds")
        if self.cap is not None and not (math.isfinite(self.cap) and self.cap > 0):
            raise ConfigError(f"a budget's cap {self.cap}s must be a positive number of seconds")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """Read ``200`` (simulations) or ``1.5s`` (seconds): decimal digits only."""
        raw = text.strip().lower()
        allowed = "a positive integer like 200 or seconds like 1.5s"
        if _COUNT.fullmatch(raw):
            return cls(count=int(raw))
        if _SECONDS.fullmatch(raw):
            return cls(seconds=float(raw[:-1]))
        raise ConfigError(f"bad budget '{text[:40]}': use {allowed}")

    def capped(self, seconds: float) -> Budget:
        """This budget, stopping after ``seconds`` at most whatever its count."""
        cap = seconds if self.cap is None else min(self.cap, seconds)
        return Budget(count=self.count, seconds=self.seconds, cap=cap)

    def check_within(self, seconds: float, simulations: int, what: str = "") -> None:
        """Raise ConfigError naming ``what`` when this budget asks for more than ``seconds``
        seconds or ``simulations`` simulations per decision (a server's limits)."""
        who = f"{what}: " if what else ""
        if self.seconds is not None and self.seconds > seconds:
            raise ConfigError(
                f"{who}budget {self} is over this server's limit of {seconds:g}s per decision"
            )
        if self.count is not None and self.count > simulations:
            raise ConfigError(
                f"{who}budget {self} is over this server's limit of {simulations} "
                "simulations per decision"
            )

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
        limits = [x for x in (budget.seconds, budget.cap) if x is not None]
        self._deadline = time.perf_counter() + min(limits) if limits else None

    def more(self) -> bool:
        """True while the budget allows another unit of work; counts it."""
        if self.done and (
            (self._left is not None and self.done >= self._left)
            or (self._deadline is not None and time.perf_counter() >= self._deadline)
        ):
            return False
        self.done += 1
        return True
