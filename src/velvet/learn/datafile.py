"""Reading a learning data file (a lesson, a puzzle): TOML, validated by a pydantic model,
every refusal one line naming the file and the field (docs/learn.md lists the fields)."""

from __future__ import annotations

from collections.abc import Sequence
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
