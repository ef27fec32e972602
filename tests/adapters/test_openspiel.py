"""OpenSpiel games: OpenSpiel's own random-simulation test, its MCTS and ISMCTS bots, chance."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import velvet.adapters.openspiel_game as osg
from velvet.adapters._engine import default_config, load_game


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


def test_the_deal_is_a_chance_node_whose_outcome_is_the_seed() -> None:
    game = pyspiel.load_game("python_velvet_vs")
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == osg.DEALS
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(1234)
    velvet = load_game("vs")
    want = velvet.new_state(default_config(velvet, 2), 1234)
    assert state.velvet_state is not None
    # the state's own RNG is not used after the deal: every later draw is a chance node
    assert state.velvet_state.view(0) == want.view(0)
    assert state.velvet_state.view(1) == want.view(1)


def test_every_later_draw_is_a_uniform_chance_node_that_decides_the_outcome() -> None:
    game = pyspiel.load_game("python_velvet_p5")
    rng = np.random.RandomState(3)
    for seed in range(40):
        state = game.new_initial_state()
        state.apply_action(seed)
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


def test_serialization_round_trips_mid_game() -> None:
    game = pyspiel.load_game("python_velvet_vs")
    rng = np.random.RandomState(4)
    state = game.new_initial_state()
    for _ in range(60):
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state)
    assert again.history() == state.history()
    assert again.legal_actions() == state.legal_actions()


def test_resample_from_infostate_keeps_the_seat_information_state() -> None:
    game = pyspiel.load_game("python_velvet_vs")
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    for _ in range(50):
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
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
