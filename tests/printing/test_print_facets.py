"""What ``velvet print`` prints is found through the game's spec: its cards
(``GameSpec.print_cards``), its rules summary (``rules_summary``), its boards
(``print_boards``) and its name on the sheets (``short_title``)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

import velvet.games
from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.games import get_spec
from velvet.printing.cardtext import Line, PrintCard
from velvet.printing.cli import _printable_games
from velvet.printing.sheets import write_pdf
from velvet.printing.summary import Section, summary


def race_summary(game: Game[Any]) -> list[Section]:
    """A toy game's own summary, named by import path from its spec only."""
    return [("A turn", (f"Roll or stop; reach exactly {game.target} (RACE-1).",))]  # type: ignore[attr-defined]


def test_a_game_without_a_rules_summary_is_told_so_not_given_another_games() -> None:
    spec = get_spec("tests.engine.toygame:SPEC")
    assert spec.rules_summary is None
    with pytest.raises(ConfigError) as info:
        summary(spec, spec.load(()))
    assert str(info.value) == (
        "game 'race' has no rules summary (its GameSpec sets no rules_summary)"
    )


def test_a_toy_games_summary_is_found_through_its_spec_alone() -> None:
    toy = get_spec("tests.engine.toygame:SPEC")
    spec = dataclasses.replace(toy, rules_summary="tests.printing.test_print_facets:race_summary")
    assert summary(spec, spec.load(())) == [
        ("A turn", ("Roll or stop; reach exactly 10 (RACE-1).",))
    ]
    broken = dataclasses.replace(toy, rules_summary="tests.printing.test_print_facets:pytest")
    with pytest.raises(ConfigError, match=r"rules_summary .*:pytest is not a function"):
        summary(broken, broken.load(()))


@pytest.mark.parametrize(("name", "clause"), [("p5", "(P5-SETUP-2)"), ("vs", "(VS-SETUP-1)")])
def test_each_built_in_game_prints_its_own_summary(name: str, clause: str) -> None:
    spec = get_spec(name)
    sections = summary(spec, spec.load(()))
    text = " ".join(line for _, lines in sections for line in lines)
    assert clause in text
    other = "VS-" if name == "p5" else "P5-"
    assert other not in text


def race_cards(game: Game[Any], deck: Path | str | None) -> list[PrintCard]:
    """A toy game's printed cards: one die card."""
    return [PrintCard("die", "Die", "die", "race", (Line("Roll: 1 to 6."),))]


def test_a_toy_game_prints_through_its_spec_alone(tmp_path: Path) -> None:
    toy = get_spec("tests.engine.toygame:SPEC")
    out = tmp_path / "race.pdf"
    with pytest.raises(ConfigError) as info:
        write_pdf(toy.load(()), out, spec=toy)
    assert str(info.value) == "game 'race' has no printed cards (its GameSpec sets no print_cards)"
    here = "tests.printing.test_print_facets"
    spec = dataclasses.replace(
        toy,
        short_title="Race",
        print_cards=f"{here}:race_cards",
        rules_summary=f"{here}:race_summary",
    )
    result = write_pdf(spec.load(()), out, spec=spec, backs=True)
    assert result.cards == 1
    assert result.pages == [("card", 2), ("rules", 1)]
    assert out.read_bytes().startswith(b"%PDF")
    with_board = dataclasses.replace(spec, print_boards=f"{here}:race_boards")
    assert write_pdf(spec.load(()), out, spec=with_board).pages == [
        ("card", 1),
        ("rules", 1),
        ("track", 1),
    ]
    assert write_pdf(spec.load(()), out, spec=with_board, boards=False).pages == [
        ("card", 1),
        ("rules", 1),
    ]


def race_boards(c: Any, game: Game[Any], paper: str, notes: list[str]) -> list[tuple[str, int]]:
    """A toy game's board: one page with its track."""
    c.drawString(100, 100, f"Track to {game.target}")  # type: ignore[attr-defined]
    c.showPage()
    return [("track", 1)]


PRINTABLE_RACE = dataclasses.replace(
    get_spec("tests.engine.toygame:SPEC"),
    print_cards="tests.printing.test_print_facets:race_cards",
)


def test_velvet_print_offers_the_registered_games_that_print_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    installed = {"race": "tests.engine.toygame:SPEC"}
    monkeypatch.setattr(velvet.games, "_installed", lambda: installed)
    assert _printable_games() == ["p5", "vs"]
    installed["race"] = "tests.printing.test_print_facets:PRINTABLE_RACE"
    assert _printable_games() == ["p5", "vs", "race"]


def test_a_spec_naming_another_games_plug_in_gets_a_clear_error(tmp_path: Path) -> None:
    toy = get_spec("tests.engine.toygame:SPEC")
    wrong = dataclasses.replace(toy, rules_summary="velvet.printing.summary:p5_summary")
    with pytest.raises(ConfigError, match="P5 rules summary is for the P5 board game, not 'race'"):
        summary(wrong, wrong.load(()))
    boards = dataclasses.replace(
        toy,
        print_cards="tests.printing.test_print_facets:race_cards",
        print_boards="velvet.printing.sheets:p5_boards",
    )
    out = tmp_path / "race.pdf"
    with pytest.raises(ConfigError, match="P5 boards are for the P5 board game, not 'race'"):
        write_pdf(boards.load(()), out, spec=boards, rules=False)
    assert not out.exists() and not (tmp_path / "race.pdf.part").exists()
