"""Positions built by names (VsGame.position): what they hold, and every bad field refused."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.vs.helpers import act, disc_ids, field_ids, hand_ids, legal
from velvet.engine.errors import ConfigError
from velvet.vs.game import load_vs_game
from velvet.vs.state import DECLARE, PLAN, REACT1

G = load_vs_game()
EXAMPLE = Path(__file__).parents[2] / "docs" / "positions" / "vs-example.toml"


def spec(**top: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "players": [
            {
                "hand": ["Kelpie", "Bicorn"],
                "main": "Pixie",
                "deck": ["Bicorn", "Mandrake", "Koropokkur"],
            },
            {"main": "Izanagi", "hand": ["Rakukaja"]},
        ]
    }
    base.update(top)
    return base


def test_the_documented_example_builds() -> None:
    s = G.position(tomllib.loads(EXAMPLE.read_text(encoding="utf-8")))
    assert s.turn == 0 and s.turn_no == 6 and s.step == PLAN and s.hp == [14, 9]
    assert field_ids(s, 0) == [["002", "001"], ["003"], []]
    assert field_ids(s, 1) == [["026"], ["027"], []]
    assert disc_ids(s, 0) == ["005"]
    # the deck is listed top first: Kelpie is drawn next
    assert G.ids[s.deck[0][-1]] == "011"
    act(s, "summon 014", "pay stack m 001")
    assert field_ids(s, 0)[0] == ["002"]


def test_names_or_ids_hands_decks_and_the_turn() -> None:
    s = G.position(spec(turn=2, first_player=2))
    assert s.turn == 1 and s.turn_no == 1 and s.current_player == 1
    assert hand_ids(s, 0) == ["011", "006"] and hand_ids(s, 1) == ["045"]
    s = G.position(spec(turn=1, first_player=2))
    assert s.turn_no == 2
    act(s, "end", "noskill")  # Player 1 draws 3 from the top: Bicorn, Mandrake, Koropokkur
    assert hand_ids(s, 0) == ["011", "006", "006", "005", "007"]


def test_a_react_window_and_a_scripted_rng() -> None:
    s = G.position(spec(turn=2, step="react-declaration", declared="Zio", rng_script=[0]))
    # Player 2's Izanagi declared Zio; Player 1 (defending) decides in the React window.
    assert s.step == REACT1 and s.current_player == 0 and s.rng.scripted == (0,)
    s = G.position(
        {
            "players": [{"main": "Pixie"}, {"main": "Izanagi", "hand": ["Rakukaja"]}],
            "step": "react-declaration",
            "declared": "zio",
        }
    )
    assert s.current_player == 1 and legal(s) == {"pass", "react 045"}
    s = G.position(spec(step="skill"))
    assert s.step == DECLARE


def test_decklists_default_to_the_cards_in_play() -> None:
    s = G.position(spec())
    for p in (0, 1):
        assert sorted(s.zones(p).elements()) == list(s.decklists[p])
    assert s.view(0)["decklists"][1] is not None
    closed = G.position(spec(open_decklists=False))
    assert closed.view(0)["decklists"][1] is None


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"bogus": 1}, "unknown"),
        ({"players": []}, "players: must list exactly 2"),
        ({"turn": 3}, "turn: must be a whole number from 1 to 2"),
        ({"turn": 1, "first_player": 2, "turn_number": 3}, "turn_number"),
        ({"step": "draw"}, "step: 'draw' is not one of"),
        ({"step": "react-declaration"}, "declared: a React window needs"),
        ({"step": "react-declaration", "declared": "Bufu"}, "no skill named 'Bufu'"),
        ({"declared": "Zio"}, "declared: a declared skill needs"),
        ({"one_more": True}, "one_more"),
        ({"seed": -1}, "seed"),
        ({"rng_script": [1, -2]}, "rng_script"),
        ({"open_decklists": "yes"}, "open_decklists"),
    ],
)
def test_bad_top_level_fields_are_named(change: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        G.position({**spec(), **change})


@pytest.mark.parametrize(
    ("player", "words"),
    [
        ({"hand": ["Pixy"]}, r"players\[0\].hand\[0\]: no card has the id or name 'Pixy'"),
        ({"hand": "Pixie"}, r"players\[0\].hand: must be a list"),
        ({"deck": [3]}, r"players\[0\].deck\[0\]"),
        ({"hp": 0}, r"players\[0\].hp"),
        ({"hp": 31}, r"players\[0\].hp"),
        ({"player_card": "p9"}, r"players\[0\].player_card"),
        ({"main": ["Pixie", "Medicine"]}, r"players\[0\].main\[1\]: Medicine is not a persona"),
        ({"main": ["Pixie", "Pixie"]}, r"VS-FUSE-4"),
        ({"subs": ["Pixie"], "main": []}, r"VS-RULE-LOSEMAIN"),
        ({"main": "Pixie", "subs": ["Pixie"]}, r"VS-RULE-NAME"),
        ({"main": "Pixie", "subs": ["Bicorn", "Kelpie", "Mandrake"]}, r"subs: must be a list"),
        ({"graveyard": []}, r"players\[0\]: unknown keys \['graveyard'\]"),
    ],
)
def test_bad_player_fields_are_named(player: dict[str, Any], words: str) -> None:
    bad = spec()
    bad["players"][0] = {**bad["players"][0], **player}
    with pytest.raises(ConfigError, match=words):
        G.position(bad)


def test_a_player_card_by_name_and_a_skill_step_needs_a_persona() -> None:
    s = G.position({"players": [{"player_card": "Joker (Persona 5)"}, {}]})
    assert s.pcs == ("p5", "p4")
    with pytest.raises(ConfigError, match="VS-SKILL-4"):
        G.position({"players": [{}, {}], "step": "skill"})
