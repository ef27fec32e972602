"""Speed figures for the VS engine: ``python -m tests.vs.bench``.

Random-playout steps/s (legal_actions + pick + apply_unchecked), clones/s,
the clone vs copy.deepcopy ratio and the serialized state size.
"""

from __future__ import annotations

import copy
import json
import random
import time

from velvet.vs.game import load_vs_game
from velvet.vs.state import VsState


def states(n: int) -> list[VsState]:
    g = load_vs_game()
    out = []
    for seed in range(n):
        s = g.new_state(g.default_config("p5", "p4"), seed)
        r = random.Random(seed)
        for _ in range(40):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply_unchecked(legal[r.randrange(len(legal))])
        out.append(s)
    return out


def main() -> None:
    g = load_vs_game()
    cfg = g.default_config("p5", "p4")
    r = random.Random(1)
    steps = 0
    t = time.perf_counter()
    games = 0
    while time.perf_counter() - t < 3.0:
        s = g.new_state(cfg, games)
        games += 1
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_unchecked(legal[r.randrange(len(legal))])
            steps += 1
    dt = time.perf_counter() - t
    print(
        f"random playouts: {steps / dt:,.0f} steps/s ({games / dt:,.0f} games/s, "
        f"{steps / games:.0f} steps/game)"
    )
    sample = states(50)
    n = 0
    t = time.perf_counter()
    while time.perf_counter() - t < 1.0:
        for s in sample:
            s.clone()
        n += len(sample)
    clone_rate = n / (time.perf_counter() - t)
    n = 0
    t = time.perf_counter()
    while time.perf_counter() - t < 1.0:
        for s in sample:
            copy.deepcopy(s, {id(s.game): s.game})  # the immutable game is shared, not copied
        n += len(sample)
    deep_rate = n / (time.perf_counter() - t)
    print(
        f"clone: {clone_rate:,.0f}/s; deepcopy (game shared): {deep_rate:,.0f}/s; "
        f"ratio {clone_rate / deep_rate:.0f}x"
    )
    sizes = [len(json.dumps(s.to_json(), separators=(",", ":"))) for s in sample]
    print(f"serialized state: mean {sum(sizes) / len(sizes):,.0f} bytes, max {max(sizes):,} bytes")


if __name__ == "__main__":
    main()
