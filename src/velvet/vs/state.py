"""One match of Persona VS: plain data plus the rules that change it.

Cards are small ints (indexes into the game's tables). Each player's field
is three slots (0 = main, 1 and 2 = subs), each a tuple of cards from the
bottom of a fusion stack to its top (empty = free). Pending decisions are
``frames`` (tuples, top last); queued effects wait in ``effq``. The turn's
step machine runs in :meth:`VsState._advance` whenever nothing is pending.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, NamedTuple, Self

from velvet.engine.core import TERMINAL, Event, State
from velvet.engine.errors import IllegalActionError, RecordError
from velvet.engine.rng import Rng
from velvet.vs import actions as A
from velvet.vs.cards import DAMAGE_TYPES, HP_START, LOWHP
from velvet.vs.game import (
    ANY_KIND,
    DECLARATION,
    MAX_COPIES,
    MODE_ADD,
    MODE_MUL,
    MODES,
    OP_BOUNCE,
    OP_DAMAGE,
    OP_DESTROY,
    OP_DISCARD,
    OP_DISCARD_RANDOM,
    OP_DRAW,
    OP_HEAL,
    OP_MODIFY,
    OP_NEGATE,
    OP_RECOVER,
    OP_SEARCH,
    OP_SWAP,
    OPS,
    PERSONA,
    REACT,
    RESOLUTION,
    SLOT_MAIN,
    SLOT_SUB,
    SUPPORT,
    WHO_SELF,
    VsGame,
)
from velvet.vs.views import VsPublic, VsView

HAND_SIZE = 5
TURN_CAP = 200
"""Ruling (docs/vs-rules.md, VS-END-2): after this many turns the game is a draw."""

# Steps of a turn.
PLAN, DECLARE, REACT1, RESOLVE, ORDER, REACT2, ENDSKILL, OVER = range(8)
STEP_NAMES = (
    "planning",
    "declare",
    "react-declaration",
    "resolve",
    "order",
    "react-resolution",
    "end-skill",
    "over",
)
# Effect contexts: where a queued effect came from.
CTX_PLAIN, CTX_REACT, CTX_SUPPORT = range(3)
DRAW_RESULT = 2
"""``winner`` of a game ended by the turn cap."""

Stack = tuple[int, ...]
Mod = tuple[int, int]
"""A damage modifier: (mode, amount); equal pairs are interchangeable (VS-SKILL-3)."""
SrcMod = tuple[int, int, int]
"""(mode, amount, card number of the Support or React that made it)."""


class Work(NamedTuple):
    """A queued effect; ``effect`` -1 means "``card`` now goes to the discard pile"."""

    player: int
    effect: int
    ctx: int
    card: int


# Pending decisions (``frames``), one small class per kind; ``player`` decides.


class PayFrame(NamedTuple):
    """A cost being paid for ``card`` (VS-SUMMON-1, VS-RULE-ULT)."""

    player: int
    card: int
    mask: int
    """The fusion's material slots as a bit mask; -1 for a summon."""
    left: int
    """Units of the cost still to pay."""
    extra: int
    """Name number of the ultimate's named card still owed, or -1."""


class PromoteFrame(NamedTuple):
    """A sub must become the new main (VS-RULE-LOSEMAIN)."""

    player: int


class TargetFrame(NamedTuple):
    """Choose a persona of ``target`` for effect ``op`` (bounce, destroy, swap)."""

    player: int
    op: int
    target: int
    slot: int


class DiscardFrame(NamedTuple):
    """Discard ``left`` more cards of your choice."""

    player: int
    left: int


class SearchFrame(NamedTuple):
    """Take a card of ``kind`` from your deck."""

    player: int
    kind: int


class RecoverFrame(NamedTuple):
    """Take a card of ``kind`` from your discard pile."""

    player: int
    kind: int


Frame = PayFrame | PromoteFrame | TargetFrame | DiscardFrame | SearchFrame | RecoverFrame
FRAME_NAMES: dict[type, str] = {
    PayFrame: "pay",
    PromoteFrame: "promote",
    TargetFrame: "target",
    DiscardFrame: "discard",
    SearchFrame: "search",
    RecoverFrame: "recover",
}
FRAME_TYPES: dict[str, type] = {name: t for t, name in FRAME_NAMES.items()}


def apply_mod(dmg: int, mode: int, amount: int) -> int:
    """One damage modifier; damage never goes below 0."""
    if mode == MODE_ADD:
        dmg += amount
    elif mode == MODE_MUL:
        dmg *= amount
    else:
        dmg //= 2
    return dmg if dmg > 0 else 0


def order_matters(dmg: int, mods: list[Mod]) -> bool:
    """Whether the turn player's ordering could change the result (VS-SKILL-3)."""
    if len(set(mods)) <= 1:
        return False
    if all(m == MODE_ADD for m, _ in mods):
        return dmg + sum(a for _, a in mods if a < 0) < 0
    return True


class VsState(State[A.VsAction, VsView]):
    """A Persona VS match; see the module docstring for the layout."""

    __slots__ = (
        "_game",
        "applied",
        "deck",
        "decklists",
        "disc",
        "dmg",
        "effq",
        "field",
        "frames",
        "hand",
        "hp",
        "mods",
        "more_pending",
        "more_used",
        "negated",
        "open_lists",
        "pcs",
        "rmods",
        "rng",
        "sk_c",
        "sk_k",
        "sk_slot",
        "step",
        "tmods",
        "turn",
        "turn_no",
        "winner",
    )

    _game: VsGame
    rng: Rng
    pcs: tuple[str, str]
    decklists: tuple[tuple[int, ...], tuple[int, ...]]
    open_lists: tuple[bool, bool]
    hp: list[int]
    hand: list[list[int]]
    deck: list[list[int]]
    disc: list[list[int]]
    field: list[list[Stack]]
    turn: int
    step: int
    turn_no: int
    more_used: bool
    more_pending: bool
    sk_c: int
    sk_k: int
    sk_slot: int
    rmods: list[SrcMod]
    negated: bool
    tmods: list[SrcMod]
    mods: list[Mod]
    applied: list[Mod]
    dmg: int
    frames: list[Frame]
    effq: list[Work]
    winner: int

    # --- construction ------------------------------------------------------------------

    @classmethod
    def blank(cls, game: VsGame) -> VsState:
        s = cls.__new__(cls)
        s._game = game
        s.rng = Rng(0)
        s.pcs = ("", "")
        s.decklists = ((), ())
        s.open_lists = (True, True)
        s.hp = [HP_START, HP_START]
        s.hand = [[], []]
        s.deck = [[], []]
        s.disc = [[], []]
        s.field = [[(), (), ()], [(), (), ()]]
        s.turn = 0
        s.step = PLAN
        s.turn_no = 1
        s.more_used = False
        s.more_pending = False
        s.sk_c = -1
        s.sk_k = -1
        s.sk_slot = -1
        s.rmods = []
        s.negated = False
        s.tmods = []
        s.mods = []
        s.applied = []
        s.dmg = 0
        s.frames = []
        s.effq = []
        s.winner = -1
        return s

    @classmethod
    def setup(
        cls,
        game: VsGame,
        pcs: list[str],
        decks: list[list[int]],
        first: int | None,
        rng: Rng,
        public: tuple[bool, bool] = (True, True),
    ) -> VsState:
        """VS-SETUP-1..4: starter out of the deck into hand, shuffle, draw to 5, 30 HP.

        ``public`` says whose decklist every player may see (a built-in deck, or open
        decklists by config); a private list is seen by its owner only.
        """
        s = cls.blank(game)
        s.rng = rng
        s.pcs = (pcs[0], pcs[1])
        s.open_lists = public
        s.decklists = (tuple(sorted(decks[0])), tuple(sorted(decks[1])))
        for p in (0, 1):
            deck = list(decks[p])
            starter = game.index[game.players[pcs[p]].starter]
            deck.remove(starter)
            s.hand[p] = [starter]
            rng.shuffle(deck)
            s.deck[p] = deck
            for _ in range(HAND_SIZE - 1):
                s.hand[p].append(deck.pop())
        s.turn = rng.randbelow(2) if first is None else first
        return s

    def clone(self) -> Self:
        s = self.__class__.__new__(self.__class__)
        s._game = self._game
        s.rng = self.rng.clone()
        s.pcs = self.pcs
        s.decklists = self.decklists
        s.open_lists = self.open_lists
        s.hp = self.hp[:]
        h = self.hand
        s.hand = [h[0][:], h[1][:]]
        d = self.deck
        s.deck = [d[0][:], d[1][:]]
        d = self.disc
        s.disc = [d[0][:], d[1][:]]
        f = self.field
        s.field = [f[0][:], f[1][:]]
        s.turn = self.turn
        s.step = self.step
        s.turn_no = self.turn_no
        s.more_used = self.more_used
        s.more_pending = self.more_pending
        s.sk_c = self.sk_c
        s.sk_k = self.sk_k
        s.sk_slot = self.sk_slot
        s.rmods = self.rmods[:]
        s.negated = self.negated
        s.tmods = self.tmods[:]
        s.mods = self.mods[:]
        s.applied = self.applied[:]
        s.dmg = self.dmg
        s.frames = self.frames[:]
        s.effq = self.effq[:]
        s.winner = self.winner
        return s

    # --- protocol ------------------------------------------------------------------------

    @property
    def game(self) -> VsGame:
        return self._game

    @property
    def current_player(self) -> int:
        if self.winner != -1:
            return TERMINAL
        if self.frames:
            return self.frames[-1].player
        if self.step == REACT1 or self.step == REACT2:
            return 1 - self.turn
        return self.turn

    def is_terminal(self) -> bool:
        return self.winner != -1

    def returns(self) -> list[float]:
        if self.winner == DRAW_RESULT:
            return [0.5, 0.5]
        if self.winner == -1:
            return [0.0, 0.0]
        return [1.0 if p == self.winner else 0.0 for p in (0, 1)]

    def outcome_text(self) -> str:
        if self.winner == -1:
            return "the game is not over"
        if self.winner == DRAW_RESULT:
            return f"draw: the turn cap of {TURN_CAP} turns was reached"
        loser = 1 - self.winner
        why = "HP reached 0" if self.hp[loser] <= 0 else "could not draw in the Draw Step"
        return f"player {self.winner + 1} ({self.pcs[self.winner]}) wins: player {loser + 1} {why}"

    def game_over_error(self) -> IllegalActionError:
        """The refusal after the end, citing the clause that ended the game."""
        if self.winner == DRAW_RESULT:
            return IllegalActionError(
                self._game.game_over_rule, f"the game is over: a draw at the turn cap ({TURN_CAP})"
            )
        loser = 1 - self.winner
        if self.hp[loser] <= 0:
            return IllegalActionError("VS-END-1", f"the game is over: Player {loser + 1}'s HP is 0")
        return IllegalActionError(
            "VS-END-2", f"the game is over: Player {loser + 1} could not draw in the Draw Step"
        )

    def action_label(self, action: Any) -> str:
        """Words for ``action`` with card names (``velvet.vs.words``)."""
        from velvet.vs.words import action_label

        return action_label(self, action)

    # --- helpers -----------------------------------------------------------------------

    def _has_persona(self, p: int) -> bool:
        f = self.field[p]
        return bool(f[0] or f[1] or f[2])

    def _top_names(self, p: int, skip_mask: int = 0) -> set[int]:
        name_of = self._game.name_of
        return {
            name_of[st[-1]] for i, st in enumerate(self.field[p]) if st and not skip_mask >> i & 1
        }

    def _hp_change(
        self, p: int, amount: int, ev: list[Event], source: str, how: dict[str, Any]
    ) -> None:
        """Heal (never above the starting HP) or lose HP (never below 0: the rest is lost).

        ``how`` is added to the event: the source card, and for a skill how its damage was made.
        """
        if amount > 0:
            new = min(HP_START, self.hp[p] + amount)
            gained = new - self.hp[p]
            self.hp[p] = new
            ev.append(
                Event(
                    "heal",
                    {"player": p, "amount": gained, "hp": new, "source": source, **how},
                )
            )
        elif amount < 0:
            left = self.hp[p] + amount
            self.hp[p] = left if left > 0 else 0
            ev.append(
                Event(
                    "damage",
                    {
                        "player": p,
                        "amount": -amount,
                        "hp": self.hp[p],
                        "excess": -left if left < 0 else 0,
                        "source": source,
                        **how,
                    },
                )
            )
            if self.hp[p] <= 0:
                self._finish(1 - p, ev, "hp")

    def _finish(self, winner: int, ev: list[Event], reason: str) -> None:
        if self.winner == -1:
            self.winner = winner
            self.step = OVER
            # Cards between zones settle: a persona being paid for returns to hand,
            # a resolving Support/React goes to the discard pile.
            for fr in self.frames:
                if type(fr) is PayFrame:
                    self.hand[fr.player].append(fr.card)
            for q, e, _, x in self.effq:
                if e < 0:
                    self.disc[q].append(x)
            self.frames.clear()
            self.effq.clear()
            ev.append(Event("game_over", {"winner": winner, "reason": reason}))

    def _leave(self, p: int, slot: int, to_hand: bool, ev: list[Event], why: str) -> None:
        """A persona leaves the field; the cards under it go to the discard (VS-FUSE-3)."""
        stack = self.field[p][slot]
        self.field[p][slot] = ()
        top = stack[-1]
        if to_hand:
            self.hand[p].append(top)
        else:
            self.disc[p].append(top)
        self.disc[p].extend(stack[:-1])
        ids = self._game.ids
        ev.append(
            Event(
                why,
                {
                    "player": p,
                    "slot": A.SLOT_NAMES[slot],
                    "card": ids[top],
                    "under": [ids[c] for c in stack[:-1]],
                },
            )
        )

    def _draw(self, p: int, n: int, ev: list[Event]) -> None:
        deck = self.deck[p]
        k = min(n, len(deck))
        for _ in range(k):
            self.hand[p].append(deck.pop())
        ev.append(Event("draw", {"player": p, "count": k}))

    # --- cost payment (VS-SUMMON-1, VS-FIELD-1, VS-FUSE-1, VS-RULE-ULT) -----------------

    @staticmethod
    def _reg_ok(h: int, f: int, r: int, need_field: bool) -> bool:
        if r <= 0:
            return not need_field
        if need_field:
            return f >= 1 and h + f >= r
        return h + f >= r

    def _free_after(self, p: int, freed: int) -> int:
        return sum(1 for st in self.field[p] if not st) + freed

    def _extra_options(
        self, p: int, c: int, mask: int, in_hand: bool
    ) -> list[tuple[Any, int, int, int]]:
        """Ways to pay the named extra cost: (action, hand used, field used, slots freed)."""
        g = self._game
        want = g.extra[c]
        name_of = g.name_of
        out: list[tuple[Any, int, int, int]] = []
        skip = c if in_hand else -1
        seen: set[int] = set()
        for x in self.hand[p]:
            if x == skip:
                skip = -1
                continue
            if name_of[x] == want and x not in seen:
                seen.add(x)
                out.append((g.a_payhand[x], 1, 0, 0))
        for s, st in enumerate(self.field[p]):
            if not st:
                continue
            top = st[-1]
            if name_of[top] == want and not mask >> s & 1:
                out.append((g.a_payfield[s], 0, 1, 1))
                # The named card alone may leave a fused stack, even from its top: the card
                # under it becomes the persona, unless its name is already on the field.
                if len(st) > 1 and self._uncover_ok(p, s, name_of[c]):
                    out.append((g.a_paystack[s][top], 0, 0, 0))
            inner: set[int] = set()
            for x in st[:-1]:
                if name_of[x] == want and x not in inner:
                    inner.add(x)
                    out.append((g.a_paystack[s][x], 0, 0, 0))
        return out

    def _uncover_ok(self, p: int, slot: int, playing: int) -> bool:
        """Whether the card under ``slot``'s top may become a persona (VS-RULE-NAME)."""
        name_of = self._game.name_of
        below = name_of[self.field[p][slot][-2]]
        if below == playing:
            return False
        return all(
            not st or name_of[st[-1]] != below for s, st in enumerate(self.field[p]) if s != slot
        )

    def _can_play(self, p: int, c: int, mask: int) -> bool:
        """Whether a summon (mask -1) or fuse of hand card ``c`` can be paid in full."""
        g = self._game
        h = len(self.hand[p]) - 1
        f = sum(1 for s, st in enumerate(self.field[p]) if st and not (mask >= 0 and mask >> s & 1))
        summon = mask < 0
        cost = g.cost[c]
        if g.extra[c] < 0:
            return self._reg_ok(h, f, cost, summon and self._free_after(p, 0) == 0)
        for _, dh, df, freed in self._extra_options(p, c, mask if mask >= 0 else 0, True):
            if self._reg_ok(h - dh, f - df, cost, summon and self._free_after(p, freed) == 0):
                return True
        return False

    def _pay_actions(self, fr: PayFrame) -> list[Any]:
        g = self._game
        p, c, mask, rem, extra = fr
        summon = mask < 0
        fmask = mask if mask >= 0 else 0
        h = len(self.hand[p])
        f = sum(1 for s, st in enumerate(self.field[p]) if st and not fmask >> s & 1)
        if extra >= 0:
            return [
                a
                for a, dh, df, freed in self._extra_options(p, c, fmask, False)
                if self._reg_ok(h - dh, f - df, rem, summon and self._free_after(p, freed) == 0)
            ]
        need = summon and self._free_after(p, 0) == 0
        out: list[Any] = []
        if self._reg_ok(h - 1, f, rem - 1, need):
            seen: set[int] = set()
            for x in self.hand[p]:
                if x not in seen:
                    seen.add(x)
                    out.append(g.a_payhand[x])
        if f and self._reg_ok(h, f - 1, rem - 1, False):
            for s, st in enumerate(self.field[p]):
                if st and not fmask >> s & 1:
                    out.append(g.a_payfield[s])
        return out

    def _apply_pay(self, a: Any, ev: list[Event]) -> None:
        g = self._game
        fr = self.frames[-1]
        if type(fr) is not PayFrame:
            raise TypeError(f"a payment is made for a pay frame, not {fr!r}")
        p, c, mask, rem, extra = fr
        t = type(a)
        if t is A.PayHand:
            x = g.index[a.card]
            self.hand[p].remove(x)
            self.disc[p].append(x)
            ev.append(Event("pay", {"player": p, "from": "hand", "card": a.card, "for": g.ids[c]}))
        elif t is A.PayField:
            self._leave(p, a.slot, False, ev, "pay_field")
        else:
            x = g.index[a.card]
            st = list(self.field[p][a.slot])
            del st[len(st) - 1 - st[::-1].index(x)]
            self.field[p][a.slot] = tuple(st)
            self.disc[p].append(x)
            ev.append(
                Event(
                    "pay",
                    {
                        "player": p,
                        "from": "stack",
                        "slot": A.SLOT_NAMES[a.slot],
                        "card": a.card,
                        "for": g.ids[c],
                    },
                )
            )
        if extra >= 0:
            extra = -1
        else:
            rem -= 1
        self.frames[-1] = PayFrame(p, c, mask, rem, extra)
        if rem <= 0 and extra < 0:
            self.frames.pop()
            self._place(p, c, mask, ev)

    def _place(self, p: int, c: int, mask: int, ev: list[Event]) -> None:
        g = self._game
        fld = self.field[p]
        if mask < 0:
            slot = 0 if not fld[0] else (1 if not fld[1] else 2)
            fld[slot] = (c,)
            ev.append(Event("summon", {"player": p, "card": g.ids[c], "slot": A.SLOT_NAMES[slot]}))
        else:
            stack: list[int] = []
            for s in range(3):
                if mask >> s & 1:
                    stack.extend(fld[s])
                    fld[s] = ()
            stack.append(c)
            slot = 0 if (mask & 1 or not fld[0]) else (mask & -mask).bit_length() - 1
            fld[slot] = tuple(stack)
            ev.append(
                Event(
                    "fuse",
                    {
                        "player": p,
                        "card": g.ids[c],
                        "slot": A.SLOT_NAMES[slot],
                        "stack": [g.ids[x] for x in stack],
                    },
                )
            )
        for eid in g.onplay[c]:
            self.effq.append(Work(p, eid, CTX_PLAIN, c))

    # --- legal actions ---------------------------------------------------------------------

    def legal_actions(self) -> list[Any]:
        if self.winner != -1:
            return []
        if self.frames:
            return self._frame_actions(self.frames[-1])
        step = self.step
        g = self._game
        if step == PLAN:
            return self._plan_actions()
        if step == DECLARE:
            return self._skill_actions()
        if step == ORDER:
            # ``first K`` picks the K-th distinct modifier (sorted) to apply next.
            return list(g.a_first[: len(set(self.mods))])
        # React windows.
        d = 1 - self.turn
        timing = DECLARATION if step == REACT1 else RESOLUTION
        sk_type = g.skills[self.sk_c][self.sk_k][0]
        out: list[Any] = [g.a_pass]
        seen_c: set[int] = set()
        for x in self.hand[d]:
            if x not in seen_c and g.timing[x] == timing and g.vs_type[x] in (-1, sk_type):
                seen_c.add(x)
                out.append(g.a_react[x])
        return out

    def _plan_actions(self) -> list[Any]:
        g = self._game
        p = self.turn
        out: list[Any] = [g.a_end]
        fld = self.field[p]
        occ = [s for s in range(3) if fld[s]]
        occ_mask = sum(1 << s for s in occ)
        names = self._top_names(p)
        seen: set[int] = set()
        kind = g.kind
        name_of = g.name_of
        for c in self.hand[p]:
            if c in seen:
                continue
            seen.add(c)
            k = kind[c]
            if k == SUPPORT:
                if self._support_ok(p, c):
                    out.append(g.a_support[c])
            elif k == PERSONA:
                nc = name_of[c]
                if nc not in names and self._can_play(p, c, -1):
                    out.append(g.a_summon[c])
                if occ:
                    for m in range(1, 8):
                        if m & ~occ_mask:
                            continue
                        if self._fuse_problem(p, c, m) is None and self._can_play(p, c, m):
                            out.append(g.a_fuse[c][m])
        if fld[0]:
            for s in (1, 2):
                if fld[s]:
                    out.append(g.a_change[s])
        return out

    def _support_ok(self, p: int, c: int) -> bool:
        """VS-PLAN-1: a Support is played only if each of its choices has something to choose.

        Checked when it is played: a persona to bounce, destroy or swap, a card to search
        for, recover or discard (the Support itself has left the hand).
        """
        return not self._game.chooses[c] or self._missing_choice(p, c) is None

    def _missing_choice(self, p: int, c: int) -> str | None:
        """The first effect of Support/React ``c`` played by ``p`` with nothing to choose."""
        g = self._game
        effects = g.low_eff[c] if g.low_eff[c] and self.hp[p] <= LOWHP else g.play_eff[c]
        for eid in effects:
            op, who, _, _, filt, kf, _ = g.effects[eid]
            t = p if who == WHO_SELF else 1 - p
            if op in (OP_BOUNCE, OP_DESTROY, OP_SWAP):
                if not self._targets(t, op, filt):
                    return OPS[op]
            elif op == OP_SEARCH:
                if not any(self._kind_ok(x, kf) for x in self.deck[t]):
                    return OPS[op]
            elif op == OP_RECOVER:
                if not any(self._kind_ok(x, kf) for x in self.disc[t]):
                    return OPS[op]
            elif op in (OP_DISCARD, OP_DISCARD_RANDOM) and len(self.hand[t]) <= (
                1 if t == p and c in self.hand[p] else 0
            ):
                return OPS[op]
        return None

    def _fuse_problem(self, p: int, c: int, mask: int) -> str | None:
        """The rule a fusion's materials break (VS-FUSE-4, VS-RULE-NAME), or None."""
        name_of = self._game.name_of
        nc = name_of[c]
        for s, st in enumerate(self.field[p]):
            if mask >> s & 1:
                if any(name_of[x] == nc for x in st):
                    return "VS-FUSE-4"
            elif st and name_of[st[-1]] == nc:
                return "VS-RULE-NAME"
        return None

    def _skill_actions(self) -> list[Any]:
        g = self._game
        p = self.turn
        out: list[Any] = [g.a_noskill]
        slots = (0, 1, 2) if self.more_used else (0,)
        for s in slots:
            seen: set[int] = set()
            for x in self.field[p][s]:
                if x in seen:
                    continue
                seen.add(x)
                out.extend(g.a_skill[s][x])
        return out

    def _frame_actions(self, fr: Frame) -> list[Any]:
        g = self._game
        p = fr.player
        if type(fr) is PayFrame:
            return self._pay_actions(fr)
        if type(fr) is PromoteFrame:
            return [g.a_promote[s] for s in (1, 2) if self.field[p][s]]
        if type(fr) is TargetFrame:
            targets = self._targets(fr.target, fr.op, fr.slot)
            return [g.a_target[fr.target][s] for s in targets]
        if type(fr) is DiscardFrame:
            return [g.a_discard[x] for x in sorted(set(self.hand[p]))]
        if type(fr) is SearchFrame:
            kf = fr.kind
            return [
                g.a_search[x] for x in sorted({x for x in self.deck[p] if self._kind_ok(x, kf)})
            ]
        if type(fr) is RecoverFrame:
            kf = fr.kind
            return [
                g.a_recover[x] for x in sorted({x for x in self.disc[p] if self._kind_ok(x, kf)})
            ]
        raise TypeError(f"not a frame: {fr!r}")

    def _kind_ok(self, x: int, kf: int) -> bool:
        return kf == ANY_KIND or self._game.kind[x] == kf

    def _targets(self, t: int, op: int, filt: int) -> list[int]:
        fld = self.field[t]
        if op == OP_SWAP:
            return [s for s in (1, 2) if fld[s]] if fld[0] else []
        cands = (0,) if filt == SLOT_MAIN else (1, 2) if filt == SLOT_SUB else (0, 1, 2)
        return [s for s in cands if fld[s]]

    # --- apply -----------------------------------------------------------------------------

    def apply_unchecked(self, action: Any) -> list[Event]:
        ev: list[Event] = []
        g = self._game
        t = type(action)
        if self.frames:
            fr = self.frames[-1]
            kind = type(fr)
            if kind is PayFrame:
                self._apply_pay(action, ev)
            elif type(fr) is PromoteFrame:
                p = self.frames.pop().player
                fld = self.field[p]
                fld[0] = fld[action.slot]
                fld[action.slot] = ()
                ev.append(
                    Event(
                        "promote",
                        {"player": p, "slot": A.SLOT_NAMES[action.slot], "card": g.ids[fld[0][-1]]},
                    )
                )
            elif kind is TargetFrame:
                self._apply_target(action, ev)
            elif type(fr) is DiscardFrame:
                p, n = fr.player, fr.left
                x = g.index[action.card]
                self.hand[p].remove(x)
                self.disc[p].append(x)
                ev.append(Event("discard", {"player": p, "card": action.card}))
                if n <= 1 or not self.hand[p]:
                    self.frames.pop()
                else:
                    self.frames[-1] = DiscardFrame(p, n - 1)
            elif kind is SearchFrame:
                p = self.frames.pop().player
                x = g.index[action.card]
                self.deck[p].remove(x)
                self.hand[p].append(x)
                self.rng.shuffle(self.deck[p])
                ev.append(Event("search", {"player": p, "card": action.card}))
            else:
                p = self.frames.pop().player
                x = g.index[action.card]
                self.disc[p].remove(x)
                self.hand[p].append(x)
                ev.append(Event("recover", {"player": p, "card": action.card}))
        elif t is A.EndPlanning:
            self.step = DECLARE
            ev.append(Event("step", {"player": self.turn, "step": "skill"}))
        elif t is A.Summon or t is A.Fuse:
            p = self.turn
            c = g.index[action.card]
            mask = action.slots if t is A.Fuse else -1
            self.hand[p].remove(c)
            ev.append(
                Event(
                    "play",
                    {
                        "player": p,
                        "card": action.card,
                        "as": "fuse" if mask >= 0 else "summon",
                        "onto": [
                            g.ids[st[-1]]
                            for i, st in enumerate(self.field[p])
                            if mask >= 0 and mask >> i & 1 and st
                        ],
                    },
                )
            )
            if g.cost[c] == 0 and g.extra[c] < 0:
                self._place(p, c, mask, ev)
            else:
                self.frames.append(PayFrame(p, c, mask, g.cost[c], g.extra[c]))
        elif t is A.Change:
            p = self.turn
            fld = self.field[p]
            fld[0], fld[action.slot] = fld[action.slot], fld[0]
            ev.append(
                Event(
                    "change",
                    {
                        "player": p,
                        "slot": A.SLOT_NAMES[action.slot],
                        "main": g.ids[fld[0][-1]],
                        "sub": g.ids[fld[action.slot][-1]],
                    },
                )
            )
        elif t is A.PlaySupport or t is A.PlayReact:
            p = self.turn if t is A.PlaySupport else 1 - self.turn
            c = g.index[action.card]
            self.hand[p].remove(c)
            low = bool(g.low_eff[c]) and self.hp[p] <= LOWHP
            effects = g.low_eff[c] if low else g.play_eff[c]
            ctx = CTX_SUPPORT if t is A.PlaySupport else CTX_REACT
            ev.append(
                Event(
                    "support" if ctx == CTX_SUPPORT else "react",
                    {"player": p, "card": action.card, "lowhp": low},
                )
            )
            for eid in effects:
                self.effq.append(Work(p, eid, ctx, c))
            self.effq.append(Work(p, -1, ctx, c))
            if t is A.PlayReact:
                self.step = RESOLVE if self.step == REACT1 else ENDSKILL
        elif t is A.Pass:
            ev.append(Event("pass", {"player": 1 - self.turn}))
            self.step = RESOLVE if self.step == REACT1 else ENDSKILL
        elif t is A.DeclareSkill:
            c = g.index[action.card]
            self.sk_c, self.sk_k, self.sk_slot = c, action.index, action.slot
            self.rmods = []
            self.negated = False
            sk = g.skills[c][action.index]
            ev.append(
                Event(
                    "skill",
                    {
                        "player": self.turn,
                        "slot": A.SLOT_NAMES[action.slot],
                        "card": action.card,
                        "skill": self._skill_name(c, action.index),
                        "type": DAMAGE_TYPES[sk[0]],
                        "damage": sk[1],
                    },
                )
            )
            self.step = REACT1
        elif t is A.NoSkill:
            ev.append(Event("noskill", {"player": self.turn}))
            self._draw_step(ev)
        elif t is A.First:
            m = sorted(set(self.mods))[action.index]
            self.mods.remove(m)
            self.applied.append(m)
            self.dmg = apply_mod(self.dmg, m[0], m[1])
            same = [x for x in self.mod_sources() if (x[0], x[1]) == m]
            done = self.applied.count(m) - 1
            src = same[done] if done < len(same) else None
            ev.append(
                Event(
                    "modify",
                    {
                        "mode": MODES[m[0]],
                        "amount": m[1],
                        "damage": self.dmg,
                        "source": g.ids[src[2]] if src else "",
                        "from": src[3] if src else "",
                    },
                )
            )
            if not order_matters(self.dmg, self.mods):
                self._finish_mods(ev)
        self._advance(ev)
        return ev

    def _skill_name(self, c: int, k: int) -> str:
        card = self._game.all_cards[c]
        return card.skills[k].name  # type: ignore[union-attr]

    def _apply_target(self, a: Any, ev: list[Event]) -> None:
        fr = self.frames.pop()
        if type(fr) is not TargetFrame:
            raise TypeError(f"a target is chosen for a target frame, not {fr!r}")
        op, t = fr.op, fr.target
        if op == OP_BOUNCE:
            self._leave(t, a.slot, True, ev, "bounce")
        elif op == OP_DESTROY:
            self._leave(t, a.slot, False, ev, "destroy")
        else:
            fld = self.field[t]
            fld[0], fld[a.slot] = fld[a.slot], fld[0]
            ev.append(
                Event(
                    "swap",
                    {"player": t, "slot": A.SLOT_NAMES[a.slot], "main": self._game.ids[fld[0][-1]]},
                )
            )

    # --- the step machine ------------------------------------------------------------------

    def _advance(self, ev: list[Event]) -> None:
        while self.winner == -1 and not self.frames:
            # VS-RULE-LOSEMAIN: a lost main is replaced before any further effect resolves.
            tp = self.turn
            for p in (tp, 1 - tp):
                f = self.field[p]
                if not f[0] and (f[1] or f[2]):
                    self.frames.append(PromoteFrame(p))
                    break
            if self.frames:
                return
            if self.effq:
                p, eid, ctx, src = self.effq.pop(0)
                if eid < 0:
                    self.disc[p].append(src)
                else:
                    self._run_effect(p, eid, ctx, src, ev)
                continue
            step = self.step
            if step in (PLAN, REACT1, REACT2, ORDER):
                return
            if step == DECLARE:
                if self._has_persona(tp):
                    return
                ev.append(Event("noskill", {"player": tp, "reason": "no persona"}))
                self._draw_step(ev)
            elif step == RESOLVE:
                self._resolve(ev)
            elif step == ENDSKILL:
                if self.more_pending:
                    self.more_pending = False
                    self.more_used = True
                    self.sk_c = self.sk_k = self.sk_slot = -1
                    self.step = DECLARE
                    ev.append(Event("step", {"player": tp, "step": "1 more"}))
                else:
                    self._draw_step(ev)
            else:
                return

    def _resolve(self, ev: list[Event]) -> None:
        """Skill resolution: Reacts' modifiers first, then the rest in the turn player's order."""
        g = self._game
        sk_type, base, _ = g.skills[self.sk_c][self.sk_k]
        self.applied = []
        if self.negated or base <= 0:
            self.dmg = 0
            self.mods = []
            self._deal(ev)
            return
        dmg = base
        for mode, amount, _ in self.rmods:
            dmg = apply_mod(dmg, mode, amount)
        mods: list[Mod] = [(mode, amount) for mode, amount, _ in self.tmods]
        tp = self.turn
        for side, table in ((tp, g.attack), (1 - tp, g.defend)):
            for st in self.field[side]:
                for x in st:
                    for typ, mode, amount in table[x]:
                        if typ < 0 or typ == sk_type:
                            mods.append((mode, amount))
        mods.sort()
        self.dmg = dmg
        self.mods = mods
        if order_matters(dmg, mods):
            self.step = ORDER
            return
        self._finish_mods(ev)

    def _finish_mods(self, ev: list[Event]) -> None:
        dmg = self.dmg
        for mode, amount in self.mods:
            dmg = apply_mod(dmg, mode, amount)
        self.applied.extend(self.mods)
        self.mods = []
        self.dmg = dmg
        self._deal(ev)

    def _deal(self, ev: list[Event]) -> None:
        g = self._game
        tp = self.turn
        d = 1 - tp
        sk_type, _, effects = g.skills[self.sk_c][self.sk_k]
        dmg = self.dmg
        self.step = REACT2
        main = self.field[d][0]
        hit = dmg > 0 and bool(main) and g.weak[main[-1]] == sk_type
        how = self._damage_steps()
        if dmg > 0:
            self._hp_change(d, -dmg, ev, "skill", how)
            if self.winner != -1:
                return
        else:
            ev.append(Event("no_damage", {"player": d, "negated": self.negated, **how}))
        if hit:
            ev.append(Event("weakness", {"player": d, "card": g.ids[main[-1]]}))
            if not self.more_used:
                self.more_pending = True
                ev.append(Event("one_more", {"player": tp}))
        for eid, if_weak in effects:
            if hit or not if_weak:
                self.effq.append(Work(tp, eid, CTX_PLAIN, self.sk_c))

    def _damage_steps(self) -> dict[str, Any]:
        """How the declared skill's damage was made, for the damage event (VS-SKILL-3).

        ``steps`` are [mode, amount, source card id, "react" | "support" | "attack" |
        "defend", damage after] in the order applied: React modifiers first, then the rest.
        """
        g = self._game
        ids = g.ids
        _, base, _ = g.skills[self.sk_c][self.sk_k]
        steps: list[list[Any]] = []
        if self.negated or base <= 0:
            return {
                "card": ids[self.sk_c],
                "skill": self._skill_name(self.sk_c, self.sk_k),
                "base": base,
                "steps": steps,
            }
        dmg = base
        for mode, amount, src in self.rmods:
            dmg = apply_mod(dmg, mode, amount)
            steps.append([MODES[mode], amount, ids[src], "react", dmg])
        pool = self.mod_sources()
        for mode, amount in self.applied:
            found = next((i for i, c in enumerate(pool) if c[0] == mode and c[1] == amount), -1)
            source, kind = (ids[pool[found][2]], pool.pop(found)[3]) if found >= 0 else ("", "")
            dmg = apply_mod(dmg, mode, amount)
            steps.append([MODES[mode], amount, source, kind, dmg])
        return {
            "card": ids[self.sk_c],
            "skill": self._skill_name(self.sk_c, self.sk_k),
            "base": base,
            "steps": steps,
        }

    def mod_sources(self) -> list[tuple[int, int, int, str]]:
        """Every non-React modifier of the declared skill: (mode, amount, card, kind).

        ``kind`` is "support" (this turn's Supports), "attack" or "defend" (abilities).
        """
        g = self._game
        sk_type = g.skills[self.sk_c][self.sk_k][0]
        pool = [(m, a, x, "support") for m, a, x in self.tmods]
        tp = self.turn
        for side, table, why in ((tp, g.attack, "attack"), (1 - tp, g.defend, "defend")):
            for st in self.field[side]:
                for x in st:
                    for typ, mode, amount in table[x]:
                        if typ < 0 or typ == sk_type:
                            pool.append((mode, amount, x, why))
        return pool

    def _draw_step(self, ev: list[Event]) -> None:
        """VS-DRAW-1 and VS-END-2, then the turn passes (VS-TURN-1)."""
        p = self.turn
        need = HAND_SIZE - len(self.hand[p])
        self.sk_c = self.sk_k = self.sk_slot = -1
        self.rmods = []
        self.negated = False
        self.more_pending = False
        if need > 0:
            if len(self.deck[p]) < need:
                self._finish(1 - p, ev, "deck")
                return
            self._draw(p, need, ev)
        self.turn = 1 - p
        self.turn_no += 1
        self.more_used = False
        self.tmods = []
        self.step = PLAN
        if self.turn_no > TURN_CAP:
            self._finish(DRAW_RESULT, ev, "turn cap")
            return
        ev.append(Event("turn", {"player": self.turn, "turn": self.turn_no}))

    def _run_effect(self, p: int, eid: int, ctx: int, src: int, ev: list[Event]) -> None:
        g = self._game
        op, who, amount, mode, filt, kf, _ = g.effects[eid]
        t = p if who == WHO_SELF else 1 - p
        card = g.ids[src]
        if op == OP_HEAL:
            self._hp_change(t, amount, ev, "effect", {"card": card})
        elif op == OP_DAMAGE:
            self._hp_change(t, -amount, ev, "effect", {"card": card})
        elif op == OP_DRAW:
            self._draw(t, amount, ev)
        elif op == OP_DISCARD:
            if self.hand[t]:
                self.frames.append(DiscardFrame(t, min(amount, len(self.hand[t]))))
        elif op == OP_DISCARD_RANDOM:
            hand = self.hand[t]
            for _ in range(min(amount, len(hand))):
                x = hand.pop(self.rng.randbelow(len(hand)))
                self.disc[t].append(x)
                ev.append(Event("discard", {"player": t, "card": g.ids[x], "random": True}))
        elif op in (OP_BOUNCE, OP_DESTROY, OP_SWAP):
            if self._targets(t, op, filt):
                self.frames.append(TargetFrame(p, op, t, filt))
            else:
                ev.append(
                    Event(
                        "fizzle",
                        {"player": p, "card": card, "effect": OPS[op], "reason": "no target"},
                    )
                )
        elif op == OP_MODIFY:
            if ctx == CTX_SUPPORT:
                self.tmods.append((mode, amount, src))
            else:
                self.rmods.append((mode, amount, src))
            ev.append(
                Event(
                    "modifier",
                    {
                        "player": p,
                        "mode": MODES[mode],
                        "amount": amount,
                        "from": "support" if ctx == CTX_SUPPORT else "react",
                        "card": card,
                    },
                )
            )
        elif op == OP_NEGATE:
            self.negated = True
            ev.append(Event("negate", {"player": p, "card": card}))
        elif op == OP_SEARCH:
            if any(self._kind_ok(x, kf) for x in self.deck[t]):
                self.frames.append(SearchFrame(t, kf))
            else:
                self.rng.shuffle(self.deck[t])
                ev.append(
                    Event(
                        "fizzle",
                        {"player": t, "card": card, "effect": "search", "reason": "nothing found"},
                    )
                )
        elif op == OP_RECOVER:
            if any(self._kind_ok(x, kf) for x in self.disc[t]):
                self.frames.append(RecoverFrame(t, kf))
            else:
                ev.append(
                    Event(
                        "fizzle",
                        {
                            "player": t,
                            "card": card,
                            "effect": "recover",
                            "reason": "nothing to recover",
                        },
                    )
                )

    # --- illegal actions --------------------------------------------------------------------

    def explain_illegal(self, action: Any) -> IllegalActionError:
        g = self._game
        if self.winner != -1:
            return self.game_over_error()
        t = type(action)
        card = getattr(action, "card", None)
        if card is not None and card not in g.index:
            return IllegalActionError("VS-COMP-1", f"'{action}': no card with id '{card}'")
        if self.frames:
            fr = self.frames[-1]
            want = FRAME_NAMES[type(fr)]
            if type(fr) is PayFrame:
                if fr.extra >= 0:
                    return IllegalActionError(
                        "VS-RULE-ULT",
                        f"'{action}': first pay the extra cost, a persona named "
                        f"{g.names[fr.extra]} from hand or field (even inside a stack)",
                    )
                if t is A.PayField and fr.mask >= 0 and fr.mask >> action.slot & 1:
                    return IllegalActionError(
                        "VS-FUSE-1", f"'{action}': a fusion material cannot pay the cost"
                    )
                if t in (A.PayHand, A.PayField):
                    return IllegalActionError(
                        "VS-FIELD-1"
                        if fr.mask < 0 and self._free_after(fr.player, 0) == 0
                        else "VS-SUMMON-1",
                        f"'{action}': cannot pay with that now; legal: "
                        + ", ".join(str(a) for a in self.legal_actions()),
                    )
                return IllegalActionError(
                    "VS-SUMMON-1",
                    f"'{action}': a cost is being paid; pay hand ID or pay field SLOT",
                )
            if type(fr) is PromoteFrame:
                return IllegalActionError(
                    "VS-RULE-LOSEMAIN",
                    f"'{action}': player {fr.player + 1} must first promote a sub to main",
                )
            return IllegalActionError(
                "VS-COMP-2",
                f"'{action}': the pending choice is a {want} for a card effect; legal: "
                + ", ".join(str(a) for a in self.legal_actions()),
            )
        step = self.step
        plan_types = (A.Summon, A.Fuse, A.Change, A.PlaySupport, A.EndPlanning)
        if t in plan_types and step != PLAN:
            rule = {A.Change: "VS-CHANGE-1", A.PlaySupport: "VS-SUPPORT-1"}.get(t, "VS-PLAN-1")
            return IllegalActionError(rule, f"'{action}': only in your Planning Step")
        if t in (A.DeclareSkill, A.NoSkill) and step != DECLARE:
            if step in (REACT1, REACT2, RESOLVE, ORDER):
                return IllegalActionError(
                    "VS-SKILL-2", f"'{action}': a skill is already declared and cannot change"
                )
            return IllegalActionError(
                "VS-SKILL-1", f"'{action}': skills are declared in the Skill Step"
            )
        if t in (A.PlayReact, A.Pass) and step not in (REACT1, REACT2):
            return IllegalActionError(
                "VS-SKILL-1", f"'{action}': Reacts are played by the defender in the React windows"
            )
        if t is A.First and step != ORDER:
            return IllegalActionError(
                "VS-SKILL-3", f"'{action}': no damage modifiers are waiting to be ordered"
            )
        p = self.turn
        if step == PLAN:
            if t in (A.Summon, A.Fuse, A.PlaySupport):
                c = g.index[card] if card is not None else -1
                if c not in self.hand[p]:
                    rule = "VS-SUPPORT-1" if t is A.PlaySupport else "VS-SUMMON-1"
                    return IllegalActionError(rule, f"'{action}': {card} is not in your hand")
                if t is A.PlaySupport:
                    if g.kind[c] == SUPPORT:
                        what = self._missing_choice(p, c)
                        return IllegalActionError(
                            "VS-PLAN-1",
                            f"'{action}': {g.all_cards[c].name} cannot be played now: "
                            f"its '{what}' effect has nothing to choose",
                        )
                    return IllegalActionError(
                        "VS-SUPPORT-1", f"'{action}': {card} is not a Support card"
                    )
                if g.kind[c] != PERSONA:
                    return IllegalActionError("VS-SUMMON-1", f"'{action}': {card} is not a persona")
                return self._explain_play(action, p, c)
            if t is A.Change:
                if not self.field[p][0]:
                    return IllegalActionError(
                        "VS-CHANGE-1", f"'{action}': you have no main persona"
                    )
                return IllegalActionError("VS-CHANGE-1", f"'{action}': no sub-persona in that slot")
        if step == DECLARE and t is A.DeclareSkill:
            if action.slot != 0 and not self.more_used:
                return IllegalActionError(
                    "VS-FIELD-2", f"'{action}': only the main's skills, except during 1 more"
                )
            return IllegalActionError("VS-SKILL-1", f"'{action}': no such skill on that persona")
        if step in (REACT1, REACT2) and t is A.PlayReact:
            c = g.index[action.card]
            if c not in self.hand[1 - p]:
                return IllegalActionError(
                    "VS-SKILL-1", f"'{action}': {action.card} is not in your hand"
                )
            if g.kind[c] != REACT:
                return IllegalActionError(
                    "VS-COMP-2", f"'{action}': {action.card} is not a React card"
                )
            if g.timing[c] != (DECLARATION if step == REACT1 else RESOLUTION):
                return IllegalActionError(
                    "VS-SKILL-1", f"'{action}': that React is for the other window"
                )
            return IllegalActionError(
                "VS-COMP-2", f"'{action}': that React answers another damage type"
            )
        if step == ORDER:
            return IllegalActionError(
                "VS-SKILL-3", f"'{action}': choose one of the listed modifiers"
            )
        return IllegalActionError(
            "VS-TURN-1",
            f"'{action}' is not legal now ({STEP_NAMES[step]}); legal: "
            + ", ".join(str(a) for a in self.legal_actions()[:12]),
        )

    def _explain_play(self, action: Any, p: int, c: int) -> IllegalActionError:
        g = self._game
        if type(action) is A.Fuse:
            mask = action.slots
            if any(mask >> s & 1 and not self.field[p][s] for s in range(3)) or not mask:
                return IllegalActionError(
                    "VS-FUSE-2", f"'{action}': fuse onto personas you control"
                )
            problem = self._fuse_problem(p, c, mask)
            if problem == "VS-FUSE-4":
                return IllegalActionError(
                    problem, f"'{action}': a persona cannot be fused into a copy of itself"
                )
            if problem:
                return IllegalActionError(
                    problem, f"'{action}': you already control a persona with that name"
                )
        else:
            mask = -1
            if g.name_of[c] in self._top_names(p):
                return IllegalActionError(
                    "VS-RULE-NAME", f"'{action}': you already control a persona with that name"
                )
        if g.extra[c] >= 0 and not self._extra_options(p, c, max(mask, 0), True):
            return IllegalActionError(
                "VS-RULE-ULT",
                f"'{action}': also needs a persona named {g.names[g.extra[c]]} from hand or field",
            )
        if mask < 0 and self._free_after(p, 0) == 0 and g.cost[c] == 0:
            return IllegalActionError(
                "VS-FIELD-1", f"'{action}': no free slot (1 main + 2 subs) and no cost to send one"
            )
        return IllegalActionError(
            "VS-FUSE-1" if mask >= 0 else "VS-SUMMON-1",
            f"'{action}': cannot pay cost {g.cost[c]} with your hand and field",
        )

    # --- JSON and views -----------------------------------------------------------------------

    def _frame_json(self, fr: Frame) -> list[Any]:
        g = self._game
        if type(fr) is PayFrame:
            p, c, mask, rem, extra = fr
            return ["pay", p, g.ids[c], mask, rem, g.names[extra] if extra >= 0 else None]
        return [FRAME_NAMES[type(fr)], *fr]

    def _public(self) -> VsPublic:
        g = self._game
        ids = g.ids
        return {
            "turn": self.turn,
            "turn_no": self.turn_no,
            "step": STEP_NAMES[self.step],
            "hp": self.hp[:],
            "discard": [[ids[c] for c in d] for d in self.disc],
            "field": [[[ids[c] for c in st] for st in f] for f in self.field],
            "more_used": self.more_used,
            "more_pending": self.more_pending,
            "skill": None
            if self.sk_c < 0
            else [A.SLOT_NAMES[self.sk_slot], ids[self.sk_c], self.sk_k],
            "rmods": [[m, a, ids[x]] for m, a, x in self.rmods],
            "negated": self.negated,
            "tmods": [[m, a, ids[x]] for m, a, x in self.tmods],
            "mods": [list(m) for m in self.mods],
            "applied": [list(m) for m in self.applied],
            "dmg": self.dmg,
            "frames": [self._frame_json(f) for f in self.frames],
            "effq": [[p, e, c, ids[x]] for p, e, c, x in self.effq],
            "winner": self.winner,
            "player_cards": list(self.pcs),
            "decklists": [[ids[c] for c in d] for d in self.decklists],
            "open_decklists": list(self.open_lists),
        }

    def to_json(self) -> dict[str, Any]:
        ids = self._game.ids
        data: dict[str, Any] = {**self._public()}
        data["hand"] = [[ids[c] for c in h] for h in self.hand]
        data["deck"] = [[ids[c] for c in d] for d in self.deck]
        data["rng"] = self.rng.to_json()
        return data

    def reveals_since(self, before: VsState) -> bool:
        """A shuffle or random discard drew on chance, or a card left a deck unseen."""
        return (
            self.rng.to_json() != before.rng.to_json() or self.deck_sizes() != before.deck_sizes()
        )

    def deck_sizes(self) -> list[int]:
        return [len(self.deck[0]), len(self.deck[1])]

    def public_view(self) -> VsView:
        """What a spectator may see: no hand, and a decklist only where it is public."""
        view = self.view(0)
        if not self.open_lists[0]:
            view["decklists"][0] = None
        view["viewer"] = None
        view["hand"] = []
        return view

    def view(self, player: int) -> VsView:
        public = self._public()
        for p in (0, 1):
            if p != player and not self.open_lists[p]:
                public["decklists"][p] = None
        return {
            **public,
            "viewer": player,
            "hand": [self._game.ids[c] for c in self.hand[player]],
            "hand_sizes": [len(self.hand[0]), len(self.hand[1])],
            "deck_sizes": [len(self.deck[0]), len(self.deck[1])],
            "current_player": self.current_player,
        }

    @classmethod
    def _from_public(cls, game: VsGame, data: Mapping[str, Any]) -> VsState:
        s = cls.blank(game)
        ix = game.index

        def cards(xs: Any) -> list[int]:
            if not isinstance(xs, list):
                raise RecordError("vs state: expected a list of card ids")
            try:
                return [ix[x] for x in xs]
            except (KeyError, TypeError):
                raise RecordError(f"vs state: unknown card id in {xs!r}") from None

        s.turn = int(data["turn"]) & 1
        s.turn_no = int(data["turn_no"])
        s.step = STEP_NAMES.index(data["step"])
        s.hp = [int(x) for x in data["hp"]][:2]
        s.disc = [cards(d) for d in data["discard"]]
        s.field = [[tuple(cards(st)) for st in f] for f in data["field"]]
        if len(s.disc) != 2 or len(s.field) != 2 or any(len(f) != 3 for f in s.field):
            raise RecordError("vs state: needs 2 discard piles and 2 fields of 3 slots")
        s.more_used = bool(data["more_used"])
        s.more_pending = bool(data["more_pending"])
        sk = data["skill"]
        if sk is None:
            s.sk_c = s.sk_k = s.sk_slot = -1
        else:
            s.sk_slot = A.SLOT_NAMES.index(sk[0])
            s.sk_c = ix[sk[1]]
            s.sk_k = int(sk[2])
        s.rmods = [(int(m), int(a), ix[x]) for m, a, x in data["rmods"]]
        s.negated = bool(data["negated"])
        s.tmods = [(int(m), int(a), ix[x]) for m, a, x in data["tmods"]]
        s.mods = [(int(m), int(a)) for m, a in data["mods"]]
        s.applied = [(int(m), int(a)) for m, a in data["applied"]]
        s.dmg = int(data["dmg"])
        frames: list[Frame] = []
        for fr in data["frames"]:
            kind = FRAME_TYPES[fr[0]]
            if kind is PayFrame:
                extra = game.names.index(fr[5]) if fr[5] is not None else -1
                frames.append(PayFrame(int(fr[1]), ix[fr[2]], int(fr[3]), int(fr[4]), extra))
            else:
                frames.append(kind(*(int(x) for x in fr[1:])))
        s.frames = frames
        n_eff = len(game.effects)
        effq: list[Work] = []
        for p, e, c, x in data["effq"]:
            if not -1 <= e < n_eff or c not in (CTX_PLAIN, CTX_REACT, CTX_SUPPORT):
                raise RecordError(f"vs state: unknown effect {e} or context {c}")
            effq.append(Work(int(p), int(e), int(c), ix[x]))
        s.effq = effq
        s.winner = int(data["winner"])
        pcs = data["player_cards"]
        s.pcs = (str(pcs[0]), str(pcs[1]))
        dl = data["decklists"]
        s.decklists = tuple(  # type: ignore[assignment]
            tuple(sorted(cards(d))) if d is not None else () for d in dl[:2]
        )
        public = data.get("open_decklists", [True, True])
        s.open_lists = (bool(public[0]), bool(public[1]))
        return s

    @classmethod
    def from_view(cls, game: VsGame, view: VsView) -> VsState:
        """Only what ``view`` shows (the viewer's hand; other hands and decks empty).

        Enough to put the viewer's own decisions in words; never for play.
        """
        s = cls._from_public(game, view)
        if view["viewer"] is not None:  # the public view holds no hand
            s.hand[view["viewer"] & 1] = [game.index[x] for x in view["hand"]]
        return s

    @classmethod
    def from_json(cls, game: VsGame, data: Any) -> VsState:
        if not isinstance(data, dict):
            raise RecordError("vs state: expected a JSON object")
        s = cls._from_public(game, data)
        ix = game.index
        s.hand = [[ix[x] for x in h] for h in data["hand"]]
        s.deck = [[ix[x] for x in d] for d in data["deck"]]
        s.rng = Rng.from_json(data["rng"])
        if len(s.hand) != 2 or len(s.deck) != 2:
            raise RecordError("vs state: needs 2 hands and 2 decks")
        return s

    def limbo(self, p: int) -> list[int]:
        """Cards of ``p`` between zones: a persona being paid for, a Support/React resolving."""
        out = [fr.card for fr in self.frames if type(fr) is PayFrame and fr.player == p]
        out += [x for q, e, _, x in self.effq if e < 0 and q == p]
        return out

    def zones(self, p: int) -> Counter[int]:
        """Every card of ``p`` wherever it is (deck, hand, field stacks, discard, limbo)."""
        count: Counter[int] = Counter(self.deck[p])
        count.update(self.hand[p])
        count.update(self.disc[p])
        for st in self.field[p]:
            count.update(st)
        count.update(self.limbo(p))
        return count

    @classmethod
    def determinize(cls, game: VsGame, view: VsView, player: int, rng: Rng) -> VsState:
        """Rebuild a state from ``player``'s view, sampling the opponent hand and deck orders.

        A player's unseen cards are their decklist minus what the view shows, shuffled
        with ``rng``. A rival's private decklist (a custom deck) is not in the view: its
        unseen part is sampled from the card pool (:meth:`_sample_unseen`).
        """
        if player not in (0, 1):
            raise RecordError(f"determinize: player must be 0 or 1, not {player!r}")
        if view.get("viewer") != player:
            raise RecordError(f"determinize: this view belongs to player {view.get('viewer')!r}")
        s = cls._from_public(game, view)
        ix = game.index
        s.hand[player] = [ix[x] for x in view["hand"]]
        sizes = view["hand_sizes"]
        for p in (0, 1):
            seen: Counter[int] = Counter(s.disc[p])
            for st in s.field[p]:
                seen.update(st)
            seen.update(s.limbo(p))
            if p == player:
                seen.update(s.hand[p])
            if view["decklists"][p] is None:
                k = int(sizes[p]) + int(view["deck_sizes"][p])
                unseen = s._sample_unseen(p, seen, k, rng)
                s.decklists = tuple(  # type: ignore[assignment]
                    tuple(sorted([*seen.elements(), *unseen])) if q == p else s.decklists[q]
                    for q in (0, 1)
                )
            else:
                unseen = list((Counter(s.decklists[p]) - seen).elements())
            rng.shuffle(unseen)
            if p != player:
                k = int(sizes[p])
                s.hand[p] = unseen[:k]
                unseen = unseen[k:]
            s.deck[p] = unseen
        s.rng = Rng(rng.randbelow(1 << 62))
        return s

    def _sample_unseen(self, p: int, seen: Counter[int], k: int, rng: Rng) -> list[int]:
        """``k`` cards that could complete ``p``'s private deck around the ``seen`` ones.

        The deck holds its player card's starter and at most ``MAX_COPIES`` cards of a
        name (VS-DECK-1); every card of the pool is otherwise equally likely.
        """
        g = self._game
        name_of = g.name_of
        room = [MAX_COPIES] * len(g.names)
        for c, n in seen.items():
            room[name_of[c]] -= n
        out: list[int] = []
        starter = (
            g.index.get(g.players[self.pcs[p]].starter, -1) if self.pcs[p] in g.players else -1
        )
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
