"""A new VS game starts clean, damage stops at 0, and the end is refused by its clause.

Cases found missing by mutation testing (docs/mutation.md).
"""

from __future__ import annotations

import pytest

from tests.vs.helpers import act, position
from velvet.engine.errors import IllegalActionError
from velvet.vs.game import MODE_ADD, MODE_MUL, load_vs_game
from velvet.vs.state import DECLARE, DRAW_RESULT, PLAN, TURN_CAP, VsState, apply_mod


def test_a_new_game_starts_at_planning_of_turn_one_with_nothing_pending() -> None:
    # rule: VS-SETUP-1  each player takes their own player card (and its starter)
    # rule: VS-TURN-1  the game begins with the first player's Planning Step
    game = load_vs_game()
    for seed in range(4):
        s = game.new_state(game.default_config(), seed)
        assert isinstance(s, VsState)
        assert s.pcs == ("p5", "p4")
        view = s.view(0)
        assert view["player_cards"] == ["p5", "p4"]
        assert (s.step, s.turn_no, view["step"]) == (PLAN, 1, "planning")
        assert view["skill"] is None and (s.sk_c, s.sk_k, s.sk_slot) == (-1, -1, -1)
        assert not s.more_used and not s.more_pending and not s.negated
        assert s.winner == -1 and s.hp == [30, 30]  # rule: VS-SETUP-3


@pytest.mark.parametrize(
    ("dmg", "mode", "amount", "out"),
    [(3, MODE_ADD, -2, 1), (1, MODE_ADD, -1, 0), (1, MODE_ADD, -3, 0), (2, MODE_MUL, 2, 4)],
)
def test_a_damage_modifier_never_takes_damage_below_zero(
    dmg: int, mode: int, amount: int, out: int
) -> None:
    # rule: VS-SKILL-3  modifiers change a skill's damage, which stops at 0
    assert apply_mod(dmg, mode, amount) == out


@pytest.mark.parametrize(
    ("hp", "winner", "rule", "words"),
    [
        ((0, 12), 1, "VS-END-1", "Player 1's HP is 0"),
        ((1, 12), 1, "VS-END-2", "Player 1 could not draw"),
        ((12, 0), 0, "VS-END-1", "Player 2's HP is 0"),
        ((12, 12), DRAW_RESULT, "VS-END-2", "a draw at the turn cap"),
    ],
)
def test_an_action_after_the_end_names_how_it_ended(
    hp: tuple[int, int], winner: int, rule: str, words: str
) -> None:
    # rule: VS-END-1  HP 0 loses; rule: VS-END-2  no card to draw loses
    s = position(hands=(["006"], []), hp=(max(hp[0], 1), max(hp[1], 1)))
    s.hp = list(hp)
    s.winner = winner
    before = s.canonical()
    with pytest.raises(IllegalActionError) as info:
        s.apply(s.game.parse_action("end"))
    assert info.value.rule_id == rule
    assert words in str(info.value)
    assert s.canonical() == before


def test_after_the_turn_cap_draw_an_action_cites_the_draw_clause() -> None:
    # rule: VS-END-2  the turn cap (its ruling) ended the game, not VS-END-1's HP
    s = load_vs_game().position(
        {
            "players": [
                {"hand": ["Bicorn"] * 5, "deck": ["Bicorn"] * 5},
                {"hand": ["Bicorn"] * 5, "deck": ["Bicorn"] * 5},
            ],
            "turn_number": TURN_CAP,
        }
    )
    act(s, "end")  # no persona: no Skill Step; the Draw Step passes turn 200
    assert s.winner == DRAW_RESULT and s.hp == [30, 30]
    before = s.canonical()
    for text in ("end", "summon 006", "pass"):
        with pytest.raises(IllegalActionError) as info:
            s.apply(s.game.parse_action(text))
        assert info.value.rule_id == "VS-END-2"
        assert "turn cap" in str(info.value)
    assert s.canonical() == before


@pytest.mark.parametrize("turn", [0, 1])
def test_after_a_one_more_the_next_skill_step_starts_clean(turn: int) -> None:
    # rule: VS-MORE-1  weakness hit: the Skill Step starts again, nothing declared yet
    mine, theirs = (["010"], (), ()), (["026"], ["028"], ())
    fields = (mine, theirs) if turn == 0 else (theirs, mine)
    s = position(fields=fields, step=DECLARE, turn=turn)
    events = act(s, "skill m 010 0", "pass")  # wind at Izanagi: weakness
    defender = 1 - turn
    assert [e.data["player"] for e in events if e.kind == "pass"] == [defender]
    events = act(s, "pass")  # no React after the resolution either
    assert [e.data["player"] for e in events if e.kind == "pass"] == [defender]
    assert s.step == DECLARE and s.more_used and not s.more_pending
    assert s.view(turn)["skill"] is None and (s.sk_c, s.sk_k, s.sk_slot) == (-1, -1, -1)


def test_a_declared_skill_shows_no_damage_of_the_skill_before() -> None:
    # rule: VS-SKILL-1  a skill's damage is its own, from its resolution on
    s = position(
        hands=([], ["022"]), fields=((["010"], ["003"], ()), (["026"], ["028"], ())), step=DECLARE
    )
    act(s, "skill m 010 0", "pass", "pass")  # Garu hits Izanagi's weakness for 4: 1 more
    act(s, "skill s1 003 0")  # Agi of the sub, not resolved yet
    for step in ("react-declaration", "resolve"):  # and Baton Pass's swap to choose
        view = s.view(1)
        assert view["step"] == step and view["dmg"] == 0 and view["applied"] == []
        if step == "react-declaration":
            act(s, "react 022")
    act(s, "target p1 s1")  # Tomoe comes in as the main: Agi hits its fire weakness
    assert s.view(1)["dmg"] == 3 and s.hp[1] == 30 - 4 - 3


def test_a_fuse_event_names_the_stack_it_was_fused_onto() -> None:
    # rule: VS-FUSE-1  the hand card goes on top of the chosen stack
    s = position(hands=(["007", "006", "003"], []), fields=((["001"], ["002"], ()), ((), (), ())))
    events = act(s, "fuse 007 s1", "pay hand 006", "pay hand 003")
    fused = [e for e in events if "onto" in e.data]
    assert fused and all(e.data["onto"] == ["002"] for e in fused)


def test_change_is_offered_with_a_sub_in_the_second_slot_only() -> None:
    # rule: VS-PLAN-1  change the main with a sub, whichever sub slot holds it
    s = position(fields=((["001"], (), ["002"]), ((), (), ())))
    assert "change s2" in {str(a) for a in s.legal_actions()}
    act(s, "change s2")
    assert [list(st) for st in s.field[0]] == [[s.game.index["002"]], [], [s.game.index["001"]]]


def test_the_next_turn_starts_with_nothing_declared() -> None:
    # rule: VS-TURN-1  Skill Step, Draw Step, then the other player's turn begins afresh
    s = position(fields=((["003"], (), ()), (["026"], ["028"], ())), step=DECLARE)
    act(s, "skill m 003 0", "pass", "pass")  # fire at Izanagi: no weakness, no 1 more
    assert (s.turn, s.step) == (1, PLAN)
    assert s.view(1)["skill"] is None and (s.sk_c, s.sk_k, s.sk_slot) == (-1, -1, -1)
    assert not s.more_pending and not s.negated and s.rmods == []


def test_a_full_field_and_a_short_hand_cannot_summon() -> None:
    # rule: VS-FIELD-1  with 3 personas out, a summon sends one as part of its cost
    # rule: VS-SUMMON-1  the whole cost must be payable: 3 field personas cannot pay 4
    s = position(hands=(["013"], []), fields=((["003"], ["004"], ["005"]), ((), (), ())))
    assert "summon 013" not in {str(a) for a in s.legal_actions()}
    before = s.canonical()
    with pytest.raises(IllegalActionError):
        s.apply(s.game.parse_action("summon 013"))
    assert s.canonical() == before
