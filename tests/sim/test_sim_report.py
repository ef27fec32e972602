"""The HTML report: generic sections from toy results, P5- and VS-shaped columns."""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Any

import pytest

from velvet.engine.errors import ConfigError
from velvet.sim.report import build_report, write_report
from velvet.sim.run import run_sim

PNG_MAGIC = b"\x89PNG"


def images(page: str) -> list[bytes]:
    return [base64.b64decode(m) for m in re.findall(r"base64,([A-Za-z0-9+/=]+)'", page)]


def test_report_of_a_toy_run_is_self_contained_html(tmp_path: Path) -> None:
    run_sim(
        "velvet_toys:DUEL",
        40,
        ["random", "greedy"],
        {},
        3,
        tmp_path / "r",
        workers=1,
        progress=False,
    )
    out = write_report(tmp_path / "r", tmp_path / "report.html")
    page = out.read_text()
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    for title in ("Win rate by seat", "Game length", "How games ended"):
        assert title in page
    pictures = images(page)
    assert pictures and all(p.startswith(PNG_MAGIC) for p in pictures)
    assert "http://" not in page and "https://" not in page  # nothing fetched from outside


def test_report_merges_shards(tmp_path: Path) -> None:
    for name, start in (("a", 0), ("b", 10)):
        run_sim(
            "velvet_toys:RACE",
            10,
            ["random"],
            {},
            3,
            tmp_path / name,
            workers=1,
            progress=False,
            start=start,
        )
    page = write_report([tmp_path / "a", tmp_path / "b"], tmp_path / "r.html").read_text()
    assert "20 of" in page
    assert "Day or turn of victory and defeat" in page


def p5_rows() -> list[dict[str, Any]]:
    rows = []
    for i in range(60):
        won = i % 3 != 0
        rows.append(
            {
                "index": i,
                "seed": i,
                "winner": None,
                "length": 100 + i,
                "turns": 5 + i % 4,
                "seconds": 0.1,
                "error": None,
                "outcome": "won" if won else "lost",
                "return_0": float(won),
                "bot_0": "random",
                "palace": "kamoshida" if i % 2 else "madarame",
                "thief_0": "joker" if i % 4 else "skull",
                "persona_0": "arsene",
                "day": 5 + i % 4,
                "confidants": "sojiro;ann" if won else "ann",
                "shadows_defeated": "pixie;jack_frost" if i % 5 else "pixie",
            }
        )
    return rows


def vs_rows() -> list[dict[str, Any]]:
    rows = []
    for i in range(60):
        winner = i % 2 if i % 7 else 0
        rows.append(
            {
                "index": i,
                "seed": i,
                "winner": winner,
                "length": 40 + i % 9,
                "turns": 10,
                "seconds": 0.1,
                "error": None if i != 59 else "RuntimeError: boom",
                "outcome": f"seat {winner} wins",
                "return_0": float(winner == 0),
                "return_1": float(winner == 1),
                "bot_0": "ismcts:10",
                "bot_1": "random",
                "deck_0": "p5" if i % 3 else "p4",
                "deck_1": "p4" if i % 4 else "p3",
                "first_player": i % 2,
                "cards_played_0": "arsene;zorro;skill_a" if winner == 0 else "pixie;x",
                "cards_played_1": "izanagi;jiraiya" if winner == 1 else "pixie;y",
            }
        )
    return rows


def test_p5_shaped_results_get_p5_sections() -> None:
    page = build_report({"game": "p5", "seats": ["random"], "n_games": 60}, p5_rows())
    for title in (
        "Win rate by palace",
        "Win rate by thief",
        "Day or turn of victory",
        "Impact of confidants",
        "Impact of shadows_defeated",
    ):
        assert title in page
    assert "sojiro" in page


def test_vs_shaped_results_get_vs_sections() -> None:
    page = build_report({"game": "vs", "seats": ["ismcts:10", "random"]}, vs_rows())
    for title in (
        "Matchup: seat 0 win rate by deck",
        "First-player advantage",
        "Win rate by deck",
        "Impact of cards_played",
        "games failed",
    ):
        assert title in page
    assert "arsene" in page and "izanagi" in page
    assert "error: RuntimeError: boom" in page


def test_report_of_an_empty_or_foreign_directory_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError, match="not a results directory"):
        write_report(tmp_path / "empty", tmp_path / "x.html")
    assert not (tmp_path / "x.html").exists()


def test_report_refuses_to_merge_different_runs(tmp_path: Path) -> None:
    run_sim("velvet_toys:RACE", 3, ["random"], {}, 1, tmp_path / "a", workers=1, progress=False)
    run_sim("velvet_toys:RACE", 3, ["random"], {}, 2, tmp_path / "b", workers=1, progress=False)
    with pytest.raises(ConfigError, match="not a shard of the same run"):
        write_report([tmp_path / "a", tmp_path / "b"], tmp_path / "x.html")
