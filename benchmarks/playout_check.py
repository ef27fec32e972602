"""Random playouts of Velvet's games on a fixed workload: a behaviour fingerprint and CPU time.

``digest`` plays ``--games`` seeded random games of each game (the same set-ups as
``engine_speed.py``) and prints one SHA-256 per game over every step's action, events,
``state.digest()`` and a clone's digest: a speed-up must leave it unchanged.
``speed`` times the same playouts (no digests) in CPU seconds (``time.process_time``,
best of ``--repeat``), so a loaded machine disturbs the figure less than wall time.

    python benchmarks/playout_check.py digest [--games 200] [--save FILE | --check FILE]
    python benchmarks/playout_check.py speed [--games 300] [--repeat 5] [--uno 1000]

``--uno N`` also times N games of RLCard's raw UNO in the same loop (the peer of
``engine_speed.py``; needs ``rlcard``, as in ``benchmarks/setup.sh``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from typing import Any

from velvet.games import get_game

GAMES = ("p5", "vs")


def configs(game: Any) -> list[dict[str, Any]]:
    """P5: every palace, solo and two players; VS: the three default deck pairings."""
    if game.name == "p5":
        out = []
        for palace, _ in game.choices()["palaces"]:
            for players in (1, 2):
                config = game.default_config(players)
                config["palace"] = palace
                out.append(config)
        return out
    return [game.default_config(a, b) for a, b in (("p5", "p4"), ("p4", "p3"), ("p3", "p5"))]


def fingerprint(name: str, games: int) -> str:
    """SHA-256 over every step of ``games`` seeded random playouts of game ``name``."""
    game = get_game(name)
    sets = configs(game)
    h = hashlib.sha256()
    for seed in range(1, games + 1):
        rng = random.Random(seed)
        state = game.new_state(sets[seed % len(sets)], seed)
        h.update(state.digest().encode())
        while not state.is_terminal():
            legal = state.legal_actions()
            h.update("|".join(map(str, legal)).encode())
            action = legal[rng.randrange(len(legal))]
            copy = state.clone()
            events = state.apply_unchecked(action)
            h.update(json.dumps([e.to_json() for e in events], sort_keys=True).encode())
            h.update(state.digest().encode())
            copy.apply_unchecked(action)
            if copy.digest() != state.digest():
                raise SystemExit(f"{name} seed {seed}: a clone diverged after {action}")
    return h.hexdigest()


def playouts(name: str, games: int) -> tuple[float, int]:
    """CPU seconds and steps of ``games`` seeded random playouts (as engine_speed.py steps)."""
    game = get_game(name)
    sets = configs(game)
    game.new_state(sets[0], 0)  # loads and compiles what the first game needs, untimed
    steps = 0
    start = time.process_time()
    for seed in range(1, games + 1):
        rng = random.Random(seed)
        state = game.new_state(sets[seed % len(sets)], seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
            steps += 1
    return time.process_time() - start, steps


def uno_playouts(games: int) -> tuple[float, int]:
    """CPU seconds and steps of ``games`` random games of RLCard's raw UNO (same loop)."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    rng = random.Random(1)
    game = UnoGame()
    game.np_random = np.random.RandomState(1)
    steps = 0
    start = time.process_time()
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[rng.randrange(len(legal))])
            steps += 1
    return time.process_time() - start, steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("digest", "speed"))
    parser.add_argument("--games", type=int, default=0, help="playouts per game")
    parser.add_argument("--repeat", type=int, default=5, help="speed: runs, best kept")
    parser.add_argument("--uno", type=int, default=0, help="speed: also N games of RLCard UNO")
    parser.add_argument("--save", metavar="FILE", help="digest: write the fingerprints")
    parser.add_argument("--check", metavar="FILE", help="digest: compare with saved ones")
    args = parser.parse_args(argv)
    if args.games < 0 or args.repeat < 1 or args.uno < 0:
        parser.error("--games and --uno must be >= 0 and --repeat >= 1")
    if args.mode == "digest":
        n = args.games or 200
        prints = {name: fingerprint(name, n) for name in GAMES}
        for name, value in prints.items():
            print(f"{name}: {value} ({n} games)")
        if args.save:
            with open(args.save, "w", encoding="utf-8") as handle:
                json.dump({"games": n, "prints": prints}, handle)
        if args.check:
            with open(args.check, encoding="utf-8") as handle:
                saved = json.load(handle)
            if saved["games"] != n or saved["prints"] != prints:
                print("DIFFERENT from", args.check)
                return 1
            print("same as", args.check)
        return 0
    n = args.games or 300
    for name in GAMES:
        best = min(playouts(name, n) for _ in range(args.repeat))
        print(f"{name}: {best[1]} steps in {best[0]:.3f} s CPU: {best[1] / best[0]:,.0f} steps/s")
    if args.uno:
        try:
            best = min(uno_playouts(args.uno) for _ in range(args.repeat))
        except ImportError as error:
            print(f"uno: rlcard not installed ({error}); run benchmarks/setup.sh", file=sys.stderr)
            return 2
        print(f"uno: {best[1]} steps in {best[0]:.3f} s CPU: {best[1] / best[0]:,.0f} steps/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
