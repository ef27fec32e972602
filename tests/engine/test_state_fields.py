"""Each state field is declared once (``__slots__``) and every copy path covers it.

clone, to_json / state_from_json, view / determinize: a field added to a state's
``__slots__`` and forgotten in one of them fails here, twice over: statically (the
function's source never writes or reads the field) and on states from random play
(the copy differs from the original, or shares a list with it).
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from velvet.engine.core import Game, State
from velvet.engine.rng import Rng
from velvet.p5 import state as p5_state
from velvet.p5 import view as p5_view
from velvet.p5.game import load_p5_game
from velvet.p5.state import P5State
from velvet.vs import state as vs_state
from velvet.vs import view as vs_view
from velvet.vs.game import load_vs_game
from velvet.vs.state import VsState

P5_SHARED = {"thief", "persona"}
"""Fields a clone may share with its original: set once at set-up, never written."""
VS_SHARED = {"pcs", "decklists", "open_lists"}

P5_HIDDEN = {"rng", "loc_deck", "conf_deck", "shadow_deck"}
"""Fields a P5 view hides (deck orders, the RNG); determinize samples them."""
VS_HIDDEN = {"rng", "hand", "deck"}
"""Fields a VS view hides (the rival's hand, deck orders); determinize samples them."""


def fields(cls: type[State[Any]]) -> list[str]:
    slots: tuple[str, ...] = cls.__slots__
    return [f for f in slots if f != "_game"]


def attrs(fn: Callable[..., Any], name: str, *, written: bool) -> set[str]:
    """The attributes of ``name`` that ``fn``'s source writes (or reads)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    ctx = ast.Store if written else ast.Load
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == name
        and isinstance(node.ctx, ctx)
    }


# --- statically: every function names every field -----------------------------------------


def test_p5_every_path_names_every_field() -> None:
    declared = set(fields(P5State))
    assert declared == set(p5_state._FIELDS) and len(p5_state._FIELDS) == len(declared)
    assert attrs(P5State.clone, "o", written=True) - {"_game"} == declared
    # to_json and state_from_json iterate _FIELDS itself; determinize writes each field
    assert attrs(p5_view.determinize, "s", written=True) - {"_game"} == declared
    assert set(P5State.__annotations__) - {"_game"} == declared


def test_vs_every_path_names_every_field() -> None:
    declared = set(fields(VsState))
    assert declared == set(vs_state._FIELDS) and len(vs_state._FIELDS) == len(declared)
    assert attrs(VsState.clone, "s", written=True) - {"_game"} == declared
    assert attrs(VsState.blank, "s", written=True) - {"_game"} == declared
    read = attrs(VsState.public_json, "self", written=False) | attrs(
        VsState.to_json, "self", written=False
    )
    assert declared <= read, declared - read
    restored = attrs(VsState.from_public_json, "s", written=True) | attrs(
        VsState.from_json, "s", written=True
    )
    assert declared <= restored, declared - restored
    sampled = attrs(VsState.from_public_json, "s", written=True) | attrs(
        vs_view.determinize, "s", written=True
    )
    assert declared - VS_HIDDEN <= sampled, declared - VS_HIDDEN - sampled
    assert set(VsState.__annotations__) - {"_game"} == declared


# --- on states from random play -------------------------------------------------------------


def states(game: Game[Any], seeds: range, steps: int) -> Iterator[State[Any]]:
    """States along random games: at set-up and every few actions."""
    for seed in seeds:
        rng = Rng(seed)
        state = game.new_state(game.default_config(), seed)
        for i in range(steps):
            if state.is_terminal():
                break
            if i % 7 == 0:
                yield state
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randbelow(len(legal))])
        yield state


def shares(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` share a mutable list anywhere inside."""
    if isinstance(a, list) and a is b:
        return True
    if isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):
        return any(shares(x, y) for x, y in zip(a, b, strict=True))
    return False


def p5_unseen(s: Any) -> list[Counter[int]]:
    """The cards of each P5 deck, in any order."""
    return [Counter(s.loc_deck), Counter(s.conf_deck), Counter(s.shadow_deck)]


def vs_unseen(s: Any) -> list[Counter[int]]:
    """Each VS player's cards in hand or deck, in any order."""
    return [Counter(s.hand[p] + s.deck[p]) for p in (0, 1)]


GAMES = [
    pytest.param(load_p5_game, P5_SHARED, P5_HIDDEN, p5_unseen, id="p5"),
    pytest.param(load_vs_game, VS_SHARED, VS_HIDDEN, vs_unseen, id="vs"),
]


@pytest.mark.parametrize(("load", "shared", "hidden", "unseen"), GAMES)
def test_every_field_survives_clone_json_and_view(
    load: Callable[[], Game[Any]],
    shared: set[str],
    hidden: set[str],
    unseen: Callable[[Any], list[Counter[int]]],
) -> None:
    game = load()
    seen = 0
    for state in states(game, range(6), 120):
        names = fields(type(state))
        copy = state.clone()
        back = game.state_from_json(state.to_json())
        for f in names:
            assert getattr(copy, f) == getattr(state, f), f"clone: {f}"
            if f not in shared:
                assert not shares(getattr(copy, f), getattr(state, f)), f"clone shares {f}"
            assert getattr(back, f) == getattr(state, f), f"to_json/state_from_json: {f}"
        player = max(state.current_player, 0)
        sampled: Any = game.determinize(state.view(player), player, Rng(seen))
        for f in names:
            if f in hidden:
                continue
            assert getattr(sampled, f) == getattr(state, f), f"view/determinize: {f}"
        # the hidden fields hold the same cards, in an order of their own
        assert unseen(sampled) == unseen(state)
        me = getattr(state, "hand", None)
        if me is not None:  # VS: the viewer's own hand is not sampled
            assert sampled.hand[player] == me[player]
        seen += 1
    assert seen >= 12
