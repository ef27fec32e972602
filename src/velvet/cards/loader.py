"""Read card TOML files and validate each card against a pydantic model.

A card file is a TOML document whose top-level tables are *sections* (for
example ``thief``, ``persona``, ``shadow``), each an array of card tables
with a unique ``id``. An optional ``[set]`` table says whether a custom file
``extends`` the built-in set (default) or ``replace``s it. Errors name the
file, the card (its ``id``, or its position) and the field.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from velvet.engine.errors import CardDataError
from velvet.engine.files import (
    decode_utf8,
    describe_os_error,
    one_line,
    parse_toml,
    read_bytes,
    show_path,
)
from velvet.engine.names import did_you_mean

M = TypeVar("M", bound=BaseModel)

MAX_CARDS = 120
"""Most cards of one section in a set (the built-in sets have at most 60): it bounds
the size of the action tables built from a card set, and so its loading time."""
MAX_FILES = 50
"""Most card files in one set."""


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

    shown = show_path(label)

    def problem(message: str) -> CardDataError:  # message: f"{shown}: {what}"
        return CardDataError(shown, None, None, message[len(shown) + 2 :])

    if text is None:
        text = decode_utf8(read_bytes(path, problem, label), problem, label)
    data = parse_toml(text, problem, label)
    header = data.pop("set", {})
    if not isinstance(header, dict):
        raise CardDataError(label, None, "set", "must be a table: [set]")
    mode = header.get("mode", "extend")
    if not isinstance(mode, str) or mode not in ("extend", "replace"):
        raise CardDataError(label, None, "set.mode", "must be 'extend' or 'replace'")
    sections: dict[str, list[dict[str, Any]]] = {}
    for key, value in data.items():
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            key = key if len(key) <= 40 and key.isprintable() else repr(key[:40])
            raise CardDataError(label, None, key, f"must be an array of tables, written [[{key}]]")
        sections[key] = value
    digest = hashlib.sha256(text.encode()).hexdigest()
    return CardFile(label, sections, mode, digest, header)


def _card_label(raw: Mapping[str, Any], index: int, section: str) -> str:
    ident = raw.get("id")
    if isinstance(ident, str) and 0 < len(ident) <= 40 and ident.isprintable():
        return ident
    return f"{section} #{index + 1}"


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
                    f"unknown section; allowed: {', '.join(sorted(allowed))}"
                    + did_you_mean(key, sorted(allowed)),
                )
    cards: list[M] = []
    seen: set[str] = set()
    raws = file.sections.get(section, [])
    if len(raws) > MAX_CARDS:
        raise CardDataError(
            file.path, None, section, f"{len(raws)} cards; a section holds at most {MAX_CARDS}"
        )
    for index, raw in enumerate(raws):
        label = _card_label(raw, index, section)
        try:
            card = model.model_validate(raw)
        except ValidationError as error:
            first = error.errors()[0]
            loc = ".".join(str(p) for p in first["loc"]) or None
            raise CardDataError(file.path, label, loc, one_line(first["msg"])) from None
        except ValueError as error:  # raised by custom validators outside pydantic
            raise CardDataError(file.path, label, None, one_line(str(error))) from None
        except RecursionError:
            raise CardDataError(file.path, label, None, "nested too deep") from None
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
        if len(files) >= MAX_FILES:
            raise CardDataError(str(path), None, None, f"a card set has at most {MAX_FILES} files")
        p = Path(path)
        try:
            is_dir = p.is_dir()
            members = sorted(p.glob("*.toml")) if is_dir else []
        except (OSError, ValueError) as error:
            reason = f"cannot be read ({describe_os_error(error)})"
            raise CardDataError(show_path(str(p)), None, None, reason) from None
        if is_dir:
            if not members:
                raise CardDataError(str(p), None, None, "folder holds no *.toml card files")
            if len(members) + len(files) > MAX_FILES:
                raise CardDataError(str(p), None, None, f"a card set has at most {MAX_FILES} files")
            files.extend(read_toml(m) for m in members)
        else:
            files.append(read_toml(p))
    return files


def merge_by_id(base: list[M], extra: list[M], label: str = "<cards>") -> list[M]:
    """``extra`` cards replace base cards with the same id and add the others.

    More than MAX_CARDS cards in the result is a CardDataError naming ``label``.
    """
    index = {str(getattr(c, "id")): i for i, c in enumerate(base)}  # noqa: B009
    merged = list(base)
    for card in extra:
        key = str(getattr(card, "id"))  # noqa: B009
        if key in index:
            merged[index[key]] = card
        else:
            index[key] = len(merged)
            merged.append(card)
    if len(merged) > MAX_CARDS:
        kind = type(merged[0]).__name__.lower()
        raise CardDataError(label, None, None, f"the set would hold over {MAX_CARDS} {kind} cards")
    return merged
