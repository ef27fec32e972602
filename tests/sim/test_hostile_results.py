"""Hostile results folders: ``velvet report`` refuses a damaged chunk or a wrong cell.

Each case starts from a real run (VS and P5, CSV and Parquet chunks) and damages one
file: a chunk cut short (mid-row, at a row boundary, a Parquet file missing its
footer), a row dropped, cells of the wrong type or out of range. Each must be one
clear error naming the file, the row and the column, and no report is written.
"""

from __future__ import annotations

import csv
import io
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from velvet.cli import main
from velvet.games import get_game
from velvet.sim.run import run_sim

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Untouched runs: VS in CSV chunks of 3 games, P5 in Parquet chunks of 2."""
    root = tmp_path_factory.mktemp("runs")
    run_sim(
        "vs",
        6,
        ["random", "random"],
        get_game("vs", ()).default_config(),
        5,
        root / "vs",
        workers=1,
        progress=False,
        chunk_size=3,
        fmt="csv",
    )
    run_sim(
        "p5",
        4,
        ["random"],
        get_game("p5", ()).default_config(),
        5,
        root / "p5",
        workers=1,
        progress=False,
        chunk_size=2,
        fmt="parquet",
        max_actions=400,
    )
    return {"vs": root / "vs", "p5": root / "p5"}


def _copy(runs: dict[str, Path], game: str, tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / game
    shutil.copytree(runs[game], folder)
    return folder, sorted((folder / "games").glob("part-*"))[-1]


def _csv_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    lines = list(csv.reader(io.StringIO(path.read_text(), newline="")))
    return lines[0], lines[1:]


def _write_csv(path: Path, header: list[str], rows: list[list[str]]) -> None:
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(header)
    writer.writerows(rows)
    path.write_text(text.getvalue(), newline="")


def _set_csv(column: str, value: str, row: int = 0) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        header, rows = _csv_rows(path)
        rows[row][header.index(column)] = value
        _write_csv(path, header, rows)

    return damage


def _set_parquet(column: str, value: object, row: int | None = 0) -> Callable[[Path], None]:
    """Set one row's cell, or (``row=None``) the column's in every row: a Parquet column
    has one type."""

    def damage(path: Path) -> None:
        rows = pq.read_table(path).to_pylist()
        for number in range(len(rows)) if row is None else (row,):
            rows[number][column] = value
        pq.write_table(pa.Table.from_pylist(rows), path)

    return damage


def _cut(keep: float) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        data = path.read_bytes()
        path.write_bytes(data[: int(len(data) * keep)])

    return damage


def _cut_at_a_row(path: Path) -> None:
    header, rows = _csv_rows(path)
    _write_csv(path, header, rows[:-1])


def _cut_in_the_last_cell(path: Path) -> None:
    text = path.read_text().rstrip("\r\n")
    path.write_text(text[:-1], newline="")  # the last row, a character short


def _drop_a_parquet_row(path: Path) -> None:
    rows = pq.read_table(path).to_pylist()
    pq.write_table(pa.Table.from_pylist(rows[:-1]), path)


def _short_row(path: Path) -> None:
    header, rows = _csv_rows(path)
    rows[-1] = rows[-1][: header.index("deck_1")]
    _write_csv(path, header, rows)


CASES: list[tuple[str, str, Callable[[Path], None], str]] = [
    # (game, case, damage, what the error must say besides the file)
    ("vs", "return 1.5", _set_csv("return_0", "1.5"), "row 1: column 'return_0'"),
    ("vs", "return -0.5", _set_csv("return_1", "-0.5"), "row 1: column 'return_1'"),
    ("vs", "first player abc", _set_csv("first_player", "abc"), "row 1: column 'first_player'"),
    ("vs", "first player 7", _set_csv("first_player", "7"), "row 1: column 'first_player'"),
    ("vs", "first player empty", _set_csv("first_player", ""), "row 1: column 'first_player'"),
    ("vs", "deck empty", _set_csv("deck_0", ""), "row 1: column 'deck_0'"),
    ("vs", "plays negative", _set_csv("plays_0", "-3", 1), "row 2: column 'plays_0'"),
    ("vs", "turns text", _set_csv("turns", "many", 2), "row 3: column 'turns'"),
    ("vs", "cut at a row", _cut_at_a_row, "holds 2 rows"),
    ("vs", "cut in the last cell", _cut_in_the_last_cell, "cut short"),
    ("vs", "cut mid-file", _cut(0.6), "row"),
    ("vs", "short row", _short_row, "row 3: 17 cells"),
    ("p5", "return 1.5", _set_parquet("return_0", 1.5), "row 1: column 'return_0'"),
    ("p5", "day text", _set_parquet("day", "abc", None), "row 1: column 'day'"),
    ("p5", "day negative", _set_parquet("day", -2, 1), "row 2: column 'day'"),
    ("p5", "palace a number", _set_parquet("palace", 3, None), "row 1: column 'palace'"),
    ("p5", "shadow count 1.5", _set_parquet("shadow_count_0", 1.5), "column 'shadow_count_0'"),
    ("p5", "cut footer", _cut(0.9), "cannot read results chunk"),
    ("p5", "cut in half", _cut(0.5), "cannot read results chunk"),
    ("p5", "row dropped", _drop_a_parquet_row, "holds 1 rows"),
]


@pytest.mark.parametrize(
    "game, case, damage, said", CASES, ids=[f"{g}: {c}" for g, c, _, _ in CASES]
)
def test_report_refuses_a_damaged_chunk_and_writes_nothing(
    runs: dict[str, Path],
    tmp_path: Path,
    game: str,
    case: str,
    damage: Callable[[Path], None],
    said: str,
) -> None:
    folder, chunk = _copy(runs, game, tmp_path)
    damage(chunk)
    out = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["report", str(folder), "--out", str(out)])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2, (case, result.output)
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert chunk.name in lines[0] and said in lines[0], lines[0]
    assert not out.exists()
    assert "Traceback" not in result.output


def test_a_chunk_under_another_first_game_is_refused(runs: dict[str, Path], tmp_path: Path) -> None:
    folder, chunk = _copy(runs, "vs", tmp_path)
    moved = chunk.rename(chunk.with_name("part-000000004-00003.csv"))
    result = CliRunner().invoke(main, ["report", str(folder), "--out", str(tmp_path / "r.html")])
    assert result.exit_code == 2 and moved.name in result.output
    assert "its first game is 3, its name says 4" in result.output
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("game", ["vs", "p5"])
def test_an_untouched_run_is_reported(runs: dict[str, Path], tmp_path: Path, game: str) -> None:
    folder, _ = _copy(runs, game, tmp_path)
    out = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["report", str(folder), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("<!doctype html>")
