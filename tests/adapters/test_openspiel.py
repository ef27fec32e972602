"""OpenSpiel games: OpenSpiel's own random-simulation test, its MCTS and ISMCTS bots, chance."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import velvet.adapters.openspiel_game as osg
from velvet.adapters._engine import (
    ConfigError,
    Rng,
    dealer,
    default_config,
    load_game,
)
from velvet.adapters.encoding import encoder_for


@pytest.mark.parametrize(
    "name", ["python_velvet_vs", "python_velvet_p5", "python_velvet_p5(players=2)"]
)
def test_openspiel_random_simulation_test_passes_with_serialization(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def play(game: pyspiel.Game, bots: list[pyspiel.Bot | None], seed: int) -> pyspiel.State:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        bot = bots[state.current_player()]
        legal = state.legal_actions()
        action = bot.step(state) if bot is not None else int(rng.choice(legal))
        assert action in legal
        state.apply_action(action)
    return state


def deal(state: pyspiel.State, seed: int) -> list[int]:
    """Answer each chance node of the deal with what ``Rng(seed)`` draws for its range;
    the ranges, in order. Each node offers the outcomes 0 .. n-1 with probabilities summing to 1."""
    drawer = Rng(seed)
    bounds = []
    while state.velvet_state is None:
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert [k for k, _ in outcomes] == list(range(len(outcomes)))
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        bounds.append(len(outcomes))
        state.apply_action(drawer.randbelow(len(outcomes)))
    return bounds


def assert_same_position(got: Any, want: Any) -> None:
    """Two engine states are equal but for their RNGs (every later draw is a chance node)."""
    got_json, want_json = got.to_json(), want.to_json()
    del got_json["rng"], want_json["rng"]
    assert got_json == want_json


def advance(state: pyspiel.State, rng: np.random.RandomState, steps: int) -> None:
    """``steps`` random chance outcomes and moves from ``state``."""
    for _ in range(steps):
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_openspiel_mcts_plays_a_whole_p5_game() -> None:
    game = pyspiel.load_game("python_velvet_p5")
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, 2.0, 3, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = play(game, [bot], seed=1)
    assert state.returns()[0] in (-1.0, 1.0)


def test_openspiel_ismcts_plays_a_whole_vs_game() -> None:
    game = pyspiel.load_game("python_velvet_vs")
    rng = np.random.RandomState(2)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 3, random_state=rng)
    state = play(game, [bot, None], seed=2)
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_the_vs_deal_is_one_chance_node_per_draw_and_replays_the_engine_deal() -> None:
    # Answering each chance node of the deal with what Rng(seed) draws for that range
    # gives exactly the engine's own deal from that seed: the same draws, one by one.
    game = pyspiel.load_game("python_velvet_vs")
    velvet = load_game("vs")
    for seed in (0, 1234, 99):
        state = game.new_initial_state()
        bounds = deal(state, seed)
        # two shuffles of the 39 cards left after each starter, then who goes first
        assert bounds == [*range(39, 1, -1), *range(39, 1, -1), 2]
        assert max(bounds) <= game.max_chance_outcomes() == osg.MAX_DRAW
        # the state's own RNG is not used after the deal: every later draw is a chance node
        assert_same_position(state.velvet_state, velvet.new_state(default_config(velvet, 2), seed))


@pytest.mark.parametrize(
    "config",
    [
        {},
        {"first_player": 1},
        {"open_decklists": True},
        {"second_draws": 1},  # a dealer of its own once left this option out
    ],
)
def test_vs_dealer_is_new_state_with_the_rng_given(config: dict[str, object]) -> None:
    velvet = load_game("vs")
    full = {**default_config(velvet, 2), **config}
    deal = dealer(velvet, full)
    for seed in range(5):
        assert deal(Rng(seed)).to_json() == velvet.new_state(full, seed).to_json()


@pytest.mark.parametrize("players", [1, 2])
def test_the_p5_deal_is_one_chance_node_per_draw_and_replays_the_engine_deal(
    players: int,
) -> None:
    # As for VS: answering each chance node of the deal with what Rng(seed) draws for
    # that range gives exactly the engine's own P5 set-up from that seed.
    game = pyspiel.load_game(f"python_velvet_p5(players={players})")
    velvet: Any = load_game("p5")  # past the contract: its card tables, for the ranges
    config = default_config(velvet, players)
    for seed in (0, 1234, 99):
        state = game.new_initial_state()
        bounds = deal(state, seed)
        # three shuffles (P5-SETUP-2, -6, -7): the other locations, the confidants, the shadows
        locs = len(velvet.loc_other)
        shadows = len(velvet.cards.shadows)
        confs = len(bounds) - (locs - 1) - (shadows - 1) + 1
        assert bounds == [*range(locs, 1, -1), *range(confs, 1, -1), *range(shadows, 1, -1)]
        assert max(bounds) <= game.max_chance_outcomes() == osg.MAX_DRAW
        assert_same_position(state.velvet_state, velvet.new_state(config, seed))


@pytest.mark.parametrize("players", [1, 2])
def test_p5_dealer_is_new_state_with_the_rng_given(players: int) -> None:
    velvet = load_game("p5")
    config = default_config(velvet, players)
    deal = dealer(velvet, config)
    for seed in range(20):
        want = velvet.new_state(config, seed)
        got = deal(Rng(seed))
        assert got.to_json() == want.to_json()
        assert got.digest() == want.digest()


def test_p5_dealer_rejects_a_bad_config_up_front() -> None:
    velvet = load_game("p5")
    with pytest.raises(ConfigError, match="palace"):
        dealer(velvet, {**default_config(velvet, 2), "palace": "nowhere"})


def test_information_state_is_perfect_recall_of_the_seat_own_actions() -> None:
    game = pyspiel.load_game("python_velvet_vs")
    size = encoder_for(load_game("vs")).size
    assert game.observation_tensor_size() == size
    assert game.information_state_tensor_size() == size + 1 + osg.OWN_ACTIONS
    rng = np.random.RandomState(6)
    state = game.new_initial_state()
    own: list[list[int]] = [[], []]
    while not state.is_terminal() and len(own[0]) < 30:
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
            continue
        player = state.current_player()
        action = int(rng.choice(state.legal_actions()))
        own[player].append(action)
        state.apply_action(action)
    assert own[0] and own[1]
    for player in (0, 1):
        tensor = np.asarray(state.information_state_tensor(player), np.float32)
        assert np.array_equal(tensor[:size], np.asarray(state.observation_tensor(player)))
        assert tensor[size] == 0.0  # no overflow
        history = tensor[size + 1 :]
        ids = np.rint(history[: len(own[player])] * game.num_distinct_actions() - 1)
        assert ids.astype(int).tolist() == own[player]
        assert not history[len(own[player]) :].any()
        text = json.loads(state.information_state_string(player))
        assert text["own_actions"] == own[player]
        assert text["view"] == json.loads(state.observation_string(player))
    # the same position reached by other own actions is another information state
    other = state.clone()
    other._m.own[0][0] = (own[0][0] + 1) % game.num_distinct_actions()
    assert other.information_state_string(0) != state.information_state_string(0)
    assert other.information_state_tensor(0) != state.information_state_tensor(0)
    assert other.observation_tensor(0) == state.observation_tensor(0)


def test_every_later_draw_is_a_uniform_chance_node_that_decides_the_outcome() -> None:
    game = pyspiel.load_game("python_velvet_p5")
    rng = np.random.RandomState(3)
    for seed in range(40):
        state = game.new_initial_state()
        deal(state, seed)
        while not state.is_terminal() and not state.is_chance_node():
            state.apply_action(int(rng.choice(state.legal_actions())))
        if state.is_terminal():
            continue
        outcomes = state.chance_outcomes()
        assert all(p == pytest.approx(1.0 / len(outcomes)) for _, p in outcomes)
        results = set()
        for k, _ in outcomes:
            branch = state.clone()
            branch.apply_action(k)
            while branch.is_chance_node():  # any later draws of the same action: outcome 0
                branch.apply_action(0)
            results.add(str(branch))
        assert len(results) > 1  # the chance outcome, not a hidden RNG, decides the draw
        return
    pytest.fail("no chance node after the deal in 40 random P5 games")


@pytest.mark.parametrize("name", ["python_velvet_p5", "python_velvet_vs"])
def test_chance_nodes_replay_the_engine_game_draw_for_draw(name: str) -> None:
    # Answer each chance node with what the engine's own RNG draws for that range, and
    # play the same moves in both: the games stay identical to the end. So every draw
    # (dice, each swap of a shuffle, random discards) is a chance node of the right range.
    game = pyspiel.load_game(name)
    velvet = load_game("vs" if "vs" in name else "p5")
    for seed in range(3):
        rng = np.random.RandomState(seed)
        state = game.new_initial_state()
        engine = velvet.new_state(default_config(velvet, game.num_players()), seed)
        mirror = Rng(seed)  # the deal's draws too are chance nodes
        draws = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(mirror.randbelow(len(state.chance_outcomes())))
                draws += 1
                continue
            action = int(rng.choice(state.legal_actions()))
            engine.apply(velvet.action_from_id(action))
            state.apply_action(action)
        assert engine.is_terminal()
        assert_same_position(state.velvet_state, engine)
        assert draws > 0


def test_serialization_round_trips_mid_game() -> None:
    game = pyspiel.load_game("python_velvet_vs")
    rng = np.random.RandomState(4)
    state = game.new_initial_state()
    advance(state, rng, 140)  # the deal is 77 chance nodes, then about 60 moves
    assert state.velvet_state is not None and state.information_state_string(0)
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state)
    assert again.history() == state.history()
    assert again.legal_actions() == state.legal_actions()
    for player in (0, 1):  # the own-action histories came along
        assert again.information_state_tensor(player) == state.information_state_tensor(player)


def test_resample_from_infostate_keeps_the_seat_information_state() -> None:
    game = pyspiel.load_game("python_velvet_vs")
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    advance(state, rng, 130)  # the deal is 77 chance nodes, then about 50 moves
    while state.is_chance_node():
        state.apply_action(0)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = set()
    for _ in range(5):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
        others.add(sample.information_state_string(1 - player))
    assert len(others) > 1  # the other seat's hidden cards were really resampled
