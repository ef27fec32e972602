"""Small helpers to build Persona VS positions and play actions by text."""

from __future__ import annotations

import random
from collections.abc import Sequence

from velvet.engine.core import Event
from velvet.vs.game import VsGame, load_vs_game
from velvet.vs.state import DECLARE, PLAN, VsState

FILLER = "006"  # Bicorn: a plain cost-1 persona used to pad decks and hands


def game() -> VsGame:
    return load_vs_game()


def position(
    *,
    turn: int = 0,
    hands: Sequence[Sequence[str]] = ((), ()),
    fields: Sequence[Sequence[Sequence[str]]] = (((), (), ()), ((), (), ())),
    decks: Sequence[Sequence[str]] | None = None,
    discards: Sequence[Sequence[str]] = ((), ()),
    hp: Sequence[int] = (30, 30),
    step: int = PLAN,
    more_used: bool = False,
    seed: int = 1,
    game: VsGame | None = None,
    open_decklists: bool = True,
) -> VsState:
    """``VsGame.position`` with zones as card ids (decks listed bottom first, as stored).

    Decks default to 10 fillers each.
    """
    if decks is None:
        decks = ([FILLER] * 10, [FILLER] * 10)
    players = []
    for p in (0, 1):
        main, *subs = [list(st) for st in fields[p]]
        while subs and not subs[-1]:
            subs.pop()
        players.append(
            {
                "player_card": ("p5", "p4")[p],
                "hp": hp[p],
                "hand": list(hands[p]),
                "deck": list(decks[p])[::-1],
                "discard": list(discards[p]),
                "main": main,
                "subs": subs,
            }
        )
    spec = {
        "players": players,
        "turn": turn + 1,
        "step": {PLAN: "planning", DECLARE: "skill"}[step],
        "one_more": more_used,
        "seed": seed,
        "open_decklists": open_decklists,
    }
    return (game or load_vs_game()).position(spec)  # type: ignore[no-any-return]


def act(state: VsState, *texts: str) -> list[Event]:
    """Apply actions by text through the checked path; returns all their events."""
    events: list[Event] = []
    for text in texts:
        events += state.apply(state.game.parse_action(text))
    return events


def legal(state: VsState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def field_ids(state: VsState, p: int) -> list[list[str]]:
    ids = state.game.ids
    return [[ids[c] for c in st] for st in state.field[p]]


def hand_ids(state: VsState, p: int) -> list[str]:
    ids = state.game.ids
    return [ids[c] for c in state.hand[p]]


def disc_ids(state: VsState, p: int) -> list[str]:
    ids = state.game.ids
    return [ids[c] for c in state.disc[p]]


def random_position(seed: int, steps: int) -> VsState:
    """The built-in P5-vs-P3 game after ``steps`` seeded random actions (or its end)."""
    g = game()
    s = g.new_state(g.default_config("p5", "p3"), seed)
    r = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        legal_now = s.legal_actions()
        s.apply_unchecked(legal_now[r.randrange(len(legal_now))])
    return s
