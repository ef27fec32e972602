"""The table's look (``static/look.js``, ``look.css``): every theme keeps every text at
WCAG AA contrast on both tables (a probe over the whole page, and axe-core), the theme
menu's choice, sound and motion settings are kept in localStorage, sound is off until
turned on, motion marks what moved and never runs under reduced motion or "Off", and the
server's CSP refuses nothing the client does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import WebServer

SIZES = {"1280x720": {"width": 1280, "height": 720}, "390x844": {"width": 390, "height": 844}}
THEMES = ["velvet", "phantom", "midnight", "contrast"]
PROBE = (Path(__file__).parent / "harness" / "contrast-page.js").read_text(encoding="utf-8")


def _room(server: WebServer, **body: Any) -> str:
    answer = httpx.post(f"{server.url}/api/rooms", json=body)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["invites"][0]["url"])


def _open(page: Any, url: str, game: str) -> None:
    page.goto(url)
    page.wait_for_selector(f".{game}-board .actable")
    page.wait_for_function("Object.keys(window.velvet.cards).length > 0")
    page.wait_for_timeout(300)  # the dice land, the cards arrive


def _look(page: Any, server: WebServer, **change: Any) -> None:
    """Save look settings in this browser (on the lobby: an invite is opened once)."""
    page.goto(f"{server.url}/")
    page.evaluate("c => localStorage.setItem('velvet.look', JSON.stringify(c))", change)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("game", ["p5", "vs"])
def test_every_theme_keeps_every_text_at_aa_contrast(
    server: WebServer, browser: Any, shots: Path, theme: str, game: str
) -> None:
    from tests.web.test_accessibility import _axe, serious_violations

    axe = _axe()
    seats = ["human", "human"] if game == "p5" else ["human", "easy"]
    extra = {} if game == "p5" else {"first": "1"}
    for size, viewport in SIZES.items():
        url = _room(server, game=game, seats=seats, **extra)  # an invite opens once
        context = browser.new_context(viewport=viewport, bypass_csp=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        _look(page, server, theme=theme)
        _open(page, url, game)
        assert page.evaluate("document.documentElement.dataset.theme") == theme
        texts = page.evaluate(PROBE)
        assert len(texts) > 40, texts
        low = [t for t in texts if t["ratio"] < 4.5]
        assert not low, f"{theme}: text under 4.5:1: {low[:6]}"
        bad = serious_violations(axe, page)
        assert not bad, "\n".join(bad)
        page.mouse.move(0, 0)
        page.evaluate("scrollTo(0, 0)")
        page.screenshot(path=str(shots / f"theme-{theme}-{game}-{size}.png"))
        assert not errors, errors
        context.close()


def test_the_menu_keeps_the_theme_sound_and_motion(server: WebServer, browser: Any) -> None:
    url = _room(server, game="p5", seats=["human"], players=1)
    context = browser.new_context(viewport=SIZES["1280x720"])  # the page's own CSP applies
    page = context.new_page()
    refused: list[str] = []
    page.on(
        "console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None
    )
    _open(page, url, "p5")
    # sound is off until the player turns it on; nothing played for the first turn
    assert page.evaluate("window.velvetSounds") is None
    page.locator(".look-menu > summary").click()
    assert not page.locator("#look-sound").is_checked()
    page.select_option("#look-theme", "midnight")
    page.select_option("#look-motion", "slow")
    page.locator("#look-sound").check()
    assert page.evaluate("window.velvetSounds") == ["turn"]  # the toggle says it is on
    saved = json.loads(page.evaluate("localStorage.getItem('velvet.look')"))
    # notifications stay off: nobody checked them (and nothing asked the browser)
    assert saved == {"theme": "midnight", "sound": True, "motion": "slow", "notify": False}
    assert not page.locator("#look-notify").is_checked()
    page.reload()
    page.wait_for_selector(".p5-board .actable")
    root = page.evaluate(
        "[document.documentElement.dataset.theme, document.documentElement.dataset.motion]"
    )
    assert root == ["midnight", "slow"]
    assert page.evaluate("window.velvetSounds") == ["turn"]  # a turn of mine began
    # the static is an SVG in the style sheet, a data: image the CSP allows
    assert "data:image/svg+xml" in page.evaluate("getComputedStyle(document.body).backgroundImage")
    assert not refused, refused
    context.close()


@pytest.mark.parametrize(
    ("motion", "reduced", "moves"),
    [("normal", False, True), ("off", False, False), ("normal", True, False)],
)
def test_a_summoned_card_flies_in_unless_motion_is_off_or_reduced(
    server: WebServer, browser: Any, motion: str, reduced: bool, moves: bool
) -> None:
    url = _room(server, game="vs", seats=["human", "easy"], first="1")
    context = browser.new_context(
        viewport=SIZES["1280x720"], reduced_motion="reduce" if reduced else "no-preference"
    )
    page = context.new_page()
    _look(page, server, motion=motion)
    _open(page, url, "vs")
    version = page.evaluate("window.velvet.state.version")
    page.locator('button.action[data-action^="summon "]').first.click()
    page.wait_for_function("v => window.velvet.state.version > v", arg=version)
    summoned = [
        e["data"]["card"]
        for e in page.evaluate("window.velvet.state.events")
        if e["kind"] == "summon"
    ]
    assert summoned, "a summon is an event"
    # look.js's CSS animation "mv-fly", or a board's own Web Animation "fly" (motion.js),
    # started at the frame after the state was drawn
    flying = page.evaluate(
        "() => new Promise(r => requestAnimationFrame(() => r(document.getAnimations()"
        ".filter(a => a.animationName === 'mv-fly' || a.id === 'fly')"
        ".map(a => a.effect.target.dataset.card))))"
    )
    if moves:
        assert summoned[0] in flying, flying
    else:
        assert flying == []
        assert page.locator(".mv").count() == 0 or reduced  # reduced: marked, never run
    context.close()
