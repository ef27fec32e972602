"""The engine contract: actions, ids, JSON, clones, views, determinize, errors, card files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.p5.helpers import make, play
from velvet.engine.errors import (
    CardDataError,
    ConfigError,
    IllegalActionError,
    InvalidActionError,
    RecordError,
)
from velvet.engine.rng import Rng
from velvet.p5 import actions as A
from velvet.p5.cards import card_list_markdown, card_rows, check_card_files
from velvet.p5.game import P5Game, load_p5_game
from velvet.p5.state import P5State


def random_game(game: P5Game, seed: int, players: int = 1) -> tuple[P5State, list[str]]:
    config = game.default_config(players)
    config["players"][0]["persona"] = "arsene"
    state = game.new_state(config, seed)
    rng = Rng(seed + 99)
    moves: list[str] = []
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[rng.randbelow(len(legal))]
        moves.append(str(action))
        state.apply_unchecked(action)
    return state, moves


def test_every_action_round_trips(game: P5Game) -> None:
    namespace = {name: getattr(A, name) for name in dir(A)}
    for i, text in enumerate(game.action_ids()):
        action = game.parse_action(text)
        assert str(action) == text
        assert game.action_to_id(action) == i and game.action_from_id(i) == action
        assert eval(repr(action), namespace) == action


@pytest.mark.parametrize(
    "text",
    [
        "",
        "fly home",
        "visit",
        "go p0",
        "hit gold @pixie",
        "assign stamina=x",
        "stat luck",
        "use",
        "visit Home!",
    ],
)
def test_garbled_text_is_invalid(game: P5Game, text: str) -> None:
    with pytest.raises(InvalidActionError):
        game.parse_action(text)


def test_unknown_action_ids(game: P5Game) -> None:
    with pytest.raises(InvalidActionError):
        game.action_from_id(len(game.action_ids()))
    with pytest.raises(InvalidActionError):
        game.action_to_id(A.Visit("nowhere"))


def test_json_round_trip_and_clone_during_play(game: P5Game) -> None:
    state = make(game, (("joker", "arsene"), ("noir", "goemon")))
    rng = Rng(5)
    while not state.is_terminal():
        data = json.loads(json.dumps(state.to_json()))
        back = game.state_from_json(data)
        assert back.canonical() == state.canonical() and back == state
        assert [str(a) for a in back.legal_actions()] == [str(a) for a in state.legal_actions()]
        twin = state.clone()
        legal = state.legal_actions()
        action = legal[rng.randbelow(len(legal))]
        state.apply_unchecked(action)
        assert twin.canonical() == back.canonical()  # the clone did not move


def test_same_seed_same_actions_same_state(game: P5Game) -> None:
    a, moves = random_game(game, 3)
    b = game.new_state(
        a.game.default_config(1) | {"players": [{"thief": "joker", "persona": "arsene"}]}, 3
    )
    for text in moves:
        play(b, text)
    assert a.canonical() == b.canonical()
    assert random_game(game, 3)[0].digest() == a.digest()


def test_illegal_action_changes_nothing(game: P5Game) -> None:
    state = make(game)
    before = state.canonical()
    for text in ("palace", "hit stamina @boss", "end"):
        if text == "palace":
            play(state, "visit home")
            before = state.canonical()
            continue
        with pytest.raises(IllegalActionError) as info:
            play(state, text)
        assert info.value.rule_id.startswith("P5-")
        assert state.canonical() == before


def test_view_hides_decks_and_rng(game: P5Game) -> None:
    state = make(game, (("joker", "arsene"), ("noir", "goemon")))
    view = state.view(1)
    text = json.dumps(view)
    assert "rng" not in view and "shadow_deck" not in text and "loc_deck" not in text
    assert view["decks"] == {
        "locations": len(state.loc_deck),
        "confidants": len(state.conf_deck),
        "shadows": len(state.shadow_deck),
    }
    other = make(game, (("joker", "arsene"), ("noir", "goemon")), seed=1)
    other_view = other.view(1)
    assert set(view) == set(other_view)
    with pytest.raises(ConfigError):
        state.view(2)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_determinize_matches_the_view(game: P5Game, seed: int) -> None:
    state = make(game, (("joker", "arsene"), ("noir", "goemon")), seed=seed)
    rng = Rng(seed)
    for _ in range(40):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_unchecked(legal[rng.randbelow(len(legal))])
    for player in (0, 1):
        view = state.view(player)
        guess = game.determinize(view, player, Rng(7))
        assert guess.view(player) == view
        assert [str(a) for a in guess.legal_actions()] == [str(a) for a in state.legal_actions()]
        assert sorted(guess.shadow_deck) == sorted(state.shadow_deck)
        assert sorted(guess.conf_deck) == sorted(state.conf_deck)
        assert sorted(guess.loc_deck) == sorted(state.loc_deck)
        while not guess.is_terminal():  # and it plays on
            legal = guess.legal_actions()
            guess.apply_unchecked(legal[rng.randbelow(len(legal))])


@pytest.mark.parametrize(
    ("config", "words"),
    [
        (
            {"players": [{"thief": "kamoshida", "persona": "arsene"}], "palace": "kamoshida"},
            ["unknown thief", "joker"],
        ),
        (
            {"players": [{"thief": "joker", "persona": "pixie"}], "palace": "kamoshida"},
            ["unknown persona", "arsene"],
        ),
        (
            {"players": [{"thief": "joker", "persona": "arsene"}], "palace": "mementos"},
            ["unknown palace", "kamoshida"],
        ),
        ({"players": [], "palace": "kamoshida"}, ["1 or 2"]),
        (
            {"players": [{"thief": "joker", "persona": "arsene"}] * 3, "palace": "kamoshida"},
            ["1 or 2"],
        ),
        (
            {"players": [{"thief": "joker", "persona": "arsene"}] * 2, "palace": "kamoshida"},
            ["same Phantom Thief"],
        ),
        (
            {
                "players": [
                    {"thief": "joker", "persona": "zorro"},
                    {"thief": "skull", "persona": "zorro"},
                ],
                "palace": "kamoshida",
            },
            ["same persona", "P5-SETUP-11"],
        ),
    ],
)
def test_bad_config(game: P5Game, config: dict[str, object], words: list[str]) -> None:
    with pytest.raises(ConfigError) as info:
        game.new_state(config, 1)
    assert all(w in str(info.value) for w in words)


def test_choices_and_default_config(game: P5Game) -> None:
    choices = game.choices()
    assert ("joker", "Joker (Ren Amamiya)") in choices["thieves"]
    assert ("arsene", "Arsene") in choices["personas"] and len(choices["palaces"]) >= 5
    assert len(game.default_config(2)["players"]) == 2
    with pytest.raises(ConfigError):
        game.default_config(3)


@pytest.mark.parametrize("data", [None, {}, {"n": 1}, "x"])
def test_corrupt_state_json(game: P5Game, data: object) -> None:
    with pytest.raises(RecordError):
        game.state_from_json(data)


@pytest.mark.parametrize(
    ("toml", "ident", "words"),
    [
        (  # a set-up ability only gains tokens or raises stats (checked on load, by field)
            '[[thief]]\nid = "sophia"\nname = "Sophia"\n'
            "stats = { knowledge = 3, guts = 3, proficiency = 3, compassion = 3, charm = 3 }\n"
            'passive = { name = "Luck", trigger = "setup", effects = [{ op = "dice" }] }\n',
            "sophia",
            "set-up abilities may only gain or raise stats",
        ),
        (  # actions name abilities by key: a shadow may not share a thief's id
            '[[shadow]]\nid = "joker"\nname = "Joker Shade"\nhealth = { stamina = 1 }\n'
            'persona = { name = "Goo", trigger = "auto", amp = "ice" }\n',
            "joker",
            "ability key 'joker' is used twice",
        ),
    ],
)
def test_card_files_are_checked_on_load(tmp_path: Path, toml: str, ident: str, words: str) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(toml)
    for check in (check_card_files, load_p5_game):
        with pytest.raises(CardDataError) as info:
            check([bad])
        assert "bad.toml" in str(info.value) and ident in str(info.value)
        assert words in str(info.value)


def test_card_files(tmp_path: Path) -> None:
    extra = tmp_path / "extra.toml"
    extra.write_text(
        '[[thief]]\nid = "sophia"\nname = "Sophia"\n'
        "stats = { knowledge = 3, guts = 3, proficiency = 3, compassion = 3, charm = 3 }\n"
        'passive = { name = "Friend", trigger = "auto", check_bonus = { charm = 1 } }\n'
    )
    game = load_p5_game([extra])
    assert "sophia" in game.thief_index and "joker" in game.thief_index
    assert "ok:" in check_card_files([extra])
    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[[shadow]]\nid = "slime"\nname = "Slime"\nhealth = { stamina = 1 }\n'
        'persona = { name = "Goo", trigger = "auto", amp = "ice" }\ncolour = "green"\n'
    )
    with pytest.raises(CardDataError) as info:
        check_card_files([bad])
    assert "bad.toml" in str(info.value) and "slime" in str(info.value)
    assert "colour" in str(info.value)
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('[[location]]\nid = "pit"\nname = "Pit"\neffects = [{ op = "gain" }]\n')
    with pytest.raises(CardDataError) as info:
        load_p5_game([wrong])
    assert "pit" in str(info.value) and "amount" in str(info.value)
    replace = tmp_path / "replace.toml"
    replace.write_text('[set]\nmode = "replace"\n')
    with pytest.raises(CardDataError):
        load_p5_game([replace])


def test_card_listing(game: P5Game) -> None:
    rows = card_rows(game)
    assert ("thief", "noir") in [(r[0], r[1]) for r in rows]
    text = card_list_markdown(game)
    assert "Fully Loaded" in text and "| `thoth` |" in text
    doc = Path(__file__).parents[2] / "docs" / "p5-cards.md"
    assert doc.read_text(encoding="utf-8") == text, "regenerate docs/p5-cards.md"


def test_keywords_on_cards(game: P5Game) -> None:
    text = " ".join(r[3] for r in card_rows(game))
    for word in (
        "Restore",
        "Spend",
        "Gain",
        "Pay",
        "ANY",
        "Dice",
        "1/Day",
        "1/Palace",
        "Auto",
        "On Palace Enter",
        "On Death",
        "Amp",
    ):
        assert word in text, word
    skill_types = {a.type for p in game.cards.personas for a in p.skills if a.type}
    assert len(skill_types) >= 8


def test_determinize_rejects_a_bad_view(game: P5Game) -> None:
    view = make(game).view(0)
    view["palace"]["id"] = "mementos"
    with pytest.raises(RecordError):
        game.determinize(view, 0, Rng(1))


def _in_fight(state: P5State) -> None:
    play(state, "palace")
    while state.dec:
        play(state, str(state.legal_actions()[0]))


def _past_the_last_day(state: P5State) -> None:
    state.day = 99
    play(state, "visit home")


@pytest.mark.parametrize(
    ("prepare", "text", "rule"),
    [
        (lambda s: None, "end", "P5-DAY-2"),
        (lambda s: None, "hit stamina @boss", "P5-PALACE-2"),
        (lambda s: None, "visit mementos", "P5-VISIT-1"),
        (lambda s: None, "first row:0", "P5-DAY-2"),
        (lambda s: None, "go p2", "P5-DAY-1"),
        (lambda s: None, "use nobody.nothing", "P5-COMBAT-3"),
        (_in_fight, "visit home", "P5-DAY-2"),
        (_in_fight, "hit stamina @thoth", "P5-COMBAT-1"),
        (lambda s: play(s, "discover"), "palace", "P5-DISCOVER-2"),
        (_past_the_last_day, "visit school", "P5-END-2"),
    ],
)
def test_illegal_actions_name_their_rule(
    game: P5Game, prepare: object, text: str, rule: str
) -> None:
    state = make(game, (("skull", "goemon"),))
    prepare(state)  # type: ignore[operator]
    before = state.canonical()
    with pytest.raises(IllegalActionError) as info:
        play(state, text)
    assert info.value.rule_id == rule and f"[{rule}]" in str(info.value)
    assert state.canonical() == before


def test_skill_types_are_game_data(tmp_path: Path, game: P5Game) -> None:
    assert game.skill_types == (
        "phys",
        "gun",
        "fire",
        "ice",
        "elec",
        "wind",
        "psy",
        "nuke",
        "bless",
        "curse",
    )
    odd = tmp_path / "odd.toml"
    odd.write_text(
        '[[shadow]]\nid = "slime"\nname = "Slime"\nweak = ["almighty"]\n'
        "health = { stamina = 1 }\n"
        'persona = { name = "Goo", trigger = "auto", amp = "ice" }\n'
    )
    with pytest.raises(CardDataError) as info:
        load_p5_game([odd])
    message = str(info.value)
    assert "odd.toml" in message and "slime" in message and "weak" in message
    assert "almighty" in message and "curse" in message


@pytest.mark.parametrize(
    ("card", "words"),
    [
        ("diner", ["Pay 1 Cash: (Restore 3 Stamina. Gain 1 Stamina)"]),  # both paid for
        ("jazz-club", ["Pay 1 Cash: (Charm check: +1 Charm. Restore 2 SP)"]),
        ("batting-cages", ["Spend 1 Stamina. +1 Guts"]),  # two separate effects
        ("kaneshiro", ["50%: - (reveals 3 shadows per player)"]),
        ("kamoshida", ["75%: Pay 1 Bullet (reveals 3 shadows per player)"]),
        ("madarame", ["reveals 1 shadow(s) per player)"]),
        ("futaba", ["25%: - /"]),
    ],
)
def test_card_text_says_what_the_data_does(game: P5Game, card: str, words: list[str]) -> None:
    # card text only (no rule is exercised here): what a cost pays for is visible on the
    # card, and a row that reveals more shadows says so
    text = {r[1]: r[3] for r in card_rows(game)}[card]
    assert all(w in text for w in words), text
