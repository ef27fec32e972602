"""Finding a game in the browser (issue 25, part 3), in real browser contexts that share no
storage: two players quick-pair from the lobby and land at the same VS table, each holding
only their own seat; a seek posted in one context is listed in the others and joined with
one click, and its seeker's page opens the table by itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.server.conftest import LiveServer, sqlite_url
from tests.web.conftest import Tab, WebServer
from velvet.server.app import Settings
from velvet.server.matchmaking import MatchSettings

DESKTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}


def _lobby(tab: Tab, server: WebServer, game: str = "vs") -> None:
    tab.page.goto(f"{server.url}/")
    tab.page.wait_for_selector("#finder-game option", state="attached")
    tab.page.select_option("#finder-game", game)


def _seats(tab: Tab) -> list[dict[str, Any]]:
    return list(json.loads(tab.page.evaluate("localStorage.getItem('velvet.seats')") or "[]"))


def _at_table(tab: Tab) -> tuple[str, int]:
    tab.page.wait_for_selector(".vs-board .pbar", timeout=20_000)
    tab.wait_version(0)
    return tab.page.evaluate("window.velvet.welcome.room"), tab.page.evaluate(
        "window.velvet.welcome.seat"
    )


def test_two_browsers_quick_pair_onto_one_table_each_with_only_their_own_seat(
    server: WebServer, browser: Any, shots: Path
) -> None:
    seeker, first, second = Tab(browser, DESKTOP), Tab(browser, DESKTOP), Tab(browser, PHONE)
    # a seek, so that the lobbies show the list
    _lobby(seeker, server)
    seeker.page.click("#post-seek")
    seeker.page.select_option("#seek-player_card-0", "p3")
    seeker.page.click(".seek-form button[type=submit]")
    seeker.page.wait_for_selector(".my-seek")
    seeker.page.screenshot(path=str(shots / "seek-waiting-1280x720.png"))

    _lobby(first, server)
    first.page.wait_for_selector("table.seeks tbody tr")
    row = first.page.locator("table.seeks tbody tr").first.inner_text()
    assert "Makoto Yuki (Persona 3)" in row and "1500?" in row and "anonymous" in row
    first.page.screenshot(path=str(shots / "lobby-seeks-1280x720.png"))
    first.page.click("#quick-pair")
    first.page.wait_for_selector(".finder-wait .wait-line")
    assert "Looking for an opponent" in first.page.locator(".finder-wait").inner_text()
    first.page.screenshot(path=str(shots / "quick-pair-waiting-1280x720.png"))

    _lobby(second, server)
    second.page.wait_for_selector("table.seeks tbody tr")
    second.no_sideways_scroll()
    second.page.screenshot(path=str(shots / "lobby-seeks-390x844.png"), full_page=True)
    second.page.click("#quick-pair")
    room_a, seat_a = _at_table(first)
    room_b, seat_b = _at_table(second)
    assert room_a == room_b and {seat_a, seat_b} == {0, 1}
    # each browser holds its own seat's secret only, and saw no other
    mine_a, mine_b = _seats(first), _seats(second)
    assert [(s["room"], s["seat"]) for s in mine_a] == [(room_a, seat_a)]
    assert [(s["room"], s["seat"]) for s in mine_b] == [(room_b, seat_b)]
    secret_a, secret_b = mine_a[0]["secret"], mine_b[0]["secret"]
    for tab, other in ((first, secret_b), (second, secret_a)):
        assert not any(other in text for text in tab.received)
        assert {m.get("seat") for m in map(json.loads, tab.received) if m["type"] == "welcome"} == {
            tab.page.evaluate("window.velvet.welcome.seat")
        }
    assert first.page.locator(".seat-picker").count() == 0
    second.no_sideways_scroll()
    second.page.screenshot(path=str(shots / "quick-paired-table-390x844.png"))

    # the seek, joined with one click in a fourth browser: the seeker's page follows
    taker = Tab(browser, DESKTOP)
    _lobby(taker, server)
    taker.page.click("button.join-seek")
    room_t, seat_t = _at_table(taker)
    room_s, seat_s = _at_table(seeker)
    assert room_t == room_s and (seat_s, seat_t) == (0, 1)
    for tab in (seeker, first, second, taker):
        tab.close()


def test_leaving_the_queue_in_the_browser(server: WebServer, browser: Any, shots: Path) -> None:
    phone = Tab(browser, PHONE)
    _lobby(phone, server, "p5")
    phone.page.click("#quick-pair")
    phone.page.wait_for_selector(".finder-wait .wait-line")
    phone.no_sideways_scroll()
    phone.page.screenshot(path=str(shots / "quick-pair-waiting-390x844.png"), full_page=True)
    phone.page.click("#queue-leave")
    phone.page.wait_for_selector(".finder-wait", state="hidden")
    assert phone.page.locator("#quick-pair").is_enabled()
    phone.close()


def test_after_the_wait_the_lobby_offers_the_nearest_bot_and_plays_it(
    browser: Any, shots: Path, tmp_path: Path
) -> None:
    settings = Settings(
        db=sqlite_url(tmp_path),
        bot_workers=0,
        rate=1000,
        http_rate=1000,
        matchmaking=MatchSettings(bot_after=1.0),
    )
    with LiveServer(settings) as live:
        tab = Tab(browser, DESKTOP)
        tab.page.goto(f"{live.url}/")
        tab.page.wait_for_selector("#finder-game option", state="attached")
        tab.page.select_option("#finder-game", "vs")
        tab.page.click("#quick-pair")
        tab.page.wait_for_selector("#play-bot", timeout=20_000)
        offer = tab.page.locator(".bot-offer").inner_text()
        assert "normal bot, rated 1500" in offer and "set at 1500" in offer
        tab.page.screenshot(path=str(shots / "quick-pair-bot-offer-1280x720.png"))
        tab.page.click("#play-bot")
        _, seat = _at_table(tab)
        assert seat == 0
        seats = tab.page.evaluate("window.velvet.welcome.seats")
        assert [s["who"] for s in seats] == ["human", "normal"]
        tab.close()


def test_a_rematch_offered_in_one_browser_is_accepted_in_the_other_seats_swapped(
    server: WebServer, browser: Any, shots: Path
) -> None:
    first, second = Tab(browser, DESKTOP), Tab(browser, DESKTOP)
    for tab in (first, second):
        _lobby(tab, server)
        tab.page.click("#quick-pair")
    room, seat_a = _at_table(first)
    _, seat_b = _at_table(second)
    first.page.evaluate("window.velvet.connection.resign()")
    for tab in (first, second):
        tab.page.wait_for_function("window.velvet.over !== null", timeout=15_000)
    first.page.get_by_role("button", name="Rematch").click()
    offer = second.page.locator("#rematch-offer")
    offer.wait_for(timeout=15_000)
    assert "offers a rematch, seats swapped" in offer.inner_text()
    assert "waiting for the other player" in first.page.locator("#rematch-offer").inner_text()
    second.page.screenshot(path=str(shots / "rematch-offer-1280x720.png"))
    offer.get_by_role("button", name="Accept").click()
    for tab, old in ((first, seat_a), (second, seat_b)):
        tab.page.wait_for_function(
            "r => window.velvet.welcome && window.velvet.welcome.room !== r", arg=room
        )
        _, seat = _at_table(tab)
        assert seat == 1 - old  # swapped
        held = [(s["room"], s["seat"]) for s in _seats(tab)]
        assert (tab.page.evaluate("window.velvet.welcome.room"), seat) in held
    first.close()
    second.close()
