"""Why an action is illegal now, as an IllegalActionError naming the rule it breaks."""

from __future__ import annotations

from typing import Any

from velvet.engine.errors import IllegalActionError
from velvet.p5 import actions as A
from velvet.p5.cards import RESOURCES
from velvet.p5.effects import abilities, rem_of
from velvet.p5.flow import can_use
from velvet.p5.state import (
    AFTER,
    D_ALLOC,
    D_ENTER,
    D_MIX,
    D_PARTY,
    D_STAT,
    DISCOVER,
    FIGHT,
    IN_PALACE,
    MAIN,
    ORDER,
    OVER,
    T_USE,
    P5State,
)

_MAIN = (A.Visit, A.Recruit, A.Discover, A.Palace)
_DECISION = {
    D_ENTER: ("P5-PALACE-1", "first SOURCE: choose the order of the On Palace Enter effects"),
    D_STAT: ("P5-RECRUIT-3", "stat STAT: choose which social stat gets +1"),
    D_ALLOC: ("P5-COMBAT-4", "assign RES=N: choose how many ANY damage meet that requirement"),
    D_MIX: ("P5-CONF-MISHIMA", "assign RES=N: choose how many restored tokens are of that kind"),
    D_PARTY: ("P5-ARSENE-3", "equip/unequip SHADOW to change the draft party, done to confirm"),
}


def explain(s: P5State, action: Any) -> IllegalActionError:
    """The most specific rule ID that forbids ``action`` in ``s``."""
    g = s.game
    if s.phase == OVER:
        if s.result == 1:
            return IllegalActionError("P5-END-1", "the boss is defeated: the game is over")
        return IllegalActionError("P5-END-2", f"day {g.days} has passed: the game is over")
    if s.dec:
        d = s.dec[-1]
        rule, what = _DECISION[d.kind]
        if isinstance(action, A.Assign) and d.kind in (D_ALLOC, D_MIX):
            return IllegalActionError(rule, f"'{action}' is not a possible split now; {what}")
        if isinstance(action, A.StatUp) and d.kind == D_STAT:
            return IllegalActionError(rule, f"'{action.stat}' is not one of the stats offered")
        if isinstance(action, A.Equip | A.Unequip) and d.kind == D_PARTY:
            return IllegalActionError(
                rule,
                f"'{action}' is not possible in this party decision: a held shadow joins a "
                "party with room, a member leaves; each shadow changes and changes back once",
            )
        return IllegalActionError(rule, f"a decision is pending: {what}")
    p = s.turn
    if s.phase == ORDER:
        if isinstance(action, A.Go) and action.player < s.n:
            return IllegalActionError(
                "P5-DAY-1", f"player {action.player + 1} already took a turn today"
            )
        return IllegalActionError("P5-DAY-1", "first choose who takes the next turn: go pN")
    if isinstance(action, A.Go):
        return IllegalActionError(
            "P5-DAY-1",
            "the turn order is only chosen at the start of a day or "
            "when more than one player has yet to go",
        )
    if s.phase == DISCOVER:
        new = g.cards.locations[s.disc].id
        return IllegalActionError(
            "P5-DISCOVER-2", f"after Discover you must visit {new} or recruit there (not both)"
        )
    if s.phase == FIGHT and isinstance(action, _MAIN):
        return IllegalActionError(
            "P5-DAY-2", "one action per turn: you are in the palace; fight or end"
        )
    if s.phase == AFTER and isinstance(action, _MAIN):
        return IllegalActionError(
            "P5-DAY-2", "one action per turn: you have taken it; use abilities or end the turn"
        )
    if s.phase == MAIN and isinstance(action, A.End):
        return IllegalActionError("P5-DAY-2", "a turn is one action: take it before you end")
    if s.phase != FIGHT and isinstance(action, A.Hit):
        return IllegalActionError(
            "P5-PALACE-2", "you fight only after visiting the palace this turn"
        )
    if isinstance(action, A.First | A.StatUp | A.Assign | A.Done):
        return IllegalActionError("P5-DAY-2", f"'{action}' answers a decision that is not pending")
    if isinstance(action, A.Visit | A.Recruit):
        li = g.loc_index.get(action.loc)
        if li is None or li not in s.locs:
            known = ", ".join(g.cards.locations[x].id for x in s.locs)
            return IllegalActionError(
                "P5-VISIT-1", f"no location '{action.loc}' on the table ({known})"
            )
        if s.loc[p] == li:
            return IllegalActionError("P5-DAY-3", "you cannot end your action where you started it")
        if li in [s.loc[q] for q in range(s.n) if q != p]:
            return IllegalActionError("P5-DAY-4", f"{action.loc} is occupied by another player")
        if isinstance(action, A.Recruit):
            return IllegalActionError("P5-RECRUIT-4", f"{action.loc} has no confidant to recruit")
    if isinstance(action, A.Discover):
        return IllegalActionError("P5-DISCOVER-3", "Discover needs 1 Cash and a location card left")
    if isinstance(action, A.Palace):
        return IllegalActionError("P5-DAY-3", "you started this turn in the palace: go elsewhere")
    if isinstance(action, A.Equip | A.Unequip):
        if not g.persona_party[s.persona[p]]:
            return IllegalActionError(
                "P5-ARSENE-1", "only a persona-party persona (Arsene) equips shadows"
            )
        si = g.shadow_index.get(action.shadow)
        if s.loc[p] == IN_PALACE or s.phase not in (MAIN, AFTER):
            if isinstance(action, A.Equip) and si is not None and si in s.drawn[p]:
                return IllegalActionError(
                    "P5-CONF-CJ",
                    "personas drawn with Caroline & Justine cannot "
                    "join the party inside the palace",
                )
            return IllegalActionError("P5-ARSENE-3", "the party cannot change inside the palace")
        if s.party_set:
            return IllegalActionError(
                "P5-ARSENE-3",
                "you chose your party since your last other action: act (a skill, your "
                "turn's action) before choosing again",
            )
        if isinstance(action, A.Unequip):
            return IllegalActionError("P5-ARSENE-2", f"{action.shadow} is not in your active party")
        if si is None or si not in s.held[p]:
            return IllegalActionError(
                "P5-ARSENE-1", f"you do not hold the shadow '{action.shadow}'"
            )
        return IllegalActionError("P5-ARSENE-3", "the active party is full or already holds it")
    if isinstance(action, A.Use):
        a = g.ab_index.get(action.skill)
        if a is None or a not in abilities(s, p) or g.ab_trigger[a] != T_USE:
            return IllegalActionError("P5-COMBAT-3", f"you have no usable skill '{action.skill}'")
        lim = g.ab_limit[a]
        if lim == 1 and a in s.used_day[p]:
            return IllegalActionError("P5-TERM-DAY", f"{action.skill} is 1/Day: already used today")
        if g.ab_palace_only[a] and s.phase != FIGHT:
            if g.abilities[a].palace_only:
                rule = "P5-CONF-MISHIMA"
            elif g.ab_attack[a]:
                rule = "P5-PALACE-2"
            else:
                rule = "P5-TERM-PALACE"
            return IllegalActionError(rule, f"{action.skill} can only be used in the palace")
        if lim == 2 and a in s.used_pal[p]:
            return IllegalActionError(
                "P5-TERM-PALACE", f"{action.skill} is 1/Palace: already used on this entry"
            )
        if not can_use(s, p, a, s.phase == FIGHT):
            return IllegalActionError("P5-COMBAT-3", f"you cannot pay the cost of {action.skill}")
        return IllegalActionError(
            "P5-COMBAT-1", f"'{action.target}' is not a shadow you can target"
        )
    if isinstance(action, A.Hit):
        if action.res not in RESOURCES:
            return IllegalActionError("P5-COMBAT-2", f"unknown resource '{action.res}'")
        t = g.shadow_index.get(action.target, -2) if action.target != "boss" else -1
        rem = rem_of(s, t) if t != -2 else None
        if rem is None:
            return IllegalActionError("P5-COMBAT-1", f"'{action.target}' is not a revealed shadow")
        k = RESOURCES.index(action.res)
        if s.fresh[p][k] < 1:
            return IllegalActionError("P5-COMBAT-2", f"you have no fresh {action.res} to spend")
        return IllegalActionError("P5-COMBAT-9", f"{action.target} needs no more {action.res}")
    return IllegalActionError("P5-DAY-2", f"'{action}' is not legal now")
