"""Solving puzzles: reading a move, the answer's words, progress and Glicko-2 ratings.

A try is a game between the solver and the puzzle (:func:`velvet.server.ratings.rate_game`,
the same Glicko-2 as players): solved is a win for the solver, anything else a win for the
puzzle. Only the first try at a puzzle is rated, as on other puzzle sites. The terminal keeps
progress and both kinds of rating in the data folder (``learn/puzzles.json``, beside the
lessons' progress); the browser keeps them in its own storage and asks the server to rate.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from velvet.engine.core import State, choose_by_text
from velvet.engine.errors import ConfigError, IllegalActionError, InvalidActionError, VelvetError
from velvet.engine.files import one_line, parse_json, read_text, write_atomic
from velvet.learn.puzzles import Puzzle
from velvet.learn.rules import rule_line
from velvet.server.ratings import Rating, rate_game
from velvet.ui.choose import InvalidAction, pick
from velvet.ui.terminal import data_dir

PROGRESS_FILE = "puzzles.json"


def progress_path() -> Path:
    return data_dir() / "learn" / PROGRESS_FILE


@dataclass(frozen=True)
class Answer:
    """What a try at a puzzle came to: ``right`` is None when the move was no legal move
    (nothing is counted then), and ``lines`` say it in words."""

    right: bool | None
    lines: tuple[str, ...]
    move: str = ""


def read_move(state: State[Any], word: str) -> tuple[Any | None, list[str]]:
    """The legal action ``word`` names (its number in the list, words or text form), or
    None and why not (the engine's reason and rule for an illegal move)."""
    labels = state.action_labels()
    legal = list(labels)
    try:
        if word.isascii() and word.isdigit() and 1 <= int(word) <= len(legal):
            found: int | None = int(word) - 1
        else:
            found = pick(word, [(str(a), labels[a]) for a in legal])
        return (legal[found] if found is not None else choose_by_text(state, word)), []
    except IllegalActionError as error:
        return None, [f"Not allowed: {error.reason}.", f"Rule {rule_line(error.rule_id)}"]
    except InvalidActionError:
        shown = one_line(word, 40)
        return None, [
            f"error: '{shown}' is no move here: type its number (1 to {len(legal)}) "
            "or its words from the start"
        ]
    except (InvalidAction, VelvetError) as error:
        return None, [f"error: {one_line(str(error), 200)}"]


def attempt(puzzle: Puzzle, state: State[Any], word: str) -> Answer:
    """Judge the move ``word`` in the puzzle's start ``state`` (which is left unchanged)."""
    action, problem = read_move(state, word)
    if action is None:
        return Answer(None, tuple(problem))
    labels = state.action_labels()
    answer = next(a for a in labels if str(a) == puzzle.answer)
    if str(action) == puzzle.answer:
        return Answer(True, (f"Right: {labels[answer]}.", f"Why: {puzzle.why}"), str(action))
    return Answer(
        False,
        (
            f"Not the best: {labels[action]}.",
            f"The best move: {labels[answer]}.",
            f"Why: {puzzle.why}",
        ),
        str(action),
    )


# --- progress and ratings --------------------------------------------------------------------


def _problem(message: str) -> ConfigError:
    return ConfigError(f"{message} (delete the file, or pass --reset, to start over)")


def _rating(data: Any) -> Rating:
    if (
        isinstance(data, list)
        and len(data) == 3
        and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in data)
    ):
        return Rating(float(data[0]), float(data[1]), float(data[2]))
    raise ValueError(data)


def _numbers(rating: Rating) -> list[float]:
    return [round(rating.rating, 2), round(rating.rd, 2), round(rating.vol, 6)]


@dataclass
class GameProgress:
    """One game's puzzle progress: what was solved and failed, and the ratings."""

    solved: list[str]
    failed: list[str]
    solver: Rating
    puzzles: dict[str, Rating]

    def rating_of(self, puzzle_id: str) -> Rating:
        return self.puzzles.get(puzzle_id, Rating())

    def record(self, puzzle_id: str, right: bool) -> bool:
        """Count a try; the first try at a puzzle is rated (True then)."""
        first = puzzle_id not in self.solved and puzzle_id not in self.failed
        if first:
            self.solver, self.puzzles[puzzle_id] = rate_game(
                self.solver, self.rating_of(puzzle_id), 1.0 if right else 0.0
            )
        if right and puzzle_id not in self.solved:
            self.solved.append(puzzle_id)
            if puzzle_id in self.failed:
                self.failed.remove(puzzle_id)
        elif not right and first:
            self.failed.append(puzzle_id)
        return first

    def to_json(self) -> dict[str, Any]:
        return {
            "solved": self.solved,
            "failed": self.failed,
            "solver": _numbers(self.solver),
            "puzzles": {k: _numbers(v) for k, v in sorted(self.puzzles.items())},
        }


def _game_progress(data: Any) -> GameProgress:
    if not isinstance(data, dict):
        raise ValueError(data)
    solved, failed = data.get("solved", []), data.get("failed", [])
    if not all(
        isinstance(x, list) and all(isinstance(i, str) for i in x) for x in (solved, failed)
    ):
        raise ValueError(data)
    puzzles = data.get("puzzles", {})
    if not isinstance(puzzles, dict):
        raise ValueError(data)
    return GameProgress(
        list(solved),
        list(failed),
        _rating(data.get("solver", [1500.0, 350.0, 0.06])),
        {str(k): _rating(v) for k, v in puzzles.items()},
    )


def load_progress(path: Path | None = None) -> dict[str, GameProgress]:
    """Puzzle progress by game name; empty when there is no file yet."""
    path = path or progress_path()
    if not path.exists():
        return {}
    data = parse_json(read_text(path, _problem), _problem, str(path))
    games = data.get("games") if isinstance(data, dict) else None
    try:
        if not isinstance(games, dict):
            raise ValueError(games)
        return {str(name): _game_progress(value) for name, value in games.items()}
    except ValueError:
        raise _problem(f"{path}: not a progress file of velvet puzzle") from None


def save_progress(done: dict[str, GameProgress], path: Path | None = None) -> None:
    path = path or progress_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    games = {name: progress.to_json() for name, progress in sorted(done.items())}
    text = json.dumps({"version": 1, "games": games}, indent=1, sort_keys=True) + "\n"
    write_atomic(path, text.encode(), ConfigError)


def of_game(done: dict[str, GameProgress], game: str) -> GameProgress:
    return done.setdefault(game, GameProgress([], [], Rating(), {}))
