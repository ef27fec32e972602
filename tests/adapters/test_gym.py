"""Gymnasium envs: the checker passes, seeds replay, masks are the legal ids, bad input fails."""

from __future__ import annotations

import re
from typing import SupportsFloat

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import velvet.adapters  # noqa: F401  (registers the ids)
from tests.adapters.conftest import mid_game
from velvet.adapters._engine import legal_ids
from velvet.adapters.gym_env import MaskMaker, VelvetEnv
from velvet.engine.errors import ConfigError, IllegalActionError


@pytest.mark.parametrize("env_id", ["velvet/vs-v0", "velvet/p5-v0"])
def test_gymnasium_env_checker_passes(env_id: str) -> None:
    env = gymnasium.make(env_id, render_mode="ansi")
    check_env(env.unwrapped, skip_render_check=False)


def test_make_takes_an_opponent_and_plays_a_whole_game_against_it() -> None:
    env = gymnasium.make("velvet/vs-v0", opponent="greedy").unwrapped
    assert isinstance(env, VelvetEnv)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    done = False
    reward: SupportsFloat = 0.0
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        done = terminated or truncated
    assert env.state.is_terminal()
    assert reward == 2.0 * env.state.returns()[0] - 1.0
    assert obs["action_mask"].sum() == 0


def rollout(env: VelvetEnv, seed: int, steps: int) -> list[tuple[bytes, float]]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = [(obs["observation"].tobytes(), 0.0)]
    for _ in range(steps):
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        out.append((obs["observation"].tobytes(), reward))
        if terminated or truncated:
            break
    return out


@pytest.mark.parametrize("game", ["vs", "p5"])
def test_reset_with_a_seed_replays_the_same_episode(game: str) -> None:
    a = rollout(VelvetEnv(game), seed=11, steps=40)
    b = rollout(VelvetEnv(game), seed=11, steps=40)
    c = rollout(VelvetEnv(game), seed=12, steps=40)
    assert a == b
    assert a != c


def test_mask_in_observation_and_info_is_exactly_the_legal_ids() -> None:
    env = VelvetEnv("vs", opponent="random")
    obs, info = env.reset(seed=3)
    for _ in range(30):
        want = sorted(legal_ids(env.game, env.state))
        assert np.flatnonzero(obs["action_mask"]).tolist() == want
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        assert env.action_masks().tolist() == obs["action_mask"].astype(bool).tolist()
        obs, _, terminated, _, info = env.step(want[len(want) // 2])
        if terminated:
            break


def test_an_illegal_id_loses_by_default_and_changes_nothing() -> None:
    env = VelvetEnv("vs")
    obs, _ = env.reset(seed=4)
    before = env.state.canonical()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert re.search(r"\[VS-[A-Z]+-\d+\]", info["illegal"]), info["illegal"]
    assert env.state.canonical() == before


def test_an_illegal_id_raises_the_engine_error_when_asked() -> None:
    env = VelvetEnv("vs", illegal="raise")
    obs, _ = env.reset(seed=4)
    before = env.state.canonical()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.state.canonical() == before


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "vs", "opponent": "genius"}, "unknown bot 'genius'"),
        ({"game": "vs", "seat": 2}, "seat must be 0 to 1"),
        ({"game": "p5", "players": 3}, "not 3"),
        ({"game": "vs", "render_mode": "human"}, "render_mode"),
        ({"game": "vs", "illegal": "shrug"}, "illegal must be one of"),
        ({"game": "p5", "shaping": 1.0}, "has no reward shaping"),
        ({"game": "vs", "config": {"players": []}}, "exactly 2 players"),
    ],
)
def test_bad_arguments_get_one_line_errors(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(ConfigError) as error:
        VelvetEnv(**kwargs)  # type: ignore[arg-type]
    assert words in str(error.value)
    assert "\n" not in str(error.value)


def test_out_of_range_ids_and_steps_after_the_end_are_refused() -> None:
    env = VelvetEnv("vs")
    env.reset(seed=1)
    before = env.state.canonical()
    with pytest.raises(ConfigError, match="outside 0"):
        env.step(env.n_actions)
    with pytest.raises(ConfigError, match="an action is an integer id, not 'end'"):
        env.step("end")  # type: ignore[arg-type]
    assert env.state.canonical() == before
    obs, _ = env.observe()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))  # illegal: the episode ends
    with pytest.raises(ConfigError, match="episode is over"):
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.state.canonical() == before


def test_clone_and_restore_undo_a_step() -> None:
    env = VelvetEnv("vs")
    obs, _ = env.reset(seed=8)
    saved = env.clone_state()
    first = obs["observation"].copy()
    legal = np.flatnonzero(obs["action_mask"])
    env.step(int(legal[-1]))
    assert env.state.canonical() != saved.canonical()
    env.restore(saved)
    assert env.state.canonical() == saved.canonical()
    assert np.array_equal(env.observe()[0]["observation"], first)


def test_render_ansi_lists_the_decision() -> None:
    env = VelvetEnv("p5", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text is not None and "to move: seat 0" in text
    assert len(text.splitlines()) == 2 + len(env.state.legal_actions())


def test_restore_to_a_bot_decision_lets_the_bot_play_to_the_agents_turn() -> None:
    state = mid_game("vs", 2, seed=7, decisions=25, seat=1)
    assert state.current_player == 1
    env = VelvetEnv("vs", seat=0)
    env.reset(seed=0)
    env.restore(state)
    assert env.state.is_terminal() or env.state.current_player == 0
    obs, _ = env.observe()
    assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(legal_ids(env.game, env.state))


def test_masks_are_new_arrays_even_when_the_legal_ids_repeat() -> None:
    make = MaskMaker(10)
    first = make([1, 4])
    assert first.tolist() == [0, 1, 0, 0, 1, 0, 0, 0, 0, 0]
    first[:] = 1  # a caller writes into what it was given
    again = make([1, 4])
    assert again is not first
    assert again.tolist() == [0, 1, 0, 0, 1, 0, 0, 0, 0, 0]
    assert not make([]).any()
