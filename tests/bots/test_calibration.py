"""benchmarks/calibration.py: its maths on hand-computed inputs, and a tiny run end to end."""

from __future__ import annotations

import importlib
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

from velvet.bots.hints import calibrated
from velvet.engine.rng import Rng
from velvet.games import get_spec

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _load() -> ModuleType:
    """benchmarks/calibration.py as the module ``calibration``, the benchmarks folder on the
    path (its spawned workers import it by that name, with the parent's path)."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    return importlib.import_module("calibration")


cal = _load()

P = [0.1, 0.3, 0.35, 0.8, 0.9]
Y = [0.0, 1.0, 0.0, 1.0, 1.0]


def test_brier_and_its_base_rate_baseline_match_hand_computed_values() -> None:
    # (0.01 + 0.49 + 0.1225 + 0.04 + 0.01) / 5
    assert cal.brier(P, Y) == pytest.approx(0.1345)
    s = cal.summary(P, Y)
    assert s["base_rate"] == pytest.approx(0.6)
    # the constant 0.6: (0.36 + 0.16 + 0.36 + 0.16 + 0.16) / 5
    assert s["brier_baseline"] == pytest.approx(0.24)
    assert s["n"] == 5 and s["mean_chance"] == pytest.approx(0.49)


def test_ece_weighs_each_bins_gap_by_its_count() -> None:
    # bins: [0.1]→0 (gap .1), [0.3, 0.35]→0.5 (gap .175, twice), [0.8]→1 (.2), [0.9]→1 (.1)
    assert cal.bins_of(P, Y) == [
        pytest.approx((0.1, 0.0, 1)),
        pytest.approx((0.325, 0.5, 2)),
        pytest.approx((0.8, 1.0, 1)),
        pytest.approx((0.9, 1.0, 1)),
    ]
    assert cal.ece(P, Y) == pytest.approx(0.15)
    assert cal.ece([1.0, 0.0], [1.0, 0.0]) == 0.0  # 1.0 falls in the last bin, not past it


def test_spread_takes_the_few_games_noise_off_the_forecasts_distance() -> None:
    # f = 3/4, 1/4 around p = 0.5: E[(f-p)^2] = 0.0625; noise 3*1/(16*3) = 0.0625 each
    assert cal.spread([0.5, 0.5], [3, 1], [4, 4]) == 0.0
    # f = 1, 0 around 0.5: 0.25 off, no noise (k(n-k) = 0): the root of 0.25
    assert cal.spread([0.5, 0.5], [4, 0], [4, 4]) == pytest.approx(0.5)
    # 2 of 2 and 1 of 2 around 0.5: off (0.25 + 0) / 2, noise (0 + 1/4) / 2
    assert cal.spread([0.5, 0.5], [2, 1], [2, 2]) == pytest.approx(0.0)
    with pytest.raises(ValueError, match="at least 2 games"):
        cal.spread([0.5], [1], [1])


def test_brier_refuses_chances_without_outcomes() -> None:
    with pytest.raises(ValueError, match="as many outcomes"):
        cal.brier([0.5, 0.5], [1.0])


def test_platt_fit_recovers_a_known_map() -> None:
    rng = Rng(5)
    values, outcomes = [], []
    for _ in range(4000):
        v = (rng.randbelow(980) + 10) / 1000
        z = 2.0 * math.log(v / (1 - v)) - 1.0
        values.append(v)
        outcomes.append(1.0 if rng.randbelow(10**6) / 10**6 < 1 / (1 + math.exp(-z)) else 0.0)
    a, b = cal.fit_platt(values, outcomes)
    assert a == pytest.approx(2.0, abs=0.25) and b == pytest.approx(-1.0, abs=0.25)
    mapped = [calibrated("x", v, {"x": (a, b)}) for v in values]
    assert cal.ece(mapped, outcomes) < cal.ece(values, outcomes)


def test_a_tiny_run_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = tmp_path / "rows.json"
    png = tmp_path / "reliability.png"
    args = ["--positions", "2", "--bot", "greedy", "--budget", "10", "--forecast-games", "1"]
    code = cal.main([*args, "--no-progress", "--rows", str(rows), "--fit", "--figure", str(png)])
    out = capsys.readouterr().out
    assert code == 0
    saved = json.loads(rows.read_text(encoding="utf-8"))
    assert saved["bot"] == "greedy" and saved["budget"] == 10
    assert sorted((r["game"], r["index"]) for r in saved["rows"]) == [
        ("p5", 0),
        ("p5", 1),
        ("vs", 0),
        ("vs", 1),
    ]
    for row in saved["rows"]:
        assert row["hint_outcome"] in (0.0, 0.5, 1.0) and 0 <= row["hint_chance"] <= 1
        assert row["hint_chance"] == pytest.approx(calibrated(row["game"], row["hint_value"]))
    p5 = [r for r in saved["rows"] if r["game"] == "p5"]
    assert all(r["forecast_games"] == 1 and r["forecast_rate"] in (0.0, 1.0) for r in p5)
    assert "p5:" in out and "vs:" in out and "fitted map (even positions)" in out
    assert out.count("Brier") >= 5 and png.stat().st_size > 10_000
    # the rows read back give the same report, without playing
    assert cal.main(["--from", str(rows), "--fit"]) == 0
    again = capsys.readouterr().out
    assert again == out.replace(f"reliability diagram: {png}\n", "")


def test_a_file_that_is_not_rows_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"rows": 3}', encoding="utf-8")
    assert cal.main(["--from", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "not a rows file written by --rows" in err
    assert cal.main(["--positions", "0"]) == 2
    assert "must be 1 or more" in capsys.readouterr().err


# --- the specs' maps against the measured positions ------------------------------------------

ROWS = BENCHMARKS / "data" / "calibration-rows-seed23.json"
"""The positions the specs' ``hint_calibration`` maps were fitted and measured on (docs/lab.md,
"Honest chances"), written by ``benchmarks/calibration.py --rows``."""


def _shipped() -> dict[str, object]:
    data: dict[str, object] = json.loads(ROWS.read_text(encoding="utf-8"))
    return data


def test_the_shipped_positions_were_played_by_the_level_each_game_now_assumes() -> None:
    """A spec that changes whose play its chances assume (VS's easy became greedy:5) or what
    that level is must have its map measured again: these rows say what played them."""
    from velvet.bots.hints import CALIBRATION_BUDGET, assumed_bot, level_spec

    data = _shipped()
    assert data["budget"] == CALIBRATION_BUDGET
    levels = data["levels"]
    assert isinstance(levels, dict)
    for name in cal.GAMES:
        assert levels[name] == level_spec(assumed_bot(name), name), (
            f"{name}'s chances assume {level_spec(assumed_bot(name), name)} but its map was "
            f"measured with {levels[name]}: run benchmarks/calibration.py --fit again"
        )


@pytest.mark.parametrize("name", cal.GAMES)
def test_each_specs_map_stands_on_the_held_out_positions(name: str) -> None:
    rows = _shipped()["rows"]
    assert isinstance(rows, list) and sum(1 for r in rows if r["game"] == name) >= 100
    assert cal.check_map(rows, name) == []


def _shifted(mapping: object, by: float) -> object:
    """A spec's map with every chance moved ``by`` in logit (Platt's b, or each point's)."""
    if mapping is None:
        return (1.0, by)
    assert isinstance(mapping, tuple)
    if isinstance(mapping[0], tuple):
        return tuple((x, 1 / (1 + math.exp(-(cal.logit(c) + by)))) for x, c in mapping)
    a, b = mapping
    return (a, b + by)


@pytest.mark.parametrize("name", cal.GAMES)
def test_a_badly_off_map_is_refused(name: str) -> None:
    rows = _shipped()["rows"]
    assert isinstance(rows, list)
    mapping = get_spec(name).hint_calibration
    assert cal.check_map(rows, name, {name: _shifted(mapping, 1.5)})  # every chance pushed up
    assert cal.check_map(rows, name, {name: _shifted(mapping, -1.5)})  # and down


def test_an_isotonic_map_joins_its_points_and_is_flat_outside() -> None:
    points = ((0.2, 0.1), (0.5, 0.4), (0.8, 0.9))
    assert calibrated("x", 0.35, {"x": points}) == pytest.approx(0.25)  # halfway: halfway
    assert calibrated("x", 0.05, {"x": points}) == 0.1  # below the first point: its chance
    assert calibrated("x", 0.95, {"x": points}) == 0.9  # above the last: its chance
    assert calibrated("x", 0.5, {"x": points}) == pytest.approx(0.4)


def test_the_isotonic_fit_pools_what_would_fall_and_keeps_off_0_and_1() -> None:
    # values rising, outcomes 0, 1, 0, 1, 1: the middle 1, 0 pool to 0.5 each
    points = cal.fit_isotonic([0.1, 0.2, 0.3, 0.4, 0.5], [0.0, 1.0, 0.0, 1.0, 1.0])
    assert points == [(0.1, 0.01), (0.25, 0.5), (0.45, 0.99)]
    chances = [c for _, c in points]
    assert chances == sorted(chances)
    with pytest.raises(ValueError, match="as many outcomes"):
        cal.fit_isotonic([0.5], [])


@pytest.mark.parametrize("name", cal.GAMES)
def test_the_shipped_positions_are_what_the_code_plays_now(name: str) -> None:
    """The first position of each game, played again: the same position, search value and
    outcome as the rows (the games, the bots or the hint's search changed otherwise, and the
    map must be measured again)."""
    data = _shipped()
    rows = data["rows"]
    assert isinstance(rows, list)
    from velvet.bots.hints import assumed_bot

    shipped = next(r for r in rows if r["game"] == name and r["index"] == 0)
    budget, games, seed = data["budget"], data["forecast_games"], data["seed"]
    assert isinstance(budget, int) and isinstance(games, int) and isinstance(seed, int)
    again = cal.position_row(name, 0, seed, assumed_bot(name), budget, games)
    for key in ("step", "seat", "hint_value", "hint_outcome", "played_on"):
        assert again[key] == pytest.approx(shipped[key]), (
            f"{name} position 0's {key} is {again[key]} now, {shipped[key]} in {ROWS.name}: "
            "run benchmarks/calibration.py again and refit"
        )
