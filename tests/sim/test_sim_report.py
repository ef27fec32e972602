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


def _deck_rows(n: int = 40) -> list[dict[str, Any]]:
    """p5 (strong) against p4 in both seats; card "x" is in both decks and played in every
    other game, so it is independent of winning within each deck; "kanzeon" (p4) is played
    in exactly the games p4 wins."""
    rows = []
    for i in range(n):
        p5_seat = i % 2
        p5_wins = i % 4 != 3  # p5 wins 3 in 4
        winner = p5_seat if p5_wins else 1 - p5_seat
        p4_cards = "izanagi;kanzeon" if not p5_wins else "izanagi;jiraiya"
        p5_cards = "arsene;pixie"
        x = (i // 4) % 2 == 0
        row: dict[str, Any] = {
            "index": i,
            "seed": i,
            "winner": winner,
            "length": 50,
            "turns": 10,
            "error": None,
            "outcome": f"seat {winner} wins",
            "first_player": i % 2,
        }
        for seat in (0, 1):
            is_p5 = seat == p5_seat
            cards = p5_cards if is_p5 else p4_cards
            row[f"deck_{seat}"] = "p5" if is_p5 else "p4"
            row[f"cards_played_{seat}"] = cards + (";x" if x else "")
            row[f"return_{seat}"] = float(winner == seat)
        rows.append(row)
    return rows


def test_card_effect_is_measured_within_its_deck() -> None:
    from velvet.sim.report import effects_within_deck

    rows = _deck_rows()
    effects = effects_within_deck(rows, min_games=5)
    p4 = {e.item: e for e in effects["p4"]}
    p5 = {e.item: e for e in effects["p5"]}
    # "x" is played in half the games of each deck, wins unrelated: no effect in either,
    # though pooled over decks (the old table) its rate is just each deck's average
    assert p4["x"].with_.n == p4["x"].without.n == 20
    assert p4["x"].with_.rate == p4["x"].without.rate == 0.25
    assert p5["x"].with_.rate == p5["x"].without.rate == 0.75
    assert p5["x"].diff == 0.0 and p5["x"].verdict == "unclear"
    # kanzeon: p4 won all 10 games it was played in and none of the 30 others
    k = p4["kanzeon"]
    assert (k.with_.wins, k.with_.n, k.without.wins, k.without.n) == (10, 10, 0, 30)
    assert k.diff == 1.0 and k.verdict == "higher" and 0.5 < k.low < k.high <= 1.0
    assert p4["jiraiya"].verdict == "lower" and p4["jiraiya"].diff == -1.0
    # played in every game of its deck: no contrast, left out
    assert "arsene" not in p5 and "izanagi" not in p4
    assert [e.item for e in effects["p4"]] == ["kanzeon", "x", "jiraiya"]


def test_the_report_shows_each_decks_card_effects_with_intervals() -> None:
    page = build_report({"game": "vs", "seats": ["normal", "normal"]}, _deck_rows())
    for deck in ("p4", "p5"):
        assert f"Card effect within deck {deck}" in page
    section = page[page.index("Card effect within deck p4") :]
    section = section[: section.index("<h2>")] if "<h2>" in section else section
    assert "kanzeon" in section and "+100.0%" in section and "higher" in section
    assert "unclear" in section and "lower" in section
    assert "no balance information" not in page.lower()


def test_the_report_says_when_a_run_carries_no_balance_information() -> None:
    rows = _deck_rows()
    for row in rows:  # seat 0 wins every game
        row["winner"], row["return_0"], row["return_1"] = 0, 1.0, 0.0
    page = build_report({"game": "vs", "seats": ["hard", "random"]}, rows)
    assert "This run carries no balance information" in page
    assert "seat 0 won every game of the 40 finished" in page


def test_a_deck_that_won_every_game_gets_no_card_effects() -> None:
    rows = [r for r in _deck_rows() if r[f"return_{0 if r['deck_0'] == 'p5' else 1}"] == 1.0]
    page = build_report({"game": "vs", "seats": ["normal", "normal"]}, rows)
    assert "No balance information: deck p5 won every game." in page
    assert "No balance information: deck p4 won none of its games." in page
