"""The effect interpreter of Persona VS: what cards, skills and abilities do.

Each effect of the card data is a small code (``velvet.vs.cards.OPS``) that
:func:`run_effect` carries out on a :class:`~velvet.vs.state.VsState`; an effect that
needs a choice pushes a frame (a decision) for the turn flow (:mod:`velvet.vs.flow`) to
offer. Here too: HP changes (and the end of the game they can cause, :func:`finish`),
personas leaving the field, draws, and the damage modifiers of a declared skill.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from velvet.engine.core import Event
from velvet.vs import actions as A
from velvet.vs.cards import HP_START, Persona
from velvet.vs.state import (
    ANY_KIND,
    CTX_SUPPORT,
    MODE_ADD,
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
    OVER,
    SLOT_MAIN,
    SLOT_SUB,
    WHO_SELF,
    DiscardFrame,
    Mod,
    ModSource,
    PayFrame,
    RecoverFrame,
    SearchFrame,
    TargetFrame,
    apply_mod,
)

if TYPE_CHECKING:
    from velvet.vs.state import VsState


def order_matters(dmg: int, mods: list[Mod]) -> bool:
    """Whether the turn player's ordering could change the result (VS-SKILL-3)."""
    if len(set(mods)) <= 1:
        return False
    if all(m == MODE_ADD for m, _ in mods):
        return dmg + sum(a for _, a in mods if a < 0) < 0
    return True


def hp_change(
    state: VsState, p: int, amount: int, ev: list[Event], source: str, how: dict[str, Any]
) -> None:
    """Heal (never above the starting HP) or lose HP (never below 0: the rest is lost).

    ``how`` is added to the event: the source card, and for a skill how its damage was made.
    """
    if amount > 0:
        new = min(HP_START, state.hp[p] + amount)
        gained = new - state.hp[p]
        state.hp[p] = new
        ev.append(
            Event(
                "heal",
                {"player": p, "amount": gained, "hp": new, "source": source, **how},
            )
        )
    elif amount < 0:
        left = state.hp[p] + amount
        state.hp[p] = left if left > 0 else 0
        ev.append(
            Event(
                "damage",
                {
                    "player": p,
                    "amount": -amount,
                    "hp": state.hp[p],
                    "excess": -left if left < 0 else 0,
                    "source": source,
                    **how,
                },
            )
        )
        if state.hp[p] <= 0:
            finish(state, 1 - p, ev, "hp")


def finish(state: VsState, winner: int, ev: list[Event], reason: str) -> None:
    """The game ends (VS-END-1, VS-END-2, the turn cap): ``winner`` wins, or DRAW_RESULT."""
    if state.winner == -1:
        state.winner = winner
        state.step = OVER
        # Cards between zones settle: a persona being paid for returns to hand,
        # a resolving Support/React goes to the discard pile.
        for fr in state.frames:
            if type(fr) is PayFrame:
                state.hand[fr.player].append(fr.card)
        for q, e, _, x in state.effq:
            if e < 0:
                state.disc[q].append(x)
        state.frames.clear()
        state.effq.clear()
        ev.append(Event("game_over", {"winner": winner, "reason": reason}))


def leave(state: VsState, p: int, slot: int, to_hand: bool, ev: list[Event], why: str) -> None:
    """A persona leaves the field; the cards under it go to the discard (VS-FUSE-3)."""
    stack = state.field[p][slot]
    state.field[p][slot] = ()
    top = stack[-1]
    if to_hand:
        state.hand[p].append(top)
    else:
        state.disc[p].append(top)
    state.disc[p].extend(stack[:-1])
    ids = state._game.ids
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


def draw(state: VsState, p: int, n: int, ev: list[Event]) -> None:
    deck = state.deck[p]
    k = min(n, len(deck))
    for _ in range(k):
        state.hand[p].append(deck.pop())
    ev.append(Event("draw", {"player": p, "count": k}))


def kind_ok(state: VsState, x: int, kf: int) -> bool:
    """Whether card ``x`` is of kind ``kf`` (a code of ``KINDS``) for search and recover."""
    return kf == ANY_KIND or state._game.kind[x] == kf


def targets(state: VsState, t: int, op: int, filt: int) -> list[int]:
    """The slots of player ``t`` that effect ``op`` (bounce, destroy, swap) may choose."""
    fld = state.field[t]
    if op == OP_SWAP:
        return [slot for slot in (1, 2) if fld[slot]] if fld[0] else []
    cands = (0,) if filt == SLOT_MAIN else (1, 2) if filt == SLOT_SUB else (0, 1, 2)
    return [slot for slot in cands if fld[slot]]


def skill_name(state: VsState, c: int, k: int) -> str:
    card = state._game.all_cards[c]
    if not isinstance(card, Persona):
        raise TypeError(f"only a persona has skills, not {card.id}")
    return card.skills[k].name


def apply_target(state: VsState, a: A.VsAction, ev: list[Event]) -> None:
    """The chosen persona of a bounce, destroy or swap (the top frame) is acted on."""
    fr = state.frames.pop()
    if type(fr) is not TargetFrame:
        raise TypeError(f"a target is chosen for a target frame, not {fr!r}")
    assert type(a) is A.Target
    op, t = fr.op, fr.target
    if op == OP_BOUNCE:
        leave(state, t, a.slot, True, ev, "bounce")
    elif op == OP_DESTROY:
        leave(state, t, a.slot, False, ev, "destroy")
    else:
        fld = state.field[t]
        fld[0], fld[a.slot] = fld[a.slot], fld[0]
        ev.append(
            Event(
                "swap",
                {"player": t, "slot": A.SLOT_NAMES[a.slot], "main": state._game.ids[fld[0][-1]]},
            )
        )


def damage_steps(state: VsState) -> dict[str, Any]:
    """How the declared skill's damage was made, for the damage event (VS-SKILL-3).

    ``steps`` are [mode, amount, source card id, "react" | "support" | "attack" |
    "defend", damage after] in the order applied: React modifiers first, then the rest.
    """
    g = state._game
    ids = g.ids
    base = g.skills[state.sk_c][state.sk_k].damage
    steps: list[list[Any]] = []
    if state.negated or base <= 0:
        return {
            "card": ids[state.sk_c],
            "skill": skill_name(state, state.sk_c, state.sk_k),
            "base": base,
            "steps": steps,
        }
    dmg = base
    for mode, amount, src in state.rmods:
        dmg = apply_mod(dmg, mode, amount)
        steps.append([MODES[mode], amount, ids[src], "react", dmg])
    pool = mod_sources(state)
    for mode, amount in state.applied:
        found = next((i for i, m in enumerate(pool) if m.mode == mode and m.amount == amount), -1)
        if found >= 0:
            used = pool.pop(found)
            source, kind = ids[used.card], used.kind
        else:
            source, kind = "", ""
        dmg = apply_mod(dmg, mode, amount)
        steps.append([MODES[mode], amount, source, kind, dmg])
    return {
        "card": ids[state.sk_c],
        "skill": skill_name(state, state.sk_c, state.sk_k),
        "base": base,
        "steps": steps,
    }


def mod_sources(state: VsState) -> list[ModSource]:
    """Every non-React modifier of the declared skill, with the card and kind it came from.

    ``kind`` is "support" (this turn's Supports), "attack" or "defend" (abilities).
    """
    g = state._game
    sk_type = g.skills[state.sk_c][state.sk_k].damage_type
    pool = [ModSource(m, a, x, "support") for m, a, x in state.tmods]
    tp = state.turn
    for side, table, why in ((tp, g.attack, "attack"), (1 - tp, g.defend, "defend")):
        for st in state.field[side]:
            for x in st:
                for typ, mode, amount in table[x]:
                    if typ < 0 or typ == sk_type:
                        pool.append(ModSource(mode, amount, x, why))
    return pool


def run_effect(state: VsState, p: int, eid: int, ctx: int, src: int, ev: list[Event]) -> None:
    """Effect number ``eid`` of card ``src``, played by ``p`` in context ``ctx`` (CTX_*)."""
    g = state._game
    e = g.effects[eid]
    op, amount, mode, filt, kf = e.op, e.amount, e.mode, e.slot, e.kind
    t = p if e.who == WHO_SELF else 1 - p
    card = g.ids[src]
    if op == OP_HEAL:
        hp_change(state, t, amount, ev, "effect", {"card": card})
    elif op == OP_DAMAGE:
        hp_change(state, t, -amount, ev, "effect", {"card": card})
    elif op == OP_DRAW:
        draw(state, t, amount, ev)
    elif op == OP_DISCARD:
        if state.hand[t]:
            state.frames.append(DiscardFrame(t, min(amount, len(state.hand[t]))))
    elif op == OP_DISCARD_RANDOM:
        hand = state.hand[t]
        for _ in range(min(amount, len(hand))):
            x = hand.pop(state.rng.randbelow(len(hand)))
            state.disc[t].append(x)
            ev.append(Event("discard", {"player": t, "card": g.ids[x], "random": True}))
    elif op in (OP_BOUNCE, OP_DESTROY, OP_SWAP):
        if targets(state, t, op, filt):
            state.frames.append(TargetFrame(p, op, t, filt))
        else:
            ev.append(
                Event(
                    "fizzle",
                    {"player": p, "card": card, "effect": OPS[op], "reason": "no target"},
                )
            )
    elif op == OP_MODIFY:
        if ctx == CTX_SUPPORT:
            state.tmods.append((mode, amount, src))
        else:
            state.rmods.append((mode, amount, src))
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
        state.negated = True
        ev.append(Event("negate", {"player": p, "card": card}))
    elif op == OP_SEARCH:
        if any(kind_ok(state, x, kf) for x in state.deck[t]):
            state.frames.append(SearchFrame(t, kf))
        else:
            state.rng.shuffle(state.deck[t])
            ev.append(
                Event(
                    "fizzle",
                    {"player": t, "card": card, "effect": "search", "reason": "nothing found"},
                )
            )
    elif op == OP_RECOVER:
        if any(kind_ok(state, x, kf) for x in state.disc[t]):
            state.frames.append(RecoverFrame(t, kf))
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
