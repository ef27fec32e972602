"""Bots think in worker processes, so the event loop never waits on a search.

A server bounds what a room may ask of them (:class:`BotLimits`, docs/reliability.md
"Workers, budgets and deadlines"): a bot spec whose budget is over the limits is refused
when the room is made, and every bot move has a deadline. The search stops itself there
with the best move found so far; a worker that still has not answered ``DEADLINE_GRACE``
seconds later is killed with its pool (started afresh) and a legal move drawn from the
move's seed is played instead.

Workers die with the server, even by kill -9 (:func:`die_with_parent`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from velvet.bots.base import Bot
from velvet.bots.budget import Budget
from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng
from velvet.engine.workers import new_pool, stop_pool
from velvet.server.games import room_game

log = logging.getLogger("velvet.server")

MAX_BOT_SECONDS = 5.0
"""The default of ``velvet serve --max-bot-seconds``: the largest time budget a room's bot
may have, and every bot move's deadline."""
MAX_BOT_SIMULATIONS = 5000
"""The default of ``velvet serve --max-bot-simulations``: the largest count budget (the
``hard`` level has 800)."""
DEADLINE_GRACE = 5.0
"""Seconds after a bot move's deadline before its worker is judged stuck and replaced."""
WATCH_EVERY = 0.25
"""Seconds between the checks of a bot move against its deadline."""


@dataclass(frozen=True)
class BotLimits:
    """What a room's bots may think: ``seconds`` is the largest time budget and each bot
    move's deadline; ``simulations`` is the largest count budget."""

    seconds: float = MAX_BOT_SECONDS
    simulations: int = MAX_BOT_SIMULATIONS

    def __post_init__(self) -> None:
        if not (0 < self.seconds <= 3600):
            raise ConfigError(f"the bot limit must be 0 to 3600 seconds, not {self.seconds}")
        if self.simulations < 1:
            raise ConfigError(f"the bot limit must be 1 simulation or more, not {self.simulations}")


@lru_cache(maxsize=64)
def _bot(spec: str, game_name: str, cap: float | None = None) -> Bot:
    from velvet.bots import make_bot

    bot = make_bot(spec, game_name)
    budget = getattr(bot, "budget", None)
    if cap is not None and isinstance(budget, Budget):
        setattr(bot, "budget", budget.capped(cap))  # noqa: B010 (not every Bot has one)
    return bot


def choose(
    game_name: str,
    cards: tuple[str, ...],
    spec: str,
    view: dict[str, Any],
    legal: Sequence[str],
    seed: int,
    deadline: float | None = None,
) -> str:
    """In a worker: the text of the action bot ``spec`` picks among ``legal``, its search
    stopped after ``deadline`` seconds (its best so far) whatever its budget."""
    game = room_game(game_name, cards)
    actions = [game.parse_action(text) for text in legal]
    picked = _bot(spec, game_name, deadline).choose(game, view, actions, Rng(seed))
    return str(picked)


def fallback(legal: Sequence[str], seed: int) -> str:
    """The move played when a bot has none in time: one of ``legal`` drawn from ``seed``."""
    return legal[Rng(seed).randbelow(len(legal))]


def check_spec(spec: str, game_name: str, limits: BotLimits | None = None) -> None:
    """Raise ConfigError if ``spec`` names no bot, or (given ``limits``) one that thinks
    longer than they allow (checked when a room is made)."""
    bot = _bot(spec, game_name)
    budget = getattr(bot, "budget", None)
    if limits is not None and isinstance(budget, Budget):
        budget.check_within(limits.seconds, limits.simulations, f"bot '{spec[:40]}'")


class BotPool:
    """A pool of worker processes; ``workers=0`` thinks in a thread (tests, tiny hosts)."""

    def __init__(self, workers: int, limits: BotLimits | None = None) -> None:
        self.workers = workers
        self.limits = limits or BotLimits()
        self.replaced = 0
        """Pools replaced because a worker passed its move's deadline and grace."""
        self._pool: ProcessPoolExecutor | None = None
        if workers > 0:
            self._pool = new_pool(workers)

    def check(self, spec: str, game_name: str) -> None:
        """Raise ConfigError unless ``spec`` names a bot within this server's limits."""
        check_spec(spec, game_name, self.limits)

    async def choose(
        self,
        game_name: str,
        cards: tuple[str, ...],
        spec: str,
        view: dict[str, Any],
        legal: Sequence[str],
        seed: int,
    ) -> str:
        """The bot's move, or :func:`fallback`'s if it has none by the deadline (and grace)."""
        args = (game_name, cards, spec, view, list(legal), seed, self.limits.seconds)
        # a job counts as running from when it is next in line for a worker (the pool's
        # call queue holds one more than it has workers), so up to one deadline early
        hard = 2 * self.limits.seconds + DEADLINE_GRACE
        pool = self._pool
        if pool is None:
            try:
                return await asyncio.wait_for(asyncio.to_thread(choose, *args), hard)
            except TimeoutError:
                log.warning("bot %s passed its deadline: a fallback move is played", spec)
                return fallback(legal, seed)
        try:
            return await self._watch(pool, pool.submit(choose, *args), hard, spec, legal, seed)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
            pool = self._restart(pool)
        try:
            return await self._watch(pool, pool.submit(choose, *args), hard, spec, legal, seed)
        except BrokenProcessPool:
            log.warning("bot %s lost its worker twice: a fallback move is played", spec)
            return fallback(legal, seed)

    async def _watch(
        self,
        pool: ProcessPoolExecutor,
        future: concurrent.futures.Future[str],
        hard: float,
        spec: str,
        legal: Sequence[str],
        seed: int,
    ) -> str:
        """Wait for ``future`` (in ``pool``); once it has run ``hard`` seconds (queued time
        not counted), replace the pool and play a fallback move."""
        waiting = asyncio.wrap_future(future)
        loop = asyncio.get_running_loop()
        started: float | None = None
        while True:
            done, _ = await asyncio.wait({waiting}, timeout=WATCH_EVERY)
            if done:
                if waiting.cancelled():  # dropped, still queued, by a pool another move replaced
                    raise BrokenProcessPool("the pool was replaced")
                return waiting.result()
            if future.running():  # handed to a worker (or next in line for one)
                started = started if started is not None else loop.time()
                if loop.time() - started > hard:
                    log.warning("bot %s passed its deadline: worker replaced, fallback move", spec)
                    self.replaced += 1
                    self._restart(pool)
                    waiting.cancel()
                    return fallback(legal, seed)

    def _restart(self, broken: ProcessPoolExecutor) -> ProcessPoolExecutor:
        """A fresh pool in place of ``broken`` (unless another call replaced it already)."""
        if self._pool is broken:
            stop_pool(broken)
            self._pool = new_pool(self.workers)
        assert self._pool is not None  # only process pools are restarted
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None
