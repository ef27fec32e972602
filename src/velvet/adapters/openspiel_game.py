"""Velvet's games as OpenSpiel Python games: ``python_velvet_vs`` and ``python_velvet_p5``.

Importing this module registers every registered game that has an observation encoder
(``GameSpec.encoder``) with ``pyspiel`` as ``python_velvet_<name>``; :func:`register`
adds one named ``package.module:SPEC``. Then
``pyspiel.load_game("python_velvet_vs")`` (or ``"python_velvet_p5(players=2)"``)
works in any OpenSpiel code. Player actions are the game's stable action ids.

Chance. Every random draw is its own chance node with ``n`` equally likely outcomes,
exactly the engine's ``randbelow(n)`` (a die, each swap of a shuffle, a random
discard): the adapter tries the chosen action on a copy whose RNG stops at the first
draw not yet decided, and asks chance for it; the rest of a shuffle's ranges are known
ahead (Fisher-Yates). Both deals are drawn the same way, through the engine's own
set-up: VS in 77 nodes (two shuffles of 39 cards, then who goes first), P5 in one
node per swap of its three shuffles (the locations deck, the confidants, the shadows:
13 + 18 + 39 = 70 nodes with the default two-player config, 71 solo).

Observations are the encoded view of a seat (docs/rl.md) and their strings the view as
canonical JSON. Information states add the seat's own past actions (perfect recall; a
fixed-size tensor, see :class:`VelvetObserver`).
``resample_from_infostate`` samples the hidden cards with the game's ``determinize``.
A game longer than :data:`MAX_GAME_LENGTH` moves ends there as a draw (utility 0).
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence
from typing import Any, TypeVar

import numpy as np
import pyspiel

from velvet.adapters._engine import (
    ConfigError,
    Game,
    Rng,
    State,
    action_from_id,
    canonical_json,
    dealer,
    default_config,
    determinize,
    legal_ids,
    load_game,
    set_seat_rng,
    spec_of,
)
from velvet.adapters.encoding import encoder_for
from velvet.engine.spec import GameSpec
from velvet.games import game_names, get_spec

MAX_DRAW = 64
"""The most outcomes a chance node can have (a draw is at most over a 40-card deck)."""
OWN_ACTIONS = 1024
"""Own past actions kept in an information-state tensor (random play: at most ~100 in VS,
~460 in P5); a longer history sets the overflow entry and keeps the first ones."""
MAX_GAME_LENGTH = 20_000
"""Moves (chance and player) after which a game is cut off as a draw."""
SEED_SCALE = 1 << 62


T = TypeVar("T")
_CONFIGS: dict[tuple[str, int], dict[str, Any]] = {}
_GAMES: dict[str, Game[Any]] = {}
_FIRST_DRAW: dict[tuple[str, int], _NeedDraw] = {}
"""The first draw of each game's deal (the same for every initial state), once known."""
_DEALERS: dict[tuple[str, int], Callable[[Rng], State[Any]]] = {}


def _config(game_name: str, players: int) -> dict[str, Any]:
    """The default config of a game and player count (built once: VS reads deck files)."""
    key = (game_name, players)
    if key not in _CONFIGS:
        _CONFIGS[key] = default_config(load_game(game_name), players)
    return _CONFIGS[key]


def _deal_with(game_name: str, players: int, rng: Rng) -> State[Any]:
    """The deal of the default config, every draw from ``rng`` (set-up checked once)."""
    key = (game_name, players)
    deal = _DEALERS.get(key)
    if deal is None:
        deal = _DEALERS[key] = dealer(load_game(game_name), _config(game_name, players))
    return deal(rng)


class _NeedDraw(Exception):
    """Raised by :class:`_ProbeRng` at the first draw that chance has not decided yet.

    ``ahead``: the ranges of the draws that must follow (the rest of a shuffle), known
    before their outcomes, so they need no new trial of the move.
    """

    def __init__(self, bound: int, ahead: tuple[int, ...] = ()) -> None:
        super().__init__(bound)
        self.bound = bound
        self.ahead = ahead


class _ProbeRng(Rng):
    """An RNG that returns the decided outcomes, then stops at the next draw."""

    __slots__ = ("_shuffling",)

    def __init__(self, seed: int, script: list[int]) -> None:
        super().__init__(seed, script)
        self._shuffling = False

    def randbelow(self, n: int) -> int:
        if not self._script:
            # Rng.shuffle is Fisher-Yates: after a draw below n come n-1, n-2, ..., 2.
            raise _NeedDraw(n, tuple(range(n - 1, 1, -1)) if self._shuffling else ())
        return super().randbelow(n)

    def shuffle(self, items: MutableSequence[T]) -> None:
        self._shuffling = True
        try:
            super().shuffle(items)
        finally:
            self._shuffling = False


class _Match:
    """The Velvet side of one OpenSpiel state; copied by ``clone`` and pickled by value."""

    __slots__ = (
        "ahead",
        "bound",
        "game_name",
        "moves",
        "outcomes",
        "own",
        "pending",
        "players",
        "state",
    )

    def __init__(self, game_name: str, players: int) -> None:
        self.game_name = game_name
        self.players = players
        self.state: State[Any] | None = None
        self.pending: Any = None
        """The player action waiting for its chance draws, or None."""
        self.outcomes: list[int] = []
        self.bound = MAX_DRAW
        """Outcomes of the pending chance node."""
        self.ahead: list[int] = []
        """Outcomes of the chance nodes known to follow this one (the rest of a shuffle)."""
        self.moves = 0
        self.own: list[list[int]] = [[] for _ in range(players)]
        """Each seat's own actions so far (ids): the perfect-recall part of its infostate."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Match:
        other = _Match(self.game_name, self.players)
        other.state = self.state.clone() if self.state is not None else None
        other.pending = self.pending
        other.outcomes = self.outcomes.copy()
        other.bound = self.bound
        other.ahead = self.ahead.copy()
        other.moves = self.moves
        other.own = [xs.copy() for xs in self.own]
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        data = None if self.state is None else self.state.to_json()
        pending = None if self.pending is None else str(self.pending)
        return (
            _rebuild,
            (
                self.game_name,
                self.players,
                data,
                pending,
                self.outcomes,
                self.bound,
                self.moves,
                self.own,
                self.ahead,
            ),
        )


def _rebuild(
    game_name: str,
    players: int,
    data: Any,
    pending: str | None,
    outcomes: list[int],
    bound: int,
    moves: int,
    own: list[list[int]],
    ahead: list[int],
) -> _Match:
    game = load_game(game_name)
    match = _Match(game_name, players)
    match.state = None if data is None else game.state_from_json(data)
    match.pending = None if pending is None else game.parse_action(pending)
    match.outcomes = list(outcomes)
    match.bound = bound
    match.moves = moves
    match.own = [list(xs) for xs in own]
    match.ahead = list(ahead)
    return match


def _game_type(short_name: str, spec: GameSpec) -> Any:
    """The OpenSpiel game type of a Velvet game: seat counts, co-operative or zero-sum
    and the ``players`` parameter (a game with several seat counts) from its spec."""
    low, high = min(spec.players), max(spec.players)
    coop = spec.cooperative
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"Velvet: {spec.title or spec.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.IDENTICAL if coop else pyspiel.GameType.Utility.ZERO_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": low} if low != high else {},
    )


class VelvetSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One Velvet game with its built-in cards and default config."""

    def __init__(self, game_name: str, game_type: Any, params: dict[str, Any] | None) -> None:
        params = dict(params or {})
        self.velvet: Game[Any] = load_game(game_name)
        spec = spec_of(self.velvet)
        players = int(params.get("players", min(spec.players)))
        if players not in self.velvet.num_players:
            raise ConfigError(f"{game_name}: players must be one of {self.velvet.num_players}")
        self.game_name = game_name
        self.players = players
        self.n_actions = len(self.velvet.action_ids())
        self.encoder = encoder_for(self.velvet, players)
        coop = spec.cooperative
        info = pyspiel.GameInfo(
            num_distinct_actions=self.n_actions,
            max_chance_outcomes=MAX_DRAW,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None if coop else 0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> VelvetSpielState:
        return VelvetSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> VelvetObserver:
        if params:
            raise ValueError(f"observer parameters are not supported; got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return VelvetObserver(self, perfect_recall)


REGISTERED: dict[str, str] = {}
"""Velvet game name -> the OpenSpiel short name it is registered under."""
_CLASSES: dict[str, type[VelvetSpielGame]] = {}
"""OpenSpiel short name -> the game class registered under it."""


def register(game_name: str, short_name: str | None = None) -> str:
    """Register the Velvet game ``game_name`` (a registered name or ``package.module:SPEC``)
    with ``pyspiel`` as ``short_name`` (default ``python_velvet_<its name>``) and return the
    short name; registering a game again returns its name. ConfigError if the game has no
    observation encoder (``GameSpec.encoder``)."""
    if game_name in REGISTERED:
        return REGISTERED[game_name]
    spec = get_spec(game_name)
    if spec.encoder is None:
        raise ConfigError(f"game '{spec.name}' has no observation encoder (GameSpec.encoder)")
    short = short_name or f"python_velvet_{spec.name}"
    game_type = _game_type(short, spec)

    def make(self: VelvetSpielGame, params: dict[str, Any] | None = None) -> None:
        VelvetSpielGame.__init__(self, game_name, game_type, params)

    # A class, kept here too: a closure registered with pyspiel alone made every process
    # abort at exit ("PyThreadState_Get: ... the GIL is released"; test_third_game).
    made = _CLASSES[short] = type(f"SpielGame_{spec.name}", (VelvetSpielGame,), {"__init__": make})
    pyspiel.register_game(game_type, made)
    REGISTERED[game_name] = short
    return short


class VelvetSpielState(pyspiel.State):  # type: ignore[misc]
    """A match: a deal chance node first, then player decisions and chance draws."""

    def __init__(self, game: VelvetSpielGame) -> None:
        super().__init__(game)
        # Only ``_m`` lives in __dict__: OpenSpiel deep-copies and pickles __dict__.
        self._m = _Match(game.game_name, game.players)
        self._deal()  # the first draw of the deal is the first chance node

    @property
    def _velvet(self) -> Game[Any]:
        name = self._m.game_name
        game = _GAMES.get(name)
        if game is None:
            game = _GAMES[name] = load_game(name)
        return game

    # --- the engine state, for search beside OpenSpiel's API --------------------------

    @property
    def velvet_state(self) -> State[Any] | None:
        """The engine state (None before the deal); while a chance draw is pending,
        the state from before the pending action."""
        return self._m.state

    # --- OpenSpiel API -----------------------------------------------------------------

    def current_player(self) -> int:
        m = self._m
        if m.state is None or m.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if m.state.is_terminal() or m.moves >= MAX_GAME_LENGTH:
            return int(pyspiel.PlayerId.TERMINAL)
        return m.state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        state = self._m.state
        if state is None or state.is_terminal() or state.current_player != player:
            return []
        return sorted(legal_ids(self._velvet, state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        bound = self._m.bound
        if self.current_player() != pyspiel.PlayerId.CHANCE:
            raise pyspiel.SpielError("chance_outcomes: this is not a chance node")
        p = 1.0 / bound
        return [(k, p) for k in range(bound)]

    def _apply_action(self, action: int) -> None:
        m = self._m
        m.moves += 1
        if m.state is None:
            m.outcomes.append(int(action))
            if m.ahead:  # the next draw of the same shuffle
                m.bound = m.ahead.pop(0)
                return
            self._deal()
            return
        if m.pending is None:
            m.own[m.state.current_player].append(int(action))
            m.pending = action_from_id(self._velvet, int(action))
            m.outcomes = []
        else:
            m.outcomes.append(int(action))
            if m.ahead:
                m.bound = m.ahead.pop(0)
                return
        self._resolve()

    def _deal(self) -> None:
        """Set up with the draws decided so far, or make the next draw a chance node."""
        m = self._m
        key = (m.game_name, m.players)
        first = _FIRST_DRAW.get(key)
        if not m.outcomes and first is not None:  # OpenSpiel makes an initial state per
            self._ask_chance(first)  # tensor call: the first draw is worked out once
            return
        try:
            state = _deal_with(m.game_name, m.players, _ProbeRng(0, m.outcomes))
        except _NeedDraw as need:
            if not m.outcomes:
                _FIRST_DRAW[key] = need
            self._ask_chance(need)
            return
        set_seat_rng(state, Rng(0))
        m.state = state
        m.outcomes = []

    def _ask_chance(self, need: _NeedDraw) -> None:
        bound = need.bound
        if bound > MAX_DRAW:  # the games' max_chance_outcomes (asking OpenSpiel costs more)
            raise pyspiel.SpielError(
                f"a draw over {bound} outcomes exceeds the game's "
                f"max_chance_outcomes ({self.get_game().max_chance_outcomes()})"
            )
        self._m.bound = bound
        self._m.ahead = list(need.ahead)

    def _resolve(self) -> None:
        """Play the pending action if every draw it makes is decided; else ask chance."""
        m = self._m
        if m.state is None:
            raise pyspiel.SpielError("no action can be pending before the deal")
        trial = m.state.clone()
        set_seat_rng(trial, _ProbeRng(0, m.outcomes))
        try:
            trial.apply_unchecked(m.pending)
        except _NeedDraw as need:
            self._ask_chance(need)
            return
        set_seat_rng(trial, Rng(0))
        m.state = trial
        m.pending = None
        m.outcomes = []

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._m.state is not None:
                return f"draw {action}"
            return f"deal draw {action}"
        return str(action_from_id(self._velvet, int(action)))

    def is_terminal(self) -> bool:
        m = self._m
        if m.state is None or m.pending is not None:
            return False
        return m.state.is_terminal() or m.moves >= MAX_GAME_LENGTH

    def returns(self) -> list[float]:
        state = self._m.state
        if state is None or not state.is_terminal():
            return [0.0] * self._m.players
        return [2.0 * r - 1.0 for r in state.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state that ``player_id`` cannot tell from this one (hidden cards sampled)."""
        m = self._m
        clone = self.clone()
        if m.state is None or m.pending is not None:
            return clone
        seed = int(float(probability_sampler()) * SEED_SCALE)
        view = m.state.view(player_id)
        clone._m.state = determinize(self._velvet, view, player_id, Rng(seed))
        return clone

    def __str__(self) -> str:
        state = self._m.state
        if state is None:
            return "before the deal"
        return state.outcome_text() if state.is_terminal() else canonical_json(state.to_json())


class VelvetObserver:
    """Observation and information-state tensors and strings from a seat's view.

    The observation is the encoded view of the seat. The information state (OpenSpiel
    asks for it with ``perfect_recall=True``) appends the seat's own past actions, so
    two histories the seat could tell apart never share an information state: one
    overflow entry (1 if the seat took more than :data:`OWN_ACTIONS` actions), then
    :data:`OWN_ACTIONS` entries, the ``k``-th being ``(id + 1) / distinct actions`` of
    the seat's ``k``-th action and 0 after its last. The string is the view and the list
    of those ids, as canonical JSON.
    """

    def __init__(self, game: VelvetSpielGame, perfect_recall: bool = False) -> None:
        self.encoder = game.encoder
        self.perfect_recall = perfect_recall
        self.n_actions = game.n_actions
        size = self.encoder.size
        extra = 1 + OWN_ACTIONS if perfect_recall else 0
        self.tensor = np.zeros(size + extra, np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["own_actions_overflow"] = self.tensor[size : size + 1]
            self.dict["own_actions"] = self.tensor[size + 1 :]

    def set_from(self, state: VelvetSpielState, player: int) -> None:
        velvet = state.velvet_state
        tensor = self.tensor
        size = self.encoder.size
        if velvet is None:
            tensor.fill(0.0)
        else:
            self.encoder.encode_state(velvet, player, self.dict["observation"])
        if self.perfect_recall:
            own = state._m.own[player]
            history = tensor[size + 1 :]
            history.fill(0.0)
            tensor[size] = 1.0 if len(own) > OWN_ACTIONS else 0.0
            kept = own[:OWN_ACTIONS]
            if kept:
                history[: len(kept)] = (np.asarray(kept, np.float64) + 1.0) / self.n_actions

    def string_from(self, state: VelvetSpielState, player: int) -> str:
        velvet = state.velvet_state
        if velvet is None:
            view: Any = f"player {player}: before the deal"
        else:
            view = velvet.view(player)
        if not self.perfect_recall:
            return view if isinstance(view, str) else canonical_json(view)
        return canonical_json({"view": view, "own_actions": state._m.own[player]})


for _name in game_names():
    if get_spec(_name).encoder is not None:
        register(_name)
