"""Reading a learning data file (a lesson, a puzzle): TOML, validated by a pydantic model,
every refusal one line naming the file and the field (docs/learn.md lists the fields)."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from velvet.engine.errors import VelvetError
from velvet.engine.files import decode_utf8, one_line, parse_toml, read_bytes, show_path


class DataFileError(VelvetError):
    """A data file that breaks its format or does not play as it says."""

    def __init__(self, file: str, field: str | None, message: str) -> None:
        where = f"{file}: field '{field}'" if field else file
        super().__init__(f"{where}: {message}")
        self.file = file
        self.field = field
        self.reason = message


Model = TypeVar("Model", bound=BaseModel)


def read_model(
    path: Path,
    model: type[Model],
    error: type[DataFileError],
    label: str | None = None,
    section: str = "",
) -> tuple[str, Model]:
    """The file's name as shown and its data validated by ``model``; else ``error``
    naming the file and the first bad field (``section``: where docs/learn.md lists the
    fields, for the advice on a missing or unknown one)."""
    shown = show_path(label or str(path))

    def problem(message: str) -> DataFileError:
        return error(shown, None, message[len(shown) + 2 :])

    text = decode_utf8(read_bytes(path, problem, shown), problem, shown)
    data = parse_toml(text, problem, shown)
    try:
        return shown, model.model_validate(data)
    except ValidationError as failure:
        first = failure.errors()[0]
        where = field_path(first["loc"]) or None
        message = one_line(first["msg"]).removeprefix("Value error, ")
        raise error(shown, where, message + _advice(first["type"], section)) from None


def field_path(loc: Sequence[int | str]) -> str:
    """A pydantic location as a field path: ``moves[2].text``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _advice(kind: str, section: str) -> str:
    where = f"docs/learn.md, {section}," if section else "docs/learn.md"
    if kind == "missing":
        return f" (add it; {where} lists the fields)"
    if kind == "extra_forbidden":
        return f" (no such field: {where} lists the fields)"
    return ""


def builtin_folder(kind: str, game_name: str) -> Path | None:
    """The built-in files of ``kind`` (lessons, puzzles) of a game
    (``velvet/data/KIND/NAME``), or None."""
    path = Path(str(resources.files("velvet").joinpath("data", kind, game_name)))
    return path if path.is_dir() else None


def data_files(
    kind: str,
    game_name: str,
    folders: Sequence[Path],
    builtin: bool,
    error: type[DataFileError],
    most: int,
) -> list[tuple[Path, str | None]]:
    """Each file to read, with the name it is shown by: the built-in ones (unless
    ``builtin`` is false), then each folder's ``*.toml`` (a folder of at most ``most``)."""
    sources: list[tuple[Path, str | None]] = []
    base = builtin_folder(kind, game_name) if builtin else None
    if base is not None:
        sources += [(p, f"{kind}/{game_name}/{p.name}") for p in sorted(base.glob("*.toml"))]
    for folder in folders:
        sources += [(p, None) for p in _folder_files(folder, kind, error, most)]
    return sources


def _folder_files(folder: Path, kind: str, error: type[DataFileError], most: int) -> list[Path]:
    shown = show_path(str(folder))
    one = kind.removesuffix("s")
    try:
        if folder.is_file() and folder.suffix == ".toml":
            return [folder]
        if not folder.is_dir():
            raise error(shown, None, f"no such folder: give a folder of *.toml {one} files")
        files = sorted(folder.glob("*.toml"))
    except OSError as failure:
        raise error(shown, None, f"cannot be read ({failure.strerror})") from None
    if not files:
        raise error(shown, None, f"holds no *.toml {one} files (docs/learn.md)")
    if len(files) > most:
        raise error(shown, None, f"{len(files)} files; a folder holds at most {most}")
    return files
