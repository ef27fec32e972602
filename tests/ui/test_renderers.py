"""The terminal's choices name cards from the set being played (``State.action_label``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console

from tests.vs.helpers import position
from velvet.engine import GameRecord
from velvet.engine.core import Game, State
from velvet.games import get_game
from velvet.p5.game import load_p5_game
from velvet.ui.renderers import renderer_for
from velvet.ui.terminal import Session


def choices_shown(game: Game[Any], state: State[Any]) -> str:
    console = Console(record=True, width=100, force_terminal=False)
    play = Session(game, GameRecord.start(game, {}, 1), state, [None], console, input)
    play.show_actions(state.current_player, state.legal_actions())
    return console.export_text()


CUSTOM_PIXIE = """
[[persona]]
id = "002"
name = "Velvet Pixie"
cost = 1
weakness = "fire"
skills = [{ name = "Zio", type = "electric", damage = 3 }]
"""


def test_vs_action_labels_use_the_custom_card_set(tmp_path: Path) -> None:
    cards = tmp_path / "pixie.toml"
    cards.write_text(CUSTOM_PIXIE, encoding="utf-8")
    game = get_game("vs", [cards])
    state = position(hands=(["002", "006"], []), game=game)  # type: ignore[arg-type]
    assert "Summon Velvet Pixie" in choices_shown(game, state)
    assert renderer_for(game).hides_hands


CUSTOM_HOME = """
[[location]]
id = "home"
name = "Leblanc Attic"
start = true
effects = [{ op = "restore", amount = { stamina = 3 } }]
"""


def test_p5_action_labels_use_the_custom_card_set(tmp_path: Path) -> None:
    cards = tmp_path / "home.toml"
    cards.write_text(CUSTOM_HOME, encoding="utf-8")
    game = load_p5_game([cards])
    state = game.new_state(game.default_config(1), 1)
    assert "Visit Leblanc Attic" in choices_shown(game, state)
