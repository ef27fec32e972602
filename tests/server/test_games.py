"""The server's game wiring: what a spectator sees and which events are filtered."""

from __future__ import annotations

from velvet.engine.core import Event
from velvet.games import get_game
from velvet.server.games import event_for, public_view


def test_a_searched_card_is_named_only_to_its_player() -> None:
    game = get_game("vs")
    event = Event("search", {"player": 1, "card": "028"})
    kind, text, data = event_for(game, event, 1)
    assert data == {"player": 1, "card": "028"} and text == game.event_text(event)
    for seat in (0, None):
        kind, text, data = event_for(game, event, seat)
        assert kind == "search" and data == {"player": 1}
        assert "028" not in text and game.describe_card("028").name not in text
        assert text == "Player 2 takes a card from their deck into their hand."


def test_public_events_are_the_same_for_everyone() -> None:
    game = get_game("vs")
    event = Event("discard", {"player": 0, "card": "012"})
    assert event_for(game, event, 1) == event_for(game, event, None) == event_for(game, event, 0)


def test_a_spectator_sees_no_hand() -> None:
    from velvet.games import get_spec

    game = get_game("vs")
    state = game.new_state(get_spec("vs").config_for(game, 2, {"first": "1"}), 3)
    view = public_view(state)
    assert view["hand"] == [] and view["viewer"] is None
    assert view["hand_sizes"] == state.view(0)["hand_sizes"]
    p5 = get_game("p5")
    p5_state = p5.new_state(get_spec("p5").config_for(p5, 2), 3)
    assert public_view(p5_state)["me"] is None
