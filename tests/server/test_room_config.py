"""A room's config from its request (``velvet.server.games.build_config``): the game's
``options`` by ConfigOption name, checked by the call ``velvet play`` makes
(``GameSpec.config_for``), the old flat fields mapped into them, uploads as an option kind,
errors naming their option and seat, and a toy game's options carried with no edit."""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from tests.engine.toygame import SPEC as RACE
from tests.engine.toygame import RaceGame

import velvet.games
from velvet.engine.core import Config, Game
from velvet.engine.errors import ConfigError
from velvet.engine.spec import ConfigOption
from velvet.games import get_game, get_spec
from velvet.p5.game import load_p5_game
from velvet.server.games import build_config, catalog, players_of
from velvet.server.protocol import CreateRoom, FileText, GameInfo

DECKS = Path(__file__).parents[2] / "src/velvet/vs/data/decks"
P5 = load_p5_game(())
VS = get_game("vs")


def room(game: str, **fields: Any) -> CreateRoom:
    return CreateRoom(game=game, **fields)


def refusal(game: Game[Any], request: CreateRoom) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        build_config(game, request)
    return info.value


@pytest.mark.parametrize(
    ("game", "fields", "players"),
    [
        ("p5", {}, 1),
        ("p5", {"seats": ["human", "random"]}, 2),
        ("p5", {"players": 2}, 2),
        ("p5", {"players": 2, "seats": ["greedy"]}, 2),
        ("vs", {}, 2),
        ("vs", {"players": 1}, 2),
        ("vs", {"seats": ["random"]}, 2),
    ],
)
def test_the_seat_count_comes_from_the_request_or_the_game(
    game: str, fields: dict[str, Any], players: int
) -> None:
    assert players_of(room(game, **fields)) == players


def test_a_p5_room_takes_its_options_by_name_as_the_cli_does() -> None:
    assert build_config(P5, room("p5")) == P5.default_config(1)
    options = {"thief": ["skull"], "persona": ["arsene", "zorro"], "palace": "kamoshida"}
    config = build_config(P5, room("p5", players=2, options=options))
    cli = get_spec("p5").config_for(
        P5, 2, {"thief": ("skull",), "persona": ("arsene", "zorro"), "palace": "kamoshida"}
    )
    assert config == cli
    assert config["players"][0]["thief"] == "skull"
    assert config["players"][1]["persona"] == "zorro"
    assert config["palace"] == "kamoshida"


def test_a_seat_left_at_its_default_is_null() -> None:
    config = build_config(P5, room("p5", players=2, options={"thief": [None, "noir"]}))
    default = P5.default_config(2)
    assert config["players"][0] == default["players"][0]
    assert config["players"][1]["thief"] == "noir"
    assert build_config(P5, room("p5", options={"thief": [None]})) == P5.default_config(1)


def test_the_old_flat_fields_are_still_taken_as_their_options() -> None:
    old = room("p5", players=2, thieves=["skull"], personas=["arsene", "zorro"], palace="futaba")
    new = room(
        "p5",
        players=2,
        options={"thief": ["skull"], "persona": ["arsene", "zorro"], "palace": "futaba"},
    )
    assert old.options == new.options
    assert build_config(P5, old) == build_config(P5, new)
    deck = (DECKS / "p4.toml").read_text(encoding="utf-8")
    vs = room("vs", player_cards=["p4"], decks=[None, deck], first="2", second_draws="1")
    assert vs.options == {
        "player_card": ["p4"],
        "deck": [None, FileText(text=deck)],
        "first": "2",
        "second_draws": "1",
    }
    with pytest.raises(ValidationError, match=r"thieves is options\.thief: give it once"):
        room("p5", thieves=["skull"], options={"thief": ["fox"]})


@pytest.mark.parametrize(
    ("fields", "message", "option", "seat"),
    [
        ({"seats": ["human", "random"], "players": 1}, "2 seats for 1 player(s)", "seats", None),
        (
            {"options": {"thief": ["joker", "skull"]}},
            "2 --thief options for 1 player(s)",
            "thief",
            None,
        ),
        (
            {"options": {"player_card": ["p5"]}},
            "game 'p5' has no option --player_card; its options: --thief, --persona, --palace",
            "player_card",
            None,
        ),
        ({"first": "2"}, "game 'p5' has no option --first", "first", None),
        (
            {"options": {"palace": ["kamoshida"]}},
            "option palace takes one value, not a list",
            "palace",
            None,
        ),
        (
            {"options": {"thief": "joker"}},
            "option thief takes a list, one value per seat",
            "thief",
            None,
        ),
        (
            {"options": {"palace": {"text": "x"}}},
            "palace: option palace takes a value, not a file",
            "palace",
            None,
        ),
    ],
)
def test_a_p5_room_refuses_what_does_not_fit(
    fields: dict[str, Any], message: str, option: str, seat: int | None
) -> None:
    error = refusal(P5, room("p5", **fields))
    assert str(error).startswith(message), str(error)
    assert (error.option, error.seat) == (option, seat)


def test_the_game_names_the_option_and_seat_of_a_bad_card() -> None:
    config = build_config(P5, room("p5", players=2, options={"thief": [None, "nobody"]}))
    with pytest.raises(ConfigError) as info:
        P5.new_state(config, 1)
    assert str(info.value).startswith("player 2: unknown thief 'nobody'")
    assert (info.value.option, info.value.seat) == ("thief", 1)
    same = build_config(P5, room("p5", players=2, options={"thief": ["fox", "fox"]}))
    with pytest.raises(ConfigError) as twice:
        P5.new_state(same, 1)
    assert (twice.value.option, twice.value.seat) == ("thief", 1)
    again = pickle.loads(pickle.dumps(info.value))  # a worker's error reaches its parent
    assert (str(again), again.option, again.seat) == (str(info.value), "thief", 1)


def test_a_vs_room_builds_the_config_the_cli_builds() -> None:
    spec = get_spec("vs")
    assert build_config(VS, room("vs")) == spec.config_for(VS, 2)
    options = {"player_card": ["p4", "p3"], "first": "2", "second_draws": "2"}
    assert build_config(VS, room("vs", options=options)) == spec.config_for(
        VS, 2, {"player_card": ("p4", "p3"), "first": "2", "second_draws": "2"}
    )
    builtin = build_config(VS, room("vs", options={"deck": [None, "p3"]}))  # a built-in deck
    assert builtin == spec.config_for(VS, 2, {"deck": (None, "p3")})
    assert builtin["players"][1]["player_card"] == "p3"


def test_a_vs_room_plays_an_uploaded_deck_for_its_seat_only() -> None:
    deck = (DECKS / "p4.toml").read_text(encoding="utf-8")
    config = build_config(VS, room("vs", options={"deck": [None, {"text": deck}]}))
    plain = get_spec("vs").config_for(VS, 2)
    assert config["players"][0] == plain["players"][0]
    assert config["players"][1]["player_card"] == plain["players"][1]["player_card"] == "p4"
    p4 = get_spec("vs").config_for(VS, 2, {"deck": ("p4",)})["players"][0]["deck"]
    assert sorted(config["players"][1]["deck"]) == sorted(p4)


@pytest.mark.parametrize(
    ("options", "message", "option", "seat"),
    [
        ({"deck": [{"text": "not toml ["}]}, "deck of seat 1: not valid TOML", "deck", 0),
        ({"deck": [None, {"text": "player_card = 'p5'\n"}]}, "deck of seat 2", "deck", 1),
        (  # never a path on the server
            {"deck": ["/etc/passwd"]},
            "deck of seat 1: send the file's text",
            "deck",
            0,
        ),
        ({"player_card": ["p5", "p9"]}, "unknown player card 'p9'", "player_card", 1),
        ({"first": "3"}, "first: choose 1, 2, random, not '3'", "first", None),
        ({"second_draws": "5"}, "second draws: choose 0, 1, 2, not '5'", "second_draws", None),
    ],
)
def test_a_vs_room_refuses_what_does_not_fit(
    options: dict[str, Any], message: str, option: str, seat: int | None
) -> None:
    error = refusal(VS, room("vs", options=options))
    assert str(error).startswith(message), str(error)
    assert "velvet-upload" not in str(error)  # the player's name for the file, not the server's
    assert (error.option, error.seat) == (option, seat)


def test_a_bad_vs_option_is_the_clis_error() -> None:
    game: Game[Any] = VS
    error = refusal(game, room("vs", options={"player_card": ["p9"]}))
    with pytest.raises(ConfigError) as cli:
        get_spec("vs").config_for(game, 2, {"player_card": ("p9",)})
    assert str(error) == str(cli.value)


def _race_config(game: Game[Any], seats: int, options: Mapping[str, Any]) -> Config:
    """A toy game's options the server has never heard of: a choice and an uploaded file."""
    note = options.get("note")
    if note is not None:
        text = Path(note).read_text(encoding="utf-8")
        if text == "bad":
            raise ConfigError(f"{note}: a bad note", "note")
        return {"note": f"{options.get('pace', 'slow')}: {text}"}
    return {"note": options.get("pace", "slow")}


RACE_WITH_OPTIONS = replace(
    RACE,
    make_config=_race_config,
    options=(
        ConfigOption("pace", "How fast.", choices=("slow", "fast"), default="slow"),
        ConfigOption("note", "A note file.", kind="path", metavar="FILE", label="note file"),
    ),
)


def test_a_third_games_new_option_reaches_the_room_with_no_server_edit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(
        velvet.games.BUILTIN, "race", "tests.server.test_room_config:RACE_WITH_OPTIONS"
    )
    game = RaceGame()
    request = CreateRoom(game="race", options={"pace": "fast", "note": {"text": "hello"}})
    assert players_of(request) == 2
    assert build_config(game, request) == {"note": "fast: hello"}
    assert build_config(game, CreateRoom(game="race")) == {"note": "slow"}
    bad = refusal(game, CreateRoom(game="race", options={"note": {"text": "bad"}}))
    assert (str(bad), bad.option) == ("note: a bad note", "note")
    wrong = refusal(game, CreateRoom(game="race", options={"pace": "warp"}))
    assert (str(wrong), wrong.option) == ("pace: choose slow, fast, not 'warp'", "pace")
    published = {g["name"]: g for g in catalog(lambda bot, name: None)}["race"]
    GameInfo.model_validate(published)
    assert published["players"] == [2] and published["board"] is None
    assert published["options"] == [
        {
            "name": "pace",
            "label": "pace",
            "help": "How fast.",
            "kind": "text",
            "multiple": False,
            "choices": [{"id": "slow", "name": "slow"}, {"id": "fast", "name": "fast"}],
            "default": "slow",
            "defaults": [],
        },
        {
            "name": "note",
            "label": "note file",
            "help": "A note file.",
            "kind": "path",
            "multiple": False,
            "choices": [],
            "default": None,
            "defaults": [],
        },
    ]


def test_the_catalog_publishes_each_games_options_bots_and_board() -> None:
    def no_expert(bot: str, name: str) -> None:
        if bot == "expert":
            raise ConfigError("beyond this server's limits")

    found = {g["name"]: g for g in catalog(no_expert)}
    assert list(found) == ["p5", "vs"]
    p5, vs = found["p5"], found["vs"]
    assert p5["bots"] == ["easy", "normal", "hard", "greedy", "random"]  # the server's check
    assert (p5["board"], p5["board_css"], p5["forecast"]) == ("p5.js", "p5.css", True)
    assert (vs["board"], vs["forecast"], vs["players"]) == ("vs.js", False, [2])
    thief = next(o for o in p5["options"] if o["name"] == "thief")
    assert [c["id"] for c in thief["choices"]] == [t for t, _ in P5.choices()["thieves"]]
    assert thief["defaults"] == [p["thief"] for p in P5.default_config(2)["players"]]
    assert [o["name"] for o in vs["options"]] == [o.name for o in get_spec("vs").options]
    first = next(o for o in vs["options"] if o["name"] == "first")
    assert first["choices"][-1] == {"id": "random", "name": "Random"}
    assert first["default"] == "random"


def test_a_room_request_takes_the_registrys_games_and_names_them_when_refusing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ValidationError) as refused:
        CreateRoom(game="race")
    assert refused.value.errors()[0]["msg"] == "unknown game 'race': choose p5, vs"
    monkeypatch.setitem(velvet.games.BUILTIN, "race", "tests.server.test_room_config:RACE")
    assert CreateRoom(game="race").game == "race"  # registered: taken, with no protocol edit
    assert CreateRoom.model_json_schema()["properties"]["game"]["enum"] == ["p5", "vs", "race"]
    with pytest.raises(ValidationError) as path:  # an import path is never taken from a request
        CreateRoom(game="tests.server.test_room_config:RACE")
    assert "unknown game 'tests.server.test_room_config:RACE'" in str(path.value)
