"""A results directory: run metadata, result chunks, and the JSON summary.

Layout of ``OUT/``::

    run.json              what was run (game, seats, config, base seed, games)
    games/part-*.parquet  result rows, one file per finished chunk of games
    summary.json          win rates with 95% Wilson intervals, lengths, errors

Every file is written to a temporary name and renamed into place, so an
interrupted run never leaves a half-written file; a later run over the same
directory finds the finished indices in the chunks and plays only the rest.
Chunks are Parquet (pyarrow) or, without pyarrow or on request, CSV.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TypeGuard

from velvet.engine.errors import ConfigError, RecordError
from velvet.engine.files import (
    MAX_INT_DIGITS,
    describe_os_error,
    one_line,
    parse_json,
    read_text,
    show_path,
    write_atomic,
)
from velvet.games import registered_spec

RUN_FILE = "run.json"
SUMMARY_FILE = "summary.json"
CHUNK_DIR = "games"
FORMATS = ("parquet", "csv")
OWN_FILES = (RUN_FILE, SUMMARY_FILE, CHUNK_DIR)
"""What a results directory of Velvet holds; ``sim --out`` writes nowhere else."""
MAX_GAMES = 10_000_000
MAX_SEATS = 8
MAX_LENGTH = 10_000_000
"""Most actions a results row may claim (``--max-actions`` is far below)."""
MAX_TURNS = 100_000
MAX_COLUMNS = 200
CHUNK_NAME = re.compile(r"part-([0-9]{9})-([0-9]{5})\.(?:parquet|csv)")
"""A chunk's name: its first game index and its number of rows (``ResultStore.write_chunk``)."""

Row = dict[str, Any]


def _p(path: object) -> str:
    """A path as a one-line message shows it."""
    return show_path(str(path))


def have_pyarrow() -> bool:
    try:
        import pyarrow  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401
    except ImportError:
        return False
    return True


def make_folder(folder: Path) -> None:
    """Create ``folder`` (and its parents), or a one-line ConfigError saying why not."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError) as exc:
        reason = describe_os_error(exc)
        raise ConfigError(f"{_p(folder)}: cannot create folder ({reason})") from None


def atomic_write_bytes(path: Path, data: bytes, *, overwrite: bool = True) -> None:
    """Write ``data`` to ``path`` safely (velvet.engine.files.write_atomic); ConfigError if
    it cannot be written, or if it exists and ``overwrite`` is False."""
    make_folder(path.parent)
    write_atomic(path, data, ConfigError, overwrite=overwrite)


def atomic_write_json(path: Path, data: Any) -> None:
    atomic_write_bytes(path, (json.dumps(data, indent=2, sort_keys=True) + "\n").encode())


def read_json(path: Path) -> Any:
    return parse_json(read_text(path, RecordError), RecordError, str(path))


def _int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def check_meta(meta: Any, path: Path) -> dict[str, Any]:
    """A run.json's fields, each of the right type and range, or a RecordError naming it."""
    if not isinstance(meta, dict):
        raise RecordError(f"{_p(path)}: expected a JSON object")

    def bad(key: str, what: str) -> RecordError:
        value = one_line(repr(meta.get(key)), 60)
        return RecordError(f"{_p(path)}: field '{key}' must be {what}, not {value}")

    if not isinstance(meta.get("game"), str) or not 0 < len(meta["game"]) <= 200:
        raise bad("game", "a game name")
    seats = meta.get("seats")
    if (
        not isinstance(seats, list)
        or not 1 <= len(seats) <= MAX_SEATS
        or not all(isinstance(x, str) and len(x) <= 200 for x in seats)
    ):
        raise bad("seats", f"a list of 1 to {MAX_SEATS} bot names")
    if not _int(meta.get("base_seed")):
        raise bad("base_seed", "a whole number")
    if not _int(meta.get("n_games")) or not 1 <= meta["n_games"] <= MAX_GAMES:
        raise bad("n_games", f"a whole number 1..{MAX_GAMES}")
    if not isinstance(meta.get("config"), dict):
        raise bad("config", "a JSON object")
    cards = meta.get("cards", [])
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise bad("cards", "a list of file names")
    if not isinstance(meta.get("vary", False), bool):
        raise bad("vary", "true or false")
    for key in ("rules_version", "cardset_hash", "seed_function"):
        if key in meta and not isinstance(meta[key], str):
            raise bad(key, "a text")
    return meta


def check_rows(rows: Sequence[Row], meta: dict[str, Any], path: Path) -> None:
    """Every row of a chunk must be a game of the run ``meta`` describes.

    Checks each cell's type and range: the index within the run, the seed the seed
    function gives for it, a winner among the seats that agrees with the returns,
    finite returns for exactly the run's seats, lengths, and the game's own cells as its
    spec declares them (``GameSpec.result_cells``, registered games only). The first
    fault is a RecordError naming file, row, column.
    """
    from velvet.sim.run import game_seed, winner_of

    n_seats = len(meta["seats"])
    cells = game_cells(meta["game"], n_seats)
    needed = [column for column, kind in cells if not kind.endswith("?")]
    for number, row in enumerate(rows, start=1):

        def bad(column: str, what: str, row: Row = row, number: int = number) -> RecordError:
            value = one_line(repr(row.get(column)), 60)
            return RecordError(f"{_p(path)}: row {number}: column '{column}' {what} (got {value})")

        if len(row) > MAX_COLUMNS:
            raise RecordError(f"{_p(path)}: row {number}: over {MAX_COLUMNS} columns")
        for key, value in row.items():
            if not isinstance(key, str) or len(key) > 100:
                raise RecordError(f"{_p(path)}: row {number}: a column name is not a short text")
            if value is not None and not isinstance(value, str | int | float | bool):
                raise bad(key, "must be a number, a text or empty")
            if isinstance(value, float) and not math.isfinite(value):
                raise bad(key, "must be a finite number")
            if isinstance(value, int) and abs(value) >= 10**MAX_INT_DIGITS:
                raise bad(key, "is too large")
            if isinstance(value, str) and len(value) > 100_000:
                raise bad(key, "is too long a text")
        index = row.get("index")
        if not _int(index) or not 0 <= index < meta["n_games"]:
            raise bad("index", f"must be a game number 0..{meta['n_games'] - 1}")
        if row.get("seed") != game_seed(meta["base_seed"], index):
            raise bad("seed", "is not the seed of this game of the run (run.json's base_seed)")
        error = row.get("error")
        if error is not None and not isinstance(error, str):
            raise bad("error", "must be a text or empty")
        seconds = row.get("seconds")
        if seconds is not None and (not isinstance(seconds, int | float) or seconds < 0):
            raise bad("seconds", "must be a number >= 0")
        for key in row:
            if key.startswith("return_"):
                digits = key.removeprefix("return_")
                if not digits.isdecimal() or not digits.isascii() or int(digits) >= n_seats:
                    raise bad(key, f"names no seat of this run ({n_seats} seat(s))")
        if error:
            continue
        returns = []
        for seat in range(n_seats):
            value = row.get(f"return_{seat}")
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise bad(f"return_{seat}", "must be a number")
            if not 0 <= value <= 1:
                raise bad(f"return_{seat}", "must be 0 to 1 (a game's return: 1 win, 0 loss)")
            returns.append(float(value))
            bot = row.get(f"bot_{seat}")
            if bot is not None and bot != meta["seats"][seat]:
                raise bad(f"bot_{seat}", f"is not run.json's seat {seat} ({meta['seats'][seat]})")
        winner = row.get("winner")
        if winner is not None and (not _int(winner) or not 0 <= winner < n_seats):
            raise bad("winner", "must be a seat number or empty")
        if winner != winner_of(returns):
            raise bad("winner", "does not agree with the returns")
        length = row.get("length")
        if not _int(length) or not 0 <= length <= MAX_LENGTH:
            raise bad("length", f"must be a whole number 0..{MAX_LENGTH}")
        turns = row.get("turns")
        if turns is not None and (not _int(turns) or not 0 <= turns <= MAX_TURNS):
            raise bad("turns", f"must be a whole number 0..{MAX_TURNS} or empty")
        outcome = row.get("outcome")
        if outcome is not None and not isinstance(outcome, str):
            raise bad("outcome", "must be a text")
        for column in needed:
            if column not in row:
                raise RecordError(
                    f"{_p(path)}: row {number}: no column '{column}': not a game of "
                    f"'{meta['game']}' as run.json says"
                )
        for column, kind in cells:
            what = _cell_fault(row.get(column), kind, n_seats, path.suffix == ".csv")
            if what is not None:
                raise bad(column, what)


def game_cells(game: str, n_seats: int) -> list[tuple[str, str]]:
    """``(column, kind)`` of a registered game's own cells (``GameSpec.result_cells``), each
    ``{s}`` column once per seat; none for a game that is not registered."""
    spec = registered_spec(game)
    if spec is None:
        return []
    return [
        (pattern.format(s=seat), kind)
        for pattern, kind in spec.result_cells
        for seat in (range(n_seats) if "{s}" in pattern else (0,))
    ]


def _cell_fault(value: Any, kind: str, n_seats: int, csv_chunk: bool) -> str | None:
    """What is wrong with a game's own cell of kind ``kind`` (``GameSpec.result_cells``),
    or None."""
    if kind.endswith("?"):
        if value is None:
            return None
        kind = kind[:-1]
    if kind == "name":  # a CSV chunk reads a name of digits back as a number
        if (isinstance(value, str) and value) or (csv_chunk and _int(value)):
            return None
        return "must be a name"
    if kind == "seat":
        ok = _int(value) and 0 <= value < n_seats
        return None if ok else f"must be a seat number 0..{n_seats - 1}"
    low, high = {"day": (1, MAX_TURNS), "count": (0, MAX_LENGTH)}.get(kind, (-MAX_TURNS, MAX_TURNS))
    if _int(value) and low <= value <= high:
        return None
    return f"must be a whole number {low}..{high}"


def check_chunk(rows: Sequence[Row], path: Path) -> None:
    """A chunk holds the rows its name says (``part-FIRST-COUNT``): a RecordError if it
    was cut short or rows were dropped or added, or it holds none."""
    if not rows:
        raise RecordError(f"{_p(path)}: holds no rows (cut short?)")
    named = CHUNK_NAME.fullmatch(path.name)
    if named is None:
        return
    first, count = int(named[1]), int(named[2])
    if len(rows) != count:
        raise RecordError(
            f"{_p(path)}: holds {len(rows)} rows, its name says {count} (cut short or changed)"
        )
    indices = [i for i in (r.get("index") for r in rows) if _int(i)]
    if len(indices) == len(rows) and min(indices) != first:
        raise RecordError(f"{_p(path)}: its first game is {min(indices)}, its name says {first}")


class ResultStore:
    """Reads and writes one results directory."""

    def __init__(self, root: Path, fmt: str | None = None) -> None:
        if fmt is not None and fmt not in FORMATS:
            raise ConfigError(f"unknown results format '{fmt}': choose one of {', '.join(FORMATS)}")
        if fmt == "parquet" and not have_pyarrow():
            raise ConfigError("parquet output needs pyarrow: pip install 'velvet[lab]', or use csv")
        self.root = Path(root)
        self.fmt = fmt or ("parquet" if have_pyarrow() else "csv")

    @property
    def chunk_dir(self) -> Path:
        return self.root / CHUNK_DIR

    def read_meta(self) -> dict[str, Any] | None:
        path = self.root / RUN_FILE
        try:
            if not os.path.lexists(path):
                return None
        except (OSError, ValueError) as exc:
            raise RecordError(f"{_p(path)}: cannot be read ({describe_os_error(exc)})") from None
        return check_meta(read_json(path), path)

    def check_target(self) -> None:
        """``--out`` must be a new or empty folder, or one of Velvet's results folders."""
        root = self.root
        try:
            if not os.path.lexists(root):
                return
            if not root.is_dir():
                raise ConfigError(f"{_p(root)}: not a folder (give a folder for the results)")
            names = [p.name for p in root.iterdir()]
        except (OSError, ValueError) as exc:
            raise ConfigError(f"{_p(root)}: cannot be used ({describe_os_error(exc)})") from None
        if names and RUN_FILE not in names:
            raise ConfigError(
                f"{_p(root)}: holds other files and no {RUN_FILE}: give a new or empty folder"
            )
        foreign = sorted(set(names) - set(OWN_FILES))
        if foreign:
            raise ConfigError(
                f"{_p(root)}: holds files that are not Velvet's results ({', '.join(foreign[:3])})"
            )

    def start(self, meta: dict[str, Any]) -> None:
        """Record what this run is, or check it matches the run already in the directory."""
        self.check_target()
        old = self.read_meta()
        if old is None:
            make_folder(self.root)
            atomic_write_json(self.root / RUN_FILE, meta)
            return
        for key in ("game", "seats", "config", "base_seed", "cards", "vary"):
            if old.get(key) != meta.get(key):
                raise ConfigError(
                    f"{_p(self.root)} holds another run ({key} was {old.get(key)!r}, "
                    f"now {meta.get(key)!r}): use a new --out directory"
                )
        if meta.get("n_games", 0) > old.get("n_games", 0):
            atomic_write_json(self.root / RUN_FILE, {**old, "n_games": meta["n_games"]})

    def chunk_files(self) -> list[Path]:
        try:
            if not self.chunk_dir.is_dir():
                return []
            return sorted(
                p
                for p in self.chunk_dir.iterdir()
                if p.name.startswith("part-") and p.suffix in (".parquet", ".csv")
            )
        except OSError as exc:
            reason = describe_os_error(exc)
            raise RecordError(f"{_p(self.chunk_dir)}: cannot be read ({reason})") from None

    def write_chunk(self, rows: Sequence[Row]) -> Path:
        """Write one finished chunk of rows atomically; returns its path."""
        first = min(int(r["index"]) for r in rows)
        path = self.chunk_dir / f"part-{first:09d}-{len(rows):05d}.{self.fmt}"
        atomic_write_bytes(path, _encode(rows, self.fmt))
        return path

    def load_rows(self) -> list[Row]:
        """Every row in the directory, by index (a repeated index keeps the first).

        With a run.json, every row is checked against it (``check_rows``).
        """
        meta = self.read_meta()
        seen: dict[int, Row] = {}
        for path in self.chunk_files():
            rows = list(_decode(path))
            check_chunk(rows, path)
            if meta is not None:
                check_rows(rows, meta, path)
            for number, row in enumerate(rows, start=1):
                index = row.get("index")
                if not _int(index):
                    raise RecordError(f"{_p(path)}: row {number}: column 'index' must be a number")
                seen.setdefault(index, row)
        return [seen[i] for i in sorted(seen)]

    def done_indices(self) -> set[int]:
        return {int(r["index"]) for r in self.load_rows()}


SAME_RUN_KEYS = ("game", "seats", "config", "base_seed", "cards", "vary")
"""What shards of one run share; rows of shards are keyed by game index."""
SAME_GAME_KEYS = ("game", "cards", "rules_version", "cardset_hash")
"""What combined runs must share: the same game under the same rules and cards."""


def load_results(*dirs: Path, combine: bool = False) -> tuple[dict[str, Any], list[Row]]:
    """Merge the rows of one or more result directories.

    By default the directories are shards of one run (same game, seats, config and
    base seed); a game index found twice is one game. ``combine=True`` instead
    pools separate runs of one game under the same rules and card set (say, one
    run per deck pairing): every row is kept, tagged with its directory in a
    ``run`` column, and the metadata lists what differs.
    """
    rows: list[Row] = []
    by_index: dict[int, Row] = {}
    metas: list[dict[str, Any]] = []
    if combine and len({Path(d).resolve() for d in dirs}) < len(dirs):
        raise ConfigError("a results directory is given twice: its games would count twice")
    names = [Path(d).name for d in dirs]
    labels = names if len(set(names)) == len(names) else [str(d) for d in dirs]
    for root, label in zip(dirs, labels, strict=True):
        store = ResultStore(Path(root))
        found = store.read_meta()
        if found is None:
            raise ConfigError(f"{_p(root)}: not a results directory (no {RUN_FILE})")
        if metas:
            for key in SAME_GAME_KEYS if combine else SAME_RUN_KEYS:
                if found.get(key) != metas[0].get(key):
                    what = (
                        "cannot be combined with"
                        if combine
                        else "is not a shard of the same run as"
                    )
                    hint = "" if combine else " (to pool separate runs of one game, use --combine)"
                    raise ConfigError(
                        f"{_p(root)} {what} {_p(dirs[0])}: "
                        f"{key} differs ({found.get(key)!r} vs {metas[0].get(key)!r}){hint}"
                    )
        metas.append(found)
        for row in store.load_rows():
            if combine:
                rows.append({**row, "run": label})
            else:
                by_index.setdefault(int(row["index"]), row)
    if combine:
        meta = _combined_meta(metas)
    else:
        meta = {**metas[0], "n_games": max(m.get("n_games", 0) for m in metas)}
        rows = [by_index[i] for i in sorted(by_index)]
    return meta, rows


def _combined_meta(metas: list[dict[str, Any]]) -> dict[str, Any]:
    """One run's metadata for several: shared values kept, differing ones listed per run."""
    meta = dict(metas[0])
    meta["n_games"] = sum(int(m.get("n_games", 0)) for m in metas)
    meta["runs"] = len(metas)
    for key in ("config", "base_seed", "vary"):
        values = [m.get(key) for m in metas]
        if any(v != values[0] for v in values):
            meta[key] = values
    seat_lists = [list(m.get("seats") or []) for m in metas]
    width = max(len(seats) for seats in seat_lists)
    meta["seats"] = [
        " / ".join(dict.fromkeys(str(seats[i]) for seats in seat_lists if i < len(seats)))
        for i in range(width)
    ]
    return meta


def _encode(rows: Sequence[Row], fmt: str) -> bytes:
    columns = _columns(rows)
    if fmt == "parquet":
        import pyarrow as pa  # type: ignore[import-untyped,import-not-found,unused-ignore]
        import pyarrow.parquet as pq  # type: ignore[import-untyped,import-not-found,unused-ignore]

        table = pa.Table.from_pylist([{c: r.get(c) for c in columns} for r in rows])
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink)
        return bytes(sink.getvalue().to_pybytes())
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=columns, extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow({c: _csv_cell(row.get(c)) for c in columns})
    return text.getvalue().encode()


def _decode(path: Path) -> Iterable[Row]:
    try:
        if path.suffix == ".parquet":
            import pyarrow.parquet as pq  # type: ignore[import-untyped,import-not-found,unused-ignore]

            rows: list[Row] = pq.read_table(path).to_pylist()
            return rows
        return _decode_csv(path, read_text(path, RecordError))
    except RecordError:
        raise
    except Exception as exc:  # a foreign or damaged file: name it, do not crash
        raise RecordError(f"{_p(path)}: cannot read results chunk ({one_line(str(exc))})") from None


def _decode_csv(path: Path, text: str) -> list[Row]:
    """The rows of a CSV chunk: every row has one cell per column of the header, and the
    file ends with a line end (a chunk cut short in its last row is refused)."""
    if text and not text.endswith("\n"):
        raise RecordError(f"{_p(path)}: cut short (its last row has no line end)")
    lines = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    if not lines:
        raise RecordError(f"{_p(path)}: holds no header and no rows (cut short?)")
    header, rows = lines[0], lines[1:]
    if len(set(header)) != len(header):
        raise RecordError(f"{_p(path)}: a column is named twice in the header")
    for number, cells in enumerate(rows, start=1):
        if len(cells) != len(header):
            raise RecordError(
                f"{_p(path)}: row {number}: {len(cells)} cells, the header has {len(header)} "
                "columns (cut short or changed)"
            )
    return [{k: _csv_value(v) for k, v in zip(header, cells, strict=True)} for cells in rows]


def _columns(rows: Sequence[Row]) -> list[str]:
    columns: dict[str, None] = {}
    for row in rows:
        for key in row:
            columns.setdefault(key, None)
    return list(columns)


def _csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def _csv_value(text: Any) -> Any:
    """A CSV cell as written by ``_csv_cell``: empty, a boolean, an integer, a finite
    number, or a text (a short row's missing cell stays None; an extra one is a list)."""
    if text is None or text == "":
        return None
    if not isinstance(text, str):
        return text
    if text in ("true", "false"):
        return text == "true"
    if len(text) <= MAX_INT_DIGITS:
        for kind in (int, float):
            try:
                return kind(text)
            except ValueError:
                pass
    return text
