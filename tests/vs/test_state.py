"""Actions, ids, JSON, clones, views and determinization."""

from __future__ import annotations

import copy
import json
import random

import pytest

from tests.vs.helpers import position, random_position
from velvet.engine.errors import IllegalActionError, InvalidActionError, RecordError
from velvet.engine.rng import Rng
from velvet.vs import actions as A
from velvet.vs.game import load_vs_game

G = load_vs_game()


play = random_position


def test_every_action_text_and_id_round_trips() -> None:
    texts = G.action_ids()
    assert len(set(texts)) == len(texts)
    for i, text in enumerate(texts):
        action = G.action_from_id(i)
        assert str(action) == text
        assert G.parse_action(text) == action
        assert G.action_to_id(action) == i
        assert eval(repr(action), vars(A)) == action


@pytest.mark.parametrize(
    "text", ["", "summon", "fuse 002 x1", "skill m 001 z", "target p3 m", "hop", "summon 999"]
)
def test_garbled_actions_are_invalid(text: str) -> None:
    with pytest.raises(InvalidActionError):
        G.parse_action(text)


def test_action_ids_errors() -> None:
    with pytest.raises(InvalidActionError):
        G.action_from_id(len(G.action_ids()))
    with pytest.raises(InvalidActionError):
        G.action_to_id(A.Summon("999"))


def test_illegal_action_names_rule_and_changes_nothing() -> None:
    # rule: VS-TURN-1
    s = position(hands=(["002"], []), fields=((["001"], (), ()), ((), (), ())))
    before = s.canonical()
    with pytest.raises(IllegalActionError) as info:
        s.apply(A.Pass())
    assert info.value.rule_id.startswith("VS-") and s.canonical() == before


def test_json_round_trip_and_size() -> None:
    for seed in range(30):
        s = play(seed, seed * 7)
        data = json.loads(json.dumps(s.to_json()))
        back = G.state_from_json(data)
        assert back.canonical() == s.canonical()
        assert len(s.canonical()) < 10_000


def test_corrupt_json_is_a_record_error() -> None:
    data = play(1, 10).to_json()
    data["hand"] = [["999"], []]
    with pytest.raises(RecordError):
        G.state_from_json(data)
    with pytest.raises(RecordError):
        G.state_from_json({"turn": 0})
    with pytest.raises(RecordError):
        G.state_from_json([])


def test_clone_is_equal_and_independent() -> None:
    s = play(3, 40)
    c = s.clone()
    assert c.canonical() == s.canonical()
    before = s.canonical()
    c.apply_unchecked(c.legal_actions()[-1])
    assert s.canonical() == before
    assert copy.deepcopy(s).canonical() == before


def test_same_seed_same_actions_same_state() -> None:
    for seed in (5, 6):
        a, b = play(seed, 300), play(seed, 300)
        assert a.canonical() == b.canonical()


def test_view_shows_own_hand_and_public_zones_only() -> None:
    s = play(4, 30)
    for p in (0, 1):
        v = s.view(p)
        json.dumps(v)
        assert v["hand"] == [G.ids[c] for c in s.hand[p]]
        assert v["hand_sizes"] == [len(h) for h in s.hand]
        assert v["deck_sizes"] == [len(d) for d in s.deck]
        assert "deck" not in v and "rng" not in v
        assert v["field"] == [[[G.ids[c] for c in st] for st in f] for f in s.field]


def test_views_ignore_hidden_changes() -> None:
    for seed in range(20):
        s = play(seed, seed * 5 + 3)
        for viewer in (0, 1):
            other = s.clone()
            o = 1 - viewer
            pool = other.hand[o] + other.deck[o]
            random.Random(seed).shuffle(pool)
            k = len(other.hand[o])
            other.hand[o], other.deck[o] = pool[:k], pool[k:]
            random.Random(seed + 1).shuffle(other.deck[viewer])
            other.rng = Rng(seed + 99)
            assert other.view(viewer) == s.view(viewer)


def test_determinize_is_consistent_with_the_view() -> None:
    for seed in range(25):
        s = play(seed, seed * 6)
        for p in (0, 1):
            d = G.determinize(s.view(p), p, Rng(seed))
            assert d.view(p) == s.view(p)
            for q in (0, 1):
                assert d.zones(q) == s.zones(q)
            if not s.is_terminal():
                assert [str(a) for a in d.legal_actions()] == [
                    str(a) for a in s.legal_actions()
                ] or d.current_player != p


def test_determinize_samples_hidden_cards() -> None:
    s = play(2, 0)
    with pytest.raises(RecordError):
        G.determinize(s.view(1), 0, Rng(1))
    hands = {tuple(sorted(G.determinize(s.view(0), 0, Rng(i)).hand[1])) for i in range(10)}
    assert len(hands) > 1
