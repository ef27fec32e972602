"""The shipped lessons play as they say, and a bad lesson file is refused by field."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path
from typing import Any

import pytest

from velvet.engine.core import Event
from velvet.games import get_game
from velvet.learn.lessons import LessonError, builtin_folder, goal_met, load_lessons, read_lesson
from velvet.learn.rules import rule_line, rule_words

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("p5", "vs")

# What each game's lessons must cover (the brief of issue 26): rules taught somewhere.
COVERS = {
    "p5": {
        "P5-DAY-2",  # the first turn
        "P5-CHECK-1",  # checks
        "P5-RECRUIT-2",  # confidants
        "P5-PALACE-1",  # the palace
        "P5-PALACE-3",  # the alert
        "P5-BOSS-1",  # the boss
    },
    "vs": {
        "VS-SUMMON-1",  # the first turn
        "VS-SKILL-1",  # React windows
        "VS-FUSE-1",  # fusion
        "VS-MORE-1",  # 1 more
    },
}


def lesson_files(game: str) -> list[Path]:
    folder = builtin_folder(game)
    assert folder is not None
    return sorted(folder.glob("*.toml"))


@pytest.mark.parametrize("game_name", GAMES)
def test_every_game_has_8_to_12_lessons_covering_its_topics(game_name: str) -> None:
    lessons = load_lessons(get_game(game_name))
    assert 8 <= len(lessons) <= 12
    assert [lesson.id for lesson in lessons] == [p.stem for p in lesson_files(game_name)]
    taught = {rule for lesson in lessons for rule in lesson.rules}
    assert COVERS[game_name] <= taught, COVERS[game_name] - taught


def _step(state: Any, move: str) -> list[Event]:
    legal = {str(a): a for a in state.legal_actions()}
    assert move in legal, f"'{move}' not legal; legal: {sorted(legal)}"
    return list(state.apply(legal[move]))


@pytest.mark.parametrize(
    "path", [p for g in GAMES for p in lesson_files(g)], ids=lambda p: f"{p.parent.name}/{p.stem}"
)
def test_a_shipped_lesson_solves_and_answers_every_other_move(path: Path) -> None:
    """Checked from the raw file, not through the loader's own checks: the position loads,
    each solution is legal and reaches the goal, every other legal move of the learner
    at every step has feedback naming a rule of the index."""
    game = get_game(path.parent.name)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    start = game.position(data["position"])
    seat = data.get("seat", start.current_player + 1) - 1
    wanted = data["goal"]["events"]
    for solution in data["solutions"]:
        state, events = start.clone(), []
        for step, move in enumerate(solution):
            if state.current_player == seat:
                good = {s[step] for s in data["solutions"] if s[:step] == solution[:step]}
                for action in state.legal_actions():
                    text = str(action)
                    if text in good:
                        continue
                    answers = [
                        f
                        for f in data["feedback"]
                        if f.get("step", step + 1) == step + 1
                        and any(fnmatch.fnmatchcase(text, m) for m in f["moves"])
                    ]
                    assert answers, f"{path.name}: no feedback for '{text}' at step {step + 1}"
                    assert answers[0]["rule"] in rule_words()
            events += _step(state, move)
        assert goal_met(wanted, events), f"{path.name}: {solution} misses {wanted}"
    lesson = read_lesson(path, game)
    assert lesson.seat == seat


def test_the_package_copy_of_the_rule_index_is_the_docs_one() -> None:
    docs = (ROOT / "docs" / "rules" / "RULE-INDEX.md").read_text(encoding="utf-8")
    package = (ROOT / "src" / "velvet" / "data" / "RULE-INDEX.md").read_text(encoding="utf-8")
    assert package == docs, "copy docs/rules/RULE-INDEX.md to src/velvet/data/RULE-INDEX.md"
    assert rule_line("P5-DAY-3").startswith("P5-DAY-3: You may never end your action")
    assert "**" not in rule_line("P5-COMP-3")


def test_every_lesson_file_and_the_rule_index_are_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["velvet"]
    package = ROOT / "src" / "velvet"
    files = [*(p for g in GAMES for p in lesson_files(g)), package / "data" / "RULE-INDEX.md"]
    for path in files:
        relative = path.relative_to(package).as_posix()
        assert any(fnmatch.fnmatch(relative, p) for p in patterns), relative


# --- bad files ------------------------------------------------------------------------------

GOOD = (ROOT / "src/velvet/data/lessons/p5/01-first-turn.toml").read_text(encoding="utf-8")


def _swap(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new, 1)


BAD = [
    ("unknown", _swap('hint = "', 'hunt = "x"\nhint = "'), "hunt", "no such field"),
    ("no title", _swap('title = "Your first turn"\n', ""), "title", "add it"),
    ("rule", _swap('rule = "P5-VISIT-1"', 'rule = "P5-VISIT-9"'), "feedback[0].rule", "P5-VISIT-9"),
    (
        "illegal",
        _swap('solutions = [["visit home"]]', 'solutions = [["visit school"]]'),
        "solutions[0][0]",
        "not a legal move there",
    ),
    (
        "goal",
        _swap('solutions = [["visit home"]]', 'solutions = [["visit sales-clerk"]]'),
        "feedback",
        "visit home",
    ),
    (
        "short",
        _swap("tokens = { stamina = 2 }", "tokens = { stamina = 3 }"),
        "solutions[0]",
        "do not reach the goal",
    ),
    ("uncovered", _swap('moves = ["discover"]', 'moves = ["discovery"]'), "feedback", "discover"),
    ("position", _swap('palace = "kamoshida"', 'palace = "castle"'), "position", "castle"),
    ("seat", _swap('title = "Your first turn"', 'title = "Day one"\nseat = 2'), "seat", "2"),
    (
        "early",
        _swap('solutions = [["visit home"]]', 'solutions = [["visit home", "visit sales-clerk"]]'),
        "solutions[0][0]",
        "reached here already",
    ),
    (
        "stale",
        _swap('moves = ["palace"]', 'moves = ["palace"]\nstep = 2'),
        "feedback",
        "palace",
    ),
    ("toml", GOOD + "\n[[", None, "not valid TOML"),
]


@pytest.mark.parametrize(("name", "text", "field", "words"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_lesson_names_the_file_the_field_and_what_is_wrong(
    tmp_path: Path, name: str, text: str, field: str | None, words: str
) -> None:
    path = tmp_path / "01-bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LessonError) as error:
        read_lesson(path, get_game("p5"))
    assert str(error.value).startswith(str(path)), str(error.value)
    if field is not None:
        assert error.value.field == field, str(error.value)
    assert words in str(error.value), str(error.value)


def test_a_folder_adds_lessons_and_replaces_a_built_in_one_by_name(tmp_path: Path) -> None:
    (tmp_path / "01-first-turn.toml").write_text(
        _swap('title = "Your first turn"', 'title = "Day one"'), encoding="utf-8"
    )
    (tmp_path / "99-extra.toml").write_text(GOOD, encoding="utf-8")
    game = get_game("p5")
    lessons = load_lessons(game, [tmp_path])
    builtin = load_lessons(game)
    assert len(lessons) == len(builtin) + 1
    assert lessons[0].title == "Day one" and lessons[-1].id == "99-extra"
    only = load_lessons(game, [tmp_path], builtin=False)
    assert [lesson.id for lesson in only] == ["01-first-turn", "99-extra"]


def test_an_empty_or_missing_folder_is_refused(tmp_path: Path) -> None:
    game = get_game("p5")
    with pytest.raises(LessonError, match="holds no"):
        load_lessons(game, [tmp_path])
    with pytest.raises(LessonError, match="no such folder"):
        load_lessons(game, [tmp_path / "nope"])
