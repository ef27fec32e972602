"""Real P5 positions for the browser tests: engine play (the eager player of the random
play tests) stopped at chosen moments, as the client would receive them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.p5.test_random_play import configs, eager
from velvet.engine.core import Event, player_name
from velvet.engine.rng import Rng
from velvet.p5 import actions as A
from velvet.p5.game import P5Game
from velvet.p5.state import P5State
from velvet.p5.words import card_ids


def cards_of(game: P5Game) -> dict[str, Any]:
    """Every card as ``describe_card`` gives it, keyed ``kind:id``."""
    return {cid: game.describe_card(cid).to_json() for cid in card_ids(game)}


def board(game: P5Game, state: P5State, events: list[Event], seat: int | None) -> dict[str, Any]:
    """What renderBoard gets for ``seat``: view, legal actions with targets and notes."""
    mover = state.current_player
    legal = []
    if seat is not None and mover == seat:
        legal = [
            {
                "text": str(a),
                "label": state.action_label(a),
                "targets": list(game.action_targets(state, a)),
                "note": game.action_note(state, a),
            }
            for a in state.legal_actions()
        ]
    view = state.view(seat) if seat is not None else state.public_view()
    return {
        "game": "p5",
        "view": view,
        "seat": seat,
        "toMove": None if mover < 0 else mover,
        "legal": legal,
        "events": [
            {"kind": e.kind, "text": game.event_text(e), "data": dict(e.data)} for e in events
        ],
    }


Moment = Callable[[P5State, list[Event]], bool]


def _rolled(events: list[Event]) -> bool:
    return any(e.kind in ("check", "dice") for e in events)


MOMENTS: dict[str, tuple[int, Moment]] = {
    # name: (players, when to stop)
    "solo-start": (1, lambda s, ev: True),
    "solo-town": (
        1,
        lambda s, ev: s.day >= 3 and any(isinstance(a, A.Recruit) for a in s.legal_actions()),
    ),
    "solo-fight": (
        1,
        lambda s, ev: (
            s.phase == 3
            and bool(s.rev)
            and not s.dec
            and _rolled(ev)
            and any(isinstance(a, A.Use) and a.target for a in s.legal_actions())
        ),
    ),
    "duo-order": (2, lambda s, ev: s.phase == 0 and s.day >= 2),
    "duo-fight": (
        2,
        lambda s, ev: (
            s.phase == 3
            and len(s.rev) >= 2
            and not s.dec
            and any(isinstance(a, A.Hit) for a in s.legal_actions())
        ),
    ),
    "duo-boss": (2, lambda s, ev: bool(s.boss_rem) and s.phase == 3 and not s.dec),
    "duo-draft": (2, lambda s, ev: bool(s.dec) and type(s.dec[-1]).__name__ == "PartyDraft"),
}


def find(game: P5Game, name: str) -> tuple[P5State, list[Event]]:
    """The first position of the named moment in eager play over a few seeds."""
    players, when = MOMENTS[name]
    for seed in range(players - 1, 400, 2):
        state = game.new_state(configs(game, seed), seed)
        assert isinstance(state, P5State)
        rng = Rng(seed)
        events: list[Event] = []
        while not state.is_terminal():
            if when(state, events):
                return state, events
            events = state.apply_unchecked(eager(state, rng))
    raise LookupError(f"no eager game reached the moment '{name}'")


def replay(game: P5Game, players: int, seed: int, steps: int) -> dict[str, Any]:
    """Frames of a short eager game for every view, as the server's replay gives them."""
    from velvet.engine.record import GameRecord
    from velvet.server.replay import replay_frames

    config = configs(game, seed * 2 + players - 1)
    record = GameRecord.start(game, config, seed)
    state = game.new_state(config, seed)
    assert isinstance(state, P5State)
    rng = Rng(seed)
    while not state.is_terminal() and len(record.actions) < steps:
        action = eager(state, rng)
        record.actions.append(str(action))
        state.apply_unchecked(action)
    seats: list[int | None] = [*range(players), None]
    return {
        "game": "p5",
        "seat": 0,
        "seats": list(range(players)),
        "names": [player_name(p) for p in range(players)],
        "frames": {"null" if s is None else str(s): replay_frames(game, record, s) for s in seats},
    }
