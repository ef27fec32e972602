"""The real ``velvet play`` in an 80 x 24 pseudo-terminal, as a person uses it."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Literal

import pytest

from tests.e2e.pty import NEXT, PROMPT, Term

END = "Name, or Enter to skip:"


def vs_against_random(tmp_path: Path, seed: int, *more: str) -> Term:
    """``velvet play vs``: a person in seat 1, the random bot in seat 2, no pause."""
    return Term(
        "play",
        "vs",
        "--seat",
        "human",
        "--seat",
        "random",
        "--seed",
        str(seed),
        "--pace",
        "0",
        *more,
        data=tmp_path,
    )


def leave_without_saving(term: Term, how: Literal["interrupt", "quit"] = "interrupt") -> None:
    """Stop at a prompt (Ctrl-C, or ``quit`` typed), skip the save, see the command end well."""
    if how == "quit":
        term.line("quit")
    else:
        term.interrupt()
    term.expect(END)
    term.line("")
    assert term.finish() == 0


def test_a_whole_p5_solo_game_with_a_bot_seat(tmp_path: Path) -> None:
    term = Term("play", "p5", "--seat", "random", "--seed", "3", "--pace", "0", data=tmp_path)
    term.expect("Game over", timeout=90)
    term.expect(END)
    record = tmp_path / "p5-record.json"
    term.line(str(record))
    assert term.finish() == 0
    assert json.loads(record.read_text())["seats"] == ["random"]
    text = term.text()
    assert re.search(r"Day \d+ of 28 · .* alert \d+ %", text)
    term.check_screen()


def test_a_whole_vs_game_against_a_bot_typed_at_the_prompt(tmp_path: Path) -> None:
    term = vs_against_random(tmp_path, 4)
    pick = random.Random(4)
    for _ in range(400):
        if term.expect([NEXT, END], timeout=60) == 1:
            break
        term.expect(PROMPT)
        term.line(str(pick.randint(1, term.last_choice())))
    else:
        pytest.fail("the game did not end in 400 decisions")
    term.line("")
    assert term.finish() == 0
    text = term.text()
    assert "Game over" in text and "Your hand" in text and "HP" in text
    term.check_screen()


def test_undo_tab_completion_and_ctrl_c_offering_to_save(tmp_path: Path) -> None:
    term = Term("play", "p5", "--seed", "1", data=tmp_path)
    term.expect(PROMPT)
    term.line("board")  # the full board fits too
    term.expect("Phantom Thieves")
    term.expect(PROMPT)
    term.line("?Ann Takamaki")
    term.expect("Pep Talk")
    term.expect(PROMPT)
    term.line("visit Weapons Shop")
    term.expect("visits Weapons Shop")
    term.expect(PROMPT)
    term.line("undo")
    term.expect("Taken back: 1 action")
    term.expect(PROMPT)
    term.send("Recruit Ich\t")  # Tab completes the only choice that starts so
    term.line("")
    term.expect("Charm check")
    term.expect(PROMPT)
    term.interrupt()
    term.expect(END)
    save = tmp_path / "p5-save.json"
    term.line(str(save))
    term.expect("Saved to")
    assert term.finish() == 0
    record = json.loads(save.read_text())["record"]
    assert record["actions"] == ["recruit school"]
    assert record["taken_back"] == [{"after": 0, "actions": ["visit weapons-shop"]}]
    term.check_screen()


def test_a_save_with_a_bot_seat_resumes_with_that_bot(tmp_path: Path) -> None:
    term = vs_against_random(tmp_path, 5)
    term.expect(PROMPT)
    term.line("1")
    term.expect(NEXT)
    term.expect(PROMPT)
    save = tmp_path / "vs-save.json"
    term.line(f"save {save}")
    term.expect("Saved to")
    leave_without_saving(term, "quit")
    again = Term("resume", str(save), "--pace", "0", data=tmp_path)
    again.expect("Seats as saved: human, random")
    again.expect(PROMPT)
    leave_without_saving(again)
    term.check_screen()
    again.check_screen()


def test_hints_before_each_decision_and_on_request(tmp_path: Path) -> None:
    term = vs_against_random(tmp_path, 4, "--hints", "--hint-budget", "100")
    term.expect("Thinking…")  # shown while the search runs
    term.expect("Hints for Player 1")
    term.expect("why: ")
    term.expect(PROMPT)
    term.line("hint 0.5s")
    term.expect(r"search, 0.5 s, from your")
    term.expect(r"choice \d+: ")
    term.expect("to win")
    term.expect(PROMPT)
    term.line("forecast")
    term.expect("the game .vs. offers no forecast")
    term.expect(PROMPT)
    term.line("help")
    term.expect("'hint' shows")
    term.expect(PROMPT)
    leave_without_saving(term)
    term.check_screen()


def test_p5_hint_and_forecast_at_the_prompt(tmp_path: Path) -> None:
    term = Term("play", "p5", "--seed", "1", data=tmp_path)
    term.expect(PROMPT)
    term.line("forecast 2")  # each game plays the easy bot's search: ~2 s on a quiet core
    term.expect(r"\d+% to beat the boss by day 28", timeout=240)
    term.expect(r"interval \d+%–\d+%")
    term.expect(PROMPT)
    term.line("hint")
    term.expect("Hints for Player 1", timeout=120)  # a timed search: slower on a busy machine
    term.expect("why: ")
    term.expect("why: ")
    term.expect("why: ")
    term.expect(PROMPT)
    leave_without_saving(term, "quit")
    term.check_screen()


def test_hot_seat_hand_over_erases_the_scroll_back(tmp_path: Path) -> None:
    term = Term("play", "vs", "--seed", "7", "--seat", "human", "--seat", "human", data=tmp_path)
    term.expect(PROMPT)
    term.line("end")
    for _ in range(6):  # Player 1 ends the step and declares no skill: then the hand-over
        if term.expect(["Pass the screen to Player 2", PROMPT]) == 0:
            break
        term.line("1")
    else:
        pytest.fail("the screen was never passed")
    handed = term.out.rindex("Pass the screen")
    before = term.out[:handed]
    cleared = before.rindex("\x1b[2J")
    # the screen and then the scroll-back (ESC[3J) are erased before the hand-over shows
    assert "\x1b[3J" in before[cleared:]
    assert "scroll-back" not in term.text()
    term.line("")
    term.expect(NEXT)
    term.interrupt()
    term.expect("Save the game")
    term.line("n")
    assert term.finish() == 0
