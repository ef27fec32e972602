"""Which lessons a person has solved, kept in the data folder (``learn/progress.json``).

The folder is the terminal's (``VELVET_DATA_DIR`` overrides it, as for autosaves). A
progress file that cannot be read is an error naming it and what to do; it is never
overwritten silently.
"""

from __future__ import annotations

import json
from pathlib import Path

from velvet.engine.errors import ConfigError
from velvet.engine.files import parse_json, read_text, write_atomic
from velvet.ui.terminal import data_dir

PROGRESS_FILE = "progress.json"


def progress_path() -> Path:
    return data_dir() / "learn" / PROGRESS_FILE


def _problem(message: str) -> ConfigError:
    return ConfigError(f"{message} (delete the file, or pass --reset, to start over)")


def load_progress(path: Path | None = None) -> dict[str, list[str]]:
    """Solved lesson ids by game name; empty when there is no file yet."""
    path = path or progress_path()
    if not path.exists():
        return {}
    data = parse_json(read_text(path, _problem), _problem, str(path))
    games = data.get("games") if isinstance(data, dict) else None
    if not isinstance(games, dict) or not all(
        isinstance(ids, list) and all(isinstance(i, str) for i in ids) for ids in games.values()
    ):
        raise _problem(f"{path}: not a progress file of velvet learn")
    return {str(name): list(ids) for name, ids in games.items()}


def save_progress(done: dict[str, list[str]], path: Path | None = None) -> None:
    path = path or progress_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"version": 1, "games": done}, indent=1, sort_keys=True) + "\n"
    write_atomic(path, text.encode(), ConfigError)


def mark_done(game: str, lesson_id: str, path: Path | None = None) -> None:
    done = load_progress(path)
    ids = done.setdefault(game, [])
    if lesson_id not in ids:
        ids.append(lesson_id)
        save_progress(done, path)
