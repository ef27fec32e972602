"""What may still be taken back: the one undo rule, kept by the terminal and the server.

A move may be taken back, with every move after it, while nothing hidden or random came
out after it (``State.reveals_since``: a die, a draw, a hidden card): what was seen cannot
be unseen. ``UndoLedger`` keeps, for the moves of one game in order, who made each, the
barrier no undo crosses, and copies of the states before the most recent moves (the
states an undo goes back to).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from velvet.engine.core import State, choose_by_text

MAX_SNAPSHOTS = 32
"""States kept for undo (the most recent positions since the barrier); an undo further
back plays on from the nearest one kept, or replays the game."""


class UndoLedger:
    """The undo facts of one game's moves, move ``i`` being the record's action ``i``."""

    def __init__(self, moves: int = 0, keep: int = MAX_SNAPSHOTS) -> None:
        self.movers: list[int | None] = [None] * moves
        """The seat that made each move (None: made before this ledger began)."""
        self.barrier = moves
        """Moves before this index cannot be taken back."""
        self.snapshots: dict[int, State[Any]] = {}
        """The state after the first N moves, by N, for N from ``barrier`` on (never
        changed: ``state_after`` hands out copies)."""
        self.keep = keep

    def restart(self, moves: int) -> None:
        """Begin again after ``moves`` moves none of which may be taken back (a game loaded)."""
        self.movers = [None] * moves
        self.barrier = moves
        self.snapshots.clear()

    def push(self, before: State[Any], after: State[Any]) -> None:
        """Count a move made from ``before`` (kept as it is: the caller never changes it
        again) to ``after``; a move that revealed anything moves the barrier past it."""
        made = len(self.movers)
        self.movers.append(before.current_player)
        self.snapshots[made] = before
        if after.reveals_since(before):
            self.barrier = made + 1
            self.snapshots.clear()  # no undo goes back past a reveal
        while len(self.snapshots) > self.keep:
            del self.snapshots[min(self.snapshots)]

    def target(self, seat: int, among: Collection[int] | None = None) -> int | None:
        """How many moves stand once ``seat`` takes back its last move (and all after it):
        None if it made none since the barrier, or (``among``: the seats whose moves count,
        the people at one screen) if another of those seats moved after it."""
        for index in range(len(self.movers) - 1, self.barrier - 1, -1):
            mover = self.movers[index]
            if mover == seat:
                return index
            if among is not None and mover in among:
                return None
        return None

    def take_back(self, keep: int) -> int | None:
        """Forget the moves after the first ``keep``; returns the seat that made move ``keep``."""
        seat = self.movers[keep]
        del self.movers[keep:]
        for n in [n for n in self.snapshots if n > keep]:
            del self.snapshots[n]  # states of the moves taken back
        self.barrier = min(self.barrier, keep)
        return seat

    def state_after(
        self, keep: int, actions: Sequence[str], replay: Callable[[int], State[Any]]
    ) -> State[Any]:
        """The state after the first ``keep`` of ``actions``: a copy of its snapshot, else
        the nearest one before it played on, else ``replay(keep)`` (from the seed)."""
        start = max((n for n in self.snapshots if n <= keep), default=None)
        if start is None:
            return replay(keep)
        state = self.snapshots[start].clone()
        for text in actions[start:keep]:
            state.apply_unchecked(choose_by_text(state, text))
        return state
