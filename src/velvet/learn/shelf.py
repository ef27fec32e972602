"""What ``velvet learn`` and ``velvet puzzle`` share: a game's collection (lessons or
puzzles) from the built-in files and the user's folders, ``--check``, ``--reset`` and
``--lesson/--puzzle N`` checked the same way, with the same words."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.games import game_names, get_game

T = TypeVar("T")


def collection(
    game_name: str,
    folders: Sequence[Path],
    only: bool,
    load: Callable[[Game[Any]], list[T]],
    plural: str,
    option: str,
) -> list[T]:
    """GAME's ``plural`` ("lessons", "puzzles") as ``load(game)`` reads them (from
    ``folders``, without the built-in ones with ``only``); ``option`` is the flag that
    names a folder."""
    if game_name not in game_names():
        raise ConfigError(f"unknown game '{game_name}': choose {', '.join(game_names())}")
    if only and not folders:
        raise ConfigError(f"--only needs {option} DIR: which {plural}, then?")
    items = load(get_game(game_name))
    if not items:
        raise ConfigError(f"game '{game_name}' has no {plural}: give {option} DIR")
    return items


def say_checked(game_name: str, count: int, plural: str) -> None:
    click.echo(f"{count} {plural} of {game_name}: all check out")


def forget(
    game_name: str,
    load_progress: Callable[[], Mapping[str, Any]],
    save_progress: Callable[[dict[str, Any]], None],
    progress_path: Callable[[], Path],
    what: str,
) -> None:
    """``--reset``: forget GAME's progress (``what``: "Progress", "Puzzle progress"),
    even from a progress file that no longer reads (the way out its error names)."""
    try:
        done = dict(load_progress())
    except ConfigError:
        done = {}
    done.pop(game_name, None)
    save_progress(done)
    click.echo(f"{what} of {game_name} forgotten ({progress_path()}).")


def check_start(start: int | None, count: int, flag: str) -> int | None:
    """``flag N`` (1-based) as an index, or None without it; out of range: an error."""
    if start is None:
        return None
    if not 1 <= start <= count:
        raise ConfigError(f"{flag} {start}: choose 1 to {count}")
    return start - 1
