"""PettingZoo envs pass PettingZoo's own conformance tests, both games."""

from __future__ import annotations

from functools import partial
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test

from velvet.adapters import pettingzoo_env as pz
from velvet.engine.errors import ConfigError

MAKERS = {"vs": (pz.vs_env, pz.vs_parallel_env), "p5": (pz.p5_env, pz.p5_parallel_env)}


@pytest.mark.parametrize("game", ["vs", "p5"])
@pytest.mark.parametrize("order", ["decision", "round_robin"])
def test_api_test_passes(game: str, order: str) -> None:
    make, _ = MAKERS[game]
    api_test(make(order=order), num_cycles=200)


@pytest.mark.parametrize("game", ["vs", "p5"])
def test_seed_test_passes(game: str) -> None:
    make, _ = MAKERS[game]
    seed_test(make, num_cycles=60)


@pytest.mark.parametrize("game", ["vs", "p5"])
def test_parallel_api_test_passes(game: str) -> None:
    _, make_parallel = MAKERS[game]
    parallel_api_test(make_parallel(), num_cycles=200)


@pytest.mark.parametrize("game", ["vs", "p5"])
def test_max_cycles_test_passes(game: str) -> None:
    # max_cycles_test steps every agent once per cycle with unmasked random ids: the
    # round-robin order gives each agent one step per cycle, "ignore" refuses bad ids.
    make, make_parallel = MAKERS[game]
    module = SimpleNamespace(
        env=partial(make, order="round_robin", illegal="ignore"), parallel_env=make_parallel
    )
    max_cycles_test(module)


def play_out(env: pz.VelvetAECEnv, seed: int) -> dict[str, float]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert agent == env.possible_agents[env.engine_state.current_player]
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


def test_a_whole_vs_game_pays_the_winner_plus_one_and_the_loser_minus_one() -> None:
    env = pz.vs_env()
    totals = play_out(env, seed=21)
    returns = env.engine_state.returns()
    assert totals == {f"player_{p}": 2.0 * returns[p] - 1.0 for p in (0, 1)}
    assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_two_player_p5_is_co_operative() -> None:
    env = pz.p5_env()
    totals = play_out(env, seed=3)
    assert totals["player_0"] == totals["player_1"] in (-1.0, 1.0)


def test_an_illegal_id_ends_the_game_for_the_offender_and_changes_nothing() -> None:
    env = pz.vs_env()
    env.reset(seed=2)
    before = env.engine_state.canonical()
    agent = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert env.engine_state.canonical() == before
    assert env.terminations[agent]
    assert env.rewards[agent] == -1.0
    assert "[VS-" in env.infos[agent]["illegal"]


def test_ignore_keeps_the_decision_pending() -> None:
    env = pz.vs_env(illegal="ignore")
    env.reset(seed=2)
    before = env.engine_state.canonical()
    agent = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert env.engine_state.canonical() == before
    assert env.agent_selection == agent and not env.terminations[agent]


def test_each_step_starts_with_empty_infos_and_zero_rewards() -> None:
    # The env empties infos and rewards only when something is in them: an ignored
    # illegal action's note is gone after the next step, and nothing else carries over.
    env = pz.vs_env(illegal="ignore")
    env.reset(seed=2)
    agent = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert "illegal" in env.infos[agent]
    env.infos[agent]["mine"] = 1  # whatever a caller put there goes too
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(info == {} for info in env.infos.values())
    assert all(r == 0.0 for r in env.rewards.values())
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert env.rewards[agent] in (-1.0, 0.0, 1.0)
            env.step(None)
            continue
        assert reward == 0.0 and info == {}
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert env.agents == []


def test_round_robin_gives_a_waiting_agent_only_wait() -> None:
    env = pz.vs_env(order="round_robin")
    env.reset(seed=5)
    decider = env.possible_agents[env.engine_state.current_player]
    other = next(a for a in env.possible_agents if a != decider)
    mask = env.observe(other)["action_mask"]
    assert np.flatnonzero(mask).tolist() == [env.table.n_actions]


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"order": "sideways"}, "order must be one of"),
        ({"illegal": "shrug"}, "illegal must be one of"),
        ({"max_cycles": 0}, "max_cycles must be at least 1"),
        ({"players": 3}, "cannot be played by 3 players"),
    ],
)
def test_bad_arguments_get_one_line_errors(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        pz.vs_env(**kwargs)


def test_clone_and_restore_undo_a_step() -> None:
    env = pz.vs_env()
    env.reset(seed=9)
    saved = env.engine_state.clone()
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    env.restore(saved)
    assert env.engine_state.canonical() == saved.canonical()
    assert env.agent_selection == env.possible_agents[saved.current_player]
