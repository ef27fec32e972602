"""Every file reader, fed mutated real files: a result or one line of VelvetError, nothing else.

Entry points: P5 card files, VS card files, VS decks, saves, records and
results folders (run.json and chunks), each with VELVET_FUZZ_EXAMPLES inputs
(1,000 in CI). An input that is accepted must also be sound: a loaded save
replays to its digest, loaded results pass the row checks.
"""

from __future__ import annotations

import json
import random
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.hostile import FUZZ, mutated_json, mutated_text, tally
from velvet.cards.loader import load_card_files
from velvet.engine import GameRecord, VelvetError, load_game, load_record
from velvet.games import get_game
from velvet.p5 import cards as p5_cards
from velvet.sim.results import RUN_FILE, ResultStore, load_results
from velvet.sim.run import run_sim
from velvet.vs import cards as vs_cards
from velvet.vs.decks import default_deck_path, load_deck

P5_DATA = p5_cards.DATA_DIR
VS_DATA = vs_cards.DATA_DIR
P5_BUILTIN = p5_cards.builtin_files()


def attempt(entry: str, action: Callable[[], Any]) -> Any:
    """Run ``action``; a VelvetError must be one line. Any other exception fails the test."""
    try:
        result = action()
    except VelvetError as error:
        message = str(error)
        assert "\n" not in message and "\r" not in message, f"{entry}: two lines: {message!r}"
        assert message.strip(), f"{entry}: an empty message"
        tally(entry, "clean error")
        return None
    except BaseException:
        tally(entry, "crash")
        raise
    tally(entry, "ok")
    return result


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="velvet-fuzz-") as folder:
        yield Path(folder)


# ------------------------------------------------------------------ card files

P5_SOURCES = {name: (P5_DATA / name).read_text() for name in ("shadows.toml", "palaces.toml")}
P5_SOURCES["personas.toml"] = (P5_DATA / "personas.toml").read_text()
P5_SOURCES["rules.toml"] = (P5_DATA / "rules.toml").read_text()


@given(data=st.data())
@FUZZ
def test_p5_card_files(data: st.DataObject, scratch: Path) -> None:
    name = data.draw(st.sampled_from(sorted(P5_SOURCES)))
    path = scratch / f"p5-{name}"
    path.write_bytes(data.draw(mutated_text(P5_SOURCES[name])))

    def load() -> p5_cards.CardSet:
        return p5_cards.build_cardset(P5_BUILTIN + load_card_files([path]))

    cards = attempt("p5 card file", load)
    if cards is not None:
        for shadow in cards.shadows:
            assert 1 <= sum(shadow.health.values()) <= p5_cards.SHADOW_HEALTH[1]
        for palace in cards.palaces:
            assert 1 <= sum(palace.boss.health.values()) <= p5_cards.BOSS_HEALTH[1]


VS_SOURCE = (VS_DATA / "p5.toml").read_text()
_VS_BUILTIN = load_card_files([VS_DATA])


@given(data=st.data())
@FUZZ
def test_vs_card_files(data: st.DataObject, scratch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = load_card_files
    monkeypatch.setattr(
        vs_cards,
        "load_card_files",
        lambda paths: list(_VS_BUILTIN) if list(paths) == [VS_DATA] else real(paths),
    )
    path = scratch / "vs-cards.toml"
    path.write_bytes(data.draw(mutated_text(VS_SOURCE)))
    attempt("vs card file", lambda: vs_cards.build_card_set([path]))


VS_GAME = get_game("vs")
DECK_SOURCE = default_deck_path("p4").read_text()


@given(data=st.data())
@FUZZ
def test_vs_deck_files(data: st.DataObject, scratch: Path) -> None:
    path = scratch / "deck.toml"
    path.write_bytes(data.draw(mutated_text(DECK_SOURCE)))
    ids = attempt("vs deck file", lambda: load_deck(path, VS_GAME))  # type: ignore[arg-type]
    if ids is not None:
        assert len(ids) == 40


# ------------------------------------------------------------------ saves and records


def _played(game_name: str, steps: int, seed: int) -> tuple[GameRecord, Any]:
    game = get_game(game_name)
    config = game.default_config()
    state = game.new_state(config, seed)
    record = GameRecord.start(game, config, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        state.apply(action)
        record.actions.append(str(action))
    return record, state


SAVES = {}
for _name in ("p5", "vs"):
    _record, _state = _played(_name, 25, 3)
    SAVES[_name] = {
        "format": "velvet-save/1",
        "record": _record.to_json(),
        "state_sha256": _state.digest(),
    }


@given(data=st.data())
@FUZZ
def test_saves(data: st.DataObject, scratch: Path) -> None:
    name = data.draw(st.sampled_from(sorted(SAVES)))
    path = scratch / "save.json"
    path.write_bytes(data.draw(mutated_json(SAVES[name])))
    loaded = attempt("save file (resume)", lambda: load_game(path, get_game))
    if loaded is not None:
        record, state = loaded
        assert record.replay(get_game(record.game)).digest() == state.digest()


@given(data=st.data())
@FUZZ
def test_records(data: st.DataObject, scratch: Path) -> None:
    name = data.draw(st.sampled_from(sorted(SAVES)))
    source = SAVES[name] if data.draw(st.booleans()) else SAVES[name]["record"]
    path = scratch / "record.json"
    path.write_bytes(data.draw(mutated_json(source)))

    def replay() -> Any:
        record = load_record(path, get_game)
        return record.replay(get_game(record.game))

    attempt("record file (replay)", replay)


# ------------------------------------------------------------------ results folders


@pytest.fixture(scope="module")
def results(scratch: Path) -> Path:
    out = scratch / "results"
    run_sim(
        "vs",
        3,
        ["random", "random"],
        VS_GAME.default_config(),
        5,
        out,
        workers=1,
        progress=False,
        fmt="csv",
        chunk_size=2,
    )
    return out


@given(data=st.data())
@FUZZ
def test_results_folders(data: st.DataObject, results: Path) -> None:
    files = sorted(p for p in results.rglob("*") if p.is_file() and p.name != "summary.json")
    victim = data.draw(st.sampled_from(files))
    original = victim.read_bytes()
    try:
        if victim.name == RUN_FILE:
            victim.write_bytes(data.draw(mutated_json(json.loads(original))))
        else:
            victim.write_bytes(data.draw(mutated_text(original.decode())))
        loaded = attempt("results folder (report)", lambda: load_results(results))
        if loaded is not None:
            meta, rows = loaded
            seats = len(meta["seats"])
            for row in rows:
                assert row.get("winner") in (None, *range(seats))
            assert len(ResultStore(results).load_rows()) == len(rows)
    finally:
        victim.write_bytes(original)
