"""The terminal session on the real P5 game: words as input, undo, pages, card info."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from rich.console import Console

from velvet.engine import GameRecord
from velvet.engine.errors import RecordError
from velvet.games import get_game
from velvet.ui.terminal import Session

RAW = re.compile(r"\b(player=|card=|Event\(|\[\[|\{')")


def scripted(lines: list[str]) -> Callable[[str], str]:
    feed: Iterator[str] = iter(lines)

    def ask(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return ask


def p5_session(lines: list[str], height: int = 24) -> tuple[Session, Console]:
    game = get_game("p5")
    config = game.default_config()
    console = Console(record=True, width=80, height=height, force_terminal=False)
    session = Session(
        game,
        GameRecord.start(game, config, 1),
        game.new_state(config, 1),
        [None],
        console,
        scripted(lines),
    )
    return session, console


def test_display_names_are_matched_through_the_legal_list() -> None:
    play, console = p5_session(["visit Weapons Shop", "quit"])
    play.run()
    assert play.record.actions == ["visit weapons-shop"]
    out = console.export_text()
    assert "Player 1 visits Weapons Shop." in out
    assert not RAW.search(out)
    assert max(len(line) for line in out.splitlines()) <= 80


def test_undo_takes_back_a_move_without_secrets_and_records_it() -> None:
    play, console = p5_session(["visit weapons-shop", "undo", "visit sales clerk", "quit"])
    start = play.state.clone()
    play.run()
    assert play.record.actions == ["visit sales-clerk"]
    assert play.record.taken_back == [{"after": 0, "actions": ["visit weapons-shop"]}]
    again = GameRecord.from_json(play.record.to_json())
    assert again.taken_back == play.record.taken_back
    assert again.replay(play.game).digest() == play.state.digest()
    assert start.digest() != play.state.digest()
    assert "Taken back: 1 action(s)." in console.export_text()


def test_undo_refuses_after_dice_were_rolled() -> None:
    play, console = p5_session(["recruit school", "undo", "quit"])
    play.run()
    assert play.record.actions == ["recruit school"] and play.record.taken_back == []
    assert "error: nothing to undo" in console.export_text()


def test_long_choice_lists_are_paged_and_numbers_stay_those_shown() -> None:
    play, console = p5_session(["more", "13", "quit"])
    play.run()
    out = console.export_text()
    assert "'more' shows the next page" in out
    assert play.record.actions == ["equip jikokuten"]  # choice 13 as numbered on screen


def test_info_takes_a_display_name_and_odds_are_shown() -> None:
    play, console = p5_session(["?Ann Takamaki", "info Ryuji", "info Dragon", "quit"], height=60)
    play.run()
    out = console.export_text()
    assert "Ann Takamaki (confidant)" in out and "Pep Talk" in out
    assert "Ryuji Sakamoto (confidant)" in out and "error: no card named 'Dragon'" in out
    assert "(Knowledge 2: 56 %)" in out  # visiting the School makes a Knowledge check


def test_in_hot_seat_a_player_undoes_only_their_own_moves() -> None:
    game = get_game("p5")
    config = game.default_config(2)  # type: ignore[call-arg]
    console = Console(record=True, width=80, height=24, force_terminal=False)
    lines = ["go p1", "visit weapons-shop", "end", "undo", "visit home", "undo", "quit"]
    play = Session(
        game,
        GameRecord.start(game, config, 1),
        game.new_state(config, 1),
        [None, None],
        console,
        scripted(lines),
    )
    play.run()
    # Player 2's undo cannot take back Player 1's turn; their own visit is taken back
    assert play.record.actions == ["go p1", "visit weapons-shop", "end"]
    assert play.record.taken_back == [{"after": 3, "actions": ["visit home"]}]
    assert "error: nothing to undo" in console.export_text()
    assert play.record.replay(game).digest() == play.state.digest()


def test_a_record_with_bad_seats_or_taken_back_is_refused_by_field() -> None:
    game = get_game("p5")
    good = GameRecord.start(game, game.default_config(), 1).to_json()
    for key, value in (("seats", "human"), ("seats", [""]), ("taken_back", [{"after": "x"}])):
        with pytest.raises(RecordError, match=f"field '{key}'"):
            GameRecord.from_json(good | {key: value})


def test_vs_names_without_accents_reach_cards_and_choices() -> None:
    game = get_game("vs")
    config = game.default_config()
    state = game.new_state(config, 7)
    console = Console(record=True, width=80, height=24, force_terminal=False)
    ask = scripted(["info Arsene", "summon arsene", "quit"])
    play = Session(game, GameRecord.start(game, config, 7), state, [None, None], console, ask)
    assert play.state.current_player == 0  # seed 7: Player 1 begins
    play.run()
    out = console.export_text()
    assert "Arsène (persona)" in out
    assert "Player 1 summons Arsène as their main persona." in out


def test_words_that_fit_several_choices_are_refused_with_the_candidates() -> None:
    play, console = p5_session(["visit weapons-shop", "change the party", "end", "quit"])
    play.run()
    out = " ".join(console.export_text().split())
    assert "error: 'change the party' could be more than one choice" in out
    assert play.record.actions == ["visit weapons-shop", "end"]
