"""Arsene's persona party and the named clarifications (P5-ARSENE-*, P5-CONF-*)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from tests.p5.helpers import first, kinds, make, play, position, rem, texts, total_tokens
from velvet.engine.core import Event
from velvet.engine.errors import IllegalActionError
from velvet.engine.rng import Rng
from velvet.p5.effects import check
from velvet.p5.game import P5Game
from velvet.p5.state import P5State


def arsene(game: P5Game, *held: str, **spec: Any) -> P5State:
    """Joker with Arsene holding ``held``; ``spec`` adds player fields and position fields."""
    player_keys = {"fresh", "spent", "party", "confidants", "location", "drawn"}
    player = {"thief": "joker", "persona": "arsene", "held": list(held)}
    player.update({k: v for k, v in spec.items() if k in player_keys})
    rest = {k: v for k, v in spec.items() if k not in player_keys}
    return position(game, [player], **rest)


def _rule(state: P5State, text: str) -> str:
    before = state.canonical()
    with pytest.raises(IllegalActionError) as info:
        play(state, text)
    assert state.canonical() == before
    return info.value.rule_id


def _settle(state: P5State) -> None:
    while state.dec:
        play(state, texts(state)[0])


def _party_moves(state: P5State) -> list[str]:
    return [t for t in texts(state) if t.startswith(("equip ", "unequip "))]


def test_arsene_uses_held_shadows_persona_abilities(game: P5Game) -> None:
    # rule: P5-ARSENE-1
    s = arsene(game, "pixie", "agathion", fresh={"sp": 2}, shadows=[{"id": "bicorn"}])
    assert {"equip pixie", "equip agathion"} <= set(texts(s))
    play(s, "equip pixie", "done", "palace")
    _settle(s)
    assert "use pixie @bicorn" in texts(s) and "use agathion" not in " ".join(texts(s))
    plain = make(game)
    assert not any(t.startswith("equip") for t in texts(plain))
    assert _rule(plain, f"equip {game.cards.shadows[plain.rev[0]].id}") == "P5-ARSENE-1"


def test_resource_persona_gives_spent_tokens_while_active(game: P5Game) -> None:
    # rule: P5-ARSENE-2
    s = arsene(game, "thoth")
    supply = s.supply[0]
    events = play(s, "equip thoth", "done")
    assert s.spent[0][0] == 2 and s.fresh[0][0] == 0 and s.supply[0] == supply - 2
    assert first(events, "party")["spent_gained"] == {"stamina": 2}
    # one granted token restored, plus one other spent token: leaving loses the fresh first
    s = arsene(game, "thoth", party=["thoth"], fresh={"stamina": 1}, spent={"stamina": 2})
    supply, total = s.supply[0], total_tokens(s)
    play(s, "unequip thoth", "done")
    assert (s.fresh[0][0], s.spent[0][0]) == (0, 1)  # unspent lost first
    assert s.supply[0] == supply + 2 and total_tokens(s) == total


def test_party_tokens_follow_what_changed(game: P5Game) -> None:
    # rule: P5-ARSENE-2  (taking Thoth out and back in one decision changes nothing)
    s = arsene(game, "thoth", "pixie", party=["thoth"], fresh={"stamina": 2})
    before = s.fresh[0][:], s.spent[0][:], s.supply[:]
    events = play(s, "unequip thoth", "equip pixie", "equip thoth", "done")
    assert (s.fresh[0], s.spent[0], s.supply) == before
    assert first(events, "party")["joined"] == ["pixie"] and first(events, "party")["lost"] == {}


def test_party_of_three_changed_only_outside_palace(game: P5Game) -> None:
    # rule: P5-ARSENE-3
    s = arsene(game, "pixie", "agathion", "kelpie", "silky")
    play(s, "equip pixie", "equip agathion", "equip kelpie")
    assert not any(t.startswith("equip") for t in texts(s))
    assert _rule(s, "equip silky") == "P5-ARSENE-3"
    play(s, "done", "palace")
    _settle(s)
    assert not _party_moves(s)
    assert _rule(s, "unequip pixie") == "P5-ARSENE-3"
    play(s, "end")
    assert _rule(s, "unequip pixie") == "P5-ARSENE-3"  # still standing in the palace
    play(s, "visit home", "unequip pixie", "equip silky", "done")
    assert sorted(s.party[0]) == sorted(
        game.shadow_index[x] for x in ("agathion", "kelpie", "silky")
    )
    igor = arsene(
        game,
        "pixie",
        "agathion",
        "kelpie",
        "silky",
        party=["agathion", "kelpie", "silky"],
        confidants=["igor"],
    )
    assert "equip pixie" in texts(igor)  # Igor: one more slot


def test_a_mistaken_equip_is_taken_back_and_the_decision_ends(game: P5Game) -> None:
    # rule: P5-ARSENE-3  (ruling: one party decision at a time; each shadow changes and
    # changes back once inside it; after it, any other action opens a new one)
    s = arsene(game, "pixie", "agathion", "kelpie", spent={"stamina": 2})
    play(s, "equip pixie", "unequip pixie")  # the mistake taken back
    assert "equip pixie" not in texts(s) and "done" in texts(s)
    assert _rule(s, "equip pixie") == "P5-ARSENE-3"
    play(s, "equip agathion", "done")
    assert s.party[0] == [game.shadow_index["agathion"]]
    assert not _party_moves(s)  # chosen: no new party decision before another action
    assert _rule(s, "equip kelpie") == "P5-ARSENE-3"
    play(s, "use agathion")  # another action: the party may change again
    assert {"unequip agathion", "equip kelpie", "equip pixie"} <= set(_party_moves(s))
    play(s, "equip kelpie")
    guess = game.determinize(s.view(0), 0, Rng(3))  # the draft is part of the view
    assert texts(guess) == texts(s)


@pytest.mark.parametrize("seed", range(6))
def test_a_party_decision_is_finite(game: P5Game, seed: int) -> None:
    # rule: P5-ARSENE-3
    held = ("pixie", "agathion", "kelpie", "bicorn", "silky")
    s = arsene(game, *held, party=["pixie", "silky", "bicorn"])
    rng = Rng(seed)
    play(s, "unequip pixie")
    steps = 1
    while s.dec:
        moves = texts(s)
        play(s, moves[rng.randbelow(len(moves))])
        steps += 1
        assert steps <= 2 * len(held) + 1  # each shadow changes at most twice, then done
    assert not _party_moves(s) and any(t.startswith("visit") for t in texts(s))


def test_every_party_reachable_in_one_decision(game: P5Game) -> None:
    # rule: P5-ARSENE-3  (no final party is out of reach: leave first, then join)
    held = ("pixie", "agathion", "kelpie", "bicorn", "silky")
    start = ["pixie", "agathion", "kelpie"]
    for size in range(4):
        for target in combinations(held, size):
            s = arsene(game, *held, party=start)
            moves = [f"unequip {x}" for x in start if x not in target]
            moves += [f"equip {x}" for x in target if x not in start]
            if moves:
                play(s, *moves, "done")
            assert sorted(s.party[0]) == sorted(game.shadow_index[x] for x in target)


def test_mishima_in_palace_counts_recruited_mixed(game: P5Game) -> None:
    # rule: P5-CONF-MISHIMA
    confidants = ["mishima", "kawakami", "igor", "caroline-justine"]
    s = arsene(game, spent={"stamina": 3, "sp": 3}, confidants=confidants)
    assert "use mishima" not in texts(s)
    assert _rule(s, "use mishima") == "P5-CONF-MISHIMA"
    s = arsene(
        game,
        spent={"stamina": 3, "sp": 3},
        confidants=confidants,
        location="palace",
        phase="fight",
        shadows=[{"id": "pixie"}],
    )
    play(s, "use mishima")  # 2 recruited (Mishima, Kawakami): Igor and C&J do not count
    assert texts(s) == ["assign stamina=0", "assign stamina=1", "assign stamina=2"]
    play(s, "assign stamina=1")  # the SP count follows
    assert s.fresh[0][:2] == [1, 1] and s.spent[0][:2] == [2, 2]
    assert "use mishima" not in texts(s)  # 1/Palace


def test_caroline_justine_drawn_personas_not_in_palace(game: P5Game) -> None:
    # rule: P5-CONF-CJ
    s = arsene(
        game,
        confidants=["caroline-justine"],
        location="palace",
        phase="fight",
        shadows=[{"id": "pixie"}, {"id": "bicorn"}],
        shadow_deck=["eligor", "kelpie", "silky"],
    )
    play(s, "use caroline-justine")
    eligor = game.shadow_index["eligor"]
    assert s.held[0] == [eligor] and s.drawn[0] == [eligor]
    assert "equip eligor" not in texts(s)
    assert _rule(s, "equip eligor") == "P5-CONF-CJ"
    play(s, "end", "visit home")
    assert "equip eligor" in texts(s)
    play(s, "equip eligor", "done", "end", "palace")
    _settle(s)
    assert _rule(s, "unequip eligor") == "P5-ARSENE-3"  # leaving is not joining


@pytest.mark.parametrize(("face", "angel_hit", "pixie_hit"), [(6, True, True), (1, True, False)])
def test_alice_rolls_once_curse_weak_always_hit(
    game: P5Game, face: int, angel_hit: bool, pixie_hit: bool
) -> None:
    # rule: P5-CONF-ALICE
    s = arsene(
        game,
        "alice",
        party=["alice"],
        fresh={"sp": 2},
        location="palace",
        phase="fight",
        shadows=[{"id": "angel"}, {"id": "pixie"}],  # Angel is weak to Curse, Pixie is not
        dice=[face],
    )
    events = play(s, "use alice")
    assert kinds(events).count("dice") == 1
    _settle(s)
    assert (sum(rem(s, "angel").values()) == 2) is angel_hit
    assert (sum(rem(s, "pixie").values()) == 1) is pixie_hit


def test_ryuji_guts_four_rolls_four_dice(game: P5Game) -> None:
    # rule: P5-CHECK-1
    s = position(game, [{"thief": "skull", "persona": "goemon"}], dice=[1, 1, 1, 6])
    events: list[Event] = []
    assert check(s, 0, 1, events) and len(events[0].data["dice"]) == 4
