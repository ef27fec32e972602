"""Contract tests every game must pass (in the manner of PettingZoo's api_test).

Random play from several seeds checks, after every action: the legal list is
non-empty until the end; each action's text form round-trips; its integer id
round-trips; clone and JSON copies are equal and independent; views are
JSON-able; an illegal action changes nothing. Two instances with one seed and
one action sequence end byte-identical.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.engine.toygame import RaceGame
from velvet.engine import Game, IllegalActionError, InvalidActionError, State, VelvetError
from velvet.games import get_game

GAMES = ["race", "p5", "vs"]
MAX_STEPS = 5_000


def load(name: str) -> Game:
    return RaceGame() if name == "race" else get_game(name)


def config_of(game: Game) -> dict[str, Any]:
    default = getattr(game, "default_config", None)
    return default() if default else {}


def random_game(game: Game, seed: int, check: bool) -> tuple[State, list[str]]:
    state = game.new_state(config_of(game), seed)
    rng = random.Random(seed)
    texts: list[str] = []
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert legal, "a live state must have a legal action"
        if check:
            check_state(game, state, legal)
        action = legal[rng.randrange(len(legal))]
        texts.append(str(action))
        state.apply(action)
    assert state.is_terminal(), f"seed {seed}: no end after {MAX_STEPS} actions"
    assert sorted(state.returns()) in ([0.0] * len(state.returns()), sorted(state.returns()))
    return state, texts


def check_state(game: Game, state: State, legal: list[Any]) -> None:
    texts = [str(a) for a in legal]
    assert len(set(texts)) == len(texts), f"two legal actions share a text form: {texts}"
    for action in legal:
        assert game.parse_action(str(action)) == action
    if hasattr(game, "action_to_id"):
        for action in legal:
            assert game.action_from_id(game.action_to_id(action)) == action  # type: ignore[attr-defined]
    before = state.canonical()
    twin = state.clone()
    assert twin.canonical() == before
    assert game.state_from_json(json.loads(json.dumps(state.to_json()))).canonical() == before
    twin.apply_unchecked(legal[-1])  # the copy is independent: the original stays as it was
    assert state.canonical() == before
    for player in range(len(state.returns())):
        json.dumps(state.view(player))


@pytest.mark.parametrize("name", GAMES)
def test_random_play_keeps_the_contract(name: str) -> None:
    game = load(name)
    for seed in range(5):
        random_game(game, seed, check=True)


@pytest.mark.parametrize("name", GAMES)
def test_one_seed_one_game(name: str) -> None:
    game = load(name)
    for seed in (11, 12):
        first, texts = random_game(game, seed, check=False)
        second = game.new_state(config_of(game), seed)
        for text in texts:
            second.apply(game.parse_action(text))
        assert second.canonical() == first.canonical()


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_action_changes_nothing(name: str) -> None:
    game = load(name)
    state = game.new_state(config_of(game), 3)
    rng = random.Random(3)
    illegal_seen = 0
    for _ in range(200):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        before = state.canonical()
        for text in ("roll", "stop", "pass", "end", "1"):
            try:
                action = game.parse_action(text)
            except InvalidActionError:
                continue
            if action in legal:
                continue
            with pytest.raises(IllegalActionError) as info:
                state.apply(action)
            assert info.value.rule_id
            assert state.canonical() == before
            illegal_seen += 1
        state.apply(legal[rng.randrange(len(legal))])
    assert illegal_seen or name == "race"


@pytest.mark.parametrize("name", ["p5", "vs"])
def test_garbled_text_is_a_one_line_error(name: str) -> None:
    game = load(name)
    for text in ("", "???", "visit", "0" * 500, "\x00"):
        with pytest.raises(VelvetError) as info:
            game.parse_action(text)
        assert "\n" not in str(info.value)
