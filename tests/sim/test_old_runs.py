"""Results folders written before the game facets moved into the specs still read.

``data/old-runs`` holds two runs written by ``velvet sim`` at commit 594d2b3 (before
issue 24 step 2), one per built-in game and chunk format::

    velvet sim p5 --games 3 --seat random --seed 4 --workers 1 --format csv --out p5-csv
    velvet sim vs --games 4 --seat random --seat greedy --seed 4 --workers 1 \\
        --format parquet --out vs-parquet

Reading one checks every row's own cells against the game's ``result_cells`` today, so
a renamed or retyped column of a game's results would fail here.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from velvet.sim.report import write_report
from velvet.sim.results import ResultStore, load_results
from velvet.sim.run import summarize_run

OLD = Path(__file__).resolve().parent / "data" / "old-runs"


@pytest.mark.parametrize(
    ("folder", "game", "columns"),
    [
        ("p5-csv", "p5", {"day", "palace", "thief_0", "persona_0", "confidants_0"}),
        ("vs-parquet", "vs", {"first_player", "deck_0", "deck_1", "cards_played_1"}),
    ],
)
def test_an_old_run_reads_and_gives_the_figures_it_gave(
    folder: str, game: str, columns: set[str], tmp_path: Path
) -> None:
    run = tmp_path / folder
    shutil.copytree(OLD / folder, run)
    stored = json.loads((run / "summary.json").read_text(encoding="utf-8"))

    meta, rows = load_results(run)
    assert meta["game"] == game and len(rows) == stored["finished"]
    assert columns <= set(rows[0])

    again = summarize_run(ResultStore(run), game, stored["seats"], stored["n_games"]).to_json()
    for key in ("finished", "errors", "win_rates", "mean_length", "mean_turns", "first_player"):
        assert again[key] == stored[key], key

    page = tmp_path / f"{folder}.html"
    write_report(run, page)
    n = stored["finished"]
    assert f"{n} of {n}" in page.read_text(encoding="utf-8")
