"""benchmarks/setup_balance.py: its balanced design, and that games follow it end to end."""

from __future__ import annotations

import importlib.util
import json
import shutil
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
    # --fill-from alone completes a shorter run: only the games it lacks are played
    longer = tmp_path / "longer"
    args = ["--bot", "random", "--games", "12", "--seed", "3", "--out", str(longer)]
    assert SB.main([*args, "--fill-from", str(out)]) == 0
    assert sorted(r["index"] for r in ResultStore(longer).load_rows()) == [10, 11]
    assert "12 games" in capsys.readouterr().out


def test_bad_arguments_change_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert SB.main(["--bot", "wizard", "--games", "9", "--out", str(out)]) == 2
    assert "unknown bot 'wizard'" in capsys.readouterr().err
    assert SB.main(["--games", "0", "--out", str(out)]) == 2
    assert "--games must be" in capsys.readouterr().err
    assert not out.exists()


def test_saved_rows_give_the_same_tables_and_outlast_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    saved = tmp_path / "data" / "rows.json"
    args = ["--bot", "random", "--games", "10", "--seed", "3"]
    assert SB.main([*args, "--out", str(out), "--save-rows", str(saved)]) == 0
    first = capsys.readouterr().out
    assert "10 games saved to" in first
    doc = json.loads(saved.read_text())
    assert (doc["bot"], doc["seed"], doc["games"]) == ("random", 3, 10)
    assert doc["cardset_hash"] == SB.current_cardset_hash()
    rows = {r["index"]: r for r in ResultStore(out).load_rows()}
    assert [c[0] for c in doc["rows"]] == list(range(10))
    for cells in doc["rows"]:
        row = dict(zip(doc["columns"], cells, strict=True))
        played = rows[row["index"]]
        assert (row["thief"], row["persona"], row["palace"]) == (
            played["thief_0"],
            played["persona_0"],
            played["palace"],
        )
        assert row["return"] == played["return_0"] and row["day"] == played["day"]
        assert row["won"] == (played["return_0"] >= 1.0)
        assert row["cards"] == SB.current_cardset_hash()[:12]
    # the results folder is gone: the file alone gives the same tables
    shutil.rmtree(out)
    assert SB.main(["--report", *args, "--fill-from", str(saved)]) == 0
    tables = [
        line
        for line in first.splitlines()
        if not line.startswith(("p5 solo", "  ...")) and "saved to" not in line
    ]
    assert "10 games, overall" in tables[0] and len(tables) > 10
    assert capsys.readouterr().out.splitlines() == tables


def test_a_rows_file_of_another_run_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "rows.json"
    args = ["--bot", "random", "--games", "9", "--seed", "3"]
    assert SB.main([*args, "--save-rows", str(saved)]) == 0
    capsys.readouterr()
    good = json.loads(saved.read_text())
    out = tmp_path / "run"

    def argv(bot: str = "random", seed: int = 3) -> list[str]:
        return [
            "--bot",
            bot,
            "--games",
            "9",
            "--seed",
            str(seed),
            "--only",
            "fox",
            "--out",
            str(out),
        ]

    run = argv()

    def refused(doc: dict[str, object], argv: list[str], message: str) -> None:
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(doc))
        assert SB.main([*argv, "--fill-from", str(bad)]) == 2
        assert message in capsys.readouterr().err
        assert not out.exists()  # refused before any game is played

    other_cards = {**good, "cardset_hash": "0" * 64}
    refused(other_cards, [a for a in run if a not in ("--only", "fox")], "with --only ID")
    refused(good, argv(seed=4), "saved for seed 3, this run has 4")
    refused(good, argv(bot="greedy"), "saved for bot 'random', this run has 'greedy'")
    moved = [list(r) for r in good["rows"]]
    moved[4][2] = "arsene" if moved[4][2] != "arsene" else "milady"
    refused({**good, "rows": moved}, run, "row 5: game 4 was Setup(")
    twice = [*good["rows"], good["rows"][0]]
    refused({**good, "rows": twice}, run, "game 0 is there twice")
    refused({"rows": []}, run, "not a rows file of this script")
    assert SB.main([*run, "--fill-from", str(tmp_path / "nothing.json")]) == 2
    assert "no such folder or file" in capsys.readouterr().err
    # the right file fills the games not replayed
    assert SB.main([*run, "--fill-from", str(saved)]) == 0
    assert "9 games" in capsys.readouterr().out
    assert [r["index"] for r in ResultStore(out).load_rows()] == [4]
    # a paired re-run (--only) may fill from a file of other card data, and says so
    older = tmp_path / "older.json"
    older.write_text(json.dumps(other_cards))
    assert SB.main([*run, "--fill-from", str(older)]) == 0
    assert "games were played with other card data" not in capsys.readouterr().out
    rows = [[*r[:-1], "0" * 12] for r in good["rows"]]
    older.write_text(json.dumps({**other_cards, "rows": rows}))
    assert SB.main([*run, "--fill-from", str(older)]) == 0
    assert "8 of 9 games were played with other card data" in capsys.readouterr().out
    # the tables alone (--report) are printed from a file of other card data, and say so
    report = ["--report", "--bot", "random", "--games", "9", "--seed", "3"]
    assert SB.main([*report, "--fill-from", str(older)]) == 0
    assert "9 of 9 games were played with other card data" in capsys.readouterr().out


def test_a_results_folder_of_another_bot_or_seed_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = tmp_path / "first"
    assert SB.main(["--bot", "random", "--games", "9", "--seed", "3", "--out", str(first)]) == 0
    capsys.readouterr()
    out = tmp_path / "run"
    base = ["--games", "9", "--only", "fox", "--out", str(out), "--fill-from", str(first)]
    assert SB.main(["--bot", "random", "--seed", "4", *base]) == 2
    assert "played with seed 3, this run is --seed 4" in capsys.readouterr().err
    assert SB.main(["--bot", "greedy", "--seed", "3", *base]) == 2
    assert "played by bot ['random'], this run is --bot greedy" in capsys.readouterr().err
    assert not out.exists()


def test_resuming_into_a_folder_of_other_card_data_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    args = ["--bot", "random", "--games", "9", "--seed", "3", "--out", str(out)]
    assert SB.main([*args, "--games", "2"]) == 0
    capsys.readouterr()
    meta_path = out / "run.json"
    meta = json.loads(meta_path.read_text())
    meta["cardset_hash"] = "0" * 64
    meta_path.write_text(json.dumps(meta))
    assert SB.main(args) == 2
    assert "holds games played with other card data (000000000000" in capsys.readouterr().err
    assert len(ResultStore(out).load_rows()) == 2  # nothing was played into it
    assert SB.main([*args, "--report"]) == 0  # its tables can still be printed
