"""No rule code branches on a card's name or id: the engine only reads compiled data."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from velvet.vs.game import load_vs_game

SRC = Path(__file__).resolve().parents[2] / "src" / "velvet" / "vs"


def string_literals(path: Path) -> list[str]:
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return [t.string for t in tokens if t.type == tokenize.STRING]


def test_rule_modules_never_mention_a_card() -> None:
    g = load_vs_game()
    names = {c.name for c in g.all_cards} | {p.name for p in g.cards.players}
    for module in ("state.py", "game.py", "actions.py"):
        literals = string_literals(SRC / module)
        for text in literals:
            for name in names:
                assert not re.search(rf"\b{re.escape(name)}\b", text), (
                    f"{module} mentions the card {name}: {text}"
                )
            assert not re.search(r"\b0\d\d\b", text), f"{module} mentions a card id: {text}"
