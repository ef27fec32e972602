"""Clauses found off by review: set-up removals, the turn's window, splits, two players."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.p5.helpers import first, kinds, make, play, position, rem, settle, texts
from velvet.p5.game import P5Game, load_p5_game
from velvet.p5.state import AFTER, MAIN, P5State


def _confidants_in_game(s: P5State) -> set[str]:
    ids = list(s.conf_deck) + [c for c in s.loc_conf if c >= 0]
    return {s.game.cards.confidants[c].id for c in ids}


@pytest.mark.parametrize("seed", range(3))
def test_playing_joker_keeps_sojiro(game: P5Game, seed: int) -> None:
    # rule: P5-SETUP-5  (only the confidant cards of the thieves in play leave)
    joker = _confidants_in_game(make(game, (("joker", "goemon"),), seed=seed))
    assert "sojiro" in joker
    removed = {c.id for c in game.cards.confidants} - joker
    assert removed == {"igor", "caroline-justine"}  # no Arsene: only those two leave
    skull = _confidants_in_game(make(game, (("skull", "goemon"),), seed=seed))
    assert "ryuji" not in skull and "sojiro" in skull


def test_a_recruited_confidant_is_usable_the_same_turn(game: P5Game) -> None:
    # rule: P5-RECRUIT-2  ("Their ability is immediately active and available")
    s = position(
        game,
        [{"thief": "joker", "persona": "goemon", "fresh": {"cash": 1}, "location": "school"}],
        locations=[{"id": "home", "confidant": "ohya"}, {"id": "school"}],
        dice=[6] * 8,
    )
    play(s, "recruit home")
    assert s.phase == AFTER and texts(s) == ["use ohya", "end"]
    events = play(s, "use ohya")  # Scoop: pay 1 Cash, gain 2 Bullet
    assert first(events, "gain")["tokens"] == {"bullet": 2}
    assert "end_turn" in kinds(events)  # 1/Day: nothing is left to do, so the turn ends
    assert s.day == 2 and s.phase == MAIN


def test_tokens_gained_at_a_location_pay_an_ability_that_turn(game: P5Game) -> None:
    # rule: P5-COMBAT-3  (skills "whenever their cost can be paid", after the action too)
    s = position(
        game,
        [
            {
                "thief": "skull",
                "persona": "zorro",
                "fresh": {"cash": 1},
                "spent": {"stamina": 3},
            }
        ],
    )
    assert "use zorro.dia" not in texts(s)  # no SP yet
    play(s, "visit clinic")  # Pay 1 Cash: gain 2 Stamina + 2 SP
    assert "use zorro.dia" in texts(s) and "visit home" not in texts(s)
    play(s, "use zorro.dia")  # then nothing is left to do: the turn ends
    assert s.fresh[0][:2] == [5, 1] and s.day == 2


def test_the_turn_ends_by_itself_when_nothing_is_left_to_do(game: P5Game) -> None:
    # rule: P5-DAY-2  (one action; the window after it only when something can be done)
    s = position(game)
    events = play(s, "visit sales-clerk")
    assert kinds(events)[-2:] == ["end_turn", "day"] and s.day == 2


def _custom(tmp_path: Path) -> P5Game:
    """The largest health the card schema allows (a shadow of 12, a boss of 20) and a
    skill of 6 ANY."""
    path = tmp_path / "giants.toml"
    path.write_text(
        """
[[shadow]]
id = "colossus"
name = "Colossus"
weak = ["phys"]
health = { stamina = 3, sp = 3, bullet = 3, cash = 3 }
persona = { name = "Stomp", cost = { stamina = 1 }, type = "phys", damage = { stamina = 1 } }

[[persona]]
id = "titan"
name = "Titan"
skills = [{ name = "Quake", cost = { sp = 1 }, type = "phys", damage = { any = 6 } }]

[[palace]]
id = "giant"
name = "Giant's Keep"
rows = [{ alert = 0 }, { alert = 25 }, { alert = 50 }, { alert = 75 }]
boss = { name = "Giant", health = { stamina = 10, sp = 10 } }
""",
        encoding="utf-8",
    )
    return load_p5_game([path])


def test_large_health_loads_and_splits_one_kind_at_a_time(tmp_path: Path) -> None:
    # rule: P5-COMBAT-4  (ANY damage is placed one requirement kind at a time)
    game = _custom(tmp_path)
    # the work: one Assign per kind and count, not one per multiset (C(84, 4) ~ 2 million)
    assigns = [a for a in game.action_table if type(a).__name__ == "Assign"]
    assert len(assigns) <= 4 * 61 and len(game.action_table) < 2500
    player = {"thief": "skull", "persona": "titan", "fresh": {"sp": 2}, "location": "palace"}
    s = position(game, [player], palace="giant", phase="fight", shadows=[{"id": "colossus"}])
    play(s, "use titan.quake @colossus")  # weak: 6 ANY over 12 requirements
    decisions = 0
    while s.dec:
        options = texts(s)
        assert len(options) <= 21
        decisions += 1
        play(s, options[len(options) // 2])
    assert decisions <= 3 and sum(rem(s, "colossus").values()) == 6
    boss = position(game, [player], palace="giant", phase="fight", alert=100, shadows=[])
    play(boss, "use titan.quake @boss")  # not weak: 6 ANY over 10 Stamina + 10 SP
    assert texts(boss) == [f"assign stamina={n}" for n in range(7)]
    play(boss, "assign stamina=2")
    assert boss.boss_rem == [8, 6, 0, 0] and not boss.dec


@pytest.mark.parametrize(("palace", "alert", "shadows", "after"), [("kamoshida", 0, 4, 25)])
def test_new_shadows_per_player_in_a_two_player_game(
    game: P5Game, palace: str, alert: int, shadows: int, after: int
) -> None:
    # rule: P5-PALACE-3  (2 new shadows per player: 4 with two players)
    s = position(
        game,
        [
            {"thief": "skull", "persona": "goemon", "fresh": {"stamina": 1}, "location": "palace"},
            {"thief": "fox", "persona": "zorro", "went": True},
        ],
        palace=palace,
        alert=alert,
        phase="fight",
        shadows=[{"id": "bicorn", "damage": {"stamina": 2}}],
    )
    play(s, "hit stamina @bicorn")
    assert s.alert * 25 == after and len(s.rev) == shadows


def test_the_boss_reveals_per_player_in_a_two_player_game(game: P5Game) -> None:
    # rule: P5-BOSS-1  (Madarame's boss reveals 1 shadow per player: 2 with two players)
    s = position(
        game,
        [
            {"thief": "skull", "persona": "goemon", "fresh": {"stamina": 1}, "location": "palace"},
            {"thief": "fox", "persona": "zorro"},
        ],
        palace="madarame",
        alert=75,
        phase="fight",
        shadows=[{"id": "bicorn", "damage": {"stamina": 2}}],
    )
    play(s, "hit stamina @bicorn")
    assert s.alert == 4 and s.boss_rem and len(s.rev) == 2


def test_damage_stays_when_the_palace_is_entered_again(game: P5Game) -> None:
    # rule: P5-PALACE-4  (kept after leaving, and still there on the next entry)
    s = position(
        game,
        [{"thief": "skull", "persona": "goemon", "fresh": {"stamina": 3}, "location": "palace"}],
        phase="fight",
        shadows=[{"id": "bicorn"}, {"id": "pixie", "damage": {"sp": 1}}],
        dice=[6] * 10,
    )
    play(s, "hit stamina @bicorn", "end", "visit home", "palace")
    settle(s)
    assert rem(s, "bicorn") == {"stamina": 2} and rem(s, "pixie") == {"stamina": 2}


def test_amp_only_for_skills_of_its_type(game: P5Game) -> None:
    # rule: P5-COMBAT-5  (Ice Amp adds nothing to Cleave, a Phys skill)
    s = position(
        game,
        [{"thief": "skull", "persona": "goemon", "fresh": {"stamina": 1}, "location": "palace"}],
        phase="fight",
        shadows=[{"id": "kelpie"}, {"id": "bicorn"}],  # Kelpie: 1 Stamina + 2 Bullet
    )
    events = play(s, "use goemon.cleave @kelpie")
    assert first(events, "damage")["amp"] == 0
    assert rem(s, "kelpie") == {"bullet": 2}  # no Bullet from the Ice Amp


def test_cards_are_data(tmp_path: Path, game: P5Game) -> None:
    """A custom card set changes what happens with no change to the code."""
    path = tmp_path / "home.toml"
    path.write_text(
        """
[[location]]
id = "home"
name = "Home"
start = true
effects = [{ op = "gain", amount = { cash = 3 } }]

[[shadow]]
id = "bicorn"
name = "Bicorn"
weak = ["ice"]
health = { stamina = 1 }
persona = { name = "Lunge", cost = { stamina = 1 }, type = "phys", damage = { stamina = 2 } }
""",
        encoding="utf-8",
    )
    custom = load_p5_game([path])
    for g, cash, weak in ((game, 0, False), (custom, 3, True)):
        s = position(g, [{"thief": "skull", "persona": "goemon", "fresh": {"sp": 1}}])
        play(s, "visit home")
        assert s.fresh[0][3] == cash
        fight = position(
            g,
            [{"thief": "skull", "persona": "goemon", "fresh": {"sp": 1}, "location": "palace"}],
            phase="fight",
            shadows=[{"id": "bicorn"}, {"id": "pixie"}],
        )
        events = play(fight, "use goemon.bufu @bicorn")
        assert first(events, "damage")["weak"] is weak
