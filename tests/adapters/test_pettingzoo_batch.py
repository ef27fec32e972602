"""The batched PettingZoo parallel env: each row is the parallel env's game, in this process
and in workers; PettingZoo's own checks where they apply; bad input fails and changes nothing."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from pettingzoo import ParallelEnv
from pettingzoo.test import parallel_api_test, parallel_seed_test

from velvet.adapters.pettingzoo_batch import VelvetBatchedParallelEnv
from velvet.adapters.pettingzoo_env import VelvetParallelEnv
from velvet.engine.errors import ConfigError, IllegalActionError

N = 3


def pick(obs: dict[str, Any], rng: np.random.Generator, stray: float = 0.0) -> dict[str, Any]:
    """A uniform legal id per agent and row (0 for a row with no legal id: the step after
    a game's end); with probability ``stray`` a waiting agent sends a non-WAIT id instead."""
    out = {}
    for agent, o in obs.items():
        masks = o["action_mask"]
        ids = np.zeros(len(masks), dtype=np.int64)
        for i, mask in enumerate(masks):
            legal = np.flatnonzero(mask)
            if len(legal):
                ids[i] = rng.choice(legal)
                if legal.tolist() == [len(mask) - 1] and rng.random() < stray:
                    ids[i] = 0  # not WAIT: ignored, and said so in its info
        out[agent] = ids
    return out


@pytest.mark.parametrize(("game", "workers"), [("vs", 0), ("vs", 1), ("p5", 2)])
def test_each_row_is_the_parallel_envs_game_with_the_same_seed_and_actions(
    game: str, workers: int
) -> None:
    # max_cycles=25 truncates often: the autoreset after a game's end is compared too
    batch = VelvetBatchedParallelEnv(game, N, max_cycles=25, workers=workers)
    singles = [VelvetParallelEnv(game, max_cycles=25) for _ in range(N)]
    rng = np.random.default_rng(7)
    obs, _ = batch.reset(seed=7)
    want = [env.reset(seed=7 + i)[0] for i, env in enumerate(singles)]
    ended = [False] * N
    finished = notes = 0
    for _ in range(120):
        for i in range(N):
            for agent in batch.agents:
                assert data_equivalence({k: v[i] for k, v in obs[agent].items()}, want[i][agent]), (
                    i,
                    agent,
                )
        actions = pick(obs, rng, stray=0.05)
        obs, rewards, terms, truncs, infos = batch.step(actions)
        for i, env in enumerate(singles):
            if ended[i]:  # next-step autoreset: the game starts again, its actions ignored
                want[i] = env.reset()[0]
                ended[i] = False
                assert not any(terms[a][i] or truncs[a][i] for a in batch.agents)
                continue
            o, r, te, tr, inf = env.step({a: int(actions[a][i]) for a in env.agents})
            want[i] = o
            for agent in batch.possible_agents:
                assert rewards[agent][i] == r[agent]
                assert terms[agent][i] == te[agent] and truncs[agent][i] == tr[agent]
                text = inf[agent].get("illegal")
                if text is None:
                    assert "illegal" not in infos[agent] or not infos[agent]["_illegal"][i]
                else:
                    assert infos[agent]["illegal"][i] == text
                    notes += 1
            ended[i] = te["player_0"] or tr["player_0"]
            finished += ended[i]
    batch.close()
    assert finished >= N and notes > 0


def test_spaces_hold_what_it_returns_and_masks_are_the_deciders_legal_ids() -> None:
    batch = VelvetBatchedParallelEnv("vs", 4)
    obs, infos = batch.reset(seed=0)
    assert set(infos) == set(obs) == {"player_0", "player_1"}
    assert obs["player_0"]["observation"].shape == (4, 971)
    assert obs["player_0"]["action_mask"].shape == (4, 923)
    rng = np.random.default_rng(0)
    for _ in range(40):
        for agent in batch.agents:
            assert batch.observation_space(agent).contains(obs[agent])
        shares = batch._batch.share.tables  # type: ignore[attr-defined]  # a _GameShare
        for i, table in enumerate(shares):
            if table.state.is_terminal():
                continue
            decider = table.state.current_player
            for seat, agent in enumerate(batch.agents):
                ids = np.flatnonzero(obs[agent]["action_mask"][i]).tolist()
                assert ids == (sorted(table.legal()) if seat == decider else [batch.wait])
        actions = pick(obs, rng)
        for agent in batch.agents:
            assert batch.action_space(agent).contains(actions[agent])
        obs, *_ = batch.step(actions)
    batch.close()


class OneGame(ParallelEnv[str, Any, Any]):  # type: ignore[misc]  # pettingzoo is untyped
    """The batch of one game without its batch axis, ended when its game ends: the form
    PettingZoo's parallel_api_test checks (it reads termination flags as booleans)."""

    def __init__(self, game: str) -> None:
        self.batch = VelvetBatchedParallelEnv(game, 1)
        self.possible_agents = self.batch.possible_agents
        self.agents: list[str] = []
        self.metadata = self.batch.metadata

    def observation_space(self, agent: str) -> Any:
        return self.batch.single_observation_space

    def action_space(self, agent: str) -> Any:
        return self.batch.single_action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        obs, infos = self.batch.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        return self._one(obs), infos

    def step(self, actions: dict[str, Any]) -> Any:
        out = self.batch.step({a: np.array([actions[a]], dtype=np.int64) for a in self.agents})
        obs, rewards, terms, truncs, _ = (self._one(part) for part in out)
        if any(terms.values()) or any(truncs.values()):
            self.agents = []
        return obs, rewards, terms, truncs, {a: {} for a in self.possible_agents}

    def _one(self, values: dict[str, Any]) -> dict[str, Any]:
        def row(v: Any) -> Any:
            if isinstance(v, dict):
                return {k: x[0] for k, x in v.items()}
            return v[0].item()

        return {agent: row(v) for agent, v in values.items()}


@pytest.mark.parametrize("game", ["vs", "p5"])
def test_pettingzoo_checks_pass(game: str) -> None:
    parallel_api_test(OneGame(game), num_cycles=200)
    parallel_seed_test(lambda: VelvetBatchedParallelEnv(game, N), num_cycles=50)


@pytest.mark.parametrize("workers", [0, 1])
def test_bad_actions_are_refused_and_change_nothing(workers: int) -> None:
    batch = VelvetBatchedParallelEnv("vs", 2, workers=workers)
    obs, _ = batch.reset(seed=3)
    good = pick(obs, np.random.default_rng(0))
    for actions, words in [
        ({"player_0": good["player_0"]}, "missing player_1"),
        ({**good, "player_9": good["player_0"]}, "not agents: player_9"),
        ({**good, "player_1": np.array([0, 1, 2])}, r"player_1: .*shape \(2,\)"),
        ({**good, "player_0": np.array([0.5, 1.0])}, "dtype float64"),
        ({**good, "player_0": np.array([0, 923])}, r"0\.\.922"),
    ]:
        with pytest.raises(ConfigError, match=words):
            batch.step(actions)
    again = batch.step(good)
    fresh = VelvetBatchedParallelEnv("vs", 2)
    fresh.reset(seed=3)
    assert data_equivalence(again, fresh.step(good))
    batch.close()
    with pytest.raises(ConfigError, match="closed"):
        batch.reset()


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"num_envs": 0}, "num_envs must be a positive integer"),
        ({"num_envs": 2, "workers": 2}, r"workers \(2\) must be below num_envs \(2\)"),
        ({"num_envs": 2, "illegal": "shrug"}, "illegal must be one of"),
        ({"num_envs": 2, "players": 5}, "cannot be played by 5 players"),
        ({"num_envs": 2, "game": "chess"}, "chess"),
    ],
)
def test_bad_arguments_get_one_line_errors(kwargs: dict[str, Any], words: str) -> None:
    kwargs = {"game": "vs", **kwargs}
    with pytest.raises(ConfigError, match=words) as error:
        VelvetBatchedParallelEnv(**kwargs)
    assert "\n" not in str(error.value)


def test_step_before_reset_and_a_workers_engine_error_reach_the_caller() -> None:
    batch = VelvetBatchedParallelEnv("vs", 2, workers=1, illegal="raise")
    with pytest.raises(ConfigError, match="call reset"):
        batch.step({a: np.zeros(2, dtype=np.int64) for a in batch.agents})
    obs, _ = batch.reset(seed=5)
    bad = {}
    for agent, o in obs.items():  # the decider sends an id its mask refuses
        bad[agent] = np.array(
            [int(np.flatnonzero(m == 0)[0]) if m[-1] == 0 else len(m) - 1 for m in o["action_mask"]]
        )
    with pytest.raises(IllegalActionError):
        batch.step(bad)
    again, _ = batch.reset(seed=5)
    assert data_equivalence(again, obs)
    processes = list(batch._batch.processes)
    batch.close()
    assert processes and not any(p.is_alive() for p in processes)
