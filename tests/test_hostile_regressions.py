"""Failing inputs the fuzz tests found, kept as plain regression tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from rich.console import Console

from velvet.engine import GameRecord, VelvetError
from velvet.games import get_game
from velvet.sim.results import load_results
from velvet.ui.terminal import Session


def test_undecodable_input_at_the_pass_the_screen_prompt_keeps_the_game() -> None:
    # Found by tests/fuzz/test_fuzz_prompt_paths.py: the hot-seat "pass the screen"
    # prompt read input without the guards of the move prompt, so a line that was not
    # UTF-8 ended the game with a traceback.
    game = get_game("vs")
    config = game.default_config()
    state = game.new_state(config, 5)
    record = GameRecord.start(game, config, 5)
    answers = iter(["1", "1", "1", "1", "1", "1", "1", "1"])

    def ask(prompt: str) -> str:
        if prompt == "":
            raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
        answer = next(answers, None)
        if answer is None:
            raise EOFError
        return answer

    with open(os.devnull, "w") as sink:
        session = Session(game, record, state, [None, None], Console(file=sink), ask)
        session.run()
    assert session.record.replay(game).digest() == session.state.digest()


@pytest.mark.parametrize("name", ["\r", "a\nb", "x" * 300])
def test_messages_about_odd_folder_names_stay_one_line(tmp_path: Path, name: str) -> None:
    # Found by the odd-path fuzz test: a folder name holding a carriage return was
    # printed as is, splitting the message over two lines.
    try:
        load_results(tmp_path / name)
    except VelvetError as error:
        text = str(error)
    else:
        raise AssertionError("a folder without run.json was accepted")
    assert "\n" not in text and "\r" not in text and len(text) < 300
