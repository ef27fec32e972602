"""``velvet learn`` at the terminal: feedback by rule, progress, and screens of 80 x 24."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console, RenderableType

from velvet.games import get_game
from velvet.learn.lessons import Lesson, load_lessons
from velvet.learn.progress import load_progress, progress_path
from velvet.learn.rules import rule_line
from velvet.learn.terminal import Learn

GAMES = ("p5", "vs")


def console() -> Console:
    return Console(file=io.StringIO(), width=80, record=True, color_system=None)


def lines_of(screen: RenderableType) -> list[str]:
    out = console()
    out.print(screen)
    return out.export_text().rstrip("\n").split("\n")


def runner(game: str, answers: list[str] | None = None) -> tuple[Learn, Console]:
    out = console()
    queue: Iterator[str] = iter(answers or [])

    def ask(prompt: str) -> str:
        out.print(prompt)
        return next(queue)  # StopIteration would be a test bug: the script ran out

    return Learn(game, load_lessons(get_game(game)), out, ask, game), out


def _all() -> list[tuple[str, Lesson]]:
    return [(g, lesson) for g in GAMES for lesson in load_lessons(get_game(g))]


@pytest.mark.parametrize(("game", "lesson"), _all(), ids=lambda x: getattr(x, "id", x))
def test_every_screen_of_a_lesson_fits_80_by_24(game: str, lesson: Lesson) -> None:
    """The first screen, the screen after every feedback or step of the first solution,
    with the hint and the rules, and the solved screen: at most 23 lines of 80 (the
    prompt takes the 24th)."""
    learn, _ = runner(game)
    state = lesson.start()
    played: list[str] = []
    screens: list[RenderableType] = [
        learn.lesson_screen(lesson, state),
        learn.lesson_screen(lesson, state, [f"Hint: {lesson.hint}"]),
    ]
    message: list[str] = []
    for move in lesson.solutions[0]:
        if state.current_player != lesson.seat:
            continue  # played for the learner inside try_move
        for action in state.legal_actions():
            if str(action) not in lesson.next_moves(played):
                wrong = learn.try_move(lesson, state, played, str(action))
                assert wrong[0].startswith("Not this time: "), wrong
                screens.append(learn.lesson_screen(lesson, state, wrong))
        message = learn.try_move(lesson, state, played, move)
        if not lesson.solved_by(played):  # a solved lesson shows the solved screen instead
            screens.append(learn.lesson_screen(lesson, state, message))
    assert lesson.solved_by(played)
    rules = [rule_line(rule) for rule in lesson.rules]
    screens.append(learn.lesson_screen(lesson, lesson.start(), rules))
    for screen in screens:
        shown = lines_of(screen)
        assert len(shown) <= 23, "\n".join(shown)
        assert max(len(line) for line in shown) <= 80
    solved, out = runner(game, [""])
    assert solved.solved(lesson, message) in ("next", "menu")
    assert len(out.export_text().rstrip("\n").split("\n")) <= 23


def test_a_wrong_legal_move_gets_the_lessons_feedback_and_changes_nothing() -> None:
    learn, _ = runner("p5")
    lesson = learn.lessons[0]
    state = lesson.start()
    before = state.digest()
    played: list[str] = []
    lines = learn.try_move(lesson, state, played, "visit sales clerk")
    assert lines == [
        "Not this time: That location's effects give Cash or Bullets; only Home restores Stamina.",
        "Rule P5-VISIT-1: Move to an unoccupied location and carry out its effects from top "
        "to bottom.",
    ]
    assert state.digest() == before and played == []


def test_an_illegal_move_gets_the_engines_reason_and_rule_and_changes_nothing() -> None:
    learn, _ = runner("p5")
    lesson = learn.lessons[1]  # at the Sales Clerk
    state = lesson.start()
    before = state.digest()
    lines = learn.try_move(lesson, state, [], "visit sales-clerk")
    assert lines[0] == "Not allowed: you cannot end your action where you started it."
    assert lines[1].startswith("Rule P5-DAY-3: You may never end your action where you started")
    assert state.digest() == before
    garbled = learn.try_move(lesson, state, [], "fly to the moon")
    assert garbled == [
        "error: 'fly to the moon' is no move here: type its number (1 to 3) or its words "
        "from the start"
    ]
    assert state.digest() == before


def test_the_other_seats_moves_along_a_solution_are_played_for_the_learner() -> None:
    learn, _ = runner("vs")
    lesson = next(x for x in learn.lessons if x.id == "03-one-more")
    state, played = lesson.start(), list[str]()
    lines = learn.try_move(lesson, state, played, "skill m 010 0")
    assert played == ["skill m 010 0", "pass"] and lesson.solved_by(played)
    assert "Player 2 plays no React." in lines
    assert any(line.startswith("1 MORE!") for line in lines)


def test_a_lesson_of_the_second_seat_is_played_from_its_view() -> None:
    learn, _ = runner("vs")
    lesson = next(x for x in learn.lessons if x.id == "05-react")
    assert lesson.seat == 1
    shown = "\n".join(lines_of(learn.lesson_screen(lesson, lesson.start())))
    assert "Player 2 (you)" in shown and "Null Fire" in shown


def test_a_session_solves_a_lesson_keeps_progress_and_resumes_at_the_next() -> None:
    learn, out = runner("p5", ["", "2", "hint", "visit home", "m", "q"])
    learn.run()
    text = out.export_text()
    assert "▶  1  Your first turn  (next)" in text
    assert "Not this time: That location's effects give Cash" in text
    assert "Hint: Home says: Restore 3 Stamina." in text
    assert "✓ Solved: Your first turn" in text
    assert load_progress() == {"p5": ["01-first-turn"]}
    assert "(1 of 12 done)" in text and "✓  1  Your first turn" in text
    again, out = runner("p5", ["", "q"])
    again.run()
    assert "Lesson 2 of 12: Never end where you started" in out.export_text()


def test_a_corrupt_progress_file_is_named_and_left_alone(tmp_path: Path) -> None:
    path = progress_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"games": {"p5": "all"}}', encoding="utf-8")
    from velvet.engine.errors import ConfigError

    with pytest.raises(ConfigError, match=r"not a progress file.*--reset"):
        load_progress()
    assert json.loads(path.read_text(encoding="utf-8")) == {"games": {"p5": "all"}}
