"""Exact chances of the P5 checks and Dice abilities an action is about to roll.

A Phantom Thief die succeeds on 2 faces of 6 (P5-COMP-5); a check of a stat
rolls as many dice as the stat plus passive bonus dice and succeeds on one
success (P5-CHECK-1); a Dice ability rolls 1 die, and a Dice skill against a
shadow weak to its type succeeds without a roll (P5-CHECK-2). The chances are
fractions computed from those rules, never sampled.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from velvet.i18n import _
from velvet.p5 import actions as A
from velvet.p5.cards import STATS
from velvet.p5.effects import dice_bonus, target_of, targets, weak
from velvet.p5.state import O_CHECK, O_DICE, P5State

DIE_SUCCESS = Fraction(2, 6)
"""One Phantom Thief die: the symbol is on 2 of its 6 faces (P5-COMP-5)."""


def check_chance(dice: int) -> Fraction:
    """P5-CHECK-1: at least one success among ``dice`` dice (no dice: no chance)."""
    if dice < 0:
        raise ValueError(f"a check rolls 0 or more dice, not {dice}")
    return 1 - (1 - DIE_SUCCESS) ** dice


def percent(chance: Fraction) -> str:
    """A chance as a whole percentage, rounded; only certainty shows 100 % and only
    impossibility 0 %."""
    whole = round(chance * 100)
    if 0 < chance < 1:
        whole = min(99, max(1, whole))
    return f"{whole} %"


def stat_dice(state: P5State, player: int, stat: str) -> int:
    """The dice a check of ``stat`` rolls for ``player`` now (stat plus bonus dice)."""
    k = STATS.index(stat)
    return int(state.stats[player][k]) + dice_bonus(state, player, k)


def stat_odds(state: P5State, player: int, stat: str) -> str:
    """``"Guts 4: 80 %"`` for ``player``'s check of ``stat``."""
    dice = stat_dice(state, player, stat)
    return _("{stat} {dice}: {chance}").format(
        stat=_(stat.capitalize()), dice=dice, chance=percent(check_chance(dice))
    )


def _effect_odds(state: P5State, player: int, effects: tuple[int, ...]) -> list[str]:
    g = state.game
    out: list[str] = []
    for e in effects:
        op = g.eff_op[e]
        if op == O_CHECK:
            out.append(stat_odds(state, player, STATS[g.eff_stat[e]]))
        elif op == O_DICE:
            out.append(_("Dice: {chance}").format(chance=percent(DIE_SUCCESS)))
        else:  # a check behind a payment is still rolled by this action
            out += _effect_odds(state, player, g.eff_then[e])
    return out


def action_odds(state: P5State, action: Any) -> list[str]:
    """The chance of each check or Dice roll ``action`` makes right away, in words.

    Visiting a location: the checks of its effects; recruiting: the two checks of
    the confidant, each and both (P5-RECRUIT-1 needs both); using a Dice ability:
    1 die, or certain on a target weak to the skill's type. Actions that roll
    nothing give an empty list.
    """
    g = state.game
    player = state.current_player
    if player < 0:
        return []
    if isinstance(action, A.Visit) and action.loc in g.loc_index:
        return _effect_odds(state, player, g.loc_effects[g.loc_index[action.loc]])
    if isinstance(action, A.Recruit) and action.loc in g.loc_index:
        li = g.loc_index[action.loc]
        if li not in state.locs:
            return []
        c = state.loc_conf[state.locs.index(li)]
        if c < 0:
            return []
        checks = [STATS[s] for s in g.conf_checks[c]]
        both = check_chance(stat_dice(state, player, checks[0])) * check_chance(
            stat_dice(state, player, checks[1])
        )
        both_odds = _("both: {chance}").format(chance=percent(both))
        return [*(stat_odds(state, player, stat) for stat in checks), both_odds]
    if isinstance(action, A.Use) and action.skill in g.ab_index:
        a = g.ab_index[action.skill]
        if not g.ab_dice[a]:
            return []
        if g.ab_attack[a]:
            hit = [target_of(state, action.target)] if action.target else targets(state)
            if hit and all(weak(state, t, g.ab_type[a]) for t in hit):
                return [_("Dice: {chance} (weakness)").format(chance=percent(Fraction(1)))]
        return [_("Dice: {chance}").format(chance=percent(DIE_SUCCESS))]
    return []
