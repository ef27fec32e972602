"""1,000 random whole games with invariants checked after every action."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from velvet.vs.game import load_vs_game
from velvet.vs.state import VsState

G = load_vs_game()
PAIRS: list[tuple[str, str]] = [(a, b) for a, b in itertools.product(("p5", "p4", "p3"), repeat=2)]


def check_invariants(s: VsState, hp_before: list[int], events: list) -> None:  # type: ignore[type-arg]
    for p in (0, 1):
        # every one of the player's 40 cards is somewhere
        assert s.zones(p) == Counter(s.decklists[p]), "cards lost or duplicated"
        assert sum(s.zones(p).values()) == 40
        delta = sum(e.data["amount"] for e in events if e.kind == "heal" and e.data["player"] == p)
        delta -= sum(
            e.data["amount"] - e.data["excess"]
            for e in events
            if e.kind == "damage" and e.data["player"] == p
        )
        assert s.hp[p] == hp_before[p] + delta, "HP changed without a damage or heal event"
        assert s.hp[p] >= 0, "HP below 0: the excess damage is lost"
        tops = [st[-1] for st in s.field[p] if st]
        assert len(s.field[p]) == 3 and len(tops) <= 3
        names = [G.name_of[c] for c in tops]
        assert len(names) == len(set(names)), "two personas of one name"
        if not s.frames and s.field[p][1] + s.field[p][2]:
            assert s.field[p][0], "a player with subs must have a main"


def run_game(seed: int, pair: tuple[str, str], checks: bool = True) -> VsState:
    s = G.new_state(G.default_config(*pair), seed)
    rng = random.Random(seed)
    steps = 0
    while not s.is_terminal():
        legal = s.legal_actions()
        assert legal
        action = legal[rng.randrange(len(legal))]
        hp = s.hp[:]
        events = s.apply_unchecked(action)
        if checks:
            check_invariants(s, hp, events)
        steps += 1
        assert steps < 20_000
    return s


@pytest.mark.slow
def test_thousand_random_games_keep_invariants() -> None:
    # rule: VS-END-1, VS-END-2, VS-RULE-NAME, VS-FIELD-1, VS-DISCARD-1
    outcomes: Counter[str] = Counter()
    for seed in range(1000):
        s = run_game(seed, PAIRS[seed % len(PAIRS)])
        outcomes["hp" if min(s.hp) <= 0 else "deck" if s.winner in (0, 1) else "cap"] += 1
    assert outcomes["hp"] > 100 and outcomes["deck"] > 100
