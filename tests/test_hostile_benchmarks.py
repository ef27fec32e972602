"""benchmarks/bot_memory.py runs end to end on a tiny job (figures: docs/reliability.md)."""

from __future__ import annotations

import pytest

from tests.test_benchmarks import load
from velvet.bots import memory


def test_bot_memory_compares_both_keys_on_the_same_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = memory.fingerprint
    code = load("bot_memory").main(["--game", "p5", "--games", "1", "--rounds", "1"])
    out = capsys.readouterr().out
    assert code == 0, out
    name, decisions, old, new, ratio = out.splitlines()[1].split()
    assert name == "p5" and int(decisions) > 0
    assert float(old) > 0 and float(new) > 0 and ratio.endswith("x")
    assert memory.fingerprint is before  # the script puts the real key back
