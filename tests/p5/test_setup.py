"""Components and set-up (P5-COMP-*, P5-SETUP-*)."""

from __future__ import annotations

import pytest

from tests.p5.helpers import dice, give, make, play, reveal, total_tokens
from velvet.engine.core import Event
from velvet.p5.cards import RESOURCES, STATS, card_rows
from velvet.p5.effects import check, gain, raise_stat
from velvet.p5.game import P5Game
from velvet.p5.state import OFF


def test_resources_and_stats_are_distinct(game: P5Game) -> None:
    # rule: P5-COMP-1
    view = make(game).view(0)
    me = view["players"][0]
    assert set(me["fresh"]) == set(RESOURCES)
    assert set(me["stats"]) == set(STATS)
    assert not set(RESOURCES) & set(STATS)


def test_tokens_are_two_sided_and_cash_is_discarded(game: P5Game) -> None:
    # rule: P5-COMP-2
    s = make(game)
    give(s, stamina=2, cash=2)
    reveal(s, "hua-po")  # needs 3 SP + 1 Cash
    play(s, "palace")
    supply_cash = s.supply[3]
    play(s, "hit cash @hua-po")
    assert s.fresh[0][3] == 1 and s.spent[0][3] == 0
    assert s.supply[3] == supply_cash + 1  # Cash goes back to the supply
    reveal(s, "bicorn")
    play(s, "hit stamina @bicorn")
    assert (s.fresh[0][0], s.spent[0][0]) == (1, 1)  # flipped, kept by the owner


def test_supply_is_finite_and_spent_tokens_stay(game: P5Game) -> None:
    # rule: P5-COMP-3
    s = make(game)
    give(s, sp=0, spent_sp=s.supply[1] + 1)  # every SP token spent, held by the player
    assert s.supply[1] == 0
    before = total_tokens(s)
    gain(s, 0, (0, 2, 0, 0), [])
    assert s.fresh[0][1] == 0 and s.supply[1] == 0  # nothing to gain
    assert total_tokens(s) == before
    supply = {str(k): v for k, v in game.cards.rules.supply.items()}
    assert game.supply0 == tuple(supply[k] for k in RESOURCES)


@pytest.mark.parametrize(("start", "gain", "after"), [(5, 1, 6), (6, 1, 6), (2, 3, 5)])
def test_stats_capped_by_game_data(game: P5Game, start: int, gain: int, after: int) -> None:
    # rule: P5-COMP-4
    s = make(game)
    s.stats[0][1] = start
    raise_stat(s, 0, 1, gain, [])
    assert s.stats[0][1] == after == min(game.stat_cap, start + gain)


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_die_success_faces(game: P5Game, face: int) -> None:
    # rule: P5-COMP-5
    s = make(game)
    s.stats[0][0] = 1
    dice(s, face)
    events: list[Event] = []
    assert check(s, 0, 0, events) is (face >= 5)
    assert events[0].data["dice"] == [face]


def test_card_kinds(game: P5Game) -> None:
    # rule: P5-COMP-6
    kinds = {row[0] for row in card_rows(game)}
    assert {"thief", "persona", "confidant", "shadow", "palace", "location"} <= kinds
    assert game.days == 28
    cs = game.cards
    assert len(cs.thieves) >= 9 and len(cs.personas) >= 9 and len(cs.confidants) >= 20
    assert len(cs.shadows) >= 36 and len(cs.palaces) >= 5
    assert len([x for x in cs.locations if not x.start]) >= 12
    assert all(3 <= len(p.skills) <= 5 for p in cs.personas)


def test_supply_placed(game: P5Game) -> None:
    # rule: P5-SETUP-1
    s = make(game, (("joker", "goemon"), ("fox", "zorro")))
    assert s.supply == list(game.supply0)


def test_starting_locations(game: P5Game) -> None:
    # rule: P5-SETUP-2
    s = make(game)
    names = [game.cards.locations[i].name for i in s.locs]
    assert names == ["Home", "School", "Sales Clerk", "Weapons Shop", "Clinic"]
    assert sorted(s.loc_deck) == sorted(game.loc_other)


@pytest.mark.parametrize(("thief", "persona"), [("skull", "arsene"), ("oracle", "milady")])
def test_any_pairing_and_printed_stats(game: P5Game, thief: str, persona: str) -> None:
    # rule: P5-SETUP-3
    s = make(game, ((thief, persona),))
    t = game.cards.thieves[game.thief_index[thief]]
    assert s.stats[0] == [t.stats[k] for k in STATS]  # type: ignore[index]
    assert s.view(0)["players"][0]["persona"] == persona


def test_fully_loaded_passive_at_setup(game: P5Game) -> None:
    # rule: P5-SETUP-4
    noir = make(game, (("noir", "milady"), ("fox", "zorro")))
    assert noir.fresh[0][2] == 3 and noir.fresh[1][2] == 0
    skull = make(game, (("skull", "milady"), ("fox", "zorro")))
    assert skull.fresh[0][0] == 2


def test_unused_cards_leave(game: P5Game) -> None:
    # rule: P5-SETUP-5
    def confidants(s: object) -> set[str]:
        ids = list(s.conf_deck) + [c for c in s.loc_conf if c >= 0]  # type: ignore[attr-defined]
        return {game.cards.confidants[c].id for c in ids}

    plain = confidants(make(game, (("skull", "zorro"),)))
    assert "ryuji" not in plain and "igor" not in plain and "caroline-justine" not in plain
    assert "ann" in plain and "mishima" in plain
    arsene = confidants(make(game, (("panther", "arsene"),)))
    assert {"igor", "caroline-justine", "ryuji"} <= arsene and "ann" not in arsene


def test_five_confidants_under_starting_locations(game: P5Game) -> None:
    # rule: P5-SETUP-6
    s = make(game)
    assert len(s.loc_conf) == 5 and all(c >= 0 for c in s.loc_conf)
    assert len(set(s.loc_conf)) == 5
    assert not set(s.loc_conf) & set(s.conf_deck)


def test_only_row_zero_active_at_start(game: P5Game) -> None:
    # rule: P5-SETUP-7
    s = make(game, palace="madarame")
    assert s.alert == 0
    reveal(s, "pixie")
    dice(s, 1, 1, 1, 1, 1)
    events = play(s, "palace")
    sources = [e.data["source"] for e in events if e.kind == "enter_effect"]
    assert sources == ["row:0"]  # rows 25-75 % are still covered


@pytest.mark.parametrize("players", [1, 2])
def test_two_shadows_per_player(game: P5Game, players: int) -> None:
    # rule: P5-SETUP-8
    pairs = (("joker", "goemon"), ("fox", "zorro"))[:players]
    s = make(game, pairs)
    assert len(s.rev) == 2 * players


def test_day_one(game: P5Game) -> None:
    # rule: P5-SETUP-9
    assert make(game).day == 1


@pytest.mark.parametrize(("players", "expected"), [(1, [1, 1, 1, 1]), (2, [0, 0, 0, 0])])
def test_solo_gains_one_of_each_including_cash(
    game: P5Game, players: int, expected: list[int]
) -> None:
    # rule: P5-SETUP-10
    pairs = (("joker", "goemon"), ("fox", "zorro"))[:players]
    assert make(game, pairs).fresh[0] == expected


def test_arsene_starts_with_five_shadows_both_may_pick(game: P5Game) -> None:
    # rule: P5-SETUP-11
    s = make(game, (("joker", "arsene"), ("skull", "arsene")))
    assert [len(h) for h in s.held] == [5, 5]
    assert not set(s.held[0]) & set(s.held[1]) and not set(s.held[0]) & set(s.rev)
    assert make(game).held == [[]]


def test_players_start_off_board(game: P5Game) -> None:
    # rule: P5-SETUP-12
    s = make(game)
    assert s.loc == [OFF]
    legal = {str(a) for a in s.legal_actions()}
    assert {
        "visit home",
        "visit school",
        "visit sales-clerk",
        "visit weapons-shop",
        "visit clinic",
        "palace",
    } <= legal
