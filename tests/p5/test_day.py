"""The day, actions outside the palace, and the end of the game."""

from __future__ import annotations

import pytest

from tests.p5.helpers import dice, first, give, kinds, make, play, position, settle, texts
from velvet.engine.errors import IllegalActionError
from velvet.p5 import actions as A
from velvet.p5.game import P5Game
from velvet.p5.state import IN_PALACE, P5State

DUO = (("joker", "goemon"), ("fox", "zorro"))


def _rule(state: P5State, text: str) -> str:
    with pytest.raises(IllegalActionError) as info:
        play(state, text)
    return info.value.rule_id


def test_players_choose_turn_order_each_day(game: P5Game) -> None:
    # rule: P5-DAY-1
    s = make(game, DUO)
    assert texts(s) == ["go p1", "go p2"]
    play(s, "go p2", "visit home")
    assert s.current_player == 0 and s.phase == 1  # the other player goes automatically
    assert _rule(s, "go p2") == "P5-DAY-1"
    play(s, "visit school")
    assert s.day == 2 and texts(s) == ["go p1", "go p2"]
    play(s, "go p1", "visit clinic", "visit sales-clerk")
    assert s.day == 3


def test_one_action_per_turn(game: P5Game) -> None:
    # rule: P5-DAY-2
    s = make(game, DUO)
    play(s, "go p1", "palace")
    settle(s)
    assert _rule(s, "visit home") == "P5-DAY-2"
    play(s, "end")
    assert s.turn == 1


@pytest.mark.parametrize(
    ("start", "action"),
    [("home", "visit home"), ("home", "recruit home"), ("palace", "palace")],
)
def test_never_end_where_you_started(game: P5Game, start: str, action: str) -> None:
    # rule: P5-DAY-3
    s = make(game)
    s.loc[0] = IN_PALACE if start == "palace" else game.loc_index[start]
    assert action not in texts(s)
    assert _rule(s, action) == "P5-DAY-3"


def test_occupied_locations_and_shared_palace(game: P5Game) -> None:
    # rule: P5-DAY-4
    s = make(game, DUO)
    play(s, "go p1", "visit home")
    assert "visit home" not in texts(s) and "recruit home" not in texts(s)
    assert _rule(s, "visit home") == "P5-DAY-4"
    play(s, "visit school", "go p1", "palace")
    settle(s)
    play(s, "end", "palace")
    assert s.loc == [IN_PALACE, IN_PALACE]


def test_day_advances_when_all_have_gone(game: P5Game) -> None:
    # rule: P5-DAY-5
    s = make(game)
    events = play(s, "visit home")
    assert s.day == 2 and first(events, "day") == {"day": 2}
    duo = make(game, (("skull", "zorro"), ("fox", "goemon")))
    give(duo, 0, sp=2)
    events = play(duo, "go p1", "use zorro.dia", "visit home")
    assert duo.day == 1 and "day" not in kinds(events)  # player 2 has yet to go
    assert duo.used_day[0]  # Dia stays used until the day moves on
    events = play(duo, "visit school")
    assert duo.day == 2 and first(events, "day") == {"day": 2}
    assert duo.used_day == [[], []] and duo.went == [False, False]


def test_boss_defeat_ends_in_victory(game: P5Game) -> None:
    # rule: P5-END-1
    s = position(
        game,
        [{"thief": "joker", "persona": "goemon", "fresh": {"stamina": 1}, "location": "palace"}],
        phase="fight",
        alert=100,
        shadows=[],
        boss={"damage": {"stamina": 5, "sp": 6, "bullet": 5}},  # 1 Stamina left of 6+6+5
    )
    events = play(s, "hit stamina @boss")
    assert "boss_defeated" in kinds(events)
    assert s.is_terminal() and s.returns() == [1.0] and "Victory" in s.outcome_text()
    before = s.canonical()
    assert _rule(s, "visit home") == "P5-END-1" and s.canonical() == before  # nothing after


def test_after_day_28_all_lose(game: P5Game) -> None:
    # rule: P5-END-2
    s = make(game, DUO)
    s.day = 28
    play(s, "go p1", "visit home")
    assert not s.is_terminal()
    events = play(s, "visit school")
    assert s.is_terminal() and s.returns() == [0.0, 0.0]
    assert first(events, "game_over")["rule"] == "P5-END-2"


def test_visit_runs_effects_top_down(game: P5Game) -> None:
    # rule: P5-VISIT-1
    s = position(
        game, [{"thief": "joker", "persona": "goemon", "stats": {"knowledge": 1}}], dice=[6]
    )
    events = play(s, "visit school")
    assert kinds(events)[:4] == ["visit", "gain", "check", "stat"]
    assert s.fresh[0][3] == 1 and s.stats[0][0] == 2


def test_unpaid_cost_skips_only_that_effect(game: P5Game) -> None:
    # rule: P5-VISIT-2
    s = make(game)
    give(s, cash=0, stamina=0)
    events = play(s, "visit weapons-shop")
    assert "ignored" in kinds(events) and s.fresh[0][2] == 1
    # batting cages: "Spend 1 Stamina" cannot be paid, the +1 Guts still happens
    s2 = position(
        game,
        [{"thief": "joker", "persona": "goemon", "stats": {"guts": 2}}],
        locations=[{"id": "home"}, {"id": "batting-cages"}],
    )
    events = play(s2, "visit batting-cages")
    assert kinds(events)[1:3] == ["ignored", "stat"] and s2.stats[0][1] == 3


def test_recruit_moves_checks_and_skips_location_effects(game: P5Game) -> None:
    # rule: P5-RECRUIT-1
    s = make(game)
    c = s.loc_conf[0]
    dice(s, *[6] * 12)
    events = play(s, "recruit home")
    assert s.loc[0] == game.loc_index["home"]
    assert kinds(events).count("check") == 2 and "restore" not in kinds(events)
    assert s.conf[0] == [c]


def test_recruit_success_ability_immediately(game: P5Game) -> None:
    # rule: P5-RECRUIT-2
    s = position(
        game,
        [{"thief": "joker", "persona": "goemon", "fresh": {"stamina": 1, "sp": 1}}],
        locations=[{"id": "home", "confidant": "takemi"}, {"id": "school"}],
        dice=[6] * 12,
    )
    play(s, "recruit home")
    assert s.conf[0] == [game.conf_index["takemi"]]
    assert s.fresh[0][:2] == [3, 3]  # gained 2 Stamina + 2 SP


@pytest.mark.parametrize(
    ("first_ok", "second_ok", "expect"),
    [(True, False, "second"), (False, True, "first"), (False, False, "choose")],
)
def test_recruit_failure_gives_one_stat(
    game: P5Game, first_ok: bool, second_ok: bool, expect: str
) -> None:
    # rule: P5-RECRUIT-3
    s = position(
        game,
        [{"thief": "skull", "persona": "goemon", "stats": {"charm": 1, "compassion": 1}}],
        locations=[{"id": "home", "confidant": "kawakami"}],  # Charm + Compassion
        dice=[6 if first_ok else 1, 6 if second_ok else 1],
    )  # Skull has no bonus dice
    play(s, "recruit home")
    if expect == "choose":
        assert texts(s) == ["stat charm", "stat compassion"]
        with pytest.raises(IllegalActionError) as info:
            play(s, "stat guts")
        assert info.value.rule_id == "P5-RECRUIT-3"
        play(s, "stat compassion")
        assert s.stats[0][3:] == [2, 1]
    elif expect == "first":
        assert s.stats[0][3:] == [1, 2]
    else:
        assert s.stats[0][3:] == [2, 1]
    assert s.conf[0] == []


def test_recruited_confidant_not_replaced(game: P5Game) -> None:
    # rule: P5-RECRUIT-4
    s = position(
        game,
        locations=[{"id": "home", "confidant": "ann"}, {"id": "school"}, {"id": "clinic"}],
        dice=[6] * 12,
    )
    deck = list(s.conf_deck)
    play(s, "recruit home", "visit school")  # nothing to do after either: the turns end
    assert s.loc_conf[0] == -1 and s.conf_deck == deck and s.conf[0] == [game.conf_index["ann"]]
    assert "recruit home" not in texts(s)
    with pytest.raises(IllegalActionError) as info:
        play(s, "recruit home")
    assert info.value.rule_id == "P5-RECRUIT-4"


def test_discover_reveals_location_and_confidant(game: P5Game) -> None:
    # rule: P5-DISCOVER-1
    s = make(game)
    top_loc, top_conf = s.loc_deck[-1], s.conf_deck[-1]
    supply_cash = s.supply[3]
    events = play(s, "discover")
    assert s.locs[-1] == top_loc and s.loc_conf[-1] == top_conf
    assert s.fresh[0][3] == 0 and s.supply[3] == supply_cash + 1
    assert first(events, "discover")["location"] == game.cards.locations[top_loc].id


@pytest.mark.parametrize("choice", ["visit", "recruit"])
def test_discover_then_visit_or_recruit(game: P5Game, choice: str) -> None:
    # rule: P5-DISCOVER-2
    s = make(game)
    play(s, "discover")
    new = game.cards.locations[s.disc].id
    assert texts(s) == [f"visit {new}", f"recruit {new}"]
    with pytest.raises(IllegalActionError) as info:
        play(s, "visit home")
    assert info.value.rule_id == "P5-DISCOVER-2"
    dice(s, *[1] * 12)
    events = play(s, f"{choice} {new}")
    if s.dec:  # both checks failed: choose the +1
        events += play(s, texts(s)[0])
    assert s.loc[0] == game.loc_index[new] and s.day == 2
    assert ("check" in kinds(events)) if choice == "recruit" else ("visit" in kinds(events))


def test_discover_illegal_without_cash_or_cards(game: P5Game) -> None:
    # rule: P5-DISCOVER-3
    s = make(game)
    give(s, cash=0)
    assert "discover" not in texts(s)
    with pytest.raises(IllegalActionError) as info:
        play(s, "discover")
    assert info.value.rule_id == "P5-DISCOVER-3"
    s2 = make(game)
    s2.loc_deck = []
    assert "discover" not in texts(s2)
    s3 = make(game)
    s3.conf_deck = []
    play(s3, "discover")
    assert s3.loc_conf[-1] == -1 and "recruit" not in " ".join(texts(s3))
    assert A.Visit(game.cards.locations[s3.disc].id) in s3.legal_actions()
