"""The reliability benchmarks run end to end on tiny jobs (figures: docs/reliability.md)."""

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


def test_card_limits_times_a_set_at_every_bound(capsys: pytest.CaptureFixture[str]) -> None:
    code = load("card_limits").main(["--repeat", "1"])
    out = capsys.readouterr().out
    assert code == 0, out
    rows = {line[:16].strip(): line[16:].split() for line in out.splitlines()[1:3]}
    assert int(rows["at every bound"][0]) > int(rows["built-in"][0])
    assert out.splitlines()[-1].startswith("ratio ")
