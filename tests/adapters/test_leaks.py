"""A seat's observation does not change when only another seat's hidden cards change.

Each test builds two states that differ only in what seat 1 hides (its hand and deck
order in VS; deck orders in P5), and checks every adapter's observation of seat 0
is identical, while seat 1's own observation does change (so a leak would show).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pyspiel

import velvet.adapters.openspiel_game  # noqa: F401  (registers the games)
from tests.adapters.conftest import mid_game, rebuilt
from velvet.adapters import pettingzoo_env as pz
from velvet.adapters._engine import State
from velvet.adapters.encoding import encoder_for
from velvet.adapters.gym_env import VelvetEnv


def swap_hidden_vs_card(state: State[Any]) -> State[Any]:
    """The same VS state with one card of seat 1's hand swapped for another from its deck."""
    data = copy.deepcopy(state.to_json())
    hand, deck = data["hand"][1], data["deck"][1]
    j = next(j for j, card in enumerate(deck) if card not in hand)
    hand[0], deck[j] = deck[j], hand[0]
    deck.reverse()
    return rebuilt(state, data)


def vs_pair() -> tuple[State[Any], State[Any]]:
    state = mid_game("vs", 2, seed=7, decisions=25, seat=0)
    assert not state.is_terminal() and state.current_player == 0
    return state, swap_hidden_vs_card(state)


def test_vs_encoder_sees_nothing_of_the_other_seats_hidden_cards() -> None:
    a, b = vs_pair()
    assert a.to_json()["hand"][1] != b.to_json()["hand"][1]
    encoder = encoder_for(a.game)
    assert np.array_equal(encoder.encode(a.view(0), 0), encoder.encode(b.view(0), 0))
    assert not np.array_equal(encoder.encode(a.view(1), 1), encoder.encode(b.view(1), 1))
    # the fast path, read from the state's fields, too
    assert np.array_equal(encoder.encode_state(a, 0), encoder.encode_state(b, 0))
    assert not np.array_equal(encoder.encode_state(a, 1), encoder.encode_state(b, 1))


def test_gymnasium_observation_of_seat_0_ignores_seat_1_hidden_cards() -> None:
    a, b = vs_pair()
    env = VelvetEnv("vs")
    env.reset(seed=0)
    env.restore(a)
    obs_a, _ = env.observe()
    env.restore(b)
    obs_b, _ = env.observe()
    assert np.array_equal(obs_a["observation"], obs_b["observation"])
    assert np.array_equal(obs_a["action_mask"], obs_b["action_mask"])


def test_pettingzoo_observation_of_seat_0_ignores_seat_1_hidden_cards() -> None:
    a, b = vs_pair()
    env = pz.vs_env()
    env.reset(seed=0)
    seen = []
    for state in (a, b):
        env.restore(state)
        seen.append((env.observe("player_0"), env.observe("player_1")))
    (a0, a1), (b0, b1) = seen
    assert np.array_equal(a0["observation"], b0["observation"])
    assert not np.array_equal(a1["observation"], b1["observation"])


def test_openspiel_tensors_and_strings_of_seat_0_ignore_seat_1_hidden_cards() -> None:
    a, b = vs_pair()
    game = pyspiel.load_game("python_velvet_vs")
    states = []
    for engine_state in (a, b):
        state = game.new_initial_state()
        while state.is_chance_node():  # the deal
            state.apply_action(0)
        state._m.state = engine_state.clone()
        states.append(state)
    sa, sb = states
    assert sa.observation_tensor(0) == sb.observation_tensor(0)
    assert sa.information_state_tensor(0) == sb.information_state_tensor(0)
    assert sa.information_state_string(0) == sb.information_state_string(0)
    assert sa.information_state_string(1) != sb.information_state_string(1)


def test_p5_observations_ignore_the_deck_orders() -> None:
    state = mid_game("p5", 2, seed=4, decisions=30)
    data = copy.deepcopy(state.to_json())
    for deck in ("loc_deck", "conf_deck", "shadow_deck"):
        data[deck].reverse()
    other = rebuilt(state, data)
    assert other.to_json() != state.to_json()
    encoder = encoder_for(state.game, 2)
    for seat in (0, 1):
        assert np.array_equal(
            encoder.encode(state.view(seat), seat), encoder.encode(other.view(seat), seat)
        )
        assert np.array_equal(encoder.encode_state(state, seat), encoder.encode_state(other, seat))
