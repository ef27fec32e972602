"""The palace, combat, the boss, dice and the terminology keywords."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.p5.helpers import dice, first, give, kinds, make, play, position, rem, reveal, texts
from velvet.engine.core import Event
from velvet.engine.errors import IllegalActionError
from velvet.p5.cards import STATS
from velvet.p5.effects import check
from velvet.p5.game import P5Game, load_p5_game
from velvet.p5.state import FIGHT, IN_PALACE, P5State


def fighting(
    game: P5Game,
    *shadows: str,
    persona: str = "goemon",
    thief: str = "skull",
    palace: str = "kamoshida",
    alert: int = 0,
    damage: dict[str, dict[str, int]] | None = None,
    boss: dict[str, int] | None = None,
    more: dict[str, Any] | None = None,
    shadow_deck: list[str] | None = None,
    **tokens: int,
) -> P5State:
    """A solo player already inside the palace (On Palace Enter done), facing ``shadows``.

    ``tokens``: fresh ones by kind (``sp=2``), spent ones as ``spent_stamina=1``; every
    other kind starts at 1 fresh, as after the solo set-up (P5-SETUP-10). ``damage``: what
    each shadow has taken; ``boss``: the boss's damage (at 100 % alert); ``more``: other
    player fields (``held``, ``party``, ``stats`` ...)."""
    fresh = {"stamina": 1, "sp": 1, "bullet": 1, "cash": 1}
    spent: dict[str, int] = {}
    for key, n in tokens.items():
        if key.startswith("spent_"):
            spent[key.removeprefix("spent_")] = n
        else:
            fresh[key] = n
    player = {"thief": thief, "persona": persona, "fresh": fresh, "spent": spent, **(more or {})}
    damage = damage or {}
    return position(
        game,
        [{**player, "location": "palace"}],
        palace=palace,
        phase="fight",
        alert=alert,
        shadows=[{"id": x, "damage": damage.get(x, {})} for x in shadows],
        **({} if boss is None else {"boss": {"damage": boss}}),
        **({} if shadow_deck is None else {"shadow_deck": shadow_deck}),
    )


def test_on_enter_effects_in_chosen_order(game: P5Game) -> None:
    # rule: P5-PALACE-1
    mona = {
        "thief": "mona",
        "persona": "goemon",
        "stats": {"guts": 1, "charm": 1},
        "fresh": {"stamina": 3, "sp": 3, "bullet": 2},
        "spent": {"stamina": 1},
    }
    s = position(game, [mona], alert=50, shadows=[{"id": "bicorn"}, {"id": "pixie"}])
    play(s, "palace")
    assert sorted(texts(s)) == [
        "first ability:mona",
        "first row:1",
        "first row:2",
        "first shadow:bicorn",
    ]
    dice(s, 1, 1)  # Bicorn's Charm check fails, then row 2's Guts check fails
    events = play(s, "first shadow:bicorn", "first row:2", "first ability:mona")
    order = [e.data["source"] for e in events if e.kind == "enter_effect"]
    assert order == ["shadow:bicorn", "row:2", "ability:mona", "row:1"]
    # cumulative: 1 Bullet (Bicorn) + 1 SP (row 2) + 1 Stamina (row 1) paid; Mona restored 1
    assert s.fresh[0][:3] == [3, 2, 1]


def test_fight_as_many_as_resources_allow(game: P5Game) -> None:
    # rule: P5-PALACE-2
    s = fighting(game, "bicorn", "pixie", stamina=5)
    play(
        s, "hit stamina @bicorn", "hit stamina @bicorn", "hit stamina @bicorn", "hit stamina @pixie"
    )
    assert rem(s, "pixie") == {"stamina": 1, "sp": 1}
    assert "end" in texts(s)


def test_alert_rises_and_new_shadows_without_their_on_enter(game: P5Game) -> None:
    # rule: P5-PALACE-3
    s = fighting(game, "bicorn", stamina=3, shadow_deck=["lamia", "pixie", "kelpie"])
    events = play(s, "hit stamina @bicorn", "hit stamina @bicorn", "hit stamina @bicorn")
    assert s.alert == 1 and first(events, "alert") == {"alert": 25}
    assert sorted(game.cards.shadows[i].id for i in s.rev) == ["lamia", "pixie"]
    assert "enter_effect" not in kinds(events)  # Lamia's On Palace Enter is not triggered
    assert s.phase == FIGHT and not s.dec
    # a row that says more: Kamoshida's 75 % row reveals 3 per player
    s2 = fighting(game, "bicorn", stamina=3, alert=50)
    play(s2, "hit stamina @bicorn", "hit stamina @bicorn", "hit stamina @bicorn")
    assert s2.alert == 3 and len(s2.rev) == 3


def test_damage_stays_after_leaving(game: P5Game) -> None:
    # rule: P5-PALACE-4
    s = fighting(game, "bicorn", "pixie", stamina=1)
    play(s, "hit stamina @bicorn", "end", "visit home")
    assert rem(s, "bicorn") == {"stamina": 2}


def test_end_any_time_and_leave_by_another_action(game: P5Game) -> None:
    # rule: P5-PALACE-5
    s = fighting(game, "bicorn", stamina=5)
    assert "end" in texts(s)
    play(s, "end")
    assert s.loc[0] == IN_PALACE and s.day == 2 and "palace" not in texts(s)
    play(s, "visit home")
    assert s.loc[0] == game.loc_index["home"]


@pytest.mark.parametrize(
    ("value", "faces", "ok"),
    [(1, [6], True), (1, [4], False), (3, [1, 2, 5], True), (3, [1, 2, 3], False), (0, [], False)],
)
def test_stat_check_rolls_stat_dice(game: P5Game, value: int, faces: list[int], ok: bool) -> None:
    # rule: P5-CHECK-1
    s = make(game, (("skull", "goemon"),))
    s.stats[0][0] = value
    dice(s, *faces)
    events: list[Event] = []
    assert check(s, 0, 0, events) is ok
    assert events[0].data["dice"] == faces and s.rng.scripted == ()


@pytest.mark.parametrize(
    ("thief", "confidants", "stat", "count"),
    [
        ("skull", (), "charm", 1),  # no bonus
        ("joker", (), "charm", 4),  # Charm 3 + Wild Card
        ("joker", ("ryuji",), "guts", 3),  # Guts 2 + Baton Pass
        ("oracle", ("hifumi",), "knowledge", 6),  # Knowledge 4 + Navigator + Shogi Tactics
        ("joker", ("ryuji",), "knowledge", 2),  # a bonus to another stat does not count
    ],
)
def test_check_bonus_dice_add_to_the_stat(
    game: P5Game, thief: str, confidants: tuple[str, ...], stat: str, count: int
) -> None:
    # rule: P5-CHECK-1  (passives and confidants with a check bonus roll extra dice)
    s = make(game, ((thief, "goemon"),))
    s.conf[0] = [game.conf_index[c] for c in confidants]
    dice(s, *[1] * 10)
    events: list[Event] = []
    check(s, 0, STATS.index(stat), events)
    assert len(events[0].data["dice"]) == count


@pytest.mark.parametrize(
    ("shadow", "face", "hit"),
    [("bicorn", 6, True), ("bicorn", 4, False), ("pixie", None, True)],
)
def test_dice_skill_and_weakness_auto_success(
    game: P5Game, shadow: str, face: int | None, hit: bool
) -> None:
    # rule: P5-CHECK-2
    s = fighting(game, shadow, persona="arsene", bullet=2)  # Thief's Luck: Gun, Dice, 3 Bullet
    if face is not None:
        dice(s, face)
    events = play(s, f"use arsene.thief-s-luck @{shadow}")
    assert s.fresh[0][2] == 1  # the cost is paid either way
    assert ("dice" in kinds(events)) is (face is not None)  # Pixie is weak to Gun: no roll
    assert ("miss" not in kinds(events)) is hit


def test_defeated_when_every_requirement_met(game: P5Game) -> None:
    # rule: P5-COMBAT-1
    s = fighting(game, "pixie", "bicorn", stamina=2, sp=1)
    play(s, "hit stamina @pixie", "hit stamina @pixie")
    assert rem(s, "pixie") == {"sp": 1}
    events = play(s, "hit sp @pixie")
    assert first(events, "defeat")["shadow"] == "pixie"


def test_spend_own_tokens_of_the_required_kind(game: P5Game) -> None:
    # rule: P5-COMBAT-2
    s = fighting(game, "hua-po", stamina=3, sp=1, cash=1)
    assert "hit stamina @hua-po" not in texts(s)  # Hua Po needs SP and Cash only
    with pytest.raises(IllegalActionError) as info:
        play(s, "hit stamina @hua-po")
    assert info.value.rule_id == "P5-COMBAT-9"
    play(s, "hit sp @hua-po", "hit cash @hua-po")
    assert rem(s, "hua-po") == {"sp": 2} and s.fresh[0][3] == 0 and s.spent[0][1] == 1
    with pytest.raises(IllegalActionError) as info:
        play(s, "hit sp @hua-po")
    assert info.value.rule_id == "P5-COMBAT-2"


def test_skills_whenever_cost_can_be_paid(game: P5Game) -> None:
    # rule: P5-COMBAT-3
    s = fighting(game, "bicorn", sp=1, stamina=0)
    assert "use goemon.bufu @bicorn" in texts(s)
    assert "use goemon.cleave @bicorn" not in texts(s)
    with pytest.raises(IllegalActionError) as info:
        play(s, "use goemon.cleave @bicorn")
    assert info.value.rule_id == "P5-COMBAT-3"
    play(s, "use goemon.bufu @bicorn")
    assert "use goemon.bufu @bicorn" not in texts(s)


def test_weakness_makes_damage_any(game: P5Game) -> None:
    # rule: P5-COMBAT-4
    # rule: P5-TERM-ANY
    berith = {"berith": {"stamina": 2}}  # 3 Stamina + 1 Bullet; 1 Stamina + 1 Bullet left
    s = fighting(game, "berith", "bicorn", persona="arsene", stamina=1, damage=berith)
    play(s, "use arsene.cleave @berith")  # Phys is not Berith's weakness: 2 Stamina, 1 lost
    assert rem(s, "berith") == {"bullet": 1}
    s = fighting(game, "mothman", "bicorn", persona="milady", sp=1)  # 2 SP + 2 Bullet, weak Psy
    events = play(s, "use milady.psio @mothman")  # 2 SP of damage -> 2 ANY
    assert first(events, "damage")["any"] == 2
    # no Stamina is required, so the first choice is SP; Bullet takes the rest
    assert texts(s) == ["assign sp=0", "assign sp=1", "assign sp=2"]
    with pytest.raises(IllegalActionError) as info:
        play(s, "assign stamina=2")
    assert info.value.rule_id == "P5-COMBAT-4"
    play(s, "assign sp=0")
    assert rem(s, "mothman") == {"sp": 2}
    # ANY meets a Cash requirement too: Orobas (3 SP + 1 Cash) is weak to Psy
    s = fighting(game, "orobas", "bicorn", persona="milady", sp=1)
    play(s, "use milady.psio @orobas")
    assert texts(s) == ["assign sp=1", "assign sp=2"]
    play(s, "assign sp=1")
    assert rem(s, "orobas") == {"sp": 2}


@pytest.mark.parametrize(
    ("shadow", "health", "after", "choices"),
    [
        ("kelpie", [1, 0, 2, 0], {"bullet": 1}, None),  # not weak: 2 Stamina (1 lost) + 1 Bullet
        ("berith", [3, 0, 1, 0], None, ["assign stamina=2", "assign stamina=3"]),
    ],
)
def test_amp_adds_a_bullet_that_follows_weakness(
    game: P5Game,
    shadow: str,
    health: list[int],
    after: dict[str, int] | None,
    choices: list[str] | None,
) -> None:
    # rule: P5-COMBAT-5
    s = fighting(game, shadow, "bicorn", persona="goemon", sp=1)  # Bufu + Ice Amp (Auto)
    s.rem[0] = health
    events = play(s, f"use goemon.bufu @{shadow}")
    if after is not None:
        assert rem(s, shadow) == after and first(events, "damage")["typed"] == {
            "stamina": 1,
            "bullet": 1,
        }
    else:
        assert first(events, "damage")["any"] == 3 and texts(s) == choices


def test_on_death_affects_active_player(game: P5Game) -> None:
    # rule: P5-COMBAT-6
    s = position(
        game,
        [
            {"thief": "skull", "persona": "goemon", "fresh": {"sp": 1}},
            {"thief": "fox", "persona": "zorro", "fresh": {"sp": 2, "bullet": 1}},
        ],
        shadows=[{"id": "jack-frost", "damage": {"sp": 1, "bullet": 1}}, {"id": "bicorn"}],
        phase="order",
        dice=[6] * 6,
    )
    play(s, "go p2", "palace")
    while s.dec:
        play(s, texts(s)[0])
    before = s.fresh[0][:]
    events = play(s, "hit sp @jack-frost")
    assert "defeat" in kinds(events) and s.fresh[1][1] == 2  # spent 1, On Death gained 1
    assert s.fresh[0] == before


def test_unpayable_enter_or_death_effect_ignored(game: P5Game) -> None:
    # rule: P5-COMBAT-7
    s = make(game, (("skull", "goemon"),))
    reveal(s, "onmoraki")  # On Palace Enter: pay 1 SP
    give(s, sp=0)
    events = play(s, "palace")
    assert first(events, "ignored")["cannot_pay"] == {"sp": 1} and s.phase == FIGHT


@pytest.mark.parametrize(("persona", "holds"), [("goemon", False), ("arsene", True)])
def test_defeated_shadow_taken_only_arsene_uses_it(game: P5Game, persona: str, holds: bool) -> None:
    # rule: P5-COMBAT-8
    s = fighting(game, "bicorn", "pixie", persona=persona, stamina=3)
    play(s, "hit stamina @bicorn", "hit stamina @bicorn", "hit stamina @bicorn")
    bicorn = game.shadow_index["bicorn"]
    assert s.taken[0] == [bicorn]
    assert (bicorn in s.held[0]) is holds
    # two players: a shadow defeated by a non-Arsene player is not given to the Arsene one
    duo = make(game, (("skull", persona), ("joker", "arsene")))
    reveal(duo, "bicorn", "pixie")
    give(duo, 0, stamina=3)
    held = list(duo.held[1])
    play(duo, "go p1", "palace")
    while duo.dec:
        play(duo, texts(duo)[0])
    play(duo, "hit stamina @bicorn", "hit stamina @bicorn", "hit stamina @bicorn")
    assert duo.taken == [[bicorn], []] and duo.held[1] == held
    assert (bicorn in duo.held[0]) is holds
    play(duo, "end")
    assert "equip bicorn" not in texts(duo)  # player 2 cannot use it


def test_overflow_lost_no_split(game: P5Game) -> None:
    # rule: P5-COMBAT-9
    s = fighting(
        game, "bicorn", "rakshasa", persona="goemon", stamina=1, damage={"bicorn": {"stamina": 2}}
    )
    play(s, "use goemon.cleave @bicorn")
    assert s.rev == [game.shadow_index["rakshasa"]] and rem(s, "rakshasa") == {"stamina": 4}


def test_boss_at_full_alert_rows_off(game: P5Game) -> None:
    # rule: P5-BOSS-1
    s = fighting(game, "bicorn", palace="kamoshida", alert=75, stamina=3)
    deck = len(s.shadow_deck)
    events = play(s, "hit stamina @bicorn", "hit stamina @bicorn", "hit stamina @bicorn")
    assert s.alert == 4 and s.boss_rem == [6, 6, 5, 0]
    assert first(events, "boss")["name"] == "Asmodeus Kamoshida"
    assert len(s.shadow_deck) == deck and s.rev == []  # no new shadows
    play(s, "end", "visit home")
    s.stats[0][1] = 6
    dice(s, 6, 6, 6, 6, 6, 6)
    events = play(s, "palace")
    assert [e.data["source"] for e in events if e.kind == "enter_effect"] == ["boss"]
    # a boss that says so reveals shadows (Madarame: 1 per player)
    s2 = fighting(game, "bicorn", palace="madarame", alert=75, stamina=3)
    play(s2, "hit stamina @bicorn", "hit stamina @bicorn", "hit stamina @bicorn")
    assert len(s2.rev) == 1


def test_boss_counts_as_a_shadow(game: P5Game) -> None:
    # rule: P5-BOSS-2
    s = fighting(
        game,
        "pixie",
        persona="arsene",
        alert=100,
        boss={"stamina": 1, "sp": 2, "bullet": 2},  # 5 + 4 + 3 left of 6 + 6 + 5
        more={"held": ["koropokguru"], "party": ["koropokguru"]},  # Mabufu: every shadow
        stamina=1,
        sp=2,
    )
    assert "use arsene.cleave @boss" in texts(s) and "hit stamina @boss" in texts(s)
    play(s, "use koropokguru")
    assert s.boss_rem == [4, 4, 3, 0]


def test_earlier_shadows_stay_and_boss_fought_at_once(game: P5Game) -> None:
    # rule: P5-BOSS-3
    s = fighting(game, "bicorn", palace="okumura", alert=75, stamina=4)
    play(s, "hit stamina @bicorn", "hit stamina @bicorn", "hit stamina @bicorn")
    assert s.alert == 4 and len(s.rev) == 1  # Okumura reveals 1 shadow with the boss
    assert "hit stamina @boss" in texts(s)
    play(s, "hit stamina @boss")
    assert s.boss_rem[0] == 3 and len(s.rev) == 1


@pytest.mark.parametrize(
    ("rule", "location", "tokens", "fresh_after", "spent_after"),
    [
        (
            "P5-TERM-RESTORE",
            "home",
            {"stamina": 0, "spent_stamina": 4, "spent_sp": 1},
            [3, 2, 1],
            [1, 0, 0],
        ),
        ("P5-TERM-SPEND", "batting-cages", {"stamina": 2}, [1, 1, 1], [1, 0, 0]),
        ("P5-TERM-GAIN", "sales-clerk", {"stamina": 1}, [1, 1, 1], [0, 0, 0]),
        ("P5-TERM-PAY", "weapons-shop", {"stamina": 1}, [1, 1, 4], [0, 0, 0]),
    ],
)
def test_terminology(
    game: P5Game,
    rule: str,
    location: str,
    tokens: dict[str, int],
    fresh_after: list[int],
    spent_after: list[int],
) -> None:
    # rule: P5-TERM-RESTORE
    # rule: P5-TERM-SPEND
    # rule: P5-TERM-GAIN
    # rule: P5-TERM-PAY
    s = make(game, (("skull", "goemon"),))
    give(s, **tokens)
    li = game.loc_index[location]
    if li not in s.locs:
        s.locs.append(li)
        s.loc_conf.append(-1)
    play(s, f"visit {location}")
    assert s.fresh[0][:3] == fresh_after and s.spent[0][:3] == spent_after, rule


def test_gain_limited_by_supply(game: P5Game) -> None:
    # rule: P5-TERM-GAIN
    s = make(game, (("skull", "goemon"),))
    give(s, cash=s.supply[3])  # take all but what the player holds
    give(s, cash=game.supply0[3] - 1)
    assert s.supply[3] == 1
    events = play(s, "visit sales-clerk")
    assert s.fresh[0][3] == game.supply0[3] and first(events, "gain")["tokens"] == {"cash": 1}


def test_one_per_day_in_and_out_of_palace(game: P5Game) -> None:
    # rule: P5-TERM-DAY
    s = make(game, (("skull", "zorro"),))
    give(s, sp=3, spent_stamina=3)
    assert "use zorro.dia" in texts(s)
    play(s, "use zorro.dia")
    assert "use zorro.dia" not in texts(s)
    with pytest.raises(IllegalActionError) as info:
        play(s, "use zorro.dia")
    assert info.value.rule_id == "P5-TERM-DAY"
    play(s, "palace")
    assert "use zorro.dia" not in texts(s)
    play(s, "end")  # next day
    s.spent[0][0], s.fresh[0][0] = s.fresh[0][0], 0
    play(s, "visit home", "end", "palace")
    assert "use zorro.dia" in texts(s)  # usable inside the palace too


def test_one_per_palace_entry(game: P5Game) -> None:
    # rule: P5-TERM-PALACE
    s = make(game, (("skull", "goemon"),))
    give(s, spent_stamina=4)
    assert "use goemon.rakukaja" not in texts(s)  # only in the palace
    with pytest.raises(IllegalActionError) as info:
        play(s, "use goemon.rakukaja")
    assert info.value.rule_id == "P5-TERM-PALACE"
    play(s, "palace", "use goemon.rakukaja")
    assert "use goemon.rakukaja" not in texts(s)
    play(s, "end", "visit school", "palace")
    assert "use goemon.rakukaja" in texts(s)


def test_auto_skills_are_passive(game: P5Game) -> None:
    # rule: P5-TERM-AUTO
    s = fighting(game, "bicorn", persona="goemon", sp=2, stamina=2)
    assert not any("ice-amp" in t for t in texts(s))
    assert not any(t.startswith("use goemon.ice-amp") for t in game.action_ids())
    events = play(s, "use goemon.bufu @bicorn")
    assert first(events, "damage")["typed"] == {"stamina": 2}  # Bicorn needs no Bullet


def test_rulebook_example_shadow(game: P5Game) -> None:
    # rule: P5-COMBAT-1
    # rule: P5-PALACE-1
    s = make(game, (("skull", "goemon"),))
    reveal(s, "jikokuten")
    give(s, bullet=4, sp=1)
    dice(s, 3)  # Skull's Charm 1: one die, a failure -> pay 1 Bullet
    events = play(s, "palace")
    assert first(events, "check")["stat"] == "charm" and s.fresh[0][2] == 3
    assert rem(s, "jikokuten") == {"sp": 1, "bullet": 3}
    play(s, "hit bullet @jikokuten", "hit bullet @jikokuten", "hit bullet @jikokuten")
    events = play(s, "hit sp @jikokuten")
    assert first(events, "defeat")["shadow"] == "jikokuten"


@pytest.mark.parametrize(("face", "gained"), [(6, 2), (5, 2), (4, 0), (1, 0)])
def test_dice_ability_without_damage_needs_a_success(
    game: P5Game, tmp_path: Path, face: int, gained: int
) -> None:
    # rule: P5-CHECK-2  (a Dice: ability takes effect only on a success, damage or not)
    extra = tmp_path / "lucky.toml"
    extra.write_text(
        '[[persona]]\nid = "lucky"\nname = "Lucky"\nskills = [{ name = "Gamble", '
        'cost = { sp = 1 }, dice = true, effects = [{ op = "gain", amount = { cash = 2 } }] }]\n'
    )
    custom = load_p5_game([extra])
    s = make(custom, (("skull", "lucky"),))
    give(s, sp=1, cash=0)
    dice(s, face)
    events = play(s, "use lucky.gamble")
    assert s.fresh[0][1] == 0  # the cost is paid either way
    assert first(events, "dice")["dice"] == [face]
    assert s.fresh[0][3] == gained
