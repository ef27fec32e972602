"""A third game reaches every RL adapter through its spec alone (issue: one house).

The toy game DUEL (``tests.bots.velvet_toys:DUEL``) names its observation encoder and its
reward shaping in its ``GameSpec`` (``tests/adapters/duel_encoder.py``); nothing in
``velvet.adapters`` knows it. Gymnasium's checker, PettingZoo's API tests and OpenSpiel's
random-simulation test pass on it, and a game whose spec names no encoder is refused with
an error that says which facet is missing.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test

import velvet.adapters.openspiel_game as osg
from velvet.adapters._engine import ConfigError
from velvet.adapters.gym_env import VelvetEnv
from velvet.adapters.pettingzoo_env import VelvetAECEnv, VelvetParallelEnv
from velvet.adapters.vector_env import VelvetVectorEnv
from velvet.engine.rng import Rng

DUEL = "tests.bots.velvet_toys:DUEL"
RACE = "tests.bots.velvet_toys:RACE"


def test_gymnasium_plays_the_toy_game_by_its_spec() -> None:
    env = VelvetEnv(game=DUEL, opponent="greedy")
    assert env.players == 2  # the spec's seat count, not a default for one game
    check_env(env, skip_render_check=True)
    rng = Rng(3)
    for seed in range(6):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            state = env.state
            assert np.array_equal(obs["observation"], env.encoder.encode(state.view(0), 0))
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, terminated, truncated, _ = env.step(int(legal[rng.randbelow(len(legal))]))
            done = terminated or truncated
        assert terminated and reward in (-1.0, 1.0)


def test_the_toy_games_own_shaping_is_used() -> None:
    env = VelvetEnv(game=DUEL, shaping=1.0)
    obs, _ = env.reset(seed=1)
    total = 0.0
    done = False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        before = env.state.view(0)["score"]
        obs, reward, terminated, truncated, _ = env.step(int(legal[0]))
        done = terminated or truncated
        if not done and env.state.view(0)["score"] != before:
            assert reward != 0.0  # a round won or lost moves the score-lead potential
        total += reward
    # potential-based shaping telescopes: the game's end reward minus the start potential (0)
    final = 2.0 * env.state.returns()[0] - 1.0
    assert total == pytest.approx(final)


def test_pettingzoo_api_tests_pass_on_the_toy_game() -> None:
    api_test(VelvetAECEnv(game=DUEL), num_cycles=50)
    parallel_api_test(VelvetParallelEnv(game=DUEL), num_cycles=50)
    assert VelvetAECEnv(game=DUEL).metadata["name"] == "velvet_duel_v0"


def test_the_vector_env_steps_toy_games_as_a_batch() -> None:
    env = VelvetVectorEnv(game=DUEL, num_envs=3)
    try:
        obs, _ = env.reset(seed=5)
        assert obs["observation"].shape == (3, 3 * 9 + 4)
        ended = 0
        for _ in range(20):
            # after an ending, the next step resets that game (its mask is empty until then)
            legal = [np.flatnonzero(mask) for mask in obs["action_mask"]]
            obs, _, terminated, _, _ = env.step(
                np.array([ids[0] if len(ids) else 0 for ids in legal])
            )
            ended += int(terminated.sum())
        assert ended >= 3  # each game of 3 cards a hand ends within 3 of the agent's steps
    finally:
        env.close()


def test_openspiel_registers_and_simulates_the_toy_game() -> None:
    name = osg.register(DUEL)
    assert name == "python_velvet_duel"
    assert osg.register(DUEL) == name  # a second registration is the first
    game = pyspiel.load_game(name)
    assert game.num_players() == 2
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_a_game_without_an_encoder_is_refused_naming_the_facet() -> None:
    with pytest.raises(ConfigError, match=r"no observation encoder.*sets no encoder"):
        VelvetEnv(game=RACE)
    with pytest.raises(ConfigError, match="no observation encoder"):
        osg.register(RACE)
    with pytest.raises(ConfigError, match="no reward shaping"):
        VelvetEnv(game="p5", shaping=1.0)


def test_a_process_that_registered_games_exits_cleanly() -> None:
    """pyspiel frees a registered callable at exit without the GIL, which aborts the process
    when nothing else holds it: the adapter keeps each registered class alive."""
    code = f"import velvet.adapters.openspiel_game as o; o.register({DUEL!r})"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]
