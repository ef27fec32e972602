"""Words typed at the prompt: one parser for ``velvet play`` and ``velvet join``, short
skill names, card names in ``info``, and choices that do nothing."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from rich.console import Console

from velvet.engine import GameRecord
from velvet.engine.core import State, choose_by_text
from velvet.games import get_game
from velvet.p5.game import load_p5_game
from velvet.server.client import move_text
from velvet.ui.choose import InvalidAction, pick
from velvet.ui.p5_render import render
from velvet.ui.terminal import Session


def scripted(lines: list[str]) -> Callable[[str], str]:
    feed: Iterator[str] = iter(lines)

    def ask(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return ask


def session(
    name: str, lines: list[str], moves: Sequence[str] = (), seed: int = 1, height: int = 60
) -> tuple[Session, Console]:
    game = get_game(name)
    config = game.default_config()
    state = game.new_state(config, seed)
    record = GameRecord.start(game, config, seed)
    for text in moves:
        state.apply(choose_by_text(state, text))
        record.actions.append(text)
    console = Console(record=True, width=80, height=height, force_terminal=False)
    seats = [None] * len(state.returns())
    return Session(game, record, state, seats, console, scripted(lines)), console


def flat(console: Console) -> str:
    return " ".join(console.export_text().split())


# --- one parser ----------------------------------------------------------------------------


def _states(name: str, games: int, seed: int, moves: int = 400) -> Iterator[State[Any]]:
    """Decisions of random games of ``name`` (every one, in order, up to ``moves`` a game)."""
    game = get_game(name)
    pick_rng = random.Random(seed)
    for n in range(games):
        state = game.new_state(game.default_config(), seed + n)
        for _ in range(moves):
            if state.is_terminal():
                break
            yield state
            state.apply(pick_rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", ["p5", "vs"])
def test_every_label_names_its_own_action_in_play_and_in_join(name: str) -> None:
    """The local session and the join client read a label through the same parser, and
    each label of a decision gets back the very action it labels."""
    play, _ = session(name, [])
    checked = 0
    for state in _states(name, 2, 11, moves=150):
        labels = state.action_labels()
        legal = [{"text": str(a), "label": t} for a, t in labels.items()]
        play.state = state
        for action, label in labels.items():
            assert play.resolve(label) == action, label
            assert move_text(label, legal) == str(action), label
            checked += 1
    assert checked > 200


def test_join_refused_react_words_that_play_takes() -> None:
    """'React with Counter' (a VS label) is a move in both front ends."""
    for state in _states("vs", 20, 5):
        labels = state.action_labels()
        reacts = {a: t for a, t in labels.items() if str(a).startswith("react ")}
        if reacts:
            break
    else:
        pytest.fail("no React window in 20 random games")
    action, label = next(iter(reacts.items()))
    assert label.startswith("React with ")
    legal = [{"text": str(a), "label": t} for a, t in labels.items()]
    assert move_text(label, legal) == str(action)
    assert move_text(label.lower(), legal) == str(action)


# --- short skill names ---------------------------------------------------------------------


def test_a_skill_is_typed_without_its_card_when_that_is_unambiguous() -> None:
    play, console = session("p5", ["use cleave @inugami", "quit"], moves=["palace"])
    play.run()
    assert play.record.actions == ["palace", "use arsene.cleave @inugami"]
    assert "error:" not in console.export_text()


def test_a_short_skill_name_that_fits_several_moves_lists_them_and_changes_nothing() -> None:
    play, console = session("p5", ["use cleave", "quit"], moves=["palace"])
    before = play.state.digest()
    play.run()
    out = flat(console)
    assert "error: 'use cleave' could be more than one choice (2):" in out
    assert "Use Cleave (Arsene) on Inugami, paying 1 Stamina;" in out
    assert "Use Cleave (Arsene) on Nekomata, paying 1 Stamina." in out
    assert play.record.actions == ["palace"] and play.state.digest() == before


def test_the_label_without_its_brackets_is_a_move_too() -> None:
    play, _ = session("p5", ["Use Cleave on Nekomata", "quit"], moves=["palace"])
    play.run()
    assert play.record.actions == ["palace", "use arsene.cleave @nekomata"]


def test_short_words_never_pick_an_illegal_move() -> None:
    """Like parse_san: every pick is one of the legal list, whatever was typed."""
    choices = [("use arsene.cleave @inugami", "Use Cleave (Arsene) on Inugami")]
    for typed in ("use cleave @nekomata", "use eiha @inugami", "cleave", "use arsene.cleave @"):
        assert pick(typed, choices) is None, typed
    with pytest.raises(InvalidAction):
        pick("use", [*choices, ("use arsene.eiha @inugami", "Use Eiha (Arsene) on Inugami")])


# --- the last day --------------------------------------------------------------------------


def test_a_game_lost_after_the_last_day_shows_the_last_day_not_one_past_it() -> None:
    # after the last day the engine's day counter is one past it (the game is lost)
    game = load_p5_game()
    config = game.default_config()
    state = game.new_state(config, 1)
    record = GameRecord.start(game, config, 1)
    rng = random.Random(1)
    while not state.is_terminal():  # stay out of the palace: the boss is never beaten
        legal = state.legal_actions()
        calm = [a for a in legal if str(a).split()[0] not in ("palace", "recruit", "discover")]
        action = rng.choice(calm or legal)
        record.actions.append(str(action))
        state.apply(action)
    assert state.view(0)["day"] == state.view(0)["days"] + 1  # the engine's counter
    console = Console(record=True, width=80, height=24, force_terminal=False)
    Session(game, record, state, [None], console, scripted([""])).run()
    out = console.export_text()
    assert "The end" in out and "Day 28 of 28 · " in out and "DEFEAT" in out
    assert "Day 29" not in out
    full = Console(record=True, width=120, force_terminal=False)
    full.print(render(state.view(0), game))
    assert "Day 28 of 28" in full.export_text() and "Day 29" not in full.export_text()


# --- info NAME -----------------------------------------------------------------------------


def test_info_takes_a_prefix_that_fits_one_card_and_any_case_or_accent() -> None:
    lines = ["info weapons", "info SKUL", "?Ren", "info arsène", "quit"]
    play, console = session("p5", lines, height=200)
    play.run()
    out = console.export_text()
    assert "error:" not in out
    for title in (
        "Weapons Shop (location)",
        "Skull (Ryuji Sakamoto) (thief)",
        "Joker (Ren Amamiya) (thief)",
        "Arsene (persona)",
    ):
        assert title in out, title


def test_info_names_the_candidates_of_a_short_name_and_suggests_near_misses() -> None:
    lines = ["info Jack", "info Pixy", "info Arsene Lupin", "info Zzz", "quit"]
    play, console = session("vs", lines, height=200)
    before = play.state.digest()
    play.run()
    out = flat(console)
    assert "error: 'Jack' could be more than one card (2): Jack-o'-Lantern; Jack Frost." in out
    assert "error: no card named 'Pixy'; did you mean 'Pixie'?" in out
    assert "error: no card named 'Arsene Lupin'; did you mean 'Arsène'?" in out
    assert "error: no card named 'Zzz' (Tab completes names)" in out
    assert play.state.digest() == before and play.record.actions == []


def test_a_display_name_wins_over_the_same_name_in_brackets() -> None:
    # "Morgana" is a confidant's name and the name in the brackets of "Mona (Morgana)"
    play, console = session("p5", ["info Morgana", "info Mona", "quit"], height=200)
    play.run()
    out = console.export_text()
    assert "Morgana (confidant)" in out and "Mona (Morgana) (thief)" in out
    assert "error:" not in out


# --- choices that do nothing ---------------------------------------------------------------

BROKE = {"stamina": 2, "sp": 0, "bullet": 1, "cash": 0}


def p5_position(spec: dict[str, Any], lines: list[str]) -> tuple[Session, Console]:
    game = get_game("p5")
    state = game.position({"palace": "kamoshida", **spec})
    console = Console(record=True, width=80, height=60, force_terminal=False)
    record = GameRecord.start(game, game.default_config(), 1)
    play = Session(game, record, state, [None], console, scripted(lines))
    play.savable = False
    return play, console


def test_a_visit_that_cannot_pay_is_marked_as_doing_nothing() -> None:
    players = [{"thief": "joker", "persona": "arsene", "fresh": BROKE}]
    play, console = p5_position({"players": players}, ["quit"])
    play.run()
    out = flat(console)
    assert "Visit Weapons Shop: Pay 1 Cash: Gain 3 Bullet (does nothing: cannot pay 1 Cash)" in out
    assert "Visit Clinic: Pay 1 Cash: Gain 2 Stamina + 2 SP (does nothing: cannot pay 1" in out
    assert "Visit Home: Restore 3 Stamina. Restore 2 SP + 1 Bullet (does nothing: nothing" in out
    assert "Visit Sales Clerk: Gain 2 Cash" in out
    assert "Sales Clerk: Gain 2 Cash (does nothing" not in out


def test_a_skill_on_a_requirement_already_met_is_marked_and_the_browser_gets_it_too() -> None:
    fighter = {"thief": "joker", "persona": "arsene", "fresh": BROKE, "location": "palace"}
    spec = {
        "players": [fighter],
        "phase": "fight",
        "shadows": [{"id": "inugami", "damage": {"stamina": 2}}, {"id": "nekomata"}],
    }
    play, console = p5_position(spec, ["quit"])
    play.run()
    out = flat(console)
    said = "does nothing: Inugami has no Stamina requirement left"
    assert f"Use Cleave (Arsene) on Inugami, paying 1 Stamina ({said})" in out
    assert "on Nekomata, paying 1 Stamina (does nothing" not in out
    # the same words reach the server's legal list (a room's "note"), from the same engine
    state = play.state
    notes = {str(a): play.game.action_note(state, a) for a in state.legal_actions()}
    assert notes["use arsene.cleave @inugami"] == said
    assert notes["use arsene.cleave @nekomata"] is None


def _substance(state: Any) -> tuple[Any, ...]:
    """What a move that does nothing may not change (the place and the cost aside)."""
    return (
        [list(x) for x in state.stats],
        [list(x) for x in state.rem],
        list(state.boss_rem),
        [list(x) for x in state.held],
        [list(x) for x in state.conf],
        list(state.rev),
        state.alert,
        state.result,
    )


def test_what_is_marked_as_doing_nothing_changes_nothing_but_what_it_pays() -> None:
    """A property over random games: the note is the engine's own finding, so applying a
    marked move changes no stat, requirement or card, and gains no token: it only pays."""
    from velvet.p5.words import idle_note

    game = load_p5_game()
    rng = random.Random(3)
    marked = 0
    for seed in range(6):
        state = game.new_state(game.default_config(), seed)
        for _ in range(300):
            if state.is_terminal():
                break
            for action in state.legal_actions():
                note = idle_note(state, action)
                if note is None:
                    continue
                marked += 1
                trial = state.clone()
                trial.apply(action)
                assert _substance(trial) == _substance(state), (str(action), note)
                p = state.current_player
                fresh, spent = state.fresh[p], state.spent[p]
                # only paid: no token is gained, restored or freshened; paid ones are spent
                assert all(a <= b for a, b in zip(trial.fresh[p], fresh, strict=True)), note
                for k in range(3):  # Stamina, SP, Bullet (paid Cash goes to the supply)
                    assert trial.fresh[p][k] + trial.spent[p][k] == fresh[k] + spent[k], note
            state.apply(rng.choice(state.legal_actions()))
    assert marked > 20
