"""Card schemas bound every number, text and list, so any card set that loads stays small.

A schema-valid set at every bound must build its game with a bounded action
table (the damage splits grew with the fourth power of health before); numbers
out of bounds, free unlimited skills and deep effect nesting are refused with
the file, the card and the field.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from velvet.cards.loader import MAX_CARDS
from velvet.engine import CardDataError
from velvet.p5 import cards as p5_cards
from velvet.p5.game import P5Game
from velvet.vs.cards import build_card_set

SHADOW = """
[[shadow]]
id = "{id}"
name = "Big"
weak = ["fire"]
health = {health}
persona = {{ name = "Agi", cost = {{ sp = 1 }}, type = "fire", damage = {{ sp = 1 }} }}
"""
PALACE = """
[[palace]]
id = "{id}"
name = "Tall"
rows = [{{ alert = 0 }}, {{ alert = 25 }}, {{ alert = 50 }}, {{ alert = 75 }}]
boss = {{ name = "Boss", health = {health} }}
"""


def load(tmp_path: Path, text: str) -> p5_cards.CardSet:
    path = tmp_path / "custom.toml"
    path.write_text(text)
    return p5_cards.load_cardset([path])


def test_a_set_at_every_bound_builds_a_bounded_game(tmp_path: Path) -> None:
    big = "{ stamina = 3, sp = 3, bullet = 3, cash = 3 }"
    boss = "{ stamina = 10, sp = 10 }"
    text = "".join(SHADOW.format(id=f"s{i}", health=big) for i in range(MAX_CARDS - 40))
    text += PALACE.format(id="tall", health=boss)
    game = P5Game(load(tmp_path, text))
    assert max(sum(s.health.values()) for s in game.cards.shadows) == 12
    # every Assign vector up to the largest health (20): C(24, 4) = 10,626 of them
    assert len(game.action_table) < 40_000


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (
            SHADOW.format(id="x", health="{ stamina = 20, sp = 20, bullet = 20, cash = 20 }"),
            "0..12",
        ),
        (SHADOW.format(id="x", health="{ stamina = 6, sp = 6, bullet = 6 }"), "total 1..12"),
        (SHADOW.format(id="x", health="{ stamina = -1, sp = 2 }"), "0..12"),
        (PALACE.format(id="x", health="{ stamina = 60, sp = 60 }"), "0..12"),
        (PALACE.format(id="x", health="{ stamina = -3 }"), "0..12"),
        (PALACE.format(id="x", health="{}"), "total 1..20"),
        (SHADOW.format(id="x", health="{ stamina = 99999999999999999999999 }"), "0..12"),
        (SHADOW.format(id="x" * 41, health="{ sp = 1 }"), "at most 40"),
    ],
)
def test_numbers_out_of_bounds_are_refused(tmp_path: Path, text: str, fragment: str) -> None:
    with pytest.raises(CardDataError, match=r"custom\.toml") as caught:
        load(tmp_path, text)
    assert fragment in str(caught.value)


@pytest.mark.parametrize(
    ("persona", "refused"),
    [
        ('type = "fire", damage = { sp = 1 }', True),  # free
        ('cost = { sp = 0 }, type = "fire", damage = { sp = 1 }', True),  # a zero cost is free
        ('cost = { sp = 1 }, effects = [{ op = "restore", amount = { sp = 1 } }]', True),
        (
            'cost = { sp = 1 }, effects = [{ op = "dice", then = [{ op = "gain", amount = '
            "{ sp = 2 } }] }]",
            True,
        ),  # a lucky die pays it back
        ('cost = { sp = 2 }, effects = [{ op = "restore", amount = { sp = 1 } }]', False),
        ('cost = { cash = 1 }, effects = [{ op = "gain", amount = { bullet = 2 } }]', False),
        ('type = "fire", damage = { sp = 1 }, limit = "day"', False),
    ],
)
def test_an_unlimited_skill_that_costs_nothing_in_the_end_is_refused(
    tmp_path: Path, persona: str, refused: bool
) -> None:
    text = SHADOW.format(id="loop", health="{ sp = 2 }").replace(
        'cost = {{ sp = 1 }}, type = "fire", damage = {{ sp = 1 }}'.replace("{{", "{").replace(
            "}}", "}"
        ),
        persona,
    )
    if not refused:
        load(tmp_path, text)
        return
    with pytest.raises(CardDataError, match="needs limit = 'day' or 'palace'") as caught:
        load(tmp_path, text)
    assert "card 'loop'" in str(caught.value) and "persona" in str(caught.value)


def test_effects_nested_past_the_limit_are_refused(tmp_path: Path) -> None:
    effect = '{ op = "gain", amount = { sp = 1 } }'
    for _ in range(p5_cards.MAX_EFFECT_DEPTH):
        effect = f'{{ op = "dice", then = [{effect}] }}'
    text = f'[[location]]\nid = "deep"\nname = "Deep"\neffects = [{effect}]\n'
    with pytest.raises(CardDataError, match="nested deeper than 4"):
        load(tmp_path, text)


def test_too_many_cards_are_refused(tmp_path: Path) -> None:
    text = "".join(SHADOW.format(id=f"s{i}", health="{ sp = 1 }") for i in range(MAX_CARDS + 1))
    with pytest.raises(CardDataError, match=f"at most {MAX_CARDS}"):
        load(tmp_path, text)


def test_vs_texts_and_lists_are_bounded(tmp_path: Path) -> None:
    path = tmp_path / "vs.toml"
    path.write_text(f'[[support]]\nid = "s"\nname = "{"n" * 81}"\neffects = [{{ op = "draw" }}]\n')
    with pytest.raises(CardDataError, match="name"):
        build_card_set([path])
    many = ", ".join(['{ op = "draw" }'] * 13)
    path.write_text(f'[[support]]\nid = "s"\nname = "S"\neffects = [{many}]\n')
    with pytest.raises(CardDataError, match="effects"):
        build_card_set([path])
