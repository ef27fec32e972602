"""A seat belongs to the browser that claimed its invite (issue 25), in two real browser
contexts (two browsers as far as the server can tell: no storage is shared): the room's
creator cannot see or move for a seat a friend claimed, a second claim of an invite is
refused for all to see, the invite leaves the address bar, a one-time link moves a seat,
a background tab's title says "Your turn", and the page's CSP blocks an injected script."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from tests.web.conftest import Tab, WebServer

DESKTOP = {"width": 1280, "height": 720}


def _lobby_room(host: Tab, server: WebServer, one_screen: bool = False) -> dict[str, str]:
    """Make a VS room between two people in the host's lobby; its invite links by seat."""
    page = host.page
    page.goto(f"{server.url}/")
    page.wait_for_selector("form.create-form")
    page.select_option("#game", "vs")
    page.select_option("#seat_2", "human")
    page.select_option("#first", "2")  # Player 2 (the friend) moves first
    if one_screen:
        page.click("details.more summary")
        page.check("#hotseat")
    page.click("button[type=submit]")
    page.wait_for_selector(".invites")
    links = page.locator(".invites input.link")
    if one_screen:  # both invites were claimed here at once: only the spectators' link
        assert links.count() == 1
        return {}
    return {"p1": links.nth(0).input_value(), "p2": links.nth(1).input_value()}


def _welcomes(tab: Tab) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, tab.received) if m["type"] in ("welcome", "error")]


def test_the_host_cannot_see_or_move_for_the_seat_a_friend_claimed(
    server: WebServer, browser: Any, shots: Path
) -> None:
    host, friend = Tab(browser, DESKTOP), Tab(browser, DESKTOP)
    links = _lobby_room(host, server)
    # the host's own seat: the only "Play as" of a room that is not one-screen
    assert host.page.locator(".invites a.primary").count() == 1
    assert host.page.evaluate("localStorage.getItem('velvet.seats')") in (None, "[]")
    host.page.click(".invites a.primary")
    host.page.wait_for_selector(".vs-board .pbar")
    host.wait_version(0)
    assert host.page.evaluate("location.hash") == ""  # the invite left the address bar
    friend.page.goto(links["p2"])
    friend.page.wait_for_selector(".vs-board .pbar")
    friend.wait_version(0)
    assert friend.page.evaluate("location.hash") == ""
    assert friend.page.evaluate("window.velvet.welcome.seat") == 1

    # The host holds its own seat's secret only: no "Play as Player 2" to pick.
    saved = json.loads(host.page.evaluate("localStorage.getItem('velvet.seats')"))
    assert [s["seat"] for s in saved] == [0]
    assert links["p2"].split("#")[1] not in json.dumps(saved)
    assert host.page.locator(".seat-picker").count() == 0
    tools = host.page.locator("#room-tools").inner_text()
    assert " ".join(tools.split()) == "Copy spectator link Move this seat to another device"
    host.page.screenshot(path=str(shots / "seat-host-table-1280x720.png"))
    assert host.page.evaluate("window.velvet.state.legal.length") == 0  # Player 2 moves
    # Opening Player 2's invite in the host's browser is refused, saying it was used.
    spy = host.context.new_page()
    spy.goto(links["p2"])
    alert = spy.get_by_role("alert")
    alert.wait_for()
    assert "already used" in alert.inner_text()
    spy.screenshot(path=str(shots / "seat-invite-used-1280x720.png"))
    spy.close()
    # Every welcome the host's browser got was for its own seat; it never saw a hand but its own.
    assert {m.get("seat") for m in _welcomes(host) if m["type"] == "welcome"} == {0}
    for state in (m for m in map(json.loads, host.received) if m["type"] == "state"):
        assert state["legal"] == [] or state["to_move"] == 0
    host.close()
    friend.close()


def test_a_second_claim_is_refused_so_a_host_who_opened_it_is_exposed(
    server: WebServer, browser: Any, shots: Path
) -> None:
    host, friend = Tab(browser, DESKTOP), Tab(browser, DESKTOP)
    links = _lobby_room(host, server)
    host.page.goto(links["p2"])  # the host opens the friend's link first …
    host.page.wait_for_selector(".vs-board .pbar")
    friend.page.goto(links["p2"])  # … so the friend is told
    alert = friend.page.get_by_role("alert")
    alert.wait_for()
    assert "this invite was already used." in alert.inner_text().lower()
    friend.page.screenshot(path=str(shots / "seat-second-claim-1280x720.png"))
    # what the friend saw came from the server: invite_used, and no welcome to the seat
    assert [m["code"] for m in _welcomes(friend)] == ["invite_used"]
    room = links["p2"].split("/join/")[1].split("#")[0]
    seats = httpx.get(f"{server.url}/api/rooms/{room}").json()["seats"]
    assert [s["claimed"] for s in seats] == [False, True]
    host.close()
    friend.close()


def test_one_screen_rooms_offer_every_seat_and_say_so(server: WebServer, browser: Any) -> None:
    host = Tab(browser, DESKTOP)
    _lobby_room(host, server, one_screen=True)
    assert host.page.locator(".invites a.primary").count() == 2
    saved = json.loads(host.page.evaluate("localStorage.getItem('velvet.seats')"))
    assert sorted(s["seat"] for s in saved) == [0, 1] and all(s["secret"] for s in saved)
    host.page.goto(f"{server.url}/")
    host.page.wait_for_selector(".rooms .one-screen")  # the listing says one screen
    host.page.get_by_role("link", name="Rejoin as Player 2").first.click()
    host.page.wait_for_selector(".vs-board .pbar")
    assert host.page.locator("#room-tools .one-screen").is_visible()
    host.page.select_option(".seat-picker", label="Play as Player 1")
    host.page.wait_for_function("window.velvet.welcome && window.velvet.welcome.seat === 0")
    assert "#" not in host.page.url  # switching seats never puts a secret in the address
    host.close()


def test_a_one_time_link_moves_the_seat_to_another_browser(server: WebServer, browser: Any) -> None:
    first, second = Tab(browser, DESKTOP), Tab(browser, DESKTOP)
    created = httpx.post(f"{server.url}/api/rooms", json={"game": "vs"}).json()
    first.page.goto(created["invites"][0]["url"])
    first.page.wait_for_selector(".vs-board .pbar")
    first.page.get_by_role("button", name="Move this seat to another device").click()
    link = first.page.get_by_label("One-time link for the other device").input_value()
    second.page.goto(link)
    second.page.wait_for_selector(".vs-board .pbar")
    assert second.page.evaluate("window.velvet.welcome.seat") == 0
    alert = first.page.get_by_role("alert")
    alert.wait_for()
    assert "moved to another device" in alert.inner_text()
    first.page.reload()  # its secret was dropped: it can only watch now
    first.page.wait_for_selector(".vs-board .pbar")
    assert first.page.evaluate("window.velvet.welcome.seat") is None
    first.close()
    second.close()


HIDE = """
(() => {
  let hidden = false;
  Object.defineProperty(document, "hidden", { get: () => hidden });
  const state = () => (hidden ? "hidden" : "visible");
  Object.defineProperty(document, "visibilityState", { get: state });
  window.__tab = (h) => { hidden = h; document.dispatchEvent(new Event("visibilitychange")); };
})();
"""
"""Headless Chromium shows every page as visible: this probe lets the test put the tab in
the background (document.hidden, and the visibilitychange a browser fires)."""


def test_a_background_tab_says_your_turn_in_its_title(server: WebServer, browser: Any) -> None:
    created = httpx.post(
        f"{server.url}/api/rooms", json={"game": "vs", "seats": ["human", "human"], "first": "1"}
    ).json()
    mine, theirs = Tab(browser, DESKTOP), Tab(browser, DESKTOP)
    mine.page.add_init_script(HIDE)
    mine.page.goto(created["invites"][1]["url"])  # Player 2: not its turn yet
    theirs.page.goto(created["invites"][0]["url"])
    for tab in (mine, theirs):
        tab.page.wait_for_selector(".vs-board .pbar")
        tab.wait_version(0)
    assert "Your turn" not in mine.page.title()
    icon = mine.page.get_attribute('link[rel="icon"]', "href")
    mine.page.evaluate("window.__tab(true)")
    for _ in range(30):  # Player 1 plays until the turn passes to Player 2
        state = theirs.state()
        if state["to_move"] != 0:
            break
        text = next(
            (a["text"] for a in state["legal"] if a["text"] in ("end", "pass")),
            state["legal"][-1]["text"],
        )
        theirs.page.evaluate("t => window.velvet.connection.move(t)", text)
        theirs.wait_version(state["version"] + 1)
    mine.page.wait_for_function("document.title.startsWith('● Your turn')", timeout=15_000)
    assert mine.page.get_attribute('link[rel="icon"]', "href") != icon
    assert "Your turn" not in theirs.page.title()
    mine.page.evaluate("window.__tab(false)")  # seen: it is still the tab's turn
    assert mine.page.title() == "● Your turn — Velvet · room " + created["room"]
    # (the title and icon going back when the turn passes: tests/web/test_your_turn.py)
    mine.close()
    theirs.close()


def test_the_policy_blocks_an_injected_inline_script(server: WebServer, browser: Any) -> None:
    """A script that got into the page (say through a card's text) does not run: the CSP
    allows the client's own files only. The context keeps the page's CSP (no bypass)."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    created = httpx.post(f"{server.url}/api/rooms", json={"game": "vs"}).json()
    page.goto(created["invites"][0]["url"])
    page.wait_for_selector(".vs-board .pbar")
    page.evaluate(
        """() => {
          window.violations = [];
          document.addEventListener(
            "securitypolicyviolation", (e) => violations.push(e.violatedDirective));
          const s = document.createElement("script");
          s.textContent = "window.pwned = 1";
          document.body.append(s);
          const div = document.createElement("div");
          div.innerHTML = '<img src="static/icon.svg" onload="window.pwned2 = 1">';
          document.body.append(div);
        }"""
    )
    page.wait_for_function("window.violations.length >= 2", timeout=5_000)
    assert page.evaluate("window.pwned") is None and page.evaluate("window.pwned2") is None
    assert all(v.startswith("script-src") for v in page.evaluate("window.violations"))
    assert refused  # and the browser said why
    context.close()
