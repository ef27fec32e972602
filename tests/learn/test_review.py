"""``velvet review``: each decision judged from its mover's own view (docs/learn.md, "Review").

The record ``data/vs-easy-seed5.json`` is a VS game of two easy bots (seed 5, 95 moves,
Player 1 wins with its 94th move, a skill that brings Player 2's HP to 0). The blunder is
that record with move 94 swapped for "noskill" (not declaring the winning skill).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from velvet.bots.evaluators import determinize
from velvet.cli import main
from velvet.engine.record import GameRecord
from velvet.engine.rng import Rng
from velvet.games import get_game, get_spec
from velvet.learn.review import Position, budget_for, judge_position, positions, review

RECORD = Path(__file__).parent / "data" / "vs-easy-seed5.json"
EXACT = budget_for(None, 240)
"""A budget of simulations only: the same view gives the same estimate, whatever the machine."""


def _record() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RECORD.read_text())
    return data


def blunder(tmp_path: Path) -> Path:
    data = _record()
    assert data["actions"][93] == "skill s1 013 0"  # the winning skill
    data["actions"] = [*data["actions"][:93], "noskill"]
    path = tmp_path / "blunder.json"
    path.write_text(json.dumps(data))
    return path


def _json(decision: Any) -> dict[str, Any]:
    out: dict[str, Any] = decision.to_json()
    out.pop("seconds")
    return out


@pytest.mark.parametrize("game_name", ["vs", "p5"])
def test_the_estimate_reads_only_the_movers_view(game_name: str) -> None:
    """Two states the mover cannot tell apart (other hidden cards, other deck order and
    dice to come) get the very same judgement, down to the reasons."""
    game = get_game(game_name)
    state = game.new_state(get_spec(game_name).config_for(game, 2), 11)
    rng = Rng(4)
    while len(state.legal_actions()) < 2 or rng.randbelow(3):
        legal = state.legal_actions()
        state.apply(legal[rng.randbelow(len(legal))])
    seat = state.current_player
    view = state.view(seat)
    others = [determinize(game, view, seat, Rng(seed)) for seed in (1, 2, 3)]
    hidden = [o for o in others if o.digest() != state.digest()]
    assert hidden, "the samples must differ from the real state in what the mover cannot see"
    assert all(o.view(seat) == view for o in others)
    played = state.legal_actions()[-1]
    judged = [
        _json(judge_position(Position(7, s, played, str(played)), EXACT)) for s in [state, *hidden]
    ]
    assert judged[0]["judged"] and judged[0]["played"]["visits"] > 0
    assert all(j == judged[0] for j in judged[1:])


def test_a_constructed_blunder_is_a_mistake_with_the_better_move() -> None:
    data = _record()
    data["actions"] = [*data["actions"][:93], "noskill"]
    record = GameRecord.from_json(data)
    game = get_game("vs")
    found, _ = positions(game, record)
    last = found[-1]
    assert last.index == 94 and last.text == "noskill"
    bad = judge_position(last, EXACT)
    assert bad.mistake and bad.mover == 0
    assert bad.best is not None and str(bad.best.action) == "skill s1 013 0"
    assert bad.drop > bad.margin and bad.before is not None and bad.before > 0.8
    assert bad.best.reason
    good = judge_position(replace(last, action=bad.best.action, text="skill s1 013 0"), EXACT)
    assert not good.mistake and good.drop == 0.0


def test_review_skips_forced_moves_and_orders_decisions() -> None:
    data = _record()
    data["actions"] = data["actions"][:12]
    result = review(
        get_game("vs"), GameRecord.from_json(data), seconds=None, simulations=30, workers=0
    )
    assert [d.index for d in result.decisions] == list(range(1, 13))
    forced = [d for d in result.decisions if d.choices == 1]
    assert forced and all(not d.judged and d.best is None for d in forced)
    assert all(d.judged for d in result.decisions if d.choices > 1)
    strict = json.loads(json.dumps(result.to_json(), allow_nan=False))  # no Infinity
    assert strict["budget"] == {"seconds": None, "simulations": 30}
    only = review(
        get_game("vs"),
        GameRecord.from_json(data),
        seconds=None,
        simulations=30,
        workers=0,
        seats=[1],
    )
    assert only.decisions and {d.mover for d in only.decisions} == {1}


def test_workers_give_the_same_review_as_in_process() -> None:
    data = _record()
    data["actions"] = data["actions"][:6]
    record = GameRecord.from_json(data)
    here = review(get_game("vs"), record, seconds=None, simulations=30, workers=0)
    there = review(get_game("vs"), record, seconds=None, simulations=30, workers=1)
    assert [_json(d) for d in here.decisions] == [_json(d) for d in there.decisions]


def test_the_cli_draws_the_chart_and_names_the_mistake(tmp_path: Path) -> None:
    path = blunder(tmp_path)
    args = ["review", str(path), "--seat", "1", "--simulations", "240", "--seconds", "60"]
    out = CliRunner().invoke(main, [*args, "--workers", "0"], terminal_width=100)
    assert out.exit_code == 0, out.output
    text = out.output
    assert "Review of a vs game: 94 moves" in text and " mistake" in text
    assert "Player 1  chance to win after each of" in text and "100% ┤" in text and "▲" in text
    assert "✗ move 94 · Player 1 played" in text and "Better: Use Hassou Tobi" in text
    assert "if both players play on like the easy bot" in " ".join(text.split())
    assert f"Puzzles of your mistakes: velvet puzzle vs --from {path}" in text
    listed = CliRunner().invoke(main, [*args, "--workers", "0", "--json"])
    assert listed.exit_code == 0, listed.output
    data = json.loads(listed.output)
    assert data["format"] == "velvet-review/1" and data["mistakes"][-1] == 94
    last = data["decisions"][-1]
    assert last["index"] == 94 and last["mistake"] and last["best"]["action"] == "skill s1 013 0"
    assert last["before"] > last["after"] and all(d["mover"] == 0 for d in data["decisions"])


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("not json", "bad.json: line 1, column 1: Expecting value"),
        ('{"game": "vs"}', "missing field 'rules_version'"),
        ("BAD_ACTION", "action 3 'fly away' cannot be replayed"),
        ("AFTER_END", "action 96 'pass' comes after the game is over"),
    ],
)
def test_a_bad_record_is_a_clear_error(tmp_path: Path, content: str, says: str) -> None:
    data = _record()
    if content == "BAD_ACTION":
        data["actions"][2] = "fly away"
        content = json.dumps(data)
    elif content == "AFTER_END":
        data["actions"].append("pass")
        content = json.dumps(data)
    path = tmp_path / "bad.json"
    path.write_text(content)
    out = CliRunner().invoke(main, ["review", str(path), "--workers", "0"])
    assert out.exit_code == 2
    assert out.output.startswith("error: ") and says in out.output, out.output


@pytest.mark.parametrize(
    ("option", "says"),
    [
        (["--seconds", "0"], "--seconds must be more than 0"),
        (["--simulations", "0"], "--simulations must be 1 or more"),
        (["--workers", "-1"], "--workers must be 0 or more"),
        (["--seat", "0"], "--seat counts players from 1"),
        (["--seat", "3"], "no Player 3 in this game: it has 2 players"),
    ],
)
def test_bad_options_are_refused(option: list[str], says: str) -> None:
    out = CliRunner().invoke(main, ["review", str(RECORD), "--workers", "0", *option])
    assert out.exit_code == 2 and says in out.output, out.output
