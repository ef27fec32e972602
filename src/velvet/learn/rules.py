"""The words of each rule of the rule index, by ID, for feedback that names the rule.

The index is package data (``velvet/data/RULE-INDEX.md``, a copy of
``docs/rules/RULE-INDEX.md`` that a test keeps equal), so an installed Velvet has it.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

_LINE = re.compile(r"^- \*\*([A-Z0-9]+(?:-[A-Z0-9]+)+)\*\*\s+(.*)$")
_MARKUP = re.compile(r"\*\*|\*|`")


@cache
def rule_words() -> dict[str, str]:
    """Every rule ID of the index with its clause in plain words (markup removed)."""
    text = resources.files("velvet").joinpath("data/RULE-INDEX.md").read_text(encoding="utf-8")
    rules: dict[str, str] = {}
    for line in text.splitlines():
        match = _LINE.match(line.strip())
        if match:
            rules[match.group(1)] = _MARKUP.sub("", match.group(2)).strip()
    return rules


def rule_line(rule_id: str) -> str:
    """``ID: words`` of a rule, or the ID alone if the index does not hold it."""
    words = rule_words().get(rule_id)
    return f"{rule_id}: {words}" if words else rule_id
