"""What just happened: the recap kept above the choices, the `log`, and 80 x 24 screens."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from rich.console import Console

from tests.vs.helpers import position
from velvet.bots.base import Bot, RandomBot
from velvet.engine import GameRecord
from velvet.engine.core import Game, State
from velvet.games import get_game
from velvet.ui.terminal import Session

RULE = "─" * 80


class Screens:
    """Scripted answers; keeps the screen (the last rows printed) at each prompt."""

    def __init__(self, lines: list[str], console: Console) -> None:
        self.feed: Iterator[str] = iter(lines)
        self.console = console
        self.at: list[tuple[str, list[str]]] = []

    def __call__(self, prompt: str) -> str:
        rows = self.console.export_text(clear=False).splitlines()
        self.at.append((prompt, rows[-(self.console.height - 1) :]))
        try:
            return next(self.feed)
        except StopIteration:
            raise EOFError from None


def run(
    game: Game[Any],
    state: State[Any],
    lines: list[str],
    seats: Sequence[Bot | None],
    record: GameRecord | None = None,
) -> tuple[Session, Screens, Console]:
    console = Console(record=True, width=80, height=24, force_terminal=False)
    screens = Screens(lines, console)
    play = Session(
        game,
        record or GameRecord.start(game, {}, 1),
        state,
        seats,
        console,
        screens,
    )
    play.run()
    return play, screens, console


def p5(lines: list[str], players: int = 1, seed: int = 1) -> tuple[Session, Screens, Console]:
    game: Any = get_game("p5")
    config = game.default_config(players)
    record = GameRecord.start(game, config, seed)
    return run(game, game.new_state(config, seed), lines, [None] * players, record)


def test_a_check_s_dice_stay_on_the_screen_at_the_next_prompt() -> None:
    _, screens, _ = p5(["visit school", "quit"])
    prompt, screen = screens.at[1]
    assert prompt == "Player 1> "
    # the board is drawn again after the move, then the recap under it keeps the dice
    board = max(i for i, row in enumerate(screen) if row == RULE)
    assert any("makes a Knowledge check:" in row for row in screen[board:])


def test_a_whole_bot_turn_is_recapped_above_the_choices() -> None:
    state = position(hands=(["002", "006", "016"], ["002", "006", "016"]))
    game = state.game
    play, screens, console = run(game, state, ["1", "1", "1", "1", "quit"], [None, RandomBot()])
    out = console.export_text()
    assert "▸ Player 2" in out
    # at some prompt after the bot moved, its moves are under the last board
    recapped = False
    for _, screen in screens.at[1:]:
        rules = [i for i, row in enumerate(screen) if row == RULE]
        if rules and any(row.startswith("  ▸ Player 2") for row in screen[rules[-1] :]):
            recapped = True
    assert recapped, out[-2000:]
    assert play.history and play.history[-1].index == len(play.record.actions) - 1


def test_log_shows_every_event_a_screen_at_a_time() -> None:
    lines = ["visit school", "end", "log", "", "log 2", "log x", "quit"]
    play, _, console = p5(lines)
    out = console.export_text()
    everything = play.move_lines(play.history, 0)
    assert len(everything) >= 5
    for line in everything:
        assert line.split(" ", 1)[1][:40] in " ".join(out.split())
    assert "error: log takes a number of lines from 1 to" in out


def test_log_pages_and_q_stops_it() -> None:
    game = get_game("p5")
    config = game.default_config()
    console = Console(record=True, width=80, height=8, force_terminal=False)
    moves = ["visit school", "end", "visit home", "end", "visit sales clerk", "end"]
    screens = Screens([*moves, "log", "q", "quit"], console)
    play = Session(
        game, GameRecord.start(game, config, 1), game.new_state(config, 1), [None], console, screens
    )
    play.run()
    pages = [prompt for prompt, _ in screens.at if prompt.startswith("-- ")]
    assert len(pages) == 1  # q after the first page stops the log
    assert "Enter for more, q to stop" in pages[0]


def test_undo_takes_the_moves_out_of_the_log() -> None:
    play, _, _ = p5(["visit weapons-shop", "undo", "quit"])
    assert play.record.actions == [] and play.history == []


def test_two_player_p5_fits_80_by_24_at_every_decision() -> None:
    _, screens, console = p5(["1"] * 12, players=2, seed=5)
    decisions = [screen for prompt, screen in screens.at if prompt.startswith("Player")]
    assert len(decisions) == 13
    for screen in decisions:
        # the whole decision screen, from the board's rule to the choices, is on screen
        assert RULE in screen, "\n".join(screen)
        assert not any(row.startswith("error:") for row in screen)
    rows = console.export_text().splitlines()
    assert max(len(row) for row in rows) <= 80


def test_resume_rebuilds_the_log_from_the_record() -> None:
    game = get_game("p5")
    config = game.default_config()
    record = GameRecord.start(game, config, 1)
    record.actions = ["visit school"]
    state = record.replay(game)
    play, _, console = run(game, state, ["log", "quit"], [None], record)
    assert "makes a Knowledge check" in console.export_text()
    assert play.history[0].label.startswith("Visit School")


def test_log_and_recap_tell_each_seat_only_what_it_may_see() -> None:
    from velvet.engine.core import Event
    from velvet.ui.terminal import Played

    state = position(hands=(["002"], ["002"]))
    game = state.game
    console = Console(record=True, width=80, height=24, force_terminal=False)
    play = Session(
        game, GameRecord.start(game, {}, 1), state, [None, None], console, Screens([], console)
    )
    searched = Event("search", {"player": 0, "card": "007"})  # Koropokkur, into P1's hand
    play.history = [Played(0, 0, "Play the Support Junes Sale", [searched])]
    play.show_log(1, "")
    play.show_recap(1)
    theirs = console.export_text(clear=True)
    assert "Koropokkur" not in theirs
    assert theirs.count("Player 1 takes a card from their deck into their hand") == 2
    play.show_log(0, "")
    assert "Player 1 takes Koropokkur from their deck" in console.export_text()
