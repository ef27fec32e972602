"""Every clause of the rule index is cited by a test and written up in docs/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INDEX = ROOT / "docs" / "rules" / "RULE-INDEX.md"
SHARED = ROOT.parent / "shared" / "rules" / "RULE-INDEX.md"
ID = re.compile(r"\*\*((?:P5|VS)-[A-Z0-9-]+)\*\*")


def rule_ids() -> list[str]:
    return sorted(set(ID.findall(INDEX.read_text(encoding="utf-8"))))


def cited_ids() -> set[str]:
    cited: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        if path.name == Path(__file__).name:
            continue
        cited.update(
            re.findall(r"rule:\s*((?:P5|VS)-[A-Z0-9-]+)", path.read_text(encoding="utf-8"))
        )
        cited.update(re.findall(r"#\s*rules?:[^\n]*", path.read_text(encoding="utf-8")))
    flat: set[str] = set()
    for item in cited:
        flat.update(re.findall(r"(?:P5|VS)-[A-Z0-9]+(?:-[A-Z0-9]+)*", item))
    return flat


def test_the_index_copy_matches_the_shared_one_when_present() -> None:
    if SHARED.exists():
        assert INDEX.read_text(encoding="utf-8") == SHARED.read_text(encoding="utf-8"), (
            "docs/rules/RULE-INDEX.md differs from ../shared/rules/RULE-INDEX.md: copy it over"
        )
    assert len(rule_ids()) > 100


@pytest.mark.parametrize("game", ["P5", "VS"])
def test_every_rule_id_is_cited_by_a_test(game: str) -> None:
    missing = [i for i in rule_ids() if i.startswith(game) and i not in cited_ids()]
    assert not missing, f"rule IDs no test cites: {', '.join(missing)}"


@pytest.mark.parametrize(("game", "doc"), [("P5", "p5-rules.md"), ("VS", "vs-rules.md")])
def test_every_rule_id_is_written_up(game: str, doc: str) -> None:
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    missing = [i for i in rule_ids() if i.startswith(game) and not re.search(rf"{i}\b", text)]
    assert not missing, f"docs/{doc} does not mention: {', '.join(missing)}"
