"""Card faces (``static/cards.js``) on a harness page: one card of every kind of both
games drawn from the card data, at 1280×720 and 390×844, checked for what a player must
read on them (name, cost, weakness in words, every skill's damage, abilities in words),
audited with axe-core (contrast included), and photographed for docs/screenshots."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import FIXTURES
from velvet.server.games import cards_json

CONTRAST = (Path(__file__).parent / "harness" / "contrast.js").read_text(encoding="utf-8")

SIZES = {"1280x720": {"width": 1280, "height": 720}, "390x844": {"width": 390, "height": 844}}

# One card per kind; where a kind has them, one with an ability and a skill with words.
SHOWN = {
    "vs": ["001", "002", "004", "015", "020", "p5"],
    "p5": [
        "thief:joker",
        "persona:arsene",
        "confidant:sojiro",
        "shadow:pixie",
        "boss:kamoshida",
        "location:home",
        "palace:kamoshida",
    ],
}
KINDS = {
    "vs": {"persona", "support", "react", "player"},
    "p5": {"thief", "persona", "confidant", "shadow", "boss", "location", "palace"},
}


def _words(text: str) -> str:
    return " ".join(text.split())


def _expected(game: str, info: dict[str, Any]) -> list[str]:
    """What the face must say in words, from the card data alone."""
    d = info["data"]
    says = [info["name"]]
    if game == "vs" and info["kind"] == "persona":
        says.append(f"Cost {d['cost']}")
        says.append(d["weakness"].capitalize() if d["weakness"] else "nothing")
        for skill in d["skills"]:
            says.append(f"{skill['damage']} damage")
            says.append(skill["name"])
        for ability in d["abilities"]:
            says.append(ability["name"])
    elif game == "vs":
        says.extend(line for line in info["lines"][1:])
    elif info["kind"] in ("shadow", "boss"):
        says.extend(w.capitalize() for w in d["weak"])
        says.append(f"Health {sum(d['health'].values())}")
    elif info["kind"] == "persona":
        says.extend(f"{sum(s['damage'].values())} damage" for s in d["skills"])
    elif info["kind"] == "confidant":
        says.append(d["arcana"])
        says.append(d["ability"]["name"])
    elif info["kind"] == "thief":
        says.append(d["passive"]["name"])
    return says


@pytest.mark.parametrize("game", ["vs", "p5"])
def test_every_kind_of_card_has_a_face_that_says_its_card(
    browser: Any, site: str, shots: Path, game: str
) -> None:
    from tests.web.test_accessibility import _axe, serious_violations

    cards = cards_json(game)
    FIXTURES[f"cards-{game}"] = cards
    assert {cards[key]["kind"] for key in SHOWN[game]} == KINDS[game]
    axe = _axe()
    for size, viewport in SIZES.items():
        page = browser.new_page(viewport=viewport)
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        ids = ",".join(SHOWN[game])
        page.goto(f"{site}/harness/cards.html?game={game}&ids={ids}&sizes=full,compact")
        page.wait_for_selector("body[data-ready]")
        assert page.get_attribute("body", "data-error") is None, page.get_attribute(
            "body", "data-error"
        )
        for key in SHOWN[game]:
            info = cards[key]
            full = page.locator(f'[data-card="{key}"][data-size="full"]')
            text = _words(full.text_content() or "")
            for words in _expected(game, info):
                assert _words(words).lower() in text.lower(), (
                    f"{key}: {words!r} not on its face: {text!r}"
                )
            # the face is drawn: a torn paper of its own and the name in a bar
            assert full.locator("svg.vc-back polygon.vc-paper").count() == 1
            compact = _words(page.locator(f'[data-card="{key}"][data-size="compact"]').inner_text())
            assert info["name"].upper() in compact.upper()
        edges = page.eval_on_selector_all(
            "polygon.vc-paper", "ps => ps.map(p => p.getAttribute('points'))"
        )
        assert len(set(edges)) == len(SHOWN[game]), "each card tears its own way"
        page.evaluate("document.fonts.ready")
        page.screenshot(path=str(shots / f"cards-{game}-{size}.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"the gallery scrolls sideways: {width}"
        texts = page.evaluate(CONTRAST)
        assert len(texts) > 10 * len(SHOWN[game])
        low = [t for t in texts if t["ratio"] < 4.5]
        assert not low, f"text under WCAG AA contrast (4.5:1): {low[:5]}"
        bad = serious_violations(axe, page)
        assert not bad, "\n".join(bad)
        assert not errors, errors
        page.close()


def test_a_kind_the_renderer_does_not_know_still_reads_in_words(browser: Any, site: str) -> None:
    FIXTURES["cards-odd"] = {
        "x": {
            "id": "x",
            "name": "Odd Card",
            "kind": "relic",
            "lines": ["Does a thing."],
            "data": {},
        }
    }
    page = browser.new_page(viewport=SIZES["390x844"])
    page.goto(f"{site}/harness/cards.html?game=odd&ids=x")
    page.wait_for_selector("body[data-ready]")
    text = _words(page.locator('[data-card="x"]').inner_text())
    assert re.search(r"ODD CARD.*Relic.*Does a thing\.", text, re.I), text
    page.close()


# every word of the name on one line: a break inside it is measured as two line boxes
BROKEN_WORDS = """() => [...document.querySelectorAll(".vc-name")].flatMap((name) => {
  const node = [...name.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.data.trim());
  if (!node) return [];
  const broken = [];
  for (const m of node.data.matchAll(/[^\\s-]+/g)) {
    const range = document.createRange();
    range.setStart(node, m.index);
    range.setEnd(node, m.index + m[0].length);
    if (range.getClientRects().length > 1) broken.push(m[0]);
  }
  return broken.length ? [`${node.data}: ${broken.join(", ")}`] : [];
})"""


@pytest.mark.parametrize("width", [390, 360])
def test_no_vs_card_name_breaks_inside_a_word_in_a_phone_hand(
    browser: Any, site: str, width: int
) -> None:
    cards = cards_json("vs")
    FIXTURES["cards-vs"] = cards
    ids = ",".join(k for k, c in cards.items() if c["kind"] in ("persona", "support", "react"))
    page = browser.new_page(viewport={"width": width, "height": 844})
    page.goto(f"{site}/harness/cards.html?game=vs&ids={ids}&sizes=compact&context=vs-hand")
    page.wait_for_selector("body[data-ready]")
    assert page.get_attribute("body", "data-error") is None
    assert page.locator(".vs-table .hand-cards > .vc").count() == len(ids.split(","))
    page.evaluate("document.fonts.ready")
    broken = page.evaluate(BROKEN_WORDS)
    assert not broken, f"names broken inside a word at {width} px: {broken}"
    page.close()
