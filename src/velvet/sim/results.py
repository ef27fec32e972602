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
import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from velvet.engine.errors import ConfigError, RecordError

RUN_FILE = "run.json"
SUMMARY_FILE = "summary.json"
CHUNK_DIR = "games"
FORMATS = ("parquet", "csv")

Row = dict[str, Any]


def _file_mode() -> int:
    """The mode a plainly created file gets here (0666 less the umask)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


_FILE_MODE = _file_mode()


def have_pyarrow() -> bool:
    try:
        import pyarrow  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401
    except ImportError:
        return False
    return True


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and an atomic rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_json(path: Path, data: Any) -> None:
    atomic_write_bytes(path, (json.dumps(data, indent=2, sort_keys=True) + "\n").encode())


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise RecordError(f"{path}: cannot read ({exc})") from None


class ResultStore:
    """Reads and writes one results directory."""

    def __init__(self, root: Path, fmt: str | None = None) -> None:
        if fmt is not None and fmt not in FORMATS:
            raise ConfigError(f"unknown results format '{fmt}': choose one of {', '.join(FORMATS)}")
        if fmt == "parquet" and not have_pyarrow():
            raise ConfigError("parquet output needs pyarrow: pip install pyarrow, or use csv")
        self.root = Path(root)
        self.fmt = fmt or ("parquet" if have_pyarrow() else "csv")

    @property
    def chunk_dir(self) -> Path:
        return self.root / CHUNK_DIR

    def read_meta(self) -> dict[str, Any] | None:
        path = self.root / RUN_FILE
        if not path.exists():
            return None
        meta = read_json(path)
        if not isinstance(meta, dict):
            raise RecordError(f"{path}: expected a JSON object")
        return meta

    def start(self, meta: dict[str, Any]) -> None:
        """Record what this run is, or check it matches the run already in the directory."""
        old = self.read_meta()
        if old is None:
            self.root.mkdir(parents=True, exist_ok=True)
            atomic_write_json(self.root / RUN_FILE, meta)
            return
        for key in ("game", "seats", "config", "base_seed", "cards", "vary"):
            if old.get(key) != meta.get(key):
                raise ConfigError(
                    f"{self.root} holds another run ({key} was {old.get(key)!r}, "
                    f"now {meta.get(key)!r}): use a new --out directory"
                )
        if meta.get("n_games", 0) > old.get("n_games", 0):
            atomic_write_json(self.root / RUN_FILE, {**old, "n_games": meta["n_games"]})

    def chunk_files(self) -> list[Path]:
        if not self.chunk_dir.is_dir():
            return []
        return sorted(
            p
            for p in self.chunk_dir.iterdir()
            if p.name.startswith("part-") and p.suffix in (".parquet", ".csv")
        )

    def write_chunk(self, rows: Sequence[Row]) -> Path:
        """Write one finished chunk of rows atomically; returns its path."""
        first = min(int(r["index"]) for r in rows)
        path = self.chunk_dir / f"part-{first:09d}-{len(rows):05d}.{self.fmt}"
        atomic_write_bytes(path, _encode(rows, self.fmt))
        return path

    def load_rows(self) -> list[Row]:
        """Every row in the directory, by index (a repeated index keeps the first)."""
        seen: dict[int, Row] = {}
        for path in self.chunk_files():
            for row in _decode(path):
                seen.setdefault(int(row["index"]), row)
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
            raise ConfigError(f"{root}: not a results directory (no {RUN_FILE})")
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
                        f"{root} {what} {dirs[0]}: "
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
        with path.open(newline="") as handle:
            return [{k: _csv_value(v) for k, v in r.items()} for r in csv.DictReader(handle)]
    except Exception as exc:  # a foreign or damaged file: name it, do not crash
        raise RecordError(f"{path}: cannot read results chunk ({exc})") from None


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


def _csv_value(text: str) -> Any:
    if text == "":
        return None
    if text in ("true", "false"):
        return text == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
