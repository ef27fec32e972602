"""The observation encoder of Persona VS for the RL adapters (``GameSpec.encoder``).

The encoding is defined on the JSON-able view the engine gives a seat
(``encode(view, seat)``), so an observation can never hold what that seat may not
see (principle 4). ``encode_state(state, seat)`` is the adapters' fast path: it reads
the same information straight from the state's fields (only those the view shows:
:data:`VS_STATE_FIELDS`) and gives the same vector, element for element
(tests/adapters/test_encoding.py). Seats are relative: block "me" is always the
observing seat. docs/rl.md lists every block. Values are scaled to roughly ``[0, 1]``;
the layout depends only on the card set.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from mypy_extensions import mypyc_attr

from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.vs.actions import SLOT_NAMES
from velvet.vs.game import VsGame
from velvet.vs.state import FRAME_NAMES, STEP_NAMES

Vector = npt.NDArray[np.float32]
"""An observation (``velvet.adapters.encoding.Vector``)."""

VS_STEPS = STEP_NAMES
"""The turn's steps, in the engine's order (``velvet.vs.state.STEP_NAMES``)."""
VS_FRAMES = ("pay", "promote", "target", "discard", "search", "recover")
VS_SLOTS = ("m", "s1", "s2")
VS_SCALARS = 48
"""Width of the VS scalar block (the unused tail is zero, kept for later fields)."""
VS_SCALARS_USED = 18
"""Scalars in use at the head of the VS scalar block (then the step one-hot)."""
VS_STATE_FIELDS = (
    "hp",
    "turn",
    "turn_no",
    "step",
    "more_used",
    "more_pending",
    "negated",
    "dmg",
    "rmods",
    "tmods",
    "mods",
    "effq",
    "frames",
    "sk_c",
    "sk_k",
    "sk_slot",
    "disc",
    "field",
    "decklists",
    "open_lists",
    "hand",  # the seat's own hand; of the other only its size
    "deck",  # sizes only
)
"""The VS state fields ``encode_state`` reads (read-only), beside ``current_player``."""


class _VsTrack:
    """What :meth:`VsEncoder.encode_state` keeps for one seat: the last vector it gave,
    and the parts of the state it was made from."""

    __slots__ = (
        "base",
        "buf",
        "decklists",
        "disc",
        "field",
        "hand",
        "open_lists",
        "skill",
        "skill_at",
        "stack",
        "step",
        "taken",
        "top",
        "top_at",
        "unseen_at",
        "vector",
    )

    def __init__(
        self,
        decklists: tuple[tuple[int, ...], ...],
        open_lists: tuple[bool, ...],
        buf: array[float],
        base: list[list[int]],
        unseen_at: list[int],
    ) -> None:
        self.decklists = decklists
        self.open_lists = open_lists
        self.buf = buf
        """The vector's entries past the scalars (those are written on each copy)."""
        self.vector: Vector = np.frombuffer(buf, dtype=np.float32)
        """``buf`` seen as numpy (the same memory): copied on each call."""
        self.base = base
        """By player: copies of each card in the decklist (zero if private to this seat)."""
        self.unseen_at = unseen_at
        """By player: where its unseen block starts, for this seat."""
        n = len(base[0])
        self.taken = [[0] * n, [0] * n]
        """By player: copies of each card out in the open (hand, piles, field, stack)."""
        self.step = 0
        self.skill = (-1, -1, -1)
        self.skill_at: list[int] = []
        self.top: Any = None
        self.top_at: list[int] = []
        self.stack: list[tuple[int, int]] = []
        self.hand: list[int] = []
        self.disc: list[list[int]] = [[], []]
        self.field: list[list[tuple[int, ...]]] = [[(), (), ()], [(), (), ()]]


def _take(buf: array[float], taken: list[int], base: list[int], at: int, cards: Any) -> None:
    """``cards`` of one player are out in the open now: less unseen of each (not below 0)."""
    for c in cards:
        k = taken[c] = taken[c] + 1
        if k <= base[c]:
            buf[at + c] -= 0.5


def _give(buf: array[float], taken: list[int], base: list[int], at: int, cards: Any) -> None:
    """``cards`` of one player are no longer out in the open: :func:`_take` undone."""
    for c in cards:
        k = taken[c]
        taken[c] = k - 1
        if k <= base[c]:
            buf[at + c] += 0.5


@mypyc_attr(native_class=False)  # compiled build: a __dict__, which __getstate__ copies
class VsEncoder:
    """Persona VS: scalars, then card-count blocks over the card set (see docs/rl.md)."""

    def __init__(self, game: Game[Any], players: int = 2) -> None:
        if players != 2:
            raise ConfigError(f"Persona VS is played by 2 players, not {players}")
        self.ids = _vs_game(game).ids
        self.index = {c: i for i, c in enumerate(self.ids)}
        n = self.n = len(self.ids)
        self.blocks = (
            ("scalars", VS_SCALARS),
            ("my_hand", n),
            ("my_unseen", n),
            ("opponent_unseen", n),
            ("my_discard", n),
            ("opponent_discard", n),
            ("my_field_tops", 3 * n),
            ("opponent_field_tops", 3 * n),
            ("skill_card", n),
            ("paying_card", n),
        )
        offsets: dict[str, int] = {}
        at = 0
        for name, width in self.blocks:
            offsets[name] = at
            at += width
        self.offsets = offsets
        self.size = at
        self._decklists: dict[tuple[str, ...], npt.NDArray[np.int64]] = {}
        self._tracks: list[_VsTrack | None] = [None, None]
        self._skill_at = offsets["skill_card"]
        self._paying_at = offsets["paying_card"]
        self._hand_at = offsets["my_hand"]
        self._unseen_at = offsets["my_unseen"]
        if offsets["opponent_unseen"] != self._unseen_at + n:
            raise ValueError("the two unseen blocks must be side by side")
        self._discard_at = (offsets["my_discard"], offsets["opponent_discard"])
        self._field_at = (offsets["my_field_tops"], offsets["opponent_field_tops"])
        # The state's own numbering, mapped onto this layout (fast path).
        self._slot_pos = [VS_SLOTS.index(name) for name in SLOT_NAMES]
        self._frame_kind = {t: VS_FRAMES.index(name) for t, name in FRAME_NAMES.items()}
        self._pay_frame: type = next(t for t, name in FRAME_NAMES.items() if name == "pay")
        self._cost_at = VS_SCALARS_USED + len(VS_STEPS) + 7 + 7
        """The cost left of the card being paid for (0 when none is)."""
        if tuple(VS_STEPS) != tuple(STEP_NAMES):
            raise ValueError("the VS step names changed: the observation layout needs a look")

    def __getstate__(self) -> dict[str, Any]:
        """Copies and pickles start without the kept vectors (a copied numpy view would
        no longer share the kept buffer's memory)."""
        state = self.__dict__.copy()
        state["_tracks"] = [None, None]
        return state

    def _decklist_counts(self, decklist: Sequence[str]) -> npt.NDArray[np.int64]:
        key = tuple(decklist)
        counts = self._decklists.get(key)
        if counts is None:
            ix = self.index
            counts = np.bincount([ix[c] for c in key], minlength=self.n)
            self._decklists[key] = counts
        return counts

    def encode(self, view: Mapping[str, Any], seat: int) -> Vector:
        ix = self.index
        n = self.n
        off = self.offsets
        me, opp = seat, 1 - seat
        hp = view["hp"]
        hands = view["hand_sizes"]
        decks = view["deck_sizes"]
        frames = view["frames"]
        values = [
            max(hp[me], 0) / 30.0,
            max(hp[opp], 0) / 30.0,
            hands[me] / 10.0,
            hands[opp] / 10.0,
            decks[me] / 40.0,
            decks[opp] / 40.0,
            1.0 if view["turn"] == me else 0.0,
            view["turn_no"] / 200.0,
            1.0 if view["current_player"] == me else 0.0,
            1.0 if view["more_used"] else 0.0,
            1.0 if view["more_pending"] else 0.0,
            1.0 if view["negated"] else 0.0,
            view["dmg"] / 30.0,
            len(view["rmods"]) / 4.0,
            len(view["tmods"]) / 4.0,
            len(view["mods"]) / 4.0,
            len(view["effq"]) / 4.0,
            len(frames) / 4.0,
        ]
        at = len(values)
        index = list(range(at))
        index.append(at + VS_STEPS.index(view["step"]))
        values.append(1.0)
        at += len(VS_STEPS)
        skill = view["skill"]
        if skill is not None:
            index += [
                at,
                at + 1 + VS_SLOTS.index(skill[0]),
                at + 4 + min(int(skill[2]), 2),
                off["skill_card"] + ix[skill[1]],
            ]
            values += [1.0, 1.0, 1.0, 1.0]
        at += 7
        # Cards each seat has in the open; the rest of its decklist (public) is "unseen".
        seen: tuple[list[int], list[int]] = ([], [])
        if frames:
            top = frames[-1]
            index += [at + VS_FRAMES.index(top[0]), at + 6]
            values += [1.0, 1.0 if top[1] == me else 0.0]
            if top[0] == "pay":
                index += [at + 7, off["paying_card"] + ix[top[2]]]
                values += [float(top[4]) / 5.0, 1.0]
            for fr in frames:
                if fr[0] == "pay":
                    seen[fr[1]].append(ix[fr[2]])
        for p, e, _ctx, card in view["effq"]:  # the view of velvet.vs.state.Work
            if e < 0:
                seen[p].append(ix[card])
        mine = [ix[c] for c in view["hand"]]
        seen[me].extend(mine)
        base = off["my_hand"]
        index += [base + i for i in mine]
        values += [0.5] * len(mine)
        for p, name in ((me, "my_discard"), (opp, "opponent_discard")):
            pile = [ix[c] for c in view["discard"][p]]
            seen[p].extend(pile)
            base = off[name]
            index += [base + i for i in pile]
            values += [0.5] * len(pile)
        for p, name in ((me, "my_field_tops"), (opp, "opponent_field_tops")):
            base = off[name]
            for slot, stack in enumerate(view["field"][p]):
                if stack:
                    cards = [ix[c] for c in stack]
                    seen[p].extend(cards)
                    index.append(base + slot * n + cards[-1])
                    values.append(1.0)
        out = np.bincount(index, weights=values, minlength=self.size).astype(np.float32)
        decklists = view["decklists"]
        for p, name in ((me, "my_unseen"), (opp, "opponent_unseen")):
            if decklists[p] is None:  # a private decklist: nothing is known of the rest
                continue
            unseen = self._decklist_counts(decklists[p]) - np.bincount(seen[p], minlength=n)
            base = off[name]
            out[base : base + n] = np.maximum(unseen, 0) * 0.5
        return out

    def encode_state(self, state: Any, seat: int, into: Vector | None = None) -> Vector:
        """``encode(state.view(seat), seat)``, read straight from the state's fields
        (written into ``into`` and returned, if given: the vector env's batch row).

        The same vector, element for element (tests/adapters/test_encoding.py checks
        it over many random positions, in play order and out of it), without building
        the view's JSON first. It reads only what ``view(seat)`` shows:
        :data:`VS_STATE_FIELDS`, and of the hands only the seat's own (and the size of
        the other).

        How: incrementally. For each seat the encoder keeps the last vector it gave (in
        a float32 ``array``, whose items Python writes cheaply) and the parts of the
        state it was made from: the step, the declared skill, the top frame, the cards
        on the stack, the seat's hand, each discard pile and each field. A call compares
        those parts with the state's and rewrites only the entries of the parts that
        changed (the entries of the card blocks are halves and ones, so adding and
        taking them away in float32 is exact), copies the vector and writes the
        scalars. Any state may come, in any order: whatever differs is rewritten.
        """
        s = state
        decklists = s.decklists
        t = self._tracks[seat]
        if t is None or t.decklists is not decklists or t.open_lists != s.open_lists:
            t = self._tracks[seat] = self._new_track(decklists, s.open_lists, seat)
        buf = t.buf
        taken = t.taken
        base = t.base
        u_at = t.unseen_at
        me, opp = seat, 1 - seat
        frames = s.frames
        effq = s.effq
        step = s.step
        if step != t.step:
            buf[VS_SCALARS_USED + t.step] = 0.0
            buf[VS_SCALARS_USED + step] = 1.0
            t.step = step
        skill = (s.sk_c, s.sk_slot, s.sk_k)
        if skill != t.skill:
            for i in t.skill_at:
                buf[i] = 0.0
            t.skill_at = self._skill_entries(skill)
            for i in t.skill_at:
                buf[i] = 1.0
            t.skill = skill
        top = frames[-1] if frames else None
        if top != t.top or type(top) is not type(t.top):  # two frame kinds may be equal tuples
            for i in t.top_at:
                buf[i] = 0.0
            t.top_at = self._frame_entries(top, me)
            for i in t.top_at:
                buf[i] = 1.0
            if type(top) is self._pay_frame:
                buf[self._cost_at] = float(top[3]) / 5.0  # type: ignore[index]
            t.top = top
        # Cards taken from a seat's unseen block while on the stack: paid-for cards in
        # every frame, and the cards of queued effects that go to the discard pile.
        pay: Any = self._pay_frame
        stack = [(fr[0], fr[1]) for fr in frames if type(fr) is pay] if frames else []
        if effq:
            stack += [(w[0], w[3]) for w in effq if w[1] < 0]
        if stack != t.stack:
            for p, c in t.stack:
                _give(buf, taken[p], base[p], u_at[p], (c,))
            for p, c in stack:
                _take(buf, taken[p], base[p], u_at[p], (c,))
            t.stack = stack
        # My hand: a half a copy, and taken from my unseen block.
        mine = s.hand[me]
        old = t.hand
        if mine != old:
            gone = old[:]
            come = []
            for c in mine:
                if c in gone:
                    gone.remove(c)
                else:
                    come.append(c)
            at = self._hand_at
            for c in gone:
                buf[at + c] -= 0.5
            for c in come:
                buf[at + c] += 0.5
            _give(buf, taken[me], base[me], u_at[me], gone)
            _take(buf, taken[me], base[me], u_at[me], come)
            t.hand = mine[:]
        n = self.n
        disc = s.disc
        field = s.field
        for p, d_at, f_at in (
            (me, self._discard_at[0], self._field_at[0]),
            (opp, self._discard_at[1], self._field_at[1]),
        ):
            pile = disc[p]
            old = t.disc[p]
            if pile != old:
                k = len(old)
                if len(pile) > k and pile[:k] == old:  # cards put on top: only those
                    new = pile[k:]
                else:
                    for c in old:
                        buf[d_at + c] -= 0.5
                    _give(buf, taken[p], base[p], u_at[p], old)
                    new = pile
                for c in new:
                    buf[d_at + c] += 0.5
                _take(buf, taken[p], base[p], u_at[p], new)
                t.disc[p] = pile[:]
            slots = field[p]
            old_slots = t.field[p]
            if slots != old_slots:
                for k, (was, now) in enumerate(zip(old_slots, slots, strict=True)):
                    if was == now:
                        continue
                    if was:
                        buf[f_at + k * n + was[-1]] = 0.0
                        _give(buf, taken[p], base[p], u_at[p], was)
                    if now:
                        buf[f_at + k * n + now[-1]] = 1.0
                        _take(buf, taken[p], base[p], u_at[p], now)
                t.field[p] = slots[:]
        if into is None:
            out = t.vector.copy()
        else:
            out = into
            out[:] = t.vector
        hp = s.hp
        hand = s.hand
        deck = s.deck
        hp_me, hp_opp = hp[me], hp[opp]
        out[:VS_SCALARS_USED] = [
            (hp_me if hp_me > 0 else 0) / 30.0,
            (hp_opp if hp_opp > 0 else 0) / 30.0,
            len(mine) / 10.0,
            len(hand[opp]) / 10.0,
            len(deck[me]) / 40.0,
            len(deck[opp]) / 40.0,
            1.0 if s.turn == me else 0.0,
            s.turn_no / 200.0,
            1.0 if s.current_player == me else 0.0,
            1.0 if s.more_used else 0.0,
            1.0 if s.more_pending else 0.0,
            1.0 if s.negated else 0.0,
            s.dmg / 30.0,
            len(s.rmods) / 4.0,
            len(s.tmods) / 4.0,
            len(s.mods) / 4.0,
            len(effq) / 4.0,
            len(frames) / 4.0,
        ]
        return out

    def _skill_entries(self, skill: tuple[int, int, int]) -> list[int]:
        """Where a declared skill (card, slot, kind; card -1: none) puts a 1."""
        card, slot, k = skill
        if card < 0:
            return []
        at = VS_SCALARS_USED + len(VS_STEPS)
        return [
            at,
            at + 1 + self._slot_pos[slot],
            at + 4 + (k if k < 2 else 2),
            self._skill_at + card,
        ]

    def _frame_entries(self, top: Any, me: int) -> list[int]:
        """Where the top frame (None: no frame) puts a 1; with a cost being paid, also
        the entry of the cost left (the caller writes it after the ones)."""
        if top is None:
            return []
        at = VS_SCALARS_USED + len(VS_STEPS) + 7
        kind = self._frame_kind[type(top)]
        ones = [at + kind]
        if top[0] == me:
            ones.append(at + 6)
        if kind == 0:  # a cost being paid: (player, card, mask, left, extra)
            ones += [self._paying_at + top[1], self._cost_at]
        return ones

    def _new_track(
        self, decklists: tuple[tuple[int, ...], ...], open_lists: tuple[bool, ...], seat: int
    ) -> _VsTrack:
        """A seat's kept vector for a game with these decklists, as if every part were
        empty: the unseen blocks hold the decklists' counts (zero for a private one)."""
        n = self.n
        bases = [[0] * n, [0] * n]
        for p in (seat, 1 - seat):
            if p == seat or open_lists[p]:
                for c in decklists[p]:
                    bases[p][c] += 1
        unseen_at = [0, 0]
        unseen_at[seat] = self.offsets["my_unseen"]
        unseen_at[1 - seat] = self.offsets["opponent_unseen"]
        buf = array("f", bytes(4 * self.size))
        buf[VS_SCALARS_USED] = 1.0  # the first step (the track's ``step`` is 0)
        for p in (0, 1):
            for c, count in enumerate(bases[p]):
                buf[unseen_at[p] + c] = count * 0.5
        return _VsTrack(decklists, open_lists, buf, bases, unseen_at)


def _vs_game(game: Game[Any]) -> VsGame:
    if not isinstance(game, VsGame):
        raise TypeError(f"the VS encoder encodes Persona VS, not game '{game.name}'")
    return game


def hp_potential(state: Any, seat: int) -> float:
    """The reward shaping's potential of docs/rl.md: ``seat``'s HP lead over the rival,
    in HP / 30 (``GameSpec.shaping``; the state's ``hp`` is public in every view)."""
    hp: list[int] = state.hp
    return float(hp[seat] - hp[1 - seat]) / 30.0
