"""Helpers for Persona 5 tests: positions by name, moves by text, dice, read-outs."""

from __future__ import annotations

from typing import Any

from velvet.engine.core import Event, choose_by_text
from velvet.p5.cards import RESOURCES
from velvet.p5.game import P5Game
from velvet.p5.state import P5State


def make(
    game: P5Game,
    players: tuple[tuple[str, str], ...] = (("joker", "goemon"),),
    palace: str = "kamoshida",
    seed: int = 0,
) -> P5State:
    config = {"players": [{"thief": t, "persona": p} for t, p in players], "palace": palace}
    state = game.new_state(config, seed)
    assert isinstance(state, P5State)
    return state


def position(game: P5Game, players: list[dict[str, Any]] | None = None, **spec: Any) -> P5State:
    """A position by names (``P5Game.position``); a solo Joker with Goemon by default."""
    full = {
        "palace": "kamoshida",
        "players": players or [{"thief": "joker", "persona": "goemon"}],
        **spec,
    }
    state = game.position(full)
    assert isinstance(state, P5State)
    return state


def play(state: P5State, *texts: str) -> list[Event]:
    """Apply actions by their text through the checked path."""
    events: list[Event] = []
    for text in texts:
        events += state.apply(choose_by_text(state, text))
    return events


def give(state: P5State, p: int = 0, **tokens: int) -> None:
    """Set a player's fresh tokens (``stamina=3``; ``spent_sp=2`` for spent), keeping totals."""
    for key, value in tokens.items():
        spent = key.startswith("spent_")
        k = RESOURCES.index(key.removeprefix("spent_"))
        row = state.spent[p] if spent else state.fresh[p]
        state.supply[k] -= value - row[k]
        row[k] = value
        assert state.supply[k] >= 0


def reveal(state: P5State, *shadows: str) -> None:
    """Make exactly these shadows the revealed ones, at full health."""
    g = state.game
    for s in state.rev:
        state.shadow_deck.append(s)
    state.rev = []
    state.rem = []
    for sid in shadows:
        i = g.shadow_index[sid]
        if i in state.shadow_deck:
            state.shadow_deck.remove(i)
        state.rev.append(i)
        state.rem.append(list(g.shadow_health[i]))


def dice(state: P5State, *faces: int) -> None:
    """Script the next die faces (1..6; 5 and 6 succeed)."""
    state.rng.script([f - 1 for f in faces])


def texts(state: P5State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def rem(state: P5State, shadow: str) -> dict[str, int]:
    i = state.rev.index(state.game.shadow_index[shadow])
    return {k: v for k, v in zip(RESOURCES, state.rem[i], strict=True) if v}


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def first(events: list[Event], kind: str) -> dict[str, Any]:
    return dict(next(e for e in events if e.kind == kind).data)


def total_tokens(state: P5State) -> list[int]:
    """Supply + every player's fresh + spent, per kind (must stay constant: P5-COMP-3)."""
    return [
        state.supply[k] + sum(state.fresh[p][k] + state.spent[p][k] for p in range(state.n))
        for k in range(4)
    ]


def settle(state: P5State) -> None:
    """Answer pending decisions with their first option (e.g. On Palace Enter order)."""
    while state.dec:
        state.apply(state.legal_actions()[0])
