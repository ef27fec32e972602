"""Hints and forecasts (in P5: the chance to beat the boss in time) for a seat, worked out
away from the event loop.

The search is CPU-bound, so it runs in worker processes of its own (``hint_workers``;
0: a thread, for tests and tiny hosts), never in the loop that serves every room. A
worker gets a copy of the room's state and the seat; :func:`velvet.bots.hints.hints`
reads only that seat's view of it. docs/protocol.md ("Hints") tells the messages.
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import time
from collections.abc import Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from velvet.bots.budget import Budget
from velvet.engine.core import State
from velvet.engine.errors import ConfigError
from velvet.engine.workers import new_pool, stop_pool
from velvet.server.protocol import ErrorMsg

HINT_BUDGET = "1.5s"
"""The search behind a hint by default: 1.5 seconds, so an answer comes in about 1.5 s however
busy the machine is (docs/protocol.md has the measurements)."""
FORECAST_GAMES = 20
FORECAST_SECONDS = 3.0
"""A forecast stops after this many seconds (after one game at least), with the games played."""
FORECAST_BOT: str | None = None
"""The forecast's bot; None: each game's ``chance_bot`` (``velvet.bots.hints.assumed_bot``),
the play a hint's chance assumes too, so the two estimate the same play (docs/lab.md, "Hint
and forecast")."""
HINT_LIMIT = 8
"""Hints and forecasts being worked out at once in this process; more are refused."""
HINT_PER_SEAT = 1
"""Of those, at most this many for one seat of one room, however many sockets it opens."""
HINT_PER_ADDRESS = 2
"""Of those, at most this many for one client address, however many seats and rooms it has."""


@dataclass(frozen=True)
class HintSettings:
    """The server's hint settings (``velvet serve --hint-budget …``)."""

    budget: str = HINT_BUDGET
    workers: int = 1
    forecast_games: int = FORECAST_GAMES
    forecast_seconds: float = FORECAST_SECONDS
    forecast_bot: str | None = FORECAST_BOT
    limit: int = HINT_LIMIT
    per_seat: int = HINT_PER_SEAT
    per_address: int = HINT_PER_ADDRESS

    def __post_init__(self) -> None:
        Budget.parse(self.budget)  # a bad budget fails at start, not at the first hint
        if self.workers < 0:
            raise ConfigError(f"hint workers must be 0 or more, not {self.workers}")
        if self.forecast_games < 1:
            raise ConfigError(f"forecast games must be 1 or more, not {self.forecast_games}")
        if not self.forecast_seconds > 0:
            raise ConfigError(f"forecast seconds must be more than 0, not {self.forecast_seconds}")
        for name, value in (
            ("limit", self.limit),
            ("limit per seat", self.per_seat),
            ("limit per address", self.per_address),
        ):
            if value < 1:
                raise ConfigError(f"the hint {name} must be 1 or more, not {value}")
        from velvet.games import game_names, has_forecast
        from velvet.server.bots import check_spec

        for name in game_names():  # the bot plays the forecasts of every game that has one
            if has_forecast(name) and self.forecast_bot is not None:
                check_spec(self.forecast_bot, name)


class HintSlots:
    """The server's hint slots, shared out: ``limit`` in all, of which one seat of one room
    holds at most ``per_seat`` (whatever number of sockets it opens) and one client address
    at most ``per_address`` (whatever number of rooms and seats it has). A slot is held by
    the task working out a hint, from :meth:`hold` until :meth:`release` or its end."""

    def __init__(self, settings: HintSettings) -> None:
        self.settings = settings
        self._held: dict[asyncio.Task[Any], tuple[Hashable, str]] = {}

    def __len__(self) -> int:
        return len(self._held)

    def refusal(self, seat: Hashable, address: str) -> ErrorMsg | None:
        """Why ``seat`` (any key naming one seat of one room) at ``address`` may not have
        another slot now, or None."""
        s = self.settings
        if sum(1 for key, _ in self._held.values() if key == seat) >= s.per_seat:
            return ErrorMsg(
                code="hint_busy",
                message="a hint or forecast is already being worked out for your seat "
                "(perhaps on another of its sockets); wait for it",
            )
        if sum(1 for _, where in self._held.values() if where == address) >= s.per_address:
            return ErrorMsg(
                code="hint_full",
                message=f"{s.per_address} hints are already being worked out for your "
                "address; wait for them",
            )
        if len(self._held) >= s.limit:
            return ErrorMsg(
                code="hint_full",
                message="the server is working out other hints; ask again in a moment",
            )
        return None

    def hold(self, task: asyncio.Task[Any], seat: Hashable, address: str) -> None:
        self._held[task] = (seat, address)
        task.add_done_callback(self.release)

    def release(self, task: asyncio.Task[Any]) -> None:
        self._held.pop(task, None)


CANCEL_SLOTS = 256
"""Size of the shared table through which a cancelled job is told to stop (more than the
jobs that can be under way at once: ``limit``, and cancelled ones stopping)."""
Ticket = tuple[int, int]
"""(slot, job): a job is cancelled when the table holds its number in its slot."""

_cancels: Any = None
"""The shared table, in a worker process (set when the worker starts)."""


def _start_worker(cancels: Any) -> None:
    global _cancels
    _cancels = cancels


def _stopper(ticket: Ticket | None, cancels: Any) -> Callable[[], bool] | None:
    """A ``stop()`` for the search: True once the job of ``ticket`` is cancelled."""
    table = cancels if cancels is not None else _cancels
    if ticket is None or table is None:
        return None
    slot, job = ticket
    return lambda: bool(table[slot] == job)


def work_hint(
    state: State[Any], seat: int, budget: str, ticket: Ticket | None = None, cancels: Any = None
) -> dict[str, Any]:
    """In a worker: the top three hints for ``seat`` (from its view only), as JSON.

    The search ends early once the job of ``ticket`` is cancelled (its answer is dropped).
    """
    from velvet.bots.hints import assumed_bot, hints, level_words

    start = time.perf_counter()
    found = hints(state, seat, Budget.parse(budget), stop=_stopper(ticket, cancels))
    bot = found[0].bot if found else assumed_bot(state.game.name)
    return {
        "hints": [h.to_json() for h in found],
        "bot": bot,
        "bot_is": level_words(bot, state.game.name),
        "budget": budget,
        "seconds": round(time.perf_counter() - start, 3),
    }


def work_forecast(
    state: State[Any],
    seat: int,
    games: int,
    bot: str | None,
    seconds: float,
    ticket: Ticket | None = None,
    cancels: Any = None,
) -> dict[str, Any]:
    """In a worker: the chance to win from ``seat``'s view, by the game's ``forecast`` hook
    (P5: to beat the boss in time), as JSON."""
    from velvet.bots.hints import assumed_bot, level_words
    from velvet.games import find_spec, forecaster

    forecast = forecaster(state.game.name)
    bot = bot or assumed_bot(state.game.name)
    spec = find_spec(state.game.name)
    if forecast is None:
        raise ConfigError(f"the game '{state.game.name}' offers no forecast")
    start = time.perf_counter()
    outlook = forecast(state, seat, games, bot, seconds=seconds, stop=_stopper(ticket, cancels))
    return {
        "rate": round(outlook.rate, 4),
        "low": round(outlook.low, 4),
        "high": round(outlook.high, 4),
        "margin": round(outlook.margin, 4),
        "wins": outlook.wins,
        "games": outlook.games,
        "bot": outlook.bot,
        "bot_is": level_words(outlook.bot, state.game.name),
        "hints_bot": assumed_bot(state.game.name),
        "hints_spread": round(1.96 * spec.hint_spread, 4) if spec is not None else 0.0,
        "days": outlook.days,
        "seconds": round(time.perf_counter() - start, 3),
    }


def _warm() -> None:
    """Load the search in a fresh worker, so the first hint does not wait for imports."""
    import velvet.bots.hints
    import velvet.games  # noqa: F401


def _new_pool(workers: int, cancels: Any) -> ProcessPoolExecutor:
    return new_pool(workers, _start_worker, (cancels,))  # workers that die with the server


class HintPool:
    """Worker processes for hints; ``workers=0`` works in a thread instead.

    The processes are started when a seat that may ask for hints joins a room
    (:meth:`warm`; a server whose rooms never offer hints runs none), or at the first
    hint; they load the search in the background, so the first hint does not wait for
    them unless it is asked at once.

    Cancelling the task that awaits a hint stops its work: a job still queued never
    starts, and a running search sees its number in a table shared with the workers
    (``multiprocessing.Array``) and ends within one simulation (a forecast: within 64
    actions of its game). No process is killed: the others' work goes on.
    """

    def __init__(self, settings: HintSettings) -> None:
        self.settings = settings
        self._pool: ProcessPoolExecutor | None = None
        self._cancels: Any = multiprocessing.get_context("spawn").Array(
            "q", CANCEL_SLOTS, lock=False
        )
        self._jobs = itertools.count(1)
        self.slots = HintSlots(settings)
        self.stopped = 0
        """Jobs cancelled while they were queued or running (counted when cancelled)."""

    async def _run(self, fn: Any, *args: Any) -> dict[str, Any]:
        job = next(self._jobs)
        ticket = (job % CANCEL_SLOTS, job)
        try:
            return await self._submit(fn, *args, ticket)
        except asyncio.CancelledError:
            self._cancels[ticket[0]] = job  # a running search ends at its next check
            self.stopped += 1
            raise

    def warm(self) -> bool:
        """Start the worker processes, each loading the search, unless they run already.

        Returns whether this call started them (in thread mode, ``workers=0``: never).
        """
        if self.settings.workers == 0 or self._pool is not None:
            return False
        self._pool = _new_pool(self.settings.workers, self._cancels)
        for _ in range(self.settings.workers):
            self._pool.submit(_warm)
        return True

    async def _submit(self, fn: Any, *args: Any) -> dict[str, Any]:
        if self.settings.workers == 0:
            result: dict[str, Any] = await asyncio.to_thread(fn, *args, cancels=self._cancels)
            return result
        self.warm()
        assert self._pool is not None
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, fn, *args)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
            stop_pool(self._pool)
            self._pool = _new_pool(self.settings.workers, self._cancels)
            return await loop.run_in_executor(self._pool, fn, *args)

    async def hint(self, state: State[Any], seat: int, budget: str | None = None) -> dict[str, Any]:
        """The hints for ``seat`` with the settings' budget (or ``budget``)."""
        return await self._run(work_hint, state, seat, budget or self.settings.budget)

    async def forecast(self, state: State[Any], seat: int) -> dict[str, Any]:
        s = self.settings
        return await self._run(
            work_forecast, state, seat, s.forecast_games, s.forecast_bot, s.forecast_seconds
        )

    def close(self) -> None:
        """Stop the workers now (a hint under way is of no use once the server stops)."""
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None
