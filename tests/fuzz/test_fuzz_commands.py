"""The commands themselves on mutated files: exit status 0, or 2 with one line ``error: …``.

Fewer inputs than the reader tests (each goes through click and, when accepted,
prints a board), but end to end: what a person at the terminal sees.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fuzz.hostile import EXAMPLES, FUZZ, mutated_json, mutated_text, tally
from tests.fuzz.test_fuzz_files import DECK_SOURCE, SAVES, VS_SOURCE
from velvet.cli import main

COMMANDS = settings(FUZZ, max_examples=max(1, EXAMPLES // 2))
"""500 inputs per test in CI."""
CARD_COMMANDS = settings(FUZZ, max_examples=max(1, EXAMPLES * 3 // 20))
"""150 inputs: each accepted card file builds a whole game."""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("commands")


def check(entry: str, args: list[str], stdin: str = "") -> None:
    result = CliRunner().invoke(main, args, input=stdin)
    assert isinstance(result.exception, SystemExit | None), repr(result.exception)
    out = result.output
    assert "Traceback" not in out and "a bug in Velvet" not in out, out
    if result.exit_code == 0:
        tally(entry, "ok")
        return
    errors = [line for line in out.splitlines() if line.startswith("error: ")]
    assert result.exit_code == 2 and len(errors) == 1, out
    assert errors[0] == out.splitlines()[-1], "the error is the last line"
    tally(entry, "clean error")


@given(data=st.data())
@COMMANDS
def test_deck_check(data: st.DataObject, folder: Path) -> None:
    path = folder / "deck.toml"
    path.write_bytes(data.draw(mutated_text(DECK_SOURCE)))
    check("command: deck check", ["deck", "check", str(path)])


@given(data=st.data(), command=st.sampled_from(["replay", "resume"]))
@COMMANDS
def test_replay_and_resume(data: st.DataObject, command: str, folder: Path) -> None:
    path = folder / "save.json"
    name = data.draw(st.sampled_from(sorted(SAVES)))
    path.write_bytes(data.draw(mutated_json(SAVES[name])))
    check(f"command: {command}", [command, str(path)], stdin="quit\n\n")


@given(data=st.data())
@CARD_COMMANDS
def test_cards_check(data: st.DataObject, folder: Path) -> None:
    path = folder / "cards.toml"
    path.write_bytes(data.draw(mutated_text(VS_SOURCE)))
    check("command: cards check --game vs", ["cards", "check", "--game", "vs", str(path)])
