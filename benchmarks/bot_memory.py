#!/usr/bin/env python
"""The bots' repetition guard: canonical-JSON keys (before) against digests of ``repr`` (now).

Greedy bots check the guard for every candidate action of every decision, so its key
is on the search hot path. This plays the same seeded games twice per round, once with
each key function, alternating (ABAB...) so that both meet the same machine load, and
prints the total decision CPU time of each (process time: steadier than wall clock on
a shared machine) and their ratio. The games are the same (both
keys tell the same views apart), which the script checks.

    python benchmarks/bot_memory.py --games 6 --rounds 3
    python benchmarks/bot_memory.py --game vs --bot greedy:4
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from velvet.bots import make_bot, memory
from velvet.engine.core import Game, canonical_json
from velvet.engine.errors import VelvetError
from velvet.engine.rng import Rng
from velvet.games import get_spec
from velvet.sim.run import game_seed, play_game

KEYS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "canonical-json": canonical_json,
    "repr-digest": memory.fingerprint,
}


class Timed:
    """Wraps a bot and adds up the time of its real decisions."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name: str = bot.name
        self.seat: int | None = getattr(bot, "seat", None)
        self.seconds = 0.0
        self.choices: list[str] = []

    def choose(self, game: Game[Any], view: dict[str, Any], legal: Sequence[Any], rng: Rng) -> Any:
        self.bot.seat = self.seat
        began = time.process_time()
        action = self.bot.choose(game, view, legal, rng)
        self.seconds += time.process_time() - began
        self.choices.append(str(action))
        return action


def play(name: str, bot: str, games: int, seed: int, key: str) -> tuple[float, list[str]]:
    """Decision seconds and every choice made, over ``games`` games with ``key``."""
    memory.fingerprint = KEYS[key]  # type: ignore[assignment]
    sim_game = get_spec(name)
    game = sim_game.load(())
    seats = 2 if name == "vs" else 1
    config = sim_game.config_for(game, seats)
    seconds, choices = 0.0, []
    for i in range(games):
        timed = [Timed(make_bot(bot, name)) for _ in range(seats)]
        play_game(game, config, game_seed(seed, i), timed)
        seconds += sum(t.seconds for t in timed)
        choices += [c for t in timed for c in t.choices]
    return seconds, choices


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=("p5", "vs"), help="default both")
    parser.add_argument("--bot", default="greedy", help="bot spec (default greedy)")
    parser.add_argument("--games", type=int, default=6, help="games per round (default 6)")
    parser.add_argument("--rounds", type=int, default=3, help="ABAB rounds (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.games <= 0 or args.rounds <= 0:
        print("error: --games and --rounds must be positive numbers", file=sys.stderr)
        return 2
    original = memory.fingerprint
    print(f"{'game':<6}{'decisions':>10}{'json s':>10}{'digest s':>10}{'speed-up':>10}")
    try:
        for name in args.game or ["p5", "vs"]:
            totals = dict.fromkeys(KEYS, 0.0)
            decisions = 0
            for _ in range(args.rounds):
                runs = {key: play(name, args.bot, args.games, args.seed, key) for key in KEYS}
                (_, a), (_, b) = runs.values()
                if a != b:
                    print(f"error: {name}: the two keys led to different games", file=sys.stderr)
                    return 1
                decisions = len(a)
                for key, (seconds, _) in runs.items():
                    totals[key] += seconds
            old, new = totals["canonical-json"], totals["repr-digest"]
            print(f"{name:<6}{decisions:>10}{old:>10.2f}{new:>10.2f}{old / new:>9.2f}x")
    except VelvetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        memory.fingerprint = original
    return 0


if __name__ == "__main__":
    sys.exit(main())
