"""The P5 board renders legibly and shows the key facts."""

from __future__ import annotations

from rich.console import Console

from tests.p5.helpers import give, make, play, reveal
from velvet.engine.core import Event
from velvet.engine.rng import Rng
from velvet.p5.game import load_p5_game
from velvet.p5.views import P5View
from velvet.ui.p5_render import event_line, render


def _text(view: P5View, game: object) -> str:
    console = Console(record=True, width=120)
    console.print(render(view, game))  # type: ignore[arg-type]
    return console.export_text()


def test_board_shows_key_facts() -> None:
    game = load_p5_game()
    s = make(game, (("joker", "arsene"), ("noir", "goemon")))
    reveal(s, "pixie", "thoth")
    play(s, "go p2", "visit home")
    text = _text(s.view(0), game)
    for fact in (
        "Day 1 of 28",
        "Home",
        "P2",
        "alert 0%",
        "Pixie",
        "Thoth",
        "Elec",
        "Joker",
        "Noir",
        "Stamina 0/2",
        "fresh",
        "spent",
        "Supply left",
        "Now: Player 1",
        "held:",
        "Castle of Lust",
    ):
        assert fact in text, fact


def test_boss_and_decision_shown() -> None:
    game = load_p5_game()
    s = make(game, (("skull", "goemon"),))
    s.alert, s.boss_rem, s.rev, s.rem = 4, [5, 4, 3, 0], [], []
    give(s, stamina=2)
    play(s, "palace")
    while s.dec:
        play(s, str(s.legal_actions()[0]))
    text = _text(s.view(0), game)
    assert "BOSS Asmodeus Kamoshida" in text and "alert 100%" in text
    assert "fight in the palace" in text


def test_lines_are_the_engine_words() -> None:
    game = load_p5_game()
    s = make(game, (("joker", "arsene"), ("noir", "goemon")))
    rng = Rng(3)
    while not s.is_terminal():
        legal = s.legal_actions()
        for event in s.apply(legal[rng.randbelow(len(legal))]):
            assert event_line(event, game) == game.event_text(event)
    check = event_line(
        Event("check", {"player": 0, "stat": "guts", "dice": [2, 6], "success": True})
    )
    assert check == "Player 1 makes a Guts check: 2, 6★ — success."


def test_party_draft_shown() -> None:
    # rule: P5-ARSENE-3  (the party is one decision: the draft shows until done)
    game = load_p5_game()
    s = make(game, (("joker", "arsene"),))
    held = [game.cards.shadows[i].id for i in s.held[0]]
    assert "Draft party" not in _text(s.view(0), game)
    play(s, f"equip {held[0]}")
    text = _text(s.view(0), game)
    assert f"Draft party: {game.cards.shadows[s.held[0][0]].name}" in text
