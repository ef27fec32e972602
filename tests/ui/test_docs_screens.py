"""The screens shown in docs/terminal.md are the ones the terminal draws at 80 x 24.

Run with ``VELVET_UPDATE_DOCS=1`` to rewrite them after a deliberate change.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from rich.console import Console

from velvet.engine import GameRecord
from velvet.engine.core import player_name
from velvet.engine.rng import Rng
from velvet.games import get_game
from velvet.ui.terminal import Session

DOC = Path(__file__).resolve().parents[2] / "docs" / "terminal.md"
BLOCK = re.compile(r"(<!-- screen: (\w+) -->\n```text\n)(.*?)(```)", re.S)


def screen(name: str) -> str:
    """The first screen a person sees in a fixed game (VS: after a few random moves)."""
    game = get_game(name)
    config = game.default_config()
    state = game.new_state(config, 4)
    if name == "vs":
        rng = Rng(2)
        while state.current_player != 0 or len(state.legal_actions()) < 3:
            legal = state.legal_actions()
            state.apply(legal[rng.randbelow(len(legal))])
    console = Console(record=True, width=80, height=24, force_terminal=False)
    session = Session(game, GameRecord.start(game, config, 4), state, [None, None], console, input)
    player = state.current_player
    session.show_board(player)
    session.show_actions(player, state.legal_actions())
    console.print(f"{player_name(player)}> ")
    return "\n".join(line.rstrip() for line in console.export_text().splitlines()) + "\n"


@pytest.mark.parametrize("name", ["p5", "vs"])
def test_the_documented_screens_are_what_the_terminal_draws(name: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    drawn = screen(name)
    assert len(drawn.splitlines()) <= 24 and max(map(len, drawn.splitlines())) <= 80
    if os.environ.get("VELVET_UPDATE_DOCS"):
        text = BLOCK.sub(
            lambda m: m.group(1) + drawn + m.group(4) if m.group(2) == name else m.group(0), text
        )
        DOC.write_text(text, encoding="utf-8")
    shown = {m.group(2): m.group(3) for m in BLOCK.finditer(text)}
    assert shown.get(name) == drawn, f"docs/terminal.md's {name} screen is out of date"
