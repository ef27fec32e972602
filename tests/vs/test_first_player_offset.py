"""The first-player offset: a Velvet option giving the second player extra set-up cards."""

from __future__ import annotations

from typing import Any

import pytest

from velvet.engine.errors import ConfigError
from velvet.games import get_spec
from velvet.vs.game import load_vs_game

G = load_vs_game()


def _config(second_draws: int | None, first: int | None) -> dict[str, Any]:
    config = G.default_config("p5", "p4")
    config["first_player"] = first
    if second_draws is not None:
        config["second_draws"] = second_draws
    return config


@pytest.mark.parametrize("first", [0, 1])
@pytest.mark.parametrize("extra", [1, 2])
def test_the_second_player_draws_the_extra_cards_after_the_first_is_decided(
    first: int, extra: int
) -> None:
    # rule: VS-SETUP-2
    for seed in range(3):
        plain = G.new_state(_config(None, first), seed)
        s = G.new_state(_config(extra, first), seed)
        second = 1 - first
        assert len(s.hand[first]) == 5 and s.hand[first] == plain.hand[first]
        assert s.deck[first] == plain.deck[first]
        # the same shuffle: the extra cards are the next ones off the top of that deck
        taken = plain.deck[second][len(plain.deck[second]) - extra :][::-1]
        assert s.hand[second] == plain.hand[second] + taken
        assert len(s.deck[second]) == 35 - extra
        assert s.turn == first and s.hp == [30, 30]


def test_off_by_default_and_zero_is_the_plain_game() -> None:
    for seed in range(5):
        plain = G.new_state(_config(None, None), seed)
        assert [len(h) for h in plain.hand] == [5, 5]
        assert G.new_state(_config(0, None), seed).canonical() == plain.canonical()


def test_a_random_first_player_is_offset_too() -> None:
    for seed in range(10):
        s = G.new_state(_config(1, None), seed)
        assert len(s.hand[s.turn]) == 5 and len(s.hand[1 - s.turn]) == 6


@pytest.mark.parametrize("bad", [-1, 3, True, "1", 1.0, None])
def test_a_bad_offset_is_a_config_error_naming_the_key(bad: object) -> None:
    with pytest.raises(ConfigError, match=r"'second_draws'.*must be 0 to 2"):
        G.new_state(_config(None, 0) | {"second_draws": bad}, 1)


def test_the_option_reaches_the_config_from_the_cli_and_server_names() -> None:
    spec = get_spec("vs")
    assert "second_draws" in {o.name for o in spec.options}
    assert spec.config_for(G, 2, {"second_draws": "1"})["second_draws"] == 1
    assert "second_draws" not in spec.config_for(G, 2, {"second_draws": "0"})
    assert "second_draws" not in spec.config_for(G, 2, {})
    with pytest.raises(ConfigError, match="--second-draws must be 0, 1 or 2"):
        spec.config_for(G, 2, {"second_draws": "5"})


def test_an_offset_game_plays_to_the_end_and_round_trips() -> None:
    from velvet.engine.rng import Rng

    s = G.new_state(_config(2, 1), 4)
    rng = Rng(9)
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply(legal[rng.randbelow(len(legal))])
    again = G.state_from_json(s.to_json())
    assert again.canonical() == s.canonical()


def test_a_server_room_takes_the_option_for_vs_only() -> None:
    from velvet.server.games import build_config
    from velvet.server.protocol import CreateRoom

    config = build_config(G, CreateRoom(game="vs", options={"second_draws": "1"}))
    assert config["second_draws"] == 1
    assert build_config(G, CreateRoom(game="vs", second_draws="1")) == config  # the old field
    assert "second_draws" not in build_config(G, CreateRoom(game="vs"))
    with pytest.raises(ConfigError, match="game 'p5' has no option --second_draws") as refused:
        build_config(get_spec("p5").load(()), CreateRoom(game="p5", second_draws="2"))
    assert refused.value.option == "second_draws"
