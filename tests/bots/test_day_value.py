"""P5's day-aware leaf value for ``expert`` (``velvet.p5.value``): days left count."""

from __future__ import annotations

import copy
from typing import Any

from velvet.bots import make_bot
from velvet.bots.heuristics import p5_evaluator
from velvet.bots.mcts import MCTSBot
from velvet.games import get_game, get_spec
from velvet.p5.value import DAY_COST, p5_day_value, palace_progress, time_used


def _view(**changes: Any) -> dict[str, Any]:
    game = get_game("p5")
    view: dict[str, Any] = copy.deepcopy(
        dict(game.new_state(get_spec("p5").config_for(game, 1), 3).view(0))
    )
    view.update(changes)
    return view


def test_the_same_position_scores_higher_on_an_earlier_day() -> None:
    game = get_game("p5")
    early, late = _view(day=3), _view(day=20)
    assert p5_day_value(game, early, 0) > p5_day_value(game, late, 0)
    # the plain evaluator cannot tell them apart: what the day-aware value adds
    assert p5_evaluator(game, early, 0) == p5_evaluator(game, late, 0)
    assert time_used(_view(day=1)) == 0.0 and time_used(_view(day=28)) == 1.0


def test_progress_on_a_later_day_can_beat_none_on_an_earlier_day() -> None:
    """A day costs less than a shadow's worth of progress: fighting is not out-valued by
    waiting, and a palace swept sooner scores highest."""
    game = get_game("p5")
    fresh = _view(day=5)
    fought = _view(day=6)
    shadows = fought["palace"]["shadows"]
    for shadow in shadows:
        shadow["remaining"] = {key: 0 for key in shadow["remaining"]}
    fought["palace"]["alert"] = 30
    assert palace_progress(fought) > palace_progress(fresh)
    assert p5_day_value(game, fought, 0) > p5_day_value(game, fresh, 0)
    swept_late = copy.deepcopy(fought)
    swept_late["day"] = 20
    assert p5_day_value(game, fought, 0) > p5_day_value(game, swept_late, 0)


def test_tokens_held_count_for_less_as_the_days_run_out() -> None:
    game = get_game("p5")
    gains = []
    for day in (2, 26):
        poor = _view(day=day)
        rich = copy.deepcopy(poor)
        rich["players"][0]["fresh"] = {"stamina": 5, "sp": 5, "bullet": 5, "cash": 5}
        gains.append(p5_day_value(game, rich, 0) - p5_day_value(game, poor, 0))
    assert gains[0] > gains[1] > 0


def test_a_result_is_its_return_and_every_value_is_in_range() -> None:
    game = get_game("p5")
    assert p5_day_value(game, _view(result=1, day=27), 0) == 1.0
    assert p5_day_value(game, _view(result=-1, day=2), 0) == 0.0
    for day in range(1, 29):
        assert 0.0 <= p5_day_value(game, _view(day=day), 0) < 1.0
    first, last = p5_day_value(game, _view(day=1), 0), p5_day_value(game, _view(day=28), 0)
    assert last > 0 and last / first < 1 - DAY_COST


def test_expert_scores_its_leaves_by_the_day_value_and_hard_does_not() -> None:
    assert get_spec("p5").expert_evaluator == "velvet.p5.value:p5_day_value"
    expert, hard = make_bot("expert", "p5"), make_bot("hard", "p5")
    assert isinstance(expert, MCTSBot) and isinstance(hard, MCTSBot)
    assert expert._evaluator is p5_day_value
    assert hard._evaluator is None  # the game's evaluator, p5_evaluator
    assert make_bot("expert", "vs")._evaluator is None  # type: ignore[attr-defined]  # an MCTSBot
