"""A random-play soak of 1,000,000 steps over both games, the engine contract checked
after every step, memory watched.

The game sweeps (tests/p5/test_random_play.py, tests/vs/test_random_games.py) check
each game's own invariants over about 250,000 steps; this soak checks the shared
contract of velvet.engine.core on many more: a live state has a legal action and a
seat to play; the checked ``apply`` accepts the chosen action and returns events;
every 8 steps the action's text and integer id round-trip; every 64 steps a clone
equals the state and each seat's view is JSON text; every game ends with one return
per seat; one game in 16 is replayed from its record to the same digest.
``VELVET_SOAK_STEPS`` changes the total (CI: 1,000,000).
"""

from __future__ import annotations

import json
import os
import random

import pytest

from velvet.engine import Event, GameRecord
from velvet.engine.core import TERMINAL
from velvet.games import get_game

TOTAL = int(os.environ.get("VELVET_SOAK_STEPS", "1000000"))
SHARE = {"p5": 0.4, "vs": 0.6}
"""P5 steps cost about twice as much as VS steps."""
MAX_GAME = 20_000


def _rss_bytes() -> int:
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:  # not Linux: no figure, no check
        return 0


@pytest.mark.slow
@pytest.mark.parametrize("name", ["p5", "vs"])
def test_random_play_soak_keeps_the_contract(name: str) -> None:
    game = get_game(name)
    config = game.default_config()
    seats = len(config["players"])
    target = int(TOTAL * SHARE[name])
    steps = games = 0
    rss_start = 0
    while steps < target:
        seed = 1_000_000 + games
        state = game.new_state(config, seed)
        record = GameRecord.start(game, config, seed)
        rng = random.Random(seed)
        for _ in range(MAX_GAME):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            assert legal, f"{name} seed {seed}: a live state without a legal action"
            assert 0 <= state.current_player < seats
            action = legal[rng.randrange(len(legal))]
            text = str(action)
            if steps % 8 == 0:
                assert game.parse_action(text) == action, f"{text!r} does not round-trip"
                assert game.action_from_id(game.action_to_id(action)) == action
            events = state.apply(action)
            assert isinstance(events, list) and all(isinstance(e, Event) for e in events)
            record.actions.append(text)
            steps += 1
            if steps % 64 == 0:
                assert state.clone().canonical() == state.canonical()
                for seat in range(seats):
                    json.dumps(state.view(seat))
        assert state.is_terminal(), f"{name} seed {seed}: no end in {MAX_GAME} actions"
        assert state.current_player == TERMINAL
        assert len(state.returns()) == seats
        if games % 16 == 0:
            assert record.replay(game).digest() == state.digest(), f"seed {seed} replays apart"
        games += 1
        if games == 50:
            rss_start = _rss_bytes()
    growth = _rss_bytes() - rss_start if rss_start else 0
    assert growth < 64 * 2**20, f"memory grew by {growth / 2**20:.0f} MiB over the soak"
    if os.environ.get("VELVET_FUZZ_REPORT"):
        print(f"\nsoak {name}: {steps} steps, {games} games, RSS growth {growth / 2**20:.1f} MiB")
