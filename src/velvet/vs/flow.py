"""The turn flow of Persona VS: steps, legal actions and the step machine.

A turn is: Planning Step (summon, fuse, change, Supports), Skill Step (declare one
skill of the main), React windows for the defender, resolution (damage modifiers in
the turn player's order, VS-SKILL-3), then the Draw Step (VS-DRAW-1) and the turn
passes. Costs are paid one card at a time (frames, ``velvet.vs.state``). Between
actions, :func:`_advance` runs the queued effects (``velvet.vs.effects``) and the
steps that need no decision. The game ends in :func:`velvet.vs.effects.finish`
(an effect's damage can end it, so it lives below this module).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from velvet.engine.core import Event
from velvet.vs import actions as A
from velvet.vs.cards import DAMAGE_TYPES, LOWHP
from velvet.vs.effects import (
    apply_target,
    damage_steps,
    draw,
    finish,
    hp_change,
    kind_ok,
    leave,
    mod_sources,
    order_matters,
    run_effect,
    skill_name,
    targets,
)
from velvet.vs.state import (
    CTX_PLAIN,
    CTX_REACT,
    CTX_SUPPORT,
    DECLARATION,
    DECLARE,
    DRAW_RESULT,
    ENDSKILL,
    HAND_SIZE,
    MODES,
    OP_BOUNCE,
    OP_DESTROY,
    OP_DISCARD,
    OP_DISCARD_RANDOM,
    OP_RECOVER,
    OP_SEARCH,
    OP_SWAP,
    OPS,
    ORDER,
    PERSONA,
    PLAN,
    REACT1,
    REACT2,
    RESOLUTION,
    RESOLVE,
    SUPPORT,
    TURN_CAP,
    WHO_SELF,
    DiscardFrame,
    ExtraPayment,
    Frame,
    Mod,
    PayFrame,
    PromoteFrame,
    RecoverFrame,
    SearchFrame,
    TargetFrame,
    Work,
    apply_mod,
)

if TYPE_CHECKING:
    from velvet.vs.state import VsState


# --- the field -----------------------------------------------------------------------


def has_persona(state: VsState, p: int) -> bool:
    """Whether ``p`` controls a persona (no persona: no Skill Step, VS-SKILL-4)."""
    f = state.field[p]
    return bool(f[0] or f[1] or f[2])


def top_names(state: VsState, p: int, skip_mask: int = 0) -> set[int]:
    """The name numbers of ``p``'s personas (stack tops), but those in ``skip_mask``."""
    name_of = state._game.name_of
    return {name_of[st[-1]] for i, st in enumerate(state.field[p]) if st and not skip_mask >> i & 1}


# --- cost payment (VS-SUMMON-1, VS-FIELD-1, VS-FUSE-1, VS-RULE-ULT) -----------------


def _reg_ok(h: int, f: int, r: int, need_field: bool) -> bool:
    """Whether ``h`` hand cards and ``f`` personas can pay ``r`` (one from the field if
    ``need_field``: a summon onto a full field must free a slot)."""
    if r <= 0:
        return not need_field
    if need_field:
        return f >= 1 and h + f >= r
    return h + f >= r


def free_after(state: VsState, p: int, freed: int) -> int:
    """Free field slots of ``p`` once ``freed`` more have left (VS-FIELD-1)."""
    return sum(1 for st in state.field[p] if not st) + freed


def extra_options(state: VsState, p: int, c: int, mask: int, in_hand: bool) -> list[ExtraPayment]:
    """The ways to pay the named extra cost of ``c`` (VS-RULE-ULT)."""
    g = state._game
    want = g.extra[c]
    name_of = g.name_of
    out: list[ExtraPayment] = []
    skip = c if in_hand else -1
    seen: set[int] = set()
    for x in state.hand[p]:
        if x == skip:
            skip = -1
            continue
        if name_of[x] == want and x not in seen:
            seen.add(x)
            out.append(ExtraPayment(g.a_payhand[x], 1, 0, 0))
    for s, st in enumerate(state.field[p]):
        if not st:
            continue
        top = st[-1]
        if name_of[top] == want and not mask >> s & 1:
            out.append(ExtraPayment(g.a_payfield[s], 0, 1, 1))
            # The named card alone may leave a fused stack, even from its top: the card
            # under it becomes the persona, unless its name is already on the field.
            if len(st) > 1 and _uncover_ok(state, p, s, name_of[c]):
                out.append(ExtraPayment(g.a_paystack[s][top], 0, 0, 0))
        inner: set[int] = set()
        for x in st[:-1]:
            if name_of[x] == want and x not in inner:
                inner.add(x)
                out.append(ExtraPayment(g.a_paystack[s][x], 0, 0, 0))
    return out


def _uncover_ok(state: VsState, p: int, slot: int, playing: int) -> bool:
    """Whether the card under ``slot``'s top may become a persona (VS-RULE-NAME)."""
    name_of = state._game.name_of
    below = name_of[state.field[p][slot][-2]]
    if below == playing:
        return False
    return all(
        not st or name_of[st[-1]] != below for s, st in enumerate(state.field[p]) if s != slot
    )


def _can_play(state: VsState, p: int, c: int, mask: int) -> bool:
    """Whether a summon (mask -1) or fuse of hand card ``c`` can be paid in full."""
    g = state._game
    h = len(state.hand[p]) - 1
    f = free = 0  # personas that can pay (not fusion materials); free slots
    for s, st in enumerate(state.field[p]):
        if not st:
            free += 1
        elif mask < 0 or not mask >> s & 1:
            f += 1
    summon = mask < 0
    cost = g.cost[c]
    if g.extra[c] < 0:
        return _reg_ok(h, f, cost, summon and free == 0)
    for _, dh, df, freed in extra_options(state, p, c, mask if mask >= 0 else 0, True):
        if _reg_ok(h - dh, f - df, cost, summon and free + freed == 0):
            return True
    return False


def _pay_actions(state: VsState, fr: PayFrame) -> list[A.VsAction]:
    g = state._game
    p, c, mask, rem, extra = fr
    summon = mask < 0
    fmask = mask if mask >= 0 else 0
    h = len(state.hand[p])
    f = sum(1 for s, st in enumerate(state.field[p]) if st and not fmask >> s & 1)
    if extra >= 0:
        return [
            a
            for a, dh, df, freed in extra_options(state, p, c, fmask, False)
            if _reg_ok(h - dh, f - df, rem, summon and free_after(state, p, freed) == 0)
        ]
    need = summon and free_after(state, p, 0) == 0
    out: list[A.VsAction] = []
    if _reg_ok(h - 1, f, rem - 1, need):
        seen: set[int] = set()
        for x in state.hand[p]:
            if x not in seen:
                seen.add(x)
                out.append(g.a_payhand[x])
    if f and _reg_ok(h, f - 1, rem - 1, False):
        for s, st in enumerate(state.field[p]):
            if st and not fmask >> s & 1:
                out.append(g.a_payfield[s])
    return out


def _apply_pay(state: VsState, a: A.VsAction, ev: list[Event]) -> None:
    g = state._game
    fr = state.frames[-1]
    if type(fr) is not PayFrame:
        raise TypeError(f"a payment is made for a pay frame, not {fr!r}")
    p, c, mask, rem, extra = fr
    if type(a) is A.PayHand:
        x = g.index[a.card]
        state.hand[p].remove(x)
        state.disc[p].append(x)
        ev.append(Event("pay", {"player": p, "from": "hand", "card": a.card, "for": g.ids[c]}))
    elif type(a) is A.PayField:
        leave(state, p, a.slot, False, ev, "pay_field")
    else:
        assert type(a) is A.PayStack
        x = g.index[a.card]
        st = list(state.field[p][a.slot])
        del st[len(st) - 1 - st[::-1].index(x)]
        state.field[p][a.slot] = tuple(st)
        state.disc[p].append(x)
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
    state.frames[-1] = PayFrame(p, c, mask, rem, extra)
    if rem <= 0 and extra < 0:
        state.frames.pop()
        _place(state, p, c, mask, ev)


def _place(state: VsState, p: int, c: int, mask: int, ev: list[Event]) -> None:
    g = state._game
    fld = state.field[p]
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
        state.effq.append(Work(p, eid, CTX_PLAIN, c))


# --- legal actions ---------------------------------------------------------------------


def legal_actions(state: VsState) -> list[A.VsAction]:
    """Every action the player to decide may take now, in a stable order."""
    if state.winner != -1:
        return []
    if state.frames:
        return _frame_actions(state, state.frames[-1])
    step = state.step
    g = state._game
    if step == PLAN:
        return _plan_actions(state)
    if step == DECLARE:
        return _skill_actions(state)
    if step == ORDER:
        # ``first K`` picks the K-th distinct modifier (sorted) to apply next.
        return list(g.a_first[: len(set(state.mods))])
    # React windows.
    d = 1 - state.turn
    timing = DECLARATION if step == REACT1 else RESOLUTION
    sk_type = g.skills[state.sk_c][state.sk_k].damage_type
    out: list[A.VsAction] = [g.a_pass]
    seen_c: set[int] = set()
    chooses = g.chooses
    for x in state.hand[d]:
        if x not in seen_c and g.timing[x] == timing and g.vs_type[x] in (-1, sk_type):
            seen_c.add(x)
            # VS-REACT-1: as a Support (VS-PLAN-1), a React needs something to choose
            if not chooses[x] or missing_choice(state, d, x) is None:
                out.append(g.a_react[x])
    return out


_BITS = tuple(bin(m).count("1") for m in range(8))
"""How many slots a mask of the three field slots names."""
_SUBMASKS = tuple(tuple(m for m in range(1, 8) if not m & ~occ) for occ in range(8))
"""The fusion masks (non-empty) within each mask of occupied slots, in increasing order."""


def _plan_actions(state: VsState) -> list[A.VsAction]:
    g = state._game
    p = state.turn
    out: list[A.VsAction] = [g.a_end]
    fld = state.field[p]
    name_of = g.name_of
    occ_mask = (1 if fld[0] else 0) | (2 if fld[1] else 0) | (4 if fld[2] else 0)
    names = {name_of[st[-1]] for st in fld if st}  # top_names
    stack_names = [{name_of[x] for x in st} for st in fld]
    h = len(state.hand[p]) - 1  # the hand cards that can pay for one of them
    n_occ = _BITS[occ_mask]
    full = n_occ == 3
    fusions = _SUBMASKS[occ_mask]
    seen: set[int] = set()
    kind, extra, costs, chooses = g.kind, g.extra, g.cost, g.chooses
    for c in state.hand[p]:
        if c in seen:
            continue
        seen.add(c)
        k = kind[c]
        if k == SUPPORT:
            if not chooses[c] or missing_choice(state, p, c) is None:  # _support_ok
                out.append(g.a_support[c])
        elif k == PERSONA:
            nc = name_of[c]
            if nc in names:  # VS-RULE-NAME; a top of that name also breaks every fusion
                continue
            plain = extra[c] < 0
            if not plain:
                if _can_play(state, p, c, -1):
                    out.append(g.a_summon[c])
            elif _reg_ok(h, n_occ, costs[c], full):  # _can_play of a summon
                out.append(g.a_summon[c])
            if not fusions:
                continue
            # fuse_problem(m) is None exactly when no stack of ``m`` holds the name
            holds = (
                (1 if nc in stack_names[0] else 0)
                | (2 if nc in stack_names[1] else 0)
                | (4 if nc in stack_names[2] else 0)
            )
            cost = costs[c]
            fuses = g.a_fuse[c]
            for m in fusions:
                if m & holds:
                    continue
                # _can_play: the personas outside ``m`` and the other hand cards pay
                if plain:
                    if cost <= 0 or h + _BITS[occ_mask & ~m] >= cost:
                        out.append(fuses[m])
                elif _can_play(state, p, c, m):
                    out.append(fuses[m])
    if fld[0]:
        for s in (1, 2):
            if fld[s]:
                out.append(g.a_change[s])
    return out


def _support_ok(state: VsState, p: int, c: int) -> bool:
    """VS-PLAN-1: a Support is played only if each of its choices has something to choose.

    Checked when it is played: a persona to bounce, destroy or swap, a card to search
    for, recover or discard (the Support itself has left the hand).
    """
    return not state._game.chooses[c] or missing_choice(state, p, c) is None


def missing_choice(state: VsState, p: int, c: int) -> str | None:
    """The first effect of Support/React ``c`` played by ``p`` with nothing to choose.

    Such a card is not offered (VS-PLAN-1 for a Support, VS-REACT-1 for a React).
    """
    g = state._game
    effects = g.low_eff[c] if g.low_eff[c] and state.hp[p] <= LOWHP else g.play_eff[c]
    for eid in effects:
        op, who, _, _, filt, kf, _ = g.effects[eid]
        t = p if who == WHO_SELF else 1 - p
        if op in (OP_BOUNCE, OP_DESTROY, OP_SWAP):
            if not targets(state, t, op, filt):
                return OPS[op]
        elif op == OP_SEARCH:
            if not any(kind_ok(state, x, kf) for x in state.deck[t]):
                return OPS[op]
        elif op == OP_RECOVER:
            if not any(kind_ok(state, x, kf) for x in state.disc[t]):
                return OPS[op]
        elif op in (OP_DISCARD, OP_DISCARD_RANDOM) and len(state.hand[t]) <= (
            1 if t == p and c in state.hand[p] else 0
        ):
            return OPS[op]
    return None


def fuse_problem(state: VsState, p: int, c: int, mask: int) -> str | None:
    """The rule a fusion's materials break (VS-FUSE-4, VS-RULE-NAME), or None."""
    name_of = state._game.name_of
    nc = name_of[c]
    for s, st in enumerate(state.field[p]):
        if mask >> s & 1:
            if any(name_of[x] == nc for x in st):
                return "VS-FUSE-4"
        elif st and name_of[st[-1]] == nc:
            return "VS-RULE-NAME"
    return None


def _skill_actions(state: VsState) -> list[A.VsAction]:
    g = state._game
    p = state.turn
    out: list[A.VsAction] = [g.a_noskill]
    slots = (0, 1, 2) if state.more_used else (0,)
    for s in slots:
        seen: set[int] = set()
        for x in state.field[p][s]:
            if x in seen:
                continue
            seen.add(x)
            out.extend(g.a_skill[s][x])
    return out


def _frame_actions(state: VsState, fr: Frame) -> list[A.VsAction]:
    g = state._game
    p = fr.player
    if type(fr) is PayFrame:
        return _pay_actions(state, fr)
    if type(fr) is PromoteFrame:
        return [g.a_promote[s] for s in (1, 2) if state.field[p][s]]
    if type(fr) is TargetFrame:
        slots = targets(state, fr.target, fr.op, fr.slot)
        return [g.a_target[fr.target][s] for s in slots]
    if type(fr) is DiscardFrame:
        return [g.a_discard[x] for x in sorted(set(state.hand[p]))]
    if type(fr) is SearchFrame:
        kf = fr.kind
        return [g.a_search[x] for x in sorted({x for x in state.deck[p] if kind_ok(state, x, kf)})]
    if type(fr) is RecoverFrame:
        kf = fr.kind
        return [g.a_recover[x] for x in sorted({x for x in state.disc[p] if kind_ok(state, x, kf)})]
    raise TypeError(f"not a frame: {fr!r}")


# --- apply -----------------------------------------------------------------------------


def apply_unchecked(state: VsState, action: A.VsAction) -> list[Event]:
    """Apply a legal ``action``, then run the turn on until the next decision."""
    ev: list[Event] = []
    g = state._game
    if state.frames:
        fr = state.frames[-1]
        kind = type(fr)
        if kind is PayFrame:
            _apply_pay(state, action, ev)
        elif type(fr) is PromoteFrame:
            assert type(action) is A.Promote
            p = state.frames.pop().player
            fld = state.field[p]
            fld[0] = fld[action.slot]
            fld[action.slot] = ()
            ev.append(
                Event(
                    "promote",
                    {"player": p, "slot": A.SLOT_NAMES[action.slot], "card": g.ids[fld[0][-1]]},
                )
            )
        elif kind is TargetFrame:
            apply_target(state, action, ev)
        elif type(fr) is DiscardFrame:
            assert type(action) is A.Discard
            p, n = fr.player, fr.left
            x = g.index[action.card]
            state.hand[p].remove(x)
            state.disc[p].append(x)
            ev.append(Event("discard", {"player": p, "card": action.card}))
            if n <= 1 or not state.hand[p]:
                state.frames.pop()
            else:
                state.frames[-1] = DiscardFrame(p, n - 1)
        elif kind is SearchFrame:
            assert type(action) is A.Search
            p = state.frames.pop().player
            x = g.index[action.card]
            state.deck[p].remove(x)
            state.hand[p].append(x)
            state.rng.shuffle(state.deck[p])
            ev.append(Event("search", {"player": p, "card": action.card}))
        else:
            assert type(action) is A.Recover
            p = state.frames.pop().player
            x = g.index[action.card]
            state.disc[p].remove(x)
            state.hand[p].append(x)
            ev.append(Event("recover", {"player": p, "card": action.card}))
    elif type(action) is A.EndPlanning:
        state.step = DECLARE
        ev.append(Event("step", {"player": state.turn, "step": "skill"}))
    elif type(action) is A.Summon or type(action) is A.Fuse:
        p = state.turn
        c = g.index[action.card]
        mask = action.slots if type(action) is A.Fuse else -1
        state.hand[p].remove(c)
        ev.append(
            Event(
                "play",
                {
                    "player": p,
                    "card": action.card,
                    "as": "fuse" if mask >= 0 else "summon",
                    "onto": [
                        g.ids[st[-1]]
                        for i, st in enumerate(state.field[p])
                        if mask >= 0 and mask >> i & 1 and st
                    ],
                },
            )
        )
        if g.cost[c] == 0 and g.extra[c] < 0:
            _place(state, p, c, mask, ev)
        else:
            state.frames.append(PayFrame(p, c, mask, g.cost[c], g.extra[c]))
    elif type(action) is A.Change:
        p = state.turn
        fld = state.field[p]
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
    elif type(action) is A.PlaySupport or type(action) is A.PlayReact:
        p = state.turn if type(action) is A.PlaySupport else 1 - state.turn
        c = g.index[action.card]
        state.hand[p].remove(c)
        low = bool(g.low_eff[c]) and state.hp[p] <= LOWHP
        effects = g.low_eff[c] if low else g.play_eff[c]
        ctx = CTX_SUPPORT if type(action) is A.PlaySupport else CTX_REACT
        ev.append(
            Event(
                "support" if ctx == CTX_SUPPORT else "react",
                {"player": p, "card": action.card, "lowhp": low},
            )
        )
        for eid in effects:
            state.effq.append(Work(p, eid, ctx, c))
        state.effq.append(Work(p, -1, ctx, c))
        if type(action) is A.PlayReact:
            state.step = RESOLVE if state.step == REACT1 else ENDSKILL
    elif type(action) is A.Pass:
        ev.append(Event("pass", {"player": 1 - state.turn}))
        state.step = RESOLVE if state.step == REACT1 else ENDSKILL
    elif type(action) is A.DeclareSkill:
        c = g.index[action.card]
        state.sk_c, state.sk_k, state.sk_slot = c, action.index, action.slot
        state.rmods = []
        state.negated = False
        state.dmg = 0  # the previous skill's damage record is not this skill's
        state.applied = []
        sk = g.skills[c][action.index]
        ev.append(
            Event(
                "skill",
                {
                    "player": state.turn,
                    "slot": A.SLOT_NAMES[action.slot],
                    "card": action.card,
                    "skill": skill_name(state, c, action.index),
                    "type": DAMAGE_TYPES[sk.damage_type],
                    "damage": sk.damage,
                }
                | _top_if_under(state, action.slot, c),
            )
        )
        state.step = REACT1
    elif type(action) is A.NoSkill:
        ev.append(Event("noskill", {"player": state.turn}))
        _draw_step(state, ev)
    elif type(action) is A.First:
        m = sorted(set(state.mods))[action.index]
        mode, amount = m
        state.mods.remove(m)
        state.applied.append(m)
        state.dmg = apply_mod(state.dmg, mode, amount)
        same = [x for x in mod_sources(state) if x.mode == mode and x.amount == amount]
        done = state.applied.count(m) - 1
        src = same[done] if done < len(same) else None
        ev.append(
            Event(
                "modify",
                {
                    "mode": MODES[mode],
                    "amount": amount,
                    "damage": state.dmg,
                    "source": g.ids[src.card] if src else "",
                    "from": src.kind if src else "",
                },
            )
        )
        if not order_matters(state.dmg, state.mods):
            _finish_mods(state, ev)
    _advance(state, ev)
    return ev


# --- the step machine ------------------------------------------------------------------


def _advance(state: VsState, ev: list[Event]) -> None:
    """Run the turn on (queued effects, steps with no choice) until someone must decide."""
    while state.winner == -1 and not state.frames:
        # VS-RULE-LOSEMAIN: a lost main is replaced before any further effect resolves.
        tp = state.turn
        for p in (tp, 1 - tp):
            f = state.field[p]
            if not f[0] and (f[1] or f[2]):
                state.frames.append(PromoteFrame(p))
                break
        if state.frames:
            return
        if state.effq:
            p, eid, ctx, src = state.effq.pop(0)
            if eid < 0:
                state.disc[p].append(src)
            else:
                run_effect(state, p, eid, ctx, src, ev)
            continue
        step = state.step
        if step in (PLAN, REACT1, REACT2, ORDER):
            return
        if step == DECLARE:
            if has_persona(state, tp):
                return
            ev.append(Event("noskill", {"player": tp, "reason": "no persona"}))
            _draw_step(state, ev)
        elif step == RESOLVE:
            _resolve(state, ev)
        elif step == ENDSKILL:
            if state.more_pending:
                state.more_pending = False
                state.more_used = True
                state.sk_c = state.sk_k = state.sk_slot = -1
                state.step = DECLARE
                ev.append(Event("step", {"player": tp, "step": "1 more"}))
            else:
                _draw_step(state, ev)
        else:
            return


def _top_if_under(state: VsState, slot: int, card: int) -> dict[str, str]:
    """``{"top": id}`` when the declared skill's card is fused under the stack's top (so the
    event can name the persona it belongs to), else nothing."""
    top = state.field[state.turn][slot][-1]
    return {"top": state._game.ids[top]} if top != card else {}


def _resolve(state: VsState, ev: list[Event]) -> None:
    """Skill resolution: Reacts' modifiers first, then the rest in the turn player's order."""
    g = state._game
    sk_type, base, _ = g.skills[state.sk_c][state.sk_k]
    state.applied = []
    if state.negated or base <= 0:
        state.dmg = 0
        state.mods = []
        _deal(state, ev)
        return
    dmg = base
    for mode, amount, _ in state.rmods:
        dmg = apply_mod(dmg, mode, amount)
    mods: list[Mod] = [(mode, amount) for mode, amount, _ in state.tmods]
    tp = state.turn
    for side, table in ((tp, g.attack), (1 - tp, g.defend)):
        for st in state.field[side]:
            for x in st:
                for typ, mode, amount in table[x]:
                    if typ < 0 or typ == sk_type:
                        mods.append((mode, amount))
    mods.sort()
    state.dmg = dmg
    state.mods = mods
    if order_matters(dmg, mods):
        state.step = ORDER
        return
    _finish_mods(state, ev)


def _finish_mods(state: VsState, ev: list[Event]) -> None:
    dmg = state.dmg
    for mode, amount in state.mods:
        dmg = apply_mod(dmg, mode, amount)
    state.applied.extend(state.mods)
    state.mods = []
    state.dmg = dmg
    _deal(state, ev)


def _deal(state: VsState, ev: list[Event]) -> None:
    g = state._game
    tp = state.turn
    d = 1 - tp
    sk_type, _, effects = g.skills[state.sk_c][state.sk_k]
    dmg = state.dmg
    state.step = REACT2
    main = state.field[d][0]
    hit = dmg > 0 and bool(main) and g.weak[main[-1]] == sk_type
    how = damage_steps(state)
    if dmg > 0:
        hp_change(state, d, -dmg, ev, "skill", how)
        if state.winner != -1:
            return
    else:
        ev.append(Event("no_damage", {"player": d, "negated": state.negated, **how}))
    if hit:
        ev.append(Event("weakness", {"player": d, "card": g.ids[main[-1]]}))
        if not state.more_used:
            state.more_pending = True
            ev.append(Event("one_more", {"player": tp}))
    for eid, if_weak in effects:
        if hit or not if_weak:
            state.effq.append(Work(tp, eid, CTX_PLAIN, state.sk_c))


def _draw_step(state: VsState, ev: list[Event]) -> None:
    """VS-DRAW-1 and VS-END-2, then the turn passes (VS-TURN-1)."""
    p = state.turn
    need = HAND_SIZE - len(state.hand[p])
    state.sk_c = state.sk_k = state.sk_slot = -1
    state.rmods = []
    state.negated = False
    state.more_pending = False
    if need > 0:
        if len(state.deck[p]) < need:
            finish(state, 1 - p, ev, "deck")
            return
        draw(state, p, need, ev)
    state.turn = 1 - p
    state.turn_no += 1
    state.more_used = False
    state.tmods = []
    state.step = PLAN
    if state.turn_no > TURN_CAP:
        finish(state, DRAW_RESULT, ev, "turn cap")
        return
    ev.append(Event("turn", {"player": state.turn, "turn": state.turn_no}))
