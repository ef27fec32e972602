"""A room's config from its request (``velvet.server.games.build_config``): every branch,
the configs it builds and the errors it gives, so the games' own parts stay as they were."""

from __future__ import annotations

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
from velvet.engine.spec import Upload
from velvet.games import get_game, get_spec
from velvet.p5.game import load_p5_game
from velvet.server.games import build_config, players_of
from velvet.server.protocol import CreateRoom

DECKS = Path(__file__).parents[2] / "src/velvet/vs/data/decks"
P5 = load_p5_game(())
VS = get_game("vs")


def room(game: str, **fields: Any) -> CreateRoom:
    return CreateRoom(game=game, **fields)


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


def test_a_p5_room_takes_thieves_personas_and_the_palace_per_seat() -> None:
    assert build_config(P5, room("p5")) == P5.default_config(1)
    config = build_config(
        P5,
        room("p5", players=2, thieves=["skull"], personas=["arsene", "zorro"], palace="kamoshida"),
    )
    want = P5.default_config(2)
    want["players"][0]["thief"] = "skull"
    want["players"][0]["persona"] = "arsene"
    want["players"][1]["persona"] = "zorro"
    want["palace"] = "kamoshida"
    assert config == want
    assert build_config(P5, room("p5", first="2")) == P5.default_config(1)  # not a p5 option


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"seats": ["human", "random"], "players": 1}, "2 seats for 1 player(s)"),
        ({"thieves": ["joker", "skull"]}, "2 thief options for 1 player(s)"),
        ({"personas": ["arsene", "zorro"]}, "2 persona options for 1 player(s)"),
        (
            {"player_cards": ["p5"]},
            "player_cards, decks and second_draws are options of vs, not p5",
        ),
        ({"decks": [None]}, "player_cards, decks and second_draws are options of vs, not p5"),
        ({"second_draws": "1"}, "player_cards, decks and second_draws are options of vs, not p5"),
    ],
)
def test_a_p5_room_refuses_what_does_not_fit(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        build_config(P5, room("p5", **fields))
    assert str(info.value) == message


def test_a_vs_room_builds_the_config_the_cli_builds() -> None:
    spec = get_spec("vs")
    assert build_config(VS, room("vs")) == spec.config_for(VS, 2)
    fields = {"player_cards": ["p4", "p3"], "first": "2", "second_draws": "2"}
    assert build_config(VS, room("vs", **fields)) == spec.config_for(
        VS, 2, {"player_card": ("p4", "p3"), "first": "2", "second_draws": "2"}
    )


def test_a_vs_room_plays_an_uploaded_deck_for_its_seat_only() -> None:
    deck = (DECKS / "p4.toml").read_text(encoding="utf-8")
    config = build_config(VS, room("vs", decks=[None, deck]))
    plain = get_spec("vs").config_for(VS, 2)
    assert config["players"][0] == plain["players"][0]
    assert config["players"][1]["player_card"] == plain["players"][1]["player_card"] == "p4"
    p4 = get_spec("vs").config_for(VS, 2, {"deck": ("p4",)})["players"][0]["deck"]
    assert sorted(config["players"][1]["deck"]) == sorted(p4)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"thieves": ["joker"]}, "thieves, personas and palace are options of p5, not vs"),
        ({"personas": ["arsene"]}, "thieves, personas and palace are options of p5, not vs"),
        ({"palace": "kamoshida"}, "thieves, personas and palace are options of p5, not vs"),
        ({"decks": ["not toml ["]}, "deck of seat 1: not valid TOML"),
        ({"decks": [None, "player_card = 'p5'\n"]}, "deck of seat 2"),
    ],
)
def test_a_vs_room_refuses_what_does_not_fit(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        build_config(VS, room("vs", **fields))
    assert str(info.value).startswith(message), str(info.value)
    assert "velvet-server-cards" not in str(info.value)  # the player's name, not the server's


def test_a_bad_vs_option_is_the_clis_error() -> None:
    game: Game[Any] = VS
    with pytest.raises(ConfigError) as info:
        build_config(game, room("vs", player_cards=["p9"]))
    with pytest.raises(ConfigError) as cli:
        get_spec("vs").config_for(game, 2, {"player_card": ("p9",)})
    assert str(info.value) == str(cli.value)


def _race_room(game: Game[Any], players: int, request: Mapping[str, Any], upload: Upload) -> Config:
    """A room hook of a game the server does not know: it reads a field and an upload."""
    with upload(request["decks"][0], "race", "the note") as path:
        note = path.read_text(encoding="utf-8")
        if note == "bad":
            raise ConfigError(f"{path}: a bad note")
    return {"note": f"{players} seats: {note}"}


RACE_WITH_HOOK = replace(RACE, room_config=_race_room)


@pytest.mark.parametrize("hooked", [False, True], ids=["no hook", "hook"])
def test_a_third_game_needs_no_server_edit(hooked: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = f"tests.server.test_room_config:{'RACE_WITH_HOOK' if hooked else 'RACE'}"
    monkeypatch.setitem(velvet.games.BUILTIN, "race", spec)
    fields: dict[str, Any] = {"game": "race", "seats": ["human"], "decks": ["hello"]}
    request = CreateRoom.model_construct(**fields)  # a game the protocol does not list
    assert players_of(request) == 2
    assert build_config(RaceGame(), request) == ({"note": "2 seats: hello"} if hooked else {})
    if hooked:
        bad = CreateRoom.model_construct(**{**fields, "decks": ["bad"]})
        with pytest.raises(ConfigError, match=r"^the note: a bad note$"):
            build_config(RaceGame(), bad)


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
