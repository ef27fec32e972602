"""A batched PettingZoo parallel env: N games of every agent stepped with one numpy batch.

``VelvetBatchedParallelEnv(game, num_envs=N, workers=W)`` keeps the PettingZoo parallel
env's shape (dicts keyed by agent, ``player_0`` …) with a leading batch axis in every
value: ``observations[agent]`` is ``{"observation": (N, size) float32, "action_mask": (N,
ids + 1) int8}``, ``actions[agent]`` an ``(N,)`` integer array, ``rewards[agent]``,
``terminations[agent]``, ``truncations[agent]`` ``(N,)`` arrays. Game ``i`` of the batch
is exactly the :class:`~velvet.adapters.pettingzoo_env.VelvetParallelEnv` reset with seed
``s + i`` and sent row ``i`` of the actions (tested): every step is one cycle, the deciding
seat's action is played and the others' must be ``WAIT`` (the extra last id; anything
else of theirs is ignored). The games are spread over this process and W worker
processes writing into one block of shared memory (the Gymnasium batch's machinery,
:class:`velvet.adapters.vector_env.Batch`).

Autoreset, next step (Gymnasium's default for vector envs): the agents never leave; the
step after game ``i`` ends resets it and ignores its actions (its masks in the final
observation are all zeros). ``infos[agent]`` holds ``"illegal"`` (an object array, with
the boolean ``"_illegal"`` saying which rows have a text) when an action was refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

from velvet.adapters._engine import ConfigError
from velvet.adapters.pettingzoo_env import ILLEGAL, Obs, _Table
from velvet.adapters.vector_env import Batch, _Layout, batch_seeds, check_batch_arguments


def _table(kwargs: dict[str, Any]) -> _Table:
    return _Table(
        kwargs["game"],
        kwargs["players"],
        kwargs["config"],
        kwargs["max_cycles"],
        kwargs["illegal"],
        True,
    )


class _GameShare:
    """The games ``start..stop-1`` of a batch of parallel-env games, stepped in a loop."""

    def __init__(
        self, env_kwargs: dict[str, Any], start: int, stop: int, arrays: dict[str, Any]
    ) -> None:
        self.tables = [_table(env_kwargs) for _ in range(start, stop)]
        self.start = start
        self.arrays = arrays
        self.cycles = [0] * len(self.tables)
        self.autoreset = [False] * len(self.tables)

    def _observe(self, i: int, table: _Table) -> None:
        obs, masks = self.arrays["observation"], self.arrays["action_mask"]
        state = table.state
        ended = state.is_terminal()
        decider = -1 if ended else state.current_player
        for seat in range(table.players):
            table.encoder.encode_state(state, seat, obs[seat, i])
            row = masks[seat, i]
            row.fill(0)
            if ended:
                continue
            if seat == decider:
                row[table.legal()] = 1
            else:
                row[table.wait] = 1

    def reset(
        self, seeds: Sequence[int | None], options: dict[str, Any] | None
    ) -> dict[int, dict[str, Any]]:
        a = self.arrays
        for k, (table, seed) in enumerate(zip(self.tables, seeds, strict=True)):
            i = self.start + k
            table.reset(seed)
            self.cycles[k] = 0
            self.autoreset[k] = False
            self._observe(i, table)
            a["rewards"][:, i] = 0.0
            a["terminations"][i] = a["truncations"][i] = False
        return {}

    def step(self) -> dict[int, dict[str, Any]]:
        """Step every game by its row of actions; ``{i: {agent: illegal text}}`` if any."""
        a = self.arrays
        actions, rewards = a["actions"], a["rewards"]
        terms, truncs = a["terminations"], a["truncations"]
        extras: dict[int, dict[str, Any]] = {}
        for k, table in enumerate(self.tables):
            i = self.start + k
            rewards[:, i] = 0.0
            if self.autoreset[k]:  # next-step autoreset: this step's actions are ignored
                table.reset(None)
                self.cycles[k] = 0
                terms[i] = truncs[i] = self.autoreset[k] = False
                self._observe(i, table)
                continue
            seat = table.decider()
            notes: dict[str, Any] = {}
            for other in range(table.players):
                if other != seat and actions[other, i] != table.wait:
                    agent = table.agents[other]
                    notes[agent] = f"{agent} has no decision now: its action is ignored"
            problem = table.play(seat, int(actions[seat, i]))
            ended = truncated = False
            if problem is not None:
                notes[table.agents[seat]] = problem
                if table.illegal == "lose":
                    rewards[:, i] = table.illegal_rewards(seat)
                    ended = True
            self.cycles[k] += 1
            if not ended and table.state.is_terminal():
                rewards[:, i] = table.final_rewards()
                ended = True
            if not ended and table.max_cycles is not None and self.cycles[k] >= table.max_cycles:
                truncated = True
            terms[i], truncs[i] = ended, truncated
            self.autoreset[k] = ended or truncated
            self._observe(i, table)
            if notes:
                extras[i] = notes
        return extras


class VelvetBatchedParallelEnv:
    """``num_envs`` games of ``game`` as one PettingZoo-style parallel env with a batch axis.

    Keywords as :class:`~velvet.adapters.pettingzoo_env.VelvetParallelEnv` (``players``,
    ``config``, ``max_cycles``, ``illegal``: "ignore" by default, "lose", "raise"), and as
    the Gymnasium batch (``workers``, ``start_method``, ``copy``). See the module docstring.
    """

    metadata: dict[str, Any]

    def __init__(
        self,
        game: str,
        num_envs: int,
        players: int = 2,
        config: Mapping[str, Any] | None = None,
        max_cycles: int | None = None,
        illegal: str = "ignore",
        workers: int = 0,
        start_method: str = "spawn",
        copy: bool = True,
    ) -> None:
        check_batch_arguments(num_envs, workers, start_method)
        if illegal not in ILLEGAL:
            raise ConfigError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        kwargs: dict[str, Any] = {
            "game": game,
            "players": players,
            "config": dict(config) if config is not None else None,
            "max_cycles": max_cycles,
            "illegal": illegal,
        }
        probe = _table(kwargs)  # a bad game, count or config fails here, with its error
        self.num_envs = num_envs
        self.workers = workers
        self.copy = copy
        self.players = players
        self.possible_agents = list(probe.agents)
        self.agents = list(probe.agents)
        self.metadata = {"name": f"velvet_{probe.game.name}_batched_v0", "render_modes": []}
        self.render_mode = None
        self.wait = probe.space_size - 1
        """The id of WAIT, the only legal action of an agent that does not decide now."""
        self.single_observation_space = probe.observation_space
        self.single_action_space = probe.action_space
        self._observation_spaces = {
            a: batch_space(probe.observation_space, num_envs) for a in self.possible_agents
        }
        self._action_spaces = {
            a: spaces.MultiDiscrete(np.full(num_envs, probe.space_size))
            for a in self.possible_agents
        }
        self.n_actions = probe.space_size
        layout = _Layout.build(
            (
                ("observation", "float32", (players, num_envs, probe.encoder.size)),
                ("action_mask", "int8", (players, num_envs, probe.space_size)),
                ("actions", "int64", (players, num_envs)),
                ("rewards", "float64", (players, num_envs)),
                ("terminations", "bool", (num_envs,)),
                ("truncations", "bool", (num_envs,)),
            )
        )
        self._batch = Batch(_GameShare, kwargs, layout, num_envs, workers, start_method)
        self._arrays = self._batch.arrays
        self._started = False
        self.closed = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The batched observation space of any agent (every agent's is the same)."""
        self._seat(agent)
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``MultiDiscrete`` of ``num_envs`` entries, each an action id of that game."""
        self._seat(agent)
        return self._action_spaces[agent]

    def reset(
        self,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        """Reset every game (game i with ``seed + i``); the batch of every agent's view."""
        self._check_open()
        self._batch.reset(batch_seeds(seed, self.num_envs), options)
        self._started = True
        return self._observations(), {a: {} for a in self.agents}

    def step(
        self, actions: Mapping[str, npt.ArrayLike]
    ) -> tuple[
        dict[str, Obs],
        dict[str, npt.NDArray[np.float64]],
        dict[str, npt.NDArray[np.bool_]],
        dict[str, npt.NDArray[np.bool_]],
        dict[str, dict[str, Any]],
    ]:
        """One cycle of every game: ``actions[agent]`` holds that agent's id in each game."""
        self._check_open()
        if not self._started:
            raise ConfigError("call reset() before step()")
        if set(actions) != set(self.agents):
            missing = sorted(set(self.agents) - set(actions))
            extra = sorted(set(actions) - set(self.agents))
            raise ConfigError(
                "step takes one batch of actions per agent: "
                + "; ".join(
                    part
                    for part in (
                        f"missing {', '.join(missing)}" if missing else "",
                        f"not agents: {', '.join(map(str, extra))}" if extra else "",
                    )
                    if part
                )
            )
        rows = []
        for agent in self.agents:
            batch = np.asarray(actions[agent])
            if batch.shape != (self.num_envs,) or batch.dtype.kind not in "iu":
                raise ConfigError(
                    f"{agent}: one integer action id per game, shape ({self.num_envs},), "
                    f"not an array of shape {batch.shape} and dtype {batch.dtype}"
                )
            if batch.size and (batch.min() < 0 or batch.max() >= self.n_actions):
                raise ConfigError(f"{agent}: action ids must lie in 0..{self.n_actions - 1}")
            rows.append(batch)
        a = self._arrays
        for seat, batch in enumerate(rows):
            a["actions"][seat] = batch
        extras = self._batch.step()
        terms, truncs = a["terminations"], a["truncations"]
        return (
            self._observations(),
            {agent: a["rewards"][seat].copy() for seat, agent in enumerate(self.agents)},
            {agent: terms.copy() for agent in self.agents},
            {agent: truncs.copy() for agent in self.agents},
            self._infos(extras),
        )

    def render(self) -> None:
        return None

    def close(self) -> None:
        """End the workers; the env cannot be used after."""
        if not self.closed:
            self._batch.close()
            self.closed = True

    def __del__(self) -> None:
        batch = getattr(self, "_batch", None)
        if batch is not None and batch.processes:
            batch.close(terminate=True)

    # --- helpers -----------------------------------------------------------------------

    def _observations(self) -> dict[str, Obs]:
        obs, masks = self._arrays["observation"], self._arrays["action_mask"]
        if self.copy:
            return {
                agent: {"observation": obs[seat].copy(), "action_mask": masks[seat].copy()}
                for seat, agent in enumerate(self.agents)
            }
        return {
            agent: {"observation": obs[seat], "action_mask": masks[seat]}
            for seat, agent in enumerate(self.agents)
        }

    def _infos(self, extras: dict[int, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        for i, notes in extras.items():
            for agent, text in notes.items():
                info = infos[agent]
                if "illegal" not in info:
                    info["illegal"] = np.full(self.num_envs, None, dtype=object)
                    info["_illegal"] = np.zeros(self.num_envs, dtype=np.bool_)
                info["illegal"][i] = text
                info["_illegal"][i] = True
        return infos

    def _seat(self, agent: str) -> int:
        if agent not in self.possible_agents:
            raise ConfigError(f"{agent!r} is not an agent: {', '.join(self.possible_agents)}")
        return self.possible_agents.index(agent)

    def _check_open(self) -> None:
        if self._batch.stopped:
            self.closed = True
        if self.closed:
            raise ConfigError("the batched env is closed: make a new one")
