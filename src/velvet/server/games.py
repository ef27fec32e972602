"""Everything the server knows about particular games, in one place.

Room options become a config as the CLI builds them (same errors); a spectator's
view and the events a seat may see are decided here. The rest of the server
speaks only the engine contract.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from velvet.engine.core import Event, Game, State
from velvet.engine.errors import ConfigError, VelvetError
from velvet.games import get_game, get_spec
from velvet.server.protocol import CreateRoom


@contextmanager
def _private_files(texts: Sequence[tuple[str, str]]) -> Iterator[list[Path]]:
    """Uploaded ``(stem, text)`` as files the loaders can read, for the ``with`` block only.

    They are written to a folder of their own (a fresh random name, mode 0700, the files
    0600, created exclusively: nobody else can plant, link or read one) and removed with
    it when the block ends, whether the upload was taken or refused: nothing uploaded is
    kept on disk (a room's cards live in the database)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    with tempfile.TemporaryDirectory(prefix="velvet-upload-") as folder:
        paths = []
        for n, (stem, text) in enumerate(texts, start=1):
            path = Path(folder) / f"{stem}-{n}.toml"
            with os.fdopen(os.open(path, flags, 0o600), "w", encoding="utf-8") as out:
                out.write(text)
            paths.append(path)
        yield paths


@lru_cache(maxsize=32)
def _game(name: str, cards: tuple[str, ...]) -> Game[Any]:
    if not cards:
        return get_game(name)
    with _private_files([("cards", t) for t in cards]) as paths, _named(_card_names(paths)):
        return get_game(name, paths)


def _card_names(paths: Sequence[Path]) -> dict[Path, str]:
    return {p: f"card file {n}" for n, p in enumerate(paths, start=1)}


@contextmanager
def _named(names: dict[Path, str]) -> Iterator[None]:
    """Errors name an uploaded file as the player knows it, not by where the server keeps it."""
    try:
        yield
    except VelvetError as error:
        message = str(error)
        for path, name in names.items():
            message = message.replace(str(path), name)
        if message == str(error):
            raise
        raise ConfigError(message) from None


def room_game(name: str, cards: Sequence[str] = ()) -> Game[Any]:
    """The game of a room, with its uploaded card files (cached per process)."""
    return _game(name, tuple(cards))


def players_of(request: CreateRoom) -> int:
    """The room's seat count: the game's only one, else as asked (default: the seats given)."""
    counts = get_spec(request.game).players
    if len(counts) == 1:
        return counts[0]
    return request.players or max(min(counts), len(request.seats))


@contextmanager
def _upload(text: str, stem: str, name: str) -> Iterator[Path]:
    """An uploaded file as a path to read in the ``with`` block, named as the player knows
    it in errors (``_private_files``: removed when the block ends)."""
    with _private_files([(stem, text)]) as paths, _named({paths[0]: name}):
        yield paths[0]


def build_config(game: Game[Any], request: CreateRoom) -> dict[str, Any]:
    """The room's config, built and checked as ``velvet play`` builds it.

    The game's own part is its spec's ``room_config`` hook, given the request's fields.
    """
    players = players_of(request)
    if len(request.seats) > players:
        raise ConfigError(f"{len(request.seats)} seats for {players} player(s)")
    spec = get_spec(game.name)
    if spec.room_config is None:
        return spec.config_for(game, players)
    return spec.room_config(game, players, dict(request), _upload)


def public_view(state: State[Any]) -> dict[str, Any]:
    """What a spectator sees: the engine's public view."""
    return dict(state.public_view())


def event_for(game: Game[Any], event: Event, seat: int | None) -> tuple[str, str, dict[str, Any]]:
    """(kind, sentence, data) of ``event`` as ``seat`` (None: a spectator) may see it."""
    seen = game.event_for(event, seat)
    return seen.kind, game.event_text(seen), dict(seen.data)


def card_ids(game: Game[Any]) -> list[str]:
    """Every card id of ``game``'s set, and the plain ``key`` of a ``kind:key`` id too
    where no other id shares that key (views may name cards by their plain key)."""
    ids = game.card_ids()
    keys = [i.partition(":")[2] for i in ids if ":" in i]
    return ids + [k for k in dict.fromkeys(keys) if keys.count(k) == 1 and k not in ids]


@lru_cache(maxsize=32)
def _cards_json(name: str, cards: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    game = _game(name, cards)
    out: dict[str, dict[str, Any]] = {}
    for ident in card_ids(game):
        try:
            out[ident] = game.describe_card(ident).to_json()
        except VelvetError:
            continue  # an id the game cannot describe alone is left out, not guessed
    return out


def cards_json(name: str, cards: Sequence[str] = ()) -> dict[str, dict[str, Any]]:
    """``describe_card`` of every card of a room's card set, by id (cached per card set)."""
    return _cards_json(name, tuple(cards))


def legal_labels(state: State[Any]) -> list[tuple[Any, str, str]]:
    """``(action, text, label)`` of every legal action, labelled once for the decision."""
    labels = state.action_labels()
    return [(a, str(a), label) for a, label in labels.items()]
