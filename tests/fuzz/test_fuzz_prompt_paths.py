"""The game prompt and odd paths: hostile lines and file names never crash or lose a game.

The prompt gets lines of odd unicode, markup, control characters, digits of
other scripts, huge numbers, commands with odd file names and undecodable
input; after each session the game must be intact (its record replays to the
state) and nothing but one line of explanation was printed per refusal.
Every file reader and writer gets odd paths: folders, devices, NUL bytes,
names over 255 bytes, missing parents.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from tests.fuzz.hostile import (
    FUZZ,
    FUZZ_SESSIONS,
    HOSTILE_NUMBERS,
    HOSTILE_TEXTS,
    SEEDS,
    odd_text,
    tally,
)
from tests.fuzz.test_fuzz_files import attempt
from velvet.cards.loader import load_card_files
from velvet.engine import GameRecord, VelvetError, load_game, load_record, save_game
from velvet.engine.files import read_text, write_atomic
from velvet.games import get_game
from velvet.sim.results import load_results
from velvet.ui.terminal import GameCrashed, Session
from velvet.vs.decks import load_deck

UNDECODABLE = "<undecodable>"
COMMAND_WORDS = ["save", "load", "help", "board", "?", "SAVE", "Load"]
NAMES = [
    "/",
    ".",
    "..",
    "",
    "/dev/null",
    "/dev/zero",
    "/proc",
    "a\x00b",
    "x" * 300,
    "no/such/folder/f.json",
    "[/x]",
    "~",
    "-",
    "ok.json",
    "ok.json",
]


def hostile_line(rng: random.Random, legal: list[str]) -> str:
    kind = rng.randrange(8)
    if kind == 0:
        return rng.choice(HOSTILE_TEXTS)
    if kind == 1:
        return rng.choice([*HOSTILE_NUMBERS, "²", "③", "٣", "1" * 7, "9" * 5000, " 1 ", "0"])
    if kind == 2:
        return f"{rng.choice(COMMAND_WORDS)} {rng.choice(NAMES)}"
    if kind == 3:
        return UNDECODABLE
    if kind == 4 and legal:
        return rng.choice(legal) + rng.choice(["", " ", "x", " @boss", "\x00"])
    if kind == 5:
        return str(rng.randint(1, max(1, len(legal))))
    return odd_text(rng, 40)


GAMES = {name: get_game(name) for name in ("p5", "vs")}


@pytest.fixture()
def in_scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(tmp_path)
    yield tmp_path


@given(seed=SEEDS, name=st.sampled_from(sorted(GAMES)))
@FUZZ_SESSIONS
def test_prompt_lines_never_crash_or_lose_the_game(seed: int, name: str, in_scratch: Path) -> None:
    game = GAMES[name]
    config = game.default_config()
    rng = random.Random(seed)
    state = game.new_state(config, seed % 1000)
    record = GameRecord.start(game, config, seed % 1000)
    lines = iter(range(rng.randint(1, 12)))

    def ask(prompt: str) -> str:
        if next(lines, None) is None:
            raise EOFError
        line = hostile_line(rng, [str(a) for a in session.state.legal_actions()])
        tally(f"prompt line ({name})", "line")
        if line == UNDECODABLE:
            raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
        return line

    console = Console(file=open(os.devnull, "w"), width=100)  # noqa: SIM115
    session = Session(game, record, state, [None] * 2, console, ask)

    def no_board(player: int | None, *, full: bool = False) -> None:  # speed only
        return None

    session.show_board = no_board  # type: ignore[method-assign]
    try:
        session.run()
    except GameCrashed:
        tally(f"prompt line ({name})", "crash")
        raise
    finally:
        console.file.close()
    final = session.record.replay(game)
    assert final.digest() == session.state.digest(), "the record no longer replays the game"


READERS: dict[str, Any] = {
    "read_text": lambda p: read_text(p, VelvetError),
    "card file": lambda p: load_card_files([p]),
    "deck": lambda p: load_deck(p, GAMES["vs"]),  # type: ignore[arg-type]
    "save": lambda p: load_game(Path(p), get_game),
    "record": lambda p: load_record(Path(p), get_game),
    "results": lambda p: load_results(Path(p)),
}
ODD_PATHS = [
    "/",
    ".",
    "",
    "/dev/null",
    "/dev/zero",
    "/dev/urandom",
    "/proc/self/status",
    "/proc/self/mem",
    "a\x00b",
    "x" * 300,
    "/tmp/" + "y" * 256,
    "no/such/folder/f",
    "\udcff",
    "é漢😈",
]


@given(
    reader=st.sampled_from(sorted(READERS)),
    path=st.sampled_from(ODD_PATHS) | st.text(max_size=20),
)
@FUZZ
def test_odd_paths_for_every_reader(reader: str, path: str, in_scratch: Path) -> None:
    attempt("odd path (readers)", lambda: READERS[reader](path))


@given(
    path=st.sampled_from([*ODD_PATHS, "ok.json", "sub/ok.json"])
    | st.text(max_size=20).map(lambda text: text.lstrip("/"))  # only inside the scratch folder
)
@FUZZ_SESSIONS
def test_odd_paths_for_writers(path: str, in_scratch: Path) -> None:
    game = GAMES["p5"]
    config = game.default_config()
    state = game.new_state(config, 1)
    record = GameRecord.start(game, config, 1)
    before = {p.name for p in in_scratch.iterdir()}

    def save() -> None:
        save_game(Path(path), record, state, overwrite=False)

    attempt("odd path (writers)", save)
    after = {p.name for p in in_scratch.iterdir()}
    assert not [n for n in after - before if n.endswith(".tmp")], "a temporary file was left"
    with pytest.raises(VelvetError):
        write_atomic(Path("/dev/null"), b"x", VelvetError)
