"""Contract tests every registered game must pass (in the manner of PettingZoo's api_test).

The games come from the registry alone (``velvet.games``), plus the toy games of
the tests named by their spec (``package.module:ATTR``), which register the same
way. Random play from several seeds checks, after every action: the legal list is
non-empty until the end; each action's text form and integer id round-trip; its
label is non-empty and distinct within the decision; every event has a sentence;
clone and JSON copies are equal and independent; views are JSON-able and hold
their private parts; an illegal action changes nothing. Two instances with one
seed and one action sequence end byte-identical. After the end, every action is
refused citing the game's end rule.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from velvet.cli import main
from velvet.engine import Config, Game, IllegalActionError, InvalidActionError, State, VelvetError
from velvet.engine.spec import GameSpec
from velvet.games import game_names, get_spec

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "bots"))  # the toy games module velvet_toys
RULE_INDEX = ROOT / "docs" / "rules" / "RULE-INDEX.md"

TOY = "tests.engine.toygame:SPEC"
GAMES = [*game_names(), TOY, "velvet_toys:DUEL", "velvet_toys:RACE"]
MAX_STEPS = 5_000


def load(name: str) -> tuple[GameSpec, Game[Any]]:
    spec = get_spec(name)
    return spec, spec.load(())


def config_of(spec: GameSpec, game: Game[Any]) -> Config:
    return spec.config_for(game, spec.players[0])


def random_game(
    spec: GameSpec, game: Game[Any], seed: int, check: bool
) -> tuple[State[Any], list[str]]:
    state = game.new_state(config_of(spec, game), seed)
    rng = random.Random(seed)
    texts: list[str] = []
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert legal, "a live state must have a legal action"
        check_words(state, legal)
        if check:
            check_state(spec, game, state, legal)
        action = legal[rng.randrange(len(legal))]
        texts.append(str(action))
        for event in state.apply(action):
            assert game.event_text(event).strip(), f"event {event} has no text"
    assert state.is_terminal(), f"seed {seed}: no end after {MAX_STEPS} actions"
    returns = state.returns()
    # A co-op game gives every seat one outcome; otherwise at most one seat wins.
    assert all(r in (0.0, 1.0) for r in returns), returns
    assert len(set(returns)) == 1 or sorted(returns) == [0.0] * (len(returns) - 1) + [1.0]
    assert state.outcome_text().strip()
    return state, texts


def check_words(state: State[Any], legal: list[Any]) -> None:
    labels = [state.action_label(a) for a in legal]
    assert all(label.strip() for label in labels), f"an empty label among {labels}"
    assert len(set(labels)) == len(labels), f"two legal actions share a label: {labels}"


def check_state(spec: GameSpec, game: Game[Any], state: State[Any], legal: list[Any]) -> None:
    texts = [str(a) for a in legal]
    assert len(set(texts)) == len(texts), f"two legal actions share a text form: {texts}"
    for action in legal:
        assert game.parse_action(str(action)) == action
        assert game.action_from_id(game.action_to_id(action)) == action
    before = state.canonical()
    twin = state.clone()
    assert twin.canonical() == before
    assert game.state_from_json(json.loads(json.dumps(state.to_json()))).canonical() == before
    twin.apply_unchecked(legal[-1])  # the copy is independent: the original stays as it was
    assert state.canonical() == before
    for player in range(len(state.returns())):
        view = state.view(player)
        json.dumps(view)
        missing = [key for key in spec.private if key not in view]
        assert not missing, f"view of seat {player} lacks its private {missing}"


@pytest.mark.parametrize("name", GAMES)
def test_random_play_keeps_the_contract(name: str) -> None:
    spec, game = load(name)
    for seed in range(5):
        random_game(spec, game, seed, check=True)


@pytest.mark.parametrize("name", GAMES)
def test_labels_and_event_texts_in_many_games(name: str) -> None:
    spec, game = load(name)
    for seed in range(100, 120):
        random_game(spec, game, seed, check=False)


@pytest.mark.parametrize("name", GAMES)
def test_one_seed_one_game(name: str) -> None:
    spec, game = load(name)
    for seed in (11, 12):
        first, texts = random_game(spec, game, seed, check=False)
        second = game.new_state(config_of(spec, game), seed)
        for text in texts:
            second.apply(game.parse_action(text))
        assert second.canonical() == first.canonical()


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_action_changes_nothing(name: str) -> None:
    spec, game = load(name)
    state = game.new_state(config_of(spec, game), 3)
    rng = random.Random(3)
    illegal_seen = 0
    for _ in range(200):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        before = state.canonical()
        for text in ("roll", "stop", "pass", "end", "1", "play 1", "bank"):
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
    if name in ("p5", "vs"):
        assert illegal_seen


@pytest.mark.parametrize("name", GAMES)
def test_no_action_after_the_end(name: str) -> None:
    spec, game = load(name)
    state, texts = random_game(spec, game, 7, check=False)
    for text in sorted(set(texts)):  # every action of the game, each once legal, is refused
        before = state.canonical()
        with pytest.raises(IllegalActionError) as info:
            state.apply(game.parse_action(text))
        assert info.value.rule_id == state.game_over_error().rule_id
        assert state.canonical() == before
    if name in ("p5", "vs"):  # the refusal names the clause that ended this game
        index = set(re.findall(r"\*\*((?:P5|VS)-[A-Z0-9-]+)\*\*", RULE_INDEX.read_text("utf-8")))
        assert info.value.rule_id.startswith(f"{name.upper()}-END-")
        assert info.value.rule_id in index
    else:
        assert info.value.rule_id == game.game_over_rule


@pytest.mark.parametrize(("name", "prefix"), [("p5", "P5-END-"), ("vs", "VS-END-")])
def test_the_end_rule_is_a_clause_of_the_index(name: str, prefix: str) -> None:
    # rule: P5-END-1 rule: VS-END-1 (an action after the end cites the ending clause)
    _, game = load(name)
    index = set(re.findall(r"\*\*((?:P5|VS)-[A-Z0-9-]+)\*\*", RULE_INDEX.read_text("utf-8")))
    assert game.game_over_rule.startswith(prefix)
    assert game.game_over_rule in index


@pytest.mark.parametrize("name", ["p5", "vs"])
def test_garbled_text_is_a_one_line_error(name: str) -> None:
    _, game = load(name)
    for text in ("", "???", "visit", "0" * 500, "\x00"):
        with pytest.raises(VelvetError) as info:
            game.parse_action(text)
        assert "\n" not in str(info.value)


def test_a_toy_game_runs_through_sim_and_report_by_its_spec_alone(tmp_path: Path) -> None:
    """The toy registers like p5 and vs (a GameSpec) and needs no other wiring."""
    out = tmp_path / "race"
    runner = CliRunner()
    args = ["sim", TOY, "-n", "6", "--workers", "1", "--no-progress", "--out", str(out)]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["finished"] == 6 and summary["game"] == TOY
    page = tmp_path / "race.html"
    result = runner.invoke(main, ["report", str(out), "--out", str(page)])
    assert result.exit_code == 0, result.output
    assert "Win rate by seat" in page.read_text()
