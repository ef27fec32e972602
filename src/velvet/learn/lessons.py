"""Lesson files: read, validate against the schema, then check them by playing them.

A lesson is one TOML file (format in docs/learn.md): a title, a goal, coach text, a
position (the format of ``game.position``, docs/engine.md), the move sequences that solve
it, and feedback for every other move, each naming a rule of the index. Loading checks
everything a player could meet: the position builds, every solution's moves are legal
in turn and reach the goal, and every other legal move at every step of a solution has
feedback. The first problem is a :class:`LessonError` naming the file, the field and
what to do; nothing is loaded then.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from velvet.engine.core import Event, Game, State
from velvet.engine.errors import VelvetError
from velvet.learn import datafile
from velvet.learn.datafile import DataFileError, data_files, read_model
from velvet.learn.rules import rule_words

MAX_LESSONS = 60
"""Most lesson files in one folder (the built-in sets have a dozen)."""
MAX_STEPS = 12
"""Longest solution (a lesson is short)."""


Fail = Callable[[str | None, str], Exception]
"""Makes the error of one field of the lesson being checked."""


class LessonError(DataFileError):
    """A lesson file that breaks the format or does not play as it says."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class GoalModel(_Strict):
    text: str = Field(min_length=1, max_length=200)
    events: list[dict[str, Any]] = Field(min_length=1, max_length=8)

    @field_validator("events")
    @classmethod
    def _kinds(cls, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for event in events:
            if not isinstance(event.get("kind"), str) or not event["kind"]:
                raise ValueError("each goal event is a table with a 'kind' (an event name)")
        return events


class FeedbackModel(_Strict):
    moves: list[str] = Field(min_length=1, max_length=40)
    rule: str = Field(min_length=1, max_length=40)
    text: str = Field(min_length=1, max_length=300)
    step: int | None = Field(default=None, ge=1, le=MAX_STEPS)

    @field_validator("rule")
    @classmethod
    def _known_rule(cls, rule: str) -> str:
        if rule not in rule_words():
            raise ValueError(f"'{rule}' is no rule ID of docs/rules/RULE-INDEX.md")
        return rule


class LessonModel(_Strict):
    title: str = Field(min_length=1, max_length=60)
    rules: list[str] = Field(min_length=1, max_length=6)
    coach: str = Field(min_length=1, max_length=400)
    hint: str = Field(min_length=1, max_length=200)
    success: str = Field(min_length=1, max_length=300)
    seat: int | None = Field(default=None, ge=1, le=2)
    goal: GoalModel
    position: dict[str, Any]
    solutions: list[list[str]] = Field(min_length=1, max_length=8)
    feedback: list[FeedbackModel] = Field(default_factory=list, max_length=40)

    @field_validator("rules")
    @classmethod
    def _known_rules(cls, rules: list[str]) -> list[str]:
        for rule in rules:
            if rule not in rule_words():
                raise ValueError(f"'{rule}' is no rule ID of docs/rules/RULE-INDEX.md")
        return rules

    @field_validator("solutions")
    @classmethod
    def _lengths(cls, solutions: list[list[str]]) -> list[list[str]]:
        for moves in solutions:
            if not 1 <= len(moves) <= MAX_STEPS:
                raise ValueError(f"a solution is 1 to {MAX_STEPS} moves")
        return solutions


@dataclass(frozen=True)
class Lesson:
    """One checked lesson of one game."""

    id: str
    file: str
    game: Game[Any]
    title: str
    rules: tuple[str, ...]
    coach: str
    hint: str
    success: str
    goal: str
    goal_events: tuple[Mapping[str, Any], ...]
    position: Mapping[str, Any]
    seat: int
    solutions: tuple[tuple[str, ...], ...]
    feedback: tuple[FeedbackModel, ...]

    def start(self) -> State[Any]:
        """A fresh state of the lesson's position."""
        return self.game.position(self.position)

    def next_moves(self, played: Sequence[str]) -> set[str]:
        """The moves that go on along a solution after ``played``."""
        n = len(played)
        return {s[n] for s in self.solutions if len(s) > n and list(s[:n]) == list(played)}

    def solved_by(self, played: Sequence[str]) -> bool:
        return tuple(played) in self.solutions

    def feedback_for(self, move: str, step: int) -> FeedbackModel | None:
        """The feedback for ``move`` (text form) at ``step`` (1-based), or None."""
        for item in self.feedback:
            if item.step not in (None, step):
                continue
            if any(fnmatch.fnmatchcase(move, pattern) for pattern in item.moves):
                return item
        return None

    def reached(self, events: Iterable[Event]) -> bool:
        return goal_met(self.goal_events, events)


def goal_met(wanted: Iterable[Mapping[str, Any]], events: Iterable[Event]) -> bool:
    """Whether every wanted event (its kind, and the fields it lists) happened."""
    happened = list(events)
    return all(any(_fits(want, event) for event in happened) for want in wanted)


def _fits(want: Mapping[str, Any], event: Event) -> bool:
    if event.kind != want["kind"]:
        return False
    return all(event.data.get(key) == value for key, value in want.items() if key != "kind")


def builtin_folder(game_name: str) -> Path | None:
    """The built-in lessons of a game (``velvet/data/lessons/NAME``), or None."""
    return datafile.builtin_folder("lessons", game_name)


def read_lesson(path: Path, game: Game[Any], label: str | None = None) -> Lesson:
    """One lesson file, validated and checked by play (see the module's docstring)."""
    shown, model = read_model(path, LessonModel, LessonError, label, "")
    lesson = Lesson(
        id=path.stem,
        file=shown,
        game=game,
        title=model.title,
        rules=tuple(model.rules),
        coach=model.coach,
        hint=model.hint,
        success=model.success,
        goal=model.goal.text,
        goal_events=tuple(model.goal.events),
        position=model.position,
        seat=0,
        solutions=tuple(tuple(" ".join(m.split()) for m in s) for s in model.solutions),
        feedback=tuple(model.feedback),
    )
    return check_lesson(lesson, model.seat)


def check_lesson(lesson: Lesson, seat: int | None) -> Lesson:
    """The lesson with its learner's seat, once it plays as it says; else LessonError."""

    def fail(field: str | None, message: str) -> LessonError:
        return LessonError(lesson.file, field, message)

    try:
        start = lesson.start()
    except VelvetError as error:
        raise fail("position", f"{error} (the format is in docs/engine.md, Positions)") from None
    if start.is_terminal():
        raise fail("position", "the game is already over in this position")
    learner = start.current_player if seat is None else seat - 1
    if learner >= len(start.returns()):
        raise fail("seat", f"there is no player {learner + 1} in this position")
    if start.current_player != learner:
        raise fail("seat", f"player {learner + 1} does not move first in this position")
    checked = replace(lesson, seat=learner)
    used: set[int] = set()
    for number, moves in enumerate(checked.solutions):
        _check_solution(checked, start.clone(), number, moves, used, fail)
    for index, item in enumerate(checked.feedback):
        if index not in used:
            raise fail(
                f"feedback[{index}]",
                f"matches no move the player can make ({', '.join(item.moves)}): "
                "fix its moves or step, or remove it",
            )
    return checked


def _check_solution(
    lesson: Lesson,
    state: State[Any],
    number: int,
    moves: Sequence[str],
    used: set[int],
    fail: Fail,
) -> None:
    events: list[Event] = []
    for step, move in enumerate(moves):
        where = f"solutions[{number}][{step}]"
        legal = {str(a): a for a in state.legal_actions()}
        if move not in legal:
            reason = _why_not(state, move)
            raise fail(where, f"'{move}' is not a legal move there: {reason}")
        if state.current_player == lesson.seat:
            _check_others(lesson, state, moves[:step], events, legal, used, fail)
        events += state.apply(legal[move])
        if lesson.reached(events) and step < len(moves) - 1:
            raise fail(where, "the goal is reached here already: end the solution at this move")
    if not lesson.reached(events):
        raise fail(
            f"solutions[{number}]",
            f"these moves do not reach the goal ({_wanted(lesson)}): fix the moves or goal.events",
        )


def _check_others(
    lesson: Lesson,
    state: State[Any],
    played: Sequence[str],
    events: list[Event],
    legal: Mapping[str, Any],
    used: set[int],
    fail: Fail,
) -> None:
    good = lesson.next_moves(played)
    step = len(played) + 1
    for text, action in legal.items():
        if text in good:
            continue
        item = lesson.feedback_for(text, step)
        if item is None:
            raise fail(
                "feedback",
                f"no feedback for the legal move '{text}' at step {step}: add a "
                "[[feedback]] whose moves match it, or list it in a solution",
            )
        used.add(lesson.feedback.index(item))
        trial = state.clone()
        if lesson.reached([*events, *trial.apply(action)]):
            raise fail(
                "solutions",
                f"'{text}' at step {step} reaches the goal too: add it as a solution",
            )


def _why_not(state: State[Any], move: str) -> str:
    try:
        action = state.game.parse_action(move)
    except VelvetError as error:
        return str(error)
    return str(state.explain_illegal(action))


def _wanted(lesson: Lesson) -> str:
    return ", ".join(" ".join(f"{k}={v}" for k, v in want.items()) for want in lesson.goal_events)


def load_lessons(
    game: Game[Any], folders: Sequence[Path] = (), *, builtin: bool = True
) -> list[Lesson]:
    """The game's lessons in file-name order: the built-in ones (unless ``builtin`` is
    false), then each folder's ``*.toml``; a file with a built-in lesson's name replaces it."""
    found: dict[str, Lesson] = {}
    for path, label in data_files("lessons", game.name, folders, builtin, LessonError, MAX_LESSONS):
        lesson = read_lesson(path, game, label)
        found[lesson.id] = lesson
    return sorted(found.values(), key=lambda lesson: lesson.id)
