"""The generic terminal loop, driven with scripted input on a toy game."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from rich.console import Console

from tests.engine.toygame import RaceGame
from velvet.bots.base import Bot, RandomBot
from velvet.engine import GameRecord
from velvet.ui.terminal import Session, replay


def scripted(lines: list[str]) -> tuple[list[str], Callable[[str], str]]:
    prompts: list[str] = []
    feed: Iterator[str] = iter(lines)

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return prompts, ask


def session(
    lines: list[str], seats: Sequence[Bot | None], seed: int = 1
) -> tuple[Session, Console]:
    game = RaceGame()
    console = Console(record=True, width=100, force_terminal=False)
    _, ask = scripted(lines)
    return (
        Session(
            game, GameRecord.start(game, {}, seed), game.new_state({}, seed), seats, console, ask
        ),
        console,
    )


def test_bots_play_a_whole_game_and_the_record_replays() -> None:
    play, console = session([], [RandomBot(), RandomBot()])
    final = play.run()
    assert final.is_terminal()
    assert "Game over" in console.export_text()
    assert play.record.replay(RaceGame()).canonical() == final.canonical()


def test_illegal_and_garbled_input_is_explained_and_changes_nothing() -> None:
    play, console = session(["fly", "7", "", "quit"], [None, None])
    before = play.state.canonical()
    play.run()
    out = console.export_text()
    assert "'fly' is not a move" in out
    assert "no action number 7" in out
    assert "empty move" in out
    assert play.state.canonical() == before
    assert play.record.actions == []


def test_numbers_and_text_forms_are_accepted() -> None:
    play, console = session(["1", "", "stop", "quit"], [None, None])
    play.run()
    assert play.record.actions == ["roll", "stop"]
    # Two human seats with hidden hands: the screen is passed between them.
    assert "Pass the screen to Player 2" in console.export_text()


def test_save_then_load_resumes_the_same_position(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    play, console = session(
        ["roll", "", f"save {save}", "roll", "", f"load {save}", "y", "quit"], [None, None]
    )
    play.run()
    assert "Saved to" in console.export_text()
    assert json.loads(save.read_text())["record"]["actions"] == ["roll"]
    assert play.record.actions == ["roll"]


def test_loading_a_corrupt_file_keeps_the_game(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    play, console = session(["roll", "", f"load {bad}", "y", "quit"], [None, None])
    play.run()
    assert "error: could not load" in console.export_text()
    assert play.record.actions == ["roll"]


def test_replay_prints_every_action_and_the_result() -> None:
    play, _ = session([], [RandomBot(), RandomBot()], seed=9)
    play.run()
    console = Console(record=True, width=100)
    final = replay(RaceGame(), play.record, console)
    out = console.export_text()
    assert final.canonical() == play.state.canonical()
    # every action in the contract's words, every event as the game's sentence
    labels = {"roll": "Roll the die", "stop": "Stop"}
    lines = [line.strip() for line in out.splitlines()]
    for number, text in enumerate(play.record.actions, start=1):
        assert f"{number} {labels[text]}" in lines
    assert "Player 1 wins the race." in out or "Player 2 wins the race." in out
    assert "die player=" not in out  # no raw event data
    assert final.outcome_text() in out


def test_replay_steps_forward_back_jumps_and_changes_the_view() -> None:
    play, _ = session([], [RandomBot(), RandomBot()], seed=9)
    play.run()
    console = Console(record=True, width=100)
    _, ask = scripted(["", "3", "b", "seat 2", "99", "fly", "q"])
    replay(RaceGame(), play.record, console, step=True, ask=ask)
    out = console.export_text()
    shown = re.findall(r"action (\d+) of \d+ · (Player \d)'s view", out)
    assert shown[:5] == [
        ("0", "Player 1"),
        ("1", "Player 1"),
        ("3", "Player 1"),
        ("2", "Player 1"),
        ("2", "Player 2"),
    ]
    assert "error: no action 99" in out and "error: not a replay command" in out


def test_the_session_shows_labels_and_event_sentences() -> None:
    play, console = session(["1", "quit"], [None, None], seed=3)
    play.run()
    out = console.export_text()
    assert "Roll the die" in out and "Stop" in out
    assert re.search(r"Player 1 rolls a [1-6]\.", out)
    assert "die player=" not in out


def test_card_command_shows_the_contracts_card_words_and_refuses_unknown_ids() -> None:
    play, console = session(["card die", "card dragon", "card", "quit"], [None, None])
    before = play.state.canonical()
    play.run()
    out = console.export_text()
    assert "Die (equipment)" in out and "Six faces, 1 to 6." in out
    assert "error: no card named 'dragon'" in out
    assert "info needs a card's name" in out
    assert play.state.canonical() == before and play.record.actions == []


def hot_seat_output(monkeypatch: pytest.MonkeyPatch, term: str) -> str:
    """Two human seats pass the screen once, on a console that is a terminal."""
    import io

    from velvet.ui import terminal

    monkeypatch.setenv("TERM", term)
    monkeypatch.delenv("WT_SESSION", raising=False)
    terminal.clears_scrollback.cache_clear()
    out = io.StringIO()
    game = RaceGame()
    console = Console(file=out, width=80, force_terminal=True, color_system=None)
    _, ask = scripted(["stop", "", "quit"])
    play = Session(
        game, GameRecord.start(game, {}, 1), game.new_state({}, 1), [None, None], console, ask
    )
    play.run()
    terminal.clears_scrollback.cache_clear()
    return out.getvalue()


def test_passing_the_screen_erases_the_scroll_back_where_the_terminal_can(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = hot_seat_output(monkeypatch, "alacritty")
    passed = out.index("Pass the screen to Player 2")
    # the screen and then the scroll-back are erased before the hand-over is shown
    assert "\x1b[2J" in out[:passed] and "\x1b[3J" in out[:passed]
    assert "scroll-back" not in out


def test_passing_the_screen_warns_when_the_scroll_back_may_keep_the_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = hot_seat_output(monkeypatch, "dumb")
    assert "\x1b[3J" not in out
    assert "TERM=dumb) may keep Player 1's screen in its" in out
