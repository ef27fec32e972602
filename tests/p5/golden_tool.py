"""Golden playthroughs: whole games written as text, replayed by a test.

Regenerate with ``python -m tests.p5.golden_tool`` (after an intended rules change).
Each file: the config and seed, then one line per action with the events it produced,
then the digest of the final state.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.p5.test_random_play import eager
from velvet.engine.core import Event, choose_by_text
from velvet.engine.rng import Rng
from velvet.p5.game import P5Game, load_p5_game
from velvet.p5.state import P5State

GOLDEN = Path(__file__).parent / "golden"

CASES: dict[str, tuple[dict[str, Any], int, str]] = {
    "solo-random": (
        {"players": [{"thief": "skull", "persona": "goemon"}], "palace": "kamoshida"},
        11,
        "random",
    ),
    "duo-eager": (
        {
            "players": [
                {"thief": "joker", "persona": "arsene"},
                {"thief": "noir", "persona": "milady"},
            ],
            "palace": "madarame",
        },
        4,
        "eager",
    ),
    "solo-arsene-eager": (
        {"players": [{"thief": "mona", "persona": "arsene"}], "palace": "futaba"},
        18,
        "eager",
    ),
}


def event_text(events: list[Event]) -> str:
    return "; ".join(str(e) for e in events)


def record(game: P5Game, config: dict[str, Any], seed: int, policy: str) -> list[str]:
    state = game.new_state(config, seed)
    assert isinstance(state, P5State)
    rng = Rng(seed + 1000)
    lines = [f"config {json.dumps(config, sort_keys=True)}", f"seed {seed}"]
    while not state.is_terminal():
        if policy == "eager":
            action = eager(state, rng)
        else:
            legal = state.legal_actions()
            action = legal[rng.randbelow(len(legal))]
        events = state.apply(action)
        lines.append(f"> {action} | {event_text(events)}")
    lines.append(f"outcome {state.outcome_text()}")
    lines.append(f"digest {state.digest()}")
    return lines


def replay(game: P5Game, lines: list[str]) -> list[str]:
    """Replay a golden file's actions by text and write the lines anew."""
    config = json.loads(lines[0].removeprefix("config "))
    seed = int(lines[1].removeprefix("seed "))
    state = game.new_state(config, seed)
    out = lines[:2]
    for line in lines[2:]:
        if not line.startswith("> "):
            continue
        text = line[2:].split(" | ", 1)[0]
        events = state.apply(choose_by_text(state, text))
        out.append(f"> {text} | {event_text(events)}")
    out.append(f"outcome {state.outcome_text()}")
    out.append(f"digest {state.digest()}")
    return out


def main() -> None:
    game = load_p5_game()
    GOLDEN.mkdir(exist_ok=True)
    for name, (config, seed, policy) in CASES.items():
        lines = record(game, config, seed, policy)
        (GOLDEN / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(name, lines[-2])


if __name__ == "__main__":
    main()
