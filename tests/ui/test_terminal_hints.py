"""Hints and the P5 forecast at the terminal's prompt, and what each screen may show.

The hints come from ``velvet.bots.hints`` (the hard bot's search on samples of the
deciding seat's view); these tests check what the terminal does with them: the
command, ``--hints`` before every decision, errors for bad input, and that a
position the seat cannot tell apart from another gets the same screen. The second
half checks that events reach a screen as its seat may see them
(``game.event_for``): a card searched from a deck is named only to its player.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from rich.console import Console

from tests.vs.helpers import FILLER, position
from velvet.bots.base import Bot, RandomBot
from velvet.bots.budget import Budget
from velvet.cli import main
from velvet.engine import GameRecord
from velvet.engine.core import Game, State
from velvet.engine.rng import Rng
from velvet.games import get_game
from velvet.ui.terminal import Session

SMALL = Budget(count=60)
"""A quick search: these tests check the screen, not the bot's strength."""


def scripted(lines: Sequence[str]) -> Callable[[str], str]:
    feed: Iterator[str] = iter(lines)

    def ask(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return ask


def session(
    state: State[Any], lines: Sequence[str], seats: Sequence[Bot | None]
) -> tuple[Session, Console]:
    game = state.game
    console = Console(record=True, width=80, force_terminal=False)
    play = Session(
        game,
        GameRecord.start(game, {}, 0),
        state,
        seats,
        console,
        scripted(lines),
        savable=False,
    )
    play.hint_budget = SMALL
    return play, console


class Scripted:
    """A bot that plays the given actions (by text), then the first legal one."""

    name = "scripted"
    seat: int | None = None

    def __init__(self, *texts: str) -> None:
        self.texts = list(texts)

    def choose(self, game: Game[Any], view: dict[str, Any], legal: Sequence[Any], rng: Rng) -> Any:
        if self.texts:
            text = self.texts.pop(0)
            return next(a for a in legal if str(a) == text)
        return legal[0]


def hint_block(text: str) -> str:
    """The lines from 'Hints for' to the next prompt or error."""
    start = text.index("Hints for")
    return text[start:].split("\n\n", 1)[0].split("error:", 1)[0]


def test_hint_shows_three_choices_with_chances_and_reasons_and_changes_nothing() -> None:
    state = position(hands=(["002", "006", "016"], []))
    before = state.canonical()
    play, console = session(state, ["hint", "quit"], [None, RandomBot()])
    play.run()
    out = console.export_text()
    assert "Thinking… (the hard bot's search, 60 simulations, from your view)" in out
    block = hint_block(out)
    ranks = re.findall(r"^\s*([123])\.\s+choice (\d+): (.+?) — \d+% ± \d+%", block, re.M)
    assert [rank for rank, _, _ in ranks] == ["1", "2", "3"]
    # each chance says whose play it assumes (the forecast's bot: the easy one)
    assert " ".join(block.split()).count("to win if both players play on like the easy bot (") == 3
    assert block.count("why: ") == 3
    # each hint names the choice's number on screen and its label
    for _, number, label in ranks:
        assert label.startswith(play.state.action_label(play.shown[int(number) - 1])[:20])
    assert play.state.canonical() == before and play.record.actions == []


def test_the_same_hints_for_positions_the_seat_cannot_tell_apart() -> None:
    # Player 1 sees its own hand, the field and both decklists, never which of Player 2's
    # cards are in its hand or the order of either deck: two such positions, one screen.
    screens = []
    for rival_hand, rival_deck, deck in (
        (["003", "004"], [FILLER] * 10, [FILLER] * 9 + ["002"]),
        ([FILLER, FILLER], ["003", "004"] + [FILLER] * 8, ["002"] + [FILLER] * 9),
    ):
        state = position(hands=(["002", "006", "016"], rival_hand), decks=(deck, rival_deck))
        play, console = session(state, ["hint", "quit"], [None, RandomBot()])
        play.run()
        screens.append(hint_block(console.export_text()))
    assert screens[0] == screens[1]


def test_hints_before_every_decision_with_the_flag() -> None:
    state = position(hands=(["002", "006", "016"], []))
    play, console = session(state, ["1", "quit"], [None, RandomBot()])
    play.hints_each = True
    play.run()
    out = console.export_text()
    decisions = out.count("Player 1: your choices")
    assert decisions >= 2
    assert out.count("Hints for Player 1") == decisions


def test_bad_hint_and_forecast_input_is_one_error_line() -> None:
    state = position(hands=(["002"], []))
    lines = ["hint soon", "forecast", "forecast 0", "forecast lots", "quit"]
    play, console = session(state, lines, [None, RandomBot()])
    console.width = 200
    play.run()
    errors = [line for line in console.export_text().splitlines() if line.startswith("error:")]
    assert [line[:60] for line in errors] == [
        "error: hint takes a budget like 'hint 2s' or 'hint 3000': ba",
        "error: the game 'vs' offers no forecast (P5 has one: the cha",
        "error: forecast takes a number of games from 1 to 1000, not ",
        "error: forecast takes a number of games from 1 to 1000, not ",
    ]
    assert "bad budget 'soon'" in errors[0] and "'0'" in errors[2] and "'lots'" in errors[3]
    assert "Hints for" not in console.export_text()


def test_p5_forecast_gives_the_chance_with_its_margin() -> None:
    game = get_game("p5", ())
    state = game.new_state(game.default_config(), 1)
    play, console = session(state, ["forecast 2", "quit"], [None])
    play.run()
    out = " ".join(console.export_text().split())
    found = re.search(
        r"Forecast: (\d+)% to beat the boss by day 28 if you play on like the easy bot "
        r"\(MCTS, 30 simulations a move\): 95 % interval (\d+)%–(\d+)%, margin ± (\d+)%; "
        r"2 games from this position\. "
        r"The hints assume the same play, after their move\.",
        out,
    )
    assert found, out[-600:]
    rate, low, high, margin = map(int, found.groups())
    assert low <= rate <= high and margin > 0


def test_play_takes_hints_and_refuses_a_bad_hint_budget() -> None:
    runner = CliRunner()
    bad = runner.invoke(main, ["play", "vs", "--hints", "--hint-budget", "soon"])
    assert bad.exit_code == 2 and "--hint-budget" in bad.output and "bad budget" in bad.output
    helped = runner.invoke(main, ["play", "p5", "--help"])
    assert "--hints" in helped.output and "--hint-budget" in helped.output


# --- what each screen may see ---------------------------------------------------------------

RIVAL_SEARCH = dict(
    turn=1,
    hands=([], ["041"]),
    decks=([FILLER] * 10, ["015", "002", "016", "028"] + [FILLER] * 6),
)
"""Player 2 holds Junes Sale (search the deck for a persona: Pixie or Tomoe)."""


def test_a_rivals_searched_card_is_not_named_on_a_human_screen() -> None:
    state = position(**RIVAL_SEARCH)  # type: ignore[arg-type]
    play, console = session(state, ["quit"], [None, Scripted("support 041", "search 028")])
    play.run()
    out = console.export_text()
    assert "Player 2 takes a card from their deck into their hand." in out
    assert "Tomoe" not in out


def test_a_spectator_screen_names_no_searched_card() -> None:
    state = position(**RIVAL_SEARCH)  # type: ignore[arg-type]
    play, console = session(state, [], [RandomBot(), Scripted("support 041", "search 028")])
    play.run()
    out = console.export_text()
    assert "Player 2 takes a card from their deck into their hand." in out
    assert "Tomoe" not in out
    # the last board is the public one, and the game over is no one's step
    assert re.search(r"^Turn \d+ · Game over$", out, re.M) and "(you)" not in out


def test_hot_seat_the_searching_player_sees_the_card_the_other_does_not() -> None:
    state = position(
        **RIVAL_SEARCH,  # type: ignore[arg-type]
        fields=((["001"], (), ()), (["003"], (), ())),
    )
    lines = ["support 041", "search 028", "end", "noskill", "", "quit"]
    play, console = session(state, lines, [None, None])
    play.run()
    out = console.export_text()
    mine, theirs = out.split("Pass the screen to Player 1", 1)
    assert "Player 2 takes Tomoe from their deck into hand" in mine
    assert "Player 1: your choices" in theirs and "Tomoe" not in theirs


def test_replay_tells_a_search_as_the_shown_seat_sees_it() -> None:
    from velvet.ui.terminal import replay

    game = get_game("vs", ())
    config = game.default_config()
    state, rng = game.new_state(config, 0), Rng(0)
    record = GameRecord.start(game, config, 0)
    searched = None
    while searched is None:
        legal = state.legal_actions()
        action = legal[rng.randbelow(len(legal))]
        record.actions.append(str(action))
        for event in state.apply(action):
            if event.kind == "search" and event.data.get("player") == 1:
                searched = game.describe_card(event.data["card"]).name
    told = f"Player 2 takes {searched} from their deck into hand"
    hidden = "Player 2 takes a card from their deck into their hand."
    for viewer, shown, not_shown in ((0, hidden, told), (1, told, hidden)):
        console = Console(record=True, width=200, force_terminal=False)
        replay(game, record, console, viewer=viewer)
        out = console.export_text()
        assert shown in out and not_shown not in out


def test_velvet_hint_says_whose_play_each_chance_assumes(tmp_path: Path) -> None:
    from velvet.engine import save_game
    from velvet.games import find_spec

    game = get_game("p5", ())
    config = game.default_config()
    record = GameRecord.start(game, config, 3)
    save = tmp_path / "save.json"
    save_game(save, record, game.new_state(config, 3))
    result = CliRunner().invoke(main, ["hint", str(save), "--budget", "40", "--forecast", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert all("to win if you play on like the easy bot (" in line for line in lines[1:4])
    assert lines[4].startswith(
        "chance to beat the boss by day 28 if you play on like the easy bot "
        "(MCTS, 30 simulations a move): "
    )
    assert "(the hints assume the same play, after their move)" in lines[4]
    spec = find_spec("p5")  # its hint_spread measured (benchmarks/hint_forecast.py)
    spread = spec.hint_spread if spec else 0.0
    assert spread and f"each is good to ± {1.96 * spread:.0%} only" in lines[5]
