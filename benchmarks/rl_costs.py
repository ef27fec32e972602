"""Where an RL adapter step goes: CPU time per call of each part, in play order.

``rl_speed.py`` gives whole-step rates; this splits a decision into its parts, to show
what bounds the adapter overhead (docs/benchmarks.md, "RL adapters"). Positions are
those of random games (seeded), visited in the order they were played; each figure is
the least of three passes over them, in CPU microseconds per call
(``time.process_time``, so the load of other jobs matters little).

Parts, for VS and two-player P5: an engine decision (``legal_actions`` +
``apply_unchecked``), ``legal_actions`` alone, ``view(seat)``, the observation from
the view (``encode``) and straight from the state (``encode_state``), the action mask,
and picking from it as the benchmark does. With ``pyspiel`` installed, the same
positions through OpenSpiel: ``observation_tensor`` against the Python observer's own
``set_from`` and against OpenSpiel's fixed costs around it (it sizes the tensor by
building an initial state and writing its observation, on every call, and returns the
tensor as a Python list: ``tolist`` of a numpy vector of the same length), and
``legal_actions`` / ``apply_action`` against the Python methods they call.

    PYTHONPATH=src python3 benchmarks/rl_costs.py --games 20
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

PASSES = 3


def per_call(items: Sequence[Any], body: Callable[[Any], object]) -> float:
    """Microseconds of CPU per call of ``body`` over ``items`` (least of PASSES passes)."""
    best = float("inf")
    for _ in range(PASSES):
        start = time.process_time()
        for item in items:
            body(item)
        best = min(best, time.process_time() - start)
    return best / max(1, len(items)) * 1e6


def positions(game_name: str, games: int) -> list[tuple[Any, int]]:
    """(state, seat to move) at every decision of ``games`` random games, in play order."""
    from velvet.adapters._engine import default_config, load_game

    game = load_game(game_name)
    config = default_config(game, 2)
    rng = random.Random(1)
    out: list[tuple[Any, int]] = []
    for seed in range(games):
        state = game.new_state(config, seed)
        while not state.is_terminal():
            out.append((state.clone(), state.current_player))
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
    return out


def engine_parts(game_name: str, games: int) -> list[tuple[str, float]]:
    from velvet.adapters._engine import legal_ids, load_game
    from velvet.adapters.encoding import encoder_for
    from velvet.adapters.gym_env import MaskMaker

    game = load_game(game_name)
    encoder = encoder_for(game, 2)
    seen = positions(game_name, games)
    rng = random.Random(2)
    picks = [rng.randrange(1 << 30) for _ in seen]
    pairs = list(zip(seen, picks, strict=True))
    masks = MaskMaker(len(game.action_ids()))
    views = [(s.view(p), p) for s, p in seen]
    pick_rng = random.Random(1)

    def decide(item: tuple[tuple[Any, int], int]) -> None:
        (state, _), k = item
        legal = state.legal_actions()
        state.clone().apply_unchecked(legal[k % len(legal)])

    def clone(item: tuple[tuple[Any, int], int]) -> None:
        item[0][0].clone()

    def pick(item: tuple[Any, int]) -> int:
        mask = masks(legal_ids(game, item[0])).view(np.bool_)
        legal = mask.nonzero()[0]
        return int(legal[pick_rng.randrange(len(legal))])

    decision = per_call(pairs, decide) - per_call(pairs, clone)
    mask = per_call(seen, lambda sp: masks(legal_ids(game, sp[0])))
    return [
        ("engine decision (legal_actions + apply_unchecked)", decision),
        ("legal_actions", per_call(seen, lambda sp: sp[0].legal_actions())),
        ("view(seat)", per_call(seen, lambda sp: sp[0].view(sp[1]))),
        ("encode(view) (the view built beforehand)", per_call(views, lambda v: encoder.encode(*v))),
        ("encode_state(state, seat)", per_call(seen, lambda sp: encoder.encode_state(*sp))),
        ("legal ids + action mask (legal_actions included)", mask),
        ("the above + pick from the mask (the benchmark's agent)", per_call(seen, pick)),
    ]


def openspiel_parts(game_name: str, games: int) -> list[tuple[str, float]]:
    import pyspiel

    import velvet.adapters.openspiel_game  # noqa: F401  (registers the games)

    game = pyspiel.load_game(
        "python_velvet_vs" if game_name == "vs" else "python_velvet_p5(players=2)"
    )
    rng = random.Random(3)
    seen: list[tuple[Any, int]] = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            player = state.current_player()
            seen.append((state.clone(), player))
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    observer = game.make_py_observer()
    flat = np.zeros(game.observation_tensor_size(), np.float32)
    firsts = [(s, p, s.legal_actions()[0]) for s, p in seen]

    def clone(item: tuple[Any, int, int]) -> None:
        item[0].clone()

    def apply_cpp(item: tuple[Any, int, int]) -> None:
        item[0].clone().apply_action(item[2])

    def apply_py(item: tuple[Any, int, int]) -> None:
        item[0].clone()._apply_action(item[2])

    cloned = per_call(firsts, clone)
    return [
        ("observation_tensor(player)", per_call(seen, lambda sp: sp[0].observation_tensor(sp[1]))),
        (
            "  the observer's set_from (encode_state inside)",
            per_call(seen, lambda sp: observer.set_from(*sp)),
        ),
        (
            "  observation_tensor_size() (run inside every call)",
            per_call(seen, lambda _: game.observation_tensor_size()),
        ),
        ("  tolist() of a tensor of that size", per_call(seen, lambda _: flat.tolist())),
        ("legal_actions()", per_call(seen, lambda sp: sp[0].legal_actions())),
        ("  the Python _legal_actions", per_call(seen, lambda sp: sp[0]._legal_actions(sp[1]))),
        ("apply_action(a) (a player action)", per_call(firsts, apply_cpp) - cloned),
        ("  the Python _apply_action", per_call(firsts, apply_py) - cloned),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games per game kind")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    from velvet.engine import compiled

    print("Velvet build:", "compiled (VELVET_COMPILE=1)" if compiled() else "pure Python")
    for game_name in ("vs", "p5"):
        rows = engine_parts(game_name, args.games)
        try:
            rows += [
                (f"openspiel: {label}", us) for label, us in openspiel_parts(game_name, args.games)
            ]
        except ImportError as error:
            print(f"({error.name or error} not installed: no OpenSpiel parts)")
        print(f"\n{game_name}: CPU microseconds per call, in play order")
        for label, us in rows:
            print(f"  {label:<66} {us:7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
