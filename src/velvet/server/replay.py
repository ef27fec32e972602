"""Replays of finished games, frame by frame, as one seat (or a spectator) saw them.

``replay_frames`` replays a game record through the engine; each frame is what the
server would have sent that seat after the move: the seat's view (a spectator's: the
public view), the move's events filtered by ``game.event_for``, who moves next, the
move's text and label, who made it, and a headline that names them ("Player 1 summons
Bicorn as their main persona."). The same router also answers
``GET /api/games/{game}/choices``: what a room's set-up may pick from (the lobby's lists
of P5 thieves, personas and palaces), the game's ``choices()``. ``make_router`` serves them at
``GET /api/rooms/{room}/replay?seat=N`` once the game is over (as ``/record``).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from velvet.engine.core import TERMINAL, Event, Game, State, choose_by_text
from velvet.engine.errors import RecordError, VelvetError
from velvet.engine.record import GameRecord
from velvet.games import game_names
from velvet.i18n import localize, seat_name, speaking
from velvet.server import games
from velvet.server.problems import problem
from velvet.server.protocol import ErrorCode, Problem

if TYPE_CHECKING:
    from velvet.server.rooms import Hub, Room


def _frame(
    game: Game[Any],
    state: State[Any],
    index: int,
    seat: int | None,
    events: list[Event],
    move: str | None,
    label: str | None,
    mover: int | None,
) -> dict[str, Any]:
    view = dict(state.view(seat)) if seat is not None else games.public_view(state)
    shown = []
    for event in events:
        kind, text, data = games.event_for(game, event, seat)
        shown.append({"kind": kind, "text": localize(text, game.name), "data": data})
    player = state.current_player
    return {
        "index": index,
        "view": view,
        "events": shown,
        "to_move": None if player == TERMINAL else player,
        "move": move,
        "label": localize(label, game.name) if label is not None else None,
        "mover": mover,
        "headline": headline(mover, label, [str(e["text"]) for e in shown]),
    }


_SECOND_PERSON = {"your": "their", "yours": "theirs", "you": "they", "yourself": "themselves"}


def headline(mover: int | None, label: str | None, texts: list[str]) -> str | None:
    """A move in the third person, naming who made it: the first of its events (as this
    seat saw them) that starts with the mover's name, else "Player 1: " and the label with
    "your" as "their". The label alone is worded for the mover ("Discard X from your
    hand"); a replay is read by anyone. None for the start (no move)."""
    if mover is None:
        return None
    name = seat_name(mover)  # as the events name seats, in the language spoken
    for text in texts:
        if text.startswith(name):
            return text
    words = re.sub(
        r"\b(your|yours|you|yourself)\b",
        lambda m: _SECOND_PERSON[m.group(1).lower()],
        label or "",
        flags=re.IGNORECASE,
    )
    return f"{name}: {words}"


def replay_frames(game: Game[Any], record: GameRecord, seat: int | None) -> list[dict[str, Any]]:
    """Every position of ``record`` as ``seat`` (None: a spectator) saw it.

    Frame 0 is the start (no move, no events); frame ``i`` follows the record's
    ``i``-th move, with ``move`` its text and ``label`` the game's words for it as they
    read before it was made. Raises RecordError if the record does not replay.
    """
    record.check_game(game)
    try:
        state = game.new_state(record.config, record.seed)
    except VelvetError as error:
        raise RecordError(f"record: bad config: {error}") from error
    if seat is not None:
        try:
            state.view(seat)
        except (VelvetError, IndexError) as error:
            raise RecordError(f"no seat {seat} in this game: {error}") from None
    frames = [_frame(game, state, 0, seat, [], None, None, None)]
    for number, text in enumerate(record.actions, start=1):
        try:
            action = choose_by_text(state, text)
            label = state.action_label(action)
            mover = state.current_player
            events = state.apply_unchecked(action)
        except VelvetError as error:
            raise RecordError(
                f"record: action {number} '{text}' cannot be replayed: {error}"
            ) from error
        frames.append(_frame(game, state, number, seat, events, text, label, mover))
    return frames


def _problem(code: ErrorCode, message: str, status: int) -> JSONResponse:
    return problem(code, message, status)


def make_router(
    hub: Callable[[], Hub], refuse: Callable[[Room], JSONResponse | None] | None = None
) -> APIRouter:
    """The replay route, over the rooms of ``hub`` (the app's, once it has started);
    ``refuse(room)``: a refusal of a finished room's replay, if any (a daily challenge's
    game before its day ends, velvet.server.daily)."""
    router = APIRouter()

    async def frames_of(room: Room, seat: int | None, lang: str | None) -> list[dict[str, Any]]:
        def made() -> list[dict[str, Any]]:
            with speaking(lang):
                return replay_frames(room.game, room.record(), seat)

        return await asyncio.to_thread(made)

    problems: dict[int | str, dict[str, Any]] = {
        code: {"model": Problem} for code in (403, 404, 409, 422, 503)
    }

    @router.get("/api/games/{game}/choices", responses={404: {"model": Problem}})
    async def game_choices(game: str) -> JSONResponse:
        """What a room of ``game`` may be set up with, by kind: ``[{id, name}]`` (P5:
        thieves, personas, palaces of the built-in cards); ``{}`` for a game with none."""
        if game not in game_names():
            return _problem(
                "no_game", f"no game '{game[:40]}'; games: {', '.join(game_names())}", 404
            )
        choices = await asyncio.to_thread(lambda: games.room_game(game).choices())
        return JSONResponse(
            {
                "game": game,
                "choices": {
                    kind: [{"id": ident, "name": name} for ident, name in pairs]
                    for kind, pairs in choices.items()
                },
            }
        )

    @router.get("/api/rooms/{room_id}/replay", responses=problems)
    async def room_replay(
        room_id: str,
        seat: int | None = Query(default=None, description="whose view; none: a spectator's"),
        lang: str | None = Query(
            default=None, max_length=40, description="the language of the words (en, ja)"
        ),
    ) -> JSONResponse:
        """The finished game frame by frame, as ``seat`` (or a spectator) saw it."""
        room = await hub().get(room_id[:64])
        if room is None:
            return _problem("no_room", f"no room '{room_id[:64]}'", 404)
        if not room.over:
            return _problem("not_over", "the replay is given when the game is over", 409)
        refused = refuse(room) if refuse is not None else None
        if refused is not None:
            return refused
        seats = len(room.row.seats)
        if seat is not None and not 0 <= seat < seats:
            return _problem(
                "bad_request", f"seat must be 0..{seats - 1} (or left out for a spectator)", 422
            )
        frames = await frames_of(room, seat, lang)
        return JSONResponse(
            {"room": room.row.id, "game": room.game.name, "seat": seat, "frames": frames}
        )

    return router
