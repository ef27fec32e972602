"""The hidden-information side of Persona VS: views and determinization.

A seat sees the public part of the state (``VsState.public_json``), its own hand,
the sizes of hands and decks, and a decklist only where it is public (a built-in
deck, or open decklists by config). :func:`determinize` rebuilds a full state from
one seat's view, sampling what that seat cannot see.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from velvet.engine.errors import RecordError
from velvet.engine.rng import Rng
from velvet.vs.state import MAX_COPIES, VsState
from velvet.vs.views import VsView

if TYPE_CHECKING:
    from velvet.vs.game import VsGame


def public_view(state: VsState) -> VsView:
    """What a spectator may see: no hand, and a decklist only where it is public."""
    seen = make_view(state, 0)
    if not state.open_lists[0]:
        seen["decklists"][0] = None
    seen["viewer"] = None
    seen["hand"] = []
    return seen


def make_view(state: VsState, player: int) -> VsView:
    """All that ``player`` may see: the public part, their own hand, and the sizes of the rest."""
    public = state.public_json()
    for p in (0, 1):
        if p != player and not state.open_lists[p]:
            public["decklists"][p] = None
    return {
        **public,
        "viewer": player,
        "hand": [state._game.ids[c] for c in state.hand[player]],
        "hand_sizes": [len(state.hand[0]), len(state.hand[1])],
        "deck_sizes": [len(state.deck[0]), len(state.deck[1])],
        "current_player": state.current_player,
    }


def determinize(game: VsGame, seen: VsView, player: int, rng: Rng) -> VsState:
    """Rebuild a state from ``player``'s view ``seen``, sampling the opponent hand and deck orders.

    A player's unseen cards are their decklist minus what the view shows, shuffled
    with ``rng``. A rival's private decklist (a custom deck) is not in the view: its
    unseen part is sampled from the card pool (:func:`_sample_unseen`).
    """
    if player not in (0, 1):
        raise RecordError(f"determinize: player must be 0 or 1, not {player!r}")
    if seen.get("viewer") != player:
        raise RecordError(f"determinize: this view belongs to player {seen.get('viewer')!r}")
    s = VsState.from_public_json(game, seen)
    ix = game.index
    s.hand[player] = [ix[x] for x in seen["hand"]]
    sizes = seen["hand_sizes"]
    for p in (0, 1):
        known: Counter[int] = Counter(s.disc[p])
        for st in s.field[p]:
            known.update(st)
        known.update(s.limbo(p))
        if p == player:
            known.update(s.hand[p])
        if seen["decklists"][p] is None:
            k = int(sizes[p]) + int(seen["deck_sizes"][p])
            unseen = _sample_unseen(s, p, known, k, rng)
            s.decklists = tuple(
                tuple(sorted([*known.elements(), *unseen])) if q == p else s.decklists[q]
                for q in (0, 1)
            )
        else:
            unseen = list((Counter(s.decklists[p]) - known).elements())
        rng.shuffle(unseen)
        if p != player:
            k = int(sizes[p])
            s.hand[p] = unseen[:k]
            unseen = unseen[k:]
        s.deck[p] = unseen
    s.rng = Rng(rng.randbelow(1 << 62))
    return s


def _sample_unseen(state: VsState, p: int, seen: Counter[int], k: int, rng: Rng) -> list[int]:
    """``k`` cards that could complete ``p``'s private deck around the ``seen`` ones.

    The deck holds its player card's starter and at most ``MAX_COPIES`` cards of a
    name (VS-DECK-1); every card of the pool is otherwise equally likely.
    """
    g = state._game
    name_of = g.name_of
    room = [MAX_COPIES] * len(g.names)
    for c, n in seen.items():
        room[name_of[c]] -= n
    out: list[int] = []
    starter = g.index.get(g.players[state.pcs[p]].starter, -1) if state.pcs[p] in g.players else -1
    if starter >= 0 and seen[starter] == 0 and k > 0:
        out.append(starter)
        room[name_of[starter]] -= 1
    tickets = [c for c in range(len(g.ids)) for _ in range(MAX_COPIES)]
    rng.shuffle(tickets)
    for c in tickets:
        if len(out) >= k:
            break
        if room[name_of[c]] > 0:
            room[name_of[c]] -= 1
            out.append(c)
    if len(out) < k:
        raise RecordError(f"determinize: the card pool cannot fill player {p + 1}'s deck")
    return out
