"""Set-up, configs, card data and deck files."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from velvet.engine.errors import CardDataError, ConfigError, DeckError
from velvet.engine.rng import Rng
from velvet.vs.cards import DAMAGE_TYPES, Persona, React, Support, card_list_markdown, card_rows
from velvet.vs.cards import check_card_files as check_files
from velvet.vs.decks import check_deck, default_deck_path, load_deck
from velvet.vs.game import VsGame, load_vs_game
from velvet.vs.state import VsState

G = load_vs_game()


def test_card_set_numbers_and_player_cards() -> None:
    # rule: VS-COMP-1
    ids = [c.id for c in G.all_cards]
    assert ids == [f"{i:03d}" for i in range(1, 72)]
    assert [p for p, _ in G.player_cards()] == ["p5", "p4", "p3"]
    starters = {p.id: G.card(p.starter).name for p in G.cards.players}
    assert starters == {"p5": "Arsène", "p4": "Izanagi", "p3": "Orpheus"}
    for pc, lo, hi in (("p5", 1, 25), ("p4", 26, 50), ("p3", 51, 71)):
        deck = load_deck(default_deck_path(pc), G)
        assert len(deck) == 40
        assert all(lo <= int(c) <= hi for c in deck)
        assert max(Counter(deck).values()) == 2


def test_card_types() -> None:
    # rule: VS-COMP-2
    kinds = Counter(type(c).__name__ for c in G.all_cards)
    assert kinds["Persona"] >= 30 and kinds["Support"] >= 10 and kinds["React"] >= 10
    for card in G.all_cards:
        if isinstance(card, Persona):
            assert card.skills and card.cost >= 0
        elif isinstance(card, React):
            assert card.timing in ("declaration", "resolution")
    lowhp = [c for c in G.all_cards if isinstance(c, Support | React) and c.lowhp]
    assert len(lowhp) >= 6


def test_five_damage_types() -> None:
    # rule: VS-COMP-3
    assert DAMAGE_TYPES == ("physical", "fire", "ice", "electric", "wind")
    used = {s.type for c in G.all_cards if isinstance(c, Persona) for s in c.skills}
    assert used == set(DAMAGE_TYPES)


def test_setup_starter_hand_hp_and_deck() -> None:
    # rule: VS-SETUP-1, VS-SETUP-2, VS-SETUP-3
    cfg = G.default_config("p5", "p3")
    s = G.new_state(cfg, 7)
    for p, starter in ((0, "001"), (1, "051")):
        assert G.ids[s.hand[p][0]] == starter
        assert len(s.hand[p]) == 5 and len(s.deck[p]) == 35
        assert s.zones(p) == Counter(G.index[c] for c in cfg["players"][p]["deck"])
    assert s.hp == [30, 30]


def test_setup_shuffles_by_seed() -> None:
    # rule: VS-SETUP-1
    cfg = G.default_config()
    a, b, c = (G.new_state(cfg, seed) for seed in (1, 1, 2))
    assert a.canonical() == b.canonical()
    assert a.deck != c.deck


def test_first_player_seeded_random_or_chosen() -> None:
    # rule: VS-SETUP-4
    cfg = G.default_config()
    firsts = {G.new_state(cfg, seed).turn for seed in range(20)}
    assert firsts == {0, 1}
    for first in (0, 1):
        cfg["first_player"] = first
        assert all(G.new_state(cfg, seed).turn == first for seed in range(5))
    cfg["first_player"] = 2
    with pytest.raises(ConfigError, match="VS-SETUP-4"):
        G.new_state(cfg, 1)


def test_hands_are_dealt_before_the_first_player_is_drawn() -> None:
    # rule: VS-SETUP-2, VS-SETUP-4
    # Both shuffles (38 draws each) come first, then the first player's draw: scripting
    # that last draw decides who begins, and each hand is the starter plus the deck's top 4.
    cfg = G.default_config()
    decks = [[G.index[c] for c in cfg["players"][p]["deck"]] for p in (0, 1)]
    for first in (0, 1):
        rng = Rng(3, script=[0] * 76 + [first])
        s = VsState.setup(G, ["p5", "p4"], [d[:] for d in decks], None, rng)
        assert s.turn == first and rng.scripted == ()
        for p, starter in ((0, "001"), (1, "026")):
            deck = decks[p][:]
            deck.remove(G.index[starter])
            for i in range(len(deck) - 1, 0, -1):  # the shuffle with every draw scripted 0
                deck[i], deck[0] = deck[0], deck[i]
            assert s.hand[p] == [G.index[starter], *deck[:-5:-1]]
            assert s.deck[p] == deck[:-4]


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        (lambda d: d.pop(), DeckError, "39 cards"),
        (lambda d: d.__setitem__(0, "999"), DeckError, "unknown card '999'"),
        (lambda d: d.__setitem__(slice(4, 7), ["002", "002", "002"]), DeckError, "named Pixie"),
        (
            lambda d: d.__setitem__(slice(None), [x for x in d if x != "001"] + ["002", "003"]),
            DeckError,
            "lacks its VS starter",
        ),
    ],
)
def test_deck_rules_in_config(change, error, words) -> None:  # type: ignore[no-untyped-def]
    # rule: VS-DECK-1
    cfg = G.default_config()
    change(cfg["players"][0]["deck"])
    with pytest.raises(error, match=words) as info:
        G.new_state(cfg, 1)
    assert "VS-DECK-1" in str(info.value)


def test_decks_may_mix_sets() -> None:
    # rule: VS-DECK-1
    cfg = G.default_config()
    deck = cfg["players"][0]["deck"]
    deck[-2:] = ["051", "026"]
    G.new_state(cfg, 1)


@pytest.mark.parametrize(
    "config",
    [
        {"players": []},
        {"players": [{"player_card": "p5"}, {"player_card": "p4"}]},
        {"players": [{"player_card": "p9", "deck": []}] * 2},
        {"bogus": 1},
    ],
)
def test_bad_configs_raise_config_errors(config) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises((ConfigError, DeckError)):
        G.new_state(config, 1)


def test_deck_file_by_id_or_name(tmp_path: Path) -> None:
    # rule: VS-DECK-1
    path = tmp_path / "deck.toml"
    rows = "".join(
        f'[[cards]]\ncard = "{c}"\ncount = 2\n'
        for c in (
            "Arsène",
            "pixie",
            "003",
            "004",
            "005",
            "006",
            "007",
            "008",
            "009",
            "010",
            "011",
            "012",
            "013",
            "015",
            "016",
            "017",
            "018",
            "019",
            "020",
            "021",
        )
    )
    path.write_text('player_card = "p5"\n' + rows, encoding="utf-8")
    ids = load_deck(path, G)
    assert ids[:4] == ["001", "001", "002", "002"]
    assert "40 cards" in check_deck(path, G)
    path.write_text('player_card = "p5"\n[[cards]]\ncard = "Nobody"\n', encoding="utf-8")
    with pytest.raises(DeckError, match="unknown card 'Nobody'"):
        load_deck(path, G)
    for count in (3, 10**12):  # a huge count is refused at once, not expanded into a list
        path.write_text(
            f'player_card = "p5"\n[[cards]]\ncard = "002"\ncount = {count}\n', encoding="utf-8"
        )
        with pytest.raises(DeckError, match=rf"card '002': count {count}; .*at most 2.*VS-DECK-1"):
            check_deck(path, G)
    with pytest.raises(DeckError, match="no such deck"):
        load_deck(tmp_path / "missing.toml", G)


def test_card_errors_name_file_card_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[[persona]]\nid = "900"\nname = "X"\ncost = 1\nwings = 2\n', encoding="utf-8")
    with pytest.raises(CardDataError, match=r"bad.toml: card '900': field 'wings'"):
        load_vs_game([bad])
    bad.write_text(
        '[[persona]]\nid = "900"\nname = "X"\ncost = 1\nweakness = "dark"\n', encoding="utf-8"
    )
    with pytest.raises(CardDataError, match="field 'weakness'"):
        load_vs_game([bad])
    bad.write_text(
        '[[react]]\nid = "900"\nname = "X"\ntiming = "resolution"\neffects = [{ op = "negate" }]\n',
        encoding="utf-8",
    )
    with pytest.raises(CardDataError, match="timing = 'declaration'"):
        load_vs_game([bad])
    bad.write_text(
        '[[persona]]\nid = "900"\nname = "X"\ncost = 1\nabilities = [{ name = "Flip", '
        'trigger = "attack", mode = "mul", amount = -2 }]\n',
        encoding="utf-8",
    )
    with pytest.raises(CardDataError, match=r"card '900'.*mode 'mul' needs amount >= 0"):
        load_vs_game([bad])
    bad.write_text(
        '[[persona]]\nid = "900"\nname = "X"\ncost = 5\nextra_cost_name = "Nobody"\n',
        encoding="utf-8",
    )
    with pytest.raises(CardDataError, match="extra_cost_name"):
        check_files([bad])


def test_custom_cards_extend_or_replace(tmp_path: Path) -> None:
    extra = tmp_path / "extra.toml"
    extra.write_text(
        '[[support]]\nid = "100"\nname = "Soma"\neffects = [{ op = "heal", amount = 9 }]\n',
        encoding="utf-8",
    )
    g = load_vs_game([extra])
    assert len(g.all_cards) == 72 and g.cardset_hash() != G.cardset_hash()
    assert "ok:" in check_files([extra])
    repl = tmp_path / "repl.toml"
    repl.write_text(
        '[set]\nmode = "replace"\n[[player]]\nid = "p1"\nname = "Solo"\nstarter = "1"\n'
        '[[persona]]\nid = "1"\nname = "Only"\ncost = 0\nstarter = true\n'
        'skills = [{ name = "Hit", type = "fire", damage = 1 }]\n',
        encoding="utf-8",
    )
    g = load_vs_game([repl])
    assert [c.id for c in g.all_cards] == ["1"] and g.player_cards() == [("p1", "Solo")]


def test_ultimate_extra_cost_is_data() -> None:
    # rule: VS-RULE-ULT
    ults = {
        c.name: c.extra_cost_name
        for c in G.all_cards
        if isinstance(c, Persona) and c.extra_cost_name
    }
    assert ults == {"Satanael": "Arsène", "Izanagi-no-Okami": "Izanagi", "Thanatos": "Orpheus"}


def test_card_text_and_lists() -> None:
    rows = card_rows(G)
    assert len(rows) == 74 and rows[0][0] == "player"
    text = dict((r[1], r[3]) for r in rows)
    assert "10 HP or less" in text["015"]
    assert "named Arsène" in text["014"]
    md = card_list_markdown(G)
    assert md.count("\n| ") == 76
    assert (Path(__file__).parents[2] / "docs" / "vs-cards.md").read_text(encoding="utf-8") == md


def test_game_is_cached_and_independent_of_consumers() -> None:
    assert load_vs_game() is G
    assert isinstance(G, VsGame) and G.name == "vs" and G.num_players == (2,)


@pytest.mark.parametrize(("copies", "ok"), [(2, True), (3, False)])
def test_deck_copy_limit_at_the_boundary(copies: int, ok: bool) -> None:
    # rule: VS-DECK-1
    cfg = G.default_config()
    rest = [x for x in cfg["players"][0]["deck"] if x not in ("001", "002")]
    pad = [x for x in G.ids if G.kind[G.index[x]] == 0 and x not in rest and x > "026"]
    deck = ["001", *["002"] * copies, *rest, *pad][:40]
    assert len(deck) == 40 and deck.count("002") == copies
    cfg["players"][0]["deck"] = deck
    if ok:
        assert G.new_state(cfg, 1).decklists[0].count(G.index["002"]) == copies
    else:
        with pytest.raises(DeckError, match="3 cards named Pixie; at most 2"):
            G.new_state(cfg, 1)
