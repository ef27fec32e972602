"""PettingZoo environments: Persona VS and two-player P5, every seat an agent.

``vs_env()`` / ``p5_env()`` build the AEC env (:class:`VelvetAECEnv`), ``vs_parallel_env()``
/ ``p5_parallel_env()`` the parallel one (:class:`VelvetParallelEnv`). Agents are
``player_0`` … (seat 0 is "Player 1"). Each observation is a dict with the encoded
view of that agent's seat (see docs/rl.md) and its ``action_mask``.

Turn order. In the default ``order="decision"`` the selected agent is always the seat
that decides next (VS and P5 let one seat take several decisions in a row). With
``order="round_robin"`` every agent steps once per cycle, in seat order; an agent
that has no decision then has one legal action, ``WAIT`` (the extra last id), which
changes nothing. The parallel env always works by cycles: each agent sends an
action, the deciding seat's is played and the others' must be ``WAIT``.

``max_cycles`` truncates the game after that many cycles (in decision order, a cycle
is one decision). Rewards come at the end: ``2 * returns - 1`` per seat (VS: win +1,
loss -1, draw 0; P5 is co-operative). An illegal action id changes nothing in the
game; ``illegal="lose"`` (default) ends it, the offender -1 and the others 0,
``"ignore"`` leaves the same decision pending (the parallel env's default, since its
waiting agents' actions are ignored anyway), ``"raise"`` raises the engine's error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from velvet.adapters._engine import (
    SEED_RANGE,
    ConfigError,
    Game,
    State,
    action_table,
    default_config,
    legal_ids,
    load_game,
)
from velvet.adapters.encoding import encoder_for
from velvet.adapters.gym_env import OBS_HIGH, MaskMaker, action_index

ORDERS = ("decision", "round_robin")
ILLEGAL = ("lose", "ignore", "raise")
Obs = dict[str, npt.NDArray[Any]]


class _Table:
    """The match shared by both env kinds: game, state, encoder, masks and outcome."""

    def __init__(
        self,
        game: str,
        players: int,
        config: Mapping[str, Any] | None,
        max_cycles: int | None,
        illegal: str,
        wait: bool,
    ) -> None:
        self.game: Game[Any] = load_game(game)
        if players not in self.game.num_players:
            raise ConfigError(f"{game} cannot be played by {players} players")
        if max_cycles is not None and max_cycles < 1:
            raise ConfigError(f"max_cycles must be at least 1 or None, not {max_cycles}")
        if illegal not in ILLEGAL:
            raise ConfigError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        self.players = players
        self.config: Mapping[str, Any] = (
            dict(config) if config is not None else default_config(self.game, players)
        )
        self.game.new_state(self.config, 0)  # a bad config fails now, with the game's error
        self.max_cycles = max_cycles
        self.illegal = illegal
        self.encoder = encoder_for(self.game, players)
        self.n_actions = len(self.game.action_ids())
        self.wait = self.n_actions if wait else None
        self.space_size = self.n_actions + (1 if wait else 0)
        self._masks = MaskMaker(self.space_size)
        self._actions = action_table(self.game)
        self.agents = [f"player_{p}" for p in range(players)]
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, OBS_HIGH, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.space_size,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.space_size)
        self.rng = np.random.default_rng()
        self._state: State[Any] | None = None
        self._legal: list[int] | None = None
        """Ids of the legal actions of the current decision (None: not listed yet)."""

    @property
    def state(self) -> State[Any]:
        if self._state is None:
            raise ConfigError("call reset() before using the environment")
        return self._state

    def reset(self, seed: int | None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self._state = self.game.new_state(self.config, int(self.rng.integers(SEED_RANGE)))
        self._legal = None

    def set_state(self, state: State[Any]) -> None:
        self._state = state
        self._legal = None

    def legal(self) -> list[int]:
        if self._legal is None:
            self._legal = legal_ids(self.game, self.state)
        return self._legal

    def decider(self) -> int:
        return self.state.current_player

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        state = self.state
        if state.is_terminal():
            return self._masks([])
        if state.current_player == seat:
            return self._masks(self.legal())
        return self._masks([] if self.wait is None else [self.wait])

    def observe(self, seat: int) -> Obs:
        return {
            "observation": self.encoder.encode_state(self.state, seat),
            "action_mask": self.mask(seat),
        }

    def play(self, seat: int, action: Any) -> str | None:
        """Play ``action`` (an id) for ``seat``; the engine's reason if it is not legal."""
        state = self.state
        if action is None:
            raise ConfigError("a live agent must act: None is only for finished agents")
        index = action_index(action)
        if not 0 <= index < self.space_size:
            raise ConfigError(f"action id {action!r} is outside 0..{self.space_size - 1}")
        if state.current_player != seat:
            if index == self.wait:
                return None
            return f"player {seat + 1} has no decision now: the only legal action is WAIT"
        if index == self.wait:
            return f"player {seat + 1} must decide now: WAIT is not legal"
        if index not in self.legal():
            error = state.explain_illegal(self._actions[index])
            if self.illegal == "raise":
                raise error
            return str(error)
        state.apply_unchecked(self._actions[index])
        self._legal = None
        return None

    def final_rewards(self) -> list[float]:
        return [2.0 * r - 1.0 for r in self.state.returns()]

    def illegal_rewards(self, seat: int) -> list[float]:
        return [-1.0 if p == seat else 0.0 for p in range(self.players)]


class VelvetAECEnv(AECEnv[str, Obs, int]):  # type: ignore[misc]
    """A Velvet game as a PettingZoo AEC env (see the module docstring)."""

    def __init__(
        self,
        game: str = "vs",
        players: int = 2,
        config: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        order: str = "decision",
        illegal: str = "lose",
    ) -> None:
        super().__init__()
        if order not in ORDERS:
            raise ConfigError(f"order must be one of {', '.join(ORDERS)}, not {order!r}")
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.table = _Table(game, players, config, max_cycles, illegal, order == "round_robin")
        self.order = order
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": ["ansi"],
            "name": f"velvet_{self.table.game.name}_v0",
            "is_parallelizable": False,
        }
        self.possible_agents = list(self.table.agents)
        self._seats = {a: p for p, a in enumerate(self.possible_agents)}
        self.agents: list[str] = []
        self._rewarded = False
        """Whether ``rewards`` may hold a non-zero entry (set by :meth:`_end`)."""
        self.observation_spaces = {a: self.table.observation_space for a in self.possible_agents}
        self.action_spaces = {a: self.table.action_space for a in self.possible_agents}
        self.cycles = 0
        self._stepped = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def engine_state(self) -> State[Any]:
        """The engine state (clone it to search; :meth:`restore` puts one back: undo)."""
        return self.table.state

    def restore(self, state: State[Any]) -> None:
        if state.game is not self.table.game:
            raise ConfigError("restore: the state is of another game or card set")
        if state.is_terminal():
            raise ConfigError("restore: the state is finished; reset() instead")
        self.table.set_state(state.clone())
        self._select_next()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.cycles = 0
        self._stepped = 0
        self._rewarded = False
        self.agent_selection = self.agents[0]
        self._select_next()

    def observe(self, agent: str) -> Obs:
        seat = self._seats.get(agent)
        if seat is None:
            seat = self.possible_agents.index(agent)  # not an agent: list.index says so
        return self.table.observe(seat)

    def _select_next(self) -> None:
        if self.order == "decision":
            self.agent_selection = self.possible_agents[self.table.decider()]
        else:
            self.agent_selection = self.possible_agents[self._stepped % len(self.agents)]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seats[agent]
        self._cumulative_rewards[agent] = 0.0
        # Rewards and infos start each step empty; most steps find them so already.
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        infos = self.infos
        for a in self.agents:
            if infos[a]:
                infos[a] = {}
        problem = self.table.play(seat, action)
        if problem is not None:
            self.infos[agent] = {"illegal": problem}
            if self.table.illegal == "lose":
                self._end(self.table.illegal_rewards(seat), truncated=False)
                self._accumulate_rewards()
                return
        self._stepped += 1
        if self.order == "decision" or self._stepped % len(self.agents) == 0:
            self.cycles += 1
        if self.table.state.is_terminal():
            self._end(self.table.final_rewards(), truncated=False)
        elif self.table.max_cycles is not None and self.cycles >= self.table.max_cycles:
            self._end([0.0] * len(self.agents), truncated=True)
        else:
            self._select_next()
        if self._rewarded:
            self._accumulate_rewards()

    def _end(self, rewards: list[float], truncated: bool) -> None:
        self._rewarded = True
        for p, a in enumerate(self.possible_agents):
            self.rewards[a] = rewards[p]
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
        self._deads_step_first()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        state = self.table.state
        lines = [state.outcome_text()]
        if not state.is_terminal():
            lines.append(f"to decide: {self.possible_agents[state.current_player]}")
            lines += [f"  {state.action_label(a)}" for a in state.legal_actions()]
        return "\n".join(lines) + "\n"

    def close(self) -> None:
        return None


class VelvetParallelEnv(ParallelEnv[str, Obs, int]):  # type: ignore[misc]
    """A Velvet game as a PettingZoo parallel env: one cycle per step (module docstring)."""

    def __init__(
        self,
        game: str = "vs",
        players: int = 2,
        config: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        illegal: str = "ignore",
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.table = _Table(game, players, config, max_cycles, illegal, True)
        self.render_mode = render_mode
        self.metadata = {"render_modes": ["ansi"], "name": f"velvet_{self.table.game.name}_v0"}
        self.possible_agents = list(self.table.agents)
        self.agents: list[str] = []
        self.cycles = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.table.observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.table.action_space

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        self.cycles = 0
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, Obs]:
        return {a: self.table.observe(self.possible_agents.index(a)) for a in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, Obs],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        table = self.table
        decider = self.possible_agents[table.decider()]
        if decider not in actions:
            raise ConfigError(f"{decider} decides now: its action is missing")
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        rewards = dict.fromkeys(self.agents, 0.0)
        seat = self.possible_agents.index(decider)
        for agent, action in actions.items():
            if agent != decider and agent in infos and action != table.wait:
                infos[agent]["illegal"] = f"{agent} has no decision now: its action is ignored"
        problem = table.play(seat, actions[decider])
        ended = truncated = False
        if problem is not None:
            infos[decider]["illegal"] = problem
            if table.illegal == "lose":
                rewards = dict(zip(self.agents, table.illegal_rewards(seat), strict=True))
                ended = True
        self.cycles += 1
        if not ended and table.state.is_terminal():
            rewards = dict(zip(self.agents, table.final_rewards(), strict=True))
            ended = True
        if not ended and table.max_cycles is not None and self.cycles >= table.max_cycles:
            truncated = True
        observations = self._observations()
        terminations = dict.fromkeys(self.agents, ended)
        truncations = dict.fromkeys(self.agents, truncated)
        if ended or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self.table.state.outcome_text() + "\n"

    def close(self) -> None:
        return None


def vs_env(**kwargs: Any) -> VelvetAECEnv:
    """Persona VS as an AEC env (keywords as :class:`VelvetAECEnv`)."""
    return VelvetAECEnv(game="vs", **kwargs)


def p5_env(**kwargs: Any) -> VelvetAECEnv:
    """Two-player P5 (co-operative) as an AEC env."""
    return VelvetAECEnv(game="p5", players=kwargs.pop("players", 2), **kwargs)


def vs_parallel_env(**kwargs: Any) -> VelvetParallelEnv:
    return VelvetParallelEnv(game="vs", **kwargs)


def p5_parallel_env(**kwargs: Any) -> VelvetParallelEnv:
    return VelvetParallelEnv(game="p5", players=kwargs.pop("players", 2), **kwargs)
