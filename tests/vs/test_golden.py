"""Golden playthroughs: whole games as text, replayed action by action.

Each file in ``tests/vs/golden/`` starts with ``# seed S players A B``, then one
line per action (``player: action | events``), then ``# digest SHA``.
Regenerate after a deliberate rules or card change with
``python -m tests.vs.test_golden``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from velvet.engine.core import Event
from velvet.vs.game import load_vs_game
from velvet.vs.state import VsState

GOLDEN = Path(__file__).parent / "golden"
GAMES = {
    "game1.txt": (11, "p5", "p4"),
    "game2.txt": (23, "p4", "p3"),
    "game3.txt": (37, "p3", "p5"),
}


def _events(events: list[Event]) -> str:
    return "; ".join(str(e) for e in events)


def _start(seed: int, a: str, b: str) -> VsState:
    g = load_vs_game()
    return g.new_state(g.default_config(a, b), seed)


def playthrough(seed: int, a: str, b: str) -> str:
    """A whole game chosen at random from ``seed``, written out as golden text."""
    s = _start(seed, a, b)
    rng = random.Random(seed)
    lines = [f"# seed {seed} players {a} {b}"]
    while not s.is_terminal():
        legal = s.legal_actions()
        action = legal[rng.randrange(len(legal))]
        player = s.current_player
        lines.append(f"{player}: {action} | {_events(s.apply(action))}")
    lines.append(f"# outcome {s.outcome_text()}")
    lines.append(f"# digest {s.digest()}")
    return "\n".join(lines) + "\n"


def regenerate() -> None:
    """Rewrite every golden file from its seed (after a deliberate change)."""
    GOLDEN.mkdir(exist_ok=True)
    for name, (seed, a, b) in GAMES.items():
        (GOLDEN / name).write_text(playthrough(seed, a, b), encoding="utf-8")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough_replays(name: str) -> None:
    # rule: VS-TURN-1, VS-SKILL-1
    lines = (GOLDEN / name).read_text(encoding="utf-8").splitlines()
    _, _, seed, _, a, b = lines[0].split()
    s = _start(int(seed), a, b)
    g = s.game
    for number, line in enumerate(lines[1:-2], start=2):
        head, events = line.split(" | ", 1)
        player, text = head.split(": ", 1)
        assert s.current_player == int(player), f"line {number}"
        got = _events(s.apply(g.parse_action(text)))
        assert got == events, f"line {number}: {text}"
    assert s.is_terminal()
    assert lines[-2] == f"# outcome {s.outcome_text()}"
    assert lines[-1] == f"# digest {s.digest()}"


if __name__ == "__main__":
    regenerate()
