"""Costs and restores of the persona skills the third balance round changed (docs/lab.md)."""

from __future__ import annotations

import pytest

from tests.p5.helpers import dice, give, make, play, texts
from tests.p5.test_palace import fighting
from velvet.engine.errors import IllegalActionError
from velvet.p5.game import P5Game

STAMINA, SP, BULLET = 0, 1, 2


def test_robin_hood_dia_costs_a_bullet(game: P5Game) -> None:
    # rule: P5-COMBAT-3
    # rule: P5-TERM-RESTORE
    s = make(game, (("skull", "robin-hood"),))
    give(s, sp=0, bullet=0, spent_stamina=2)
    assert "use robin-hood.dia" not in texts(s)  # no Bullet: the cost cannot be paid
    with pytest.raises(IllegalActionError) as info:
        play(s, "use robin-hood.dia")
    assert info.value.rule_id == "P5-COMBAT-3"
    give(s, sp=2, bullet=1)
    stamina = s.fresh[0][STAMINA]
    play(s, "use robin-hood.dia")
    assert s.fresh[0][BULLET] == 0 and s.spent[0][BULLET] == 1  # paid with the Bullet
    assert s.fresh[0][SP] == 2  # SP untouched
    assert s.fresh[0][STAMINA] == stamina + 2 and s.spent[0][STAMINA] == 0


def test_zorro_sukukaja_restores_one_sp_once_per_palace_entry(game: P5Game) -> None:
    # rule: P5-TERM-PALACE
    # rule: P5-TERM-RESTORE
    s = make(game, (("skull", "zorro"),))
    give(s, sp=0, spent_sp=3)
    assert "use zorro.sukukaja" not in texts(s)  # only in the palace
    play(s, "palace", "use zorro.sukukaja")
    assert s.fresh[0][SP] == 1 and s.spent[0][SP] == 2
    assert "use zorro.sukukaja" not in texts(s)
    play(s, "end", "visit school", "end", "palace")  # next day, a new entry
    assert "use zorro.sukukaja" in texts(s)


def test_carmen_marin_karin_costs_stamina_not_sp(game: P5Game) -> None:
    # rule: P5-COMBAT-3
    s = fighting(game, "bicorn", persona="carmen", sp=0, stamina=1)
    assert "use carmen.agi @bicorn" not in texts(s)  # Agi still needs SP
    dice(s, 1)
    play(s, "use carmen.marin-karin @bicorn")
    assert s.fresh[0][STAMINA] == 0 and s.spent[0][STAMINA] == 1
    assert s.fresh[0][SP] == 0 and s.spent[0][SP] == 0
