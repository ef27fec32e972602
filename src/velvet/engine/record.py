"""Game records and saved games.

A record is game name, rules version, card-set hash, seed, config and the
actions as text; replaying it rebuilds the state byte for byte. A save file
is a record plus the digest of the state it must replay to, so a corrupt or
edited save is detected rather than loaded.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from velvet.engine.core import Event, Game, State, choose_by_text
from velvet.engine.errors import RecordError, VelvetError

SAVE_FORMAT = "velvet-save/1"
RECORD_FORMAT = "velvet-record/1"


@dataclass
class GameRecord:
    game: str
    rules_version: str
    cardset_hash: str
    seed: int
    config: dict[str, Any]
    actions: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, game: Game[Any], config: dict[str, Any], seed: int) -> GameRecord:
        return cls(game.name, game.rules_version, game.cardset_hash(), seed, config)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "cardset_hash": self.cardset_hash,
            "seed": self.seed,
            "config": self.config,
            "actions": list(self.actions),
        }

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError("record: expected a JSON object")
        expected: dict[str, type | tuple[type, ...]] = {
            "game": str,
            "rules_version": str,
            "cardset_hash": str,
            "seed": int,
            "config": dict,
            "actions": list,
        }
        for key, kind in expected.items():
            if key not in data:
                raise RecordError(f"record: missing field '{key}'")
            if not isinstance(data[key], kind) or isinstance(data[key], bool):
                raise RecordError(f"record: field '{key}' has the wrong type")
        if not all(isinstance(a, str) for a in data["actions"]):
            raise RecordError("record: every action must be a text")
        return cls(
            data["game"],
            data["rules_version"],
            data["cardset_hash"],
            data["seed"],
            data["config"],
            list(data["actions"]),
        )

    def check_game(self, game: Game[Any]) -> None:
        if self.game != game.name:
            raise RecordError(f"record is of game '{self.game}', not '{game.name}'")
        if self.rules_version != game.rules_version:
            raise RecordError(
                f"record was made with rules {self.rules_version}; this Velvet has "
                f"{game.rules_version}"
            )
        if self.cardset_hash != game.cardset_hash():
            raise RecordError(
                "record was made with another card set: pass the same --cards as when it was played"
            )

    def steps(self, game: Game[Any]) -> Iterator[tuple[State[Any], str | None, list[Event]]]:
        """Replay step by step: the start state, then each (state, action, events)."""
        self.check_game(game)
        try:
            state = game.new_state(self.config, self.seed)
        except VelvetError as error:
            raise RecordError(f"record: bad config: {error}") from error
        yield state, None, []
        for number, text in enumerate(self.actions, start=1):
            if text.strip().isdigit():
                raise RecordError(f"record: action {number} must be a text, not a number")
            try:
                action = choose_by_text(state, text)
                events = state.apply_unchecked(action)
            except VelvetError as error:
                raise RecordError(
                    f"record: action {number} '{text}' cannot be replayed: {error}"
                ) from error
            yield state, text, events

    def replay(self, game: Game[Any]) -> State[Any]:
        final: State[Any] | None = None
        for state, _, _ in self.steps(game):
            final = state
        assert final is not None  # steps() always yields the start state
        return final


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise RecordError(f"{path}: no such file") from error
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise RecordError(f"{path}: not a readable JSON file ({error})") from error


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON through a temporary file so a crash never leaves half a file."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)


def save_game(path: Path, record: GameRecord, state: State[Any]) -> None:
    write_json_atomic(
        path, {"format": SAVE_FORMAT, "record": record.to_json(), "state_sha256": state.digest()}
    )


def load_game(path: Path, game_for: Callable[[str], Game[Any]]) -> tuple[GameRecord, State[Any]]:
    """Load a save (or a bare record); the replayed state must match its digest."""
    data = _read_json(path)
    if not isinstance(data, dict):
        raise RecordError(f"{path}: not a Velvet save or record")
    record_data = data.get("record", data) if data.get("format") == SAVE_FORMAT else data
    record = GameRecord.from_json(record_data)
    state = record.replay(game_for(record.game))
    expected = data.get("state_sha256")
    if expected is not None and expected != state.digest():
        raise RecordError(f"{path}: the saved state does not match its moves (corrupt save)")
    return record, state


def load_record(path: Path) -> GameRecord:
    data = _read_json(path)
    if isinstance(data, dict) and data.get("format") == SAVE_FORMAT:
        data = data.get("record")
    return GameRecord.from_json(data)
