"""A P5 view says what is being decided, and determinize keeps every deck's cards."""

from __future__ import annotations

from collections import Counter

from tests.p5.helpers import make, position
from velvet.engine.rng import Rng
from velvet.p5.game import P5Game
from velvet.p5.state import OVER


def test_the_view_names_the_decision_and_the_end(game: P5Game) -> None:
    # rule: P5-DAY-2  on a turn, one action: the view says so and who takes it
    s = position(game)
    decision = s.view(0)["decision"]
    assert decision["kind"] == "main" and decision["player"] == 0
    # rule: P5-END-1  after the end nobody decides
    s.phase, s.result = OVER, 1
    decision = s.view(0)["decision"]
    assert decision["kind"] == "over" and decision["player"] is None
    assert "Victory" in decision["text"]


def test_determinize_keeps_the_cards_of_every_deck(game: P5Game) -> None:
    # rule: P5-SETUP-5  the confidant deck holds only those of the thieves' game
    for players in ((("joker", "arsene"),), (("skull", "zorro"), ("panther", "carmen"))):
        s = make(game, players, seed=3)
        for seed in range(3):
            d = game.determinize(s.view(0), 0, Rng(seed))
            for deck in ("loc_deck", "conf_deck", "shadow_deck"):
                assert Counter(getattr(d, deck)) == Counter(getattr(s, deck)), deck


def test_the_public_view_is_every_seats_view_without_a_seat(game: P5Game) -> None:
    # Principle 4: the co-operative game hides the same things from every seat.
    s = game.new_state(game.default_config(2), 4)
    public = s.public_view()
    assert public["me"] is None
    assert {**public, "me": 0} == s.view(0) and {**public, "me": 1} == s.view(1)
    assert game.determinize(s.view(0), 0, Rng(3)).public_view() == public


def test_reveals_since_tells_chance_and_hidden_cards_from_open_moves(game: P5Game) -> None:
    # What undo may take back: an open move, not a die roll or a card from a face-down deck.
    s = game.new_state(game.default_config(1), 4)
    before = s.clone()
    s.apply(game.parse_action("visit weapons-shop"))
    assert not s.reveals_since(before)
    s = before.clone()
    s.apply(game.parse_action("recruit school"))  # two stat checks: dice
    assert s.reveals_since(before)
    s = before.clone()
    s.apply(game.parse_action("discover"))  # a location and a confidant come off their decks
    assert s.reveals_since(before)
