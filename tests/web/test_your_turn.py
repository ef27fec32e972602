"""Your turn (issue 25, part 4), in real browser contexts under the page's own CSP: the
tab's title and icon say "your turn" while a decision of this seat waits and go back when
it does not; a browser notification is asked for only from a click in the Look menu and
shown only while the tab is hidden; the table names who plays each seat (from the server);
"Your games" lists the game with "Your move"; a second device gets the game's log so far."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from tests.web.conftest import Tab, WebServer

DESKTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
MARK = "● Your turn — "

PROBES = """
(() => {
  // Headless Chromium shows every page as visible: the test puts the tab in the background.
  let hidden = false;
  Object.defineProperty(document, "hidden", { get: () => hidden });
  const seen = () => (hidden ? "hidden" : "visible");
  Object.defineProperty(document, "visibilityState", { get: seen });
  window.__tab = (h) => { hidden = h; document.dispatchEvent(new Event("visibilitychange")); };
  // A stand-in for the browser's notifications: what the page asks and shows.
  window.__asked = 0;
  window.__shown = [];
  class Stub {
    constructor(title, options) { window.__shown.push({ title, body: options && options.body }); }
    close() {}
  }
  // the browser remembers a site's answer: so does the stub, across reloads
  Stub.permission = sessionStorage.getItem("stub-permission") || "default";
  Stub.requestPermission = async () => {
    window.__asked += 1;
    sessionStorage.setItem("stub-permission", "granted");
    Stub.permission = "granted";
    return "granted";
  };
  Object.defineProperty(window, "Notification", { value: Stub, configurable: true });
})();
"""


class CspTab(Tab):
    """A Tab whose context keeps the page's CSP (a refusal would show in the console)."""

    def __init__(self, browser: Any, viewport: dict[str, int]) -> None:
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.sent, self.received, self.errors = [], [], []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "console",
            lambda m: self.errors.append(m.text) if "Content Security" in m.text else None,
        )
        self.page.on("websocket", self._socket)
        self.page.add_init_script(PROBES)

    def wait(self, expression: str, arg: Any = None, timeout: float = 30_000) -> None:
        """Poll ``expression`` (or the function ``expression`` of ``arg``) until it is true.

        ``page.wait_for_function`` cannot serve here: after its first try it evaluates the
        predicate from the page's own timers, where the CSP forbids ``eval``, so it fails
        whenever the condition is not true at once. ``page.evaluate`` goes through the
        DevTools protocol, which the CSP does not govern."""
        deadline = time.monotonic() + timeout / 1000
        while not self.page.evaluate(expression, arg):
            if time.monotonic() > deadline:
                raise AssertionError(f"still false after {timeout:.0f} ms: {expression}")
            self.page.wait_for_timeout(50)

    def wait_version(self, version: int) -> None:
        self.wait(
            "v => !!(window.velvet && window.velvet.state && window.velvet.state.version >= v)",
            version,
        )


def play_until_turn_passes(tab: Tab, seat: int) -> None:
    """``seat`` (this tab's) plays end-ish moves until the other seat decides."""
    for _ in range(40):
        state = tab.state()
        if state["to_move"] != seat or state["status"] == "over":
            return
        text = next(
            (a["text"] for a in state["legal"] if a["text"] in ("end", "pass")),
            state["legal"][-1]["text"],
        )
        tab.page.evaluate("t => window.velvet.connection.move(t)", text)
        tab.wait_version(state["version"] + 1)
    raise AssertionError("the turn never passed")


def icon(tab: Tab) -> str:
    return str(tab.page.get_attribute('link[rel="icon"]', "href"))


def test_title_icon_and_notification_follow_your_turn(
    server: WebServer, browser: Any, shots: Path
) -> None:
    created = httpx.post(
        f"{server.url}/api/rooms", json={"game": "vs", "seats": ["human", "human"], "first": "1"}
    ).json()
    mine, theirs = CspTab(browser, DESKTOP), CspTab(browser, DESKTOP)
    # Player 2 signs up (through the page's own cookie jar): the table shows the name
    r = mine.page.request.post(
        f"{server.url}/api/account/signup", data={"name": "Zoe", "password": "correct horse"}
    )
    assert r.status == 201, r.text()
    mine.page.goto(created["invites"][1]["url"])
    mine.page.wait_for_selector(".vs-board .pbar")
    mine.wait_version(0)
    assert not mine.page.title().startswith(MARK)
    assert icon(mine) == "static/icon.svg"
    # the friend claims Player 1 after Zoe sat down: Zoe's table is told (a seats message)
    mine.wait("document.querySelector('.bar .players').innerText.includes('Open seat')")
    theirs.page.goto(created["invites"][0]["url"])
    theirs.page.wait_for_selector(".vs-board .pbar")
    theirs.wait_version(0)
    mine.wait("document.querySelector('.bar .players').innerText.includes('Guest')")
    for tab, me in ((mine, "Zoe (you)"), (theirs, "Guest (you)")):
        names = " ".join(tab.page.locator(".bar .players").inner_text().split())
        assert me in names
        assert "Player 1: Guest" in names and "Player 2: Zoe" in names, names
        deciding = tab.page.locator(".bar .players .deciding").inner_text()
        assert deciding.startswith("Player 1: Guest") and "deciding" in deciding

    # the turn comes to Zoe: title and icon say so (the tab is in front: no notification)
    play_until_turn_passes(theirs, 0)
    mine.wait(f"document.title.startsWith({MARK!r})", timeout=15_000)
    assert mine.page.title() == MARK + "Velvet · room " + created["room"]
    assert icon(mine).startswith("data:image/svg+xml,")
    # the header's Your games link counts this game now
    mine.wait("document.querySelector('#games-link .count')?.innerText === '1'")
    assert "circle" in icon(mine)  # icon.svg with its dot
    assert not theirs.page.title().startswith(MARK) and icon(theirs) == "static/icon.svg"
    assert theirs.page.locator(".bar .who").inner_text() == "Zoe (Player 2) decides"
    mine.page.screenshot(path=str(shots / "your-turn-vs-1280x720.png"))
    # nobody clicked: the browser was never asked, nothing was shown
    assert mine.page.evaluate("[window.__asked, window.__shown.length]") == [0, 0]

    # Zoe plays: it is not her turn any more, title and icon go back
    play_until_turn_passes(mine, 1)
    mine.wait(f"!document.title.startsWith({MARK!r})")
    assert mine.page.title() == "Velvet · room " + created["room"]
    assert icon(mine) == "static/icon.svg"

    # Zoe turns notifications on in the Look menu: the click asks the browser, once
    mine.page.click(".look-menu summary")
    mine.page.check("#look-notify")
    mine.wait("window.__asked === 1")
    assert mine.page.is_checked("#look-notify")
    mine.page.click(".look-menu summary")
    # in the background, her next turn is a notification
    mine.page.evaluate("window.__tab(true)")
    play_until_turn_passes(theirs, 0)
    mine.wait("window.__shown.length === 1", timeout=15_000)
    shown = mine.page.evaluate("window.__shown[0]")
    assert shown["title"] == "Your turn — Velvet" and created["room"] in shown["body"]
    assert mine.page.title().startswith(MARK)
    # seen again and played; the next turn while the tab is in front shows none
    mine.page.evaluate("window.__tab(false)")
    play_until_turn_passes(mine, 1)
    play_until_turn_passes(theirs, 0)
    mine.wait(f"document.title.startsWith({MARK!r})", timeout=15_000)
    assert mine.page.evaluate("[window.__asked, window.__shown.length]") == [1, 1]
    # a reload keeps the choice and asks nothing
    mine.page.reload()
    mine.page.wait_for_selector(".vs-board .pbar")
    mine.wait(f"document.title.startsWith({MARK!r})", timeout=15_000)
    assert mine.page.evaluate("window.__asked") == 0
    mine.page.click(".look-menu summary")
    assert mine.page.is_checked("#look-notify")

    # two more games of Zoe's: one she resigned (finished), one a bot plays first
    # (the bot's game is a correspondence game, a day per move: the list says so, singular)
    bodies = (
        {"game": "vs", "first": "1"},
        {"game": "vs", "seats": ["human", "hard"], "days_per_move": 1},
    )
    for body in bodies:
        other = mine.page.request.post(f"{server.url}/api/rooms", data=body).json()
        mine.page.goto(other["invites"][0]["url"])
        mine.page.wait_for_selector(".vs-board .pbar")
        mine.wait_version(0)
        if body.get("first") == "1":
            mine.page.evaluate("window.velvet.connection.resign()")
            mine.page.locator(".banner").wait_for(state="visible")
    # the correspondence table says how long the decision may take, in hours and minutes
    mine.wait("/^23 h 5\\d min left$/.test(document.querySelector('.bar .timer').innerText)")
    # "Your games": the game is listed with "Your move" first, linked back to the table
    games = CspTab(browser, DESKTOP)
    games.context.add_cookies(mine.context.cookies())  # Zoe signed in on another device
    row = f".game-list > li[data-room='{created['room']}']"
    for tab in (mine, games):
        tab.page.goto(f"{server.url}/games")
        tab.page.wait_for_selector(".your-games .game-list")
        words = tab.page.locator(".game-list > li .turn-word").all_inner_texts()
        assert words[0] == "Your move" and words[-1] == "Finished", words
        assert "resigned" in tab.page.locator(".game-list > li.finished .result").inner_text()
        assert tab.page.locator(row).locator(".turn-word").inner_text() == "Your move"
        assert "against Guest" in tab.page.locator(row).inner_text()
    deadline = mine.page.locator(f".game-list > li[data-room='{other['room']}'] .deadline")
    assert deadline.inner_text().startswith("1 day per move · "), deadline.inner_text()
    # this browser holds the seat: the link plays it; the other device may only watch
    link = mine.page.locator(f"{row} a")
    assert link.inner_text() == "Play your move"
    assert "held on another device" in games.page.locator(row).inner_text()
    assert mine.page.locator(".game-list > li.your-move").count() >= 1
    count = mine.page.locator("#games-link .count").inner_text()  # the header counts them
    assert count == str(mine.page.locator(".game-list > li.your-move").count())
    mine.page.screenshot(path=str(shots / "your-games-1280x720.png"))
    mine.page.set_viewport_size(PHONE)
    mine.page.screenshot(path=str(shots / "your-games-390x844.png"), full_page=True)
    mine.no_sideways_scroll()
    mine.page.set_viewport_size(DESKTOP)
    link.click()
    mine.page.wait_for_selector(".vs-board .pbar")
    assert mine.page.evaluate("window.velvet.welcome.seat") == 1
    for tab in (mine, theirs, games):
        tab.close()


def test_a_second_device_and_a_late_spectator_get_the_log_so_far(
    server: WebServer, browser: Any
) -> None:
    created = httpx.post(
        f"{server.url}/api/rooms", json={"game": "p5", "seats": ["human", "easy"]}
    ).json()
    first = CspTab(browser, DESKTOP)
    first.page.goto(created["invites"][0]["url"])
    first.page.wait_for_selector(".layout .board")
    first.wait_version(0)
    names = " ".join(first.page.locator(".bar .players").inner_text().split())
    assert "Player 1: Guest (you)" in names and "Player 2: Bot (easy)" in names, names
    for _ in range(8):  # a few moves of Player 1 (the bot plays its own)
        state = first.state()
        if state["to_move"] != 0:
            first.wait("window.velvet.state.to_move === 0 || window.velvet.state.status === 'over'")
            state = first.state()
        if state["status"] == "over":
            break
        first.page.evaluate("t => window.velvet.connection.move(t)", state["legal"][0]["text"])
        first.wait_version(state["version"] + 1)
    lines = first.page.locator(".log-list li").all_inner_texts()
    assert len(lines) >= 8
    # the seat moves to a second device: its log starts where the first one's did
    first.page.get_by_role("button", name="Move this seat to another device").click()
    code_link = first.page.get_by_label("One-time link for the other device").input_value()
    second = CspTab(browser, PHONE)
    second.page.goto(code_link)
    second.page.wait_for_selector(".layout .board")
    second.wait("document.querySelectorAll('.log-list li').length > 0")
    assert second.page.locator(".log-list li").all_inner_texts()[: len(lines)] == lines[-150:]
    first.page.get_by_role("alert").wait_for()  # the first device only watches from now on
    # and a spectator who comes late reads the game from its first line
    watcher = CspTab(browser, DESKTOP)
    watcher.page.goto(f"{server.url}/join/{created['room']}?seat=watch")
    watcher.page.wait_for_selector(".layout .board")
    watcher.wait("document.querySelectorAll('.log-list li').length > 0")
    seen = watcher.page.locator(".log-list li").all_inner_texts()
    assert seen[0] == lines[0] and len(seen) >= len(lines)
    for tab in (first, second, watcher):
        tab.close()
