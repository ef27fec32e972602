"""One match of the Persona 5 board game: plain data in slots, and the rules over it.

Tokens are per-player counts ``fresh[p][k]`` / ``spent[p][k]`` (k: Stamina, SP,
Bullet, Cash; Cash is never spent, it returns to the supply: P5-COMP-2).
Cards are indices into the game's tuples. Decisions inside effects sit on a
stack ``dec``; effects waiting to run sit on a stack ``work``;
``legal_actions()`` answers for the top decision, else for the phase.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from velvet.engine.core import TERMINAL, Event, State
from velvet.engine.errors import ConfigError, IllegalActionError, RecordError
from velvet.engine.rng import Rng
from velvet.p5 import actions as A
from velvet.p5.cards import RESOURCES, STATS
from velvet.p5.game import ABIL_SRC, BOSS, BOSS_SRC, OP, ROW_SRC, TRIGGERS, P5Game
from velvet.p5.views import P5DecisionView, P5PlayerView, P5View

if TYPE_CHECKING:
    from collections.abc import Sequence

ST, SP, BU, CA = 0, 1, 2, 3
OFF, IN_PALACE = -1, -2
# phases
ORDER, MAIN, DISCOVER, FIGHT, ENDING, OVER, AFTER = range(7)
PHASES = ("order", "main", "discover", "fight", "ending", "over", "after")
# decisions on the stack
D_ENTER, D_STAT, D_ALLOC, D_MIX, D_PARTY = range(5)
# work items
W_EFF, W_ENTER, W_ALLOC, W_DEFEAT = range(4)


class EnterOrder(NamedTuple):
    """Decision: which On Palace Enter source resolves next (P5-PALACE-1)."""

    kind: int  # D_ENTER
    player: int
    sources: tuple[int, ...]


class StatChoice(NamedTuple):
    """Decision: which of ``stats`` gets +``n`` (P5-RECRUIT-3, stat_choice effects)."""

    kind: int  # D_STAT
    player: int
    stats: tuple[int, ...]
    n: int


class Split(NamedTuple):
    """Decision: how many of ``left`` go to resource ``res``: ANY damage on the target
    ``of`` (D_ALLOC, P5-COMBAT-4) or a mixed restore over the kinds ``of`` (D_MIX)."""

    kind: int  # D_ALLOC or D_MIX
    player: int
    of: Any
    left: int
    res: int


class PartyDraft(NamedTuple):
    """Decision: the draft party and the shadows changed so far (P5-ARSENE-3)."""

    kind: int  # D_PARTY
    player: int
    draft: tuple[int, ...]
    moved: tuple[int, ...]


Decision = EnterOrder | StatChoice | Split | PartyDraft
DECISIONS: dict[int, type[Decision]] = {
    D_ENTER: EnterOrder,
    D_STAT: StatChoice,
    D_ALLOC: Split,
    D_MIX: Split,
    D_PARTY: PartyDraft,
}


class EffectItem(NamedTuple):
    """Work: run one effect for the player in turn."""

    kind: int  # W_EFF
    effect: int


class EnterItem(NamedTuple):
    """Work: the On Palace Enter sources still to resolve."""

    kind: int  # W_ENTER
    sources: tuple[int, ...]


class AllocItem(NamedTuple):
    """Work: place ``n`` ANY damage on ``target``."""

    kind: int  # W_ALLOC
    target: int
    n: int


class DefeatItem(NamedTuple):
    """Work: see whether ``target`` is defeated."""

    kind: int  # W_DEFEAT
    target: int


WorkItem = EffectItem | EnterItem | AllocItem | DefeatItem
WORK: dict[int, type[WorkItem]] = {
    W_EFF: EffectItem,
    W_ENTER: EnterItem,
    W_ALLOC: AllocItem,
    W_DEFEAT: DefeatItem,
}
_new = tuple.__new__  # builds a NamedTuple without its Python-level __new__ (hot paths)

T_USE, T_AUTO, T_SETUP, T_RECRUIT, T_ENTER = (
    TRIGGERS[k] for k in ("use", "auto", "setup", "recruit", "palace_enter")
)
O_GAIN, O_RESTORE, O_SPEND, O_PAY, O_STAT, O_CHOICE, O_CHECK, O_DICE, O_MIX, O_DRAW = (
    OP[k]
    for k in (
        "gain",
        "restore",
        "spend",
        "pay",
        "stat",
        "stat_choice",
        "check",
        "dice",
        "restore_mix",
        "draw_persona",
    )
)

_FIELDS = (
    "rng",
    "n",
    "day",
    "phase",
    "turn",
    "went",
    "thief",
    "persona",
    "fresh",
    "spent",
    "stats",
    "loc",
    "conf",
    "held",
    "drawn",
    "party",
    "grants",
    "taken",
    "used_day",
    "used_pal",
    "supply",
    "locs",
    "loc_conf",
    "loc_deck",
    "conf_deck",
    "shadow_deck",
    "palace",
    "alert",
    "rev",
    "rem",
    "boss_rem",
    "result",
    "dec",
    "work",
    "disc",
    "party_set",
)


def _success(face: int) -> bool:
    """P5-COMP-5: 2 of 6 faces are the Phantom Thief symbol (5 and 6 on a d6)."""
    return face >= 5


class P5State(State[A.P5Action, P5View]):
    __slots__ = (*_FIELDS, "_game")

    _game: P5Game
    rng: Rng
    n: int
    day: int
    phase: int
    turn: int
    went: list[bool]
    thief: list[int]
    persona: list[int]
    fresh: list[list[int]]
    spent: list[list[int]]
    stats: list[list[int]]
    loc: list[int]
    conf: list[list[int]]
    held: list[list[int]]
    drawn: list[list[int]]
    party: list[list[int]]
    grants: list[list[list[int]]]
    taken: list[list[int]]
    used_day: list[list[int]]
    used_pal: list[list[int]]
    supply: list[int]
    locs: list[int]
    loc_conf: list[int]
    loc_deck: list[int]
    conf_deck: list[int]
    shadow_deck: list[int]
    palace: int
    alert: int
    rev: list[int]
    rem: list[list[int]]
    boss_rem: list[int]
    result: int
    dec: list[Decision]
    work: list[WorkItem]
    disc: int
    party_set: bool
    """P5-ARSENE-3 ruling: the player in turn has chosen a party since their last other
    action, so no new party decision is offered until they act otherwise."""

    # --- protocol --------------------------------------------------------------------------

    @property
    def game(self) -> P5Game:
        return self._game

    @property
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase == ORDER:
            return 0
        return self.turn

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        return [1.0 if self.result == 1 else 0.0] * self.n

    def outcome_text(self) -> str:
        if self.result == 1:
            return f"Victory: the boss of the palace fell on day {self.day} (P5-END-1)"
        if self.result == -1:
            return f"Defeat: day {self.game.days} passed and the boss still stands (P5-END-2)"
        return f"In progress: day {self.day} of {self.game.days}"

    def clone(self) -> P5State:
        o = P5State.__new__(P5State)
        o._game = self._game
        o.rng = self.rng.clone()
        o.n = self.n
        o.day = self.day
        o.phase = self.phase
        o.turn = self.turn
        o.went = self.went[:]
        o.thief = self.thief
        o.persona = self.persona
        o.fresh = [x[:] for x in self.fresh]
        o.spent = [x[:] for x in self.spent]
        o.stats = [x[:] for x in self.stats]
        o.loc = self.loc[:]
        o.conf = [x[:] for x in self.conf]
        o.held = [x[:] for x in self.held]
        o.drawn = [x[:] for x in self.drawn]
        o.party = [x[:] for x in self.party]
        o.grants = [[g[:] for g in x] for x in self.grants]
        o.taken = [x[:] for x in self.taken]
        o.used_day = [x[:] for x in self.used_day]
        o.used_pal = [x[:] for x in self.used_pal]
        o.supply = self.supply[:]
        o.locs = self.locs[:]
        o.loc_conf = self.loc_conf[:]
        o.loc_deck = self.loc_deck[:]
        o.conf_deck = self.conf_deck[:]
        o.shadow_deck = self.shadow_deck[:]
        o.palace = self.palace
        o.alert = self.alert
        o.rev = self.rev[:]
        o.rem = [x[:] for x in self.rem]
        o.boss_rem = self.boss_rem[:]
        o.result = self.result
        o.dec = self.dec[:]
        o.work = self.work[:]
        o.disc = self.disc
        o.party_set = self.party_set
        return o

    def apply(self, action: Any) -> list[Event]:
        """Checked apply; after the end it names the clause that ended the game (P5-END-*)."""
        if self.phase == OVER:
            raise self.explain_illegal(action)
        return super().apply(action)

    def action_label(self, action: Any) -> str:
        """Words for ``action`` with card names, distinct among the legal actions."""
        from velvet.p5.words import action_labels, label

        text = action_labels(self).get(action)
        if text is not None:
            return text
        try:  # not legal now: words if its cards exist, else its text form
            return label(self, action)
        except (KeyError, ValueError, IndexError):
            return str(action)

    # --- derived ---------------------------------------------------------------------------

    def abilities(self, p: int) -> list[int]:
        """Every ability player ``p`` has now: persona skills, party, thief passive, confidants."""
        g = self._game
        out = list(g.persona_abils[self.persona[p]])
        if g.persona_party[self.persona[p]]:
            out += [g.shadow_abil[s] for s in self.party[p]]
        out.append(g.thief_abil[self.thief[p]])
        out += [g.conf_abil[c] for c in self.conf[p]]
        return out

    def dice_bonus(self, p: int, stat: int) -> int:
        g = self._game
        return sum(g.ab_bonus[a][stat] for a in self.abilities(p) if g.ab_trigger[a] == T_AUTO)

    def party_limit(self, p: int) -> int:
        g = self._game
        return g.party_size + sum(g.ab_party[a] for a in self.abilities(p))

    def bonds(self, p: int) -> int:
        """Recruited confidants that count for P5-CONF-MISHIMA."""
        return sum(1 for c in self.conf[p] if self._game.conf_counts[c])

    def targets(self) -> list[int]:
        return [*self.rev, BOSS] if self.boss_rem else self.rev[:]

    def _rem_of(self, t: int) -> list[int] | None:
        if t == BOSS:
            return self.boss_rem if self.boss_rem else None
        try:
            return self.rem[self.rev.index(t)]
        except ValueError:
            return None

    def _weak(self, t: int, typ: int) -> bool:
        g = self._game
        if typ < 0:
            return False
        if t == BOSS:
            return typ in g.boss_weak[self.palace]
        return typ in g.shadow_weak[t]

    def _can_use(self, p: int, a: int, in_fight: bool) -> bool:
        g = self._game
        if g.ab_trigger[a] != T_USE:
            return False
        if g.ab_palace_only[a] and not in_fight:
            return False
        lim = g.ab_limit[a]
        if lim == 1 and a in self.used_day[p]:
            return False
        if lim == 2 and a in self.used_pal[p]:
            return False
        fresh = self.fresh[p]
        cost = g.ab_cost[a]
        return (
            fresh[0] >= cost[0]
            and fresh[1] >= cost[1]
            and fresh[2] >= cost[2]
            and (fresh[3] >= cost[3])
        )

    # --- legal actions ---------------------------------------------------------------------

    def legal_actions(self) -> list[Any]:
        g = self._game
        if self.dec:
            return self._decision_options(self.dec[-1])
        phase = self.phase
        p = self.turn
        if phase == MAIN:
            return self._main_actions(p)
        if phase == FIGHT:
            return self._fight_actions(p)
        if phase == AFTER:
            return self._after_actions(p)
        if phase == ORDER:
            return [A.Go(q) for q in range(self.n) if not self.went[q]]
        if phase == DISCOVER:
            li = self.disc
            out: list[Any] = [g.visit_act[li]]
            if self.loc_conf[self.locs.index(li)] >= 0:
                out.append(g.recruit_act[li])
            return out
        return []

    def _decision_options(self, d: Decision) -> list[Any]:
        g = self._game
        if type(d) is EnterOrder:
            return [g.source_text(s) for s in d.sources]
        if type(d) is StatChoice:
            return [g.stat_act[s] for s in d.stats]
        if type(d) is PartyDraft:
            return self._party_options(d)
        assert type(d) is Split  # how many of what is left go to resource d.res
        caps = self._split_caps(d.kind, d.player, d.of)
        n, k = d.left, d.res
        lo, hi = max(0, n - sum(caps[k + 1 :])), min(caps[k], n)
        return list(g.assign_act[k][lo : hi + 1])

    def _main_actions(self, p: int) -> list[Any]:
        g = self._game
        cur = self.loc[p]
        occupied = [self.loc[q] for q in range(self.n) if q != p]
        out: list[Any] = []
        rec: list[Any] = []
        for i, li in enumerate(self.locs):
            if li == cur or li in occupied:
                continue
            out.append(g.visit_act[li])
            if self.loc_conf[i] >= 0:
                rec.append(g.recruit_act[li])
        out += rec
        if self.loc_deck and self.fresh[p][CA] >= 1:
            out.append(A.Discover())
        if cur != IN_PALACE:
            out.append(A.Palace())
        self._free_actions(p, out)
        return out

    def _free_actions(self, p: int, out: list[Any]) -> None:
        """Abilities usable outside a fight (P5-COMBAT-3) and, for a persona-party player
        outside the palace, the start of a party decision (P5-ARSENE-3)."""
        g = self._game
        for a in self.abilities(p):
            if self._can_use(p, a, False):
                out.append(g.use_plain[a])
        if g.persona_party[self.persona[p]] and self.loc[p] != IN_PALACE and not self.party_set:
            party = self.party[p]
            out += [g.unequip_act[s] for s in party]
            if len(party) < self.party_limit(p):
                out += [g.equip_act[s] for s in self.held[p] if s not in party]

    def _after_actions(self, p: int) -> list[Any]:
        """After the turn's action: abilities and party changes, then an explicit end."""
        out: list[Any] = []
        self._free_actions(p, out)
        out.append(A.End())
        return out

    def _party_options(self, d: PartyDraft) -> list[Any]:
        """P5-ARSENE-3: the draft party changes one shadow at a time; each shadow may be
        changed and changed back once (so a mistake can be taken back, and the decision
        ends); ``done`` makes the draft the party."""
        g = self._game
        p, draft, moved = d.player, d.draft, d.moved
        out: list[Any] = [g.unequip_act[s] for s in draft if moved.count(s) < 2]
        if len(draft) < self.party_limit(p):
            out += [g.equip_act[s] for s in self.held[p] if s not in draft and moved.count(s) < 2]
        out.append(A.Done())
        return out

    def _fight_actions(self, p: int) -> list[Any]:
        g = self._game
        targets = self.targets()
        out: list[Any] = []
        for a in self.abilities(p):
            if not self._can_use(p, a, True):
                continue
            if g.ab_attack[a] and not g.ab_all[a]:
                out += [g.use_target[a, t] for t in targets]
            elif not g.ab_attack[a] or targets:
                out.append(g.use_plain[a])
        fresh = self.fresh[p]
        for t in targets:
            rem = self._rem_of(t)
            assert rem is not None
            for k in range(4):
                if fresh[k] and rem[k]:
                    out.append(g.hit_act[k, t])
        out.append(A.End())
        return out

    # --- apply -----------------------------------------------------------------------------

    def apply_unchecked(self, action: Any) -> list[Event]:
        ev: list[Event] = []
        kind = type(action)
        if self.party_set and not self.dec:
            self.party_set = False  # any other action allows a new party decision (P5-ARSENE-3)
        if self.dec:
            self._answer(action, ev)
        else:
            p = self.turn
            if kind is A.Visit:
                self._visit(p, self._game.loc_index[action.loc], ev)
            elif kind is A.Hit:
                self._hit(p, RESOURCES.index(action.res), self._target(action.target), ev)
            elif kind is A.Use:
                self._use(p, self._game.ab_index[action.skill], action.target, ev)
            elif kind is A.End:
                ev.append(Event("end_turn", {"player": p}))
                self.phase = ENDING
            elif kind is A.Recruit:
                self._recruit(p, self._game.loc_index[action.loc], ev)
            elif kind is A.Palace:
                self._enter_palace(p, ev)
            elif kind is A.Discover:
                self._discover(p, ev)
            elif kind is A.Go:
                self.turn = action.player
                self.phase = MAIN
                ev.append(Event("turn", {"player": action.player, "day": self.day}))
            elif kind is A.Equip or kind is A.Unequip:
                s = self._game.shadow_index[action.shadow]
                self._toggle(p, tuple(sorted(self.party[p])), (), s, ev)
        self._run(ev)
        return ev

    def _target(self, text: str) -> int:
        return BOSS if text == "boss" else self._game.shadow_index[text]

    def _answer(self, action: Any, ev: list[Event]) -> None:
        g = self._game
        d = self.dec.pop()
        p = d.player
        if type(d) is EnterOrder:
            text = action.source
            src = next(s for s in d.sources if g.source_text(s).source == text)
            rest = tuple(s for s in d.sources if s != src)
            self.work.append(_new(EnterItem, (W_ENTER, rest)))
            self._push_effects(self._source_effects(src))
            ev.append(Event("enter_effect", {"source": text}))
        elif type(d) is StatChoice:
            self._raise_stat(p, STATS.index(action.stat), d.n, ev)
        elif type(d) is PartyDraft:
            if type(action) is A.Done:
                self._set_party(p, d.draft, ev)
            else:
                self._toggle(p, d.draft, d.moved, g.shadow_index[action.shadow], ev)
        else:  # Split: one kind of a split
            assert type(d) is Split
            self._split_put(d.kind, p, d.of, d.res, action.n, ev)
            self._split(d.kind, p, d.of, d.left - action.n, d.res + 1, ev)

    # --- the driver --------------------------------------------------------------------------

    def _run(self, ev: list[Event]) -> None:
        """Run queued effects until a decision is needed or the phase waits for the player."""
        while True:
            if self.result:
                self.work.clear()
                self.dec.clear()
                self.phase = OVER
                return
            if self.dec:
                return
            if self.work:
                self._do(self.work.pop(), ev)
                continue
            if self.phase == FIGHT and not self.rev and self.alert < 4:
                self._rise(ev)
                continue
            if self.phase == ENDING:
                self._end_turn(ev)
                continue
            if self.phase == AFTER and len(self._after_actions(self.turn)) == 1:
                self.phase = ENDING  # nothing to do after the action but end the turn
                ev.append(Event("end_turn", {"player": self.turn}))
                continue
            return

    def _do(self, item: WorkItem, ev: list[Event]) -> None:
        if type(item) is EffectItem:
            self._effect(self.turn, item.effect, ev)
        elif type(item) is DefeatItem:
            self._defeat_check(self.turn, item.target, ev)
        elif type(item) is AllocItem:
            self._alloc(item.target, item.n, ev)
        else:
            assert type(item) is EnterItem
            sources = item.sources
            if len(sources) == 1:
                self._push_effects(self._source_effects(sources[0]))
                ev.append(
                    Event("enter_effect", {"source": self._game.source_text(sources[0]).source})
                )
            elif sources:
                self.dec.append(_new(EnterOrder, (D_ENTER, self.turn, sources)))

    def _push_effects(self, ids: Sequence[int]) -> None:
        work = self.work
        for e in reversed(ids):
            work.append(_new(EffectItem, (W_EFF, e)))

    def _source_effects(self, src: int) -> tuple[int, ...]:
        g = self._game
        if src >= ABIL_SRC:
            return g.ab_effects[src - ABIL_SRC]
        if src == BOSS_SRC:
            return g.boss_enter[self.palace]
        if src >= ROW_SRC:
            return g.row_enter[self.palace][src - ROW_SRC]
        return g.shadow_enter[src]

    # --- effects -----------------------------------------------------------------------------

    def _roll(self, dice: int) -> list[int]:
        return [self.rng.randbelow(6) + 1 for _ in range(dice)]

    def _check(self, p: int, stat: int, ev: list[Event]) -> bool:
        """P5-CHECK-1: roll as many dice as the stat (plus passive bonus dice)."""
        faces = self._roll(self.stats[p][stat] + self.dice_bonus(p, stat))
        ok = any(_success(f) for f in faces)
        ev.append(Event("check", {"player": p, "stat": STATS[stat], "dice": faces, "success": ok}))
        return ok

    def _raise_stat(self, p: int, stat: int, n: int, ev: list[Event]) -> None:
        before = self.stats[p][stat]
        self.stats[p][stat] = min(self._game.stat_cap, before + n)
        ev.append(Event("stat", {"player": p, "stat": STATS[stat], "value": self.stats[p][stat]}))

    def _gain(self, p: int, amount: Sequence[int], ev: list[Event]) -> None:
        """P5-TERM-GAIN: fresh tokens from the supply, as many as it holds (P5-COMP-3)."""
        got = [0, 0, 0, 0]
        for k in range(4):
            x = min(amount[k], self.supply[k])
            if x:
                self.supply[k] -= x
                self.fresh[p][k] += x
                got[k] = x
        ev.append(Event("gain", {"player": p, "tokens": _tok(got), "asked": _tok(amount)}))

    def _pay(self, p: int, amount: Sequence[int], ev: list[Event]) -> bool:
        """P5-TERM-SPEND / P5-TERM-PAY: all or nothing; Cash goes back to the supply."""
        fresh = self.fresh[p]
        if any(fresh[k] < amount[k] for k in range(4)):
            ev.append(Event("ignored", {"player": p, "cannot_pay": _tok(amount)}))
            return False
        for k in range(3):
            fresh[k] -= amount[k]
            self.spent[p][k] += amount[k]
        fresh[CA] -= amount[CA]
        self.supply[CA] += amount[CA]
        if any(amount):
            ev.append(Event("spend", {"player": p, "tokens": _tok(amount)}))
        return True

    def _effect(self, p: int, e: int, ev: list[Event]) -> None:
        g = self._game
        op = g.eff_op[e]
        if op == O_GAIN:
            self._gain(p, g.eff_amount[e], ev)
        elif op == O_RESTORE:
            amount = g.eff_amount[e]
            got = [0, 0, 0, 0]
            for k in range(3):
                x = min(amount[k], self.spent[p][k])
                self.spent[p][k] -= x
                self.fresh[p][k] += x
                got[k] = x
            ev.append(Event("restore", {"player": p, "tokens": _tok(got)}))
        elif op in (O_PAY, O_SPEND):
            if self._pay(p, g.eff_amount[e], ev):
                self._push_effects(g.eff_then[e])
        elif op == O_STAT:
            self._raise_stat(p, g.eff_stat[e], g.eff_n[e], ev)
        elif op == O_CHOICE:
            options = g.eff_stats[e]
            if len(options) == 1:
                self._raise_stat(p, options[0], g.eff_n[e], ev)
            else:
                self.dec.append(_new(StatChoice, (D_STAT, p, options, g.eff_n[e])))
        elif op == O_CHECK:
            ok = self._check(p, g.eff_stat[e], ev)
            self._push_effects(g.eff_then[e] if ok else g.eff_else[e])
        elif op == O_DICE:
            face = self._roll(1)
            ok = _success(face[0])
            ev.append(Event("dice", {"player": p, "dice": face, "success": ok}))
            self._push_effects(g.eff_then[e] if ok else g.eff_else[e])
        elif op == O_MIX:
            n = self.bonds(p) if g.eff_bonds[e] else g.eff_n[e]
            kinds = g.eff_kinds[e]
            caps = self._split_caps(D_MIX, p, kinds)
            self._split(D_MIX, p, kinds, min(n, sum(caps)), 0, ev)
        elif op == O_DRAW:
            for _ in range(g.eff_n[e]):
                if not self.shadow_deck:
                    break
                s = self.shadow_deck.pop()
                self.held[p].append(s)
                self.drawn[p].append(s)
                ev.append(Event("draw_persona", {"player": p, "shadow": g.cards.shadows[s].id}))

    # --- turn actions ------------------------------------------------------------------------

    def _visit(self, p: int, li: int, ev: list[Event]) -> None:
        self.loc[p] = li
        ev.append(Event("visit", {"player": p, "location": self._game.cards.locations[li].id}))
        self._push_effects(self._game.loc_effects[li])
        self.phase = AFTER

    def _recruit(self, p: int, li: int, ev: list[Event]) -> None:
        g = self._game
        self.loc[p] = li
        i = self.locs.index(li)
        c = self.loc_conf[i]
        s1, s2 = g.conf_checks[c]
        ok1 = self._check(p, s1, ev)
        ok2 = self._check(p, s2, ev)
        self.phase = AFTER
        if ok1 and ok2:
            self.loc_conf[i] = -1
            insort(self.conf[p], c)
            ev.append(Event("recruit", {"player": p, "confidant": g.cards.confidants[c].id}))
            a = g.conf_abil[c]
            if g.ab_trigger[a] == T_RECRUIT:
                self._push_effects(g.ab_effects[a])
            return
        ev.append(Event("recruit_failed", {"player": p, "confidant": g.cards.confidants[c].id}))
        if ok1 or s1 == s2:
            self._raise_stat(p, s2 if ok1 else s1, 1, ev)
        elif ok2:
            self._raise_stat(p, s1, 1, ev)
        else:
            self.dec.append(_new(StatChoice, (D_STAT, p, (s1, s2), 1)))

    def _discover(self, p: int, ev: list[Event]) -> None:
        g = self._game
        self.fresh[p][CA] -= 1
        self.supply[CA] += 1
        li = self.loc_deck.pop()
        c = self.conf_deck.pop() if self.conf_deck else -1
        self.locs.append(li)
        self.loc_conf.append(c)
        self.disc = li
        self.phase = DISCOVER
        ev.append(
            Event(
                "discover",
                {
                    "player": p,
                    "location": g.cards.locations[li].id,
                    "confidant": g.cards.confidants[c].id if c >= 0 else None,
                },
            )
        )

    def _enter_palace(self, p: int, ev: list[Event]) -> None:
        g = self._game
        self.loc[p] = IN_PALACE
        self.used_pal[p].clear()
        self.phase = FIGHT
        ev.append(Event("enter_palace", {"player": p, "alert": self.alert * 25}))
        sources: list[int] = []
        if self.alert < 4:
            sources += [ROW_SRC + r for r in range(self.alert + 1) if g.row_enter[self.palace][r]]
        elif g.boss_enter[self.palace]:
            sources.append(BOSS_SRC)
        sources += [s for s in self.rev if g.shadow_enter[s]]
        sources += [ABIL_SRC + a for a in self.abilities(p) if g.ab_trigger[a] == T_ENTER]
        self.work.append(_new(EnterItem, (W_ENTER, tuple(sources))))

    def _end_turn(self, ev: list[Event]) -> None:
        self.went[self.turn] = True
        if all(self.went):
            self.day += 1
            self.went = [False] * self.n
            for used in self.used_day:
                used.clear()
            if self.day > self._game.days:
                self.result = -1
                ev.append(Event("game_over", {"result": "defeat", "rule": "P5-END-2"}))
                return
            ev.append(Event("day", {"day": self.day}))
        left = [q for q in range(self.n) if not self.went[q]]
        if len(left) > 1:
            self.phase = ORDER
        else:
            self.turn = left[0]
            self.phase = MAIN

    # --- party -------------------------------------------------------------------------------

    def _toggle(
        self, p: int, draft: tuple[int, ...], moved: tuple[int, ...], s: int, ev: list[Event]
    ) -> None:
        """Put ``s`` into the draft party or take it out; the draft stays a decision."""
        new = tuple(x for x in draft if x != s) if s in draft else tuple(sorted((*draft, s)))
        ev.append(
            Event(
                "draft",
                {"player": p, "shadow": self._game.cards.shadows[s].id, "joins": s not in draft},
            )
        )
        self.dec.append(_new(PartyDraft, (D_PARTY, p, new, (*moved, s))))

    def _set_party(self, p: int, draft: tuple[int, ...], ev: list[Event]) -> None:
        """Make ``draft`` the active party (P5-ARSENE-2): shadows that leave lose their
        granted tokens (unspent first), shadows that join give theirs spent; the others
        keep what they gave."""
        g = self._game
        self.party_set = True
        party, grants = self.party[p], self.grants[p]
        left = [s for s in party if s not in draft]
        joined = [s for s in draft if s not in party]
        lost = [0, 0, 0, 0]
        for s in left:
            i = party.index(s)
            party.pop(i)
            got = grants.pop(i)
            for k in range(3):
                from_fresh = min(got[k], self.fresh[p][k])
                self.fresh[p][k] -= from_fresh
                self.spent[p][k] -= got[k] - from_fresh
                self.supply[k] += got[k]
                lost[k] += got[k]
        gained = [0, 0, 0, 0]
        for s in joined:
            want = g.ab_grant[g.shadow_abil[s]]
            got = [0, 0, 0, 0]
            for k in range(3):
                got[k] = min(want[k], self.supply[k])
                self.supply[k] -= got[k]
                self.spent[p][k] += got[k]
                gained[k] += got[k]
            party.append(s)
            grants.append(got)
        sh = g.cards.shadows
        ev.append(
            Event(
                "party",
                {
                    "player": p,
                    "party": [sh[s].id for s in party],
                    "joined": [sh[s].id for s in joined],
                    "left": [sh[s].id for s in left],
                    "spent_gained": _tok(gained),
                    "lost": _tok(lost),
                },
            )
        )

    # --- combat ------------------------------------------------------------------------------

    def _hit(self, p: int, k: int, t: int, ev: list[Event]) -> None:
        amount = [0, 0, 0, 0]
        amount[k] = 1
        self._pay(p, amount, ev)
        rem = self._rem_of(t)
        assert rem is not None
        rem[k] -= 1
        ev.append(
            Event("damage", {"player": p, "target": self._game.target_id(t), "hit": RESOURCES[k]})
        )
        self._defeat_check(p, t, ev)

    def _use(self, p: int, a: int, target: str, ev: list[Event]) -> None:
        g = self._game
        self._pay(p, g.ab_cost[a], ev)
        if g.ab_limit[a] == 1:
            insort(self.used_day[p], a)
        elif g.ab_limit[a] == 2:
            insort(self.used_pal[p], a)
        ev.append(Event("use", {"player": p, "skill": g.ab_key[a], "target": target}))
        if not g.ab_attack[a]:
            if g.ab_dice[a]:  # P5-CHECK-2: no target, so no weakness: the die decides
                face = self._roll(1)
                ok = _success(face[0])
                ev.append(Event("dice", {"player": p, "dice": face, "success": ok}))
                if not ok:
                    return
            self._push_effects(g.ab_effects[a])
            return
        typ = g.ab_type[a]
        targets = [self._target(target)] if target else self.targets()
        rolled: bool | None = None
        if g.ab_dice[a] and any(not self._weak(t, typ) for t in targets):
            face = self._roll(1)
            rolled = _success(face[0])
            ev.append(Event("dice", {"player": p, "dice": face, "success": rolled}))
        amp = sum(1 for b in self.abilities(p) if g.ab_amp[b] == typ and g.ab_trigger[b] == T_AUTO)
        base = g.ab_damage[a]
        hit_any = False
        pending: list[WorkItem] = []
        for t in targets:
            weak = self._weak(t, typ)
            if rolled is False and not weak:
                ev.append(Event("miss", {"target": g.target_id(t)}))
                continue
            hit_any = True
            dmg = [base[0], base[1], base[2] + amp, base[3]]
            anyd = base[4]
            if weak:
                anyd += sum(dmg)
                dmg = [0, 0, 0, 0]
            rem = self._rem_of(t)
            assert rem is not None
            dealt = [min(rem[k], dmg[k]) for k in range(4)]
            for k in range(4):
                rem[k] -= dealt[k]
            ev.append(
                Event(
                    "damage",
                    {
                        "player": p,
                        "target": g.target_id(t),
                        "skill": g.ab_key[a],
                        "base": _tok(base[:4]),
                        "base_any": base[4],
                        "amp": amp,
                        "weak": weak,
                        "typed": _tok(dealt),
                        "any": anyd,
                        "lost": _tok([dmg[k] - dealt[k] for k in range(4)]),
                    },
                )
            )
            pending.append(_new(AllocItem, (W_ALLOC, t, anyd)))
            pending.append(_new(DefeatItem, (W_DEFEAT, t)))
        if hit_any:
            self._push_effects(g.ab_effects[a])
        self.work += reversed(pending)

    def _alloc(self, t: int, n: int, ev: list[Event]) -> None:
        """P5-COMBAT-4/9: ANY damage meets requirements; the player decides unless only one way."""
        rem = self._rem_of(t)
        if rem is None or n <= 0:
            return
        total = sum(rem)
        if n >= total:
            met = _tok(rem)
            rem[:] = [0, 0, 0, 0]
            ev.append(
                Event(
                    "damage",
                    {
                        "player": self.turn,
                        "target": self._game.target_id(t),
                        "any_as": met,
                        "any_lost": n - total,
                    },
                )
            )
            return
        self._split(D_ALLOC, self.turn, t, n, 0, ev)

    def _split_caps(self, kind: int, p: int, x: Any) -> Sequence[int]:
        """What each kind can take: a target's requirements left, or the spent tokens
        of the kinds a mixed restore allows."""
        if kind == D_ALLOC:
            rem = self._rem_of(x)
            assert rem is not None
            return rem
        spent = self.spent[p]
        return [spent[k] if k in x else 0 for k in range(4)]

    def _split(self, kind: int, p: int, x: Any, n: int, k: int, ev: list[Event]) -> None:
        """Split ``n`` over kinds ``k``..3, one kind at a time: a kind whose count is forced
        is settled at once; the first with a choice becomes a decision (P5-COMBAT-4)."""
        while n > 0 and k < 4:
            caps = self._split_caps(kind, p, x)
            lo, hi = max(0, n - sum(caps[k + 1 :])), min(caps[k], n)
            if lo < hi:
                self.dec.append(_new(Split, (kind, p, x, n, k)))
                return
            self._split_put(kind, p, x, k, lo, ev)
            n -= lo
            k += 1

    def _split_put(self, kind: int, p: int, x: Any, k: int, v: int, ev: list[Event]) -> None:
        if not v:
            return
        if kind == D_ALLOC:
            rem = self._rem_of(x)
            assert rem is not None
            rem[k] -= v
            ev.append(
                Event(
                    "damage",
                    {"player": p, "target": self._game.target_id(x), "any_as": {RESOURCES[k]: v}},
                )
            )
            return
        self.spent[p][k] -= v
        self.fresh[p][k] += v
        ev.append(Event("restore", {"player": p, "tokens": {RESOURCES[k]: v}}))

    def _defeat_check(self, p: int, t: int, ev: list[Event]) -> None:
        g = self._game
        rem = self._rem_of(t)
        if rem is None or any(rem):
            return
        if t == BOSS:
            self.boss_rem = []
            self.result = 1
            ev.append(Event("boss_defeated", {"player": p, "rule": "P5-END-1"}))
            return
        i = self.rev.index(t)
        self.rev.pop(i)
        self.rem.pop(i)
        self.taken[p].append(t)
        if g.persona_party[self.persona[p]]:
            self.held[p].append(t)
        ev.append(Event("defeat", {"player": p, "shadow": g.cards.shadows[t].id}))
        self._push_effects(g.shadow_death[t])

    def _reveal(self, count: int, ev: list[Event]) -> None:
        for _ in range(count):
            if not self.shadow_deck:
                break
            s = self.shadow_deck.pop()
            self.rev.append(s)
            self.rem.append(list(self._game.shadow_health[s]))
            ev.append(Event("reveal", {"shadow": self._game.cards.shadows[s].id}))

    def _rise(self, ev: list[Event]) -> None:
        """P5-PALACE-3 / P5-BOSS-1: the alert rises a row; new shadows or the boss appear."""
        g = self._game
        self.alert += 1
        ev.append(Event("alert", {"alert": self.alert * 25}))
        if self.alert == 4:
            self.boss_rem = list(g.boss_health[self.palace])
            ev.append(Event("boss", {"name": g.cards.palaces[self.palace].boss.name}))
            self._reveal(g.boss_reveal[self.palace] * self.n, ev)
        else:
            per = g.row_reveal[self.palace][self.alert]
            self._reveal((g.reveal_per_player if per is None else per) * self.n, ev)

    # --- illegal actions -----------------------------------------------------------------------

    def explain_illegal(self, action: Any) -> IllegalActionError:
        from velvet.p5.illegal import explain

        return explain(self, action)

    def game_over_error(self) -> IllegalActionError:
        from velvet.p5.illegal import explain

        return explain(self, None)

    # --- views and JSON ------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {f: getattr(self, f) for f in _FIELDS}
        d["rng"] = self.rng.to_json()
        d["dec"] = [_listify(x) for x in self.dec]
        d["work"] = [_listify(x) for x in self.work]
        d = {k: (v if not isinstance(v, list) else _listify(v)) for k, v in d.items()}
        return d

    def view(self, player: int) -> P5View:
        return make_view(self, player)

    def reveals_since(self, before: P5State) -> bool:
        """A die was rolled or a card left a face-down deck (location, confidant, shadow)."""
        return self.rng.to_json() != before.rng.to_json() or bool(
            self.view(0)["decks"] != before.view(0)["decks"]
        )

    def public_view(self) -> P5View:
        """What a spectator may see: the co-operative game hides the same from every seat."""
        view = make_view(self, 0)
        view["me"] = None
        return view


def _listify(x: Any) -> Any:
    if isinstance(x, list | tuple):
        return [_listify(v) for v in x]
    return x


def _tok(v: Sequence[int]) -> dict[str, int]:
    """Token counts as event data: ``{"stamina": 2, "bullet": 1}`` (zeros left out)."""
    return {RESOURCES[k]: v[k] for k in range(4) if v[k]}


# --- construction ----------------------------------------------------------------------------


def new_state(g: P5Game, config: Mapping[str, Any], seed: int) -> P5State:
    """Set-up in the rulebook's order (P5-SETUP-1..12)."""
    thieves, personas, palace = g.check_config(config)
    n = len(thieves)
    s = P5State.__new__(P5State)
    s._game = g
    s.rng = Rng(seed)
    s.n = n
    s.day = 1
    s.turn = 0
    s.went = [False] * n
    s.thief = thieves
    s.persona = personas
    s.fresh = [[0, 0, 0, 0] for _ in range(n)]
    s.spent = [[0, 0, 0, 0] for _ in range(n)]
    s.stats = [list(g.thief_stats[t]) for t in thieves]
    s.loc = [OFF] * n
    for f in ("conf", "held", "drawn", "party", "grants", "taken", "used_day", "used_pal"):
        setattr(s, f, [[] for _ in range(n)])
    s.supply = list(g.supply0)  # P5-SETUP-1
    s.locs = list(g.loc_start)  # P5-SETUP-2
    s.loc_deck = list(g.loc_other)
    s.rng.shuffle(s.loc_deck)
    s.result = 0
    s.dec = []
    s.work = []
    s.disc = -1
    s.party_set = False
    ev: list[Event] = []
    for p in range(n):  # P5-SETUP-4
        for a in [g.thief_abil[thieves[p]], *g.persona_abils[personas[p]]]:
            if g.ab_trigger[a] == T_SETUP:
                for e in g.ab_effects[a]:
                    if g.eff_op[e] == O_GAIN:
                        s._gain(p, g.eff_amount[e], ev)
                    else:
                        s._raise_stat(p, g.eff_stat[e], g.eff_n[e], ev)
    arsene = any(g.persona_party[x] for x in personas)
    conf_deck = [  # P5-SETUP-5
        c
        for c in range(len(g.cards.confidants))
        if g.conf_thief[c] not in thieves and (arsene or not g.conf_arsene_only[c])
    ]
    s.rng.shuffle(conf_deck)  # P5-SETUP-6
    s.loc_conf = [conf_deck.pop() if conf_deck else -1 for _ in s.locs]
    s.conf_deck = conf_deck
    s.palace = palace  # P5-SETUP-7
    s.alert = 0
    s.boss_rem = []
    s.shadow_deck = list(range(len(g.cards.shadows)))
    s.rng.shuffle(s.shadow_deck)
    s.rev = []
    s.rem = []
    s._reveal(g.reveal_per_player * n, ev)  # P5-SETUP-8
    if n == 1:  # P5-SETUP-10
        s._gain(0, g.solo_gain, ev)
    for p in range(n):  # P5-SETUP-11
        if g.persona_party[personas[p]]:
            for _ in range(g.arsene_shadows):
                if s.shadow_deck:
                    s.held[p].append(s.shadow_deck.pop())
    s.phase = ORDER if n > 1 else MAIN  # P5-SETUP-9 / P5-SETUP-12: day 1, off the board
    return s


def state_from_json(g: P5Game, data: Any) -> P5State:
    if not isinstance(data, dict) or set(data) != set(_FIELDS):
        raise RecordError(f"p5 state: expected an object with keys {', '.join(_FIELDS)}")
    s = P5State.__new__(P5State)
    s._game = g
    for f in _FIELDS:
        setattr(s, f, data[f])
    s.rng = Rng.from_json(data["rng"])
    s.dec = _decisions(data["dec"])
    s.work = _work(data["work"])
    s.grants = [[list(x) for x in gl] for gl in data["grants"]]
    # shallow sanity checks: every index in range
    ns = len(g.cards.shadows)
    for sh in s.rev + s.shadow_deck + [x for h in s.held for x in h]:
        if not 0 <= sh < ns:
            raise RecordError(f"p5 state: shadow index {sh} out of range")
    if not 0 <= s.palace < len(g.cards.palaces) or s.n not in (1, 2):
        raise RecordError("p5 state: palace or player count out of range")
    if s.phase not in range(len(PHASES)):
        raise RecordError("p5 state: unknown phase")
    return s


def _decisions(items: Any) -> list[Decision]:
    """Pending decisions from their JSON lists (the kind comes first)."""
    return [DECISIONS[x[0]](*_tuplify(x)) for x in items]


def _work(items: Any) -> list[WorkItem]:
    """Queued work items from their JSON lists (the kind comes first)."""
    return [WORK[x[0]](*_tuplify(x)) for x in items]


def _tuplify(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(_tuplify(v) for v in x)
    return x


# --- views -----------------------------------------------------------------------------------


def describe_decision(s: P5State) -> P5DecisionView:
    """What is being decided now and by whom (for views and UIs)."""
    g = s.game
    if s.phase == OVER:
        return {"kind": "over", "player": None, "text": s.outcome_text()}
    if s.dec:
        d = s.dec[-1]
        names = {
            D_ENTER: "enter_order",
            D_STAT: "stat",
            D_ALLOC: "allocate_any",
            D_MIX: "restore_mix",
            D_PARTY: "party",
        }
        texts = {
            D_ENTER: "choose the next On Palace Enter effect to resolve",
            D_STAT: "choose which social stat gets +1",
            D_ALLOC: "choose how many of the ANY damage meet the {res} requirement",
            D_MIX: "choose how many of the restored tokens are {res}",
            D_PARTY: "change the draft party, then confirm it with done",
        }
        text = texts[d.kind].format(res=RESOURCES[d.res]) if type(d) is Split else texts[d.kind]
        out: P5DecisionView = {"kind": names[d.kind], "player": d.player, "text": text}
        if type(d) is Split:
            out["resource"] = RESOURCES[d.res]
            out["left"] = d.left
            if d.kind == D_ALLOC:
                out["target"] = g.target_id(d.of)
        if type(d) is PartyDraft:
            out["draft"] = [g.cards.shadows[x].id for x in d.draft]
        return out
    texts = {
        ORDER: "choose who takes the next turn today",
        MAIN: "take one action: visit, recruit, discover or palace",
        DISCOVER: "visit the discovered location or try to recruit its confidant",
        FIGHT: "fight in the palace, or end the turn",
        AFTER: "use abilities after your action, or end the turn",
    }
    return {"kind": PHASES[s.phase], "player": s.current_player, "text": texts.get(s.phase, "")}


def _loc_name(g: P5Game, li: int) -> str:
    if li == OFF:
        return "off"
    if li == IN_PALACE:
        return "palace"
    return g.cards.locations[li].id


def make_view(s: P5State, player: int) -> P5View:
    """Everything public (P5 is co-operative and open) minus deck orders and the RNG."""
    g = s.game
    if not 0 <= player < s.n:
        raise ConfigError(f"no player {player}: players are 0..{s.n - 1}")
    cs = g.cards
    sh = cs.shadows
    players: list[P5PlayerView] = []
    for p in range(s.n):
        players.append(
            {
                "thief": cs.thieves[s.thief[p]].id,
                "persona": cs.personas[s.persona[p]].id,
                "stats": dict(zip(STATS, s.stats[p], strict=True)),
                "fresh": dict(zip(RESOURCES, s.fresh[p], strict=True)),
                "spent": dict(zip(RESOURCES[:3], s.spent[p][:3], strict=True)),
                "location": _loc_name(g, s.loc[p]),
                "confidants": [cs.confidants[c].id for c in s.conf[p]],
                "held": [sh[x].id for x in s.held[p]],
                "drawn": [sh[x].id for x in s.drawn[p]],
                "party": [sh[x].id for x in s.party[p]],
                "grants": [dict(zip(RESOURCES[:3], x[:3], strict=True)) for x in s.grants[p]],
                "taken": [sh[x].id for x in s.taken[p]],
                "used_day": sorted(g.ab_key[a] for a in s.used_day[p]),
                "used_palace": sorted(g.ab_key[a] for a in s.used_pal[p]),
                "went": s.went[p],
            }
        )
    return {
        "game": "p5",
        "me": player,
        "day": s.day,
        "days": g.days,
        "phase": PHASES[s.phase],
        "turn": s.turn,
        "result": s.result,
        "players": players,
        "supply": dict(zip(RESOURCES, s.supply, strict=True)),
        "locations": [
            {"id": cs.locations[li].id, "confidant": cs.confidants[c].id if c >= 0 else None}
            for li, c in zip(s.locs, s.loc_conf, strict=True)
        ],
        "discovered": cs.locations[s.disc].id if s.disc >= 0 else None,
        "party_set": s.party_set,
        "palace": {
            "id": cs.palaces[s.palace].id,
            "alert": s.alert * 25,
            "shadows": [
                {"id": sh[x].id, "remaining": dict(zip(RESOURCES, r, strict=True))}
                for x, r in zip(s.rev, s.rem, strict=True)
            ],
            "boss": dict(zip(RESOURCES, s.boss_rem, strict=True)) if s.boss_rem else None,
        },
        "decks": {
            "locations": len(s.loc_deck),
            "confidants": len(s.conf_deck),
            "shadows": len(s.shadow_deck),
        },
        "decision": describe_decision(s),
        "dec": [_listify(x) for x in s.dec],
        "work": [_listify(x) for x in s.work],
    }


def determinize(g: P5Game, view: P5View, player: int, rng: Rng) -> P5State:
    """A full state consistent with ``view``; deck orders and the RNG are sampled."""
    cs = g.cards
    sidx, cidx, lidx = g.shadow_index, g.conf_index, g.loc_index
    s = P5State.__new__(P5State)
    s._game = g
    s.rng = Rng(rng.randbelow(1 << 62))
    ps = view["players"]
    s.n = len(ps)
    s.day = view["day"]
    s.phase = PHASES.index(view["phase"])
    s.turn = view["turn"]
    s.result = view["result"]
    s.went = [p["went"] for p in ps]
    s.thief = [g.thief_index[p["thief"]] for p in ps]
    s.persona = [g.persona_index[p["persona"]] for p in ps]
    s.stats = [[p["stats"][k] for k in STATS] for p in ps]
    s.fresh = [[p["fresh"][k] for k in RESOURCES] for p in ps]
    s.spent = [[*(p["spent"][k] for k in RESOURCES[:3]), 0] for p in ps]
    s.loc = [
        OFF
        if p["location"] == "off"
        else IN_PALACE
        if p["location"] == "palace"
        else lidx[p["location"]]
        for p in ps
    ]
    s.conf = [[cidx[c] for c in p["confidants"]] for p in ps]
    s.held = [[sidx[x] for x in p["held"]] for p in ps]
    s.drawn = [[sidx[x] for x in p["drawn"]] for p in ps]
    s.party = [[sidx[x] for x in p["party"]] for p in ps]
    s.grants = [[[x["stamina"], x["sp"], x["bullet"], 0] for x in p["grants"]] for p in ps]
    s.taken = [[sidx[x] for x in p["taken"]] for p in ps]
    s.used_day = [[g.ab_index[k] for k in p["used_day"]] for p in ps]
    s.used_pal = [[g.ab_index[k] for k in p["used_palace"]] for p in ps]
    s.supply = [view["supply"][k] for k in RESOURCES]
    s.locs = [lidx[x["id"]] for x in view["locations"]]
    s.loc_conf = [cidx[x["confidant"]] if x["confidant"] else -1 for x in view["locations"]]
    s.disc = lidx[view["discovered"]] if view["discovered"] else -1
    s.party_set = bool(view["party_set"])
    pal = view["palace"]
    s.palace = g.palace_index[pal["id"]]
    s.alert = pal["alert"] // 25
    s.rev = [sidx[x["id"]] for x in pal["shadows"]]
    s.rem = [[x["remaining"][k] for k in RESOURCES] for x in pal["shadows"]]
    s.boss_rem = [pal["boss"][k] for k in RESOURCES] if pal["boss"] else []
    s.dec = _decisions(view["dec"])
    s.work = _work(view["work"])
    # hidden: the decks. Locations not in play; confidants not seen and not removed at set-up;
    # shadows not seen anywhere.
    in_play = set(s.locs)
    s.loc_deck = [i for i in g.loc_other if i not in in_play]
    arsene = any(g.persona_party[x] for x in s.persona)
    seen_c = {c for c in s.loc_conf if c >= 0} | {c for cl in s.conf for c in cl}
    s.conf_deck = [
        c
        for c in range(len(cs.confidants))
        if c not in seen_c
        and g.conf_thief[c] not in s.thief
        and (arsene or not g.conf_arsene_only[c])
    ]
    seen_s = set(s.rev) | {x for h in s.held for x in h} | {x for h in s.taken for x in h}
    s.shadow_deck = [i for i in range(len(cs.shadows)) if i not in seen_s]
    for deck in (s.loc_deck, s.conf_deck, s.shadow_deck):
        s.rng.shuffle(deck)
    del s.conf_deck[view["decks"]["confidants"] :]
    del s.shadow_deck[view["decks"]["shadows"] :]
    return s
