"""The one registry of games: a name becomes a :class:`~velvet.engine.spec.GameSpec`.

The CLI, the simulator, the bots and the terminal find games only here. A game
is registered in one of three ways:

* built in: ``p5`` and ``vs`` (their specs are ``velvet.p5.spec:SPEC`` and
  ``velvet.vs.spec:SPEC``);
* an installed package's entry point in the group ``velvet.games`` whose value
  names a GameSpec (``mygame = "mypkg.spec:SPEC"``);
* named directly as ``package.module:ATTR`` wherever a game name is asked for
  (``velvet sim mypkg.spec:SPEC``), which also reaches worker processes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.engine.spec import GameSpec, resolve

ENTRY_POINT_GROUP = "velvet.games"
BUILTIN: dict[str, str] = {"p5": "velvet.p5.spec:SPEC", "vs": "velvet.vs.spec:SPEC"}
GAMES = tuple(BUILTIN)
"""The built-in games' names."""


@cache
def _installed() -> dict[str, str]:
    """Games registered by installed packages' entry points: name -> import path."""
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def game_names() -> tuple[str, ...]:
    """Every registered game's name: the built-in ones, then installed ones."""
    return (*BUILTIN, *(name for name in sorted(_installed()) if name not in BUILTIN))


def get_spec(name: str) -> GameSpec:
    """The spec of the game ``name``: a registered name or ``package.module:ATTR``."""
    path = BUILTIN.get(name) or _installed().get(name)
    if path is None:
        if ":" not in name:
            raise ConfigError(
                f"unknown game '{name}': choose {', '.join(game_names())} "
                "or package.module:ATTRIBUTE naming a GameSpec"
            )
        path = name
    spec = resolve(path, "game")
    if not isinstance(spec, GameSpec):
        raise ConfigError(f"game '{name}': {path} is not a GameSpec")
    return spec


def find_spec(name: str) -> GameSpec | None:
    """The spec registered under ``name``, or None (a game used without registering)."""
    try:
        return get_spec(name)
    except ConfigError:
        return None


def registered_spec(name: str) -> GameSpec | None:
    """The spec of a game registered under ``name`` (built in or by an entry point), or
    None: never imports a ``package.module:ATTR`` path, so a name read from a file (a
    results folder's ``run.json``) cannot make Velvet import a module it names."""
    if name not in BUILTIN and name not in _installed():
        return None
    return find_spec(name)


def forecaster(name: str) -> Callable[..., Any] | None:
    """The forecast of the game ``name`` (its spec's ``forecast`` hook), or None if it has
    none or is not registered."""
    spec = find_spec(name)
    if spec is None or spec.forecast is None:
        return None
    hook = resolve(spec.forecast, f"game '{name}' forecast")
    if not callable(hook):
        raise ConfigError(f"game '{name}': forecast {spec.forecast} is not a function")
    return hook  # type: ignore[no-any-return]


def has_forecast(name: str) -> bool:
    """Whether the game ``name`` offers a forecast (its spec names one)."""
    spec = find_spec(name)
    return spec is not None and spec.forecast is not None


def get_game(name: str, cards: Sequence[Path | str] = ()) -> Game[Any]:
    """The game ``name`` with its built-in card set, extended or replaced by ``cards``."""
    return get_spec(name).load(cards)
