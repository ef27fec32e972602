"""The Hint and Forecast buttons in the browser, at 1280x720 and 390x844.

Hint shows "thinking" in a live region, then the hard bot's three choices with their
chance ± margin and reason; a click on one marks and focuses its action button and plays
nothing. P5's Forecast shows the chance to beat the boss with its interval. The buttons
are there only where the room gives hints and it is your decision.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import LiveServer
from tests.web.conftest import Tab, WebServer
from velvet.server import room_rows
from velvet.server.app import Settings
from velvet.server.hinting import HintSettings

DESKTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}


def _create(server: WebServer, **body: Any) -> dict[str, Any]:
    answer = httpx.post(f"{server.url}/api/rooms", json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def _open(tab: Tab, url: str) -> None:
    tab.page.goto(url)
    tab.page.wait_for_selector(".p5-board .actable, .vs-board .pbar")
    tab.wait_version(0)


def test_hint_shows_three_choices_and_points_at_one(
    server: WebServer, browser: Any, shots: Path
) -> None:
    created = _create(server, game="p5")
    tab = Tab(browser, DESKTOP)
    page = tab.page
    _open(tab, created["invites"][0]["url"])
    button = page.get_by_role("button", name="Hint")
    assert button.get_attribute("aria-keyshortcuts") == "H"
    assert page.locator(".hint-panel").get_attribute("aria-live") == "polite"
    button.click()
    # "Thinking…" while the search runs (or, if it was quicker than this look, the answer)
    page.wait_for_selector(".hint-thinking, .hint-list")
    choices = page.locator(".hint-list .hint-choice")
    choices.nth(2).wait_for()
    assert choices.count() == 3
    # whose play each chance assumes is said beside it (hint and forecast: the easy bot)
    head = page.locator(".hint-head").inner_text()
    assert "if every seat plays on like the easy bot (MCTS, 30 simulations a move)" in head
    legal = {a["text"]: a["label"] for a in tab.state()["legal"]}
    texts = choices.evaluate_all("bs => bs.map(b => b.dataset.action)")
    for i, text in enumerate(texts):
        assert text in legal
        item = choices.nth(i)
        assert item.locator(".hint-label").inner_text() == legal[text]
        assert "% ± " in item.locator(".hint-win").inner_text()
        assert "simulations)" in item.locator(".hint-reason").inner_text()
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "p5-hint-1280x720.png"))
    choices.nth(1).click()
    marked = page.locator(f'button.action[data-action="{texts[1]}"]')
    assert "hinted" in (marked.get_attribute("class") or "")
    assert page.evaluate("document.activeElement.dataset.action") == texts[1]
    assert tab.state()["version"] == 0  # pointing at a choice plays nothing
    page.screenshot(path=str(shots / "p5-hint-chosen-1280x720.png"))

    page.locator("body").click(position={"x": 5, "y": 5})  # the keys act outside inputs
    page.keyboard.press("f")
    rate = page.locator(".forecast-rate")
    rate.wait_for(timeout=30_000)
    forecast = page.locator(".hint-panel").inner_text()
    assert (
        "chance to beat the boss by day 28 if every seat plays like the easy bot "
        "(MCTS, 30 simulations a move)" in forecast
    )
    assert "The hints assume the same play, after their move." in forecast
    # the server's 3 s now fit one or two games of easy (a search): "1 game" or "2 games"
    assert "95% interval" in forecast and re.search(r"\d+ games? played from your view", forecast)
    page.screenshot(path=str(shots / "p5-forecast-1280x720.png"))
    hint_asks = [m for m in tab.sent if '"hint"' in m or '"forecast"' in m]
    assert len(hint_asks) == 2
    tab.close()


VS_SEED = 1
"""The phone test's deal: its first decision has 4 actions. A random seed gave only 2 (end,
or summon the one persona in hand) once in 70 deals, and so only 2 choices to wait for."""


def test_hint_at_phone_width_by_key(
    server: WebServer, browser: Any, shots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(room_rows, "draw_seed", lambda: VS_SEED)  # the server is in-process
    created = _create(server, game="vs", seats=["human", "random"], first="1")
    tab = Tab(browser, PHONE)
    page = tab.page
    _open(tab, created["invites"][0]["url"])
    assert len(tab.state()["legal"]) > 3
    assert page.locator(".forecast-button").count() == 0  # Persona VS has no forecast
    page.keyboard.press("h")
    page.locator(".hint-list .hint-choice").nth(2).wait_for()
    assert page.locator(".hint-list .hint-choice").count() == 3
    # VS's easy is greedy with 5 samples (its spec's levels), and the words say so
    head = page.locator(".hint-head").inner_text()
    assert "if every seat plays on like the easy bot (greedy, 5 samples a move)" in head
    tab.no_sideways_scroll()
    page.locator(".hint-panel").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "vs-hint-390x844.png"))
    tab.close()


def test_no_hint_button_where_the_room_gives_none(server: WebServer, browser: Any) -> None:
    created = _create(server, game="vs", seats=["human", "human"], first="1")
    tab = Tab(browser, DESKTOP)
    page = tab.page
    _open(tab, created["invites"][0]["url"])
    assert page.evaluate("window.velvet.welcome.hints") is False
    assert page.locator(".hint-button").count() == 0
    page.keyboard.press("h")  # the key does nothing either
    page.wait_for_timeout(300)
    assert not [m for m in tab.sent if '"hint"' in m]
    tab.close()


def test_the_lobby_sets_the_rooms_hints(server: WebServer, browser: Any) -> None:
    tab = Tab(browser, DESKTOP)
    page = tab.page
    page.goto(f"{server.url}/")
    page.wait_for_selector("form.create-form")
    page.select_option("#game", "p5")
    page.select_option("#seat_2", "none")
    page.click("details.more summary")
    assert page.locator("#hints").input_value() == "auto"
    page.select_option("#hints", "off")
    page.click("button[type=submit]")
    page.wait_for_selector(".invites")
    invite = page.locator(".invites input.link").first.input_value()
    _open(tab, invite)
    assert page.evaluate("window.velvet.welcome.hints") is False
    assert page.locator(".hint-button").count() == 0
    tab.close()


@pytest.fixture
def slow_server(tmp_path: Path) -> Iterator[LiveServer]:
    """Hints that think 20 seconds (long enough to cancel), forecasts of one game."""
    hints = HintSettings(budget="20s", workers=0, forecast_games=1)
    settings = Settings(db=f"sqlite:///{tmp_path / 'slow.sqlite3'}", bot_workers=0, hints=hints)
    with LiveServer(settings) as live:
        yield live


def test_esc_or_the_hint_button_again_cancels_a_hint(
    slow_server: LiveServer, browser: Any, shots: Path
) -> None:
    answer = httpx.post(f"{slow_server.url}/api/rooms", json={"game": "p5"})
    tab = Tab(browser, DESKTOP)
    page = tab.page
    _open(tab, answer.json()["invites"][0]["url"])
    button = page.locator(".hint-button")
    panel = page.locator(".hint-panel")

    def received(kind: str) -> int:
        return sum(json.loads(m)["type"] == kind for m in tab.received)

    page.keyboard.press("h")
    page.wait_for_selector(".hint-thinking")
    assert button.get_attribute("aria-pressed") == "true"  # pressing it again cancels
    assert page.locator(".forecast-button").is_disabled()
    assert "Cancel" in page.locator(".hint-cancel").inner_text()
    page.screenshot(path=str(shots / "p5-hint-thinking-1280x720.png"))
    page.keyboard.press("Escape")
    page.wait_for_function("() => document.querySelector('.hint-panel').hidden")
    page.wait_for_function(
        "() => !document.querySelector('.hint-button').disabled"
        " && document.querySelector('.hint-button').getAttribute('aria-pressed') === 'false'"
    )
    page.wait_for_timeout(200)
    assert received("hint_cancelled") == 1

    button.click()  # asks
    page.wait_for_selector(".hint-thinking")
    button.click()  # and again: cancels
    assert panel.is_hidden()
    assert page.evaluate("document.activeElement.classList.contains('hint-button')")

    page.keyboard.press("f")  # the server freed the slot at once: a forecast is taken
    page.locator(".forecast-rate").wait_for(timeout=15_000)
    sent = [json.loads(m)["type"] for m in tab.sent]
    assert sent.count("hint") == 2 and sent.count("hint_cancel") == 2
    assert sent.count("forecast") == 1
    assert received("hint") == 0 and received("hint_cancelled") == 2
    assert not [m for m in tab.received if '"error"' in m]  # no refusal along the way
    tab.close()
