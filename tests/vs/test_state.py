"""Actions, ids, JSON, clones, views and determinization."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from tests.vs.helpers import position, random_position
from velvet.engine.errors import ConfigError, IllegalActionError, InvalidActionError, RecordError
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


def custom_config(open_lists: bool | None = None) -> dict:  # type: ignore[type-arg]
    """Built-in decks with one card changed each: custom decks, private unless opened."""
    cfg = G.default_config("p5", "p4")
    for player, (out, into) in zip(cfg["players"], (("002", "003"), ("032", "001")), strict=True):
        player["deck"].remove(out)
        player["deck"].append(into)
    if open_lists is not None:
        cfg["open_decklists"] = open_lists
    return cfg


def test_a_custom_decklist_is_seen_by_its_owner_only() -> None:
    builtin = G.new_state(G.default_config("p5", "p4"), 3)
    assert all(builtin.view(0)["decklists"]) and builtin.open_lists == (True, True)
    s = G.new_state(custom_config(), 3)
    for p in (0, 1):
        view = s.view(p)
        assert view["decklists"][1 - p] is None
        assert view["decklists"][p] == [G.ids[c] for c in s.decklists[p]]
    opened = G.new_state(custom_config(True), 3)
    assert opened.view(0)["decklists"][1] == [G.ids[c] for c in opened.decklists[1]]
    with pytest.raises(ConfigError, match="open_decklists"):
        G.new_state(custom_config(1), 3)  # type: ignore[arg-type]


def test_determinize_samples_a_private_deck_from_the_card_pool() -> None:
    s = G.new_state(custom_config(), 5)
    r = random.Random(5)
    for _ in range(30):
        legal = s.legal_actions()
        s.apply(legal[r.randrange(len(legal))])
    me = s.current_player if s.current_player in (0, 1) else 0
    rival = 1 - me
    samples = [G.determinize(s.view(me), me, Rng(i)) for i in range(12)]
    for d in samples:
        assert d.view(me) == s.view(me)
        zones = d.zones(rival)
        assert sum(zones.values()) == 40 and zones == Counter(d.decklists[rival])
        starter = G.index[G.players[s.pcs[rival]].starter]
        assert zones[starter] >= 1  # the rival's VS starter is in every guess
        names = Counter(G.name_of[c] for c in zones.elements())
        assert max(names.values()) <= 2  # VS-DECK-1
    # The guesses differ and use cards the rival's real deck does not hold.
    real = set(s.decklists[rival])
    assert len({tuple(sorted(d.hand[rival] + d.deck[rival])) for d in samples}) > 1
    assert any(set(d.decklists[rival]) - real for d in samples)


def test_the_public_view_shows_no_hand_and_no_private_decklist() -> None:
    # Principle 4: a spectator holds no seat, so sees neither hand nor a custom decklist.
    s = G.new_state(custom_config(), 3)
    public = s.public_view()
    assert public["viewer"] is None and public["hand"] == []
    assert public["decklists"] == [None, None]
    assert public["hand_sizes"] == s.view(0)["hand_sizes"]
    for p in (0, 1):  # nothing a seat keeps to itself is in it
        guess = G.determinize(s.view(p), p, Rng(9))
        assert guess.public_view() == public
    opened = G.new_state(custom_config(True), 3)
    assert opened.public_view()["decklists"] == opened.view(0)["decklists"]


def test_reveals_since_tells_draws_and_chance_from_open_moves() -> None:
    # What undo may take back: an open move, not a card drawn or a shuffle.
    s = G.new_state(G.default_config("p5", "p4"), 3)
    before = s.clone()
    summon = next(a for a in s.legal_actions() if str(a).startswith("summon"))
    s.apply(summon)
    assert not s.reveals_since(before)
    while s.deck[1] == before.deck[1] and not s.is_terminal():  # to the next draw
        s.apply(s.legal_actions()[0])
    assert s.reveals_since(before)
