"""Gymnasium single-agent environments: P5 solo, and one VS seat against a bot.

``gymnasium.make("velvet/vs-v0", opponent="normal")`` and ``gymnasium.make("velvet/p5-v0")``
(registered when :mod:`velvet.adapters` is imported). Actions are the game's stable
action ids (``Discrete``); the observation is a dict with the encoded view of the
agent's seat and the action mask, and ``info["action_mask"]`` repeats the mask.
An action id that is not legal now changes nothing in the game: by default it ends
the episode as a loss (reward -1, ``info["illegal"]`` quotes the engine's reason and
rule ID); with ``illegal="raise"`` it raises the engine's :class:`IllegalActionError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from velvet.adapters._engine import (
    SEED_RANGE,
    Bot,
    ConfigError,
    Game,
    Rng,
    State,
    action_table,
    bot_reads_view,
    default_config,
    default_players,
    legal_ids,
    load_game,
    make_opponent,
    num_action_ids,
    shaping_potential,
)
from velvet.adapters.encoding import encoder_for

Obs = dict[str, npt.NDArray[Any]]

ILLEGAL_POLICIES = ("lose", "raise")
"""What an action id that is not legal now does: end the episode as a loss, or raise."""
ILLEGAL_REWARD = -1.0
OBS_HIGH = 64.0
"""Upper bound of the observation box (encoded values are counts and ratios, all small)."""

DEFAULT_MAX_STEPS = 5000
"""Agent decisions before an episode is truncated (P5 has free actions that may repeat)."""


def action_index(action: Any) -> int:
    """An action id (int, numpy integer or 0-d integer array) as an int; else a ConfigError."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        raise ConfigError(f"an action is an integer id, not {action!r}")
    return int(action)


class MaskMaker:
    """Masks of ``size`` entries, 1 at each of the legal ids given, else 0.

    The same lists of legal ids come back again and again (end the turn, pass, ...), so
    each mask is built once and copied after: every call returns a new array, since
    callers keep what an env returns.
    """

    LIMIT = 4096
    """Masks kept; past this many the store starts afresh."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._made: dict[tuple[int, ...], npt.NDArray[np.int8]] = {}

    def __call__(self, ids: list[int]) -> npt.NDArray[np.int8]:
        key = tuple(ids)
        mask = self._made.get(key)
        if mask is None:
            mask = np.zeros(self.size, dtype=np.int8)
            mask[ids] = 1
            if len(self._made) >= self.LIMIT:
                self._made.clear()
            self._made[key] = mask
        return mask.copy()


class VelvetEnv(gym.Env[dict[str, Any], np.int64]):
    """One seat of a Velvet game; every other seat is played by a bot from ``opponent``.

    Reward: at the end, ``2 * returns()[seat] - 1`` (win +1, loss -1, VS draw 0; P5 is
    co-operative, so a lost P5 game is -1; ``info["returns"]`` has every seat's), plus,
    if ``shaping`` is set, the game's reward shaping (``GameSpec.shaping``; VS: the HP
    difference, docs/rl.md). ``terminated`` when the
    game ends; ``truncated`` after ``max_steps`` agent decisions.
    """

    def __init__(
        self,
        game: str = "vs",
        seat: int = 0,
        opponent: str = "random",
        players: int | None = None,
        config: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        shaping: float = 0.0,
        illegal: str = "lose",
    ) -> None:
        self.game: Game[Any] = load_game(game)
        if players is None:
            players = default_players(self.game)
        if players not in self.game.num_players:
            raise ConfigError(
                f"{game} is played by {' or '.join(map(str, self.game.num_players))} players, "
                f"not {players}"
            )
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise ConfigError(f"seat must be 0 to {players - 1}, not {seat!r}")
        self.metadata = {"render_modes": ["ansi"], "render_fps": 4}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        if max_steps < 1:
            raise ConfigError(f"max_steps must be at least 1, not {max_steps}")
        if illegal not in ILLEGAL_POLICIES:
            raise ConfigError(
                f"illegal must be one of {', '.join(ILLEGAL_POLICIES)}, not {illegal!r}"
            )
        self._shaping_potential = shaping_potential(self.game)
        if shaping and self._shaping_potential is None:
            raise ConfigError(f"game '{game}' has no reward shaping (its GameSpec sets none)")
        self.players = players
        self.seat = seat
        self.opponent_spec = opponent
        make_opponent(opponent, self.game)  # a bad spec fails here, not at reset
        self.config: Mapping[str, Any] = (
            dict(config) if config is not None else default_config(self.game, players)
        )
        self.game.new_state(self.config, 0)  # a bad config fails here, with the game's error
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.shaping = shaping
        self.illegal = illegal
        self.encoder = encoder_for(self.game, players)
        self.n_actions = num_action_ids(self.game)
        self._masks = MaskMaker(self.n_actions)
        self._actions = action_table(self.game)
        self.action_space = spaces.Discrete(self.n_actions)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, OBS_HIGH, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.n_actions,), np.int8),
            }
        )
        self._state: State[Any] | None = None
        self._bots: dict[int, Bot] = {}
        self._bot_rng = Rng(0)
        self._steps = 0
        self._potential = 0.0
        self.decisions = 0
        """Decisions of this episode, the agent's and the bots' together."""
        self._legal: list[int] | None = None
        """Ids of the legal actions now (None: not listed yet)."""
        self._bot_views: dict[int, bool] = {}
        self._done = False

    # --- the state, for search and analysis beside the gym API -----------------------

    @property
    def state(self) -> State[Any]:
        """The engine state of the running episode (clone it to search)."""
        if self._state is None:
            raise ConfigError("call reset() before using the environment")
        return self._state

    def clone_state(self) -> State[Any]:
        return self.state.clone()

    def restore(self, state: State[Any]) -> None:
        """Continue the episode from ``state`` (e.g. a clone taken earlier: undo).

        If another seat decides in ``state``, its bot plays until the agent's turn.
        """
        if state.game is not self.game:
            raise ConfigError("restore: the state is of another game or card set")
        self._state = state.clone()
        self._forget_legal()
        self._play_others()
        self._done = self._state.is_terminal()
        self._potential = self._shaped_potential()

    # --- gym API -----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        engine_seed = int(self.np_random.integers(SEED_RANGE))
        self._state = self.game.new_state(self.config, engine_seed)
        self._forget_legal()
        self._bot_rng = Rng(int(self.np_random.integers(SEED_RANGE)))
        self._bots = {
            p: make_opponent(self.opponent_spec, self.game)
            for p in range(self.players)
            if p != self.seat
        }
        self._bot_views = {p: bot_reads_view(bot) for p, bot in self._bots.items()}
        self._steps = 0
        self.decisions = 0
        self._done = False
        self._play_others()
        self._potential = self._shaped_potential()
        return self.observe()

    def step(self, action: np.int64 | int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        reward, terminated, truncated, extra = self.advance(action)
        obs, info = self.observe()
        info.update(extra)
        return obs, reward, terminated, truncated, info

    def advance(self, action: np.int64 | int) -> tuple[float, bool, bool, dict[str, Any]]:
        """``step`` without building the observation: reward, terminated, truncated and the
        info beyond the mask (``illegal`` or ``returns``). The vector env writes the
        observation in place after it (:meth:`observe_into`)."""
        state = self.state
        if self._done:
            raise ConfigError("the episode is over: call reset()")
        index = action_index(action)
        if not 0 <= index < self.n_actions:
            raise ConfigError(f"action id {action!r} is outside 0..{self.n_actions - 1}")
        if index not in self._legal_ids():
            error = state.explain_illegal(self._actions[index])
            if self.illegal == "raise":
                raise error
            self._done = True
            return ILLEGAL_REWARD, True, False, {"illegal": str(error)}
        state.apply_unchecked(self._actions[index])
        self._forget_legal()
        self._steps += 1
        self.decisions += 1
        self._play_others()
        terminated = state.is_terminal()
        reward = 0.0
        if terminated:
            reward = 2.0 * state.returns()[self.seat] - 1.0
        if self.shaping:
            potential = 0.0 if terminated else self._shaped_potential()
            reward += self.shaping * (potential - self._potential)
            self._potential = potential
        truncated = not terminated and self._steps >= self.max_steps
        self._done = terminated or truncated
        return reward, terminated, truncated, {"returns": state.returns()} if terminated else {}

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        state = self.state
        lines = [f"{self.game.name} seat {self.seat}: {state.outcome_text()}"]
        if not state.is_terminal():
            lines.append(f"to move: seat {state.current_player}")
            lines += [f"  {state.action_label(a)}" for a in state.legal_actions()]
        return "\n".join(lines) + "\n"

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action mask as booleans (the name sb3-contrib's MaskablePPO calls)."""
        mask = np.zeros(self.n_actions, dtype=np.bool_)
        mask[self._legal_ids()] = True
        return mask

    def _legal_ids(self) -> list[int]:
        if self._legal is None:
            state = self.state
            self._legal = [] if state.is_terminal() else legal_ids(self.game, state)
        return self._legal

    def _forget_legal(self) -> None:
        self._legal = None

    # --- helpers -----------------------------------------------------------------------

    def _play_others(self) -> None:
        state = self.state
        game = self.game
        views = self._bot_views
        while not state.is_terminal() and state.current_player != self.seat:
            p = state.current_player
            view = state.view(p) if views[p] else {}
            action = self._bots[p].choose(game, view, state.legal_actions(), self._bot_rng)
            state.apply_unchecked(action)
            self._forget_legal()
            self.decisions += 1

    def observe(self) -> tuple[Obs, dict[str, Any]]:
        """The observation and info of the agent's seat now (both carry the action mask)."""
        mask = self._masks(self._legal_ids())  # a new array each call: callers keep it
        obs: Obs = {
            "observation": self.encoder.encode_state(self.state, self.seat),
            "action_mask": mask,
        }
        return obs, {"action_mask": mask}

    def observe_into(
        self, observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]
    ) -> None:
        """Write the agent's observation and action mask now into the given rows (what
        :meth:`observe` returns, without new arrays: the vector env's batch)."""
        self.encoder.encode_state(self.state, self.seat, observation)
        mask.fill(0)
        mask[self._legal_ids()] = 1

    def _shaped_potential(self) -> float:
        if not self.shaping or self._shaping_potential is None:
            return 0.0
        return self._shaping_potential(self.state, self.seat)


def register_envs() -> None:
    """Register ``velvet/vs-v0`` and ``velvet/p5-v0`` with Gymnasium (idempotent), each
    with :class:`velvet.adapters.vector_env.VelvetVectorEnv` as its batched form."""
    for env_id, kwargs in (("velvet/vs-v0", {"game": "vs"}), ("velvet/p5-v0", {"game": "p5"})):
        if env_id not in gym.registry:
            gym.register(
                env_id,
                entry_point=_make,
                vector_entry_point="velvet.adapters.vector_env:make_vector_env",
                kwargs=kwargs,
            )


def _make(**kwargs: Any) -> VelvetEnv:
    return VelvetEnv(**kwargs)
