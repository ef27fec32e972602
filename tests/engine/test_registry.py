"""The game registry: names, entry points and ``module:ATTR`` specs; the engine stays apart."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import velvet.games
from velvet.engine.errors import ConfigError
from velvet.engine.spec import GameSpec, resolve
from velvet.games import find_spec, game_names, get_game, get_spec

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["p5", "vs"])
def test_every_built_in_spec_matches_its_game_and_its_paths_resolve(name: str) -> None:
    spec = get_spec(name)
    game = spec.load(())
    assert spec.name == game.name == name
    assert spec.players == game.num_players
    assert spec.renderer and spec.evaluator and spec.cards
    assert callable(resolve(spec.renderer, "renderer").render)
    assert callable(resolve(spec.evaluator, "evaluator"))
    assert callable(resolve(spec.cards, "cards").card_rows)


def test_unknown_names_are_one_line_errors_naming_the_choices() -> None:
    with pytest.raises(ConfigError, match="unknown game 'chess': choose p5, vs") as info:
        get_spec("chess")
    assert "\n" not in str(info.value)
    with pytest.raises(ConfigError, match="is not a GameSpec"):
        get_spec("velvet.games:BUILTIN")
    with pytest.raises(ConfigError, match="cannot import"):
        get_spec("no_such_module_xyz:SPEC")
    with pytest.raises(ConfigError, match="has no NOPE"):
        get_spec("velvet.games:NOPE")
    assert find_spec("chess") is None


def test_a_spec_path_and_an_entry_point_register_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    toy = get_spec("tests.engine.toygame:SPEC")
    assert isinstance(toy, GameSpec) and toy.name == "race"
    assert "race" not in game_names()
    monkeypatch.setattr(velvet.games, "_installed", lambda: {"race": "tests.engine.toygame:SPEC"})
    assert game_names() == ("p5", "vs", "race")
    assert get_spec("race") is toy
    assert get_game("race").name == "race"


def test_options_a_game_does_not_declare_are_refused() -> None:
    spec = get_spec("p5")
    with pytest.raises(ConfigError, match="has no option --deck; its options: --thief"):
        spec.config_for(spec.load(()), 1, {"deck": ("a.toml",)})
    assert spec.config_for(spec.load(()), 2, {"palace": None})["players"][1]


def test_loading_the_games_imports_no_front_end() -> None:
    code = (
        "import sys, velvet.games as g\n"
        "for name in g.game_names():\n"
        "    game = g.get_game(name)\n"
        "    game.new_state(g.get_spec(name).config_for(game, game.num_players[-1]), 1)\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('velvet.ui', 'velvet.bots', "
        "'velvet.sim', 'velvet.cli', 'rich', 'click')))\n"
        "print(bad)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == "[]", result.stdout


def test_a_config_error_names_its_option_and_keeps_its_message() -> None:
    """``ConfigError.option``: the field a form shows the error on; the words do not change."""
    import pickle

    vs = get_spec("vs")
    game = vs.load(())
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"first": "3"}, "first", "--first must be 1, 2 or random, not '3'"),
        ({"second_draws": "5"}, "second_draws", "--second-draws must be 0, 1 or 2, not '5'"),
        ({"player_card": ("p9",)}, "player_card", "unknown player card 'p9': choose one of"),
        ({"colour": "red"}, "colour", "game 'vs' has no option --colour; its options:"),
    ]
    for options, option, words in cases:
        with pytest.raises(ConfigError) as caught:
            vs.config_for(game, 2, options)
        assert caught.value.option == option
        assert str(caught.value).startswith(words)
        again = pickle.loads(pickle.dumps(caught.value))  # a worker's error reaches its parent
        assert (str(again), again.option) == (str(caught.value), option)
    p5 = get_spec("p5")
    with pytest.raises(ConfigError, match=r"^2 --thief options for 1 player\(s\)$") as caught:
        p5.config_for(p5.load(()), 1, {"thief": ("joker", "skull")})
    assert caught.value.option == "thief"
    with pytest.raises(ConfigError) as caught:
        vs.config_for(game, 3)
    assert caught.value.option is None  # the seats, not one option
