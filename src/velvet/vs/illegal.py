"""Why an action is illegal in Persona VS, naming the clause of the rule index.

:func:`explain_illegal` is called for an action that is not among the legal ones
(``velvet.vs.flow.legal_actions``); it says what is wrong in words and cites the
rule ID (docs/RULE-INDEX), as :class:`~velvet.engine.errors.IllegalActionError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from velvet.engine.errors import IllegalActionError
from velvet.vs import actions as A
from velvet.vs.flow import (
    extra_options,
    free_after,
    fuse_problem,
    legal_actions,
    missing_choice,
    top_names,
)
from velvet.vs.state import (
    DECLARATION,
    DECLARE,
    FRAME_NAMES,
    ORDER,
    PERSONA,
    PLAN,
    REACT,
    REACT1,
    REACT2,
    RESOLUTION,
    RESOLVE,
    STEP_NAMES,
    SUPPORT,
    PayFrame,
    PromoteFrame,
)

if TYPE_CHECKING:
    from velvet.vs.state import VsState


def explain_illegal(state: VsState, action: Any) -> IllegalActionError:
    """Why ``action`` (not among the legal ones) is illegal now, with the rule it breaks."""
    g = state._game
    if state.winner != -1:
        return state.game_over_error()
    t = type(action)
    card = getattr(action, "card", None)
    if card is not None and card not in g.index:
        return IllegalActionError("VS-COMP-1", f"'{action}': no card with id '{card}'")
    if state.frames:
        fr = state.frames[-1]
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
                    if fr.mask < 0 and free_after(state, fr.player, 0) == 0
                    else "VS-SUMMON-1",
                    f"'{action}': cannot pay with that now; legal: "
                    + ", ".join(str(a) for a in legal_actions(state)),
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
            + ", ".join(str(a) for a in legal_actions(state)),
        )
    step = state.step
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
    p = state.turn
    if step == PLAN:
        if t in (A.Summon, A.Fuse, A.PlaySupport):
            c = g.index[card] if card is not None else -1
            if c not in state.hand[p]:
                rule = "VS-SUPPORT-1" if t is A.PlaySupport else "VS-SUMMON-1"
                return IllegalActionError(rule, f"'{action}': {card} is not in your hand")
            if t is A.PlaySupport:
                if g.kind[c] == SUPPORT:
                    what = missing_choice(state, p, c)
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
            return _explain_play(state, action, p, c)
        if t is A.Change:
            if not state.field[p][0]:
                return IllegalActionError("VS-CHANGE-1", f"'{action}': you have no main persona")
            return IllegalActionError("VS-CHANGE-1", f"'{action}': no sub-persona in that slot")
    if step == DECLARE and t is A.DeclareSkill:
        if action.slot != 0 and not state.more_used:
            return IllegalActionError(
                "VS-FIELD-2", f"'{action}': only the main's skills, except during 1 more"
            )
        return IllegalActionError("VS-SKILL-1", f"'{action}': no such skill on that persona")
    if step in (REACT1, REACT2) and t is A.PlayReact:
        c = g.index[action.card]
        if c not in state.hand[1 - p]:
            return IllegalActionError(
                "VS-SKILL-1", f"'{action}': {action.card} is not in your hand"
            )
        if g.kind[c] != REACT:
            return IllegalActionError("VS-COMP-2", f"'{action}': {action.card} is not a React card")
        if g.timing[c] != (DECLARATION if step == REACT1 else RESOLUTION):
            return IllegalActionError(
                "VS-SKILL-1", f"'{action}': that React is for the other window"
            )
        if g.vs_type[c] not in (-1, g.skills[state.sk_c][state.sk_k].damage_type):
            return IllegalActionError(
                "VS-COMP-2", f"'{action}': that React answers another damage type"
            )
        what = missing_choice(state, 1 - p, c)
        return IllegalActionError(
            "VS-REACT-1",
            f"'{action}': {g.all_cards[c].name} cannot be played now: "
            f"its '{what}' effect has nothing to choose",
        )
    if step == ORDER:
        return IllegalActionError("VS-SKILL-3", f"'{action}': choose one of the listed modifiers")
    return IllegalActionError(
        "VS-TURN-1",
        f"'{action}' is not legal now ({STEP_NAMES[step]}); legal: "
        + ", ".join(str(a) for a in legal_actions(state)[:12]),
    )


def _explain_play(state: VsState, action: Any, p: int, c: int) -> IllegalActionError:
    g = state._game
    if type(action) is A.Fuse:
        mask = action.slots
        if any(mask >> s & 1 and not state.field[p][s] for s in range(3)) or not mask:
            return IllegalActionError("VS-FUSE-2", f"'{action}': fuse onto personas you control")
        problem = fuse_problem(state, p, c, mask)
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
        if g.name_of[c] in top_names(state, p):
            return IllegalActionError(
                "VS-RULE-NAME", f"'{action}': you already control a persona with that name"
            )
    if g.extra[c] >= 0 and not extra_options(state, p, c, max(mask, 0), True):
        return IllegalActionError(
            "VS-RULE-ULT",
            f"'{action}': also needs a persona named {g.names[g.extra[c]]} from hand or field",
        )
    if mask < 0 and free_after(state, p, 0) == 0 and g.cost[c] == 0:
        return IllegalActionError(
            "VS-FIELD-1", f"'{action}': no free slot (1 main + 2 subs) and no cost to send one"
        )
    return IllegalActionError(
        "VS-FUSE-1" if mask >= 0 else "VS-SUMMON-1",
        f"'{action}': cannot pay cost {g.cost[c]} with your hand and field",
    )
