"""Puzzles: the shipped files load and re-verify, the generator rejects an answer that needs
the hidden cards, ``velvet puzzle`` solves one, the API rates a try, bad files are one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi import FastAPI
from fastapi.testclient import TestClient

from velvet.bots.hints import hints
from velvet.cli import main
from velvet.games import game_names, get_game
from velvet.learn import puzzles_web
from velvet.learn.puzzles import (
    AGREE,
    MIN_GAP,
    PuzzleError,
    Settings,
    builtin_folder,
    judge_position,
    load_puzzles,
    read_puzzle,
)
from velvet.learn.puzzles_play import load_progress, progress_path

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "src/velvet/data/puzzles"
HIDDEN = Path(__file__).parent / "data/puzzle-hidden.toml"


def run(*args: str, input: str = "") -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.output


def test_the_shipped_puzzles_load_and_say_what_verified_them() -> None:
    counts = {}
    for name in game_names():
        if builtin_folder(name) is None:
            continue
        puzzles = load_puzzles(get_game(name))
        counts[name] = len(puzzles)
        for puzzle in puzzles:
            checked = puzzle.verified
            assert checked.agree >= AGREE * checked.deals and checked.deals == 8, puzzle.file
            assert checked.win > checked.next_win and checked.next_move != puzzle.answer
            assert puzzle.why.startswith(
                puzzle.start().action_label(puzzle.game.parse_action(puzzle.answer))
            )
        assert len({p.start().canonical() for p in puzzles}) == len(puzzles)  # no repeats
    assert counts.get("vs", 0) >= 100
    # the gap each game's files were made with (benchmarks/puzzles.py --min-gap)
    for name, gap in (("vs", MIN_GAP), ("p5", 0.01)):
        made = load_puzzles(get_game(name)) if builtin_folder(name) else []
        assert all(p.verified.win - p.verified.next_win >= gap - 1e-3 for p in made)


def test_a_shipped_puzzle_is_judged_the_same_twice_and_its_answer_still_searches_best() -> None:
    """Every search is seeded by the view: the generator's verdict is reproducible. The
    answer is still the deep search's best move (a calibration map changes the chances, not
    the order of the moves); the files' [verified] numbers and their "why" percentages were
    measured under the maps of 2026-12-02 and are not checked again here (docs/learn.md)."""
    from velvet.learn.puzzles import DEEP_BUDGET

    puzzle = load_puzzles(get_game("vs"))[0]
    first = judge_position(puzzle.start(), puzzle.seat)
    assert judge_position(puzzle.start(), puzzle.seat) == first
    found = hints(puzzle.start(), puzzle.seat, DEEP_BUDGET, top=2)
    assert str(found[0].action) == puzzle.answer
    assert str(found[1].action) == puzzle.verified.next_move


def test_the_generator_rejects_an_answer_that_depends_on_hidden_cards() -> None:
    """A bot-game position where the view's search liked fusing Koropokkur (14 % ahead),
    but a search that sees each deal of the rival's hand and the decks finds it best on few:
    it is no puzzle. (Its file is a well-formed puzzle: the format alone cannot tell.)"""
    puzzle = read_puzzle(HIDDEN, get_game("vs"))
    loose = Settings(min_gap=-1.0, min_z=-99.0, screen=60, deep=120, compare=40)
    verdict = judge_position(puzzle.start(), puzzle.seat, loose)
    assert not verdict.ok
    assert verdict.reason.startswith("depends on hidden cards: best on ")
    assert verdict.agree < AGREE * verdict.deals


def _answer_number(path: Path) -> tuple[int, int]:
    puzzle = read_puzzle(path, get_game("vs"))
    texts = [str(a) for a in puzzle.start().action_labels()]
    right = texts.index(puzzle.answer) + 1
    return right, (right % len(texts)) + 1


def test_velvet_puzzle_solves_one_rates_it_and_marks_a_miss(tmp_path: Path) -> None:
    first, second = sorted((SHIPPED / "vs").glob("*.toml"))[:2]
    for path in (first, second):
        shutil.copy(path, tmp_path / path.name)
    right, _ = _answer_number(first)
    _, wrong = _answer_number(second)
    code, out = run(
        "puzzle", "vs", "--puzzles", str(tmp_path), "--only", input=f"{right}\n\n{wrong}\nq\n"
    )
    assert code == 0, out
    assert "✓ Solved" in out and "Right: " in out and "Why: " in out
    assert "✗ Not solved" in out and "The best move: " in out
    progress = load_progress()["vs"]
    assert progress.solved == [first.stem] and progress.failed == [second.stem]
    assert progress.puzzles[first.stem].rating < 1500 < progress.puzzles[second.stem].rating
    assert progress.solver.rd < 350
    saved = json.loads(progress_path().read_text())
    assert set(saved["games"]["vs"]) == {"solved", "failed", "solver", "puzzles"}
    # the puzzle solved is skipped next time; a retry of the miss is not rated again
    code, out = run("puzzle", "vs", "--puzzles", str(tmp_path), "--only", input=f"{wrong}\n\nq\n")
    assert "Tried before: not rated again." in out
    assert load_progress()["vs"].solver == progress.solver


def test_an_illegal_or_unknown_move_is_said_and_counts_nothing(tmp_path: Path) -> None:
    shutil.copy(sorted((SHIPPED / "vs").glob("*.toml"))[0], tmp_path / "a.toml")
    code, out = run("puzzle", "vs", "--puzzles", str(tmp_path), "--only", input="zzz\n99\nq\n")
    assert code == 0 and "error: 'zzz' is no move here" in out and "error: '99'" in out
    assert "vs" not in load_progress()


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (lambda t: t.replace('answer = "', 'answer = "bogus '), "answer", "is not a legal move"),
        (lambda t: t.replace("seat = 1", "seat = 5").replace("seat = 2", "seat = 5"), "seat", "5"),
        (lambda t: "\n".join(x for x in t.splitlines() if not x.startswith("why")), "why", "add"),
        (lambda t: t.replace("turn = ", "turn = 9 #"), "position", "turn"),
        (lambda t: t.replace("[verified]", "[verified]\nsure = true"), "verified.sure", "no such"),
    ],
)
def test_a_bad_puzzle_file_is_one_line_naming_file_and_field(
    tmp_path: Path, change: object, field: str | None, words: str
) -> None:
    source = sorted((SHIPPED / "vs").glob("*.toml"))[0].read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(change(source), encoding="utf-8")  # type: ignore[operator]
    with pytest.raises(PuzzleError) as error:
        read_puzzle(bad, get_game("vs"))
    assert error.value.field == field and words in error.value.reason
    code, out = run("puzzle", "vs", "--puzzles", str(bad), "--only", "--check")
    assert code == 2 and out.startswith(f"error: {bad}") and out.count("\n") == 1


def test_the_api_shows_a_puzzle_and_rates_a_first_try() -> None:
    app = FastAPI()
    app.include_router(puzzles_web.make_router())
    client = TestClient(app)
    listed = client.get("/api/puzzles/vs").json()
    assert len(listed["puzzles"]) >= 100
    first = listed["puzzles"][0]["id"]
    page = client.get(f"/api/puzzles/vs/{first}").json()
    assert page["task"].startswith("You are Player ") and page["choices"] and page["board"]
    answer = load_puzzles(get_game("vs"))[0].answer
    body = {"move": answer, "rated": True, "solver": [1500, 350, 0.06], "puzzle": None}
    tried = client.post(f"/api/puzzles/vs/{first}", json=body).json()
    assert tried["right"] is True and tried["solver"][0] > 1500 > tried["puzzle"][0]
    assert tried["lines"][1].startswith("Why: ")
    wrong = client.post(f"/api/puzzles/vs/{first}", json={"move": "nothing at all"}).json()
    assert wrong["right"] is None and "solver" not in wrong
    bad = client.post(f"/api/puzzles/vs/{first}", json={**body, "solver": [1500, 999, 0.06]})
    assert bad.status_code == 400 and "rating" in bad.json()["message"]
    assert client.get("/api/puzzles/vs/nope").status_code == 404
    assert client.get("/api/puzzles/chess").status_code == 404


@pytest.mark.parametrize("name", ["p5", "vs"])
def test_a_state_written_as_a_position_builds_back_with_the_same_moves(name: str) -> None:
    """``Game.position_of`` is the inverse of ``game.position`` on the decisions it writes:
    the same legal moves, and (P5) the same view; the rest is refused by a ConfigError."""
    from velvet.bots.registry import make_bot
    from velvet.engine.errors import ConfigError
    from velvet.engine.rng import Rng
    from velvet.games import get_spec

    game, spec = get_game(name), get_spec(name)
    state = game.new_state(spec.config_for(game, spec.players[0], {}), 3)
    rng, written, refused = Rng(4), 0, 0
    bot = make_bot("easy", name)
    while not state.is_terminal() and written < 6:
        seat = state.current_player
        try:
            again = game.position(game.position_of(state, seed=1))
        except ConfigError:
            refused += 1
        else:
            written += 1
            assert [str(a) for a in again.legal_actions()] == [
                str(a) for a in state.legal_actions()
            ]
            if name == "p5":
                assert again.view(seat) == state.view(seat)
        state.apply(bot.choose(game, state.view(seat), state.legal_actions(), rng))
    assert written == 6 and refused > 0
