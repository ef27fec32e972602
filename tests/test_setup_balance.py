"""benchmarks/setup_balance.py: its balanced design, and that games follow it end to end."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from velvet.engine.errors import ConfigError
from velvet.sim.results import ResultStore

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "bench_setup_balance", BENCHMARKS / "setup_balance.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


SB = load()


def test_every_round_of_nine_holds_each_thief_and_persona_once() -> None:
    for start in range(0, 405, 9):
        games = [SB.design(i) for i in range(start, start + 9)]
        assert sorted(g.thief for g in games) == sorted(SB.THIEVES)
        assert sorted(g.persona for g in games) == sorted(SB.PERSONAS)


def test_game_i_has_thief_i_mod_9() -> None:
    assert [SB.design(i).thief for i in range(18)] == list(SB.THIEVES) * 2


def test_405_games_cover_every_pair_in_every_palace_once() -> None:
    games = [SB.design(i) for i in range(405)]
    triples = Counter((g.thief, g.persona, g.palace) for g in games)
    assert len(triples) == 9 * 9 * 5 and set(triples.values()) == {1}
    pairs = Counter((g.thief, g.persona) for g in games[:81])
    assert len(pairs) == 81  # every 81 games hold every pair once
    by_thief = Counter(g.thief for g in games)
    by_persona = Counter(g.persona for g in games)
    assert set(by_thief.values()) == {45} and set(by_persona.values()) == {45}
    for who in (*SB.THIEVES, *SB.PERSONAS):
        palaces = Counter(g.palace for g in games if who in (g.thief, g.persona))
        assert palaces == {p: 9 for p in SB.PALACES}, who


def test_360_games_give_40_each() -> None:
    games = [SB.design(i) for i in range(360)]
    assert set(Counter(g.thief for g in games).values()) == {40}
    assert set(Counter(g.persona for g in games).values()) == {40}


def test_only_selects_the_games_holding_a_card() -> None:
    picked = SB.selected(81, ["goemon"])
    assert len(picked) == 9
    assert all(SB.design(i).persona == "goemon" for i in picked)
    both = SB.selected(81, ["goemon", "fox"])
    assert len(both) == 9 + 9 - 1  # Fox with Goemon is one game


def test_a_bad_only_or_index_is_refused() -> None:
    with pytest.raises(ConfigError, match="'wizard' is no thief or persona"):
        SB.selected(9, ["wizard"])
    with pytest.raises(ConfigError, match="0 or more"):
        SB.design(-1)


def test_games_are_played_with_the_designed_setup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    args = ["--bot", "random", "--games", "10", "--seed", "3", "--out", str(out)]
    assert SB.main(args) == 0
    text = capsys.readouterr().out
    assert "vs mean" in text and "mean " in text
    rows = ResultStore(out).load_rows()
    assert sorted(r["index"] for r in rows) == list(range(10))
    for r in rows:
        want = SB.design(r["index"])
        assert (r["thief_0"], r["persona_0"], r["palace"]) == (
            want.thief,
            want.persona,
            want.palace,
        )
    # A paired re-run: only Fox's games, the rest read from the first run.
    again = tmp_path / "again"
    args = ["--bot", "random", "--games", "10", "--seed", "3", "--out", str(again)]
    assert SB.main([*args, "--only", "fox", "--fill-from", str(out)]) == 0
    replayed = ResultStore(again).load_rows()
    assert [r["index"] for r in replayed] == [4]
    assert replayed[0]["seed"] == next(r["seed"] for r in rows if r["index"] == 4)
    assert "10 games" in capsys.readouterr().out


def test_bad_arguments_change_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert SB.main(["--bot", "wizard", "--games", "9", "--out", str(out)]) == 2
    assert "unknown bot 'wizard'" in capsys.readouterr().err
    assert SB.main(["--games", "0", "--out", str(out)]) == 2
    assert "--games must be" in capsys.readouterr().err
    assert not out.exists()
