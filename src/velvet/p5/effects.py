"""The effect interpreter: what abilities, cards and hits do to a :class:`P5State`.

Effects are compiled ids (``game.eff_*`` tables) run from the state's ``work``
stack; a choice inside one becomes a decision on ``dec`` for the player. Also the
derived reads the rules share (a player's abilities, targets, what is left to pay).
"""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING

from velvet.engine.core import Event
from velvet.p5.cards import RESOURCES, STATS
from velvet.p5.state import (
    ABIL_SRC,
    BOSS,
    BOSS_SRC,
    CA,
    D_ALLOC,
    D_ENTER,
    D_MIX,
    D_STAT,
    O_CHECK,
    O_CHOICE,
    O_DICE,
    O_DRAW,
    O_GAIN,
    O_MIX,
    O_PAY,
    O_RESTORE,
    O_SPEND,
    O_STAT,
    ROW_SRC,
    T_AUTO,
    W_ALLOC,
    W_DEFEAT,
    W_EFF,
    AllocItem,
    DefeatItem,
    EffectItem,
    EnterItem,
    EnterOrder,
    Split,
    SplitOf,
    StatChoice,
    WorkItem,
    new_tuple,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from velvet.p5.state import P5State


def success(face: int) -> bool:
    """P5-COMP-5: 2 of 6 faces are the Phantom Thief symbol (5 and 6 on a d6)."""
    return face >= 5


def tok(v: Sequence[int]) -> dict[str, int]:
    """Token counts as event data: ``{"stamina": 2, "bullet": 1}`` (zeros left out)."""
    return {r: x for r, x in zip(RESOURCES, v, strict=False) if x}  # the first four


# --- derived reads ---------------------------------------------------------------------------


def abilities(s: P5State, p: int) -> list[int]:
    """Every ability player ``p`` has now: persona skills, party, thief passive, confidants."""
    g = s._game
    persona = s.persona[p]
    out = [*g.persona_abils[persona]]
    if g.persona_party[persona]:
        out.extend(map(g.shadow_abil.__getitem__, s.party[p]))
    out.append(g.thief_abil[s.thief[p]])
    out.extend(map(g.conf_abil.__getitem__, s.conf[p]))
    return out


def dice_bonus(s: P5State, p: int, stat: int) -> int:
    g = s._game
    return sum(g.ab_bonus[a][stat] for a in abilities(s, p) if g.ab_trigger[a] == T_AUTO)


def party_limit(s: P5State, p: int) -> int:
    g = s._game
    return g.party_size + sum(map(g.ab_party.__getitem__, abilities(s, p)))


def bonds(s: P5State, p: int) -> int:
    """Recruited confidants that count for P5-CONF-MISHIMA."""
    return sum(1 for c in s.conf[p] if s._game.conf_counts[c])


def targets(s: P5State) -> list[int]:
    """The revealed shadows, then the boss once it is out."""
    return [*s.rev, BOSS] if s.boss_rem else s.rev[:]


def target_of(s: P5State, text: str) -> int:
    """The target key of a target id (a shadow's id or ``boss``)."""
    return BOSS if text == "boss" else s._game.shadow_index[text]


def rem_of(s: P5State, t: int) -> list[int] | None:
    """What is left to pay on target ``t``, or None when it is not in the palace."""
    if t == BOSS:
        return s.boss_rem if s.boss_rem else None
    try:
        return s.rem[s.rev.index(t)]
    except ValueError:
        return None


def weak(s: P5State, t: int, typ: int) -> bool:
    g = s._game
    if typ < 0:
        return False
    if t == BOSS:
        return typ in g.boss_weak[s.palace]
    return typ in g.shadow_weak[t]


# --- the work stack --------------------------------------------------------------------------


def do(s: P5State, item: WorkItem, ev: list[Event]) -> None:
    """Run one work item for the player in turn."""
    if type(item) is EffectItem:
        effect(s, s.turn, item.effect, ev)
    elif type(item) is DefeatItem:
        defeat_check(s, s.turn, item.target, ev)
    elif type(item) is AllocItem:
        alloc(s, item.target, item.n, ev)
    else:
        assert type(item) is EnterItem
        sources = item.sources
        if len(sources) == 1:
            push_effects(s, source_effects(s, sources[0]))
            ev.append(Event("enter_effect", {"source": s._game.source_text(sources[0]).source}))
        elif sources:
            s.dec.append(new_tuple(EnterOrder, (D_ENTER, s.turn, sources)))


def push_effects(s: P5State, ids: Sequence[int]) -> None:
    work = s.work
    for e in reversed(ids):
        work.append(new_tuple(EffectItem, (W_EFF, e)))


def source_effects(s: P5State, src: int) -> tuple[int, ...]:
    """The effects of an On Palace Enter source (a row, the boss, a shadow, an ability)."""
    g = s._game
    if src >= ABIL_SRC:
        return g.ab_effects[src - ABIL_SRC]
    if src == BOSS_SRC:
        return g.boss_enter[s.palace]
    if src >= ROW_SRC:
        return g.row_enter[s.palace][src - ROW_SRC]
    return g.shadow_enter[src]


# --- effects ---------------------------------------------------------------------------------


def roll(s: P5State, dice: int) -> list[int]:
    return [s.rng.randbelow(6) + 1 for _ in range(dice)]


def check(s: P5State, p: int, stat: int, ev: list[Event]) -> bool:
    """P5-CHECK-1: roll as many dice as the stat (plus passive bonus dice)."""
    faces = roll(s, s.stats[p][stat] + dice_bonus(s, p, stat))
    ok = any(success(f) for f in faces)
    ev.append(Event("check", {"player": p, "stat": STATS[stat], "dice": faces, "success": ok}))
    return ok


def raise_stat(s: P5State, p: int, stat: int, n: int, ev: list[Event]) -> None:
    before = s.stats[p][stat]
    s.stats[p][stat] = min(s._game.stat_cap, before + n)
    ev.append(Event("stat", {"player": p, "stat": STATS[stat], "value": s.stats[p][stat]}))


def gain(s: P5State, p: int, amount: Sequence[int], ev: list[Event]) -> None:
    """P5-TERM-GAIN: fresh tokens from the supply, as many as it holds (P5-COMP-3)."""
    got = [0, 0, 0, 0]
    for k in range(4):
        x = min(amount[k], s.supply[k])
        if x:
            s.supply[k] -= x
            s.fresh[p][k] += x
            got[k] = x
    ev.append(Event("gain", {"player": p, "tokens": tok(got), "asked": tok(amount)}))


def pay(s: P5State, p: int, amount: Sequence[int], ev: list[Event]) -> bool:
    """P5-TERM-SPEND / P5-TERM-PAY: all or nothing; Cash goes back to the supply."""
    fresh = s.fresh[p]
    a0, a1, a2, a3 = amount
    if fresh[0] < a0 or fresh[1] < a1 or fresh[2] < a2 or fresh[3] < a3:
        ev.append(Event("ignored", {"player": p, "cannot_pay": tok(amount)}))
        return False
    if not (a0 or a1 or a2 or a3):
        return True
    spent = s.spent[p]
    fresh[0] -= a0
    spent[0] += a0
    fresh[1] -= a1
    spent[1] += a1
    fresh[2] -= a2
    spent[2] += a2
    fresh[CA] -= a3
    s.supply[CA] += a3
    ev.append(Event("spend", {"player": p, "tokens": tok(amount)}))
    return True


def effect(s: P5State, p: int, e: int, ev: list[Event]) -> None:
    """Run effect ``e`` for player ``p``."""
    g = s._game
    op = g.eff_op[e]
    if op == O_GAIN:
        gain(s, p, g.eff_amount[e], ev)
    elif op == O_RESTORE:
        amount = g.eff_amount[e]
        got = [0, 0, 0, 0]
        for k in range(3):
            x = min(amount[k], s.spent[p][k])
            s.spent[p][k] -= x
            s.fresh[p][k] += x
            got[k] = x
        ev.append(Event("restore", {"player": p, "tokens": tok(got)}))
    elif op in (O_PAY, O_SPEND):
        if pay(s, p, g.eff_amount[e], ev):
            push_effects(s, g.eff_then[e])
    elif op == O_STAT:
        raise_stat(s, p, g.eff_stat[e], g.eff_n[e], ev)
    elif op == O_CHOICE:
        options = g.eff_stats[e]
        if len(options) == 1:
            raise_stat(s, p, options[0], g.eff_n[e], ev)
        else:
            s.dec.append(new_tuple(StatChoice, (D_STAT, p, options, g.eff_n[e])))
    elif op == O_CHECK:
        ok = check(s, p, g.eff_stat[e], ev)
        push_effects(s, g.eff_then[e] if ok else g.eff_else[e])
    elif op == O_DICE:
        face = roll(s, 1)
        ok = success(face[0])
        ev.append(Event("dice", {"player": p, "dice": face, "success": ok}))
        push_effects(s, g.eff_then[e] if ok else g.eff_else[e])
    elif op == O_MIX:
        n = bonds(s, p) if g.eff_bonds[e] else g.eff_n[e]
        kinds = g.eff_kinds[e]
        caps = split_caps(s, D_MIX, p, kinds)
        split(s, D_MIX, p, kinds, min(n, sum(caps)), 0, ev)
    elif op == O_DRAW:
        for _ in range(g.eff_n[e]):
            if not s.shadow_deck:
                break
            x = s.shadow_deck.pop()
            s.held[p].append(x)
            s.drawn[p].append(x)
            ev.append(Event("draw_persona", {"player": p, "shadow": g.cards.shadows[x].id}))


# --- combat ----------------------------------------------------------------------------------


def hit(s: P5State, p: int, k: int, t: int, ev: list[Event]) -> None:
    """P5-COMBAT-2: pay one fresh token of kind ``k`` to meet one requirement of ``t``."""
    amount = [0, 0, 0, 0]
    amount[k] = 1
    pay(s, p, amount, ev)
    rem = rem_of(s, t)
    assert rem is not None
    rem[k] -= 1
    ev.append(Event("damage", {"player": p, "target": s._game.target_id(t), "hit": RESOURCES[k]}))
    defeat_check(s, p, t, ev)


def use(s: P5State, p: int, a: int, target: str, ev: list[Event]) -> None:
    """Use ability ``a`` (on ``target``, a target id, when it has one)."""
    g = s._game
    pay(s, p, g.ab_cost[a], ev)
    if g.ab_limit[a] == 1:
        insort(s.used_day[p], a)
    elif g.ab_limit[a] == 2:
        insort(s.used_pal[p], a)
    ev.append(Event("use", {"player": p, "skill": g.ab_key[a], "target": target}))
    if not g.ab_attack[a]:
        if g.ab_dice[a]:  # P5-CHECK-2: no target, so no weakness: the die decides
            face = roll(s, 1)
            ok = success(face[0])
            ev.append(Event("dice", {"player": p, "dice": face, "success": ok}))
            if not ok:
                return
        push_effects(s, g.ab_effects[a])
        return
    typ = g.ab_type[a]
    hit_targets = [target_of(s, target)] if target else targets(s)
    rolled: bool | None = None
    if g.ab_dice[a] and any(not weak(s, t, typ) for t in hit_targets):
        face = roll(s, 1)
        rolled = success(face[0])
        ev.append(Event("dice", {"player": p, "dice": face, "success": rolled}))
    amp = sum(1 for b in abilities(s, p) if g.ab_amp[b] == typ and g.ab_trigger[b] == T_AUTO)
    base = g.ab_damage[a]
    hit_any = False
    pending: list[WorkItem] = []
    for t in hit_targets:
        is_weak = weak(s, t, typ)
        if rolled is False and not is_weak:
            ev.append(Event("miss", {"target": g.target_id(t)}))
            continue
        hit_any = True
        dmg = [base[0], base[1], base[2] + amp, base[3]]
        anyd = base[4]
        if is_weak:
            anyd += sum(dmg)
            dmg = [0, 0, 0, 0]
        rem = rem_of(s, t)
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
                    "base": tok(base[:4]),
                    "base_any": base[4],
                    "amp": amp,
                    "weak": is_weak,
                    "typed": tok(dealt),
                    "any": anyd,
                    "lost": tok([dmg[k] - dealt[k] for k in range(4)]),
                },
            )
        )
        pending.append(new_tuple(AllocItem, (W_ALLOC, t, anyd)))
        pending.append(new_tuple(DefeatItem, (W_DEFEAT, t)))
    if hit_any:
        push_effects(s, g.ab_effects[a])
    s.work += reversed(pending)


def alloc(s: P5State, t: int, n: int, ev: list[Event]) -> None:
    """P5-COMBAT-4/9: ANY damage meets requirements; the player decides unless only one way."""
    rem = rem_of(s, t)
    if rem is None or n <= 0:
        return
    total = sum(rem)
    if n >= total:
        met = tok(rem)
        rem[:] = [0, 0, 0, 0]
        ev.append(
            Event(
                "damage",
                {
                    "player": s.turn,
                    "target": s._game.target_id(t),
                    "any_as": met,
                    "any_lost": n - total,
                },
            )
        )
        return
    split(s, D_ALLOC, s.turn, t, n, 0, ev)


def split_caps(s: P5State, kind: int, p: int, x: SplitOf) -> Sequence[int]:
    """What each kind can take: a target's requirements left (D_ALLOC: ``x`` is the
    target), or the spent tokens of the kinds ``x`` a mixed restore allows (D_MIX)."""
    if isinstance(x, int):  # D_ALLOC
        rem = rem_of(s, x)
        assert rem is not None
        return rem
    spent = s.spent[p]
    return [spent[k] if k in x else 0 for k in range(4)]


def split(s: P5State, kind: int, p: int, x: SplitOf, n: int, k: int, ev: list[Event]) -> None:
    """Split ``n`` over kinds ``k``..3, one kind at a time: a kind whose count is forced
    is settled at once; the first with a choice becomes a decision (P5-COMBAT-4)."""
    while n > 0 and k < 4:
        caps = split_caps(s, kind, p, x)
        lo, hi = max(0, n - sum(caps[k + 1 :])), min(caps[k], n)
        if lo < hi:
            s.dec.append(new_tuple(Split, (kind, p, x, n, k)))
            return
        split_put(s, kind, p, x, k, lo, ev)
        n -= lo
        k += 1


def split_put(s: P5State, kind: int, p: int, x: SplitOf, k: int, v: int, ev: list[Event]) -> None:
    """Settle ``v`` of kind ``k``: ANY damage meeting a requirement, or tokens restored."""
    if not v:
        return
    if isinstance(x, int):  # D_ALLOC
        rem = rem_of(s, x)
        assert rem is not None
        rem[k] -= v
        ev.append(
            Event(
                "damage",
                {"player": p, "target": s._game.target_id(x), "any_as": {RESOURCES[k]: v}},
            )
        )
        return
    s.spent[p][k] -= v
    s.fresh[p][k] += v
    ev.append(Event("restore", {"player": p, "tokens": {RESOURCES[k]: v}}))


def defeat_check(s: P5State, p: int, t: int, ev: list[Event]) -> None:
    """A target with nothing left to pay is defeated: the boss ends the game (P5-END-1)."""
    g = s._game
    rem = rem_of(s, t)
    if rem is None or any(rem):
        return
    if t == BOSS:
        s.boss_rem = []
        s.result = 1
        ev.append(Event("boss_defeated", {"player": p, "rule": "P5-END-1"}))
        return
    i = s.rev.index(t)
    s.rev.pop(i)
    s.rem.pop(i)
    s.taken[p].append(t)
    if g.persona_party[s.persona[p]]:
        s.held[p].append(t)
    ev.append(Event("defeat", {"player": p, "shadow": g.cards.shadows[t].id}))
    push_effects(s, g.shadow_death[t])


def reveal(s: P5State, count: int, ev: list[Event]) -> None:
    """Reveal up to ``count`` shadows from the shadow deck into the palace."""
    for _ in range(count):
        if not s.shadow_deck:
            break
        x = s.shadow_deck.pop()
        s.rev.append(x)
        s.rem.append(list(s._game.shadow_health[x]))
        ev.append(Event("reveal", {"shadow": s._game.cards.shadows[x].id}))


def rise(s: P5State, ev: list[Event]) -> None:
    """P5-PALACE-3 / P5-BOSS-1: the alert rises a row; new shadows or the boss appear."""
    g = s._game
    s.alert += 1
    ev.append(Event("alert", {"alert": s.alert * 25}))
    if s.alert == 4:
        s.boss_rem = list(g.boss_health[s.palace])
        ev.append(Event("boss", {"name": g.cards.palaces[s.palace].boss.name}))
        reveal(s, g.boss_reveal[s.palace] * s.n, ev)
    else:
        per = g.row_reveal[s.palace][s.alert]
        reveal(s, (g.reveal_per_player if per is None else per) * s.n, ev)
