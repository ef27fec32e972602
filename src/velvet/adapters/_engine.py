"""The one place where the adapters touch Velvet's engine.

Every adapter (Gymnasium, PettingZoo, OpenSpiel) reaches games, states, bots and
the seeded RNG through these names only, so a move of any of them in the engine
is fixed here once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from velvet.bots import Bot, RandomBot, make_bot
from velvet.engine.core import Game, State, canonical_json
from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng
from velvet.engine.spec import GameSpec
from velvet.engine.workers import die_with_parent
from velvet.games import find_spec, get_spec

__all__ = [
    "Bot",
    "ConfigError",
    "Game",
    "GameSpec",
    "Rng",
    "State",
    "action_from_id",
    "action_table",
    "bot_reads_view",
    "canonical_json",
    "dealer",
    "default_config",
    "default_players",
    "determinize",
    "die_with_parent",
    "id_table",
    "legal_ids",
    "load_game",
    "make_opponent",
    "num_action_ids",
    "set_seat_rng",
    "shaping_potential",
    "spec_of",
]

SEED_RANGE = 1 << 62
"""Velvet seeds drawn by the adapters lie in ``[0, SEED_RANGE)``."""


_SPECS: dict[str, GameSpec] = {}
"""Game name -> the spec :func:`load_game` last loaded it from (a game named
``module:SPEC`` is registered under no name, so ``game.name`` alone cannot find it). Keyed
by name, not by the game object: a weak reference to a game, whose base class is compiled
in the compiled build, crashed that build."""


def load_game(name: str) -> Game[Any]:
    """The game ``name``, a registered name or ``package.module:SPEC``, with its built-in
    card set; ConfigError names a wrong one."""
    spec = get_spec(name)
    game = spec.load(())
    _SPECS[game.name] = spec
    return game


def spec_of(game: Game[Any]) -> GameSpec:
    """The spec of ``game``: the one :func:`load_game` loaded a game of its name from, else
    the one registered under its name; ConfigError if there is none."""
    spec = _SPECS.get(game.name) or find_spec(game.name)
    if spec is None:
        raise ConfigError(
            f"game '{game.name}' is not registered: load it with load_game('package.module:SPEC')"
        )
    return spec


def default_players(game: Game[Any]) -> int:
    """The seat count an env plays when none is given: the fewest the game offers."""
    return min(spec_of(game).players)


def default_config(game: Game[Any], players: int = 2) -> dict[str, Any]:
    """The game's default set-up for ``players`` seats: its spec's ``config_for`` with no
    options, as ``velvet play GAME`` deals it (VS: the two built-in decks)."""
    return dict(spec_of(game).config_for(game, players, {}))


def shaping_potential(game: Game[Any]) -> Callable[[State[Any], int], float] | None:
    """The game's reward-shaping potential (its spec's ``shaping``), or None."""
    spec = spec_of(game)
    if spec.shaping is None:
        return None
    potential = spec.plugin("shaping", "reward shaping")
    if not callable(potential):
        raise ConfigError(f"game '{spec.name}': shaping {spec.shaping} is not a function")
    return potential  # type: ignore[no-any-return]


def num_action_ids(game: Game[Any]) -> int:
    return len(game.action_ids())


def action_from_id(game: Game[Any], index: int) -> Any:
    return game.action_from_id(index)


def determinize(game: Game[Any], view: Mapping[str, Any], player: int, rng: Rng) -> State[Any]:
    """A full state consistent with ``view`` (hidden cards and deck orders sampled)."""
    method = getattr(game, "determinize", None)
    if method is None:
        raise ConfigError(f"game '{game.name}' cannot sample states from a view")
    state: State[Any] = method(dict(view), player, rng)
    return state


def dealer(game: Game[Any], config: Mapping[str, Any]) -> Callable[[Rng], State[Any]]:
    """A function that sets up the game of ``config`` with every draw from a given Rng.

    ``game.new_state(config, seed)`` is exactly ``dealer(game, config)(Rng(seed))``
    (the contract's ``new_state(config, Rng)``; tested): the OpenSpiel adapter hands
    each draw of the deal to chance through it. A bad config fails here, once, with
    the game's error.
    """
    game.new_state(config, 0)
    fixed = dict(config)

    def deal(rng: Rng) -> State[Any]:
        return game.new_state(fixed, rng)

    return deal


def make_opponent(spec: str, game: Game[Any]) -> Bot:
    """A fresh bot from a spec such as ``random``, ``greedy``, ``normal`` or ``mcts:200``."""
    return make_bot(spec, game.name)


def bot_reads_view(bot: Bot) -> bool:
    """Whether ``bot`` looks at the view it is given (the random bot does not).

    The envs skip building a view nobody reads; every other bot gets its seat's view.
    """
    return type(bot) is not RandomBot


def set_seat_rng(state: State[Any], rng: Rng) -> None:
    """Make ``state`` draw its dice and shuffles from ``rng`` (the OpenSpiel chance nodes).

    Past the contract: both games keep their RNG in the ``rng`` field of the state.
    """
    state.rng = rng  # type: ignore[attr-defined]


class _IdTables:
    """The action <-> stable id tables of one game object."""

    __slots__ = ("actions", "by_identity", "by_value", "game", "misses")

    MISSES = 64
    """Decisions with an action made on the fly after which the lookup by identity stops
    (an engine that makes its actions anew each time is cheaper to hash at once; VS
    and P5 both hand out the table's own objects)."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.actions: list[Any] = [game.action_from_id(i) for i in range(len(game.action_ids()))]
        """Id -> action (the game's own objects, kept alive here)."""
        self.by_value: dict[Any, int] = {a: i for i, a in enumerate(self.actions)}
        # The engines hand out their own action objects for most legal actions (the same
        # objects ``action_from_id`` gives), so a lookup by identity finds most ids without
        # hashing the action. The objects live in ``actions``, so no other live object
        # shares their ``id``; a miss falls back to the lookup by value.
        self.by_identity: dict[int, int] = (
            {id(a): i for i, a in enumerate(self.actions)}
            if len(self.by_value) == len(self.actions)
            else {}  # equal actions under two ids: only the lookup by value is sure
        )
        self.misses = 0 if self.by_identity else self.MISSES


_ID_TABLES: dict[int, _IdTables] = {}


def _tables(game: Game[Any]) -> _IdTables:
    entry = _ID_TABLES.get(id(game))
    if entry is None or entry.game is not game:
        entry = _ID_TABLES[id(game)] = _IdTables(game)
    return entry


def id_table(game: Game[Any]) -> dict[Any, int]:
    """Action -> stable id for every action of ``game`` (built once per game object)."""
    return _tables(game).by_value


def action_table(game: Game[Any]) -> list[Any]:
    """Stable id -> action for every action of ``game``: ``action_from_id`` as a list.

    Built once per game object; callers must not change it.
    """
    return _tables(game).actions


def legal_ids(game: Game[Any], state: State[Any]) -> list[int]:
    """The stable ids of the legal actions, in the engine's legal order."""
    tables = _tables(game)
    legal = state.legal_actions()
    if tables.misses < tables.MISSES:
        ids = list(map(tables.by_identity.get, map(id, legal)))
        if None not in ids:
            return ids  # type: ignore[return-value]
        tables.misses += 1  # an action object made on the fly: look them up by value
    return list(map(tables.by_value.__getitem__, legal))
