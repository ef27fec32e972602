"""Bots think in worker processes, so the event loop never waits on a search."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import lru_cache
from typing import Any

from velvet.bots.base import Bot
from velvet.engine.rng import Rng
from velvet.server.games import room_game


@lru_cache(maxsize=64)
def _bot(spec: str, game_name: str) -> Bot:
    from velvet.bots import make_bot

    return make_bot(spec, game_name)


def choose(
    game_name: str,
    cards: tuple[str, ...],
    spec: str,
    view: dict[str, Any],
    legal: Sequence[str],
    seed: int,
) -> str:
    """In a worker: the text of the action bot ``spec`` picks among ``legal``."""
    game = room_game(game_name, cards)
    actions = [game.parse_action(text) for text in legal]
    picked = _bot(spec, game_name).choose(game, view, actions, Rng(seed))
    return str(picked)


def check_spec(spec: str, game_name: str) -> None:
    """Raise ConfigError if ``spec`` names no bot (checked when a room is made)."""
    _bot(spec, game_name)


def _new_pool(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))


class BotPool:
    """A pool of worker processes; ``workers=0`` thinks in a thread (tests, tiny hosts)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        if workers > 0:
            self._pool = _new_pool(workers)

    async def choose(
        self,
        game_name: str,
        cards: tuple[str, ...],
        spec: str,
        view: dict[str, Any],
        legal: Sequence[str],
        seed: int,
    ) -> str:
        loop = asyncio.get_running_loop()
        args = (game_name, cards, spec, view, list(legal), seed)
        if self._pool is None:
            return await asyncio.to_thread(choose, *args)
        try:
            return await loop.run_in_executor(self._pool, choose, *args)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = _new_pool(self.workers)
            return await loop.run_in_executor(self._pool, choose, *args)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
