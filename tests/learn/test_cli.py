"""``velvet learn``: its options, and one-line errors for bad lesson files and progress."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from velvet.cli import main
from velvet.learn.progress import load_progress, progress_path

ROOT = Path(__file__).resolve().parents[2]
FIRST = ROOT / "src/velvet/data/lessons/p5/01-first-turn.toml"


def run(*args: str, input: str = "") -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.output


def test_list_check_and_an_unknown_game() -> None:
    code, out = run("learn", "p5", "--list")
    assert code == 0 and "(0 of 12 done)" in out and " 12  The boss" in out
    code, out = run("learn", "vs", "--check")
    assert code == 0 and "9 lessons of vs: all check out" in out
    code, out = run("learn", "chess")
    assert code == 2 and "error: unknown game 'chess': choose p5, vs" in out


def test_a_bad_lesson_in_a_folder_is_one_line_naming_file_and_field(tmp_path: Path) -> None:
    bad = FIRST.read_text(encoding="utf-8").replace('"visit home"]]', '"visit clinic"]]')
    (tmp_path / "01-mine.toml").write_text(bad, encoding="utf-8")
    code, out = run("learn", "p5", "--lessons", str(tmp_path), "--check")
    assert code == 2
    assert out.startswith(f"error: {tmp_path}/01-mine.toml: field 'solutions[0][0]': ")
    assert "'visit clinic' is not a legal move there" in out and out.count("\n") == 1


def test_only_plays_the_folders_lessons_and_a_session_marks_one_done(tmp_path: Path) -> None:
    (tmp_path / "01-mine.toml").write_text(
        FIRST.read_text(encoding="utf-8").replace("Your first turn", "My lesson"),
        encoding="utf-8",
    )
    code, out = run("learn", "p5", "--lessons", str(tmp_path), "--only", "--list")
    assert code == 0 and "(0 of 1 done)" in out and "My lesson" in out
    code, out = run("learn", "p5", "--lesson", "1", input="visit home\nq\n")
    assert code == 0 and "✓ Solved: Your first turn" in out
    assert load_progress() == {"p5": ["01-first-turn"]}
    code, out = run("learn", "p5", "--list")
    assert "(1 of 12 done)" in out and "▶  2  Never end where you started  (next)" in out
    code, out = run("learn", "p5", "--reset")
    assert code == 0 and load_progress() == {}
    assert run("learn", "p5", "--only")[0] == 2
    assert run("learn", "p5", "--lesson", "13")[0] == 2


def test_a_corrupt_progress_file_stops_with_what_to_do() -> None:
    path = progress_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json", encoding="utf-8")
    code, out = run("learn", "p5", "--list")
    assert code == 2 and str(path) in out and "--reset" in out
    assert path.read_text(encoding="utf-8") == "{not json"
    code, out = run("learn", "p5", "--reset")
    assert code == 0 and load_progress() == {}
