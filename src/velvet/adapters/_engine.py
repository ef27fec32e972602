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
from velvet.engine.workers import die_with_parent
from velvet.games import find_spec, get_game
from velvet.p5.state import PHASES as P5_PHASE_NAMES
from velvet.p5.view import describe_decision as p5_describe_decision
from velvet.vs.actions import SLOT_NAMES as VS_SLOT_NAMES
from velvet.vs.state import FRAME_NAMES as VS_FRAME_NAMES
from velvet.vs.state import STEP_NAMES as VS_STEP_NAMES

__all__ = [
    "P5_PHASE_NAMES",
    "VS_FRAME_NAMES",
    "VS_SLOT_NAMES",
    "VS_STEP_NAMES",
    "Bot",
    "ConfigError",
    "Game",
    "Rng",
    "State",
    "action_from_id",
    "action_table",
    "bot_reads_view",
    "canonical_json",
    "dealer",
    "default_config",
    "determinize",
    "die_with_parent",
    "id_table",
    "legal_ids",
    "load_game",
    "make_opponent",
    "num_action_ids",
    "p5_card_ids",
    "p5_describe_decision",
    "set_seat_rng",
    "vs_card_ids",
    "vs_hit_points",
]

SEED_RANGE = 1 << 62
"""Velvet seeds drawn by the adapters lie in ``[0, SEED_RANGE)``."""


def load_game(name: str) -> Game[Any]:
    """The built-in game ``name`` ("vs" or "p5"); ConfigError names a wrong one."""
    return get_game(name)


def default_config(game: Game[Any], players: int = 2) -> dict[str, Any]:
    """The game's default set-up for ``players`` seats: its spec's ``config_for`` with no
    options, as ``velvet play GAME`` deals it (VS: the two built-in decks)."""
    spec = find_spec(game.name)
    if spec is None:
        raise ConfigError(f"game '{game.name}' is not registered; pass config=...")
    return dict(spec.config_for(game, players, {}))


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


def vs_hit_points(state: State[Any]) -> list[int]:
    """Both seats' HP in a VS state: ``view(seat)["hp"]`` of any seat, without the view.

    Past the contract: reads the state's ``hp`` field (public in every view).
    """
    hp: list[int] = state.hp  # type: ignore[attr-defined]
    return hp


def vs_card_ids(game: Game[Any]) -> tuple[str, ...]:
    """Every VS card id of the game's card set, in the game's own order."""
    ids: tuple[str, ...] = game.ids  # type: ignore[attr-defined]
    return ids


def p5_card_ids(game: Game[Any]) -> dict[str, tuple[str, ...]]:
    """The ids of each P5 card kind of the game's card set."""
    cards = game.cards  # type: ignore[attr-defined]
    kinds = ("thieves", "personas", "confidants", "shadows", "palaces", "locations")
    return {kind: tuple(str(c.id) for c in getattr(cards, kind)) for kind in kinds}
