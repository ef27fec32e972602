"""The daily challenge page (/daily) in the browser, under the page's own CSP: the lobby's
button leads there; Play starts the day's game at the table; the leaderboard lists the
finished game without its room until the day ends, then with its replay."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import LiveServer
from tests.web.test_your_turn import CspTab
from velvet.engine.daily import day_end, day_start
from velvet.server.app import Settings

DESKTOP = {"width": 1280, "height": 800}


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def daily_server(tmp_path: Path) -> Iterator[tuple[LiveServer, Clock]]:
    from datetime import date

    clock = Clock(day_start(date(2026, 12, 2)) + 15 * 3600)
    settings = Settings(
        db=f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_workers=0, rate=1000, http_rate=1000
    )
    settings.clock = clock
    with LiveServer(settings) as live:
        yield live, clock


def test_the_daily_page_starts_the_days_game_and_opens_replays_after_the_day(
    daily_server: tuple[LiveServer, Clock], browser: Any, shots: Path
) -> None:
    server, clock = daily_server
    tab = CspTab(browser, DESKTOP)
    page = tab.page
    page.goto(server.url + "/")
    page.wait_for_selector("a.button[href='daily']")
    page.screenshot(path=str(shots / "lobby-daily-1280x800.png"))
    page.click("a.button[href='daily']")
    page.wait_for_selector(".daily-game .daily-setup li")
    assert "2026-12-02" in page.locator(".daily-game").inner_text()
    assert "ends in 9 h 0 min" in page.locator(".daily-game").inner_text()
    page.wait_for_selector(".daily-board-box p")
    assert "be the first" in page.locator(".daily-board-box").inner_text()
    page.click("text=Play today's challenge")
    page.wait_for_url("**/join/**")
    tab.wait_version(0)
    room = tab.page.evaluate("window.velvet.welcome.room")
    assert tab.page.evaluate("window.velvet.welcome.seat") == 0
    page.evaluate("() => window.velvet.connection.resign()")
    tab.wait("() => window.velvet.state && window.velvet.state.status === 'over'")

    page.goto(server.url + "/daily")
    page.wait_for_selector("table.daily-board tbody tr")
    row = page.locator("table.daily-board tbody tr").first.inner_text()
    assert "Anonymous" in row and "Lost" in row and "after the day" in row
    page.screenshot(path=str(shots / "daily-1280x800.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: no sideways scroll
    tab.no_sideways_scroll()
    page.screenshot(path=str(shots / "daily-390x844.png"), full_page=True)
    page.set_viewport_size(DESKTOP)

    clock.now = day_end_of(clock.now)  # midnight UTC: the day is over
    page.reload()
    page.wait_for_selector(".daily-day input")
    page.fill(".daily-day input", "2026-12-02")
    page.dispatch_event(".daily-day input", "change")
    page.wait_for_selector("table.daily-board a:text('Watch')")
    assert "is over" in page.locator("table.daily-board caption").inner_text()
    href = page.get_attribute("table.daily-board a:text('Watch')", "href")
    assert href == f"join/{room}?replay"
    page.click("table.daily-board a:text('Watch')")
    page.wait_for_selector(".replay-panel:not([hidden])")
    page.screenshot(path=str(shots / "daily-replay-1280x800.png"))
    tab.close()


def day_end_of(now: float) -> float:
    from velvet.engine.daily import day_of

    return day_end(day_of(now))
