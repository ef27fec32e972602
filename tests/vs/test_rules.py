"""Rule tests for Persona VS, one clause (or a table of cases) at a time."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from tests.vs.helpers import act, disc_ids, field_ids, hand_ids, kinds, legal, position
from velvet.engine.errors import IllegalActionError
from velvet.vs import actions as A
from velvet.vs.cards import React, Support
from velvet.vs.state import (
    DECLARATION,
    DECLARE,
    ORDER,
    PLAN,
    REACT,
    REACT1,
    REACT2,
    RESOLUTION,
    SUPPORT,
    VsState,
)

E = ((), (), ())


def illegal_rule(state, text: str) -> str:  # type: ignore[no-untyped-def]
    before = state.canonical()
    with pytest.raises(IllegalActionError) as info:
        state.apply(state.game.parse_action(text))
    assert state.canonical() == before, "an illegal action must change nothing"
    return info.value.rule_id


# --- the turn -----------------------------------------------------------------------------


def test_turn_runs_planning_skill_draw_then_passes() -> None:
    # rule: VS-TURN-1
    s = position(hands=(["001", "006"], ["026"]), fields=((["003"], (), ()), E))
    assert s.step == PLAN and s.current_player == 0
    act(s, "end")
    assert s.step == DECLARE
    events = act(s, "noskill")
    assert s.turn == 1 and s.step == PLAN and s.turn_no == 2
    assert "draw" in kinds(events) and "turn" in kinds(events)
    assert len(s.hand[0]) == 5


def test_planning_allows_any_order_and_repeats() -> None:
    # rule: VS-PLAN-1
    s = position(
        hands=(["002", "004", "015", "016", "006", "006"], []), fields=((["001"], (), ()), E)
    )
    act(s, "support 016")  # draw 2 first
    act(s, "summon 002", "pay hand 006")
    act(s, "change s1")
    act(s, "summon 004", "pay hand 006")
    act(s, "support 015")
    assert field_ids(s, 0) == [["002"], ["001"], ["004"]]
    assert s.step == PLAN and "end" in legal(s)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("summon 002", "VS-PLAN-1"),
        ("fuse 002 m", "VS-PLAN-1"),
        ("change s1", "VS-CHANGE-1"),
        ("support 015", "VS-SUPPORT-1"),
    ],
)
def test_planning_actions_only_in_the_planning_step(text: str, rule: str) -> None:
    # rule: VS-PLAN-1, VS-CHANGE-1, VS-SUPPORT-1
    s = position(
        hands=(["002", "015", "006"], []), fields=((["001"], ["003"], ()), E), step=DECLARE
    )
    assert illegal_rule(s, text) == rule


# --- summoning and costs -------------------------------------------------------------------


def test_summon_pays_cost_with_hand_cards_one_decision_each() -> None:
    # rule: VS-SUMMON-1
    s = position(hands=(["012", "006", "003", "005", "002"], []))
    act(s, "summon 012")
    assert s.frames and s.current_player == 0
    assert legal(s) == {"pay hand 006", "pay hand 003", "pay hand 005", "pay hand 002"}
    act(s, "pay hand 006", "pay hand 003")
    assert field_ids(s, 0)[0] == []
    events = act(s, "pay hand 005")
    assert field_ids(s, 0) == [["012"], [], []]
    assert disc_ids(s, 0) == ["006", "003", "005"]
    assert "summon" in kinds(events)


def test_summon_cost_with_a_field_stack_counts_as_one() -> None:
    # rule: VS-SUMMON-1
    s = position(hands=(["012", "006", "003"], []), fields=((["002", "004"], ["001"], ()), E))
    act(s, "summon 012")
    assert "pay field m" in legal(s) and "pay field s1" in legal(s)
    act(s, "pay field m", "pay hand 006", "pay hand 003")
    # the two-card stack paid 1; it went whole to the discard pile
    assert sorted(disc_ids(s, 0)) == ["002", "003", "004", "006"]
    assert field_ids(s, 0) == [["012"], ["001"], []]


def test_rulebook_example_alice_paid_with_arsene_and_two_hand_cards() -> None:
    # rule: VS-SUMMON-1
    # "You can play the 3-cost Alice by sending an Arsène you already control to the
    # discard pile and discarding 2 more cards from your hand."
    s = position(hands=(["012", "006", "003"], []), fields=((["001"], (), ()), E))
    assert "summon 012" in legal(s)
    act(s, "summon 012")
    assert "pay field m" in legal(s)
    act(s, "pay field m", "pay hand 006")
    assert s.frames  # one unit still to pay
    act(s, "pay hand 003")
    assert field_ids(s, 0) == [["012"], [], []]
    assert sorted(disc_ids(s, 0)) == ["001", "003", "006"] and hand_ids(s, 0) == []
    # with one hand card fewer, the cost cannot be paid
    s = position(hands=(["012", "006"], []), fields=((["001"], (), ()), E))
    assert "summon 012" not in legal(s)


def test_summon_refused_when_cost_cannot_be_paid() -> None:
    # rule: VS-SUMMON-1
    s = position(hands=(["013", "006"], []))
    assert "summon 013" not in legal(s)
    assert illegal_rule(s, "summon 013") == "VS-SUMMON-1"
    assert illegal_rule(s, "summon 002") == "VS-SUMMON-1"  # not in hand


def test_cost_payment_only_offers_choices_that_can_still_finish() -> None:
    # rule: VS-SUMMON-1, VS-FIELD-1
    # Field full: one of the 2 payments must be a field persona.
    s = position(hands=(["007", "006"], []), fields=((["001"], ["003"], ["005"]), E))
    act(s, "summon 007")
    assert legal(s) == {"pay hand 006", "pay field m", "pay field s1", "pay field s2"}
    act(s, "pay hand 006")
    assert legal(s) == {"pay field m", "pay field s1", "pay field s2"}
    assert illegal_rule(s, "pay hand 006") in ("VS-FIELD-1", "VS-SUMMON-1")


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        (((), (), ()), [["002"], [], []]),  # no main: it must be the main
        ((["001"], (), ()), [["001"], ["002"], []]),
        ((["001"], ["003"], ()), [["001"], ["003"], ["002"]]),
        ((["001"], (), ["003"]), [["001"], ["002"], ["003"]]),
    ],
)
def test_summoned_persona_takes_a_free_slot(fields, expected) -> None:  # type: ignore[no-untyped-def]
    # rule: VS-FIELD-1
    s = position(hands=(["002", "006"], []), fields=(fields, E))
    act(s, "summon 002", "pay hand 006")
    assert field_ids(s, 0) == expected


def test_field_full_summon_must_send_a_persona() -> None:
    # rule: VS-FIELD-1
    s = position(hands=(["001", "002", "006"], []), fields=((["003"], ["004"], ["005"]), E))
    assert "summon 001" not in legal(s)  # cost 0: nothing can make room
    assert illegal_rule(s, "summon 001") == "VS-FIELD-1"
    act(s, "summon 002", "pay field s1")
    assert field_ids(s, 0) == [["003"], ["002"], ["005"]]
    assert sum(1 for st in s.field[0] if st) == 3


def test_sending_the_main_as_cost_puts_the_summon_in_main() -> None:
    # rule: VS-FIELD-1
    s = position(hands=(["002"], []), fields=((["003"], ["004"], ["005"]), E))
    act(s, "summon 002", "pay field m")
    assert field_ids(s, 0) == [["002"], ["004"], ["005"]]


# --- field roles --------------------------------------------------------------------------


def test_only_main_skills_outside_one_more() -> None:
    # rule: VS-FIELD-2
    s = position(fields=((["001"], ["003"], ()), E), step=DECLARE)
    assert legal(s) == {"noskill", "skill m 001 0", "skill m 001 1"}
    assert illegal_rule(s, "skill s1 003 0") == "VS-FIELD-2"


def test_sub_abilities_work() -> None:
    # rule: VS-FIELD-2
    # Kelpie's Wind Boost (+2 to wind skills) works from a sub.
    s = position(fields=((["010"], ["011"], ()), (["026"], (), ())), step=DECLARE)
    act(s, "skill m 010 0", "pass")
    assert s.hp[1] == 30 - 6


def test_main_weakness_counts_not_subs() -> None:
    # rule: VS-FIELD-3
    # Defender main Izanagi is weak to wind; its sub Tomoe is weak to fire.
    s = position(fields=((["003"], (), ()), (["026"], ["028"], ())), step=DECLARE)
    events = act(s, "skill m 003 0", "pass")  # fire at Izanagi: no weakness
    assert "one_more" not in kinds(events)
    s = position(fields=((["010"], (), ()), (["026"], ["028"], ())), step=DECLARE)
    events = act(s, "skill m 010 0", "pass")  # wind at Izanagi: weakness
    assert "one_more" in kinds(events)


# --- fusion -------------------------------------------------------------------------------


def test_fuse_places_hand_card_on_top_paying_its_full_cost() -> None:
    # rule: VS-FUSE-1
    s = position(hands=(["007", "006", "003"], []), fields=((["001"], ["002"], ()), E))
    act(s, "fuse 007 s1")
    assert s.frames[-1].left == 2  # type: ignore[union-attr]  # the materials pay nothing
    assert "pay field s1" not in legal(s)  # a material cannot pay
    act(s, "pay hand 006", "pay hand 003")
    assert field_ids(s, 0) == [["001"], ["002", "007"], []]


def test_fused_persona_has_every_skill_of_its_stack() -> None:
    # rule: VS-FUSE-1
    s = position(fields=((["001", "002", "007"], (), ()), E), step=DECLARE)
    assert legal(s) == {
        "noskill",
        "skill m 001 0",
        "skill m 001 1",
        "skill m 002 0",
        "skill m 007 0",
    }


def test_fuse_any_number_of_personas_into_one() -> None:
    # rule: VS-FUSE-2
    s = position(hands=(["012", "006", "003", "005"], []), fields=((["001"], ["002"], ["004"]), E))
    act(s, "fuse 012 m+s1+s2", "pay hand 006", "pay hand 003", "pay hand 005")
    assert field_ids(s, 0) == [["001", "002", "004", "012"], [], []]
    assert (
        illegal_rule(
            position(hands=(["002", "006"], []), fields=((["001"], (), ()), E)), "fuse 002 s1"
        )
        == "VS-FUSE-2"
    )


@pytest.mark.parametrize("leave", ["bounce", "destroy"])
def test_stack_leaving_sends_materials_to_discard(leave: str) -> None:
    # rule: VS-FUSE-3
    card = "018" if leave == "bounce" else "043"
    s = position(hands=([card], []), fields=((["003"], (), ()), (["026"], ["002", "004"], ())))
    act(s, f"support {card}", "target p1 s1")
    assert field_ids(s, 1) == [["026"], [], []]
    if leave == "bounce":
        assert hand_ids(s, 1) == ["004"]
        assert disc_ids(s, 1) == ["002"]
    else:
        assert sorted(disc_ids(s, 1)) == ["002", "004"]


def test_cannot_fuse_into_a_copy_of_itself() -> None:
    # rule: VS-FUSE-4
    s = position(hands=(["002", "006"], []), fields=((["002"], ["003"], ()), E))
    assert "fuse 002 m" not in legal(s)
    assert illegal_rule(s, "fuse 002 m") == "VS-FUSE-4"
    s = position(hands=(["002", "006"], []), fields=((["002", "007"], ["003"], ()), E))
    assert illegal_rule(s, "fuse 002 m") == "VS-FUSE-4"  # a copy inside the stack counts
    # ruling: a card inside another stack is not a persona you control, so this is fine
    assert "fuse 002 s1" in legal(s)


def test_repeated_abilities_in_a_stack_stack() -> None:
    # rule: VS-FUSE-5
    # Jack Frost (Resist Ice -2) fused under Koropokkur (Resist Ice -2): -4 to ice.
    # attacker: Kintoki-Douji, Bufu ice 2
    s = position(fields=((["032"], (), ()), (["004", "007"], (), ())), step=DECLARE, turn=0)
    act(s, "skill m 032 0", "pass")
    assert s.hp[1] == 30  # 2 - 2 - 2 -> 0
    # Bufu ice 4 against -2 -2
    s = position(fields=((["007"], (), ()), (["004", "007"], (), ())), step=DECLARE)
    act(s, "skill m 007 0", "pass")
    assert s.hp[1] == 30
    s = position(fields=((["007"], (), ()), (["004"], (), ())), step=DECLARE)
    act(s, "skill m 007 0", "pass")
    assert s.hp[1] == 28  # one copy only: 4 - 2


def test_change_swaps_main_and_sub() -> None:
    # rule: VS-CHANGE-1
    s = position(fields=((["001"], ["003"], ["004"]), E))
    assert {"change s1", "change s2"} <= legal(s)
    act(s, "change s2")
    assert field_ids(s, 0) == [["004"], ["003"], ["001"]]
    s = position(fields=((["001"], (), ()), E))
    assert illegal_rule(s, "change s1") == "VS-CHANGE-1"


# --- supports and low HP --------------------------------------------------------------------


def test_any_number_of_supports_in_planning() -> None:
    # rule: VS-SUPPORT-1
    s = position(hands=(["015", "015", "016"], []), hp=(20, 30))
    act(s, "support 015", "support 015", "support 016")
    assert s.hp[0] == 26
    assert len(s.hand[0]) == 2
    assert disc_ids(s, 0) == ["015", "015", "016"]


@pytest.mark.parametrize(
    ("card", "hp", "expected_hp"),
    [("015", 11, 14), ("015", 10, 16), ("015", 3, 9), ("044", 5, 6)],
)
def test_low_hp_box_replaces_normal_effect(card: str, hp: int, expected_hp: int) -> None:
    # rule: VS-LOWHP-1
    s = position(hands=([card], []), hp=(hp, 30))
    events = act(s, f"support {card}")
    assert s.hp[0] == expected_hp
    assert events[0].data["lowhp"] == (hp <= 10 and card == "015")


def test_low_hp_box_on_a_react() -> None:
    # rule: VS-LOWHP-1
    # Makarakarn: -3 damage, or negate at 10 HP or less.
    for hp, expected in ((20, 20 - 5), (10, 10)):  # (7 - 3) + 1 Attack Boost
        s = position(
            hands=([], ["021"]),
            fields=((["013"], (), ()), (["026"], (), ())),
            step=DECLARE,
            hp=(30, hp),
        )
        act(s, "skill m 013 0", "react 021", "pass")
        assert s.hp[1] == expected


# --- the skill step ------------------------------------------------------------------------


def test_skill_step_windows_are_the_defenders_decisions() -> None:
    # rule: VS-SKILL-1
    s = position(
        hands=(["024"], ["024", "021"]), fields=((["013"], (), ()), (["026"], (), ())), step=DECLARE
    )
    act(s, "skill m 013 0")
    assert s.step == REACT1 and s.current_player == 1
    assert legal(s) == {"pass", "react 021"}  # the resolution React waits
    act(s, "pass")
    assert s.hp[1] == 30 - 8  # Hassou Tobi 7 + Attack Boost 1
    assert s.step == REACT2 and s.current_player == 1
    assert legal(s) == {"pass", "react 024"}
    act(s, "react 024")
    assert s.hp[1] == 24
    assert s.turn == 1  # Skill Step ended, Draw Step done
    assert illegal_rule(position(), "react 021") == "VS-SKILL-1"


@pytest.mark.parametrize(
    ("hand", "texts", "hp_left", "kept"),
    [
        # declaration window: Makarakarn (-3) is played; Rakukaja (-2) must wait.
        (["021", "045"], ["react 021", "pass"], 30 - (7 - 3 + 1), ["045"]),
        # resolution window: Escape Route (+2) is played; Diarama (+3) cannot follow.
        (["024", "049"], ["pass", "react 024"], 20 - 8 + 2, ["049"]),
    ],
)
def test_only_one_react_per_window(hand, texts, hp_left, kept) -> None:  # type: ignore[no-untyped-def]
    # rule: VS-SKILL-1
    s = position(
        hands=([], hand),
        fields=((["013"], (), ()), (["026"], (), ())),
        step=DECLARE,
        hp=(30, 20 if "024" in hand else 30),
    )
    act(s, "skill m 013 0", texts[0])
    if texts[0].startswith("react"):
        assert s.step == REACT2 and legal(s) == {"pass"}  # the window closed after one
    act(s, texts[1])
    assert s.turn == 1 and s.step == PLAN  # the Skill Step ended after one React each
    assert s.hp[1] == hp_left
    assert hand_ids(s, 1) == kept


def test_declared_skill_cannot_change_even_after_a_swap() -> None:
    # rule: VS-SKILL-2
    # Traesto returns the attacker's main to hand; the declared skill still resolves.
    s = position(
        hands=([], ["050"]), fields=((["013"], ["001"], ()), (["026"], (), ())), step=DECLARE
    )
    act(s, "skill m 013 0", "react 050", "target p0 m")  # attacker's main bounced
    assert s.current_player == 0 and s.frames  # the attacker promotes a sub
    act(s, "promote s1")
    assert field_ids(s, 0)[0] == ["001"]
    assert s.hp[1] == 30 - 7  # Hassou Tobi still resolved (no Attack Boost left on the field)
    assert illegal_rule(s, "skill m 001 0") == "VS-SKILL-2"


def test_declared_skill_resolves_after_a_react_swaps_the_attackers_main(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # rule: VS-SKILL-2
    from velvet.vs.game import load_vs_game

    custom = tmp_path / "swap.toml"
    custom.write_text(
        '[[react]]\nid = "901"\nname = "Forced Change"\ntiming = "declaration"\n'
        'effects = [{ op = "swap", who = "opponent" }]\n',
        encoding="utf-8",
    )
    g = load_vs_game([custom])
    s = position(
        hands=([], ["901"]),
        fields=((["010"], ["003"], ()), (["026"], (), ())),
        step=DECLARE,
        game=g,
    )
    act(s, "skill m 010 0", "react 901", "target p0 s1")
    assert field_ids(s, 0)[0] == ["003"]
    # Garu (wind 4) still resolves, not Jack-o'-Lantern's Agi, and hits Izanagi's weakness
    assert s.hp[1] == 26 and s.more_pending


def test_defender_swap_react_changes_the_weakness_checked() -> None:
    # rule: VS-SKILL-2, VS-FIELD-3
    # Baton Pass swaps the defender's main (weak to wind) for a sub that is not.
    s = position(
        hands=([], ["022"]), fields=((["010"], (), ()), (["026"], ["028"], ())), step=DECLARE
    )
    events = act(s, "skill m 010 0", "react 022", "target p1 s1")
    assert "one_more" not in kinds(events)
    assert s.hp[1] == 26


def test_reacts_modify_first_then_turn_player_orders_the_rest() -> None:
    # rule: VS-SKILL-3
    # Desperado (x2 this turn at low HP) and Rakukaja (-2 React) on Shiisaa (4).
    s = position(
        hands=(["017"], ["045"]), fields=((["008"], ["011"], ()), (["033"], (), ())), hp=(10, 30)
    )
    act(s, "support 017", "end", "skill m 008 0", "react 045")
    # React first: 4 - 2 = 2. Then x2 (support) and -1? none here: only one non-React -> applied.
    assert s.hp[1] == 30 - 4
    # Two different non-React modifiers: the turn player orders them.
    # defender Shiisaa: Resist Physical -1
    s = position(hands=(["017"], []), fields=((["008"], (), ()), (["008"], (), ())), hp=(10, 30))
    act(s, "support 017", "end", "skill m 008 0", "pass")
    assert s.step == ORDER and s.current_player == 0
    assert legal(s) == {"first 0", "first 1"}
    mods = s.mods[:]
    pick = sorted(set(mods)).index((1, 2))  # x2 first: 4*2-1 = 7
    act(s, f"first {pick}")
    assert s.hp[1] == 23
    s = position(hands=(["017"], []), fields=((["008"], (), ()), (["008"], (), ())), hp=(10, 30))
    act(s, "support 017", "end", "skill m 008 0", "pass")
    pick = sorted(set(s.mods)).index((0, -1))  # -1 first: (4-1)*2 = 6
    act(s, f"first {pick}")
    assert s.hp[1] == 24
    assert illegal_rule(s, "first 0") == "VS-SKILL-3"


def test_no_order_decision_when_order_cannot_matter() -> None:
    # rule: VS-SKILL-3
    s = position(hands=(["017"], []), fields=((["013"], (), ()), (["008"], (), ())))
    act(s, "support 017", "end", "skill m 013 0", "pass")  # +2, +1, -1 on 7: no clamping
    assert s.step != ORDER
    assert s.hp[1] == 30 - 9


def test_a_zero_damage_skill_takes_no_modifiers(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # rule: VS-SKILL-3, VS-MORE-3
    # Interpretation (docs): a skill printed with 0 damage is not a damage skill; Attack
    # Boost and a +2 Support do not make it deal damage, so it cannot trigger 1 more either.
    from velvet.vs.game import load_vs_game

    custom = tmp_path / "zero.toml"
    custom.write_text(
        '[[persona]]\nid = "901"\nname = "Stare"\ncost = 1\n'
        'skills = [{ name = "Tarunda", type = "wind", damage = 0 }]\n',
        encoding="utf-8",
    )
    g = load_vs_game([custom])
    s = position()
    s._game = g
    ix = g.index
    s.hand = [[ix["017"]], []]
    s.field = [
        [tuple(ix[c] for c in st) for st in f] for f in ((["901"], ["013"], ()), (["026"], (), ()))
    ]
    events = act(s, "support 017", "end", "skill m 901 0", "pass", "pass")
    assert s.hp[1] == 30 and "one_more" not in kinds(events) and s.turn == 1


@pytest.mark.parametrize("who", ["choice", "no persona"])
def test_skill_step_may_be_skipped(who: str) -> None:
    # rule: VS-SKILL-4
    if who == "choice":
        s = position(fields=((["001"], (), ()), (["026"], (), ())))
        act(s, "end", "noskill")
    else:
        s = position(fields=(E, (["026"], (), ())))
        events = act(s, "end")
        assert any(e.kind == "noskill" for e in events)
    assert s.turn == 1 and s.hp == [30, 30]


# --- 1 more ---------------------------------------------------------------------------------


def test_weakness_hit_with_damage_triggers_one_more() -> None:
    # rule: VS-MORE-1
    s = position(fields=((["010"], (), ()), (["026"], (), ())), step=DECLARE)
    events = act(s, "skill m 010 0")
    events += act(s, "pass")
    assert "one_more" in kinds(events)
    act(s, "pass")
    assert s.step == DECLARE and s.turn == 0 and s.more_used


def test_subs_skills_during_one_more() -> None:
    # rule: VS-MORE-2
    s = position(fields=((["010"], ["003"], ()), (["026"], (), ())), step=DECLARE)
    act(s, "skill m 010 0", "pass", "pass")
    assert "skill s1 003 0" in legal(s)
    act(s, "skill s1 003 0", "pass", "pass")
    assert s.hp[1] == 30 - 4 - 3
    assert s.turn == 1


def test_one_more_only_once_per_skill_step() -> None:
    # rule: VS-MORE-3
    s = position(fields=((["010"], (), ()), (["026"], (), ())), step=DECLARE)
    act(s, "skill m 010 0", "pass", "pass", "skill m 010 0", "pass")
    assert not s.more_pending
    events = act(s, "pass")
    assert s.turn == 1 and "one_more" not in kinds(events)


@pytest.mark.parametrize("react", ["020", "045"])
def test_no_one_more_when_damage_negated_or_zero(react: str) -> None:
    # rule: VS-MORE-3
    # Tetrakarn negates physical; Rakukaja (-2) brings Lunge 2 to 0.
    # The defender, Himiko, is weak to physical.
    s = position(hands=([], [react]), fields=((["005"], (), ()), (["031"], (), ())), step=DECLARE)
    events = act(s, "skill m 005 0", f"react {react}", "pass")
    assert "weakness" not in kinds(events) and "one_more" not in kinds(events)
    assert s.hp[1] == 30 and s.turn == 1


def test_no_one_more_when_an_ability_lowers_the_damage_to_zero() -> None:
    # rule: VS-MORE-3
    # The book's other example: a Persona ability lowers the damage to 0. Bufu (ice 2) at
    # Konohana Sakuya (weak to ice) while Jack Frost's Resist Ice (-2) sits on a sub.
    s = position(fields=((["032"], (), ()), (["029"], ["004"], ())), step=DECLARE)
    events = act(s, "skill m 032 0", "pass", "pass")
    assert "weakness" not in kinds(events) and "one_more" not in kinds(events)
    assert s.hp[1] == 30 and s.turn == 1
    # without the resisting sub the same skill hits the weakness and triggers 1 more
    s = position(fields=((["032"], (), ()), (["029"], (), ())), step=DECLARE)
    events = act(s, "skill m 032 0", "pass")
    assert "one_more" in kinds(events) and s.hp[1] == 28


def test_if_weakness_skill_effect() -> None:
    # rule: VS-MORE-1
    # Mandrake's Lunge makes the opponent discard at random only on a weakness hit.
    s = position(
        hands=([], ["006", "006"]), fields=((["005"], (), ()), (["031"], (), ())), step=DECLARE
    )
    act(s, "skill m 005 0", "pass")
    assert len(s.hand[1]) == 1


# --- draw step and the end ----------------------------------------------------------------------


@pytest.mark.parametrize(("hand", "drawn"), [(0, 5), (2, 3), (5, 0), (6, 0)])
def test_draw_step_fills_hand_to_five(hand: int, drawn: int) -> None:
    # rule: VS-DRAW-1
    s = position(hands=(["006"] * hand, []))
    act(s, "end")
    assert len(s.hand[0]) == max(5, hand)
    assert len(s.deck[0]) == 10 - drawn


def test_hp_zero_loses() -> None:
    # rule: VS-END-1
    s = position(fields=((["013"], (), ()), (["026"], (), ())), step=DECLARE, hp=(30, 8))
    events = act(s, "skill m 013 0", "pass")
    assert s.is_terminal() and s.returns() == [1.0, 0.0]
    assert events[-1].kind == "game_over" and s.hp[1] <= 0
    assert "HP" in s.outcome_text()


def test_cannot_draw_required_cards_loses() -> None:
    # rule: VS-END-2
    s = position(hands=(["006", "006"], []), decks=(["006", "006"], ["006"] * 10))
    act(s, "end")  # no persona: the Skill Step is skipped, then the Draw Step needs 3
    assert s.is_terminal() and s.winner == 1 and "draw" in s.outcome_text()
    s = position(hands=(["006"] * 5, []), decks=([], ["006"] * 10))
    act(s, "end")
    assert not s.is_terminal()  # a hand of 5 needs no draw
    s = position(hands=(["006", "006"], []), decks=(["006"] * 3, ["006"] * 10))
    act(s, "end")  # exactly the 3 cards needed: no loss
    assert not s.is_terminal() and len(s.hand[0]) == 5 and not s.deck[0]


def test_draw_effect_from_short_deck_is_not_a_loss() -> None:
    # rule: VS-END-2
    s = position(hands=(["016"], []), decks=(["006"], ["006"] * 10))
    act(s, "support 016")
    assert not s.is_terminal() and len(s.hand[0]) == 1 and not s.deck[0]


def test_discards_go_to_owners_pile() -> None:
    # rule: VS-DISCARD-1
    s = position(
        hands=(["043", "042"], ["006", "003"]), fields=((["001"], (), ()), (["026"], ["002"], ()))
    )
    act(s, "support 043", "target p1 s1", "support 042")
    assert s.current_player == 1  # the opponent chooses their own discard
    act(s, "discard 003")
    assert disc_ids(s, 1) == ["002", "003"]
    assert disc_ids(s, 0) == ["043", "042"]


# --- further rules ----------------------------------------------------------------------------


def test_never_two_personas_of_one_name() -> None:
    # rule: VS-RULE-NAME
    s = position(hands=(["002", "006"], []), fields=((["002"], (), ()), E))
    assert "summon 002" not in legal(s)
    assert illegal_rule(s, "summon 002") == "VS-RULE-NAME"
    s = position(hands=(["002", "006"], []), fields=((["001"], ["002"], ()), E))
    assert illegal_rule(s, "fuse 002 m") == "VS-RULE-NAME"


@pytest.mark.parametrize(
    ("subs", "choices"),
    [
        ((["003"], ()), {"promote s1"}),
        ((["003"], ["004"]), {"promote s1", "promote s2"}),
        (((), ()), set()),
    ],
)
def test_losing_the_main_replaces_it_with_a_sub(subs, choices) -> None:  # type: ignore[no-untyped-def]
    # rule: VS-RULE-LOSEMAIN
    s = position(hands=(["043"], []), fields=((["001"], (), ()), (["026"], *subs)), hp=(5, 30))
    act(s, "support 043", "target p1 m")  # low HP: destroy any
    if choices:
        assert s.current_player == 1 and legal(s) == choices
        assert illegal_rule(s, "end") == "VS-RULE-LOSEMAIN"
        with pytest.raises(IllegalActionError, match="player 2 must first promote"):
            s.apply(s.game.parse_action("end"))  # players are numbered from 1, as on screen
        act(s, sorted(choices)[0])
        assert field_ids(s, 1)[0] == ["003"]
    else:
        assert s.current_player == 0 and field_ids(s, 1) == [[], [], []]
        act(s, "end", "skill m 001 0", "pass")  # the game goes on without a persona
        assert s.hp[1] == 27


def test_lost_main_is_replaced_before_the_next_effect(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # rule: VS-RULE-LOSEMAIN
    # A Support that destroys the opposing main, then swaps their main with a sub:
    # the owner promotes first, so the swap has a main to swap and does not fizzle.
    from velvet.vs.game import load_vs_game

    custom = tmp_path / "purge.toml"
    custom.write_text(
        '[[support]]\nid = "901"\nname = "Purge"\neffects = [{ op = "destroy", who = '
        '"opponent", slot = "main" }, { op = "swap", who = "opponent" }]\n',
        encoding="utf-8",
    )
    g = load_vs_game([custom])
    s = position()
    s._game = g
    ix = g.index
    s.hand = [[ix["901"]], []]
    s.field = [
        [tuple(ix[c] for c in st) for st in f]
        for f in ((["001"], (), ()), (["026"], ["028"], ["029"]))
    ]
    events = act(s, "support 901", "target p1 m")
    assert "fizzle" not in kinds(events)
    assert s.current_player == 1 and legal(s) == {"promote s1", "promote s2"}
    act(s, "promote s1")
    assert s.current_player == 0 and legal(s) == {"target p1 s2"}
    act(s, "target p1 s2")
    assert field_ids(s, 1) == [["029"], [], ["028"]]


def test_ultimate_needs_the_named_persona_from_hand() -> None:
    # rule: VS-RULE-ULT
    hand = ["014", "001", "006", "006", "006", "006", "006"]
    s = position(hands=(hand, []))
    act(s, "summon 014")
    assert legal(s) == {"pay hand 001"}
    act(s, "pay hand 001")
    assert s.frames[-1].left == 5  # type: ignore[union-attr]
    act(s, *["pay hand 006"] * 5)
    assert field_ids(s, 0)[0] == ["014"]
    s = position(hands=(["014", *["006"] * 6], []))
    assert "summon 014" not in legal(s)
    assert illegal_rule(s, "summon 014") == "VS-RULE-ULT"


def test_ultimate_takes_the_named_card_from_inside_a_stack() -> None:
    # rule: VS-RULE-ULT
    s = position(
        hands=(["014", *["006"] * 5], []), fields=((["001", "002", "007"], ["003"], ()), E)
    )
    act(s, "summon 014")
    assert "pay stack m 001" in legal(s)
    act(s, "pay stack m 001")
    assert field_ids(s, 0)[0] == ["002", "007"]  # only the named card left the stack
    assert disc_ids(s, 0) == ["001"]
    act(s, *["pay hand 006"] * 5)
    assert field_ids(s, 0) == [["002", "007"], ["003"], ["014"]]


def test_ultimate_named_card_as_a_field_persona() -> None:
    # rule: VS-RULE-ULT
    s = position(hands=(["014", *["006"] * 5], []), fields=((["001"], (), ()), E))
    act(s, "summon 014", "pay field m")
    act(s, *["pay hand 006"] * 5)
    assert field_ids(s, 0)[0] == ["014"]


@pytest.mark.parametrize(
    ("setup", "text", "rule"),
    [
        ("plan", "skill m 001 0", "VS-SKILL-1"),
        ("plan", "first 0", "VS-SKILL-3"),
        ("plan", "summon 015", "VS-SUMMON-1"),
        ("plan", "support 002", "VS-SUPPORT-1"),
        ("declare", "react 024", "VS-SKILL-1"),
        ("react1", "react 024", "VS-SKILL-1"),
        ("react1", "react 046", "VS-COMP-2"),
        ("react1", "skill m 001 1", "VS-SKILL-2"),
        ("react1", "promote s1", "VS-TURN-1"),
    ],
)
def test_explain_illegal_names_the_rule(setup: str, text: str, rule: str) -> None:
    # rule: VS-SKILL-1, VS-SKILL-2, VS-SKILL-3, VS-COMP-2, VS-TURN-1
    s = position(
        hands=(["002", "015", "006"], ["024", "046"]),
        fields=((["001"], ["003"], ()), (["026"], (), ())),
    )
    if setup != "plan":
        act(s, "end")
    if setup == "react1":
        act(s, "skill m 001 0")
    assert illegal_rule(s, text) == rule


def test_fusing_an_ultimate_cannot_pay_with_a_material_top() -> None:
    # rule: VS-RULE-ULT, VS-FUSE-1
    hand = ["014", *["006"] * 5]
    s = position(hands=(hand, []), fields=((["001"], ["003"], ()), E))
    assert "fuse 014 m" not in legal(s)  # Arsène would be both material and named cost
    assert "fuse 014 s1" in legal(s)  # Arsène pays as a field persona, 003 is the material
    act(s, "fuse 014 s1", "pay field m", *["pay hand 006"] * 5)
    assert field_ids(s, 0) == [["003", "014"], [], []]
    s = position(hands=(hand, []), fields=((["001", "002"], (), ()), E))
    act(s, "fuse 014 m", "pay stack m 001", *["pay hand 006"] * 5)
    assert field_ids(s, 0) == [["002", "014"], [], []]


def test_ultimate_takes_the_named_card_from_the_top_of_a_stack() -> None:
    # rule: VS-RULE-ULT
    # Arsène fused on top of Pixie: only Arsène leaves; Pixie stays as the main persona.
    s = position(hands=(["014", *["006"] * 5], []), fields=((["002", "001"], (), ()), E))
    act(s, "summon 014")
    assert legal(s) == {"pay field m", "pay stack m 001"}
    act(s, "pay stack m 001")
    assert field_ids(s, 0)[0] == ["002"] and disc_ids(s, 0) == ["001"]
    act(s, *["pay hand 006"] * 5)
    assert field_ids(s, 0) == [["002"], ["014"], []]
    # The card under it may not become a second persona of a name already on the field.
    s = position(hands=(["014", *["006"] * 5], []), fields=((["002", "001"], ["002"], ()), E))
    act(s, "summon 014")
    assert legal(s) == {"pay field m"}
    assert illegal_rule(s, "pay stack m 001") == "VS-RULE-ULT"


@pytest.mark.parametrize(
    ("card", "rival", "playable"),
    [
        ("019", (["026"], (), ()), False),  # Hold Up swaps the rival's main: no sub, no swap
        ("019", (["026"], ["028"], ()), True),
        ("018", (["026"], (), ()), False),  # Trickster's Escape bounces a rival sub
        ("018", (["026"], (), ["028"]), True),
    ],
)
def test_a_support_needs_something_to_choose(card: str, rival: tuple, playable: bool) -> None:  # type: ignore[type-arg]
    # rule: VS-PLAN-1, VS-SUPPORT-1
    s = position(hands=([card, "006"], []), fields=((["001"], (), ()), rival))
    assert (f"support {card}" in legal(s)) is playable
    if not playable:
        assert illegal_rule(s, f"support {card}") == "VS-PLAN-1"
    else:
        act(s, f"support {card}")
        assert s.frames and s.current_player == 0  # the choice is the player's


def react_case(
    card: str,
    window: int,
    missing: str | None,
    *,
    hand: tuple[str, ...] = (),
    subs: tuple[tuple[str, ...], ...] = (),
    rival_subs: tuple[tuple[str, ...], ...] = (),
    discard: tuple[str, ...] = (),
    hp: int = 30,
) -> object:
    """A React window after Player 1's Makami declares Garu (wind 4) at Player 2's Tomoe
    (weak to fire: no 1 more), Player 2 holding ``card``; ``missing`` names the effect
    with nothing to choose (None: the React is offered)."""
    fields = ((("010",), *subs), (("028",), *rival_subs))
    return pytest.param(card, window, missing, (hand, fields, discard, hp))


REACT_CASES = [
    # Baton Pass swaps the defender's own main with a sub: no sub, nothing to swap
    react_case("022", REACT1, "swap"),
    react_case("022", REACT1, None, rival_subs=(("004",),)),
    # Shift swaps too, then -1: its swap needs a sub as Baton Pass's does
    react_case("071", REACT1, "swap"),
    react_case("071", REACT1, None, rival_subs=(("004",),)),
    # Revenge destroys an attacker's sub; its 10 HP or less box any attacker persona
    react_case("069", REACT2, "destroy"),
    react_case("069", REACT2, None, subs=(("003",),)),
    react_case("069", REACT2, None, hp=14),  # 14 - 4 = 10 HP at the window: the low box
    # Recarm recovers a persona from the defender's discard pile
    react_case("070", REACT2, "recover", discard=("015",)),
    react_case("070", REACT2, None, discard=("015", "002")),
    # Ambush discards a random card of the attacker's hand
    react_case("025", REACT2, "discard_random"),
    react_case("025", REACT2, None, hand=("006",)),
]


@pytest.mark.parametrize(("card", "window", "missing", "where"), REACT_CASES)
def test_a_react_needs_something_to_choose(
    card: str,
    window: int,
    missing: str | None,
    where: tuple[tuple[str, ...], Sequence[Sequence[Sequence[str]]], tuple[str, ...], int],
) -> None:
    # rule: VS-REACT-1  a React with nothing to choose is not offered (as VS-PLAN-1 Supports)
    hand, fields, discard, hp = where
    s = position(
        hands=(hand, [card]), fields=fields, discards=([], discard), hp=(30, hp), step=DECLARE
    )
    act(s, "skill m 010 0", *(["pass"] if window == REACT2 else []))
    assert s.step == window and s.current_player == 1
    assert "pass" in legal(s)  # the window is always there (VS-SKILL-1)
    name = s.game.all_cards[s.game.index[card]].name
    if missing is not None:
        assert f"react {card}" not in legal(s)
        before = s.canonical()
        with pytest.raises(IllegalActionError) as info:
            s.apply(s.game.parse_action(f"react {card}"))
        assert info.value.rule_id == "VS-REACT-1"
        words = f"{name} cannot be played now: its '{missing}' effect has nothing to choose"
        assert words in str(info.value)
        assert s.canonical() == before
    else:
        events = act(s, f"react {card}")
        assert "fizzle" not in kinds(events)
        assert s.frames or "discard" in kinds(events)  # a choice to make, or a card discarded


def test_a_search_support_needs_a_card_to_find() -> None:
    # rule: VS-PLAN-1
    # Junes Sale (041) searches the deck for a persona: none there, so it stays in hand.
    s = position(hands=(["041"], []), decks=(["015", "016"], []))
    assert "support 041" not in legal(s)
    assert illegal_rule(s, "support 041") == "VS-PLAN-1"
    s = position(hands=(["041"], []), decks=(["015", "002"], []))
    act(s, "support 041")
    assert legal(s) == {"search 002"}


def _wastes_a_choice(s: VsState, action: A.VsAction) -> bool:
    """Whether playing this Support or React now leaves an effect that chooses with nothing:
    its swap, bounce, destroy, search or recover fizzles, or its discard discards nothing.

    Played on a copy; any decision it opens is answered with the first legal action until
    the card has resolved."""
    g = s.game
    t = s.clone()
    card = str(getattr(action, "card", ""))
    c = g.index[card]
    mover = t.current_player
    events = t.apply_unchecked(action)
    while t.frames and not t.is_terminal():
        events += t.apply_unchecked(t.legal_actions()[0])
    if any(e.kind == "fizzle" and e.data["card"] == card for e in events):
        return True
    model = g.all_cards[c]
    assert isinstance(model, (Support, React))
    played = next(e for e in events if e.kind in ("support", "react"))
    for effect in model.lowhp if played.data["lowhp"] else model.effects:
        if effect.op in ("discard", "discard_random"):
            who = mover if effect.who == "self" else 1 - mover
            if not any(e.kind == "discard" and e.data["player"] == who for e in events):
                return True
    return False


@pytest.mark.slow
def test_every_react_with_a_choice_is_offered_only_when_it_has_one() -> None:
    # rule: VS-REACT-1  a React is offered exactly when none of its choices would be empty
    # rule: VS-PLAN-1  and so is a Support (the same ruling)
    g = position().game
    seen = {(kind, offered): 0 for kind in ("support", "react") for offered in (True, False)}
    for seed in range(150):
        pair = (("p5", "p4"), ("p4", "p3"), ("p3", "p5"))[seed % 3]
        s = g.new_state(g.default_config(*pair), seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            legal_now = s.legal_actions()
            if not s.frames and s.step in (PLAN, REACT1, REACT2):
                p = s.current_player
                for x in sorted(set(s.hand[p])):
                    if not g.chooses[x]:
                        continue
                    action: A.VsAction
                    if s.step == PLAN and g.kind[x] == SUPPORT:
                        kind, action = "support", g.a_support[x]
                    elif s.step != PLAN and g.kind[x] == REACT:
                        timing = DECLARATION if s.step == REACT1 else RESOLUTION
                        sk_type = g.skills[s.sk_c][s.sk_k].damage_type
                        if g.timing[x] != timing or g.vs_type[x] not in (-1, sk_type):
                            continue
                        kind, action = "react", g.a_react[x]
                    else:
                        continue
                    offered = action in legal_now
                    seen[kind, offered] += 1
                    assert offered is not _wastes_a_choice(s, action), (seed, str(action))
            s.apply_unchecked(legal_now[rng.randrange(len(legal_now))])
    assert all(seen.values()), seen  # each case happened: the sweep is not vacuous
