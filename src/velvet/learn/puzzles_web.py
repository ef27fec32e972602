"""The puzzles over HTTP, for the browser's Puzzles page; the server keeps nothing.

``GET /api/puzzles/{game}`` lists a game's built-in puzzles. ``GET /api/puzzles/{game}/{id}``
gives one as the solver sees it (the board from the solver's view, the legal moves).
``POST /api/puzzles/{game}/{id}`` with ``{"move": TEXT, "solver": [r, rd, vol], "puzzle":
[r, rd, vol], "rated": true}`` answers the move with the terminal's words
(:func:`velvet.learn.puzzles_play.attempt`) and, when ``rated``, both Glicko-2 ratings after
the try (:func:`velvet.server.ratings.rate_game`): the page keeps progress and ratings in
the browser's storage and sends them back.
"""

from __future__ import annotations

import asyncio
import io
from functools import cache
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from rich.console import Console

from velvet.engine.core import player_name
from velvet.engine.errors import ConfigError
from velvet.games import game_names, get_game, get_spec
from velvet.learn.puzzles import Puzzle, load_puzzles
from velvet.learn.puzzles_play import attempt
from velvet.server.problems import problem
from velvet.server.protocol import ErrorCode
from velvet.server.ratings import Rating, rate_game
from velvet.ui.renderers import renderer_for


class NoPuzzle(ConfigError):
    """No such game or puzzle (404; a bad move or rating is a 400)."""


class TryModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: str = Field(min_length=1, max_length=200)
    solver: tuple[float, float, float] | None = None
    puzzle: tuple[float, float, float] | None = None
    rated: bool = False


@cache
def puzzles_of(game_name: str) -> tuple[Puzzle, ...]:
    """The built-in puzzles of a registered game (checked once, then kept)."""
    if game_name not in game_names():
        raise NoPuzzle(f"unknown game '{game_name}': choose {', '.join(game_names())}")
    return tuple(load_puzzles(get_game(game_name)))


def _find(game_name: str, puzzle_id: str) -> Puzzle:
    found = [p for p in puzzles_of(game_name) if p.id == puzzle_id]
    if not found:
        raise NoPuzzle(f"game '{game_name}' has no puzzle '{puzzle_id[:60]}'")
    return found[0]


def board_text(puzzle: Puzzle, state: Any) -> str:
    """The compact board of the terminal from the solver's view, as plain text."""
    renderer = renderer_for(puzzle.game)
    out = Console(file=io.StringIO(), width=80, record=True, color_system=None)
    out.print((renderer.compact or renderer.render)(state.view(puzzle.seat), puzzle.game))
    return "\n".join(line.rstrip() for line in out.export_text().splitlines())


def puzzle_list(game_name: str) -> dict[str, Any]:
    puzzles = puzzles_of(game_name)
    spec = get_spec(game_name)
    return {
        "game": game_name,
        "title": spec.short_title or game_name,
        "puzzles": [{"id": p.id, "title": p.title} for p in puzzles],
    }


def puzzle_page(game_name: str, puzzle_id: str) -> dict[str, Any]:
    puzzle = _find(game_name, puzzle_id)
    state = puzzle.start()
    labels = state.action_labels()
    puzzles = puzzles_of(game_name)
    return {
        "game": game_name,
        "id": puzzle.id,
        "number": puzzles.index(puzzle) + 1,
        "count": len(puzzles),
        "title": puzzle.title,
        "task": f"You are {player_name(puzzle.seat)}. One move is clearly the best from what "
        "you can see: find it.",
        "board": board_text(puzzle, state),
        "choices": [{"text": str(a), "label": labels[a]} for a in labels],
    }


def _rating(values: tuple[float, float, float] | None, what: str) -> Rating:
    if values is None:
        return Rating()
    rating, rd, vol = values
    if not (0 < rating < 5000 and 0 < rd <= 350 and 0 < vol < 1):
        raise ConfigError(f"{what}: a rating is [rating, rd, volatility] as this page sent it")
    return Rating(rating, rd, vol)


def try_puzzle(game_name: str, puzzle_id: str, body: TryModel) -> dict[str, Any]:
    puzzle = _find(game_name, puzzle_id)
    answer = attempt(puzzle, puzzle.start(), body.move)
    out: dict[str, Any] = {"right": answer.right, "lines": list(answer.lines)}
    if answer.right is not None and body.rated:
        solver, rated = rate_game(
            _rating(body.solver, "solver"), _rating(body.puzzle, "puzzle"), float(answer.right)
        )
        out["solver"] = [round(solver.rating, 2), round(solver.rd, 2), round(solver.vol, 6)]
        out["puzzle"] = [round(rated.rating, 2), round(rated.rd, 2), round(rated.vol, 6)]
    return out


def make_router() -> APIRouter:
    router = APIRouter()

    def refused(error: ConfigError) -> JSONResponse:
        status = 404 if isinstance(error, NoPuzzle) else 400
        kind: ErrorCode = "no_lesson" if status == 404 else "bad_moves"
        return problem(kind, str(error), status)

    @router.get("/api/puzzles/{game_name}")
    async def puzzles_list(game_name: str) -> JSONResponse:
        """A game's puzzles: id and title."""
        try:
            return JSONResponse(await asyncio.to_thread(puzzle_list, game_name[:40]))
        except ConfigError as error:
            return refused(error)

    @router.get("/api/puzzles/{game_name}/{puzzle_id}")
    async def puzzle_get(game_name: str, puzzle_id: str) -> JSONResponse:
        """One puzzle as its solver sees it."""
        try:
            return JSONResponse(
                await asyncio.to_thread(puzzle_page, game_name[:40], puzzle_id[:80])
            )
        except ConfigError as error:
            return refused(error)

    @router.post("/api/puzzles/{game_name}/{puzzle_id}")
    async def puzzle_try(game_name: str, puzzle_id: str, body: TryModel) -> JSONResponse:
        """The answer to one move, with both ratings after it when ``rated``."""
        try:
            page = await asyncio.to_thread(try_puzzle, game_name[:40], puzzle_id[:80], body)
        except ConfigError as error:
            return refused(error)
        return JSONResponse(page)

    return router
