"""Fixed-size observation vectors of what one seat may see.

The encoding is defined on the JSON-able view the engine gives a seat
(``encode(view, seat)``), so an observation can never hold what that seat may not
see (principle 4). The adapters use the fast path ``encode_state(state, seat)``,
which reads the same information straight from the state's fields (only those the
view shows: :data:`VS_STATE_FIELDS`, :data:`P5_STATE_FIELDS`) and gives the same
vector, element for element (tests/adapters/test_encoding.py). Seats are relative:
block "me" is always the observing seat. docs/rl.md lists every block. Values are
scaled to roughly ``[0, 1]``; the layout depends only on the card set.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from mypy_extensions import mypyc_attr

from velvet.adapters._engine import (
    P5_PHASE_NAMES,
    VS_FRAME_NAMES,
    VS_SLOT_NAMES,
    VS_STEP_NAMES,
    ConfigError,
    Game,
    p5_card_ids,
    p5_describe_decision,
    vs_card_ids,
)

Vector = npt.NDArray[np.float32]

VS_STEPS = VS_STEP_NAMES
"""The turn's steps, in the engine's order (``velvet.vs.state.STEP_NAMES``)."""
VS_FRAMES = ("pay", "promote", "target", "discard", "search", "recover")
VS_SLOTS = ("m", "s1", "s2")
VS_SCALARS = 48
VS_SCALARS_USED = 18
"""Scalars in use at the head of the VS scalar block (then the step one-hot)."""
"""Width of the VS scalar block (the unused tail is zero, kept for later fields)."""

P5_PHASES = ("order", "main", "discover", "fight", "ending", "over", "after")
P5_DECISIONS = (
    *P5_PHASES,
    "enter_order",
    "stat",
    "allocate_any",
    "restore_mix",
    "party",
)
P5_RESOURCES = ("stamina", "sp", "bullet", "cash")
P5_STATS = ("knowledge", "guts", "proficiency", "compassion", "charm")
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
P5_STATE_FIELDS = (
    "n",
    "day",
    "phase",
    "turn",
    "result",
    "party_set",
    "dec",
    "thief",
    "persona",
    "stats",
    "fresh",
    "spent",
    "loc",
    "conf",
    "held",
    "drawn",
    "party",
    "taken",
    "grants",
    "used_day",
    "used_pal",
    "went",
    "supply",
    "locs",
    "loc_conf",
    "disc",
    "palace",
    "alert",
    "rev",
    "rem",
    "boss_rem",
    "loc_deck",  # sizes only, as the deck orders are hidden
    "conf_deck",
    "shadow_deck",
)
"""The P5 state fields ``encode_state`` reads (read-only), beside ``current_player``."""
P5_REVEALED = 4
"""Revealed palace shadows encoded one by one (more are summed into the last slot)."""


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


class _P5Track:
    """What :meth:`P5Encoder.encode_state` keeps for one seat (and number of players).

    ``memo`` holds, per player slot, eight entries (thief/persona/place, confidants,
    the held, drawn, party and taken shadows, the stats and tokens, the four counts)
    and, last, the board's seven (phase/decision/discovered/palace, locations, their
    confidants, revealed shadows, needs, flags, supply); each entry is ``[the part as
    last seen, the entries it wrote]`` (for the scalar parts and the needs, the second
    item is unused or what the boss still needs).
    """

    __slots__ = ("buf", "memo", "vector")

    def __init__(self, players: int, size: int) -> None:
        self.buf = array("f", bytes(4 * size))
        self.vector: Vector = np.frombuffer(self.buf, dtype=np.float32)
        self.memo: list[list[list[Any]]] = [[[None, []] for _ in range(8)] for _ in range(players)]
        self.memo.append([[None, []] for _ in range(4)] + [[None, None] for _ in range(3)])


def _ones(buf: array[float], entry: list[Any], part: Any, ones: list[int]) -> None:
    """Rewrite one part that is a set of ones: clear the old entries, set the new."""
    for i in entry[1]:
        buf[i] = 0.0
    for i in ones:
        buf[i] = 1.0
    entry[0] = part
    entry[1] = ones


def _write(buf: array[float], at: int, values: list[float]) -> None:
    """Write ``values`` into ``buf`` from ``at`` on."""
    for i, v in enumerate(values, at):
        buf[i] = v


def _counts(buf: array[float], entry: list[Any], part: Any, ones: list[int]) -> None:
    """Rewrite one part that counts (a shadow zone may hold a shadow twice)."""
    for i in entry[1]:
        buf[i] = 0.0
    for i in ones:
        buf[i] += 1.0
    entry[0] = part
    entry[1] = ones


class Encoder(Protocol):
    """Turns one seat's view into a vector of ``size`` float32."""

    size: int

    def encode(self, view: Mapping[str, Any], seat: int) -> Vector: ...

    def encode_state(self, state: Any, seat: int, into: Vector | None = None) -> Vector: ...


@mypyc_attr(native_class=False)  # compiled build: a __dict__, which __getstate__ copies
class VsEncoder:
    """Persona VS: scalars, then card-count blocks over the card set (see docs/rl.md)."""

    def __init__(self, game: Game[Any]) -> None:
        self.ids = vs_card_ids(game)
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
        self._slot_pos = [VS_SLOTS.index(name) for name in VS_SLOT_NAMES]
        self._frame_kind = {t: VS_FRAMES.index(name) for t, name in VS_FRAME_NAMES.items()}
        self._pay_frame: type = next(t for t, name in VS_FRAME_NAMES.items() if name == "pay")
        self._cost_at = VS_SCALARS_USED + len(VS_STEPS) + 7 + 7
        """The cost left of the card being paid for (0 when none is)."""
        if tuple(VS_STEPS) != tuple(VS_STEP_NAMES):
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


@mypyc_attr(native_class=False)  # compiled build: a __dict__, which __getstate__ copies
class P5Encoder:
    """The P5 board game (co-operative, open): every seat's thief, the board and the palace."""

    def __init__(self, game: Game[Any], players: int) -> None:
        ids = p5_card_ids(game)
        self.players = players
        self.ix = {kind: {c: i for i, c in enumerate(xs)} for kind, xs in ids.items()}
        self.counts = {kind: len(xs) for kind, xs in ids.items()}
        c = self.counts
        self.player_width = (
            c["thieves"]
            + c["personas"]
            + len(P5_STATS)
            + len(P5_RESOURCES)
            + 3
            + c["locations"]
            + 1
            + c["confidants"]
            + 4 * c["shadows"]
            + 4
        )
        self.board_width = (
            6
            + len(P5_PHASES)
            + len(P5_DECISIONS)
            + 1
            + len(P5_RESOURCES)
            + c["locations"]
            + c["confidants"]
            + c["locations"]
            + c["palaces"]
            + 1
            + c["shadows"]
            + P5_REVEALED * len(P5_RESOURCES)
            + 1
            + len(P5_RESOURCES)
            + 3
        )
        self.size = players * self.player_width + self.board_width
        self._phase_name = tuple(P5_PHASE_NAMES)
        self._tokens = len(P5_STATS) + len(P5_RESOURCES) + 3
        """Per player slot: stats, fresh tokens and spent ones, after thief and persona."""
        at = self.players * self.player_width + 6 + len(P5_PHASES) + len(P5_DECISIONS) + 1
        self._board_places = at + len(P5_RESOURCES)
        """Where the board's location block starts (then its confidants, the discovered
        place and the palace)."""
        self._board_shadows = (
            self._board_places + 2 * c["locations"] + c["confidants"] + c["palaces"] + 1
        )
        """Where the revealed shadows' block starts (then what they need, then the boss)."""
        self._tracks: dict[tuple[int, int], _P5Track] = {}
        if set(self._phase_name) != set(P5_PHASES):
            raise ValueError("the P5 phase names changed: the observation layout needs a look")

    def __getstate__(self) -> dict[str, Any]:
        """Copies and pickles start without the kept vectors (as :class:`VsEncoder`)."""
        state = self.__dict__.copy()
        state["_tracks"] = {}
        return state

    def _player(self, out: Vector, at: int, p: Mapping[str, Any]) -> None:
        ix, c = self.ix, self.counts
        out[at + ix["thieves"][p["thief"]]] = 1.0
        at += c["thieves"]
        out[at + ix["personas"][p["persona"]]] = 1.0
        at += c["personas"]
        for k, stat in enumerate(P5_STATS):
            out[at + k] = p["stats"][stat] / 10.0
        at += len(P5_STATS)
        for k, res in enumerate(P5_RESOURCES):
            out[at + k] = p["fresh"][res] / 10.0
        at += len(P5_RESOURCES)
        for k, res in enumerate(P5_RESOURCES[:3]):
            out[at + k] = p["spent"][res] / 10.0
        at += 3
        loc = ix["locations"].get(p["location"])
        out[at + (loc if loc is not None else c["locations"])] = 1.0
        at += c["locations"] + 1
        for conf in p["confidants"]:
            out[at + ix["confidants"][conf]] = 1.0
        at += c["confidants"]
        for zone in ("held", "drawn", "party", "taken"):
            for sh in p[zone]:
                out[at + ix["shadows"][sh]] += 1.0
            at += c["shadows"]
        out[at] = len(p["grants"]) / 4.0
        out[at + 1] = len(p["used_day"]) / 4.0
        out[at + 2] = len(p["used_palace"]) / 4.0
        out[at + 3] = 1.0 if p["went"] else 0.0

    def encode(self, view: Mapping[str, Any], seat: int) -> Vector:
        out = np.zeros(self.size, dtype=np.float32)
        players: Sequence[Mapping[str, Any]] = view["players"]
        order = [seat, *(p for p in range(len(players)) if p != seat)]
        for slot, p in enumerate(order[: self.players]):
            self._player(out, slot * self.player_width, players[p])
        ix, c = self.ix, self.counts
        at = self.players * self.player_width
        decision = view["decision"]
        out[at : at + 6] = [
            view["day"] / max(1, view["days"]),
            1.0 if view["turn"] == seat else 0.0,
            1.0 if decision.get("player") == seat else 0.0,
            float(view["result"] > 0),
            float(view["result"] < 0),
            1.0 if view["party_set"] else 0.0,
        ]
        at += 6
        out[at + P5_PHASES.index(view["phase"])] = 1.0
        at += len(P5_PHASES)
        kind = decision["kind"]
        out[at + (P5_DECISIONS.index(kind) if kind in P5_DECISIONS else len(P5_DECISIONS))] = 1.0
        at += len(P5_DECISIONS) + 1
        for k, res in enumerate(P5_RESOURCES):
            out[at + k] = view["supply"][res] / 20.0
        at += len(P5_RESOURCES)
        for place in view["locations"]:
            out[at + ix["locations"][place["id"]]] = 1.0
            if place["confidant"] is not None:
                out[at + c["locations"] + ix["confidants"][place["confidant"]]] = 1.0
        at += c["locations"] + c["confidants"]
        if view["discovered"] is not None:
            out[at + ix["locations"][view["discovered"]]] = 1.0
        at += c["locations"]
        palace = view["palace"]
        out[at + ix["palaces"][palace["id"]]] = 1.0
        at += c["palaces"]
        out[at] = palace["alert"] / 100.0
        at += 1
        for k, shadow in enumerate(palace["shadows"]):
            out[at + ix["shadows"][shadow["id"]]] = 1.0
            slot = at + c["shadows"] + min(k, P5_REVEALED - 1) * len(P5_RESOURCES)
            for r, res in enumerate(P5_RESOURCES):
                out[slot + r] += shadow["remaining"][res] / 10.0
        at += c["shadows"] + P5_REVEALED * len(P5_RESOURCES)
        boss = palace["boss"]
        if boss is not None:
            out[at] = 1.0
            for r, res in enumerate(P5_RESOURCES):
                out[at + 1 + r] = boss[res] / 10.0
        at += 1 + len(P5_RESOURCES)
        decks = view["decks"]
        out[at : at + 3] = [
            decks["locations"] / 20.0,
            decks["confidants"] / 20.0,
            decks["shadows"] / 40.0,
        ]
        return out

    def encode_state(self, state: Any, seat: int, into: Vector | None = None) -> Vector:
        """``encode(state.view(seat), seat)``, read straight from the state's fields
        (written into ``into`` and returned, if given: the vector env's batch row).

        The same vector (tests/adapters/test_encoding.py checks it over many random
        positions, in play order and out of it) without building the view first; it
        reads :data:`P5_STATE_FIELDS`, none of them hidden (the view hides only deck
        orders, and reads their sizes).

        How: incrementally, as the VS encoder does. For each seat the encoder keeps the
        last vector it gave and the parts of the state it was made from: each player's
        thief, persona and place, confidants and four shadow zones; the phase and
        decision; the board's locations, confidants, discovered place and palace; the
        revealed shadows with what they and the boss still need; the scalars (stats,
        tokens, counts, flags, supply). A part that differs is rewritten (the one-hot
        and count entries are small integers, exact in float32; a scalar is written as
        numpy would write it); the alert and deck sizes are written each time; then
        the vector is copied.
        """
        s = state
        n = s.n
        if not 0 <= seat < n:
            raise ConfigError(f"no player {seat}: players are 0..{n - 1}")
        t = self._tracks.get((seat, n))
        if t is None:
            t = self._tracks[(seat, n)] = _P5Track(self.players, self.size)
        buf = t.buf
        memo = t.memo
        c = self.counts
        n_loc = c["locations"]
        n_sh = c["shadows"]
        pw = self.player_width
        order = [seat, *(p for p in range(n) if p != seat)]
        thief, persona, loc = s.thief, s.persona, s.loc
        stats, fresh, spent = s.stats, s.fresh, s.spent
        grants, used_day, used_pal, went = s.grants, s.used_day, s.used_pal, s.went
        for slot, p in enumerate(order[: self.players]):
            at = slot * pw
            m = memo[slot]
            where = loc[p]
            key = (thief[p], persona[p], where)
            e = m[0]
            if key != e[0]:
                at_loc = at + c["thieves"] + c["personas"] + self._tokens
                _ones(
                    buf,
                    e,
                    key,
                    [
                        at + key[0],
                        at + c["thieves"] + key[1],
                        at_loc
                        + (where if where >= 0 else n_loc),  # off the board, or in the palace
                    ],
                )
            at += c["thieves"] + c["personas"] + self._tokens + n_loc + 1
            conf = s.conf[p]
            e = m[1]
            if conf != e[0]:
                _ones(buf, e, conf[:], [at + x for x in conf])
            at += c["confidants"]
            for e, zone in zip(
                m[2:6], (s.held[p], s.drawn[p], s.party[p], s.taken[p]), strict=True
            ):  # the four shadow zones, one count per shadow each
                if zone != e[0]:
                    _counts(buf, e, zone[:], [at + x for x in zone])
                at += n_sh
            # The scalars: stats, fresh tokens, spent ones, then four counts.
            at = slot * pw + c["thieves"] + c["personas"]
            e = m[6]
            tokens = (stats[p], fresh[p], spent[p])
            if tokens != e[0]:
                sp = spent[p]
                _write(
                    buf,
                    at,
                    [
                        *(v / 10.0 for v in stats[p]),
                        *(v / 10.0 for v in fresh[p]),
                        sp[0] / 10.0,
                        sp[1] / 10.0,
                        sp[2] / 10.0,
                    ],
                )
                e[0] = (stats[p][:], fresh[p][:], sp[:])
            e = m[7]
            counts = (len(grants[p]), len(used_day[p]), len(used_pal[p]), went[p])
            if counts != e[0]:
                _write(
                    buf,
                    at + self._tokens + n_loc + 1 + c["confidants"] + 4 * n_sh,
                    [
                        counts[0] / 4.0,
                        counts[1] / 4.0,
                        counts[2] / 4.0,
                        1.0 if counts[3] else 0.0,
                    ],
                )
                e[0] = counts
        at = self.players * pw
        phase = self._phase_name[s.phase]
        if phase == "over":
            kind, decider = "over", None
        elif not s.dec:
            kind, decider = phase, s.current_player
        else:
            decision = p5_describe_decision(s)
            kind, decider = decision["kind"], decision.get("player")
        result = s.result
        board = memo[-1]
        flags = (s.day, s.turn == seat, decider == seat, result, s.party_set)
        e = board[5]
        if flags != e[0]:
            _write(
                buf,
                at,
                [
                    s.day / max(1, s.game.days),
                    1.0 if flags[1] else 0.0,
                    1.0 if flags[2] else 0.0,
                    float(result > 0),
                    float(result < 0),
                    1.0 if s.party_set else 0.0,
                ],
            )
            e[0] = flags
        at += 6
        where_now = (phase, kind, s.disc, s.palace)
        e = board[0]
        if where_now != e[0]:
            phase_at = at
            kind_at = phase_at + len(P5_PHASES)
            disc_at = self._board_places + n_loc + c["confidants"]
            ones = [
                phase_at + P5_PHASES.index(phase),
                kind_at + (P5_DECISIONS.index(kind) if kind in P5_DECISIONS else len(P5_DECISIONS)),
                disc_at + n_loc + s.palace,
            ]
            if s.disc >= 0:
                ones.append(disc_at + s.disc)
            _ones(buf, e, where_now, ones)
        supply = s.supply
        e = board[6]
        if supply != e[0]:
            _write(buf, self._board_places - len(P5_RESOURCES), [v / 20.0 for v in supply])
            e[0] = supply[:]
        at = self._board_places
        locs = s.locs
        e = board[1]
        if locs != e[0]:
            _ones(buf, e, locs[:], [at + place for place in locs])
        loc_conf = s.loc_conf
        e = board[2]
        if loc_conf != e[0]:
            conf_at = at + n_loc
            _ones(buf, e, loc_conf[:], [conf_at + x for x in loc_conf if x >= 0])
        at = self._board_shadows
        buf[at - 1] = s.alert * 25 / 100.0
        rev = s.rev
        e = board[3]
        if rev != e[0]:
            _ones(buf, e, rev[:], [at + shadow for shadow in rev])
        rem, boss = s.rem, s.boss_rem
        e = board[4]
        if rem != e[0] or boss != e[1]:
            self._needs(t.vector, len(rev), rem, boss)
            e[0] = [need[:] for need in rem]
            e[1] = boss[:]
        at = self.size - 3
        buf[at] = len(s.loc_deck) / 20.0
        buf[at + 1] = len(s.conf_deck) / 20.0
        buf[at + 2] = len(s.shadow_deck) / 40.0
        if into is None:
            return t.vector.copy()
        into[:] = t.vector
        return into

    def _needs(self, out: Vector, revealed: int, rem: Any, boss: Any) -> None:
        """Write what the revealed shadows (``rem``) and the boss still need into ``out``."""
        res = len(P5_RESOURCES)
        need_at = self._board_shadows + self.counts["shadows"]
        boss_at = need_at + P5_REVEALED * res
        out[need_at : boss_at + 1 + res] = 0.0
        head = min(revealed, P5_REVEALED - 1)
        if head:
            out[need_at : need_at + head * res] = [v / 10.0 for need in rem[:head] for v in need]
        if revealed >= P5_REVEALED:  # the last slot sums the rest, in float32 as encode does
            slot = need_at + (P5_REVEALED - 1) * res
            acc = out[slot : slot + res]
            for need in rem[P5_REVEALED - 1 :]:
                acc += np.array([v / 10.0 for v in need], np.float32)
        if boss:
            out[boss_at : boss_at + 1 + res] = [1.0, *(v / 10.0 for v in boss)]


def encoder_for(game: Game[Any], players: int = 2) -> VsEncoder | P5Encoder:
    """The encoder of ``game`` ("vs", or "p5" with ``players`` seats)."""
    if game.name == "vs":
        return VsEncoder(game)
    if game.name == "p5":
        return P5Encoder(game, players)
    raise ValueError(f"no observation encoder for game '{game.name}'")
