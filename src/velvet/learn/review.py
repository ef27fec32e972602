"""Review of a game record: every decision judged from the mover's own view (docs/learn.md).

For each decision of a record (a move with more than one legal choice) :func:`review`
runs the hint search (:func:`velvet.bots.hints.judge`) on the position as it stood,
reading only the mover's view of it (``state.view(seat)`` and the game's determinize): no
hidden card and no later die roll reaches the estimate, so a move is judged on what its
player could know. From that one search come the chance to win *before* the move (the
search's best move, as a hint gives it) and *after* it (the move made), both through the
game's ``hint_calibration`` map, so both assume every seat plays on like the game's
``chance_bot`` level (:func:`~velvet.bots.hints.assumed_bot`). A drop beyond the two
estimates' combined margin is a mistake; the review names the better move and its reason.

Decisions run in worker processes (``workers``; 0: in this process), each with its own
budget: a number of simulations capped by a number of seconds.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from velvet.bots.budget import Budget
from velvet.bots.hints import (
    ASSUMED_BOT,
    CALIBRATION_BUDGET,
    PLAYED_VISITS,
    Hint,
    assumed_bot,
    assumed_play,
    judge,
)
from velvet.engine.core import Game, State, choose_by_text, player_name
from velvet.engine.errors import ConfigError, RecordError, VelvetError
from velvet.engine.record import GameRecord
from velvet.engine.workers import new_pool as workers_pool
from velvet.engine.workers import stop_pool

REVIEW_FORMAT = "velvet-review/1"
SECONDS = 0.5
"""Seconds of search per decision by default: a 100-decision game in about 50 s on one core."""
SIMULATIONS = CALIBRATION_BUDGET
"""Simulations per decision at most (the budget the chances were calibrated at)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One move of the record, judged from its mover's view (``best`` None: it was forced)."""

    index: int
    """The move's number in the record, from 1."""
    mover: int
    move: str
    label: str
    choices: int
    best: Hint | None = None
    played: Hint | None = None
    seconds: float = 0.0

    @property
    def judged(self) -> bool:
        return self.best is not None and self.played is not None

    @property
    def before(self) -> float | None:
        """The mover's chance to win before the move: that of the search's best move."""
        return None if self.best is None else self.best.win

    @property
    def after(self) -> float | None:
        """The mover's chance to win after the move made."""
        return None if self.played is None else self.played.win

    @property
    def drop(self) -> float:
        if self.best is None or self.played is None:
            return 0.0
        return max(self.best.win - self.played.win, 0.0)

    @property
    def margin(self) -> float:
        """The margin of the drop: the two estimates' margins combined (in quadrature)."""
        if self.best is None or self.played is None:
            return 1.0
        return math.hypot(self.best.margin, self.played.margin)

    @property
    def mistake(self) -> bool:
        """A drop beyond the margin, by a move other than the search's best."""
        if self.best is None or self.played is None:
            return False
        return self.played.action != self.best.action and self.drop > self.margin

    def to_json(self) -> dict[str, Any]:
        def pct(x: float | None) -> float | None:
            return None if x is None else round(x, 4)

        return {
            "index": self.index,
            "mover": self.mover,
            "move": self.move,
            "label": self.label,
            "choices": self.choices,
            "forced": self.choices == 1,
            "judged": self.judged,
            "before": pct(self.before),
            "after": pct(self.after),
            "drop": round(self.drop, 4),
            "margin": round(self.margin, 4),
            "mistake": self.mistake,
            "best": None if self.best is None else self.best.to_json(),
            "played": None if self.played is None else self.played.to_json(),
            "seconds": round(self.seconds, 3),
        }


@dataclass
class Review:
    """A record's decisions, judged."""

    game: str
    players: int
    moves: int
    seconds: float | None
    """The search's time cap per decision (None: none, the simulations alone)."""
    simulations: int
    decisions: list[Decision] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)
    outcome: str = ""
    bot: str = ASSUMED_BOT

    @property
    def assumes(self) -> str:
        return assumed_play(self.bot, self.players, self.game)

    @property
    def mistakes(self) -> list[Decision]:
        return [d for d in self.decisions if d.mistake]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": REVIEW_FORMAT,
            "game": self.game,
            "players": self.players,
            "seats": list(self.seats),
            "moves": self.moves,
            "outcome": self.outcome,
            "bot": self.bot,
            "assumes": self.assumes,
            "budget": {"seconds": self.seconds, "simulations": self.simulations},
            "decisions": [d.to_json() for d in self.decisions],
            "mistakes": [d.index for d in self.mistakes],
        }


@dataclass(frozen=True, slots=True)
class Position:
    """A decision to judge: the state before move ``index`` and the move made there."""

    index: int
    state: State[Any]
    action: Any
    text: str


def positions(game: Game[Any], record: GameRecord) -> tuple[list[Position], State[Any]]:
    """Every position of ``record`` before a move (a copy each), and the last state.

    Raises RecordError naming the first move that does not replay."""
    out: list[Position] = []
    final: State[Any] | None = None
    for number, (state, _, _) in enumerate(record.steps(game), start=1):
        final = state
        if number > len(record.actions):
            break
        text = record.actions[number - 1]
        if state.is_terminal():
            raise RecordError(f"record: action {number} '{text}' comes after the game is over")
        try:
            action = choose_by_text(state, text)
        except VelvetError as error:
            raise RecordError(
                f"record: action {number} '{text}' cannot be replayed: {error}"
            ) from error
        out.append(Position(number, state.clone(), action, text))
    assert final is not None  # steps() always yields the start state
    return out, final


def judge_position(position: Position, budget: Budget) -> Decision:
    """One decision judged from its mover's view (in a worker, or here)."""
    state = position.state
    seat = state.current_player
    legal = state.legal_actions()
    label = _label(state, position.action)
    if len(legal) == 1:
        return Decision(position.index, seat, position.text, label, 1)
    start = time.perf_counter()
    search, more = split(budget)
    top, played = judge(state, seat, position.action, search, top=1, more=more)
    return Decision(
        position.index,
        seat,
        position.text,
        label,
        len(legal),
        top[0] if top else None,
        played,
        time.perf_counter() - start,
    )


PLAYED_SHARE = 1 / 3
"""Of a decision's time, the share left for searching on below the move made."""


def split(budget: Budget) -> tuple[Budget, Budget]:
    """A decision's budget as the main search's and the played move's (a third of the time
    cap, at most :data:`~velvet.bots.hints.PLAYED_VISITS` simulations)."""
    if budget.cap is None:
        return budget, Budget(count=PLAYED_VISITS)
    return (
        Budget(count=budget.count, seconds=budget.seconds, cap=budget.cap * (1 - PLAYED_SHARE)),
        Budget(count=PLAYED_VISITS, cap=budget.cap * PLAYED_SHARE),
    )


def _label(state: State[Any], action: Any) -> str:
    try:
        return state.action_label(action)
    except Exception:  # a game's labels must never break a review
        return str(action)


def budget_for(seconds: float | None, simulations: int) -> Budget:
    """``simulations`` per decision, stopped after ``seconds`` (None: never)."""
    if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
        raise ConfigError(f"seconds per decision must be more than 0, not {seconds}")
    if simulations < 1:
        raise ConfigError(f"simulations per decision must be 1 or more, not {simulations}")
    return Budget(count=simulations, cap=seconds)


def review(
    game: Game[Any],
    record: GameRecord,
    *,
    seconds: float | None = SECONDS,
    simulations: int = SIMULATIONS,
    workers: int = 1,
    seats: Iterable[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Judge every decision of ``record`` (of ``seats`` only, if given) from its mover's view.

    ``progress(done, total)`` is called as decisions are judged. Forced moves (one legal
    choice) are listed, not searched. Raises RecordError for a record that does not replay
    and ConfigError for a bad budget, seat or worker count.
    """
    budget = budget_for(seconds, simulations)
    if workers < 0:
        raise ConfigError(f"workers must be 0 or more, not {workers}")
    found, final = positions(game, record)
    players = len(final.returns())
    wanted = None if seats is None else set(seats)
    if wanted is not None:
        bad = sorted(s for s in wanted if not 0 <= s < players)
        if bad:
            raise ConfigError(
                f"no {player_name(bad[0])} in this game: it has {players} player"
                + ("s" if players > 1 else "")
            )
        found = [p for p in found if p.state.current_player in wanted]
    decisions = judge_all(found, budget, workers, progress, game, record)
    return Review(
        game.name,
        players,
        len(record.actions),
        seconds,
        simulations,
        decisions,
        list(record.seats),
        final.outcome_text() if final.is_terminal() else "",
        assumed_bot(game.name),
    )


def judge_all(
    found: list[Position],
    budget: Budget,
    workers: int,
    progress: Callable[[int, int], None] | None = None,
    game: Game[Any] | None = None,
    record: GameRecord | None = None,
) -> list[Decision]:
    """The decisions of ``found``, in order, judged in ``workers`` processes (0: here).

    With ``game`` and ``record`` (what ``found`` was read from), each worker replays the
    record once and is sent move numbers, not states."""
    total = len(found)
    if progress is not None:
        progress(0, total)
    if workers == 0 or total <= 1:
        out = []
        for done, position in enumerate(found, start=1):
            out.append(judge_position(position, budget))
            if progress is not None:
                progress(done, total)
        return out
    from concurrent.futures import Future, as_completed

    replayed = game is not None and record is not None
    pool = new_pool(workers, (game, record.to_json()) if game and record else None)
    try:
        futures: dict[Future[Decision], int] = {}
        for i, p in enumerate(found):
            if replayed:
                futures[pool.submit(_judge_move, p.index, budget)] = i
            else:
                futures[pool.submit(judge_position, p, budget)] = i
        results: dict[int, Decision] = {}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            if progress is not None:
                progress(len(results), total)
        return [results[i] for i in range(total)]
    finally:
        stop_pool(pool)


_replayed: dict[int, Position] = {}
"""In a worker: the positions of its record by move number (set when it starts)."""


def _replay_once(replay: tuple[Game[Any], dict[str, Any]]) -> None:
    """In a worker, as it starts: replay the record once (moves are then sent by number)."""
    game, data = replay
    found, _ = positions(game, GameRecord.from_json(data))
    _replayed.update((p.index, p) for p in found)


def _judge_move(index: int, budget: Budget) -> Decision:
    return judge_position(_replayed[index], budget)


def new_pool(workers: int, replay: tuple[Game[Any], dict[str, Any]] | None = None) -> Any:
    """``workers`` spawned processes that die with this one; with ``replay`` (a game and a
    record's JSON), each replays the record once as it starts."""
    if replay is None:
        return workers_pool(workers)
    return workers_pool(workers, _replay_once, (replay,))
