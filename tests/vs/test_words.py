"""Persona VS in words: labels for every legal action, a sentence for every event, every card."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from tests.vs.helpers import act, position
from velvet.engine.core import Event
from velvet.engine.errors import ConfigError
from velvet.vs.game import load_vs_game

G = load_vs_game()
E = ((), (), ())
RULES_SOURCE = "".join(
    (Path(__file__).parents[2] / "src" / "velvet" / "vs" / f"{name}.py").read_text(encoding="utf-8")
    for name in ("effects", "flow")
)
EVENT_KINDS = set(re.findall(r'Event\(\s*"(\w+)"', RULES_SOURCE))
EVENT_KINDS |= set(re.findall(r'\bleave\([^)]*"(\w+)"\)', RULES_SOURCE))
RAW = re.compile(r"(?<!Turn )\b\d{3}\b|\bp[01]\b|\bs[12]\b|\bm\+|\w=|\[\[|\{")


def raw_in(text: str) -> str | None:
    """A raw id, slot code or Python repr in ``text``, if any."""
    found = RAW.search(text)
    return found.group(0) if found else None


def games(n: int):  # type: ignore[no-untyped-def]
    """``n`` seeded random games, yielding (state, events of the last action) as they go."""
    pairs = [("p5", "p4"), ("p4", "p3"), ("p3", "p5"), ("p5", "p5")]
    for seed in range(n):
        s = G.new_state(G.default_config(*pairs[seed % 4]), seed)
        r = random.Random(seed)
        events: list[Event] = []
        while True:
            yield s, events
            if s.is_terminal():
                break
            legal = s.legal_actions()
            events = s.apply(legal[r.randrange(len(legal))])


def test_every_legal_action_has_a_distinct_label_with_names() -> None:
    checked = 0
    for s, _ in games(25):
        legal = s.legal_actions()
        labels = [s.action_label(a) for a in legal]
        assert all(labels), "an empty label"
        assert len(set(labels)) == len(labels), f"look-alike labels: {labels}"
        for action, label in zip(legal, labels, strict=True):
            assert raw_in(label) is None, f"'{label}' (for {action}) shows {raw_in(label)!r}"
            card = getattr(action, "card", None)
            if card is not None:
                assert G.card(card).name in label, f"'{label}' does not name {card}"
        checked += len(legal)
    assert checked > 5000


def test_every_event_kind_has_a_sentence_with_player_numbers() -> None:
    seen: set[str] = set()
    for _, events in games(60):
        for event in events:
            text = G.event_text(event)
            seen.add(event.kind)
            assert text and text != str(event), f"no sentence for {event}"
            assert raw_in(text) is None, f"'{text}' shows {raw_in(text)!r}"
            assert not text[0].islower() and text.endswith("."), text
            if "player" in event.data:
                assert f"Player {event.data['player'] + 1}" in text, text
            if event.data.get("card"):
                assert G.card(event.data["card"]).name in text, text
    # Every kind the rules can emit is covered by these games.
    assert seen >= EVENT_KINDS, EVENT_KINDS - seen
    assert len(EVENT_KINDS) >= 30


def test_labels_of_look_alike_actions() -> None:
    # Kelpie (011) onto a main Pixie (002) or onto both personas; two fusions apart.
    s = position(hands=(["011", "006", "006"], []), fields=((["002"], ["003"], ()), E))
    labels = {str(a): s.action_label(a) for a in s.legal_actions()}
    assert labels["fuse 011 m"] == "Fuse Kelpie onto your main Pixie (cost 2)"
    assert labels["fuse 011 m+s1"] == (
        "Fuse Kelpie onto your main Pixie and your sub Jack-o'-Lantern (cost 2)"
    )
    act(s, "summon 011")
    labels = {str(a): s.action_label(a) for a in s.legal_actions()}
    assert (
        labels["pay hand 006"] == "Discard Bicorn from your hand to pay for Kelpie (2 left to pay)"
    )
    assert labels["pay field s1"] == (
        "Send your sub Jack-o'-Lantern to the discard pile to pay for Kelpie (2 left to pay)"
    )


def test_skill_and_react_labels_name_the_persona_and_the_target() -> None:
    s = position(
        hands=([], ["021"]),
        fields=((["001", "007"], (), ()), (["026"], (), ())),
        step=1,
    )
    labels = {str(a): s.action_label(a) for a in s.legal_actions()}
    assert labels["skill m 001 0"].startswith("Use ")
    assert (
        "of Arsène under your main Koropokkur on Player 2's main Izanagi" in labels["skill m 001 0"]
    )
    act(s, "skill m 007 0")
    assert {s.action_label(a) for a in s.legal_actions()} == {
        "Play no React",
        "React with Makarakarn",
    }


def test_damage_sentence_says_how_it_was_made() -> None:
    # Koropokkur's Bufu (ice 4) against Izanagi: Rakukaja (React, -2) first.
    s = position(hands=([], ["045"]), fields=((["007"], (), ()), (["026"], (), ())), step=1)
    events = act(s, "skill m 007 0", "react 045")
    damage = next(e for e in events if e.kind == "damage")
    text = G.event_text(damage)
    assert text == (
        "Player 2 takes 2 damage from Bufu of Koropokkur "
        "(base 4, -2 the React Rakukaja → 2) (HP 28)."
    )
    assert damage.data["steps"] == [["add", -2, "045", "react", 2]]
    # Excess damage is lost and said so.
    s = position(fields=((["007"], (), ()), (["026"], (), ())), step=1, hp=(30, 3))
    events = act(s, "skill m 007 0", "pass")
    damage = next(e for e in events if e.kind == "damage")
    assert damage.data["hp"] == 0 and damage.data["excess"] == 1 and s.hp[1] == 0
    assert "HP stops at 0 and 1 more is lost" in G.event_text(damage)
    assert G.event_text(events[-1]) == "Player 1 wins: Player 2's HP reached 0."


def test_every_card_describes_in_words_and_as_data() -> None:
    for ident in [*G.players, *G.ids]:
        info = G.describe_card(ident)
        assert info.id == ident and info.name and info.lines
        assert info.kind in ("player", "persona", "support", "react")
        json.dumps(info.to_json())
        text = info.text()
        assert raw_in(text.replace(ident, "")) is None, text
    info = G.describe_card("014")
    assert info.name == "Satanael" and info.kind == "persona"
    assert "plus a persona named Arsène" in info.lines[0]
    assert info.data["cost"] == 5 and info.data["extra_cost_name"] == "Arsène"
    assert info.lines[1] == "No weakness" and info.data["weakness"] is None
    pixie = G.describe_card("002")
    assert pixie.lines[1] == "Weakness: fire" and pixie.data["weakness"] == "fire"
    assert any(line.startswith("Skill Zio: electric, 3 damage") for line in pixie.lines)
    assert G.describe_card("p5").lines[0] == "Starter: Arsène"


@pytest.mark.parametrize("bad", ["999", "", 7])
def test_describe_card_refuses_an_unknown_id(bad: object) -> None:
    with pytest.raises(ConfigError):
        G.describe_card(bad)  # type: ignore[arg-type]
