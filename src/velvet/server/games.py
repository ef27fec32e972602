"""Everything the server knows about particular games, in one place.

Room options become a config as the CLI builds them (same errors); a spectator's
view and the events a seat may see are decided here. The rest of the server
speaks only the engine contract.
"""

from __future__ import annotations

import hashlib
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

_CARD_DIR = Path(tempfile.gettempdir()) / "velvet-server-cards"


def _materialise(text: str, stem: str) -> Path:
    """Write uploaded TOML to a content-addressed file the loaders can read."""
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    _CARD_DIR.mkdir(parents=True, exist_ok=True)
    path = _CARD_DIR / f"{stem}-{digest}.toml"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    return path


@lru_cache(maxsize=32)
def _game(name: str, cards: tuple[str, ...]) -> Game[Any]:
    paths = [_materialise(t, "cards") for t in cards]
    with _named({p: f"card file {n}" for n, p in enumerate(paths, start=1)}):
        return get_game(name, paths)


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
    """An uploaded file as a path to read, named as the player knows it in errors."""
    path = _materialise(text, stem)
    with _named({path: name}):
        yield path


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
