"""Kernel contract: checked apply, move parsing, records, saves, card loading."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from tests.engine.toygame import ROLL, STOP, Move, RaceGame, RaceState
from velvet.cards.loader import merge_by_id, read_toml, validate_cards
from velvet.engine import (
    CardDataError,
    GameRecord,
    IllegalActionError,
    InvalidActionError,
    RecordError,
    choose_by_text,
    load_game,
    save_game,
)


def play_to_end(seed: int) -> tuple[GameRecord, RaceState]:
    game = RaceGame()
    record = GameRecord.start(game, {}, seed)
    state = game.new_state({}, seed)
    while not state.is_terminal():
        action = ROLL
        state.apply(action)
        record.actions.append(str(action))
    return record, state


def test_apply_of_an_illegal_action_names_the_rule_and_changes_nothing() -> None:
    game = RaceGame()
    state = game.new_state({}, 1)
    before = state.canonical()
    with pytest.raises(IllegalActionError) as info:
        state.apply(Move("jump"))
    assert info.value.rule_id == "TOY-1"
    assert "[TOY-1]" in str(info.value)
    assert state.canonical() == before


def test_no_action_is_legal_after_the_end() -> None:
    _, state = play_to_end(3)
    with pytest.raises(IllegalActionError, match="TOY-END"):
        state.apply(ROLL)


@pytest.mark.parametrize(
    ("text", "expected"), [("1", ROLL), ("2", STOP), ("roll", ROLL), ("  stop ", STOP)]
)
def test_choose_by_text_accepts_numbers_and_text_forms(text: str, expected: object) -> None:
    state = RaceGame().new_state({}, 1)
    assert choose_by_text(state, text) == expected


@pytest.mark.parametrize(
    ("text", "message"), [("", "empty"), ("9", "choose 1 to 2"), ("fly", "not a move")]
)
def test_choose_by_text_rejects_garbled_input(text: str, message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        choose_by_text(RaceGame().new_state({}, 1), text)


def test_clone_is_equal_and_independent() -> None:
    state = RaceGame().new_state({}, 5)
    twin = state.clone()
    assert twin == state
    twin.apply(ROLL)
    assert twin != state


def test_record_replays_to_an_identical_state() -> None:
    record, state = play_to_end(11)
    again = GameRecord.from_json(json.loads(json.dumps(record.to_json()))).replay(RaceGame())
    assert again.canonical() == state.canonical()


def test_a_record_replays_any_prefix_of_its_actions() -> None:
    record, _ = play_to_end(11)
    assert len(record.actions) >= 3
    state = RaceGame().new_state({}, 11)
    for moves, text in enumerate([None, *record.actions]):
        if text is not None:
            state.apply(choose_by_text(state, text))
        assert record.replay(RaceGame(), moves).canonical() == state.canonical()
    for moves in (-1, len(record.actions) + 1):
        with pytest.raises(RecordError, match=f"cannot replay {moves} actions: it has"):
            record.replay(RaceGame(), moves)


def test_record_from_another_card_set_is_refused() -> None:
    record, _ = play_to_end(2)
    with pytest.raises(RecordError, match="another card set"):
        record.replay(RaceGame(target=12))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.pop("seed"), "missing field 'seed'"),
        (lambda d: d.update(seed="x"), "'seed' has the wrong type"),
        (lambda d: d["actions"].append("fly"), "cannot be replayed"),
        (lambda d: d["actions"].append("1"), "must be a text"),
        (lambda d: d.update(game="chess"), "of game 'chess'"),
    ],
)
def test_corrupt_records_get_one_line_errors(
    mutate: Callable[[dict[str, Any]], object], message: str
) -> None:
    record, _ = play_to_end(4)
    data = record.to_json()
    data["actions"] = data["actions"][:2]
    mutate(data)
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(data).replay(RaceGame())


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    game = RaceGame()
    record = GameRecord.start(game, {}, 8)
    state = game.new_state({}, 8)
    for _ in range(3):
        state.apply(ROLL)
        record.actions.append("roll")
    path = tmp_path / "game.json"
    save_game(path, record, state)
    loaded_record, loaded = load_game(path, lambda name: game)
    assert loaded.canonical() == state.canonical()
    assert loaded_record.actions == record.actions


def test_a_save_whose_state_does_not_match_is_corrupt(tmp_path: Path) -> None:
    game = RaceGame()
    record = GameRecord.start(game, {}, 8)
    state = game.new_state({}, 8)
    path = tmp_path / "game.json"
    save_game(path, record, state)
    data = json.loads(path.read_text())
    data["state_sha256"] = "0" * 64
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match="corrupt save"):
        load_game(path, lambda name: game)


@pytest.mark.parametrize("content", ["", "{", "[1, 2]", '"text"'])
def test_unreadable_saves_are_refused(tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(RecordError):
        load_game(path, lambda name: RaceGame())


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    cost: int


@pytest.mark.parametrize(
    ("text", "card", "field", "message"),
    [
        ('[[card]]\nid = "a"\ncost = "x"\n', "a", "cost", "integer"),
        ('[[card]]\nid = "a"\n', "a", "cost", "Field required"),
        ('[[card]]\nid = "a"\ncost = 1\ncolour = 2\n', "a", "colour", "Extra inputs"),
        ("[[card]]\ncost = 1\n", "card #1", "id", "Field required"),
        ('[[card]]\nid = "a"\ncost = 1\n[[card]]\nid = "a"\ncost = 2\n', "a", "id", "duplicate"),
        ("card = 3\n", None, "card", "array of tables"),
        ("[set]\nmode = 'merge'\n", None, "set.mode", "extend"),
        ("not toml [", None, None, "not valid TOML"),
    ],
)
def test_card_errors_name_file_card_and_field(
    text: str, card: str | None, field: str | None, message: str
) -> None:
    with pytest.raises(CardDataError) as info:
        validate_cards(read_toml("x.toml", name="x.toml", text=text), "card", Card)
    error = info.value
    assert (error.file, error.card, error.field) == ("x.toml", card, field)
    assert message in str(error)
    assert str(error).startswith("x.toml")


def test_missing_card_file() -> None:
    with pytest.raises(CardDataError, match="no such file"):
        read_toml("/nonexistent/cards.toml")


def test_merge_by_id_replaces_and_extends() -> None:
    base = [Card(id="a", cost=1), Card(id="b", cost=2)]
    merged = merge_by_id(base, [Card(id="b", cost=5), Card(id="c", cost=3)])
    assert [(c.id, c.cost) for c in merged] == [("a", 1), ("b", 5), ("c", 3)]
