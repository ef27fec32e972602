"""Read card TOML files and validate each card against a pydantic model.

A card file is a TOML document whose top-level tables are *sections* (for
example ``thief``, ``persona``, ``shadow``), each an array of card tables
with a unique ``id``. An optional ``[set]`` table says whether a custom file
``extends`` the built-in set (default) or ``replace``s it. Errors name the
file, the card (its ``id``, or its position) and the field.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from velvet.engine.errors import CardDataError

M = TypeVar("M", bound=BaseModel)


@dataclass
class CardFile:
    """One parsed file: its path, raw sections and the ``[set]`` header."""

    path: str
    sections: dict[str, list[dict[str, Any]]]
    mode: str = "extend"
    digest: str = ""
    header: dict[str, Any] = field(default_factory=dict)


def read_toml(path: Path | str, *, name: str | None = None, text: str | None = None) -> CardFile:
    """Parse one card file (or ``text`` under ``name``) into sections of card tables."""
    label = name or str(path)
    if text is None:
        try:
            raw = Path(path).read_bytes()
        except FileNotFoundError as error:
            raise CardDataError(label, None, None, "no such file") from error
        except OSError as error:
            raise CardDataError(label, None, None, f"cannot be read ({error.strerror})") from error
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise CardDataError(label, None, None, "is not UTF-8 text") from error
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CardDataError(label, None, None, f"is not valid TOML: {error}") from error
    header = data.pop("set", {})
    if not isinstance(header, dict):
        raise CardDataError(label, None, "set", "must be a table: [set]")
    mode = header.get("mode", "extend")
    if mode not in ("extend", "replace"):
        raise CardDataError(label, None, "set.mode", "must be 'extend' or 'replace'")
    sections: dict[str, list[dict[str, Any]]] = {}
    for key, value in data.items():
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise CardDataError(label, None, key, f"must be an array of tables, written [[{key}]]")
        sections[key] = value
    digest = hashlib.sha256(text.encode()).hexdigest()
    return CardFile(label, sections, mode, digest, header)


def _card_label(raw: Mapping[str, Any], index: int, section: str) -> str:
    ident = raw.get("id")
    return str(ident) if isinstance(ident, str | int) else f"{section} #{index + 1}"


def validate_cards(
    file: CardFile, section: str, model: type[M], *, allowed_sections: Iterable[str] = ()
) -> list[M]:
    """Validate every card of one section; the first error names file, card, field."""
    allowed = set(allowed_sections)
    if allowed:
        for key in file.sections:
            if key not in allowed:
                raise CardDataError(
                    file.path,
                    None,
                    key,
                    f"unknown section; allowed: {', '.join(sorted(allowed))}",
                )
    cards: list[M] = []
    seen: set[str] = set()
    for index, raw in enumerate(file.sections.get(section, [])):
        label = _card_label(raw, index, section)
        try:
            card = model.model_validate(raw)
        except ValidationError as error:
            first = error.errors()[0]
            loc = ".".join(str(p) for p in first["loc"]) or None
            raise CardDataError(file.path, label, loc, first["msg"]) from None
        except ValueError as error:  # raised by custom validators outside pydantic
            raise CardDataError(file.path, label, None, str(error)) from None
        ident = str(getattr(card, "id", label))
        if ident in seen:
            raise CardDataError(file.path, label, "id", "duplicate id in this file")
        seen.add(ident)
        cards.append(card)
    return cards


def load_card_files(paths: Iterable[Path | str]) -> list[CardFile]:
    """Read every ``*.toml`` of the given files or folders, in name order."""
    files: list[CardFile] = []
    for path in paths:
        p = Path(path)
        if p.is_dir():
            members = sorted(p.glob("*.toml"))
            if not members:
                raise CardDataError(str(p), None, None, "folder holds no *.toml card files")
            files.extend(read_toml(m) for m in members)
        else:
            files.append(read_toml(p))
    return files


def merge_by_id(base: list[M], extra: list[M]) -> list[M]:
    """``extra`` cards replace base cards with the same id and add the others."""
    index = {str(getattr(c, "id")): i for i, c in enumerate(base)}  # noqa: B009
    merged = list(base)
    for card in extra:
        key = str(getattr(card, "id"))  # noqa: B009
        if key in index:
            merged[index[key]] = card
        else:
            index[key] = len(merged)
            merged.append(card)
    return merged
