"""Puzzles of your own mistakes (issue 26, "learn from your mistakes"): ``velvet puzzle GAME
--from RECORD`` mines a played game for the decisions where one move was clearly best from
the mover's view and another was played, writes them as puzzle files and solves them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from pydantic import ValidationError

from velvet.bots.registry import make_bot
from velvet.cli import main
from velvet.engine.record import GameRecord, load_record
from velvet.engine.rng import Rng
from velvet.games import get_game, get_spec
from velvet.learn.puzzles import SourceModel, load_puzzles, mistakes, record_digest

SEED = 4
"""A game whose first player (random moves) misses a clearly best move at its move 2."""


def _record(tmp_path: Path, seed: int = SEED) -> Path:
    """A VS game: a person who plays at random (seat 1) against the greedy bot."""
    game, spec = get_game("vs"), get_spec("vs")
    config = spec.config_for(game, 2, {"first": "1"})
    record = GameRecord.start(game, config, seed)
    record.seats = ["human", "greedy"]
    state, rng, pick = game.new_state(config, seed), Rng(seed), random.Random(seed)
    bot = make_bot("greedy", "vs")
    while not state.is_terminal():
        legal = state.legal_actions()
        mover = state.current_player
        action = pick.choice(legal) if mover == 0 else bot.choose(game, state.view(1), legal, rng)
        record.actions.append(str(action))
        state.apply_unchecked(action)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_json()), encoding="utf-8")
    return path


def _run(*args: str, input: str = "") -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.output


def test_a_mistake_is_a_puzzle_whose_answer_is_not_the_move_played(tmp_path: Path) -> None:
    path = _record(tmp_path)
    game = get_game("vs")
    record = load_record(path, get_game)
    found = list(mistakes(game, record))
    assert found, "the random player's game has no mistake puzzle"
    for puzzle, played in found:
        assert puzzle.seat == 0  # the record's person, not the bot
        assert puzzle.verdict.ok and puzzle.verdict.best is not None
        assert str(puzzle.verdict.best.action) != played
        assert record.actions[puzzle.ply] == played  # the move made there, in the record
    assert list(mistakes(game, record, seats=[1])) != found  # the bot's moves, asked for
    assert all(p.seat == 1 for p, _ in mistakes(game, record, seats=[1]))


def test_velvet_puzzle_from_a_record_writes_its_mistakes_and_solves_them(tmp_path: Path) -> None:
    path = _record(tmp_path)
    out = tmp_path / "mine"
    code, text = _run("puzzle", "vs", "--from", str(path), "--out", str(out), input="1\nq\n")
    assert code == 0, text
    files = sorted(out.glob("mistake-*.toml"))
    digest = record_digest(load_record(path, get_game))
    assert files and all(f.name.startswith(f"mistake-{digest}-") for f in files)
    assert f"{len(files)} puzzle(s) of your mistakes in {out}" in text
    assert "Your move " in text and "In your game you played: " in text
    puzzles = load_puzzles(get_game("vs"), [out], builtin=False)
    assert [p.source.record for p in puzzles if p.source] == [digest] * len(files)
    assert all(p.source and p.source.played and p.answer != p.source.played for p in puzzles)
    # mined again: the same files, not new ones
    _run("puzzle", "vs", "--from", str(path), "--out", str(out), input="q\n")
    assert sorted(out.glob("*.toml")) == files


def test_bad_requests_for_mistake_puzzles_say_what_is_wrong(tmp_path: Path) -> None:
    path = _record(tmp_path)
    code, text = _run("puzzle", "vs", "--seat", "1")
    assert code == 2 and "--seat and --out go with --from RECORD" in text
    code, text = _run("puzzle", "p5", "--from", str(path))
    assert code == 2 and "is a game of vs, not p5" in text
    code, text = _run("puzzle", "vs", "--from", str(path), "--seat", "0")
    assert code == 2 and "--seat counts players from 1" in text
    with pytest.raises(ValidationError, match="give bot and seed"):
        SourceModel(ply=1)  # no source at all
    with pytest.raises(ValidationError, match="give bot and seed"):
        SourceModel(bot="easy", seed=1, record="0123456789abcdef", ply=1)  # two sources
