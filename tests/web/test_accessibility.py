"""An automated accessibility audit of the browser client with axe-core.

axe-core's script comes inside the ``axe-playwright-python`` package (pinned in the test
extra) and is injected into the page from there: nothing is fetched from a CDN. The
lobby, a VS table (and a hand card's tap menu on a phone), a P5 table and a finished
game's replay are audited at 1280×720 and 390×844; a serious or critical violation
fails the test with the rule, its help text and the elements it found. On the same pages
no word a player sees is smaller than 12 px.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.web.conftest import REQUIRED, WebServer

SIZES = {"1280x720": {"width": 1280, "height": 720}, "390x844": {"width": 390, "height": 844}}
FAILING = ("serious", "critical")


def _axe() -> Any:
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        why = "needs axe-playwright-python==0.1.8 (pip install -e '.[test]')"
        if REQUIRED:
            pytest.fail(f"VELVET_REQUIRE_SERVICES=1 but {why}")
        pytest.skip(why)
    return Axe()


def serious_violations(axe: Any, page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page, one line each: the rule,
    its impact and words, and the first five elements it names."""
    violations = axe.run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + ", ".join(" ".join(n["target"]) for n in v["nodes"][:5])
        for v in violations
        if v["impact"] in FAILING
    ]


SMALL_TEXT = """() => {
  const out = new Set();
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const e = n.parentElement;
    const unseen = '[hidden], .visually-hidden, .vc-sr, [aria-hidden=true]';
    if (!n.data.trim() || e.closest(unseen)) continue;
    const box = e.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(e).visibility === 'hidden') continue;
    const px = parseFloat(getComputedStyle(e).fontSize);
    const what = `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`;
    if (px < 11.95) out.add(`${what} ${px.toFixed(1)} px: ${n.data.trim().slice(0, 24)}`);
  }
  // words drawn by CSS (content: "▸ act") are no text nodes: read every ::before and ::after
  for (const e of document.body.querySelectorAll('*')) {
    if (e.closest('[hidden], .visually-hidden, .vc-sr, [aria-hidden=true]')) continue;
    const box = e.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(e).visibility === 'hidden') continue;
    for (const pseudo of ['::before', '::after']) {
      const style = getComputedStyle(e, pseudo);
      const words = (style.content || '').replace(/^["']|["']$/g, '').trim();
      if (!words || words === 'none' || words === 'normal' || style.display === 'none') continue;
      const px = parseFloat(style.fontSize);
      const what = `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}${pseudo}`;
      if (px < 11.95) out.add(`${what} ${px.toFixed(1)} px: ${words.slice(0, 24)}`);
    }
  }
  return [...out];
}"""
"""Every word shown on the page smaller than 12 px, in its text or drawn by a ``::before`` /
``::after`` (text clipped out of sight and text hidden from everyone are not shown): one
line each, its element, size and first words."""


def _room(server: WebServer, **body: Any) -> dict[str, Any]:
    answer = httpx.post(f"{server.url}/api/rooms", json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def _finished(server: WebServer) -> dict[str, Any]:
    from websockets.sync.client import connect

    created = _room(server, game="vs", seats=["greedy", "greedy"])
    with connect(created["websocket"], max_size=2**24) as watcher:  # bots play while watched
        watcher.send(json.dumps({"v": 1, "type": "hello", "token": None}))
        deadline = time.monotonic() + 60
        while json.loads(watcher.recv(60))["type"] != "over":
            assert time.monotonic() < deadline, "the bots did not finish"
    return created


def _lobby(server: WebServer, page: Any) -> None:
    page.goto(f"{server.url}/")
    page.wait_for_selector("form.create-form")


def _vs(server: WebServer, page: Any) -> None:
    page.goto(_room(server, game="vs", seats=["human", "easy"], first="1")["invites"][0]["url"])
    page.wait_for_selector(".vs-board .actable")


def _vs_menu(server: WebServer, page: Any) -> None:
    _vs(server, page)
    page.wait_for_function("Object.keys(window.velvet.cards).length > 0")
    page.locator('[data-ref="hand:0"].actable').click()
    page.wait_for_selector(".menu .menu-card")


def _p5(server: WebServer, page: Any) -> None:
    page.goto(_room(server, game="p5", seats=["human", "human"])["invites"][0]["url"])
    page.wait_for_selector(".p5-board .actable")


def _replay(server: WebServer, page: Any) -> None:
    page.goto(f"{_finished(server)['spectate']}?replay")
    page.wait_for_selector(".replay-board .pbar")


def _learn(server: WebServer, page: Any) -> None:
    page.goto(f"{server.url}/learn/p5")
    page.click("button[data-lesson='01-first-turn']")
    page.click("button.action[data-action='visit sales-clerk']")
    page.wait_for_selector(".learn-rule")


def _your_games(server: WebServer, page: Any) -> None:
    _vs(server, page)  # this browser holds a seat: its game is listed, its move
    page.goto(f"{server.url}/games")
    page.wait_for_selector(".your-games .game-list .your-move")


PAGES: dict[str, Callable[[WebServer, Any], None]] = {
    "lobby": _lobby,
    "vs-table": _vs,
    "vs-tap-menu": _vs_menu,
    "p5-table": _p5,
    "replay": _replay,
    "learn": _learn,
    "your-games": _your_games,
}


AUDITS = [(name, size) for name in PAGES for size in SIZES if name != "vs-tap-menu"]
AUDITS.append(("vs-tap-menu", "390x844"))  # a phone's: a mouse click plays at once


@pytest.mark.parametrize(("name", "size"), AUDITS)
def test_no_serious_accessibility_violation(
    server: WebServer, browser: Any, name: str, size: str
) -> None:
    axe = _axe()
    context = browser.new_context(viewport=SIZES[size], bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        PAGES[name](server, page)
        page.wait_for_timeout(300)  # the dice land, the cards arrive
        bad = serious_violations(axe, page)
        assert not bad, "\n".join(bad)
        assert not errors, errors
        small = page.evaluate(SMALL_TEXT)
        assert not small, f"words under 12 px on {name} at {size}: {small}"
    finally:
        context.close()


@pytest.mark.parametrize("moment", ["solo-fight", "duo-fight", "duo-boss", "duo-draft"])
def test_no_serious_accessibility_violation_on_p5_boards(
    site: str, browser: Any, moment: str
) -> None:
    """The P5 board alone (the harness page) at moments the tables above do not reach: a
    fight after a roll (the dice tray), the boss, the party draft; 390×844."""
    from tests.web.conftest import FIXTURES
    from tests.web.p5_positions import board, cards_of, find
    from velvet.p5.game import load_p5_game

    axe = _axe()
    game = load_p5_game()
    state, events = find(game, moment)
    FIXTURES[f"axe-{moment}"] = {
        **board(game, state, events, state.current_player),
        "cards": cards_of(game),
    }
    page = browser.new_page(viewport=SIZES["390x844"])
    try:
        page.goto(f"{site}/harness/index.html?board=axe-{moment}")
        page.wait_for_selector("body[data-ready]")
        page.wait_for_timeout(1200)  # the dice land
        bad = serious_violations(axe, page)
        assert not bad, "\n".join(bad)
    finally:
        page.close()
