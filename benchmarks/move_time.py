#!/usr/bin/env python
"""Decision time of a bot: mean, 95th percentile and slowest decision, per game.

Plays ``--games`` games of each game with BOT in seat 0 (VS: against
``--against``, default greedy; P5: solo) in this one process and times every
call to the bot's ``choose`` that had more than one legal action (a forced
move is free). Run it on an otherwise idle machine: the times are wall clock.

    python benchmarks/move_time.py hard --games 4
    python benchmarks/move_time.py normal --game vs --games 10
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from velvet.bots import make_bot
from velvet.bots.base import Bot
from velvet.engine.core import Game
from velvet.engine.errors import VelvetError
from velvet.engine.rng import Rng
from velvet.games import get_spec
from velvet.sim.run import game_seed, play_game


class Timed:
    """A bot that records how long each real decision of the bot it wraps takes."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.seat = bot.seat
        self.times: list[float] = []

    def choose(self, game: Game[Any], view: dict[str, Any], legal: Sequence[Any], rng: Rng) -> Any:
        self.bot.seat = self.seat
        began = time.perf_counter()
        action = self.bot.choose(game, view, legal, rng)
        if len(legal) > 1:
            self.times.append(time.perf_counter() - began)
        return action


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bot", help="bot spec to time, e.g. hard or ismcts:800")
    parser.add_argument(
        "--game", action="append", choices=("p5", "vs"), help="game (repeat; default both)"
    )
    parser.add_argument("--games", type=int, default=4, help="games per game (default 4)")
    parser.add_argument("--against", default="greedy", help="VS opponent (default greedy)")
    parser.add_argument("--seed", type=int, default=0, help="base seed")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.games <= 0:
        print(f"error: --games must be a positive number, not {args.games}", file=sys.stderr)
        return 2
    print(f"{'game':<6}{'decisions':>10}{'mean s':>10}{'p95 s':>10}{'max s':>10}")
    try:
        for name in args.game or ["p5", "vs"]:
            sim_game = get_spec(name)
            game = sim_game.load(())
            seats = 2 if name == "vs" else 1
            config = sim_game.config_for(game, seats)
            times: list[float] = []
            for i in range(args.games):
                timed = Timed(make_bot(args.bot, name))
                bots: list[Any] = [timed] + [make_bot(args.against, name)] * (seats - 1)
                play_game(game, config, game_seed(args.seed, i), bots)
                times += timed.times
            if not times:
                print(f"{name:<6}{0:>10}")
                continue
            times.sort()
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            print(
                f"{name:<6}{len(times):>10}{statistics.fmean(times):>10.3f}"
                f"{p95:>10.3f}{times[-1]:>10.3f}"
            )
    except VelvetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
