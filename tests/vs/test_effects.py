"""The effect vocabulary as the cards use it (search, recover, swap, discard, heal ...)."""

from __future__ import annotations

import pytest

from tests.vs.helpers import act, disc_ids, field_ids, hand_ids, kinds, legal, position
from velvet.vs.state import DECLARE, TURN_CAP

E = ((), (), ())


def test_on_play_ability_runs_when_summoned_and_fused() -> None:
    # rule: VS-FIELD-2
    # on-play abilities work as the persona is summoned or fused
    s = position(hands=(["002", "006", "002"], []), hp=(20, 30), fields=((["001"], ["003"], ()), E))
    act(s, "summon 002", "pay hand 006")
    assert s.hp[0] == 22
    s = position(
        hands=(["012", "006", "006", "006"], ["003", "004"]), fields=((["001"], (), ()), E)
    )
    act(s, "fuse 012 m", "pay hand 006", "pay hand 006", "pay hand 006")
    assert s.current_player == 1 and legal(s) == {"discard 003", "discard 004"}
    act(s, "discard 004")
    assert hand_ids(s, 1) == ["003"] and disc_ids(s, 1) == ["004"]


def test_heal_never_goes_above_starting_hp() -> None:
    # rule: VS-SETUP-3
    s = position(hands=(["015"], []), hp=(29, 30))
    events = act(s, "support 015")
    assert s.hp[0] == 30 and events[-1].data["amount"] == 1


def test_search_takes_a_card_and_shuffles() -> None:
    s = position(hands=(["041"], []), decks=(["015", "002", "016", "028"], []), turn=0)
    act(s, "support 041")
    assert legal(s) == {"search 002", "search 028"}
    act(s, "search 028")
    assert hand_ids(s, 0) == ["028"] and sorted(s.game.ids[c] for c in s.deck[0]) == [
        "002",
        "015",
        "016",
    ]


def test_recover_from_discard() -> None:
    s = position(hands=(["040"], []), discards=(["002", "015"], []))
    act(s, "support 040")
    assert legal(s) == {"recover 002"}
    act(s, "recover 002")
    assert hand_ids(s, 0) == ["002"] and disc_ids(s, 0) == ["015", "040"]


def test_swap_opponent_main_then_hit_its_weakness() -> None:
    # rule: VS-FIELD-3, VS-MORE-1
    s = position(hands=(["019"], []), fields=((["003"], (), ()), (["026"], ["029"], ())))
    act(s, "support 019", "target p1 s1")
    assert field_ids(s, 1)[0] == ["029"]  # Konohana Sakuya (weak to ice) is now the main
    s = position(hands=(["019"], []), fields=((["004"], (), ()), (["026"], ["029"], ())))
    events = act(s, "support 019", "target p1 s1", "end", "skill m 004 0", "pass")
    assert "one_more" in kinds(events)


def test_counter_react_can_end_the_game_for_the_attacker() -> None:
    # rule: VS-END-1
    s = position(hands=([], ["023"]), fields=((["001"], (), ()), (["026"], (), ())), hp=(2, 30))
    act(s, "end", "skill m 001 0", "pass", "react 023")
    assert s.is_terminal() and s.winner == 1


@pytest.mark.parametrize(("card", "hp", "left"), [("042", 30, 2), ("042", 9, 1), ("064", 30, 2)])
def test_discard_effects(card: str, hp: int, left: int) -> None:
    # rule: VS-LOWHP-1, VS-DISCARD-1
    s = position(hands=([card], ["003", "004", "005"]), hp=(hp, 30))
    act(s, f"support {card}")
    while s.frames:
        act(s, sorted(legal(s))[0])
    assert len(s.hand[1]) == left and len(s.disc[1]) == 3 - left


def test_bounce_main_forces_a_promotion_by_its_owner() -> None:
    # rule: VS-RULE-LOSEMAIN, VS-FUSE-3
    s = position(
        hands=([], ["050"]),
        fields=((["010", "013"], ["003"], ["004"]), (["026"], (), ())),
        step=DECLARE,
    )
    act(s, "skill m 013 0", "react 050", "target p0 m")
    assert hand_ids(s, 0) == ["013"] and disc_ids(s, 0) == ["010"]
    assert s.current_player == 0 and legal(s) == {"promote s1", "promote s2"}


def test_turn_cap_ends_in_a_draw() -> None:
    # rule: VS-END-2
    s = position(hands=(["006"] * 5, ["006"] * 5)).game.position(
        {
            "players": [
                {"hand": ["Bicorn"] * 5, "deck": ["Bicorn"] * 5},
                {"hand": ["Bicorn"] * 5, "deck": ["Bicorn"] * 5},
            ],
            "turn_number": TURN_CAP,
        }
    )
    act(s, "end")
    assert s.is_terminal() and s.returns() == [0.5, 0.5] and "turn cap" in s.outcome_text()
