"""The benchmark scripts run end to end on tiny jobs and print what their docs quote.

The figures themselves are measured by hand (docs/benchmarks.md, docs/lab.md);
these tests only keep the scripts working as the code under them changes.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
RATE = re.compile(r"\d+\.\d% \[\s*\d+\.\d%, \s*\d+\.\d%\]")


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_strength_reports_each_bot_with_an_interval(capsys: pytest.CaptureFixture[str]) -> None:
    code = load("strength").main(["vs", "greedy", "random", "--games", "3", "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith(("greedy", "random"))]
    assert len(rows) == 2
    assert all(len(RATE.findall(row)) == 3 for row in rows)  # seat 0, seat 1, pooled


def test_deck_balance_plays_every_pairing(capsys: pytest.CaptureFixture[str]) -> None:
    code = load("deck_balance").main(["--games", "2", "--bot", "random", "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 0
    for pairing in ("p5 v p4", "p5 v p3", "p4 v p3", "first player"):
        line = next(line for line in out.splitlines() if line.startswith(pairing))
        assert RATE.search(line), line


def test_deck_balance_plays_with_the_first_player_offset(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ["--games", "2", "--bot", "random", "--workers", "1", "--second-draws", "1"]
    code = load("deck_balance").main([*args, "--keep", str(tmp_path / "runs")])
    assert code == 0
    assert "second player +1 card(s)" in capsys.readouterr().out
    run = json.loads((tmp_path / "runs" / "p5-p4" / "run.json").read_text(encoding="utf-8"))
    assert run["config"]["second_draws"] == 1


def test_deck_balance_rejects_a_bad_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert load("deck_balance").main(["--games", "2", "--bot", "wizard"]) == 2
    assert "unknown bot 'wizard'" in capsys.readouterr().err


def test_palace_balance_reports_one_palace(capsys: pytest.CaptureFixture[str]) -> None:
    module = load("palace_balance")
    args = ["--bot", "random", "--games", "2", "--palace", "kamoshida", "--workers", "1"]
    code = module.main(args)
    out = capsys.readouterr().out
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith("kamoshida"))
    assert RATE.search(line), line


def test_scaling_measures_the_pool(capsys: pytest.CaptureFixture[str]) -> None:
    code = load("scaling").main(["vs", "--games", "20", "--workers", "1", "2", "--no-ray"])
    out = capsys.readouterr().out
    assert code == 0
    rows = [line.split() for line in out.splitlines() if line.startswith("pool")]
    assert [row[1] for row in rows] == ["1", "2"]
    assert rows[0][-1] == "1.00x" and float(rows[1][2]) > 0


def test_move_time_times_real_decisions(capsys: pytest.CaptureFixture[str]) -> None:
    code = load("move_time").main(["ismcts:5", "--game", "vs", "--games", "1"])
    out = capsys.readouterr().out
    assert code == 0
    name, decisions, mean, p95, slowest = out.splitlines()[1].split()
    assert name == "vs" and int(decisions) > 0
    assert 0 < float(mean) <= float(slowest) and float(p95) <= float(slowest)


def test_move_time_rejects_a_bad_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert load("move_time").main(["hard", "--games", "0"]) == 2
    assert "--games must be a positive number" in capsys.readouterr().err


def test_cli_start_prints_both_medians_and_the_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    code = load("cli_start").main(["--runs", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert re.search(r"python -c pass\s+median\s+[\d.]+ ms\s+ratio\s+1\.00x", out)
    assert re.search(r"velvet --help\s+median\s+[\d.]+ ms\s+ratio\s+[\d.]+x", out)
    assert "0.3 s budget" in out


def test_playout_check_fingerprint_is_stable_and_catches_a_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = load("playout_check")
    saved = tmp_path / "prints.json"
    assert module.main(["digest", "--games", "2", "--save", str(saved)]) == 0
    assert module.main(["digest", "--games", "2", "--check", str(saved)]) == 0
    assert "same as" in capsys.readouterr().out
    assert module.fingerprint("vs", 2) != module.fingerprint("vs", 3)
    data = saved.read_text(encoding="utf-8").replace('"p5": "', '"p5": "0')
    saved.write_text(data, encoding="utf-8")
    assert module.main(["digest", "--games", "2", "--check", str(saved)]) == 1
    assert "DIFFERENT" in capsys.readouterr().out


def test_playout_check_speed_counts_steps(capsys: pytest.CaptureFixture[str]) -> None:
    assert load("playout_check").main(["speed", "--games", "2", "--repeat", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["p5", "vs"]
    assert all("steps/s" in line and " 0 steps" not in line for line in lines)


def test_serve_match_pairs_rated_accounts_and_measures_idle_seats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = load("serve_match")
    quick = ["--players", "4", "--seconds", "5", "--warmup", "0", "--ramp", "0.5"]
    assert bench.main(["match", *quick]) == 0
    match = capsys.readouterr().out
    assert "4 accounts made" in match and "4 players (rated, accounts)" in match
    assert re.search(r"paired wait p50 \d+\.\d+ s", match) and ", 0 errors" in match, match
    assert bench.main(["idle", "--seats", "10", "--json"]) == 0
    idle = json.loads(capsys.readouterr().out)
    assert idle["seats"] == 10 and idle["rss_after_mib"] >= idle["rss_before_mib"] > 0
