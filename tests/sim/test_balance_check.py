"""`velvet balance check`: seeded games against stored bands; failures name what moved."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from velvet.cli import main
from velvet.engine.errors import ConfigError
from velvet.sim.balance import BANDS_FILE, Reference, band_for, check, load_bands

ROOT = Path(__file__).resolve().parents[2]

STRONG_ARSENE = """
[[persona]]
id = "001"
name = "Arsène"
cost = 0
starter = true
skills = [{ name = "Cleave", type = "physical", damage = 15 }, \
{ name = "Agi", type = "fire", damage = 15 }]
"""


def test_bands_hold_the_rate_of_a_fresh_sample_and_narrow_with_more_games() -> None:
    ref = Reference(wins=50, games=100)
    low, high = band_for(ref, 60)
    assert low < 0.5 < high
    assert 0.5 - low == pytest.approx(high - 0.5, abs=1 / 60)
    wide, narrow = band_for(ref, 10), band_for(ref, 400)
    assert wide[0] <= low <= narrow[0] and narrow[1] <= high <= wide[1]
    assert band_for(Reference(wins=0, games=100), 6)[0] == 0.0
    assert band_for(Reference(wins=100, games=100), 6)[1] == 1.0


def test_builtin_bands_cover_every_palace_and_pairing_in_both_profiles() -> None:
    from velvet.games import get_game

    entries = load_bands()
    palaces = {p.id for p in get_game("p5").cards.palaces}  # type: ignore[attr-defined]
    for profile in ("short", "full"):
        mine = [e for e in entries if e.profile == profile]
        assert {e.subject for e in mine if e.game == "p5"} == palaces
        assert {e.subject for e in mine if e.game == "vs"} == {"p5-p4", "p5-p3", "p4-p3"}
        for e in mine:  # each stored band is the one its reference gives
            assert (e.low, e.high) == pytest.approx(band_for(e.reference, e.games), abs=1e-4)


def test_the_short_check_passes_on_the_builtin_cards() -> None:
    result = CliRunner().invoke(main, ["balance", "check"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("ok")]
    assert len(lines) == 8
    assert any("p5 palace kamoshida" in line for line in lines)
    assert any("vs pairing p4-p3" in line and "[95% CI" in line for line in lines)
    assert "balance check passed: 8 of 8" in result.output


def test_a_card_that_moves_a_rate_fails_naming_the_pairing_and_interval(tmp_path: Path) -> None:
    cards = tmp_path / "strong.toml"
    cards.write_text(STRONG_ARSENE, encoding="utf-8")
    result = CliRunner().invoke(
        main, ["balance", "check", "--game", "vs", "--cards", str(cards), "--only", "p5-p4"]
    )
    assert result.exit_code == 1
    (line,) = [x for x in result.output.splitlines() if x.startswith("FAIL")]
    assert "vs pairing p5-p4" in line and "[95% CI" in line and "band 25.0%-56.7%" in line
    assert "outside their band (p5-p4)" in result.output


def test_bad_bands_and_options_are_one_line_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bands.toml"
    text = BANDS_FILE.read_text(encoding="utf-8")
    bad.write_text(text.replace('subject = "p5-p4"', 'subject = "p5-p9"', 1), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"band #\d+ \(p5-p9\): .*pairing"):
        load_bands(bad)
    bad.write_text(text.replace("low = 0.2000", "low = 0.9000", 1), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"low 0\.9 is above high"):
        load_bands(bad)
    bad.write_text("[[band]]\ngame = 'p5'\ncolour = 1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"band #1 \(\?\): subject: Field required"):
        load_bands(bad)
    with pytest.raises(ConfigError, match="no such bands file"):
        load_bands(tmp_path / "none.toml")
    with pytest.raises(ConfigError, match="no short band for atlantis"):
        check("short", only=["atlantis"])
    result = CliRunner().invoke(main, ["balance", "check", "--only", "atlantis"])
    assert result.exit_code == 2
    assert result.output.strip() == "error: no short band for atlantis"


def test_benchmark_runs_one_entry(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location(
        "bench_balance_check", ROOT / "benchmarks" / "balance_check.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    code = module.main(["--profile", "short", "--only", "p5-p3"])
    out = capsys.readouterr().out
    assert code == 0
    assert "ok   vs pairing p5-p3" in out and "1 of 1 inside their band" in out


NEW_PALACE = """
[[palace]]
id = "mementos"
name = "Mementos"
rows = [{ alert = 0 }, { alert = 25 }, { alert = 50 }, { alert = 75 }]
boss = { name = "Shadow", health = { stamina = 1 } }
"""


def test_a_custom_palace_without_a_band_is_measured_and_shown(tmp_path: Path) -> None:
    cards = tmp_path / "palace.toml"
    cards.write_text(NEW_PALACE, encoding="utf-8")
    runner = CliRunner()
    mixed = runner.invoke(main, ["balance", "check", "--cards", str(cards)])
    assert mixed.exit_code == 2 and "add --game p5 or --game vs" in mixed.output
    result = runner.invoke(main, ["balance", "check", "--game", "p5", "--cards", str(cards)])
    assert result.exit_code == 0, result.output
    (line,) = [x for x in result.output.splitlines() if x.startswith("new ")]
    assert "p5 palace mementos" in line and "[95% CI" in line and "no band" in line
    assert "passed: 5 of 5 inside their band; 1 without a band measured" in result.output
