"""What a clicked board needs: every legal action names things the board shows, and the
chance shown before a roll is odds.py's exact number (docs/web.md, "The P5 board")."""

from __future__ import annotations

import pytest

from tests.p5.helpers import position
from tests.p5.test_random_play import configs, eager
from velvet.engine.rng import Rng
from velvet.p5 import actions as A
from velvet.p5.game import P5Game
from velvet.p5.odds import action_odds
from velvet.p5.state import P5State
from velvet.p5.words import action_note, action_targets, idle_note, view_refs

ONLY_BUTTONS = (A.End, A.Done)
"""Actions that act on nothing on the board: a button and a key only."""


def test_every_legal_action_of_many_games_names_things_the_board_shows(game: P5Game) -> None:
    kinds: set[str] = set()
    prefixes: set[str] = set()
    for seed in range(40):
        state = game.new_state(configs(game, seed), seed)
        assert isinstance(state, P5State)
        rng = Rng(seed)
        steps = 0
        while not state.is_terminal() and steps < 600:
            view = state.view(state.current_player)
            refs = view_refs(game, view)
            assert refs == view_refs(game, state.public_view())
            for action in state.legal_actions():
                targets = game.action_targets(state, action)
                assert targets == action_targets(state, action)
                missing = set(targets) - refs
                assert not missing, f"seed {seed}: '{action}' names {missing}, not on the board"
                if not isinstance(action, ONLY_BUTTONS):
                    assert targets, f"'{action}' acts on nothing the board shows"
                kinds.add(type(action).__name__)
                prefixes |= {t.split(":")[0] for t in targets}
            state.apply_unchecked(eager(state, rng))
            steps += 1
    assert {"Go", "Visit", "Recruit", "Use", "Hit", "Palace", "First", "StatUp"} <= kinds
    assert {"location", "confidant", "shadow", "skill", "token", "need", "player"} <= prefixes


def test_notes_of_checks_and_dice_are_the_exact_odds(game: P5Game) -> None:
    # rule: P5-CHECK-1
    # rule: P5-CHECK-2
    noted = 0
    for seed in range(30):
        state = game.new_state(configs(game, seed), seed)
        assert isinstance(state, P5State)
        rng = Rng(seed)
        steps = 0
        while not state.is_terminal() and steps < 400:
            for action in state.legal_actions():
                odds = action_odds(state, action)
                note = game.action_note(state, action)
                assert note == action_note(state, action)
                if odds:
                    assert note == "Chance: " + "; ".join(odds)
                    noted += 1
                else:  # no roll: at most the word that the action does nothing
                    assert note == idle_note(state, action)
            state.apply_unchecked(eager(state, rng))
            steps += 1
    assert noted > 100


def test_a_recruit_names_the_confidant_and_its_chances(game: P5Game) -> None:
    # rule: P5-RECRUIT-1
    s = position(
        game,
        players=[
            {"thief": "joker", "persona": "goemon", "stats": {"compassion": 2, "knowledge": 1}}
        ],
        locations=[{"id": "leblanc", "confidant": "sojiro"}],
    )
    recruit = A.Recruit("leblanc")
    assert recruit in s.legal_actions()
    assert game.action_targets(s, recruit) == ("confidant:sojiro", "location:leblanc")
    # Compassion 2 dice: 1 - (2/3)^2 = 5/9; Knowledge 1 die: 1/3; both 5/27
    assert (
        game.action_note(s, recruit) == "Chance: Compassion 2: 56 %; Knowledge 1: 33 %; both: 19 %"
    )


def test_fight_actions_name_the_skill_the_shadow_and_the_token(game: P5Game) -> None:
    s = position(
        game,
        players=[
            {
                "thief": "joker",
                "persona": "arsene",
                "fresh": {"bullet": 2, "sp": 1},
                "location": "palace",
            }
        ],
        phase="fight",
        shadows=[{"id": "pixie"}],
    )
    legal = {str(a): a for a in s.legal_actions()}
    use = legal["use arsene.thief-s-luck @pixie"]
    assert game.action_targets(s, use) == ("skill:0:arsene.thief-s-luck", "shadow:pixie")
    # Pixie is weak to Gun: the Dice skill needs no roll (P5-CHECK-2)
    assert game.action_note(s, use) == "Chance: Dice: 100 % (weakness)"
    hit = legal["hit sp @pixie"]
    assert game.action_targets(s, hit) == ("need:pixie:sp", "token:0:sp")
    assert game.action_targets(s, legal["end"]) == ()
    assert game.action_note(s, legal["end"]) is None


@pytest.mark.parametrize("card", ["arsene", "goemon"])
def test_persona_skills_carry_the_key_their_actions_use(game: P5Game, card: str) -> None:
    info = game.describe_card(f"persona:{card}")
    keys = [skill["key"] for skill in info.data["skills"]]
    assert keys and all(k in game.ab_index and k.startswith(f"{card}.") for k in keys)
