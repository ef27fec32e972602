"""Renderer lookup: action labels name cards from the set being played."""

from __future__ import annotations

from pathlib import Path

from velvet.games import get_game
from velvet.p5.game import load_p5_game
from velvet.ui.renderers import renderer_for
from velvet.vs import actions as A

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
    view = game.new_state(game.default_config(), 1).view(0)
    label = renderer_for(game).action_label(A.Summon("002"), view)
    assert "Velvet Pixie" in label
    builtin = get_game("vs")
    assert "Velvet Pixie" not in renderer_for(builtin).action_label(A.Summon("002"), view)


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
    action = next(a for a in state.legal_actions() if str(a) == "visit home")
    assert "Visit Leblanc Attic" in renderer_for(game).action_label(action, state.view(0))
