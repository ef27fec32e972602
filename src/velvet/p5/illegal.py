"""Why an action is illegal now, as an IllegalActionError naming the rule it breaks."""

from __future__ import annotations

from typing import Any

from velvet.engine.errors import IllegalActionError
from velvet.p5 import actions as A
from velvet.p5.cards import RESOURCES
from velvet.p5.state import (
    D_ALLOC,
    D_ENTER,
    D_MIX,
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
    D_ALLOC: ("P5-COMBAT-4", "assign RES=N ...: choose which requirements the ANY damage meets"),
    D_MIX: ("P5-CONF-MISHIMA", "assign stamina=N sp=M: choose how the restored tokens split"),
}


def explain(s: P5State, action: Any) -> IllegalActionError:
    """The most specific rule ID that forbids ``action`` in ``s``."""
    g = s.game
    if s.phase == OVER:
        return IllegalActionError(g.game_over_rule, "the game is over; no action is legal")
    if s.dec:
        d = s.dec[-1]
        rule, what = _DECISION[d[0]]
        if isinstance(action, A.Assign) and d[0] in (D_ALLOC, D_MIX):
            return IllegalActionError(rule, f"'{action}' is not a possible split now; {what}")
        if isinstance(action, A.StatUp) and d[0] == D_STAT:
            return IllegalActionError(rule, f"'{action.stat}' is not one of the stats offered")
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
    if s.phase == MAIN and isinstance(action, A.Hit | A.End):
        return IllegalActionError(
            "P5-PALACE-2", "you fight only after visiting the palace this turn"
        )
    if isinstance(action, A.First | A.StatUp | A.Assign):
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
        if s.loc[p] == IN_PALACE or s.phase != MAIN:
            if isinstance(action, A.Equip) and si is not None and si in s.drawn[p]:
                return IllegalActionError(
                    "P5-CONF-CJ",
                    "personas drawn with Caroline & Justine cannot "
                    "join the party inside the palace",
                )
            return IllegalActionError("P5-ARSENE-3", "the party cannot change inside the palace")
        party = s.party[p]
        if isinstance(action, A.Unequip):
            if si is None or si not in party:
                return IllegalActionError(
                    "P5-ARSENE-2", f"{action.shadow} is not in your active party"
                )
            after = sorted(x for x in party if x != si)
        else:
            if si is None or si not in s.held[p]:
                return IllegalActionError(
                    "P5-ARSENE-1", f"you do not hold the shadow '{action.shadow}'"
                )
            if si in party or len(party) >= s.party_limit(p):
                return IllegalActionError(
                    "P5-ARSENE-3", "the active party is full or already holds it"
                )
            after = sorted([*party, si])
        if not s.party_change_ok(after):
            return IllegalActionError(
                "P5-ARSENE-3",
                f"'{action}' would bring back a party already held since your last other "
                "action (only the party you started from may be returned to)",
            )
        return IllegalActionError("P5-ARSENE-3", f"'{action}' is not legal now")
    if isinstance(action, A.Use):
        a = g.ab_index.get(action.skill)
        if a is None or a not in s.abilities(p) or g.ab_trigger[a] != T_USE:
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
        if not s._can_use(p, a, s.phase == FIGHT):
            return IllegalActionError("P5-COMBAT-3", f"you cannot pay the cost of {action.skill}")
        return IllegalActionError(
            "P5-COMBAT-1", f"'{action.target}' is not a shadow you can target"
        )
    if isinstance(action, A.Hit):
        if action.res not in RESOURCES:
            return IllegalActionError("P5-COMBAT-2", f"unknown resource '{action.res}'")
        t = g.shadow_index.get(action.target, -2) if action.target != "boss" else -1
        rem = s._rem_of(t) if t != -2 else None
        if rem is None:
            return IllegalActionError("P5-COMBAT-1", f"'{action.target}' is not a revealed shadow")
        k = RESOURCES.index(action.res)
        if s.fresh[p][k] < 1:
            return IllegalActionError("P5-COMBAT-2", f"you have no fresh {action.res} to spend")
        return IllegalActionError("P5-COMBAT-9", f"{action.target} needs no more {action.res}")
    return IllegalActionError("P5-DAY-2", f"'{action}' is not legal now")
