"""The lessons over HTTP, for the browser's Learn page: two GET endpoints, no state kept.

``GET /api/learn/{game}`` lists a game's built-in lessons. ``GET /api/learn/{game}/{id}``
gives one lesson as the learner sees it after ``played`` (the moves made so far along a
solution, ``|``-separated text forms) and, with ``try``, the answer to one more move:
the same words as the terminal (:func:`velvet.learn.terminal.try_move`): the move played,
or the lesson's feedback with its rule, or the engine's reason and rule. The page keeps
``played`` and the done marks (in the browser's storage); the server keeps nothing.
"""

from __future__ import annotations

import asyncio
import io
from functools import cache
from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse
from rich.console import Console

from velvet.engine.errors import ConfigError
from velvet.games import game_names, get_game, get_spec
from velvet.learn.lessons import Lesson, load_lessons
from velvet.learn.rules import rule_words
from velvet.learn.terminal import try_move
from velvet.server.problems import problem
from velvet.server.protocol import ErrorCode
from velvet.ui.renderers import renderer_for

MAX_PLAYED = 600
"""Longest ``played`` text accepted (a solution is at most 12 short moves)."""


class NoLesson(ConfigError):
    """No such game or lesson (404; a bad ``played`` is a 400)."""


@cache
def lessons_of(game_name: str) -> tuple[Lesson, ...]:
    """The built-in lessons of a registered game (checked once, then kept)."""
    if game_name not in game_names():
        raise NoLesson(f"unknown game '{game_name}': choose {', '.join(game_names())}")
    return tuple(load_lessons(get_game(game_name)))


def board_text(lesson: Lesson, state: Any) -> str:
    """The compact board of the terminal, as plain text (80 columns)."""
    renderer = renderer_for(lesson.game)
    out = Console(file=io.StringIO(), width=80, record=True, color_system=None)
    out.print((renderer.compact or renderer.render)(state.view(lesson.seat), lesson.game))
    return "\n".join(line.rstrip() for line in out.export_text().splitlines())


def lesson_list(game_name: str) -> dict[str, Any]:
    lessons = lessons_of(game_name)
    spec = get_spec(game_name)
    return {
        "game": game_name,
        "title": spec.short_title or game_name,
        "lessons": [
            {"id": lesson.id, "title": lesson.title, "rules": list(lesson.rules)}
            for lesson in lessons
        ],
    }


def lesson_page(game_name: str, lesson_id: str, played: str, attempt: str | None) -> dict[str, Any]:
    """The lesson after the moves ``played``, and the answer to ``attempt``; a ``played``
    that leaves the solutions is a ConfigError naming the move."""
    lessons = lessons_of(game_name)
    found = [lesson for lesson in lessons if lesson.id == lesson_id]
    if not found:
        raise NoLesson(f"game '{game_name}' has no lesson '{lesson_id[:60]}'")
    lesson = found[0]
    state = lesson.start()
    moves: list[str] = []
    for move in [m for m in played.split("|") if m.strip()]:
        if move not in lesson.next_moves(moves):
            raise ConfigError(f"played: '{move[:60]}' is not a move along this lesson's solutions")
        action = next(a for a in state.legal_actions() if str(a) == move)
        state.apply(action)
        moves.append(move)
    message: list[str] = []
    if attempt is not None and not lesson.solved_by(moves):
        message = try_move(lesson, state, moves, attempt)
    labels = state.action_labels()
    solved = lesson.solved_by(moves)
    words = rule_words()
    return {
        "game": game_name,
        "id": lesson.id,
        "number": lessons.index(lesson) + 1,
        "count": len(lessons),
        "title": lesson.title,
        "goal": lesson.goal,
        "coach": " ".join(lesson.coach.split()),
        "hint": lesson.hint,
        "rules": [{"id": rule, "words": words.get(rule, "")} for rule in lesson.rules],
        "board": board_text(lesson, state),
        "choices": [] if solved else [{"text": str(a), "label": labels[a]} for a in labels],
        "played": moves,
        "message": message,
        "solved": solved,
        "success": " ".join(lesson.success.split()) if solved else None,
    }


def make_router() -> APIRouter:
    router = APIRouter()

    def refused(error: ConfigError) -> JSONResponse:
        status = 404 if isinstance(error, NoLesson) else 400
        kind: ErrorCode = "no_lesson" if status == 404 else "bad_moves"
        return problem(kind, str(error), status)

    @router.get("/api/learn/{game_name}")
    async def learn_list(game_name: str) -> JSONResponse:
        """A game's lessons: id, title and the rules each teaches."""
        try:
            return JSONResponse(await asyncio.to_thread(lesson_list, game_name[:40]))
        except ConfigError as error:
            return refused(error)

    @router.get("/api/learn/{game_name}/{lesson_id}")
    async def learn_lesson(
        game_name: str,
        lesson_id: str,
        played: str = Query("", max_length=MAX_PLAYED),
        attempt: str | None = Query(None, alias="try", max_length=200),
    ) -> JSONResponse:
        """One lesson after the moves ``played``, with the answer to the move ``try``."""
        try:
            page = await asyncio.to_thread(
                lesson_page, game_name[:40], lesson_id[:80], played, attempt
            )
        except ConfigError as error:
            return refused(error)
        return JSONResponse(page)

    return router
