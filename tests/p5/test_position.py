"""Positions by name: ``P5Game.position`` builds what it is told, or names what is wrong."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.p5.helpers import play, position, rem, texts, total_tokens
from velvet.engine.errors import ConfigError
from velvet.p5.game import P5Game
from velvet.p5.state import FIGHT, IN_PALACE, P5State

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "positions" / "p5-example.toml"


def test_the_documented_example_builds_and_plays(game: P5Game) -> None:
    spec = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    s = game.position(spec)
    assert isinstance(s, P5State)
    assert s.day == 12 and s.alert == 1 and s.loc[0] == game.loc_index["school"]
    assert rem(s, "pixie") == {"stamina": 2} and rem(s, "jack-frost") == {"sp": 2, "bullet": 1}
    assert [game.cards.shadows[x].id for x in s.party[0]] == ["thoth", "kelpie"]
    assert s.grants[0] == [[2, 0, 0, 0], [0, 0, 0, 0]]
    assert total_tokens(s) == list(game.supply0)  # the supply holds the rest
    assert [game.cards.shadows[x].id for x in reversed(s.shadow_deck)] == [
        "agathion",
        "mandrake",
        "kodama",
    ]
    play(s, "palace")  # the 25% row and the revealed shadows: a decision of order
    assert s.phase == FIGHT and s.loc[0] == IN_PALACE and texts(s)[0].startswith("first")
    view = s.view(0)
    assert game.determinize(view, 0, s.rng.clone()).view(0) == view


def test_scripted_dice_come_in_order(game: P5Game) -> None:
    s = position(game, dice=[6, 1])
    events = play(s, "visit school")  # Gain 1 Cash, then a Knowledge check (2 dice)
    check = next(e for e in events if e.kind == "check")
    assert check.data["dice"] == [6, 1] and check.data["success"] is True


def test_decks_not_listed_are_shuffled_by_the_seed(game: P5Game) -> None:
    a, b, c = (position(game, seed=x) for x in (1, 1, 2))
    assert a.canonical() == b.canonical() and a.shadow_deck != c.shadow_deck
    assert len(a.rev) == 2 and len(a.loc_conf) == 5


BAD: list[tuple[dict[str, Any], str]] = [
    ({"palace": "atlantis"}, "position: unknown palace 'atlantis'"),
    ({"players": []}, "position: players: List should have at least 1 item"),
    ({"colour": "red"}, "position: colour: Extra inputs are not permitted"),
    ({"alert": 30}, "position: alert: Input should be 0, 25, 50, 75 or 100"),
    ({"day": 29}, "position: day: the calendar has 28 days"),
    ({"turn": 2}, "position: turn: there are 1 player(s)"),
    ({"dice": [7]}, "position: dice.0: a die face is 1..6"),
    ({"phase": "fight"}, "position: phase: a fight needs the player in turn at location"),
    ({"boss": {}}, "position: boss: the boss is only in play at 100% alert"),
    ({"shadows": [{"id": "nemo"}]}, "position: shadows.0.id: unknown 'nemo'"),
    (
        {"shadows": [{"id": "pixie", "damage": {"stamina": 2, "sp": 1}}]},
        "position: shadows.0.damage: every requirement is met",
    ),
    (
        {"shadows": [{"id": "pixie", "damage": {"bullet": 1}}]},
        "position: shadows.0.damage.bullet: more than the requirement (0)",
    ),
    (
        {"shadows": [{"id": "pixie"}], "shadow_deck": ["pixie"]},
        "position: shadow_deck.0: 'pixie' is already placed at shadows.0",
    ),
    (
        {"locations": [{"id": "home", "confidant": "igor"}]},
        "position: locations.0.confidant: 'igor' left the game at set-up (P5-SETUP-5)",
    ),
    (
        {"location_deck": ["home"]},
        "position: location_deck.0: that location is already on the table",
    ),
]

BAD_PLAYER: list[tuple[dict[str, Any], str]] = [
    ({"thief": "nobody"}, "position: player 1: unknown thief 'nobody'"),
    ({"fresh": {"stamina": -1}}, "players.0.fresh.stamina: Input should be greater than"),
    ({"fresh": {"stamina": 99}}, "players: the players hold more stamina than the supply has"),
    ({"spent": {"cash": 1}}, "players.0.spent.cash: Cash has one side"),
    ({"stats": {"guts": 9}}, "players.0.stats.guts: must be 0..6"),
    ({"location": "moon"}, "players.0.location: unknown 'moon'"),
    ({"held": ["pixie"]}, "players.0.held: only a persona-party persona (Arsene) holds"),
    ({"confidants": ["ann", "ann"]}, "players.0.confidants.1: confidant 'ann' is listed twice"),
    ({"used_day": ["goemon.bufu"]}, "players.0.used_day.0: 'goemon.bufu' is not a 1/Day"),
    ({"went": True}, "players: every player has gone today"),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_a_bad_position_names_its_field(game: P5Game, change: dict[str, Any], message: str) -> None:
    spec = {"palace": "kamoshida", "players": [{"thief": "joker", "persona": "goemon"}], **change}
    with pytest.raises(ConfigError) as info:
        game.position(spec)
    assert message in str(info.value)


@pytest.mark.parametrize(("change", "message"), BAD_PLAYER)
def test_a_bad_player_names_its_field(game: P5Game, change: dict[str, Any], message: str) -> None:
    player = {"thief": "joker", "persona": "goemon", **change}
    with pytest.raises(ConfigError) as info:
        game.position({"palace": "kamoshida", "players": [player]})
    assert message in str(info.value)


def test_arsene_party_rules_are_checked(game: P5Game) -> None:
    base = {
        "thief": "joker",
        "persona": "arsene",
        "held": ["pixie", "kelpie", "silky", "thoth", "eligor"],
    }
    cases = [
        ({"party": ["bicorn"]}, "players.0.party.0: 'bicorn' is not held"),
        ({"party": ["pixie", "kelpie", "silky", "eligor"]}, "players.0.party: holds at most 3"),
        ({"party": ["thoth"]}, "players.0.party: the party gives 2 stamina (P5-ARSENE-2)"),
    ]
    for change, message in cases:
        with pytest.raises(ConfigError) as info:
            game.position({"palace": "kamoshida", "players": [{**base, **change}]})
        assert message in str(info.value)
    ok = game.position(
        {"palace": "kamoshida", "players": [{**base, "party": ["thoth"], "spent": {"stamina": 2}}]}
    )
    assert ok.party[0] == [game.shadow_index["thoth"]]


def test_not_a_table(game: P5Game) -> None:
    with pytest.raises(ConfigError, match="expected a table"):
        game.position(["palace"])  # type: ignore[arg-type]
