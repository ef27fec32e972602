"""Deck files as docs/decks.md describes them: its example loads, its refusals are the
loader's, and a name that is nearly right gets the card's own name back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from velvet.engine.errors import CardDataError, DeckError
from velvet.vs.decks import check_deck, load_deck
from velvet.vs.game import load_vs_game

G = load_vs_game()
DOC = Path(__file__).resolve().parents[2] / "docs" / "decks.md"


def _block(marker: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    found = re.search(rf"<!-- deck: {marker} -->\n```\w+\n(.*?)```", text, re.S)
    assert found is not None, f"docs/decks.md has no block marked 'deck: {marker}'"
    return found.group(1)


def test_the_documented_example_deck_loads_and_checks_as_the_doc_says(tmp_path: Path) -> None:
    # rule: VS-DECK-1
    path = tmp_path / "joker.toml"
    path.write_text(_block("example"), encoding="utf-8")
    ids = load_deck(path, G)
    assert len(ids) == 40 and "001" in ids and ids.count("041") == 2  # Junes Sale, of P4
    said = check_deck(path, G).replace(str(path), "joker.toml")
    assert f"$ velvet deck check joker.toml\n{said}\n" in DOC.read_text(encoding="utf-8")


REFUSED = [
    'player_card = "p5"\n[[cards]]\ncard = "Arsene"\n',
    'player_card = "P5"\n',
    'player_card = "p5"\n[[cards]]\ncard = "001"\n[[cards]]\ncard = "002"\n'
    '[[cards]]\ncards = "003"\n',
    'player_card = "p5"\n[[cards]]\ncard = "002"\ncount = 3\n',
]


def test_the_documented_refusals_are_the_loaders_own(tmp_path: Path) -> None:
    lines = _block("refusals").splitlines()
    assert len(lines) == len(REFUSED)
    path = tmp_path / "joker.toml"
    for body, line in zip(REFUSED, lines, strict=True):
        path.write_text(body, encoding="utf-8")
        with pytest.raises(DeckError) as refused:
            load_deck(path, G)
        assert str(refused.value).replace(str(path), "joker.toml") == line


def test_a_name_without_its_accent_gets_the_accented_name_suggested(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    for typed, meant in (("Arsene", "Arsène"), ("jack frots", "Jack Frost"), ("Pixy", "Pixie")):
        path.write_text(f'player_card = "p5"\n[[cards]]\ncard = "{typed}"\n', encoding="utf-8")
        with pytest.raises(DeckError, match=rf"unknown card '{typed}'.*did you mean '{meant}'"):
            load_deck(path, G)
    path.write_text('player_card = "p5"\n[[cards]]\ncard = "Nobody At All"\n', encoding="utf-8")
    with pytest.raises(DeckError) as refused:
        load_deck(path, G)
    assert "did you mean" not in str(refused.value)  # nothing close: no guess


def test_a_misspelt_card_section_gets_the_section_suggested(tmp_path: Path) -> None:
    bad = tmp_path / "cards.toml"
    bad.write_text('[[personas]]\nid = "900"\nname = "X"\n', encoding="utf-8")
    with pytest.raises(CardDataError, match=r"unknown section; .*did you mean 'persona'"):
        load_vs_game([bad])
