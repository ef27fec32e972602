"""An illegal action is explained by the clause that forbids it, in words that fit.

Each case checks the rule ID and the words of the explanation, and that nothing
changed (mutation testing found explanations right in ID but wrong in words).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.p5.helpers import play, position, texts
from tests.p5.test_palace import fighting
from velvet.engine.errors import IllegalActionError
from velvet.p5.game import P5Game


def _split_pending(game: P5Game) -> Any:
    s = fighting(game, "mothman", "bicorn", persona="milady", sp=1)  # weak Psy: 2 ANY damage
    play(s, "use milady.psio @mothman")  # rule: P5-COMBAT-4 (how much ANY meets SP?)
    return s


def _stat_pending(game: P5Game) -> Any:
    s = position(
        game,
        [{"thief": "skull", "persona": "goemon", "stats": {"charm": 1, "compassion": 1}}],
        locations=[{"id": "home", "confidant": "kawakami"}],
        dice=[1, 1],
    )
    play(s, "recruit home")  # rule: P5-RECRUIT-3 (a failed recruit: choose a stat)
    return s


CASES = [
    # rule: P5-COMBAT-4  an impossible split, and any other action, while a split is pending
    (_split_pending, "assign sp=3", "P5-COMBAT-4", "'assign sp=3' is not a possible split now"),
    (_split_pending, "end", "P5-COMBAT-4", "a decision is pending"),
    # rule: P5-RECRUIT-3  while a stat is to be chosen, a split or an end is not it
    (_stat_pending, "assign sp=1", "P5-RECRUIT-3", "a decision is pending"),
    (_stat_pending, "end", "P5-RECRUIT-3", "a decision is pending"),
    # rule: P5-ARSENE-3  a turn started in the palace: the party is fixed there
    (
        lambda g: position(
            g, [{"thief": "joker", "persona": "arsene", "location": "palace", "held": ["pixie"]}]
        ),
        "equip pixie",
        "P5-ARSENE-3",
        "the party cannot change inside the palace",
    ),
    # rule: P5-TERM-PALACE  a 1/Palace skill used on this entry
    (
        lambda g: fighting(g, "bicorn", more={"used_palace": ["goemon.rakukaja"]}),
        "use goemon.rakukaja",
        "P5-TERM-PALACE",
        "goemon.rakukaja is 1/Palace: already used on this entry",
    ),
    # rule: P5-RECRUIT-3  a stat not offered is named as such
    (_stat_pending, "stat guts", "P5-RECRUIT-3", "'guts' is not one of the stats offered"),
    # rule: P5-ARSENE-1  outside the palace, equipping a shadow not held
    (
        lambda g: position(g, [{"thief": "joker", "persona": "arsene"}]),
        "equip pixie",
        "P5-ARSENE-1",
        "you do not hold the shadow 'pixie'",
    ),
    # rule: P5-COMBAT-3  a 1/Day skill not yet used, without its cost
    (
        lambda g: position(g, [{"thief": "skull", "persona": "zorro"}]),
        "use zorro.dia",
        "P5-COMBAT-3",
        "you cannot pay the cost of zorro.dia",
    ),
    # rule: P5-TERM-DAY  a 1/Day skill used today
    (
        lambda g: position(
            g,
            [{"thief": "skull", "persona": "zorro", "fresh": {"sp": 2}, "used_day": ["zorro.dia"]}],
        ),
        "use zorro.dia",
        "P5-TERM-DAY",
        "zorro.dia is 1/Day: already used today",
    ),
]


@pytest.mark.parametrize(("prepare", "text", "rule", "words"), CASES)
def test_an_illegal_action_is_explained(
    game: P5Game, prepare: Any, text: str, rule: str, words: str
) -> None:
    state = prepare(game)
    before = state.canonical()
    with pytest.raises(IllegalActionError) as info:
        play(state, text)
    assert info.value.rule_id == rule
    assert words in str(info.value)
    assert state.canonical() == before


def test_outcome_text_in_play_victory_and_defeat(game: P5Game) -> None:
    # rule: P5-END-1  the boss fell; rule: P5-END-2  the last day passed
    s = position(game)
    assert s.outcome_text() == "In progress: day 1 of 28"
    s.result = 1
    assert "Victory" in s.outcome_text() and "P5-END-1" in s.outcome_text()
    s.result = -1
    assert "Defeat" in s.outcome_text() and "P5-END-2" in s.outcome_text()


def test_a_bullet_cost_is_paid_with_bullets_only(game: P5Game) -> None:
    # rule: P5-COMBAT-3  a skill is usable only when its cost can be paid
    s = fighting(game, "bicorn", persona="arsene", bullet=0, cash=3)
    before = s.canonical()
    assert not any(str(a).startswith("use arsene.thief-s-luck") for a in s.legal_actions())
    with pytest.raises(IllegalActionError) as info:
        play(s, "use arsene.thief-s-luck @bicorn")
    assert info.value.rule_id == "P5-COMBAT-3" and "cannot pay" in str(info.value)
    assert s.canonical() == before


def test_restore_flips_spent_tokens_and_says_which(game: P5Game) -> None:
    # rule: P5-TERM-RESTORE  Restore X: flip X spent tokens back to fresh
    s = position(
        game,
        [{"thief": "skull", "persona": "zorro", "fresh": {"sp": 1}, "spent": {"stamina": 2}}],
    )
    events = play(s, "use zorro.dia")
    restore = next(e for e in events if e.kind == "restore")
    assert restore.data["tokens"] == {"stamina": 2}
    assert s.fresh[0][0] == 2 and s.spent[0][0] == 0


def test_discover_offers_recruiting_the_first_confidant_of_the_data(game: P5Game) -> None:
    # rule: P5-DISCOVER-2  visit the discovered location or recruit its confidant
    assert game.cards.confidants[0].id == "sojiro"  # index 0: the edge this case checks
    s = position(
        game,
        [{"thief": "skull", "persona": "zorro", "fresh": {"cash": 1}}],
        locations=[{"id": "home"}],
        confidant_deck=["sojiro"],
        location_deck=["diner"],
    )
    play(s, "discover")
    assert texts(s) == ["visit diner", "recruit diner"]
