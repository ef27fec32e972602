"""Batched Gymnasium envs: make_vec in every mode gives SyncVectorEnv's batches, bad input fails."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv, VectorEnv

import velvet.adapters  # noqa: F401  (registers the ids)
from velvet.adapters._engine import legal_ids
from velvet.adapters.vector_env import VelvetVectorEnv
from velvet.engine.errors import ConfigError, IllegalActionError

NUM_ENVS = 3


def pick(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """A uniform legal id per row of a batch of masks (0 where a row has none: the step
    after an episode's end, whose action the autoreset ignores)."""
    out = np.zeros(len(masks), dtype=np.int64)
    for i, mask in enumerate(masks):
        legal = np.flatnonzero(mask)
        if len(legal):
            out[i] = rng.choice(legal)
    return out


def trajectory(envs: VectorEnv[Any, Any, Any], seed: int, steps: int) -> list[Any]:
    """Everything a batch returns over ``steps`` seeded random steps (after the reset)."""
    rng = np.random.default_rng(seed)
    obs, info = envs.reset(seed=seed)
    out: list[Any] = [(obs, info)]
    for _ in range(steps):
        obs, reward, terminated, truncated, info = envs.step(pick(obs["action_mask"], rng))
        out.append((obs, reward, terminated, truncated, info))
    envs.close()
    return out


def ended(run: list[Any]) -> int:
    return sum(int(step[2].sum() + step[3].sum()) for step in run[1:])


@pytest.mark.parametrize(
    ("game", "kwargs"),
    [
        ("vs", {"workers": 0}),
        ("vs", {"workers": 1}),
        ("vs", {"workers": 2}),
        ("p5", {"workers": 2}),
        ("vs", {"vectorization_mode": "async", "vector_kwargs": {"context": "spawn"}}),
        (
            "p5",
            {
                "vectorization_mode": "async",
                "vector_kwargs": {"shared_memory": True, "context": "spawn"},
            },
        ),
    ],
)
def test_every_batched_form_gives_sync_vector_envs_batches(
    game: str, kwargs: dict[str, Any]
) -> None:
    # max_steps=15 truncates often, so the autoreset after an episode's end is compared too;
    # VS games against the random bot also end by a win within the 120 steps.
    want = trajectory(
        gymnasium.make_vec(f"velvet/{game}-v0", NUM_ENVS, vectorization_mode="sync", max_steps=15),
        seed=4,
        steps=120,
    )
    envs = gymnasium.make_vec(f"velvet/{game}-v0", NUM_ENVS, max_steps=15, **kwargs)
    assert isinstance(envs, AsyncVectorEnv if "vectorization_mode" in kwargs else VelvetVectorEnv)
    got = trajectory(envs, seed=4, steps=120)
    assert ended(want) >= NUM_ENVS
    assert data_equivalence(got, want)


def test_make_vec_defaults_to_the_velvet_batch_and_its_spaces_hold_what_it_returns() -> None:
    envs = gymnasium.make_vec("velvet/vs-v0", num_envs=4, opponent="greedy")
    assert isinstance(envs, VelvetVectorEnv)
    obs, info = envs.reset(seed=0)
    assert obs["observation"].shape == (4, 971) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (4, 922) and obs["action_mask"].dtype == np.int8
    rng = np.random.default_rng(0)
    for _ in range(30):
        assert envs.observation_space.contains(obs)
        games = envs._shares[0].envs
        for i, env in enumerate(games):  # each row is its game's legal ids, nothing else
            want = sorted(legal_ids(env.game, env.state)) if not env.state.is_terminal() else []
            assert np.flatnonzero(obs["action_mask"][i]).tolist() == want
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        actions = pick(obs["action_mask"], rng)
        assert envs.action_space.contains(actions)
        obs, reward, terminated, truncated, info = envs.step(actions)
        assert reward.shape == terminated.shape == truncated.shape == (4,)
    envs.close()


def test_gymnasium_sync_and_async_modes_make_their_own_classes() -> None:
    sync = gymnasium.make_vec("velvet/p5-v0", 2, vectorization_mode="sync")
    assert isinstance(sync, SyncVectorEnv)
    sync.close()
    forked = gymnasium.make_vec(
        "velvet/vs-v0",
        2,
        vectorization_mode="async",
        vector_kwargs={"shared_memory": True, "context": "spawn"},
    )
    assert isinstance(forked, AsyncVectorEnv)
    obs, _ = forked.reset(seed=1)
    assert forked.observation_space.contains(obs)
    forked.close()


def test_returned_batches_are_copies_unless_asked() -> None:
    envs = VelvetVectorEnv(2, game="vs")
    obs, _ = envs.reset(seed=2)
    kept = obs["observation"].copy()
    envs.step(pick(obs["action_mask"], np.random.default_rng(0)))
    assert np.array_equal(obs["observation"], kept)
    shared = VelvetVectorEnv(2, game="vs", copy=False)
    first, _ = shared.reset(seed=2)
    second, *_ = shared.step(pick(first["action_mask"], np.random.default_rng(0)))
    assert second["observation"] is first["observation"]


@pytest.mark.parametrize("workers", [0, 1])
def test_bad_actions_are_refused_and_change_nothing(workers: int) -> None:
    envs = VelvetVectorEnv(2, workers=workers, game="vs")
    obs, _ = envs.reset(seed=3)
    for actions, words in [
        (np.array([0, 1, 2]), r"shape \(2,\)"),
        (np.array([0.5, 1.0]), "dtype float64"),
        (np.array([0, 922]), r"0\.\.921"),
        (np.array([-1, 0]), r"0\.\.921"),
    ]:
        with pytest.raises(ConfigError, match=words):
            envs.step(actions)
    legal = pick(obs["action_mask"], np.random.default_rng(0))
    again, *_ = envs.step(legal)  # the same step as a fresh batch's: nothing changed before
    fresh = VelvetVectorEnv(2, game="vs")
    fresh.reset(seed=3)
    want, *_ = fresh.step(legal)
    assert data_equivalence(again, want)
    envs.close()


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"num_envs": 0}, "num_envs must be a positive integer"),
        ({"num_envs": 2, "workers": 2}, r"workers \(2\) must be below num_envs \(2\)"),
        ({"num_envs": 2, "workers": -1}, "workers must be 0"),
        ({"num_envs": 2, "render_mode": "ansi"}, "does not render"),
        ({"num_envs": 2, "start_method": "teleport"}, "start_method must be one of"),
        ({"num_envs": 2, "opponent": "genius"}, "unknown bot 'genius'"),
    ],
)
def test_bad_arguments_get_one_line_errors(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError, match=words) as error:
        VelvetVectorEnv(**kwargs)
    assert "\n" not in str(error.value)


def test_reset_and_step_are_checked() -> None:
    envs = VelvetVectorEnv(2, game="p5")
    with pytest.raises(ConfigError, match="call reset"):
        envs.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ConfigError, match="3 seeds given for 2 envs"):
        envs.reset(seed=[1, 2, 3])
    envs.close()
    with pytest.raises(ConfigError, match="closed"):
        envs.reset(seed=0)


def test_a_workers_error_reaches_the_caller_and_the_batch_goes_on() -> None:
    envs = VelvetVectorEnv(3, workers=2, game="vs", illegal="raise")
    obs, _ = envs.reset(seed=5)
    illegal = np.array([int(np.flatnonzero(m == 0)[0]) for m in obs["action_mask"]])
    with pytest.raises(IllegalActionError, match=r"\[VS-[A-Z]+-\d+\]"):
        envs.step(illegal)
    again, _ = envs.reset(seed=5)  # every worker answered: no stale answer left behind
    assert data_equivalence(again, obs)
    processes = list(envs._processes)
    envs.close()
    assert processes and not any(p.is_alive() for p in processes)


KEEPER = """
import time
import numpy as np
from velvet.adapters.vector_env import VelvetVectorEnv
if __name__ == "__main__":
    envs = VelvetVectorEnv(2, workers=1, game="vs", opponent="mcts:1000000")
    print(envs._processes[0].pid, flush=True)
    obs, _ = envs.reset(seed=0)
    while True:  # the bot's moves take minutes: the worker is busy, not reading its pipe
        envs.step(np.array([int(np.flatnonzero(m)[0]) if m.any() else 0
                            for m in obs["action_mask"]]))
"""
"""A parent whose worker is busy in a slow bot's search when the parent is killed: only
the worker's watch on its parent (die_with_parent) can end it before the search does."""


def test_the_workers_end_when_the_parent_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "keeper.py"
    script.write_text(KEEPER)
    parent = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=os.environ.copy()
    )
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        time.sleep(3)  # the reset and the first step are sent: the worker searches
        assert _alive(worker)
        parent.send_signal(signal.SIGKILL)
        parent.wait(30)
        deadline = time.monotonic() + 20
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(worker)
    finally:
        parent.kill()
        parent.wait(30)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
