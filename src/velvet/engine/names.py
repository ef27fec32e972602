"""Names as people type them: compared without case or accents, and "did you mean" for
names that are nearly right (``difflib``), for card files, deck files and the prompt."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable

CLOSE_ENOUGH = 0.6
"""``difflib`` ratio a name needs to be suggested for a misspelt one."""


def fold(text: str) -> str:
    """``text`` in lower case without accents: 'Arsène' is 'arsene' (Unicode NFKD, the
    combining marks dropped)."""
    plain = "".join(
        ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)
    )
    return plain.casefold()


def norm(text: str) -> str:
    """Text as input is compared: :func:`fold`, and dashes, underscores and runs of spaces
    as one space ('Jack-o'-Lantern' is "jack o' lantern")."""
    return " ".join(fold(text).replace("-", " ").replace("_", " ").split())


def close_names(word: str, names: Iterable[str], n: int = 3) -> list[str]:
    """The names (as written) nearest to ``word``, best first: one that is ``word`` but for
    case and accents first of all ('Arsene' gives 'Arsène'), then difflib's close matches."""
    by_key: dict[str, str] = {}
    for name in names:
        by_key.setdefault(norm(name), name)
    key = norm(word)
    if key in by_key:
        return [by_key[key]]
    found = difflib.get_close_matches(key, list(by_key), n=n, cutoff=CLOSE_ENOUGH)
    return [by_key[k] for k in found]


def did_you_mean(word: str, names: Iterable[str]) -> str:
    """The hint "; did you mean 'Arsène'?" (or "'A' or 'B'"), or "" when no name is close."""
    found = close_names(word, names)
    if not found:
        return ""
    return "; did you mean " + " or ".join(f"'{name}'" for name in found) + "?"
