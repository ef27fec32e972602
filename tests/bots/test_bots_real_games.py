"""Bots on the real engines (P5 and VS): legal play, view-only search, evaluators, strength."""

from __future__ import annotations

from typing import Any

import pytest

from velvet.bots import ISMCTSBot, make_bot
from velvet.bots.budget import Budget
from velvet.bots.heuristics import p5_evaluator, vs_evaluator
from velvet.engine.core import Game
from velvet.engine.rng import Rng
from velvet.games import get_game, get_spec
from velvet.sim.run import play_game


def config_for(game: Game[Any], seats: int) -> dict[str, Any]:
    return get_spec(game.name).config_for(game, seats)


class Checked:
    """Wraps a bot: asserts it is shown a dict view and answers with a legal action."""

    def __init__(self, spec: str, game: str) -> None:
        self.bot = make_bot(spec, game)
        self.name = self.bot.name
        self.seat: int | None = None

    def choose(self, game: Game[Any], view: Any, legal: Any, rng: Rng) -> Any:
        assert isinstance(view, dict)
        if self.seat is not None and hasattr(self.bot, "seat"):
            self.bot.seat = self.seat
        action = self.bot.choose(game, view, legal, rng)
        assert action in legal
        return action


@pytest.mark.parametrize(
    "spec", ["random", "greedy", "mcts:4", "ismcts:4", "easy", "normal:4", "expert:4"]
)
@pytest.mark.parametrize(("name", "seats"), [("p5", 1), ("p5", 2), ("vs", 2)])
def test_every_bot_finishes_real_games_legally(spec: str, name: str, seats: int) -> None:
    game = get_game(name)
    state, length = play_game(
        game, config_for(game, seats), 5, [Checked(spec, name) for _ in range(seats)]
    )
    assert state.is_terminal() and length > 0


def test_ismcts_choice_depends_only_on_the_vs_view() -> None:
    game = get_game("vs")
    state = game.new_state(config_for(game, 2), 21)
    r = Rng(0)
    while len(state.legal_actions()) < 3:  # reach a real choice
        legal = state.legal_actions()
        state.apply_unchecked(legal[r.randbelow(len(legal))])
    seat = state.current_player
    view = state.view(seat)
    # two full states that agree on everything this seat sees and differ in hidden cards
    a = game.determinize(view, seat, Rng(1))
    b = game.determinize(view, seat, Rng(2))
    assert a.to_json() != b.to_json()
    assert a.view(seat) == b.view(seat) == view
    picks = [
        ISMCTSBot(Budget(count=40), max_playout=10).choose(
            game, s.view(seat), s.legal_actions(), Rng(7)
        )
        for s in (a, b)
    ]
    assert picks[0] == picks[1]


def test_evaluators_score_real_views_in_range() -> None:
    for name, evaluate in (("p5", p5_evaluator), ("vs", vs_evaluator)):
        game = get_game(name)
        state = game.new_state(config_for(game, 2), 3)
        r = Rng(4)
        while not state.is_terminal():
            for seat in range(2):
                assert 0.0 <= evaluate(game, state.view(seat), seat) <= 1.0
            legal = state.legal_actions()
            state.apply_unchecked(legal[r.randbelow(len(legal))])
        for seat in range(2):
            assert evaluate(game, state.view(seat), seat) == state.returns()[seat]


def _wins(name: str, specs: list[str], seat: int, seeds: range) -> float:
    game = get_game(name)
    total = 0.0
    for seed in seeds:
        bots = [make_bot(s, name) for s in specs]
        state, _ = play_game(game, config_for(game, len(specs)), seed, bots)
        total += state.returns()[seat]
    return total


def test_ismcts_beats_random_at_vs_on_both_sides() -> None:
    first = _wins("vs", ["ismcts:20", "random"], 0, range(5))
    second = _wins("vs", ["random", "ismcts:20"], 1, range(5, 10))
    assert first + second >= 8


def _palace_progress(spec: str, seeds: range) -> tuple[float, int]:
    """Solo P5 games: the wins, and the alert rows reached in all (how far into the palace)."""
    game = get_game("p5")
    wins, rows = 0.0, 0
    for seed in seeds:
        state, _ = play_game(game, config_for(game, 1), seed, [make_bot(spec, "p5")])
        wins += state.returns()[0]
        rows += state.view(0)["palace"]["alert"] // 25
    return wins, rows


def test_greedy_with_the_p5_evaluator_goes_further_than_random() -> None:
    # Wins are rare for a one-ply bot (a few in 60 games), so a win count over 20 games
    # swings with any change of the dice; how far into the palace it gets does not.
    greedy, random = _palace_progress("greedy", range(20)), _palace_progress("random", range(20))
    assert greedy[0] >= random[0] and greedy[1] >= 2 * random[1], (greedy, random)


def test_greedy_beats_random_at_vs_on_both_sides() -> None:
    # Greedy follows its own chain of decisions (summon, pay, end, skill) before scoring.
    first = _wins("vs", ["greedy", "random"], 0, range(6))
    second = _wins("vs", ["random", "greedy"], 1, range(6, 12))
    assert first + second >= 10


def test_the_vs_evaluator_counts_a_declared_skill_before_it_hits() -> None:
    game = get_game("vs")
    state = game.new_state(config_for(game, 2), 1)
    rng = Rng(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        skills = [a for a in legal if str(a).startswith("skill")]
        if skills:
            attacker = state.current_player
            skipped = state.clone()
            skipped.apply(next(a for a in legal if str(a) == "noskill"))
            state.apply(skills[0])
            assert vs_evaluator(game, state.view(attacker), attacker) > vs_evaluator(
                game, skipped.view(attacker), attacker
            )
            return
        state.apply(legal[rng.randbelow(len(legal))])
    pytest.fail("no skill was ever declared")
