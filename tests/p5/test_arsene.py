"""Arsene's persona party and the named clarifications (P5-ARSENE-*, P5-CONF-*)."""

from __future__ import annotations

import pytest

from tests.p5.helpers import dice, first, give, kinds, make, play, rem, reveal, texts, total_tokens
from velvet.engine.core import Event
from velvet.engine.errors import IllegalActionError
from velvet.engine.rng import Rng
from velvet.p5.game import P5Game
from velvet.p5.state import FIGHT, IN_PALACE, P5State


def arsene(game: P5Game, *held: str, **tokens: int) -> P5State:
    s = make(game, (("joker", "arsene"),))
    for i in s.held[0]:
        s.shadow_deck.append(i)
    s.held[0] = []
    for sid in held:
        i = game.shadow_index[sid]
        if i in s.shadow_deck:
            s.shadow_deck.remove(i)
        s.held[0].append(i)
    give(s, **tokens)
    return s


def _rule(state: P5State, text: str) -> str:
    with pytest.raises(IllegalActionError) as info:
        play(state, text)
    return info.value.rule_id


def test_arsene_uses_held_shadows_persona_abilities(game: P5Game) -> None:
    # rule: P5-ARSENE-1
    s = arsene(game, "pixie", "agathion", sp=2)
    reveal(s, "bicorn")
    assert {"equip pixie", "equip agathion"} <= set(texts(s))
    play(s, "equip pixie", "palace")
    assert "use pixie @bicorn" in texts(s) and "use agathion" not in " ".join(texts(s))
    plain = make(game)
    assert not any(t.startswith("equip") for t in texts(plain))
    assert _rule(plain, f"equip {game.cards.shadows[plain.rev[0]].id}") == "P5-ARSENE-1"


def test_resource_persona_gives_spent_tokens_while_active(game: P5Game) -> None:
    # rule: P5-ARSENE-2
    s = arsene(game, "thoth", stamina=0)
    total = total_tokens(s)
    supply = s.supply[0]
    events = play(s, "equip thoth")
    assert s.spent[0][0] == 2 and s.fresh[0][0] == 0 and s.supply[0] == supply - 2
    assert first(events, "equip")["spent_tokens"] == "stamina=2"
    s.fresh[0][0], s.spent[0][0] = 1, 2  # one restored, plus one other spent token
    s.supply[0] -= 1
    play(s, "unequip thoth")
    assert (s.fresh[0][0], s.spent[0][0]) == (0, 1)  # unspent lost first
    assert s.supply[0] == supply - 1  # both granted tokens went back
    assert total_tokens(s) == total


def test_party_of_three_changed_only_outside_palace(game: P5Game) -> None:
    # rule: P5-ARSENE-3
    s = arsene(game, "pixie", "agathion", "kelpie", "silky")
    play(s, "equip pixie", "equip agathion", "equip kelpie")
    assert not any(t.startswith("equip") for t in texts(s))
    assert _rule(s, "equip silky") == "P5-ARSENE-3"
    play(s, "palace")
    while s.dec:
        play(s, texts(s)[0])
    assert not any(t.startswith(("equip", "unequip")) for t in texts(s))
    assert _rule(s, "unequip pixie") == "P5-ARSENE-3"
    play(s, "end")
    assert _rule(s, "unequip pixie") == "P5-ARSENE-3"  # still standing in the palace
    play(s, "visit home", "unequip pixie", "equip silky")
    s.conf[0].append(game.conf_index["igor"])  # Igor: one more slot
    assert "equip pixie" in texts(s)


def test_mishima_in_palace_counts_recruited_mixed(game: P5Game) -> None:
    # rule: P5-CONF-MISHIMA
    s = arsene(game, spent_stamina=3, spent_sp=3, stamina=0, sp=0)
    s.conf[0] = [game.conf_index[c] for c in ("mishima", "kawakami", "igor", "caroline-justine")]
    assert "use mishima" not in texts(s)
    assert _rule(s, "use mishima") == "P5-CONF-MISHIMA"
    reveal(s, "pixie")
    s.loc[0], s.phase = IN_PALACE, FIGHT
    play(s, "use mishima")  # 2 recruited (Mishima, Kawakami): Igor and C&J do not count
    assert texts(s) == ["assign stamina=2", "assign stamina=1 sp=1", "assign sp=2"]
    play(s, "assign stamina=1 sp=1")
    assert s.fresh[0][:2] == [1, 1] and s.spent[0][:2] == [2, 2]
    assert "use mishima" not in texts(s)  # 1/Palace


def test_caroline_justine_drawn_personas_not_in_palace(game: P5Game) -> None:
    # rule: P5-CONF-CJ
    s = arsene(game)
    s.conf[0] = [game.conf_index["caroline-justine"]]
    reveal(s, "pixie", "bicorn")
    play(s, "palace")
    while s.dec:
        play(s, texts(s)[0])
    top = s.shadow_deck[-1]
    play(s, "use caroline-justine")
    assert s.held[0] == [top] and s.drawn[0] == [top]
    name = game.cards.shadows[top].id
    assert f"equip {name}" not in texts(s)
    assert _rule(s, f"equip {name}") == "P5-CONF-CJ"
    play(s, "end", "visit home")
    assert f"equip {name}" in texts(s)
    play(s, f"equip {name}", "palace")
    while s.dec:
        play(s, texts(s)[0])
    assert _rule(s, f"unequip {name}") == "P5-ARSENE-3"  # leaving is not joining


@pytest.mark.parametrize(("face", "angel_hit", "pixie_hit"), [(6, True, True), (1, True, False)])
def test_alice_rolls_once_curse_weak_always_hit(
    game: P5Game, face: int, angel_hit: bool, pixie_hit: bool
) -> None:
    # rule: P5-CONF-ALICE
    s = arsene(game, "alice", sp=2)
    play(s, "equip alice")
    reveal(s, "angel", "pixie")  # Angel is weak to Curse, Pixie is not
    s.loc[0], s.phase = IN_PALACE, FIGHT
    dice(s, face)
    events = play(s, "use alice")
    assert kinds(events).count("dice") == 1
    while s.dec:
        play(s, texts(s)[0])
    assert (sum(rem(s, "angel").values()) == 2) is angel_hit
    assert (sum(rem(s, "pixie").values()) == 1) is pixie_hit


def test_ryuji_guts_four_rolls_four_dice(game: P5Game) -> None:
    # rule: P5-CHECK-1
    s = make(game, (("skull", "goemon"),))
    dice(s, 1, 1, 1, 6)
    events: list[Event] = []
    assert s._check(0, 1, events) and len(events[0].data["dice"]) == 4


def _party_moves(state: P5State) -> list[str]:
    return [t for t in texts(state) if t.startswith(("equip ", "unequip "))]


def test_party_changes_cannot_cycle(game: P5Game) -> None:
    # rule: P5-ARSENE-3  (ruling: a run of party changes never brings back a party it has
    # passed through, except the one it started from; any other action ends the run)
    s = arsene(game, "pixie", "agathion", "kelpie", spent_stamina=2)
    play(s, "equip pixie", "unequip pixie")  # undoing back to the start is allowed
    assert s.party[0] == [] and "equip pixie" not in texts(s)
    before = s.canonical()
    assert _rule(s, "equip pixie") == "P5-ARSENE-3" and s.canonical() == before
    play(s, "equip agathion", "equip kelpie")
    assert "unequip kelpie" not in texts(s)  # {agathion} was held in this run
    assert "unequip agathion" in texts(s)  # {kelpie} was not
    assert _rule(s, "unequip kelpie") == "P5-ARSENE-3"
    view = s.view(0)
    assert view["party_run"] == [[], ["pixie"], [], ["agathion"], ["agathion", "kelpie"]]
    guess = game.determinize(view, 0, Rng(3))
    assert texts(guess) == texts(s)
    play(s, "use agathion")  # another action ends the run: every change is open again
    assert s.view(0)["party_run"] == []
    assert {"unequip kelpie", "unequip agathion", "equip pixie"} <= set(texts(s))
    play(s, "unequip kelpie", "equip kelpie", "visit home")
    assert s.seen == [] and {"unequip kelpie", "equip pixie"} <= set(_party_moves(s))


@pytest.mark.parametrize("seed", range(6))
def test_a_run_of_party_changes_is_finite(game: P5Game, seed: int) -> None:
    # rule: P5-ARSENE-3
    held = ("pixie", "agathion", "kelpie", "bicorn", "silky")
    s = arsene(game, *held)
    play(s, "equip pixie", "equip silky", "equip bicorn")
    s.seen = []
    rng = Rng(seed)
    parties = [sorted(s.party[0])]
    bound = 2 * (1 + 5 + 10 + 10)  # twice the number of parties of at most 3 of 5
    while moves := _party_moves(s):
        play(s, moves[rng.randbelow(len(moves))])
        parties.append(sorted(s.party[0]))
        assert len(parties) <= bound
    repeats = [p for i, p in enumerate(parties) if p in parties[:i]]
    assert all(p == parties[0] for p in repeats)
    assert s.phase == 1 and any(t.startswith("visit") for t in texts(s))  # the turn goes on


def test_every_party_reachable_from_the_start_of_a_run(game: P5Game) -> None:
    # rule: P5-ARSENE-3  (the ruling removes no final party: leave first, then join)
    from itertools import combinations

    held = ("pixie", "agathion", "kelpie", "bicorn", "silky")
    start = ("pixie", "agathion", "kelpie")
    for size in range(4):
        for target in combinations(held, size):
            s = arsene(game, *held)
            play(s, *(f"equip {x}" for x in start))
            s.seen = []
            play(s, *(f"unequip {x}" for x in start if x not in target))
            play(s, *(f"equip {x}" for x in target if x not in start))
            assert sorted(s.party[0]) == sorted(game.shadow_index[x] for x in target)
