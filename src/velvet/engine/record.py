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
from velvet.engine.files import parse_json, read_text, show_path, write_atomic

SAVE_FORMAT = "velvet-save/1"
RECORD_FORMAT = "velvet-record/1"
MAX_ACTIONS = 200_000
"""Most actions in a record (a real game takes tens to hundreds)."""
MAX_ACTION_TEXT = 200
"""Longest action text in a record."""
MAX_SEED = 2**64
"""Seeds are 0 .. 2**64 - 1 (the RNG keeps 64 bits)."""
_CONFIG_FAULTS = (TypeError, KeyError, ValueError, IndexError, AttributeError, RecursionError)
"""What a game's set-up code may raise on a config of the wrong shape (a list for a name)."""


@dataclass
class GameRecord:
    game: str
    rules_version: str
    cardset_hash: str
    seed: int
    config: dict[str, Any]
    actions: list[str] = field(default_factory=list)
    taken_back: list[dict[str, Any]] = field(default_factory=list)
    """Moves taken back with undo: ``{"after": n, "actions": [...]}`` (not replayed)."""
    seats: list[str] = field(default_factory=list)
    """Who plays each seat ("human" or a bot as --seat names it); empty if unknown."""

    @classmethod
    def start(cls, game: Game[Any], config: dict[str, Any], seed: int) -> GameRecord:
        return cls(game.name, game.rules_version, game.cardset_hash(), seed, config)

    def to_json(self) -> dict[str, Any]:
        return (
            {
                "format": RECORD_FORMAT,
                "game": self.game,
                "rules_version": self.rules_version,
                "cardset_hash": self.cardset_hash,
                "seed": self.seed,
                "config": self.config,
                "actions": list(self.actions),
            }
            | ({"taken_back": self.taken_back} if self.taken_back else {})
            | ({"seats": self.seats} if self.seats else {})
        )

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
        if not 0 <= data["seed"] < MAX_SEED:
            raise RecordError(f"record: field 'seed' must be 0 .. 2**64-1, not {data['seed']}")
        if len(data["actions"]) > MAX_ACTIONS:
            raise RecordError(f"record: over {MAX_ACTIONS} actions")
        for number, text in enumerate(data["actions"], start=1):
            if len(text) > MAX_ACTION_TEXT or not text.isprintable():
                raise RecordError(
                    f"record: action {number} is not an action's text "
                    f"(unprintable, or over {MAX_ACTION_TEXT} characters)"
                )
        seats = data.get("seats", [])
        if not isinstance(seats, list) or not all(
            isinstance(x, str) and 0 < len(x) <= 40 and x.isprintable() for x in seats
        ):
            raise RecordError("record: field 'seats' must be a list of seat names")
        taken = data.get("taken_back", [])
        if (
            not isinstance(taken, list)
            or len(taken) > MAX_ACTIONS
            or not all(
                isinstance(t, dict)
                and isinstance(t.get("after"), int)
                and isinstance(t.get("actions"), list)
                and len(t["actions"]) <= MAX_ACTIONS
                and all(
                    isinstance(a, str) and len(a) <= MAX_ACTION_TEXT and a.isprintable()
                    for a in t["actions"]
                )
                for t in taken
            )
        ):
            raise RecordError("record: field 'taken_back' must list {after, actions} entries")
        return cls(
            data["game"],
            data["rules_version"],
            data["cardset_hash"],
            data["seed"],
            data["config"],
            list(data["actions"]),
            [dict(t) for t in taken],
            list(seats),
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
        except _CONFIG_FAULTS as error:
            raise RecordError(
                f"record: field 'config': a value has the wrong type ({type(error).__name__})"
            ) from None
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

    def replay(self, game: Game[Any], moves: int | None = None) -> State[Any]:
        """The state after the record's actions, or after its first ``moves`` of them,
        replayed from its seed (the one prefix replay: undo in the terminal and on the
        server goes back this way when it has no copy of the state)."""
        if moves is not None and not 0 <= moves <= len(self.actions):
            raise RecordError(f"record: cannot replay {moves} actions: it has {len(self.actions)}")
        final: State[Any] | None = None
        for number, (state, _, _) in enumerate(self.steps(game)):
            final = state
            if number == moves:
                break
        assert final is not None  # steps() always yields the start state
        return final


def _p(path: object) -> str:
    """A path as a one-line message shows it."""
    return show_path(str(path))


def _read_json(path: Path) -> Any:
    return parse_json(read_text(path, RecordError), RecordError, str(path))


def write_json_atomic(path: Path, data: Any, *, overwrite: bool = True) -> None:
    """Write JSON safely (unique temporary file, fsync, rename); RecordError if it cannot.

    ``overwrite=False`` refuses to replace an existing file.
    """
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    write_atomic(path, text.encode("utf-8"), RecordError, overwrite=overwrite)


def save_game(path: Path, record: GameRecord, state: State[Any], *, overwrite: bool = True) -> None:
    write_json_atomic(
        path,
        {"format": SAVE_FORMAT, "record": record.to_json(), "state_sha256": state.digest()},
        overwrite=overwrite,
    )


def unwrap_download(data: Any) -> Any:
    """The record in a server's finished-room download (``GET /api/rooms/ID/record``:
    ``{"record": ..., "result": ..., "seed": ...}``), else ``data`` as it is."""
    if isinstance(data, dict) and isinstance(data.get("record"), dict) and "actions" not in data:
        return data["record"]
    return data


def _split(path: Path, data: Any) -> tuple[GameRecord, Any]:
    """The record of a save or bare record file, and the save's digest (or None)."""
    if not isinstance(data, dict):
        raise RecordError(f"{_p(path)}: not a Velvet save or record (expected a JSON object)")
    if data.get("format") == SAVE_FORMAT:
        if "record" not in data:
            raise RecordError(f"{_p(path)}: a save without its 'record'")
        expected = data.get("state_sha256")
        if expected is not None and not isinstance(expected, str):
            raise RecordError(f"{_p(path)}: field 'state_sha256' must be a text")
        record_data = data["record"]
    else:
        expected, record_data = None, unwrap_download(data)
    try:
        return GameRecord.from_json(record_data), expected
    except RecordError as error:
        raise RecordError(f"{_p(path)}: {error}") from None


def load_game(path: Path, game_for: Callable[[str], Game[Any]]) -> tuple[GameRecord, State[Any]]:
    """Load a save (or a bare record); the replayed state must match its digest."""
    record, expected = _split(path, _read_json(path))
    try:
        state = record.replay(game_for(record.game))
    except RecordError as error:
        raise RecordError(f"{_p(path)}: {error}") from None
    if expected is not None and expected != state.digest():
        raise RecordError(f"{_p(path)}: the saved state does not match its moves (corrupt save)")
    return record, state


def load_record(path: Path, game_for: Callable[[str], Game[Any]] | None = None) -> GameRecord:
    """Load a record (or the record of a save). With ``game_for``, a save's digest is
    checked as :func:`load_game` does, so an edited save is refused here too."""
    record, expected = _split(path, _read_json(path))
    if expected is not None and game_for is not None:
        load_game(path, game_for)
    return record
