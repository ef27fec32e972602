"""A new room's row: the request checked, its seats and seed, and the ``RoomRow`` built once.

A room is made from a ``CreateRoom`` (``new_row``: the game's options checked as ``velvet
play`` checks them, the bots against the server's limits, a rated room's rules) or as the
rematch of a finished one (``rematch_row``: the same game and options, a new seed). Both
build their row with ``fresh_row``; nothing here touches the database or a socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import secrets
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.games import find_spec
from velvet.server import games
from velvet.server.protocol import CreateRoom
from velvet.server.room import hints_default
from velvet.server.storage import RoomRow, SeatRow, token_digest


def draw_seed() -> int:
    """A new room's seed: 63 random bits from the OS (tests replace this function to
    replay a room they know)."""
    return secrets.randbits(63)


def seed_commitment(nonce: str, seed: int) -> str:
    """The published commitment to a room's seed (its SHA-256 with the nonce)."""
    return hashlib.sha256(f"{nonce}:{seed}".encode()).hexdigest()


def fresh_row(
    *,
    game: str,
    cards: list[str],
    config: dict[str, Any],
    seed: int,
    options: dict[str, Any],
    listed: bool,
    seats: list[SeatRow],
    created: float,
    rematch_of: str | None = None,
) -> RoomRow:
    """A room not yet played nor saved, made at ``created`` (the server's clock): a new id
    and nonce, ``seed`` committed to."""
    nonce = secrets.token_hex(16)
    return RoomRow(
        id=secrets.token_urlsafe(9),
        game=game,
        cards=cards,
        config=config,
        seed=seed,
        nonce=nonce,
        seed_sha256=seed_commitment(nonce, seed),
        status="playing",
        result=None,
        version=0,
        options=options,
        listed=listed,
        rematch_of=rematch_of,
        rematch=None,
        created=created,
        seats=seats,
    )


async def new_row(
    request: CreateRoom,
    check: Callable[[str, str], object],
    claims: Sequence[tuple[str, int | None] | None] = (),
    clock: Callable[[], float] = time.time,
) -> tuple[RoomRow, list[str]]:
    """A new room's row, checked, not yet saved, and each seat's invite token; ``clock``
    stamps its creation and the claims (the server's ``Settings.clock``).

    ``check(spec, game)``: a bot the server allows. ``claims[i]``: seat i is claimed
    already by the client whose secret has this digest (and by that account, or None):
    matchmaking hands each player only their own seat.
    """
    # parsing uploaded cards and decks takes a while: not on the event loop
    game, config, specs, seed = await asyncio.to_thread(_prepare, request, check)
    tokens = [secrets.token_urlsafe(24) for _ in specs]
    now = clock()
    seats = []
    for i, (s, t) in enumerate(zip(specs, tokens, strict=True)):
        seat = SeatRow(i, s, token_digest(t))
        claim = claims[i] if i < len(claims) else None
        if claim is not None:
            seat.secret_sha256, seat.account, seat.claimed_at = claim[0], claim[1], now
        seats.append(seat)
    row = fresh_row(
        game=game.name,
        cards=list(request.cards),
        config=config,
        seed=seed,
        options={
            "turn_timer": request.turn_timer,
            "grace": request.grace,
            "takeover": request.takeover,
            "undo": request.undo,
            "hints": "on" if hints_default(game.name, specs, request.hints) else "off",
            "hotseat": request.hotseat,
            "emotes": request.emotes,
            "chat": request.chat,
            "rated": request.rated,
            "days_per_move": request.days_per_move,
            "hours_per_move": request.hours_per_move,
        },
        listed=request.listed,
        seats=seats,
        created=now,
    )
    return row, tokens


def rematch_row(old: RoomRow, seats: Sequence[SeatRow], created: float) -> RoomRow:
    """The rematch of ``old``, made at ``created``: its game, cards, config and options, a
    new seed; ``seats``: the old seats as claimed now, in their new order (swapped between
    two people: each client keeps its own secret, which opens its own seat only)."""
    return fresh_row(
        game=old.game,
        cards=old.cards,
        config=old.config,
        seed=draw_seed(),
        options=old.options,
        listed=old.listed,
        seats=[dataclasses.replace(s, seat=i) for i, s in enumerate(seats)],
        rematch_of=old.id,
        created=created,
    )


@contextlib.contextmanager
def _on_field(field: str, seat: int | None = None) -> Iterator[None]:
    """A ConfigError inside names the request's ``field`` (and seat), for the lobby's form."""
    try:
        yield
    except ConfigError as error:
        if error.option is not None:
            raise
        raise ConfigError(str(error), field, seat) from None


def _check_rated(request: CreateRoom, game: str, specs: Sequence[str]) -> None:
    """A rated room: a game that is not co-op, two human seats, no one screen, no takeover."""
    spec = find_spec(game)
    why = (
        "the game is co-op"
        if spec is None or spec.cooperative
        else "it needs exactly two human seats"
        if list(specs) != ["human", "human"]
        else "a one-screen room cannot be rated"
        if request.hotseat
        else "a rated room has no takeover bot"
        if request.takeover is not None
        else None
    )
    if why is not None:
        raise ConfigError(f"rated: {why} (a rated game is between two signed-in people)")


def _prepare(
    request: CreateRoom, check: Callable[[str, str], object]
) -> tuple[Game[Any], dict[str, Any], list[str], int]:
    """A new room's game (its uploaded cards parsed), config, seats and seed, checked
    (``check(spec, game)``: a bot the server allows, within its BotLimits)."""
    game = games.room_game(request.game, request.cards)
    config = games.build_config(game, request)
    players = games.players_of(request)
    specs = list(request.seats) + ["human"] * (players - len(request.seats))
    for seat, spec in enumerate(specs):
        if spec != "human":
            with _on_field("seats", seat):
                check(spec, game.name)
    if request.takeover is not None:
        with _on_field("takeover"):
            check(request.takeover, game.name)
    for name in ("days_per_move", "hours_per_move"):
        if getattr(request, name) is not None and request.turn_timer is not None:
            raise ConfigError(
                f"{name}: a correspondence room has no turn_timer (give one of them)", name
            )
    if request.days_per_move is not None and request.hours_per_move is not None:
        raise ConfigError(
            "hours_per_move: a room's time per move is in days or in hours, not both",
            "hours_per_move",
        )
    if request.rated:
        with _on_field("rated"):
            _check_rated(request, game.name, specs)
    seed = draw_seed()
    game.new_state(config, seed)  # a bad config raises ConfigError here
    return game, config, specs, seed
