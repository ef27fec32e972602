"""Replay the golden playthroughs and compare every event line and the final digest."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.p5.golden_tool import CASES, GOLDEN, replay
from velvet.p5.game import P5Game


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(game: P5Game, name: str) -> None:
    path: Path = GOLDEN / f"{name}.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert replay(game, lines) == lines, "rules changed? python -m tests.p5.golden_tool"
