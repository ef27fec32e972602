"""The chances shown before a check or a Dice roll equal an exact count over every face."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from tests.p5.helpers import play, position
from velvet.p5.game import P5Game
from velvet.p5.odds import action_odds, check_chance, percent, stat_odds


@pytest.mark.parametrize("knowledge", [1, 2, 3])
def test_check_chance_counts_every_roll_of_the_engine(game: P5Game, knowledge: int) -> None:
    # rule: P5-CHECK-1
    wins = 0
    rolls = list(product(range(1, 7), repeat=knowledge))
    for faces in rolls:
        s = position(
            game,
            players=[{"thief": "joker", "persona": "goemon", "stats": {"knowledge": knowledge}}],
            dice=list(faces),
        )
        check = next(e for e in play(s, "visit school") if e.kind == "check")
        assert len(check.data["dice"]) == knowledge
        wins += check.data["success"]
    assert check_chance(knowledge) == Fraction(wins, len(rolls))


def test_words_and_percentages() -> None:
    # rule: P5-COMP-5
    assert [percent(check_chance(n)) for n in range(5)] == ["0 %", "33 %", "56 %", "70 %", "80 %"]
    assert percent(Fraction(999, 1000)) == "99 %" and percent(Fraction(1)) == "100 %"
    with pytest.raises(ValueError, match="0 or more dice"):
        check_chance(-1)


def test_actions_name_their_checks(game: P5Game) -> None:
    # rule: P5-RECRUIT-1
    s = position(
        game,
        players=[{"thief": "joker", "persona": "goemon", "stats": {"guts": 4, "knowledge": 1}}],
    )
    assert stat_odds(s, 0, "guts") == "Guts 4: 80 %"
    by_text = {str(a): action_odds(s, a) for a in s.legal_actions()}
    assert by_text["visit school"] == ["Knowledge 1: 33 %"]
    assert by_text["visit home"] == [] and by_text["palace"] == []
    recruit = [odds for text, odds in by_text.items() if text.startswith("recruit")]
    assert recruit and all(len(odds) == 3 for odds in recruit)
    for first, second, both in recruit:  # both checks must succeed: the product
        dice = [int(text.split(":")[0].split()[-1]) for text in (first, second)]
        assert both == f"both: {percent(check_chance(dice[0]) * check_chance(dice[1]))}"
    assert percent(check_chance(4) * check_chance(2)) == "45 %"  # 325/729


def test_a_dice_skill_is_certain_only_on_a_weak_target(game: P5Game) -> None:
    # rule: P5-CHECK-2
    thief = {"thief": "joker", "persona": "arsene", "fresh": {"bullet": 1}, "location": "palace"}
    s = position(game, [thief], phase="fight", shadows=[{"id": "nekomata"}, {"id": "inugami"}])
    odds = {str(a): action_odds(s, a) for a in s.legal_actions()}
    assert odds["use arsene.thief-s-luck @nekomata"] == ["Dice: 100 % (weakness)"]  # weak to Gun
    assert odds["use arsene.thief-s-luck @inugami"] == ["Dice: 33 %"]
    hit = position(game, [thief], phase="fight", shadows=[{"id": "nekomata"}], dice=[1])
    events = play(hit, "use arsene.thief-s-luck @nekomata")
    assert not any(e.kind == "dice" for e in events)  # no die is rolled: it cannot fail
