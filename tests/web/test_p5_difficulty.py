"""A P5 difficulty level (a Velvet variant, docs/p5-rules.md) chosen in the lobby's form,
which builds the field from the spec's option with no code of its own, reaches the room:
the calendar names the level and its length, and the boss asks for the level's health."""

from __future__ import annotations

from typing import Any

import httpx

from tests.web.conftest import Tab, WebServer

DESKTOP = {"width": 1280, "height": 720}


def test_a_level_picked_in_the_lobby_reaches_the_table(
    server: WebServer, browser: Any, shots: Any
) -> None:
    tab = Tab(browser, DESKTOP)
    page = tab.page
    page.goto(f"{server.url}/")
    page.wait_for_selector("form.create-form")
    page.select_option("#game", "p5")
    labels = page.locator("#difficulty option").all_inner_texts()
    assert labels[1] == "Standard: the rulebook's game", labels
    page.select_option("#difficulty", "merciless")
    with page.expect_response(lambda r: r.url.endswith("/api/rooms")) as answer:
        page.get_by_role("button", name="Create the room").click()
    room = answer.value.json()
    page.get_by_role("link", name="Play as Player 1").first.click()
    tab.wait_version(0)
    day = page.locator(".p5-day")
    assert " ".join(day.inner_text().split()) == "Day 1 of 22 · 21 left · merciless difficulty"
    view = page.evaluate("window.velvet.state.view")
    assert view["difficulty"] == "merciless" and view["palace"]["alert"] == 25
    info = httpx.get(f"{server.url}/api/rooms/{room['room']}").json()
    assert info["game"] == "p5"
    page.screenshot(path=str(shots / "p5-merciless-1280x720.png"))
    tab.close()
