"""Hints: from the seat's view only, the forced win on top, reasons in one line; P5 forecast."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from velvet.bots import make_bot
from velvet.bots.hints import Hint, forecast, hints
from velvet.cli import main
from velvet.engine.core import Game, State
from velvet.engine.errors import ConfigError
from velvet.engine.record import GameRecord, save_game
from velvet.engine.rng import Rng
from velvet.games import get_game
from velvet.p5.game import P5Game
from velvet.sim.run import bot_seed, game_seed
from velvet.vs.game import VsGame

BUDGET = 150


@functools.cache
def _game(name: str) -> Game[Any]:
    return get_game(name)


def _config(game: Game[Any]) -> dict[str, Any]:
    if isinstance(game, VsGame):
        return game.default_config("p5", "p4")
    assert isinstance(game, P5Game)
    return game.default_config(1)


def _midgame(name: str, seed: int, moves: int) -> tuple[State[Any], GameRecord]:
    """A seeded random game after ``moves`` actions, stopped at a choice of 3 or more."""
    game = _game(name)
    config = _config(game)
    state = game.new_state(config, seed)
    record = GameRecord.start(game, config, seed)
    rng = Rng(seed)
    done = 0
    while done < moves or len(state.legal_actions()) < 3:
        legal = state.legal_actions()
        action = legal[rng.randbelow(len(legal))]
        state.apply(action)
        record.actions.append(str(action))
        done += 1
        assert not state.is_terminal()
    return state, record


def _facts(found: list[Hint]) -> list[tuple[str, str, float, int, str]]:
    return [(str(h.action), h.label, h.win, h.visits, h.reason) for h in found]


@pytest.mark.parametrize(("name", "seed", "moves"), [("vs", 4, 25), ("p5", 2, 12)])
def test_hints_never_read_hidden_information(name: str, seed: int, moves: int) -> None:
    state, _ = _midgame(name, seed, moves)
    seat = state.current_player
    view = state.view(seat)
    game = state.game
    # two full states the seat cannot tell apart: same view, different hidden parts
    one = game.determinize(view, seat, Rng(1))
    two = game.determinize(view, seat, Rng(2))
    assert one.view(seat) == two.view(seat) == view
    assert one.to_json() != two.to_json() and one.to_json() != state.to_json()
    expected = _facts(hints(state, seat, BUDGET))
    assert len(expected) == 3
    assert _facts(hints(one, seat, BUDGET)) == expected
    assert _facts(hints(two, seat, BUDGET)) == expected


def _wins_by_force(state: State[Any], action: Any) -> bool:
    """``action`` ends the game in the mover's favour, through forced moves only."""
    me = state.current_player
    after = state.clone()
    after.apply_unchecked(action)
    for _ in range(12):
        if after.is_terminal():
            break
        legal = after.legal_actions()
        if len(legal) != 1:
            break
        after.apply_unchecked(legal[0])
    return after.is_terminal() and after.returns()[me] == 1.0


def _positions_with_one_winning_move(count: int) -> list[tuple[State[Any], Any]]:
    """VS positions from seeded random games where exactly one action wins by force."""
    game = _game("vs")
    found: list[tuple[State[Any], Any]] = []
    for i in range(80):
        seed = game_seed(77, i)
        state = game.new_state(_config(game), seed)
        bots = [make_bot("random", "vs"), make_bot("random", "vs")]
        rngs = [Rng(bot_seed(seed, 0)), Rng(bot_seed(seed, 1))]
        while not state.is_terminal():
            legal = state.legal_actions()
            winners = [a for a in legal if _wins_by_force(state, a)] if len(legal) > 1 else []
            if len(winners) == 1:
                found.append((state.clone(), winners[0]))
                break
            seat = state.current_player
            state.apply_unchecked(bots[seat].choose(game, state.view(seat), legal, rngs[seat]))
        if len(found) == count:
            return found
    raise AssertionError(f"only {len(found)} positions with one winning move in 80 games")


def test_top_hint_is_the_one_winning_move() -> None:
    positions = _positions_with_one_winning_move(5)
    for state, winner in positions:
        found = hints(state, state.current_player, BUDGET)
        assert found[0].action == winner, (str(winner), _facts(found))
        assert found[0].win >= max(h.win for h in found[1:])


@pytest.mark.parametrize(
    ("palace", "damage"),
    [
        ("kamoshida", {"stamina": 5, "sp": 6, "bullet": 5}),
        ("madarame", {"sp": 8, "stamina": 4, "bullet": 6}),
    ],
)
def test_top_hint_beats_the_p5_boss_when_some_moves_do(palace: str, damage: dict[str, int]) -> None:
    """A boss one Stamina from defeat: Cleave or a spent Stamina wins, Eiha and luck do not."""
    game = _game("p5")
    state = game.position(
        {
            "palace": palace,
            "alert": 100,
            "phase": "fight",
            "day": 20,
            "seed": 3,
            "shadows": [],
            "boss": {"damage": damage},
            "players": [
                {
                    "thief": "joker",
                    "persona": "arsene",
                    "location": "palace",
                    "fresh": {"stamina": 3, "sp": 3, "bullet": 2, "cash": 1},
                }
            ],
        }
    )
    legal = state.legal_actions()
    winners = [a for a in legal if _wins_by_force(state, a)]
    assert winners and len(winners) < len(legal)
    found = hints(state, 0, BUDGET)
    assert found[0].action in winners, ([str(w) for w in winners], _facts(found))


def test_hints_are_ranked_with_estimates_and_one_line_reasons() -> None:
    state, _ = _midgame("p5", 2, 12)
    found = hints(state, state.current_player, BUDGET, top=3)
    assert len(found) == 3
    legal = state.legal_actions()
    assert all(h.action in legal for h in found)
    assert len({h.label for h in found}) == 3
    assert [h.visits for h in found] == sorted((h.visits for h in found), reverse=True)
    for h in found:
        assert 0.0 <= h.win <= 1.0 and 0.0 < h.margin <= 1.0
        assert h.reason and "\n" not in h.reason and len(h.reason) <= 160
        assert h.line().startswith(h.label)
    assert len(hints(state, state.current_player, BUDGET, top=1)) == 1


def test_hint_errors_are_one_line() -> None:
    state, _ = _midgame("vs", 4, 25)
    other = 1 - state.current_player
    with pytest.raises(ConfigError, match=f"Player {other + 1} is not deciding now"):
        hints(state, other, BUDGET)
    with pytest.raises(ConfigError, match="not 'vs'"):
        forecast(state, state.current_player, 2)


def test_p5_forecast_gives_a_rate_with_its_interval() -> None:
    state, _ = _midgame("p5", 2, 12)
    seat = state.current_player
    outlook = forecast(state, seat, games=4, bot="easy")
    assert outlook.games == 4 and 0 <= outlook.wins <= 4
    assert outlook.low <= outlook.rate <= outlook.high
    assert outlook.high - outlook.low > 0.3  # four games say little, and the interval says so
    assert "chance to beat the boss by day 28" in outlook.line()
    same = forecast(
        state.game.determinize(state.view(seat), seat, Rng(9)),
        seat,
        games=4,
        bot="easy",
    )
    assert same == outlook  # from the view alone
    with pytest.raises(ConfigError, match="1 or more"):
        forecast(state, seat, games=0)


def test_cli_hint_on_a_saved_game(tmp_path: Path) -> None:
    state, record = _midgame("p5", 2, 12)
    save = tmp_path / "save.json"
    save_game(save, record, state)
    runner = CliRunner()
    result = runner.invoke(main, ["hint", str(save), "--budget", "60", "--forecast", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Hints for Player 1:"
    assert [line.strip()[:3] for line in lines[1:4]] == ["1. ", "2. ", "3. "]
    assert "% to win" in lines[1] and "chance to beat the boss" in lines[4]
    data = json.loads(
        runner.invoke(main, ["hint", str(save), "--budget", "30", "--json", "--top", "2"]).output
    )
    assert len(data["hints"]) == 2 and data["seat"] == 0
    bad = runner.invoke(main, ["hint", str(save), "--seat", "0"])
    assert bad.exit_code == 2 and "counts players from 1" in bad.output


def test_hints_and_velvet_hint_json_say_whose_play_their_chance_assumes(tmp_path: Path) -> None:
    from velvet.bots.hints import ASSUMED_BOT, calibrated

    state, record = _midgame("vs", 4, 25)
    found = hints(state, state.current_player, BUDGET)
    assert ASSUMED_BOT == "easy"
    for h in found:
        assert h.bot == "easy" and h.win == pytest.approx(calibrated("vs", h.value))
        assert "to win if both players play on like the easy bot (" in h.line(players=2)
        assert h.to_json()["bot"] == "easy" and h.to_json()["value"] == round(h.value, 4)
    save = tmp_path / "save.json"
    save_game(save, record, state)
    out = CliRunner().invoke(main, ["hint", str(save), "--budget", "30", "--json"]).output
    data = json.loads(out)
    assert data["bot"] == "easy"
    assert data["assumes"] == "if both players play on like the easy bot (greedy, 5 samples a move)"
    assert all(h["bot"] == "easy" and 0 <= h["value"] <= 1 for h in data["hints"])
