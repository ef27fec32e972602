"""The lobby's form is built from ``GET /api/games``: a toy third game's options (a list
and a file), none of which the lobby or the server names, reach the room, and an error
about one lands on its field."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI

import velvet.games
from tests.web.conftest import Tab, WebServer

DESKTOP = {"width": 1280, "height": 720}


def _lobby(server: WebServer, browser: Any) -> Tab:
    """A tab on the lobby, its create-room form drawn."""
    tab = Tab(browser, DESKTOP)
    tab.page.goto(f"{server.url}/")
    tab.page.wait_for_selector("form.create-form")
    return tab


@pytest.fixture
def race(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy race game, with a choice and a file option, registered for this test."""
    monkeypatch.setitem(
        velvet.games.BUILTIN, "race", "tests.server.test_room_config:RACE_WITH_OPTIONS"
    )


def test_a_toy_games_options_are_fields_of_the_lobby_and_reach_its_room(
    server: WebServer, browser: Any, race: None
) -> None:
    tab = _lobby(server, browser)
    page = tab.page
    games = page.locator("#game option").evaluate_all("os => os.map(o => o.value)")
    assert games == ["p5", "vs", "race"]
    page.select_option("#game", "race")
    assert page.locator("legend").inner_text() == "race"
    pace = page.locator("#pace")
    assert pace.evaluate("c => [...c.options].map(o => [o.value, o.textContent])") == [
        ["slow", "slow"],
        ["fast", "fast"],
    ]
    assert pace.input_value() == "slow"  # the option's default
    assert page.locator("label[for=note]").inner_text() == "Note file"
    assert page.locator("#note").get_attribute("type") == "file"
    assert page.locator("#thief_1").count() == 0  # the other games' fields are not shown
    bad = {"name": "n.txt", "mimeType": "text/plain", "buffer": b"bad"}
    page.set_input_files("#note", files=[bad])
    page.click("button[type=submit]")
    error = page.locator("#note-error")
    error.wait_for(state="visible")
    assert error.inner_text() == "note: a bad note"  # the player's name for the file
    assert page.locator("#note").get_attribute("aria-invalid") == "true"
    page.select_option("#pace", "fast")
    good = {"name": "n.txt", "mimeType": "text/plain", "buffer": b"hello"}
    page.set_input_files("#note", files=[good])
    page.click("button[type=submit]")
    page.wait_for_selector(".invites")
    assert error.is_hidden()
    link = page.locator(".invites input.link").first.input_value()
    room = link.split("/join/")[1].split("#")[0]
    app = server.server.config.app
    assert isinstance(app, FastAPI)
    hub = app.state.hub
    stored = hub.storage.load_room(room)
    assert stored is not None and stored[0].config == {"note": "fast: hello"}
    assert not tab.errors, tab.errors
    tab.close()


def test_a_correspondence_room_in_hours_is_made_from_the_form_and_badged_in_the_lobby(
    server: WebServer, browser: Any
) -> None:
    tab = _lobby(server, browser)
    page = tab.page
    page.select_option("#game", "vs")
    page.click("details.more > summary")
    choices = page.locator("#days_per_move option").evaluate_all("os => os.map(o => o.value)")
    assert choices == ["", "h1", "h4", "h12", "d1", "d3", "d7"]
    page.select_option("#days_per_move", "h4")
    page.click("button[type=submit]")
    page.wait_for_selector(".invites")
    link = page.locator(".invites input.link").first.input_value()
    room = link.split("/join/")[1].split("#")[0]
    app = server.server.config.app
    assert isinstance(app, FastAPI)
    stored = app.state.hub.storage.load_room(room)
    assert stored is not None and stored[0].options["hours_per_move"] == 4
    assert stored[0].options["days_per_move"] is None
    page.goto(f"{server.url}/")  # the lobby lists it with its time per move
    badge = page.locator(f".room-list li:has-text('{room}') .badge.correspondence")
    assert badge.inner_text() == "4 hours per move"
    assert not tab.errors, tab.errors
    tab.close()
