"""Words for front ends: action labels, event sentences, card descriptions."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.p5.helpers import play, position
from tests.p5.test_random_play import configs
from velvet.engine.core import Event
from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng
from velvet.p5.game import P5Game
from velvet.p5.state import P5State
from velvet.p5.words import card_ids

EVENT_KINDS = [
    "alert",
    "boss",
    "boss_defeated",
    "check",
    "damage",
    "day",
    "defeat",
    "dice",
    "draw_persona",
    "end_turn",
    "enter_effect",
    "enter_palace",
    "gain",
    "game_over",
    "ignored",
    "miss",
    "recruit",
    "recruit_failed",
    "restore",
    "reveal",
    "spend",
    "stat",
    "turn",
    "use",
    "visit",
    "discover",
    "draft",
    "party",
]


def _raw_ids(game: P5Game) -> re.Pattern[str]:
    """Any id that reads differently from its card's name, or an ability key."""
    cs = game.cards
    ids = {c.id for group in (cs.thieves, cs.shadows, cs.confidants, cs.locations) for c in group}
    ids |= {c.id for c in cs.personas} | {c.id for c in cs.palaces}
    ids |= {k for k in game.ab_key if "." in k}
    words = sorted((re.escape(x) for x in ids), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(words) + r")(?![\w-])|[@={}]")


@pytest.mark.parametrize("seed", range(6))
def test_every_legal_action_has_a_distinct_label_in_words(game: P5Game, seed: int) -> None:
    raw = _raw_ids(game)
    state = game.new_state(configs(game, seed), seed)
    assert isinstance(state, P5State)
    rng = Rng(seed * 7 + 1)
    positions = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        labels = [state.action_label(a) for a in legal]
        assert all(labels), legal
        assert len(set(labels)) == len(labels), labels
        for action, text in zip(legal, labels, strict=True):
            assert not raw.search(text), (str(action), text)
        positions += 1
        state.apply_unchecked(legal[rng.randbelow(len(legal))])
    assert positions > 50


def test_look_alike_actions_are_told_apart(game: P5Game) -> None:
    s = position(
        game,
        [{"thief": "joker", "persona": "arsene", "fresh": {"sp": 2}, "location": "palace"}],
        phase="fight",
        shadows=[{"id": "pixie"}, {"id": "bicorn"}],
    )
    labels = {str(a): s.action_label(a) for a in s.legal_actions()}
    assert labels["use arsene.eiha @pixie"] == "Use Eiha (Arsene) on Pixie, paying 1 SP"
    assert labels["use arsene.eiha @bicorn"] == "Use Eiha (Arsene) on Bicorn, paying 1 SP"
    assert labels["hit sp @pixie"] == "Spend 1 SP against Pixie's SP requirement"


def test_an_action_that_is_not_legal_still_reads(game: P5Game) -> None:
    s = position(game)
    assert s.action_label(game.parse_action("visit atlantis")) == "visit atlantis"
    assert s.action_label(game.parse_action("hit sp @pixie")).startswith("Spend 1 SP against")


def test_every_event_kind_has_a_sentence(game: P5Game) -> None:
    seen: dict[str, Event] = {}
    for seed in range(40):
        state = game.new_state(configs(game, seed), seed)
        rng = Rng(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            for event in state.apply_unchecked(legal[rng.randbelow(len(legal))]):
                seen.setdefault(event.kind, event)
                text = game.event_text(event)
                assert text.endswith(".") and text != str(event), (event, text)
                assert "player=" not in text and "Player 0" not in text
    missing = set(EVENT_KINDS) - set(seen)
    assert missing <= {"boss_defeated", "draw_persona", "boss", "miss"}, missing
    for kind in EVENT_KINDS:  # the rare ones, from their data
        if kind not in seen:
            rare: dict[str, dict[str, Any]] = {
                "boss_defeated": {"player": 1, "rule": "P5-END-1"},
                "draw_persona": {"player": 1, "shadow": "pixie"},
                "boss": {"name": "Asmodeus Kamoshida"},
                "miss": {"target": "pixie"},
            }
            data = rare[kind]
            text = game.event_text(Event(kind, data))
            assert text.endswith(".") and ("Player 2" in text or "player" not in data)


def test_damage_says_where_it_came_from(game: P5Game) -> None:
    # Bufu (2 Stamina) + Ice Amp (+1 Bullet) on Kelpie (1 Stamina + 2 Bullet): 1 Stamina lost
    s = position(
        game,
        [{"thief": "skull", "persona": "goemon", "fresh": {"sp": 1}, "location": "palace"}],
        phase="fight",
        shadows=[{"id": "kelpie"}, {"id": "bicorn"}],
    )
    events = play(s, "use goemon.bufu @kelpie")
    text = next(game.event_text(e) for e in events if e.kind == "damage")
    assert text == (
        "Bufu (Goemon) deals 2 Stamina; +1 Bullet from Amp; it meets 1 Stamina + 1 Bullet "
        "of Kelpie's requirements; 1 Stamina beyond them is lost."
    )
    # on a weak target every point becomes ANY: Agi (Fire) on Mandrake
    s = position(
        game,
        [{"thief": "skull", "persona": "carmen", "fresh": {"sp": 1}, "location": "palace"}],
        phase="fight",
        shadows=[{"id": "mandrake"}, {"id": "bicorn"}],
    )
    events = play(s, "use carmen.agi @mandrake")
    texts = [game.event_text(e) for e in events if e.kind == "damage"]
    assert "Mandrake is weak to it, so all" in texts[0] and "becomes ANY" in texts[0]


def test_every_card_describes(game: P5Game) -> None:
    ids = card_ids(game)
    cs = game.cards
    expected = (
        len(cs.thieves)
        + len(cs.personas)
        + len(cs.confidants)
        + len(cs.shadows)
        + 2 * len(cs.palaces)
        + len(cs.locations)
    )
    assert len(ids) == expected
    for ident in ids:
        info = game.describe_card(ident)
        assert info.kind == ident.split(":")[0] and info.name and info.lines, ident
        assert info.to_json()["data"], ident
    pixie = game.describe_card("pixie")
    assert pixie.lines[:2] == ("Weak to: Elec, Gun", "Health: 2 Stamina + 1 SP")
    arsene = game.describe_card("arsene")
    assert any("Eiha" in line for line in arsene.lines) and arsene.data["party"] is True
    boss = game.describe_card("boss:kamoshida")
    assert boss.name == "Asmodeus Kamoshida" and boss.data["palace"] == "kamoshida"


@pytest.mark.parametrize(
    ("ident", "message"),
    [
        ("futaba", "ambiguous: write one of confidant:futaba, palace:futaba"),
        ("nobody", "no card 'nobody'"),
        ("spell:pixie", "unknown card kind 'spell'"),
        ("palace:pixie", "no card 'palace:pixie'"),
    ],
)
def test_describe_card_errors(game: P5Game, ident: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        game.describe_card(ident)
