"""``velvet learn GAME`` in the terminal: a list of lessons, then one lesson a screen.

Each screen fits 80 x 24: the lesson's title, the compact board, the goal, the coach
text, the legal moves by their words, and one message (what happened, or why a move is
not the one). Moves are read through ``velvet.ui.choose.pick`` over the legal list, as
in ``velvet play``; a move that is not legal gets the engine's reason with its rule, a
legal move that does not solve the lesson gets the lesson's feedback with its rule.
Neither changes the position. Moves of the other seat along a solution are played for
the learner and shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.text import Text

from velvet.engine.core import Event, State, choose_by_text
from velvet.engine.errors import IllegalActionError, InvalidActionError, VelvetError
from velvet.engine.files import one_line
from velvet.learn.lessons import Lesson
from velvet.learn.progress import load_progress, mark_done
from velvet.learn.rules import rule_line
from velvet.ui.choose import InvalidAction, pick
from velvet.ui.renderers import renderer_for

WIDTH = 80
PROMPT = "Your move (or hint, rules, menu, quit; Enter: the coach) > "


def _style(line: str) -> str:
    """How a message line is shown: feedback stands out, the rule's words are quieter."""
    if line.startswith(("Not this time", "Not allowed", "error:")):
        return "yellow"
    if line.startswith("Rule "):
        return "cyan"
    return ""


def try_move(lesson: Lesson, state: State[Any], played: list[str], word: str) -> list[str]:
    """Apply the move if it goes on along a solution (with the other seat's moves after
    it); otherwise leave the state alone. The lines to show either way."""
    labels = state.action_labels()
    legal = list(labels)
    try:
        if word.isascii() and word.isdigit() and 1 <= int(word) <= len(legal):
            found: int | None = int(word) - 1
        else:
            found = pick(word, [(str(a), labels[a]) for a in legal])
        action = legal[found] if found is not None else choose_by_text(state, word)
    except IllegalActionError as error:
        return [f"Not allowed: {error.reason}.", f"Rule {rule_line(error.rule_id)}"]
    except InvalidActionError:  # words that are no move at all: no parser jargon here
        shown = one_line(word, 40)
        return [
            f"error: '{shown}' is no move here: type its number (1 to {len(legal)}) "
            "or its words from the start"
        ]
    except (InvalidAction, VelvetError) as error:
        return [f"error: {one_line(str(error), 200)}"]
    text = str(action)
    if text not in lesson.next_moves(played):
        item = lesson.feedback_for(text, len(played) + 1)
        if item is None:
            return [f"Not this time: {labels[action]}. Try another move ('hint' helps)."]
        return [f"Not this time: {item.text}", f"Rule {rule_line(item.rule)}"]
    events = list(state.apply(action))
    played.append(text)
    while not lesson.solved_by(played) and state.current_player != lesson.seat:
        other = sorted(lesson.next_moves(played))[0]
        move = next(a for a in state.legal_actions() if str(a) == other)
        events += state.apply(move)
        played.append(other)
    return [event_line(lesson, event) for event in events]


def event_line(lesson: Lesson, event: Event) -> str:
    """An event in words, as the learner's seat may see it."""
    return clip(lesson.game.event_text(lesson.game.event_for(event, lesson.seat)), WIDTH)


class QuitLessons(Exception):
    """The person left (quit, or end of input)."""


def clip(text: str, width: int = WIDTH - 5) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


class Learn:
    """The lessons of one game, with the person's progress, played at one console."""

    def __init__(
        self,
        game_name: str,
        lessons: Sequence[Lesson],
        console: Console,
        ask: Callable[[str], str],
        title: str = "",
    ) -> None:
        self.game_name = game_name
        self.lessons = list(lessons)
        self.console = console
        self.ask = ask
        self.title = title or game_name

    # -- the list of lessons ---------------------------------------------------------
    def done(self) -> set[str]:
        return set(load_progress().get(self.game_name, []))

    def next_index(self) -> int:
        done = self.done()
        for index, lesson in enumerate(self.lessons):
            if lesson.id not in done:
                return index
        return 0

    def menu_screen(self, message: str = "") -> RenderableType:
        done = self.done()
        upcoming = self.next_index()
        count = sum(lesson.id in done for lesson in self.lessons)
        lines = [
            Text.from_markup(
                f"[bold]Velvet lessons · {escape(self.title)}[/]  "
                f"({count} of {len(self.lessons)} done)"
            ),
            Text(""),
        ]
        for index, lesson in enumerate(self.lessons):
            mark = "✓" if lesson.id in done else ("▶" if index == upcoming else "·")
            note = "  (next)" if index == upcoming and lesson.id not in done else ""
            lines.append(Text(clip(f" {mark} {index + 1:>2}  {lesson.title}{note}")))
        lines.append(Text(""))
        lines.append(
            Text.from_markup(
                f"[dim]Enter starts lesson {upcoming + 1}; a number or a title picks one; "
                "q quits.[/]"
            )
        )
        if message:
            lines.append(Text(clip(message, WIDTH)))
        return Group(*lines)

    def choose_lesson(self) -> int | None:
        """The lesson the person picks from the list, or None to quit."""
        message = ""
        while True:
            self.show(self.menu_screen(message))
            word = self.read("> ").strip()
            if word.lower() in ("q", "quit", "exit"):
                return None
            if not word:
                return self.next_index()
            choices = [(str(i + 1), lesson.title) for i, lesson in enumerate(self.lessons)]
            try:
                found = pick(word, choices)
            except InvalidAction as error:
                message = f"error: {error}"
                continue
            if found is None:
                message = f"error: no lesson '{one_line(word, 40)}': type 1 to {len(choices)}"
                continue
            return found

    def run(self, start: int | None = None) -> None:
        """The list, then lessons until the person quits (start: a lesson index)."""
        try:
            index = start if start is not None else self.choose_lesson()
            while index is not None:
                after = self.play(self.lessons[index])
                if after == "next" and index + 1 < len(self.lessons):
                    index += 1
                elif after == "quit":
                    return
                else:
                    index = self.choose_lesson()
        except QuitLessons:
            return

    # -- one lesson ------------------------------------------------------------------
    def lesson_screen(
        self, lesson: Lesson, state: State[Any], message: Sequence[str] = ()
    ) -> RenderableType:
        number = self.lessons.index(lesson) + 1 if lesson in self.lessons else 0
        renderer = renderer_for(lesson.game)
        view = state.view(lesson.seat)
        board = (renderer.compact or renderer.render)(view, lesson.game)
        labels = state.action_labels()
        parts: list[RenderableType] = [
            Text.from_markup(
                f"[bold]Lesson {number} of {len(self.lessons)}: {escape(lesson.title)}[/]"
                f"  [dim]{escape(' '.join(lesson.rules))}[/]"
            ),
            board,
            Text.from_markup(f"[bold green]Goal:[/] {escape(lesson.goal)}"),
        ]
        if not message:  # a message takes the coach's place (Enter brings the coach back)
            parts.append(Text(" ".join(lesson.coach.split()), style="italic"))
        for index, label in enumerate(labels.values()):
            parts.append(Text(clip(f" {index + 1:>2}. {label}", WIDTH - 1)))
        parts += [Text(line, style=_style(line)) for line in message]
        return Group(*parts)

    def play(self, lesson: Lesson) -> str:
        """Play one lesson: 'next', 'menu' or 'quit' afterwards."""
        state = lesson.start()
        played: list[str] = []
        message: list[str] = []
        while True:
            self.show(self.lesson_screen(lesson, state, message))
            word = self.read(PROMPT).strip()
            low = word.lower()
            if low in ("q", "quit", "exit"):
                return "quit"
            if low in ("m", "menu"):
                return "menu"
            if low == "hint":
                message = [f"Hint: {lesson.hint}"]
                continue
            if low == "rules":
                message = [rule_line(rule) for rule in lesson.rules]
                continue
            if not word:
                message = []
                continue
            message = self.try_move(lesson, state, played, word)
            if lesson.solved_by(played):
                return self.solved(lesson, message)

    def try_move(
        self, lesson: Lesson, state: State[Any], played: list[str], word: str
    ) -> list[str]:
        """See :func:`try_move` (the browser's Learn page calls it too)."""
        return try_move(lesson, state, played, word)

    def solved(self, lesson: Lesson, happened: Sequence[str]) -> str:
        try:
            mark_done(self.game_name, lesson.id)
            saved = ""
        except VelvetError as error:
            saved = f"(progress not saved: {one_line(str(error), 120)})"
        last = self.lessons.index(lesson) + 1 >= len(self.lessons)
        parts: list[RenderableType] = [
            Text.from_markup(f"[bold green]✓ Solved: {escape(lesson.title)}[/]"),
            *[Text(line) for line in happened[-10:]],
            Text(" ".join(lesson.success.split()), style="bold"),
        ]
        if saved:
            parts.append(Text(saved, style="yellow"))
        parts.append(
            Text(
                "Enter: the lesson list · q: quit"
                if last
                else "Enter: next lesson · m: the lesson list · q: quit",
                style="dim",
            )
        )
        self.show(Group(*parts))
        answer = self.read("> ").strip().lower()
        if answer in ("q", "quit", "exit"):
            return "quit"
        if answer in ("m", "menu") or last:
            return "menu"
        return "next"

    # -- the console -----------------------------------------------------------------
    def show(self, screen: RenderableType) -> None:
        self.console.clear()
        self.console.print(screen)

    def read(self, prompt: str) -> str:
        try:
            return self.ask(prompt)
        except (EOFError, KeyboardInterrupt) as error:
            raise QuitLessons from error
