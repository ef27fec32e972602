"""Bots: the registry, legality, determinism, view-only play, and strength on toy games."""

from __future__ import annotations

import time
from typing import Any

import pytest
from velvet_toys import Bank, DuelGame, DuelState, Play, RaceGame, Roll

from velvet.bots import (
    BOT_CHOICES,
    Budget,
    GreedyBot,
    ISMCTSBot,
    MCTSBot,
    RandomBot,
    get_evaluator,
    make_bot,
    neutral_evaluator,
    register_evaluator,
)
from velvet.engine.core import Game, State
from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng
from velvet.sim.run import play_game


def duel_position(
    hand0: list[int],
    hand1: list[int],
    table: list[int],
    score: list[int],
    leader: int,
    gone: list[int] | None = None,
) -> DuelState:
    """A Duel position built directly; the cards nobody holds form the deck."""
    gone = gone or []
    used = set(hand0) | set(hand1) | set(table) | set(gone)
    deck = [c for c in range(1, 10) if c not in used]
    return DuelState(DuelGame(), [hand0, hand1], deck, table, score, leader, 0, Rng(5), gone)


# ------------------------------------------------------------------ registry


@pytest.mark.parametrize(
    ("spec", "game", "kind", "budget"),
    [
        ("random", "vs", RandomBot, None),
        ("greedy", "vs", GreedyBot, Budget(count=1)),
        ("greedy:4", "p5", GreedyBot, Budget(count=4)),
        ("mcts", "p5", MCTSBot, Budget(count=100)),
        ("mcts:200", "p5", MCTSBot, Budget(count=200)),
        ("ismcts:0.25s", "vs", ISMCTSBot, Budget(seconds=0.25)),
        ("ISMCTS:30", "vs", ISMCTSBot, Budget(count=30)),
        ("easy", "vs", GreedyBot, Budget(count=5)),  # VS levels: greedy with 5 samples
        ("easy", "p5", MCTSBot, Budget(count=30)),
        ("normal", "p5", MCTSBot, Budget(count=100)),
        ("normal", "vs", ISMCTSBot, Budget(count=100)),
        ("hard", "p5", MCTSBot, Budget(count=800)),
        ("hard:1.5s", "vs", ISMCTSBot, Budget(seconds=1.5)),
        ("hard", "duel", ISMCTSBot, Budget(count=800)),
        ("expert", "duel", ISMCTSBot, Budget(count=800)),
        ("expert:2s", "p5", MCTSBot, Budget(seconds=2.0)),
    ],
)
def test_make_bot_builds_the_named_bot_and_budget(
    spec: str, game: str, kind: type, budget: Budget | None
) -> None:
    bot = make_bot(spec, game)
    assert type(bot) is kind
    if budget is not None:
        assert isinstance(bot, GreedyBot | MCTSBot) and bot.budget == budget
    assert bot.name


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("nope", "choose one of random, greedy, mcts, ismcts, easy, normal, hard, expert"),
        ("master", "choose one of"),
        ("easy:0", "positive"),
        ("mcts:-3", "positive"),
        ("mcts:0s", "positive"),
        ("hard:-1.5s", "positive"),
        ("mcts:abc", "positive integer like 200 or seconds like 1.5s"),
        ("mcts:", "empty budget"),
        ("random:5", "random takes no budget"),
    ],
)
def test_make_bot_rejects_bad_specs_in_one_line(spec: str, fragment: str) -> None:
    with pytest.raises(ConfigError) as info:
        make_bot(spec, "vs")
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


def test_bot_choices_list_every_bot_and_level() -> None:
    assert set(BOT_CHOICES) == {
        "random",
        "greedy",
        "mcts",
        "ismcts",
        "easy",
        "normal",
        "hard",
        "expert",
    }


def test_evaluator_registry_defaults_to_neutral() -> None:
    def mine(game: Game[Any], view: dict[str, Any], player: int) -> float:
        return 0.9

    assert get_evaluator("toy-unregistered") is neutral_evaluator
    register_evaluator("toy-registered", mine)
    assert get_evaluator("toy-registered") is mine


# ------------------------------------------------------------------ every bot plays legally


SPECS = ["random", "greedy:2", "mcts:20", "ismcts:20", "easy", "normal:8", "hard:10", "expert:10"]


class LegalityChecker:
    """Wraps a bot and checks each choice is one of the legal actions it was shown."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.seat: int | None = None
        self.choices = 0

    def choose(self, game: Game[Any], view: dict[str, Any], legal: Any, rng: Rng) -> Any:
        if self.seat is not None:
            self.bot.seat = self.seat
        action = self.bot.choose(game, view, legal, rng)
        assert action in legal
        self.choices += 1
        return action


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize(
    ("game", "config"),
    [(DuelGame(), {}), (RaceGame(), {"players": 1}), (RaceGame(), {"players": 2})],
)
def test_every_bot_plays_whole_games_legally(
    spec: str, game: Game[Any], config: dict[str, Any]
) -> None:
    for seed in range(3):
        seats = 2 if game.name == "duel" or config.get("players") == 2 else 1
        bots = [LegalityChecker(make_bot(spec, game.name)) for _ in range(seats)]
        state, length = play_game(game, config, seed, bots)
        assert state.is_terminal()
        assert sum(b.choices for b in bots) == length


@pytest.mark.parametrize("spec", SPECS)
def test_same_rng_same_choice(spec: str) -> None:
    state = DuelGame().new_state({}, 11)
    view, legal = state.view(0), state.legal_actions()
    first = make_bot(spec, "duel").choose(state.game, view, legal, Rng(3))
    again = make_bot(spec, "duel").choose(state.game, view, legal, Rng(3))
    assert first == again


# ------------------------------------------------------------------ view only


def test_ismcts_sees_only_the_view_not_hidden_cards() -> None:
    # Two true states that differ only in what seat 1 cannot see (seat 0's hand, the deck).
    a = duel_position([1, 3, 8], [2, 6, 9], table=[], score=[0, 0], leader=1)
    b = duel_position([4, 5, 7], [2, 6, 9], table=[], score=[0, 0], leader=1)
    assert a.to_json() != b.to_json()
    assert a.view(1) == b.view(1)
    choices = []
    for state in (a, b):
        bot = ISMCTSBot(Budget(count=200))
        choices.append(bot.choose(state.game, state.view(1), state.legal_actions(), Rng(99)))
    assert choices[0] == choices[1]


class SpyGame(DuelGame):
    """Records what determinize was given, to show bots pass only the view on."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[dict[str, Any], int]] = []

    def determinize(self, view: dict[str, Any], player: int, rng: Rng) -> DuelState:
        self.calls.append((dict(view), player))
        return super().determinize(view, player, rng)


@pytest.mark.parametrize("spec", ["greedy:3", "mcts:10", "ismcts:10"])
def test_search_bots_sample_states_from_the_view_alone(spec: str) -> None:
    game = SpyGame()
    state = game.new_state({}, 4)
    view = state.view(0)
    bot = make_bot(spec, "duel")
    bot.choose(game, view, state.legal_actions(), Rng(1))
    assert game.calls
    assert all(v == view and p == 0 for v, p in game.calls)
    # the sampled opponent hands vary: the bot really does not know them
    hidden = {tuple(game.determinize(view, 0, Rng(s)).hands[1]) for s in range(20)}
    assert len(hidden) > 1


def test_bot_without_a_seat_reads_it_from_the_view() -> None:
    game = DuelGame()
    state = duel_position([5], [3, 8], table=[7], score=[1, 0], leader=0, gone=[1, 2])
    bot = ISMCTSBot(Budget(count=20))
    assert bot.seat is None
    assert bot.choose(game, state.view(1), state.legal_actions(), Rng(0)) in state.legal_actions()


# ------------------------------------------------------------------ playing well


@pytest.mark.parametrize("spec", ["mcts:100", "ismcts:100", "hard:200"])
def test_search_bots_find_the_only_winning_card(spec: str) -> None:
    # Seat 0 leads 1-0 and played 6; seat 1 holds 3 and 7, seat 0 keeps 2 for the last
    # round. Playing 7 wins this round and the lead, then 3 beats 2: only 7 wins the game.
    state = duel_position([2], [3, 7], table=[6], score=[1, 0], leader=0, gone=[4, 1])
    bot = make_bot(spec, "duel")
    assert bot.choose(state.game, state.view(1), state.legal_actions(), Rng(2)) == Play(7)


def test_greedy_takes_an_immediate_win() -> None:
    # Race: 18 banked, 3 in the pot; banking reaches 20 and ends the game as a win,
    # which greedy sees one ply ahead (rolling only scores 0.5 by the neutral evaluator).
    game = RaceGame()
    state = game.new_state({"players": 1}, 0)
    state.score, state.pot, state.turn = 18, 3, 2
    bot = GreedyBot(Budget(count=3))
    assert bot.choose(game, state.view(0), state.legal_actions(), Rng(0)) == Bank()


def test_greedy_follows_the_evaluator_on_the_view() -> None:
    seen: list[Any] = []

    def prefers_next_turn(game: Game[Any], view: dict[str, Any], player: int) -> float:
        seen.append(view)
        return 1.0 if view["turn"] > 0 else 0.0

    game = RaceGame()
    state = game.new_state({"players": 1}, 0)
    state.pot = 0
    bot = GreedyBot(Budget(count=2), evaluator=prefers_next_turn)
    assert bot.choose(game, state.view(0), [Roll(), Bank()], Rng(0)) == Bank()
    assert seen and all(isinstance(v, dict) and "rng" not in v for v in seen)


def test_mcts_cut_off_playouts_are_scored_by_the_evaluator() -> None:
    calls: list[int] = []

    def scorer(game: Game[Any], view: dict[str, Any], player: int) -> float:
        calls.append(player)
        return min(1.0, float(view["score"] + view["pot"]) / 20)

    game = RaceGame()
    state = game.new_state({"players": 1}, 0)
    bot = MCTSBot(Budget(count=30), max_playout=0, evaluator=scorer)
    assert bot.choose(game, state.view(0), state.legal_actions(), Rng(0)) in (Roll(), Bank())
    assert calls


def test_time_budget_is_respected() -> None:
    game = RaceGame()
    state = game.new_state({"players": 1}, 0)
    bot = make_bot("mcts:0.05s", "race")
    began = time.perf_counter()
    bot.choose(game, state.view(0), state.legal_actions(), Rng(0))
    assert time.perf_counter() - began < 0.5
    assert isinstance(bot, MCTSBot) and bot.last_iterations >= 1


def _win_rate(game: Game[Any], config: dict[str, Any], specs: list[str], n: int) -> float:
    wins = 0.0
    for seed in range(n):
        state, _ = play_game(game, config, 1000 + seed, [make_bot(s, game.name) for s in specs])
        wins += state.returns()[0]
    return wins / n


def test_mcts_beats_random_at_the_dice_race() -> None:
    game = RaceGame()
    random_rate = _win_rate(game, {"players": 1}, ["random"], 120)
    mcts_rate = _win_rate(game, {"players": 1}, ["mcts:60"], 60)
    assert random_rate < 0.35
    assert mcts_rate > 0.6


def test_two_seat_coop_mcts_each_bot_plays_its_own_seat() -> None:
    game = RaceGame()
    mcts_rate = _win_rate(game, {"players": 2}, ["mcts:60", "mcts:60"], 60)
    random_rate = _win_rate(game, {"players": 2}, ["random", "random"], 120)
    assert mcts_rate > random_rate + 0.25


def test_ismcts_beats_random_at_the_duel_on_both_sides() -> None:
    game = DuelGame()
    n = 150
    as_first = _win_rate(game, {}, ["ismcts:60", "random"], n)
    as_second = 1 - _win_rate(game, {}, ["random", "ismcts:60"], n)
    baseline = _win_rate(game, {}, ["random", "random"], 300)
    assert (as_first + as_second) / 2 > 0.5
    assert as_first > baseline - 0.02
    assert as_second > (1 - baseline) - 0.02


def test_state_type_is_never_handed_to_a_bot() -> None:
    class Recorder:
        name = "recorder"
        seat: int | None = None

        def choose(self, game: Game[Any], view: Any, legal: Any, rng: Rng) -> Any:
            assert isinstance(view, dict) and not isinstance(view, State)
            return legal[0]

    state, _ = play_game(DuelGame(), {}, 3, [Recorder(), Recorder()])
    assert state.is_terminal()


def test_final_choice_by_mean_also_finds_the_winning_card() -> None:
    state = duel_position([2], [3, 7], table=[6], score=[1, 0], leader=0, gone=[4, 1])
    bot = ISMCTSBot(Budget(count=100), final="mean")
    assert bot.choose(state.game, state.view(1), state.legal_actions(), Rng(2)) == Play(7)


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [({"final": "best"}, "choose visits or mean"), ({"max_playout": -1}, "0 or more")],
)
def test_search_options_are_checked(kwargs: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment):
        MCTSBot(Budget(count=5), **kwargs)


@pytest.mark.parametrize("kind", ["greedy", "mcts", "ismcts"])
def test_bots_do_not_cycle_through_free_actions(kind: str) -> None:
    from velvet_toys import StallGame, dislikes_progress

    budget = Budget(count=8)
    bot: Any
    if kind == "greedy":
        bot = GreedyBot(budget, evaluator=dislikes_progress)
    elif kind == "mcts":
        bot = MCTSBot(budget, max_playout=0, evaluator=dislikes_progress)
    else:
        bot = ISMCTSBot(budget, max_playout=0, evaluator=dislikes_progress)
    state, length = play_game(StallGame(), {}, 0, [bot], max_actions=50)
    assert state.is_terminal() and length <= 12
