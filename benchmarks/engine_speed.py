"""Engine speed of Velvet's two games beside peers, measured in one run on one core.

Subjects: Velvet p5 and vs, OpenSpiel (hearts, crazy_eights, python_block_dominoes)
and RLCard (uno, raw game). For each: random-playout steps/s (a step is: list the
legal actions, pick one uniformly, apply it; chance nodes count as steps),
games/s, and clones/s of mid-game states. For Velvet also ``clone()`` against
``copy.deepcopy`` and the size of the serialized state. Ratios are printed
against every peer that is installed.

    benchmarks/setup.sh                           # once: venv with the peers
    benchmarks/.venv/bin/python benchmarks/engine_speed.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class Result:
    name: str
    steps_per_s: float
    games_per_s: float
    clones_per_s: float
    extra: dict[str, Any]


def timed_loop(seconds: float, body: Callable[[], int]) -> tuple[float, int, int]:
    """Run ``body`` (returns steps done) until ``seconds`` pass; (elapsed, steps, calls)."""
    start = time.perf_counter()
    steps = calls = 0
    while True:
        steps += body()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed, steps, calls


def clones_per_s(states: list[Any], clone: Callable[[Any], Any], seconds: float) -> float:
    n = len(states)
    counter = [0]

    def body() -> int:
        for s in states:
            clone(s)
        counter[0] += n
        return n

    elapsed, done, _ = timed_loop(seconds, body)
    return done / elapsed


# -- Velvet -----------------------------------------------------------------------


def velvet_subject(game_name: str, seconds: float) -> Result:
    from velvet.games import get_game

    game = get_game(game_name)
    configs = mixed_configs(game)
    rng = random.Random(1)
    seed = [0]
    samples: list[Any] = []

    sizes: list[int] = []

    def playout() -> int:
        seed[0] += 1
        state = game.new_state(configs[seed[0] % len(configs)], seed[0])
        steps = 0
        keep_at = rng.randrange(1, 120)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
            steps += 1
            if steps == keep_at and len(samples) < 200:
                samples.append(state.clone())
        if len(sizes) < 200:
            sizes.append(len(state.canonical().encode()))
        return steps

    elapsed, steps, games = timed_loop(seconds, playout)
    fast = clones_per_s(samples, lambda s: s.clone(), seconds / 2)
    # The immutable Game (card database) is shared, not copied, as clone() shares it.
    deep = clones_per_s(samples[:50], lambda s: copy.deepcopy(s, {id(s.game): s.game}), seconds / 2)
    size = max(sizes + [len(s.canonical().encode()) for s in samples])
    return Result(
        f"velvet {game_name}",
        steps / elapsed,
        games / elapsed,
        fast,
        {"deepcopy_per_s": deep, "clone_vs_deepcopy": fast / deep, "max_state_bytes": size},
    )


def mixed_configs(game: Any) -> list[dict[str, Any]]:
    """P5: every palace, solo and two players; VS: the three default deck pairings."""
    if game.name == "p5":
        configs = []
        for palace, _ in game.choices()["palaces"]:
            for players in (1, 2):
                config = game.default_config(players)
                config["palace"] = palace
                configs.append(config)
        return configs
    return [game.default_config(a, b) for a, b in (("p5", "p4"), ("p4", "p3"), ("p3", "p5"))]


# -- OpenSpiel --------------------------------------------------------------------


def openspiel_subject(name: str, seconds: float) -> Result:
    """An OpenSpiel game; ``python_*`` games are pure Python, the others C++."""
    import pyspiel

    if name.startswith("python_"):
        import open_spiel.python.games  # noqa: F401  (registers the Python games)

    game = pyspiel.load_game(name)
    rng = random.Random(1)
    samples: list[Any] = []

    def playout() -> int:
        state = game.new_initial_state()
        steps = 0
        keep_at = rng.randrange(1, 40)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
            if steps == keep_at and len(samples) < 200:
                samples.append(state.clone())
        return steps

    elapsed, steps, games = timed_loop(seconds, playout)
    return Result(
        f"openspiel {name}" + ("" if name.startswith("python_") else " (C++)"),
        steps / elapsed,
        games / elapsed,
        clones_per_s(samples, lambda s: s.clone(), seconds / 2),
        {},
    )


# -- RLCard -----------------------------------------------------------------------


def rlcard_uno(seconds: float) -> Result:
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    rng = random.Random(1)
    samples: list[Any] = []
    game = UnoGame()
    game.np_random = np.random.RandomState(1)

    def playout() -> int:
        game.init_game()
        steps = 0
        keep_at = rng.randrange(1, 40)
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[rng.randrange(len(legal))])
            steps += 1
            if steps == keep_at and len(samples) < 100:
                samples.append(copy.deepcopy(game))
        return steps

    elapsed, steps, games = timed_loop(seconds, playout)
    # RLCard has no clone; its own step_back keeps deep copies, so that is the peer.
    return Result(
        "rlcard uno (raw)",
        steps / elapsed,
        games / elapsed,
        clones_per_s(samples, copy.deepcopy, seconds / 2),
        {},
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")

    results: list[Result] = []
    for game_name in ("p5", "vs"):
        results.append(velvet_subject(game_name, args.seconds))
    peers: list[tuple[str, Callable[[], Result]]] = [
        ("hearts (C++)", lambda: openspiel_subject("hearts", args.seconds)),
        ("crazy_eights (C++)", lambda: openspiel_subject("crazy_eights", args.seconds)),
        ("python_block_dominoes", lambda: openspiel_subject("python_block_dominoes", args.seconds)),
        ("uno", lambda: rlcard_uno(args.seconds)),
    ]
    for label, run in peers:
        try:
            results.append(run())
        except ImportError as error:
            print(f"peer {label} not installed ({error}); run benchmarks/setup.sh", file=sys.stderr)

    print(f"Python {sys.version.split()[0]}, one process, {args.seconds:g} s per measurement\n")
    print(f"{'subject':32} {'steps/s':>12} {'games/s':>10} {'clones/s':>12}")
    for r in results:
        print(f"{r.name:32} {r.steps_per_s:12,.0f} {r.games_per_s:10,.1f} {r.clones_per_s:12,.0f}")
    print()
    for r in results[:2]:
        e = r.extra
        print(
            f"{r.name}: clone() {e['clone_vs_deepcopy']:.1f}x faster than copy.deepcopy "
            f"({e['deepcopy_per_s']:,.0f}/s); "
            f"largest serialized state {e['max_state_bytes']:,} bytes"
        )
    print("\nRatios (Velvet / peer):")
    for r in results[:2]:
        for peer in results[2:]:
            print(
                f"  {r.name:11} vs {peer.name:32} steps {r.steps_per_s / peer.steps_per_s:6.2f}x"
                f"   clones {r.clones_per_s / peer.clones_per_s:6.2f}x"
            )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump([r.__dict__ for r in results], handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
