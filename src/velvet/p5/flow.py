"""Turn flow: set-up, the day and its turns, legal actions, apply (the step machine), the end.

``legal_actions`` answers for the top decision on ``dec``, else for the phase;
``apply_unchecked`` answers that decision or takes the turn's action, then
:func:`run` drives the work stack (effects.py) and the phases until the player
in turn must choose again.
"""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING, Any

from velvet.engine.core import Event
from velvet.engine.rng import Rng
from velvet.p5 import actions as A
from velvet.p5.cards import RESOURCES, STATS
from velvet.p5.effects import (
    abilities,
    check,
    do,
    gain,
    hit,
    party_limit,
    push_effects,
    raise_stat,
    rem_of,
    reveal,
    rise,
    source_effects,
    split,
    split_caps,
    split_put,
    target_of,
    targets,
    tok,
    use,
)
from velvet.p5.state import (
    ABIL_SRC,
    AFTER,
    BOSS_SRC,
    CA,
    D_PARTY,
    D_STAT,
    DISCOVER,
    ENDING,
    FIGHT,
    IN_PALACE,
    MAIN,
    O_GAIN,
    OFF,
    ORDER,
    OVER,
    ROW_SRC,
    T_ENTER,
    T_RECRUIT,
    T_SETUP,
    T_USE,
    W_ENTER,
    Decision,
    EnterItem,
    EnterOrder,
    P5State,
    PartyDraft,
    Split,
    StatChoice,
    new_tuple,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

    from velvet.p5.game import P5Game


# --- set-up ----------------------------------------------------------------------------------


def new_state(g: P5Game, config: Mapping[str, Any], seed: int, rng: Rng | None = None) -> P5State:
    """Set-up in the rulebook's order (P5-SETUP-1..12).

    Every draw comes from ``rng`` if given (it becomes the state's RNG), else from
    ``Rng(seed)``: ``new_state(g, c, seed)`` is ``new_state(g, c, 0, Rng(seed))``.
    """
    thieves, personas, palace = g.check_config(config)
    g = g.at(config.get("difficulty", "standard"))  # a Velvet variant's numbers, if any
    n = len(thieves)
    s = P5State()
    s._game = g
    s.rng = Rng(seed) if rng is None else rng
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
                        gain(s, p, g.eff_amount[e], ev)
                    else:
                        raise_stat(s, p, g.eff_stat[e], g.eff_n[e], ev)
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
    s.alert = g.start_alert  # 0 by the rulebook; a difficulty level may start it higher
    s.boss_rem = []
    s.shadow_deck = list(range(len(g.cards.shadows)))
    s.rng.shuffle(s.shadow_deck)
    s.rev = []
    s.rem = []
    reveal(s, g.reveal_per_player * n, ev)  # P5-SETUP-8
    if n == 1:  # P5-SETUP-10
        gain(s, 0, g.solo_gain, ev)
    if any(g.start_gain):  # a difficulty level's tokens (the rulebook gives none)
        for p in range(n):
            gain(s, p, g.start_gain, ev)
    for p in range(n):  # P5-SETUP-11
        if g.persona_party[personas[p]]:
            for _ in range(g.arsene_shadows):
                if s.shadow_deck:
                    s.held[p].append(s.shadow_deck.pop())
    s.phase = ORDER if n > 1 else MAIN  # P5-SETUP-9 / P5-SETUP-12: day 1, off the board
    return s


# --- legal actions ---------------------------------------------------------------------------

# Actions are frozen values: the legal lists share one of each (no new object per step).
_DISCOVER, _PALACE, _END, _DONE = A.DISCOVER, A.PALACE, A.END, A.DONE
_GO = A.GO


def can_use(s: P5State, p: int, a: int, in_fight: bool) -> bool:
    """Whether player ``p`` may use ability ``a`` now: its trigger, limits and cost."""
    g = s._game
    if g.ab_trigger[a] != T_USE:
        return False
    if g.ab_palace_only[a] and not in_fight:
        return False
    lim = g.ab_limit[a]
    if lim == 1 and a in s.used_day[p]:
        return False
    if lim == 2 and a in s.used_pal[p]:
        return False
    fresh = s.fresh[p]
    cost = g.ab_cost[a]
    return (
        fresh[0] >= cost[0]
        and fresh[1] >= cost[1]
        and fresh[2] >= cost[2]
        and (fresh[3] >= cost[3])
    )


def legal_actions(s: P5State) -> list[A.P5Action]:
    g = s._game
    if s.dec:
        return decision_options(s, s.dec[-1])
    phase = s.phase
    p = s.turn
    if phase == MAIN:
        return main_actions(s, p)
    if phase == FIGHT:
        return fight_actions(s, p)
    if phase == AFTER:
        return after_actions(s, p)
    if phase == ORDER:
        return [_GO[q] for q in range(s.n) if not s.went[q]]
    if phase == DISCOVER:
        li = s.disc
        out: list[A.P5Action] = [g.visit_act[li]]
        if s.loc_conf[s.locs.index(li)] >= 0:
            out.append(g.recruit_act[li])
        return out
    return []


def decision_options(s: P5State, d: Decision) -> list[A.P5Action]:
    g = s._game
    if type(d) is EnterOrder:
        return [g.source_text(x) for x in d.sources]
    if type(d) is StatChoice:
        return [g.stat_act[x] for x in d.stats]
    if type(d) is PartyDraft:
        return party_options(s, d)
    assert type(d) is Split  # how many of what is left go to resource d.res
    caps = split_caps(s, d.kind, d.player, d.of)
    n, k = d.left, d.res
    lo, hi = max(0, n - sum(caps[k + 1 :])), min(caps[k], n)
    return list(g.assign_act[k][lo : hi + 1])


def main_actions(s: P5State, p: int) -> list[A.P5Action]:
    g = s._game
    cur = s.loc[p]
    occupied = [s.loc[q] for q in range(s.n) if q != p]
    out: list[A.P5Action] = []
    rec: list[A.P5Action] = []
    for i, li in enumerate(s.locs):
        if li == cur or li in occupied:
            continue
        out.append(g.visit_act[li])
        if s.loc_conf[i] >= 0:
            rec.append(g.recruit_act[li])
    out += rec
    if s.loc_deck and s.fresh[p][CA] >= 1:
        out.append(_DISCOVER)
    if cur != IN_PALACE:
        out.append(_PALACE)
    free_actions(s, p, out)
    return out


def usable(s: P5State, p: int, in_fight: bool) -> list[int]:
    """The abilities player ``p`` may use now (``can_use`` of each of ``abilities``)."""
    g = s._game
    trigger, palace_only, limit, costs = g.ab_trigger, g.ab_palace_only, g.ab_limit, g.ab_cost
    f0, f1, f2, f3 = s.fresh[p]
    used_day, used_pal = s.used_day[p], s.used_pal[p]
    out = []
    for a in abilities(s, p):
        if trigger[a] != T_USE or (palace_only[a] and not in_fight):
            continue
        lim = limit[a]
        if (lim == 1 and a in used_day) or (lim == 2 and a in used_pal):
            continue
        cost = costs[a]
        if f0 >= cost[0] and f1 >= cost[1] and f2 >= cost[2] and f3 >= cost[3]:
            out.append(a)
    return out


def free_actions(s: P5State, p: int, out: list[A.P5Action]) -> None:
    """Abilities usable outside a fight (P5-COMBAT-3) and, for a persona-party player
    outside the palace, the start of a party decision (P5-ARSENE-3)."""
    g = s._game
    out.extend(map(g.use_plain.__getitem__, usable(s, p, False)))
    if g.persona_party[s.persona[p]] and s.loc[p] != IN_PALACE and not s.party_set:
        party = s.party[p]
        out += [g.unequip_act[x] for x in party]
        if len(party) < party_limit(s, p):
            out += [g.equip_act[x] for x in s.held[p] if x not in party]


def has_free_action(s: P5State, p: int) -> bool:
    """Whether :func:`free_actions` would offer anything (the turn's window stays open)."""
    g = s._game
    if g.persona_party[s.persona[p]] and s.loc[p] != IN_PALACE and not s.party_set:
        party = s.party[p]
        if party:
            return True
        held = s.held[p]
        if held and any(x not in party for x in held) and len(party) < party_limit(s, p):
            return True
    return bool(usable(s, p, False))


def after_actions(s: P5State, p: int) -> list[A.P5Action]:
    """After the turn's action: abilities and party changes, then an explicit end."""
    out: list[A.P5Action] = []
    free_actions(s, p, out)
    out.append(_END)
    return out


def party_options(s: P5State, d: PartyDraft) -> list[A.P5Action]:
    """P5-ARSENE-3: the draft party changes one shadow at a time; each shadow may be
    changed and changed back once (so a mistake can be taken back, and the decision
    ends); ``done`` makes the draft the party."""
    g = s._game
    p, draft, moved = d.player, d.draft, d.moved
    out: list[A.P5Action] = [g.unequip_act[x] for x in draft if moved.count(x) < 2]
    if len(draft) < party_limit(s, p):
        out += [g.equip_act[x] for x in s.held[p] if x not in draft and moved.count(x) < 2]
    out.append(_DONE)
    return out


def fight_actions(s: P5State, p: int) -> list[A.P5Action]:
    g = s._game
    ts = targets(s)
    out: list[A.P5Action] = []
    for a in usable(s, p, True):
        if g.ab_attack[a] and not g.ab_all[a]:
            out += [g.use_target[a, t] for t in ts]
        elif not g.ab_attack[a] or ts:
            out.append(g.use_plain[a])
    fresh = s.fresh[p]
    for t in ts:
        rem = rem_of(s, t)
        assert rem is not None
        for k in range(4):
            if fresh[k] and rem[k]:
                out.append(g.hit_act[k, t])
    out.append(_END)
    return out


# --- apply -----------------------------------------------------------------------------------


def apply_unchecked(s: P5State, action: A.P5Action) -> list[Event]:
    ev: list[Event] = []
    if s.party_set and not s.dec:
        s.party_set = False  # any other action allows a new party decision (P5-ARSENE-3)
    if s.dec:
        answer(s, action, ev)
    else:
        p = s.turn
        if type(action) is A.Visit:
            visit(s, p, s._game.loc_index[action.loc], ev)
        elif type(action) is A.Hit:
            hit(s, p, RESOURCES.index(action.res), target_of(s, action.target), ev)
        elif type(action) is A.Use:
            use(s, p, s._game.ab_index[action.skill], action.target, ev)
        elif type(action) is A.End:
            ev.append(Event("end_turn", {"player": p}))
            s.phase = ENDING
        elif type(action) is A.Recruit:
            recruit(s, p, s._game.loc_index[action.loc], ev)
        elif type(action) is A.Palace:
            enter_palace(s, p, ev)
        elif type(action) is A.Discover:
            discover(s, p, ev)
        elif type(action) is A.Go:
            s.turn = action.player
            s.phase = MAIN
            ev.append(Event("turn", {"player": action.player, "day": s.day}))
        elif type(action) is A.Equip or type(action) is A.Unequip:
            x = s._game.shadow_index[action.shadow]
            toggle(s, p, tuple(sorted(s.party[p])), (), x, ev)
    run(s, ev)
    return ev


def answer(s: P5State, action: A.P5Action, ev: list[Event]) -> None:
    """Answer the decision on top of ``dec`` with ``action``."""
    g = s._game
    d = s.dec.pop()
    p = d.player
    if type(d) is EnterOrder:
        assert type(action) is A.First
        text = action.source
        src = next(x for x in d.sources if g.source_text(x).source == text)
        rest = tuple(x for x in d.sources if x != src)
        s.work.append(new_tuple(EnterItem, (W_ENTER, rest)))
        push_effects(s, source_effects(s, src))
        ev.append(Event("enter_effect", {"source": text}))
    elif type(d) is StatChoice:
        assert type(action) is A.StatUp
        raise_stat(s, p, STATS.index(action.stat), d.n, ev)
    elif type(d) is PartyDraft:
        if type(action) is A.Done:
            set_party(s, p, d.draft, ev)
        else:
            assert type(action) is A.Equip or type(action) is A.Unequip
            toggle(s, p, d.draft, d.moved, g.shadow_index[action.shadow], ev)
    else:  # Split: one kind of a split
        assert type(d) is Split and type(action) is A.Assign
        split_put(s, d.kind, p, d.of, d.res, action.n, ev)
        split(s, d.kind, p, d.of, d.left - action.n, d.res + 1, ev)


def run(s: P5State, ev: list[Event]) -> None:
    """Run queued effects until a decision is needed or the phase waits for the player."""
    while True:
        if s.result:
            s.work.clear()
            s.dec.clear()
            s.phase = OVER
            return
        if s.dec:
            return
        if s.work:
            do(s, s.work.pop(), ev)
            continue
        if s.phase == FIGHT and not s.rev and s.alert < 4:
            rise(s, ev)
            continue
        if s.phase == ENDING:
            end_turn(s, ev)
            continue
        if s.phase == AFTER and not has_free_action(s, s.turn):
            s.phase = ENDING  # nothing to do after the action but end the turn
            ev.append(Event("end_turn", {"player": s.turn}))
            continue
        return


# --- the turn's action -----------------------------------------------------------------------


def visit(s: P5State, p: int, li: int, ev: list[Event]) -> None:
    s.loc[p] = li
    ev.append(Event("visit", {"player": p, "location": s._game.cards.locations[li].id}))
    push_effects(s, s._game.loc_effects[li])
    s.phase = AFTER


def recruit(s: P5State, p: int, li: int, ev: list[Event]) -> None:
    g = s._game
    s.loc[p] = li
    i = s.locs.index(li)
    c = s.loc_conf[i]
    s1, s2 = g.conf_checks[c]
    ok1 = check(s, p, s1, ev)
    ok2 = check(s, p, s2, ev)
    s.phase = AFTER
    if ok1 and ok2:
        s.loc_conf[i] = -1
        insort(s.conf[p], c)
        ev.append(Event("recruit", {"player": p, "confidant": g.cards.confidants[c].id}))
        a = g.conf_abil[c]
        if g.ab_trigger[a] == T_RECRUIT:
            push_effects(s, g.ab_effects[a])
        return
    ev.append(Event("recruit_failed", {"player": p, "confidant": g.cards.confidants[c].id}))
    if ok1 or s1 == s2:
        raise_stat(s, p, s2 if ok1 else s1, 1, ev)
    elif ok2:
        raise_stat(s, p, s1, 1, ev)
    else:
        s.dec.append(new_tuple(StatChoice, (D_STAT, p, (s1, s2), 1)))


def discover(s: P5State, p: int, ev: list[Event]) -> None:
    g = s._game
    s.fresh[p][CA] -= 1
    s.supply[CA] += 1
    li = s.loc_deck.pop()
    c = s.conf_deck.pop() if s.conf_deck else -1
    s.locs.append(li)
    s.loc_conf.append(c)
    s.disc = li
    s.phase = DISCOVER
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


def enter_palace(s: P5State, p: int, ev: list[Event]) -> None:
    g = s._game
    s.loc[p] = IN_PALACE
    s.used_pal[p].clear()
    s.phase = FIGHT
    ev.append(Event("enter_palace", {"player": p, "alert": s.alert * 25}))
    sources: list[int] = []
    if s.alert < 4:
        sources += [ROW_SRC + r for r in range(s.alert + 1) if g.row_enter[s.palace][r]]
    elif g.boss_enter[s.palace]:
        sources.append(BOSS_SRC)
    sources += [x for x in s.rev if g.shadow_enter[x]]
    sources += [ABIL_SRC + a for a in abilities(s, p) if g.ab_trigger[a] == T_ENTER]
    s.work.append(new_tuple(EnterItem, (W_ENTER, tuple(sources))))


def end_turn(s: P5State, ev: list[Event]) -> None:
    """The turn ends; after the last turn of a day the next day begins (P5-END-2 after the last)."""
    s.went[s.turn] = True
    if all(s.went):
        s.day += 1
        s.went = [False] * s.n
        for used in s.used_day:
            used.clear()
        if s.day > s._game.days:
            s.result = -1
            ev.append(Event("game_over", {"result": "defeat", "rule": "P5-END-2"}))
            return
        ev.append(Event("day", {"day": s.day}))
    left = [q for q in range(s.n) if not s.went[q]]
    if len(left) > 1:
        s.phase = ORDER
    else:
        s.turn = left[0]
        s.phase = MAIN


# --- party -----------------------------------------------------------------------------------


def toggle(
    s: P5State, p: int, draft: tuple[int, ...], moved: tuple[int, ...], x: int, ev: list[Event]
) -> None:
    """Put shadow ``x`` into the draft party or take it out; the draft stays a decision."""
    new = tuple(y for y in draft if y != x) if x in draft else tuple(sorted((*draft, x)))
    ev.append(
        Event(
            "draft",
            {"player": p, "shadow": s._game.cards.shadows[x].id, "joins": x not in draft},
        )
    )
    s.dec.append(new_tuple(PartyDraft, (D_PARTY, p, new, (*moved, x))))


def set_party(s: P5State, p: int, draft: tuple[int, ...], ev: list[Event]) -> None:
    """Make ``draft`` the active party (P5-ARSENE-2): shadows that leave lose their
    granted tokens (unspent first), shadows that join give theirs spent; the others
    keep what they gave."""
    g = s._game
    s.party_set = True
    party, grants = s.party[p], s.grants[p]
    left = [x for x in party if x not in draft]
    joined = [x for x in draft if x not in party]
    lost = [0, 0, 0, 0]
    for x in left:
        i = party.index(x)
        party.pop(i)
        got = grants.pop(i)
        for k in range(3):
            from_fresh = min(got[k], s.fresh[p][k])
            s.fresh[p][k] -= from_fresh
            s.spent[p][k] -= got[k] - from_fresh
            s.supply[k] += got[k]
            lost[k] += got[k]
    gained = [0, 0, 0, 0]
    for x in joined:
        want = g.ab_grant[g.shadow_abil[x]]
        got = [0, 0, 0, 0]
        for k in range(3):
            got[k] = min(want[k], s.supply[k])
            s.supply[k] -= got[k]
            s.spent[p][k] += got[k]
            gained[k] += got[k]
        party.append(x)
        grants.append(got)
    sh = g.cards.shadows
    ev.append(
        Event(
            "party",
            {
                "player": p,
                "party": [sh[x].id for x in party],
                "joined": [sh[x].id for x in joined],
                "left": [sh[x].id for x in left],
                "spent_gained": tok(gained),
                "lost": tok(lost),
            },
        )
    )
