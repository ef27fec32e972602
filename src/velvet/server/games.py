"""Everything the server knows about particular games, in one place.

Room options become a config as the CLI builds them (same call, same errors); a spectator's
view and the events a seat may see are decided here. The rest of the server
speaks only the engine contract.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from velvet.bots.registry import LEVELS
from velvet.engine.core import Event, Game, State
from velvet.engine.errors import ConfigError, VelvetError
from velvet.engine.spec import ConfigOption, GameSpec
from velvet.games import game_names, get_game, get_spec
from velvet.i18n import DEFAULT, normalize, speaking
from velvet.server.protocol import CreateRoom, FileText, OptionValue

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"


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
    with (
        _private_files([("cards", t) for t in cards]) as paths,
        _named(_card_names(paths), "cards"),
    ):
        return get_game(name, paths)


def _card_names(paths: Sequence[Path]) -> dict[Path, str]:
    return {p: f"card file {n}" for n, p in enumerate(paths, start=1)}


@contextmanager
def _named(
    names: dict[Path, str], option: str | None = None, seat: int | None = None
) -> Iterator[None]:
    """Errors name an uploaded file as the player knows it, not by where the server keeps it,
    and the option (and seat) it was sent for."""
    try:
        yield
    except VelvetError as error:
        message = str(error)
        for path, name in names.items():
            message = message.replace(str(path), name)
        if message == str(error):
            raise
        known = error if isinstance(error, ConfigError) else None
        raise ConfigError(
            message,
            (known.option if known else None) or option,
            known.seat if known and known.seat is not None else seat,
        ) from None


def room_game(name: str, cards: Sequence[str] = ()) -> Game[Any]:
    """The game of a room, with its uploaded card files (cached per process)."""
    return _game(name, tuple(cards))


def players_of(request: CreateRoom) -> int:
    """The room's seat count: the game's only one, else as asked (default: the seats given)."""
    counts = get_spec(request.game).players
    if len(counts) == 1:
        return counts[0]
    return request.players or max(min(counts), len(request.seats))


def build_config(game: Game[Any], request: CreateRoom) -> dict[str, Any]:
    """The room's config, built and checked by the call ``velvet play`` makes,
    ``GameSpec.config_for`` with the request's ``options``.

    A ``path`` option's file comes as its text: it is written to a private file for the
    call (``_private_files``), and errors name it as the player knows it ("deck of seat
    2"); a plain value there must be one of the option's ``choices_from`` ids, never a
    path on the server. A ConfigError names the option (and seat) it is about.
    """
    players = players_of(request)
    if len(request.seats) > players:
        raise ConfigError(f"{len(request.seats)} seats for {players} player(s)", "seats")
    spec = get_spec(game.name)
    with ExitStack() as files:
        options = {
            name: _option_value(game, spec, name, value, files)
            for name, value in request.options.items()
        }
        return spec.config_for(game, players, options)


def _option_value(
    game: Game[Any], spec: GameSpec, name: str, value: OptionValue, files: ExitStack
) -> Any:
    """``value`` as the command line would give the option: a tuple when ``multiple``."""
    option = next((o for o in spec.options if o.name == name), None)
    if option is None:
        return value  # config_for refuses it, naming the game's options
    if option.multiple != isinstance(value, list):
        how = "a list, one value per seat" if option.multiple else "one value, not a list"
        raise ConfigError(f"option {name} takes {how}", name)
    items = value if isinstance(value, list) else [value]
    out = [
        _item(game, option, item, n if option.multiple else None, files)
        for n, item in enumerate(items)
    ]
    return tuple(out) if option.multiple else out[0]


def _item(
    game: Game[Any], option: ConfigOption, item: Any, seat: int | None, files: ExitStack
) -> str | None:
    name = option.name
    words = name.replace("_", " ")
    where = f"{words} of seat {seat + 1}" if seat is not None else words
    if item is None:
        return None
    if isinstance(item, FileText):
        if option.kind != "path":
            raise ConfigError(f"{where}: option {name} takes a value, not a file", name, seat)
        stem = f"{name}-seat{seat + 1}" if seat is not None else name
        paths = files.enter_context(_private_files([(stem, item.text)]))
        # an error naming the file, raised later in the call, names it as the player does
        files.enter_context(_named({paths[0]: where}, name, seat))
        return str(paths[0])
    ids = [i for i, _ in game.choices().get(option.choices_from, [])] if option.choices_from else []
    if option.kind == "path" and item not in ids:
        allowed = f" or one of {', '.join(ids)}" if ids else ""
        raise ConfigError(
            f'{where}: send the file\'s text ({{"text": ...}}){allowed}, not {item!r}', name, seat
        )
    if option.choices and item not in option.choices:
        raise ConfigError(f"{where}: choose {', '.join(option.choices)}, not {item!r}", name, seat)
    return str(item)


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
def _cards_json(name: str, cards: tuple[str, ...], lang: str) -> dict[str, dict[str, Any]]:
    game = _game(name, cards)
    out: dict[str, dict[str, Any]] = {}
    with speaking(lang):
        for ident in card_ids(game):
            try:
                out[ident] = game.describe_card(ident).to_json()
            except VelvetError:
                continue  # an id the game cannot describe alone is left out, not guessed
    return out


def cards_json(
    name: str, cards: Sequence[str] = (), lang: str | None = None
) -> dict[str, dict[str, Any]]:
    """``describe_card`` of every card of a room's card set, by id, its words in ``lang``
    where the game writes them from the catalogue (cached per card set and language)."""
    return _cards_json(name, tuple(cards), normalize(lang) or DEFAULT)


def legal_labels(state: State[Any]) -> list[tuple[Any, str, str]]:
    """``(action, text, label)`` of every legal action, labelled once for the decision."""
    labels = state.action_labels()
    return [(a, str(a), label) for a, label in labels.items()]


PUBLISHED_BOTS = (*LEVELS, "greedy", "random")
"""The bots ``GET /api/games`` offers a room's seats, strongest level last but before the
plain ones (``velvet.bots.registry``): those this server's limits allow."""


def catalog(check: Callable[[str, str], object]) -> list[dict[str, Any]]:
    """Every registered game as ``GET /api/games`` publishes it, for the lobby's form: its
    seat counts, set-up options, bots (``check(spec, game)``: the server allows it), whether
    it has a forecast, and its browser board module."""
    out = []
    for name in game_names():
        spec = get_spec(name)
        game = room_game(name)
        bots = []
        for bot in PUBLISHED_BOTS:
            try:
                check(bot, name)
            except VelvetError:
                continue  # beyond this server's bot limits
            bots.append(bot)
        css = Path(spec.board).with_suffix(".css").name if spec.board else None
        out.append(
            {
                "name": name,
                "title": spec.title,
                "short_title": spec.short_title or name,
                "players": list(spec.players),
                "cooperative": spec.cooperative,
                "hides_hands": spec.hides_hands,
                "forecast": spec.forecast is not None,
                "board": spec.board,
                "board_css": css if css and (STATIC / css).is_file() else None,
                "bots": bots,
                "options": [option_json(o, game, max(spec.players)) for o in spec.options],
            }
        )
    return out


def option_json(option: ConfigOption, game: Game[Any], seats: int) -> dict[str, Any]:
    """One set-up option as a form reads it: ``choices`` as ``[{id, name}]`` (its own, or
    the card set's ``choices_from`` list), ``defaults``: each seat's value when left out."""
    if option.choices_from:
        pairs = list(game.choices().get(option.choices_from, []))
    else:
        names = option.choice_labels or option.choices
        pairs = list(zip(option.choices, names, strict=True))
    defaults = list(option.defaults(game, seats)) if option.defaults else []
    return {
        "name": option.name,
        "label": option.field_label,
        "help": option.help,
        "kind": option.kind,
        "multiple": option.multiple,
        "choices": [{"id": ident, "name": words} for ident, words in pairs],
        "default": option.default,
        "defaults": defaults,
    }
