"""Every chance shown says whose play it assumes, naming the level the game really uses:
its GameSpec ``chance_bot`` and what that level is there (``GameSpec.levels``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from rich.console import Console

from velvet.bots import hints as hints_module
from velvet.bots import registry
from velvet.bots.hints import assumed_bot, assumed_play, forecast, hints, level_words
from velvet.engine.record import GameRecord
from velvet.engine.spec import GameSpec
from velvet.games import get_game, get_spec
from velvet.server.hinting import work_forecast, work_hint
from velvet.ui.terminal import Session


def _start(name: str, seed: int = 3) -> Any:
    game = get_game(name, ())
    return game.new_state(game.default_config(), seed)


def test_the_words_name_each_games_own_easy_level() -> None:
    # VS's easy is greedy with 5 samples, P5's the game's MCTS at 30 simulations
    assert get_spec("vs").levels["easy"] == ("greedy", "5") and "easy" not in get_spec("p5").levels
    assert assumed_bot("vs") == get_spec("vs").chance_bot == "easy"
    assert assumed_bot("p5") == get_spec("p5").chance_bot == "easy"
    assert level_words("easy", "vs") == "greedy, 5 samples a move"
    assert level_words("easy", "p5") == "MCTS, 30 simulations a move"
    assert level_words("normal", "vs") == "ISMCTS, 100 simulations a move"
    assert (
        level_words("expert", "p5") == "MCTS with the game's expert helpers, 800 simulations a move"
    )
    assert level_words("expert", "vs") == "ISMCTS, 800 simulations a move"  # VS has no helpers
    assert level_words("mcts:200", "vs") == "mcts:200"  # a spec, not a level: said as given
    assert (
        assumed_play("easy", 2, "vs")
        == "if both players play on like the easy bot (greedy, 5 samples a move)"
    )
    assert assumed_play("mcts:200", 1, "p5") == "if you play on like the mcts:200 bot"


@pytest.mark.parametrize(("name", "words"), [("vs", "greedy, 5 samples"), ("p5", "MCTS, 30")])
def test_a_hint_and_the_forecast_name_the_level_they_assume(name: str, words: str) -> None:
    state = _start(name)
    seat = state.current_player
    players = len(state.returns())
    found = hints(state, seat, 30, top=2)
    assert found
    for h in found:
        assert h.bot == get_spec(name).chance_bot and h.game == name
        assert f"like the easy bot ({words} " in h.line(players)
        assert h.to_json()["bot_is"] == level_words("easy", name)
    answer = work_hint(state, seat, "30")
    assert answer["bot"] == "easy" and answer["bot_is"].startswith(words)
    if name == "p5":
        outlook = forecast(state, seat, 1)
        assert outlook.bot == "easy" and f"like the easy bot ({words} " in outlook.line(players)
        sent = work_forecast(state, seat, 1, None, 30.0)
        assert sent["bot"] == sent["hints_bot"] == "easy" and sent["bot_is"].startswith(words)


def _session(state: Any, lines: list[str]) -> tuple[Session, Console]:
    game = state.game
    console = Console(record=True, width=100, force_terminal=False)
    feed = iter(lines)

    def ask(_prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    play = Session(
        game,
        GameRecord.start(game, {}, 0),
        state,
        [None] * len(state.returns()),
        console,
        ask,
        savable=False,
    )
    return play, console


@pytest.mark.parametrize(("name", "words"), [("vs", "greedy, 5 samples"), ("p5", "MCTS, 30")])
def test_the_terminals_hint_and_forecast_name_the_level(name: str, words: str) -> None:
    state = _start(name)
    commands = ["hint 30", "forecast 1"] if name == "p5" else ["hint 30"]
    play, console = _session(state, [*commands, "quit"])
    play.run()
    out = " ".join(console.export_text().split())
    who = "you play" if name == "p5" else "both players play"
    assert f"to win if {who} on like the easy bot ({words} " in out
    if name == "p5":
        assert f"to beat the boss by day 28 if you play on like the easy bot ({words} " in out


def test_the_words_follow_the_spec_when_it_assumes_another_level(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nothing says 'easy' by itself: a game whose chances assume its ``normal`` level, a
    greedy bot there, has its hints say so."""
    spec: GameSpec = dataclasses.replace(
        get_spec("vs"), chance_bot="normal", levels={"normal": ("greedy", "3")}
    )

    def find(name: str) -> GameSpec | None:
        return spec if name == "vs" else get_spec(name)

    monkeypatch.setattr(hints_module, "find_spec", find)
    monkeypatch.setattr(registry, "find_spec", find)
    state = _start("vs")
    found = hints(state, state.current_player, 20, top=1)
    assert found[0].bot == "normal"
    assert "if both players play on like the normal bot (greedy, 3 samples a move)" in found[
        0
    ].line(2)
    assert work_hint(state, state.current_player, "20")["bot_is"] == "greedy, 3 samples a move"
