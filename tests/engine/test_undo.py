"""The undo ledger (velvet.engine.undo) that the terminal and the server both keep: a move
is taken back with all after it while nothing hidden or random came out after it, another
person's move at one screen ends it, and an undo further back than the snapshots kept
plays on from the nearest one or replays the game."""

from __future__ import annotations

from typing import Any

from velvet.engine.undo import UndoLedger


class Counter:
    """A stand-in state: a total, whose turn it is, and whether the last move revealed."""

    def __init__(self, total: int = 0, player: int = 0, revealed: int = 0) -> None:
        self.total, self.player, self.revealed = total, player, revealed

    @property
    def current_player(self) -> int:
        return self.player

    def clone(self) -> Counter:
        return Counter(self.total, self.player, self.revealed)

    def reveals_since(self, before: Any) -> bool:
        return bool(self.revealed != before.revealed)

    def legal_actions(self) -> list[str]:
        return ["add", "reveal", "pass"]

    def apply_unchecked(self, action: str) -> list[Any]:
        self.total += action == "add"
        self.revealed += action == "reveal"
        self.player = 1 - self.player
        return []


def _play(ledger: UndoLedger, state: Counter, moves: list[str]) -> Counter:
    for move in moves:
        before = state.clone()
        state.apply_unchecked(move)
        ledger.push(before, state)  # type: ignore[arg-type]
    return state


def test_a_move_is_taken_back_to_its_seats_last_decision() -> None:
    ledger = UndoLedger()
    _play(ledger, Counter(), ["add", "add", "add"])  # seats 0, 1, 0
    assert ledger.movers == [0, 1, 0]
    assert ledger.target(0) == 2 and ledger.target(1) == 1
    assert ledger.take_back(1) == 1  # seat 1's move and seat 0's after it
    assert ledger.movers == [0] and set(ledger.snapshots) == {0, 1}


def test_nothing_before_a_reveal_is_taken_back() -> None:
    ledger = UndoLedger()
    _play(ledger, Counter(), ["add", "reveal", "add"])  # seat 1 revealed at move 1
    assert ledger.barrier == 2 and set(ledger.snapshots) == {2}
    assert ledger.target(1) is None  # its move revealed: it stands
    assert ledger.target(0) == 2  # the move after the reveal may go


def test_at_one_screen_another_persons_move_ends_the_undo_but_a_bots_does_not() -> None:
    ledger = UndoLedger()
    _play(ledger, Counter(), ["add", "add"])  # seat 0, then seat 1
    assert ledger.target(0) == 0  # a bot at seat 1: its move goes too
    assert ledger.target(0, among=[0, 1]) is None  # a person at seat 1: it stands


def test_an_undo_past_the_snapshots_kept_plays_on_or_replays() -> None:
    ledger = UndoLedger(keep=2)
    moves = ["add"] * 5
    _play(ledger, Counter(), moves)
    assert set(ledger.snapshots) == {3, 4}  # only the latest two kept
    replayed: list[int] = []

    def replay(n: int) -> Any:
        replayed.append(n)
        return _play(UndoLedger(), Counter(), moves[:n])

    state = ledger.state_after(4, moves, replay)
    assert isinstance(state, Counter) and state.total == 4 and replayed == []  # a copy
    assert state is not ledger.snapshots[4]
    back = ledger.state_after(1, moves, replay)
    assert isinstance(back, Counter) and back.total == 1 and replayed == [1]


def test_a_loaded_game_starts_with_nothing_to_take_back() -> None:
    ledger = UndoLedger()
    _play(ledger, Counter(), ["add"])
    ledger.restart(7)
    assert ledger.movers == [None] * 7 and ledger.barrier == 7 and not ledger.snapshots
    assert ledger.target(0) is None
    _play(ledger, Counter(player=1), ["add"])
    assert ledger.target(1) == 7
