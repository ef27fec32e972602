"""Corners of the VS rules that mutation testing found unchecked (docs/mutation.md).

Each test names the function of ``velvet.vs`` whose mutant it kills; the rules
module is being split, so the function names, not line numbers, are the anchor.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.vs.helpers import FILLER, act, field_ids, hand_ids, legal, position
from velvet.engine.errors import IllegalActionError, RecordError
from velvet.engine.rng import Rng
from velvet.vs import actions as A
from velvet.vs.game import load_vs_game

E = ((), (), ())


def illegal(state, text: str) -> IllegalActionError:  # type: ignore[no-untyped-def]
    before = state.canonical()
    with pytest.raises(IllegalActionError) as info:
        state.apply(state.game.parse_action(text))
    assert state.canonical() == before
    return info.value


# --- ultimates (VsState._extra_options, _uncover_ok) --------------------------------------------


def zero_cost_ultimate(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A custom ultimate whose only cost is the named persona (Arsène)."""
    path = tmp_path / "ult.toml"
    path.write_text(
        '[[persona]]\nid = "900"\nname = "Raoul"\ncost = 0\nweakness = "ice"\n'
        'extra_cost_name = "Arsène"\n'
        'skills = [{ name = "Eigaon", type = "fire", damage = 5 }]\n',
        encoding="utf-8",
    )
    return load_vs_game([path])


def test_a_named_cost_paid_from_hand_frees_no_slot(tmp_path: Path) -> None:
    # rule: VS-FIELD-1, VS-RULE-ULT
    # A full field and nothing left to pay after the named card: a summon must send a field
    # persona, and Arsène from the hand sends none, so there is no room.
    game = zero_cost_ultimate(tmp_path)
    full = (["002"], ["003"], ["004"])
    s = position(hands=(["900", "001"], []), fields=(full, E), game=game)
    assert "summon 900" not in legal(s)
    assert illegal(s, "summon 900").rule_id == "VS-FIELD-1"
    # Arsène on the field pays the named cost and frees its slot for the ultimate.
    s = position(hands=(["900"], []), fields=((["002"], ["001"], ["004"]), E), game=game)
    act(s, "summon 900")
    assert legal(s) == {"pay field s1"}
    act(s, "pay field s1")
    assert field_ids(s, 0) == [["002"], ["900"], ["004"]]


def test_an_ultimate_named_after_the_first_name_of_the_set(tmp_path: Path) -> None:
    # rule: VS-RULE-ULT
    # Alice is the first name of the set in order; the named cost is still paid once,
    # then the regular cost.
    path = tmp_path / "ult.toml"
    path.write_text(
        '[[persona]]\nid = "900"\nname = "Wonderland"\ncost = 1\nweakness = "ice"\n'
        'extra_cost_name = "Alice"\n'
        'skills = [{ name = "Die For Me", type = "physical", damage = 5 }]\n',
        encoding="utf-8",
    )
    game = load_vs_game([path])
    assert game.names[0] == "Alice"
    s = position(hands=(["900", "012", FILLER], []), fields=((["002"], (), ()), E), game=game)
    act(s, "summon 900")
    assert legal(s) == {"pay hand 012"}
    act(s, "pay hand 012")
    assert legal(s) == {"pay hand 006", "pay field m"}
    act(s, "pay hand 006")
    assert field_ids(s, 0) == [["002"], ["900"], []] and not s.frames


def test_the_named_card_cannot_uncover_a_copy_of_the_persona_being_played() -> None:
    # rule: VS-RULE-ULT, VS-RULE-NAME
    # Arsène fused on top of a Satanael: taking Arsène alone would leave that Satanael as a
    # persona beside the new one, so only the whole stack may pay.
    s = position(hands=(["014", *[FILLER] * 5], []), fields=((["014", "001"], (), ()), E))
    act(s, "summon 014")
    assert legal(s) == {"pay field m"}
    assert illegal(s, "pay stack m 001").rule_id == "VS-RULE-ULT"


# --- a Support needs something to choose (VsState._missing_choice) -------------------------


def test_a_discard_support_is_playable_against_a_one_card_hand() -> None:
    # rule: VS-PLAN-1
    # Rainy Night (042): the opponent discards a card; one card in hand is enough.
    s = position(turn=1, hands=(["003"], ["042"]), fields=((["001"], (), ()), (["026"], (), ())))
    assert "support 042" in legal(s)
    act(s, "support 042")
    assert s.current_player == 0 and legal(s) == {"discard 003"}
    act(s, "discard 003")
    assert hand_ids(s, 0) == []
    s = position(turn=1, hands=([], ["042"]), fields=((["001"], (), ()), (["026"], (), ())))
    assert "support 042" not in legal(s)


def test_a_support_that_discards_from_its_own_hand_needs_another_card(tmp_path: Path) -> None:
    # rule: VS-PLAN-1
    # The Support leaves the hand as it is played, so it cannot be the card discarded.
    path = tmp_path / "toss.toml"
    path.write_text(
        '[[support]]\nid = "901"\nname = "Toss"\neffects = [{ op = "discard", who = "self" }]\n',
        encoding="utf-8",
    )
    game = load_vs_game([path])
    s = position(hands=(["901"], []), fields=((["001"], (), ()), E), game=game)
    assert "support 901" not in legal(s)
    assert illegal(s, "support 901").rule_id == "VS-PLAN-1"
    s = position(hands=(["901", "002"], []), fields=((["001"], (), ()), E), game=game)
    act(s, "support 901")
    assert legal(s) == {"discard 002"}


# --- typed damage modifiers (VsState._resolve, mod_sources, damage_steps) ------------------


@pytest.mark.parametrize(("skill", "damage"), [("skill m 029 0", 3), ("skill m 026 1", 1)])
def test_a_physical_resist_lowers_only_physical_skills(skill: str, damage: int) -> None:
    # rule: VS-FIELD-2
    # Shiisaa (008) has Resist Physical -1: Agi (fire 3) is untouched, Cleave (physical 2) is 1.
    main = skill.split()[2]
    s = position(fields=(([main], (), ()), (["008"], (), ())))
    act(s, "end", skill)
    while s.current_player == 1 and "pass" in legal(s):
        act(s, "pass")
    assert s.hp[1] == 30 - damage


def test_the_damage_event_names_the_ability_that_changed_it() -> None:
    # the first (and only) modifier of the pool is Shiisaa's defend ability
    s = position(fields=((["026"], (), ()), (["008"], (), ())))
    events = act(s, "end", "skill m 026 1")
    while s.current_player == 1 and "pass" in legal(s):
        events += act(s, "pass")
    damage = next(e for e in events if e.kind == "damage")
    steps = damage.data["steps"]
    assert [step[2:4] for step in steps] == [["008", "defend"]]
    assert damage.data["amount"] == 1


def test_each_damage_step_names_its_own_source() -> None:
    # Attack Master (+2, Izanagi-no-Okami) and Resist Physical (-1, Shiisaa) are both
    # additions: each step is matched to its source by mode and amount together.
    s = position(fields=((["039"], (), ()), (["008"], (), ())))
    events = act(s, "end", "skill m 039 0")
    while s.current_player == 1 and "pass" in legal(s):
        events += act(s, "pass")
    damage = next(e for e in events if e.kind == "damage")
    sources = {(step[1], step[2], step[3]) for step in damage.data["steps"]}
    assert sources == {(2, "039", "attack"), (-1, "008", "defend")}
    assert damage.data["amount"] == 10 and s.hp[1] == 20


def test_a_physical_resist_is_not_named_as_the_source_of_a_fire_step() -> None:
    # Resist Physical -2 (056, the main) and Resist Fire -2 (061, a sub) look alike; Agi
    # (fire 3) is lowered by Resist Fire alone, and the damage names it.
    s = position(fields=((["029"], (), ()), (["056"], ["061"], ())))
    events = act(s, "end", "skill m 029 0")
    while s.current_player == 1 and "pass" in legal(s):
        events += act(s, "pass")
    damage = next(e for e in events if e.kind == "damage")
    assert [step[2:4] for step in damage.data["steps"]] == [["061", "defend"]]
    assert s.hp[1] == 29


def test_skills_of_one_and_of_no_base_damage(tmp_path: Path) -> None:
    # A 1-damage skill is boosted like any other; a skill of no damage deals none, and
    # no modifier gives it any.
    path = tmp_path / "tiny.toml"
    path.write_text(
        '[[persona]]\nid = "902"\nname = "Tiny"\ncost = 1\nweakness = "ice"\n'
        'abilities = [{ name = "Attack Boost", trigger = "attack", amount = 1 }]\n'
        'skills = [{ name = "Tap", type = "fire", damage = 1 }, '
        '{ name = "Feint", type = "fire", damage = 0 }]\n',
        encoding="utf-8",
    )
    game = load_vs_game([path])
    for skill, hp in (("skill m 902 0", 28), ("skill m 902 1", 30)):
        s = position(fields=((["902"], (), ()), (["026"], (), ())), game=game)
        act(s, "end", skill)
        while s.current_player == 1 and "pass" in legal(s):
            act(s, "pass")
        assert s.hp[1] == hp, skill


# --- explanations (VsState.explain_illegal) ------------------------------------------------


def test_an_action_naming_no_card_is_not_in_the_hand() -> None:
    # ids[1] (Pixie, 002) is in the hand: an action without a card must not be read as it.
    s = position(hands=(["002", FILLER], []))
    error = s.explain_illegal(A.Summon(None))  # type: ignore[arg-type]
    assert error.rule_id == "VS-SUMMON-1" and "is not in your hand" in str(error)


def test_the_catch_all_explanation_lists_twelve_legal_actions() -> None:
    hand = ["002", "003", "004", "006", "007", "008", "009", "010", "011", "015", "016"]
    s = position(hands=(hand, []), fields=((["001"], (), ()), E))
    assert len(s.legal_actions()) > 12
    error = illegal(s, "pay hand 006")
    assert error.rule_id == "VS-TURN-1"
    listed = str(error).split("legal: ", 1)[1].split(" [", 1)[0].split(", ")
    assert listed == [str(a) for a in s.legal_actions()[:12]]


# --- saved states (VsState.from_json) ------------------------------------------------------


def saved() -> dict:  # type: ignore[type-arg]
    return position(hands=(["041"], []), decks=(["015", "002"], [FILLER] * 3)).to_json()


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda d: d["discard"].append([]),
        lambda d: d["field"].append([[], [], []]),
        lambda d: d["field"][0].append([]),
    ],
    ids=["three discard piles", "three fields", "four slots"],
)
def test_a_saved_state_with_the_wrong_zones_is_refused(corrupt) -> None:  # type: ignore[no-untyped-def]
    data = saved()
    corrupt(data)
    game = load_vs_game()
    with pytest.raises(RecordError, match="2 discard piles and 2 fields of 3 slots"):
        game.state_from_json(data)


def test_a_saved_state_naming_an_effect_past_the_last_is_refused() -> None:
    game = load_vs_game()
    data = saved()
    data["effq"] = [[0, len(game.effects), 0, "041"]]
    with pytest.raises(RecordError, match="unknown effect"):
        game.state_from_json(data)
    data["effq"] = [[0, -2, 0, "041"]]
    with pytest.raises(RecordError, match="unknown effect"):
        game.state_from_json(data)
    data["effq"] = [[0, len(game.effects) - 1, 0, "041"]]
    assert game.state_from_json(data).effq[0].effect == len(game.effects) - 1


def test_a_state_saved_while_a_support_resolves_loads_again() -> None:
    # Junes Sale is between zones (effect -1: the card itself) while its search waits.
    s = position(hands=(["041"], []), decks=(["015", "002"], [FILLER] * 3))
    act(s, "support 041")
    data = s.to_json()
    assert [work[1] for work in data["effq"]] == [-1]
    again = s.game.state_from_json(data)
    assert again.canonical() == s.canonical() and again.limbo(0) == [s.game.index["041"]]


# --- cards between zones (VsState.limbo, zones) --------------------------------------------


def test_a_resolving_support_is_counted_once_and_only_for_its_player() -> None:
    s = position(hands=(["041"], []), decks=(["015", "002"], [FILLER] * 3))
    before = [s.zones(0), s.zones(1)]
    act(s, "support 041")  # Junes Sale waits for its search choice
    assert s.effq  # its work is queued: the card itself and its pending effect
    assert s.limbo(0) == [s.game.index["041"]] and s.limbo(1) == []
    assert [s.zones(0), s.zones(1)] == before
    act(s, "search 002")
    assert [s.zones(0), s.zones(1)] == before


def test_an_effect_waiting_in_the_queue_is_no_card_between_zones() -> None:
    # effect 0 (the first of the set) waiting for Player 1: the source card is on the
    # field, not in limbo, so it is not counted twice.
    data = position(fields=((["002"], (), ()), E)).to_json()
    data["effq"] = [[0, 0, 0, "002"]]
    s = load_vs_game().state_from_json(data)
    assert s.limbo(0) == [] and s.zones(0)[s.game.index["002"]] == 1


# --- a private decklist, sampled (VsState.determinize, _sample_unseen) --------------------


@pytest.mark.parametrize("seed", range(8))
def test_a_private_deck_sample_holds_the_rivals_starter(seed: int) -> None:
    # rule: VS-DECK-1
    # Player 2 sees none of Player 1's cards and not its decklist; the deck holds
    # Player 1's starter (Arsène, card index 0) all the same.
    # One unseen card (odd seeds) or two: the starter is always one of them.
    unseen = 1 + seed % 2
    s = position(
        hands=([FILLER], []),
        decks=([FILLER] * (unseen - 1), [FILLER] * 5),
        fields=(E, (["026"], (), ())),
        open_decklists=False,
    )
    view = s.view(1)
    assert view["decklists"][0] is None
    sample = s.game.determinize(view, 1, Rng(seed))
    ids = Counter(sample.game.ids[c] for c in sample.hand[0] + sample.deck[0])
    assert ids["001"] == 1 and sum(ids.values()) == unseen


def test_a_private_deck_with_no_unseen_card_samples_none() -> None:
    # Player 1 holds nothing and has an empty deck: no card, not even the starter, is made up.
    s = position(
        hands=([], []),
        decks=([], [FILLER] * 5),
        fields=((["002"], (), ()), (["026"], (), ())),
        open_decklists=False,
    )
    sample = s.game.determinize(s.view(1), 1, Rng(3))
    assert sample.hand[0] == [] and sample.deck[0] == []
