"""Positions built by names (VsGame.position): what they hold, and every bad field refused."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.vs.helpers import act, disc_ids, field_ids, hand_ids, legal
from velvet.engine.errors import ConfigError
from velvet.vs.game import load_vs_game
from velvet.vs.state import DECLARE, PLAN, REACT1, REACT2

G = load_vs_game()
POSITIONS = Path(__file__).parents[2] / "docs" / "positions"
EXAMPLE = POSITIONS / "vs-example.toml"


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


# A 1 more: Player 1's Makami hits Izanagi's wind weakness with Garu (4), then the
# Jack-o'-Lantern inside the sub stack (under Mandrake) declares Agi (fire, 3).
ONE_MORE: list[dict[str, Any]] = [
    {
        "hand": ["Bicorn"],
        "deck": ["Bicorn"] * 5,
        "main": "Makami",
        "subs": [["Jack-o'-Lantern", "Mandrake"]],
    },
    {"hand": ["Null Fire", "Rakukaja", "Counterstrike"], "deck": ["Bicorn"] * 5, "main": "Izanagi"},
]
TO_AGI = ("skill m 010 0", "pass", "pass", "skill s1 003 0")  # Garu, no React, 1 more, Agi


def _one_more_by_play(step: str) -> Any:
    s = G.position({"players": ONE_MORE, "step": "skill"})
    act(s, *TO_AGI)
    if step == "react-resolution":
        act(s, "pass")
    return s


def _record(s: Any) -> dict[str, Any]:
    """The state as JSON but ``dmg`` and ``applied``: the damage record of a skill that has
    resolved, kept until the next declaration, which a position does not name."""
    data: dict[str, Any] = s.to_json()
    del data["dmg"], data["applied"]
    return data


@pytest.mark.parametrize(("step", "hp"), [("react-declaration", 26), ("react-resolution", 23)])
def test_a_react_window_during_one_more_is_the_one_play_reaches(step: str, hp: int) -> None:
    # rule: VS-MORE-2  during 1 more a sub's skill (any card of its stack) is declared
    # rule: VS-SKILL-1  the defender decides in that skill's React windows
    played = _one_more_by_play(step)
    players = [ONE_MORE[0], {**ONE_MORE[1], "hp": hp}]
    built = G.position({"players": players, "step": step, "one_more": True, "declared": "Agi"})
    assert built.more_used and (built.sk_c, built.sk_k, built.sk_slot) == (G.index["003"], 0, 1)
    assert _record(built) == _record(played)
    assert built.legal_actions() == played.legal_actions()
    assert built.action_labels() == played.action_labels()
    # Null Fire answers the fire Agi, not Garu; Counterstrike is for the resolution window
    assert legal(built) == (
        {"pass", "react 046", "react 045"} if step == "react-declaration" else {"pass", "react 048"}
    )
    for action in built.legal_actions():  # every answer plays on the same in both
        a, b = built.clone(), played.clone()
        assert [str(e) for e in a.apply(action)] == [str(e) for e in b.apply(action)]
        assert _record(a) == _record(b)


def test_a_declared_skill_is_found_in_any_stack_during_one_more_only() -> None:
    # rule: VS-FIELD-2  outside 1 more only the main's stack has skills to declare
    window = {"players": ONE_MORE, "step": "react-declaration", "declared": "Agi"}
    with pytest.raises(ConfigError, match="no skill named 'Agi' in Player 1's main's stack"):
        G.position(window)
    assert G.position({**window, "one_more": True}).sk_slot == 1
    with pytest.raises(ConfigError, match="no skill named 'Bufu' in Player 1's field"):
        G.position({**window, "one_more": True, "declared": "Bufu"})
    with pytest.raises(ConfigError, match="one_more: 1 more happens in the Skill Step"):
        G.position({"players": ONE_MORE, "step": "planning", "one_more": True})


def test_the_documented_one_more_react_window_is_the_one_play_reaches() -> None:
    # rule: VS-MORE-2
    text = (POSITIONS / "vs-one-more-react.toml").read_text(encoding="utf-8")
    built = G.position(tomllib.loads(text))
    assert _record(built) == _record(_one_more_by_play("react-declaration"))
    assert legal(built) == {"pass", "react 046", "react 045"}


# Player 1's Makami declares Garu (wind 4) at Player 2's Izanagi, weak to wind; Player 2
# holds Tetrakarn (negates physical) and Counterstrike (a resolution React).
HIT = [
    {"hand": ["Bicorn"], "deck": ["Bicorn"] * 5, "main": "Makami", "subs": ["Jack-o'-Lantern"]},
    {"hand": ["Counterstrike"], "deck": ["Bicorn"] * 5, "main": "Izanagi"},
]


@pytest.mark.parametrize("given", [None, True])
def test_a_resolution_window_after_a_weakness_hit_leads_to_one_more(given: bool | None) -> None:
    # rule: VS-MORE-1  the hit's 1 more starts after the resolution window, as in play
    played = G.position({"players": HIT, "step": "skill"})
    act(played, "skill m 010 0", "pass")
    assert played.more_pending
    players = [HIT[0], {**HIT[1], "hp": 26}]
    window = {"players": players, "step": "react-resolution", "declared": "Garu"}
    built = G.position(window if given is None else {**window, "one_more_next": given})
    assert _record(built) == _record(played)
    for action in built.legal_actions():  # pass, or Counterstrike: then 1 more, in both
        a, b = built.clone(), played.clone()
        assert [str(e) for e in a.apply(action)] == [str(e) for e in b.apply(action)]
        assert a.step == DECLARE and a.more_used and _record(a) == _record(b)


def test_a_resolution_window_with_no_one_more_to_come() -> None:
    # rule: VS-MORE-3  no 1 more when the damage was negated (a negated hit), nor twice
    bicorn = {**HIT[0], "main": "Bicorn"}
    himiko = {**HIT[1], "main": "Himiko", "hand": ["Tetrakarn"]}  # weak to physical
    played = G.position({"players": [bicorn, himiko], "step": "skill"})
    act(played, "skill m 006 0", "react 020")  # Lunge (physical) at Himiko, negated
    assert played.step == REACT2 and not played.more_pending
    after = {**himiko, "hand": [], "discard": ["Tetrakarn"]}
    window: dict[str, Any] = {
        "players": [bicorn, after],
        "step": "react-resolution",
        "declared": "Lunge",
    }
    assert G.position(window).more_pending  # by default a weakness hit: 1 more follows
    built = G.position({**window, "one_more_next": False})
    assert built.legal_actions() == played.legal_actions()
    act(built, "pass")
    act(played, "pass")
    assert built.turn == 1 and _record(built) == _record(played)  # the turn passed in both
    bad_fields: list[tuple[dict[str, Any], str]] = [
        ({"one_more_next": "yes"}, "one_more_next: must be true or false"),
        ({"one_more_next": True, "one_more": True}, r"VS-MORE-3"),
        ({"one_more_next": True, "step": "react-declaration"}, r"VS-MORE-3"),
    ]
    for bad, words in bad_fields:
        with pytest.raises(ConfigError, match=words):
            G.position({**window, **bad})
