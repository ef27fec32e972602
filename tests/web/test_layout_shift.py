"""The page does not jump as it loads (issue 28, Lighthouse's layout shift): a table on a
phone is drawn once its first state, its board module and the board's style sheet are all
here, and nothing in the header moves as its links, the room's tools and the connection's
word arrive. Measured by the browser's own Layout Instability API on a slow phone (the
network and the CPU throttled as Lighthouse's mobile run does); and on a tablet, the room's
tools keep each button on one line."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web.conftest import WebServer

PHONE = {"width": 412, "height": 823}  # Lighthouse's mobile screen
SLOW = {"latency": 150, "downloadThroughput": 200_000, "uploadThroughput": 90_000}  # ms, B/s
SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.hadRecentInput) continue;
    const what = e.sources.map((s) => (s.node && (s.node.className || s.node.nodeName)) || "?");
    window.__shifts.push({ at: Math.round(e.startTime), value: e.value, what });
  }
}).observe({ type: "layout-shift", buffered: true });
"""
GOOD = 0.05  # Lighthouse calls 0.1 good; a table that draws in one go stays far below


def _invite(server: WebServer, game: str) -> str:
    made = httpx.post(f"{server.url}/api/rooms", json={"game": game, "listed": False})
    assert made.status_code == 201, made.text
    return str(made.json()["invites"][0]["url"])


@pytest.mark.parametrize("game", ["vs", "p5"])
def test_a_table_on_a_slow_phone_does_not_jump_as_it_loads(
    server: WebServer, browser: Any, game: str
) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, **SLOW})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    page.add_init_script(SHIFTS)
    page.goto(_invite(server, game))
    page.wait_for_selector(f".table:not(.pending) .{game}-board", timeout=30_000)
    page.wait_for_timeout(1500)  # the cards' pictures and the header's links have come
    shifts = page.evaluate("window.__shifts")
    total = sum(s["value"] for s in shifts)
    assert total < GOOD, f"layout shift {total:.3f}: {shifts}"
    # the table was never shown half drawn: the board came with the first sight of it
    assert page.locator(".board-missing").count() == 0
    context.close()


def test_on_a_tablet_the_room_tools_keep_each_button_on_one_line(
    server: WebServer, browser: Any
) -> None:
    for width in (700, 1000):
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        page.goto(_invite(server, "vs"))
        page.wait_for_selector(".table:not(.pending) .vs-board")
        page.wait_for_selector("#room-tools button")
        heights = page.locator("#room-tools button").evaluate_all(
            "bs => bs.map((b) => b.getBoundingClientRect().height)"
        )
        line = page.evaluate("parseFloat(getComputedStyle(document.body).lineHeight) || 24")
        assert heights and max(heights) < 2 * line, (width, heights)  # one line each
        context.close()
