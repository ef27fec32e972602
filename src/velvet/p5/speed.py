"""Quick speed figures of the P5 engine: ``python -m velvet.p5.speed``.

Random-playout steps/s (legal_actions + pick + apply_unchecked), clones/s,
the ratio against ``copy.deepcopy`` and the size of a state's canonical JSON.
"""

from __future__ import annotations

import copy
import time

from velvet.engine.rng import Rng
from velvet.p5.game import load_p5_game
from velvet.p5.state import P5State


def measure(games: int = 300) -> dict[str, float]:
    game = load_p5_game()
    cs = game.cards
    steps = 0
    mid: list[P5State] = []
    start = time.perf_counter()
    for seed in range(games):
        players = 1 + seed % 2
        config = {
            "players": [
                {
                    "thief": cs.thieves[(seed + 3 * i) % len(cs.thieves)].id,
                    "persona": cs.personas[(seed + 5 * i) % len(cs.personas)].id,
                }
                for i in range(players)
            ],
            "palace": cs.palaces[seed % len(cs.palaces)].id,
        }
        state = game.new_state(config, seed)
        rng = Rng(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randbelow(len(legal))])
            steps += 1
            if steps % 997 == 0:
                mid.append(state.clone())
    play_time = time.perf_counter() - start
    sample = mid[:50] or [state]
    n = 20_000
    start = time.perf_counter()
    for i in range(n):
        sample[i % len(sample)].clone()
    clone_time = (time.perf_counter() - start) / n
    m = 500
    start = time.perf_counter()
    for i in range(m):
        copy.deepcopy(sample[i % len(sample)], {id(game): game})  # the Game is shared
    deep_time = (time.perf_counter() - start) / m
    size = sum(len(s.canonical()) for s in sample) / len(sample)
    return {
        "steps_per_s": steps / play_time,
        "clones_per_s": 1 / clone_time,
        "deepcopy_ratio": deep_time / clone_time,
        "state_json_bytes": size,
        "steps": steps,
    }


def main() -> None:
    for key, value in measure().items():
        print(f"{key:18} {value:,.0f}" if value > 10 else f"{key:18} {value:.1f}")


if __name__ == "__main__":
    main()
