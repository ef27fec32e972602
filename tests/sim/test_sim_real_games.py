"""The simulator and report on the real engines: P5 and VS columns, a 1,000-game sweep."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from velvet.engine.core import Config
from velvet.engine.errors import ConfigError
from velvet.games import get_spec
from velvet.sim.report import write_report
from velvet.sim.results import load_results
from velvet.sim.run import replay_game, run_sim


def setup(name: str, seats: int, **options: tuple[str, ...]) -> Config:
    """The registered game's set-up for ``seats`` players, as ``velvet sim`` builds it."""
    spec = get_spec(name)
    return spec.config_for(spec.load(()), seats, options)


def test_p5_rows_carry_p5_columns_and_replay(tmp_path: Path) -> None:
    config = setup("p5", 2)
    summary = run_sim(
        "p5", 12, ["greedy", "random"], config, 1, tmp_path / "r", workers=1, progress=False
    )
    assert summary.errors == 0
    _, rows = load_results(tmp_path / "r")
    row = rows[0]
    for column in (
        "palace",
        "day",
        "thief_0",
        "persona_0",
        "thief_1",
        "confidants_0",
        "shadows_defeated_1",
        "shadow_count_0",
        "confidant_count_1",
    ):
        assert column in row
    assert row["turns"] == row["day"] and row["winner"] is None
    assert row["return_0"] == row["return_1"]  # co-op: one shared outcome
    state, actions = replay_game("p5", config, ["greedy", "random"], 1, 3)
    assert len(actions) == rows[3]["length"] and state.outcome_text() == rows[3]["outcome"]
    page = write_report(tmp_path / "r", tmp_path / "p5.html").read_text()
    assert "Day or turn of victory and defeat" in page and "Impact of confidants" in page


def test_vs_rows_carry_vs_columns_and_report(tmp_path: Path) -> None:
    config = setup("vs", 2)
    run_sim("vs", 30, ["ismcts:5", "random"], config, 2, tmp_path / "r", workers=2, progress=False)
    _, rows = load_results(tmp_path / "r")
    row = rows[0]
    assert row["deck_0"] == "p5" and row["deck_1"] == "p4"
    assert row["first_player"] in (0, 1) and isinstance(row["turns"], int)
    assert row["plays_0"] >= 1 and ";" in row["cards_played_0"]
    assert {r["winner"] for r in rows} <= {0, 1}
    page = write_report(tmp_path / "r", tmp_path / "vs.html").read_text()
    for title in ("First-player advantage", "Impact of cards_played", "Game length"):
        assert title in page


def test_runs_of_different_pairings_combine_into_one_matchup_report(tmp_path: Path) -> None:
    dirs = []
    for a, b in (("p5", "p4"), ("p4", "p5"), ("p4", "p3")):
        out = tmp_path / f"{a}-{b}"
        config = setup("vs", 2, player_card=(a, b))
        run_sim("vs", 4, ["random", "random"], config, 5, out, workers=1, progress=False)
        dirs.append(out)
    with pytest.raises(ConfigError, match=r"config differs.*use --combine"):
        load_results(*dirs)
    meta, rows = load_results(*dirs, combine=True)
    assert len(rows) == 12 and meta["n_games"] == 12 and meta["runs"] == 3
    assert {r["run"] for r in rows} == {"p5-p4", "p4-p5", "p4-p3"}
    assert meta["seats"] == ["random", "random"] and len(meta["config"]) == 3
    page = write_report(dirs, tmp_path / "decks.html", combine=True).read_text()
    matrix = page.split("Matchup: seat 0 win rate by deck", 1)[1].split("</table>", 1)[0]
    assert "<td>p5</td>" in matrix and "<td>p4</td>" in matrix  # both seat-0 decks
    assert "(n=4)" in matrix and "–" in matrix  # played pairings, and an unplayed one
    assert "differs between the 3 runs combined" in page


def test_combining_refuses_runs_of_another_game(tmp_path: Path) -> None:
    run_sim(
        "vs",
        2,
        ["random", "random"],
        setup("vs", 2),
        1,
        tmp_path / "vs",
        workers=1,
        progress=False,
    )
    run_sim(
        "p5",
        2,
        ["random"],
        setup("p5", 1),
        1,
        tmp_path / "p5",
        workers=1,
        progress=False,
    )
    with pytest.raises(ConfigError, match=r"cannot be combined with.*game differs"):
        load_results(tmp_path / "vs", tmp_path / "p5", combine=True)
    with pytest.raises(ConfigError, match="given twice"):
        load_results(tmp_path / "vs", tmp_path / "vs", combine=True)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["p5", "vs"])
def test_thousand_random_games_finish_without_errors(tmp_path: Path, name: str) -> None:
    config = setup(name, 1 if name == "p5" else 2)
    seats = ["random"] if name == "p5" else ["random", "random"]
    summary = run_sim(name, 1000, seats, config, 9, tmp_path / "r", workers=2, progress=False)
    assert summary.finished == 1000 and summary.errors == 0
    stored = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert stored["finished"] == 1000


def test_cli_vs_with_a_deck_file_and_a_built_in_deck(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from velvet.sim.cli import sim_command

    deck_file = Path(__file__).resolve().parents[2] / "src/velvet/vs/data/decks/p5.toml"
    result = CliRunner().invoke(
        sim_command,
        [
            "vs",
            "-n",
            "4",
            "--seat",
            "random",
            "--seat",
            "greedy",
            "--deck",
            "p3",
            "--deck",
            str(deck_file),
            "--workers",
            "1",
            "--out",
            str(tmp_path / "r"),
        ],
    )
    assert result.exit_code == 0, result.output
    _, rows = load_results(tmp_path / "r")
    assert (rows[0]["deck_0"], rows[0]["deck_1"]) == ("p3", "p5")
    three = ["--deck", "p3"] * 3
    bad = CliRunner().invoke(sim_command, ["vs", *three, "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "--deck at most twice" in bad.output


@pytest.mark.parametrize(("name", "seats"), [("p5", ["greedy", "greedy"]), ("vs", ["random"] * 2)])
def test_varied_real_set_ups_cover_the_choices(tmp_path: Path, name: str, seats: list[str]) -> None:
    config = setup(name, 2)
    summary = run_sim(
        name, 40, seats, config, 4, tmp_path / "r", workers=2, progress=False, vary=True
    )
    assert summary.errors == 0
    _, rows = load_results(tmp_path / "r")
    if name == "p5":
        assert len({r["palace"] for r in rows}) >= 3
        assert len({r["thief_0"] for r in rows}) >= 4
        assert all(r["thief_0"] != r["thief_1"] for r in rows)
        page = write_report(tmp_path / "r", tmp_path / "r.html").read_text()
        for title in ("Win rate by palace", "Win rate by thief", "Win rate by persona"):
            assert title in page
    else:
        assert len({(r["deck_0"], r["deck_1"]) for r in rows}) >= 4
        page = write_report(tmp_path / "r", tmp_path / "r.html").read_text()
        assert "Matchup: seat 0 win rate by deck" in page
