"""Accounts in the browser (issue 25, part 2), in two real contexts under the page's own
Content-Security-Policy (not bypassed): each signs up in the header, both claim the seats
of a rated VS room, one resigns, and the leaderboard and the profile show the new ratings;
a wrong password is refused in words; the pages pass the axe audit."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web.conftest import Tab, WebServer
from tests.web.test_accessibility import FAILING, _axe

DESKTOP = {"width": 1280, "height": 720}


class StrictTab(Tab):
    """A Tab whose page runs under its CSP; any CSP report in the console is an error."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(viewport=DESKTOP)
        self.page = self.context.new_page()
        self.sent: list[str] = []
        self.received: list[str] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "console",
            lambda m: self.errors.append(m.text) if "Content Security Policy" in m.text else None,
        )
        self.page.on("websocket", self._socket)


def _sign(tab: Tab, server: WebServer, name: str, password: str, button: str) -> None:
    page = tab.page
    page.goto(f"{server.url}/")
    page.get_by_role("button", name="Sign in").first.click()
    page.fill("#account-name", name)
    page.fill("#account-password", password)
    page.locator("form.account-form").get_by_role("button", name=button).click()


def test_sign_up_rated_game_leaderboard_and_profile(
    server: WebServer, browser: Any, shots: Any
) -> None:
    ada, bob = StrictTab(browser), StrictTab(browser)
    _sign(ada, server, "Ada", "correct horse", "Sign up")
    ada.page.locator("#account a.me").wait_for()
    assert ada.page.locator("#account a.me").inner_text() == "Ada"
    ada.page.screenshot(path=str(shots / "account-signed-in.png"))
    _sign(bob, server, "Bob", "wrong horse!", "Sign in")  # no such account yet
    alert = bob.page.locator(".account-message")
    alert.wait_for()
    assert alert.inner_text() == "that name and password do not match"
    bob.page.screenshot(path=str(shots / "account-refused.png"))
    bob.page.locator("form.account-form").get_by_role("button", name="Sign up").click()
    bob.page.locator("#account a.me").wait_for()
    cookie = next(c for c in ada.context.cookies() if c["name"] == "velvet_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    assert ada.page.evaluate("document.cookie") == ""  # the session is out of scripts' reach

    room = ada.page.request.post(
        f"{server.url}/api/rooms", data={"game": "vs", "first": "1", "rated": True}
    ).json()
    for tab, invite in zip((ada, bob), room["invites"], strict=True):
        tab.page.goto(invite["url"])
        tab.wait_version(0)
    bob.page.once("dialog", lambda dialog: dialog.accept())
    bob.page.get_by_role("button", name="Resign").click()
    ada.page.locator(".banner").wait_for(state="visible")

    page = ada.page
    for _ in range(50):  # the ratings are written just after the end
        board = httpx.get(f"{server.url}/api/leaderboard?game=vs").json()["players"]
        if len(board) == 2:
            break
        page.wait_for_timeout(100)
    page.get_by_role("link", name="Leaderboard").click()
    rows = page.locator("table.leaderboard tbody tr")
    rows.first.wait_for()
    cells = [" ".join(rows.nth(i).inner_text().split()) for i in range(rows.count())]
    assert cells == ["1 Ada vs 1662? 1", "2 Bob vs 1338? 1"], cells
    page.screenshot(path=str(shots / "account-leaderboard.png"), full_page=True)
    page.get_by_role("link", name="Bob").first.click()
    page.locator("table.games tbody tr").first.wait_for()
    game = " ".join(page.locator("table.games tbody tr").first.inner_text().split())
    assert game.startswith("vs Ada lost") and game.endswith("1500 → 1338"), game
    page.screenshot(path=str(shots / "account-profile.png"), full_page=True)

    bob.page.goto(f"{server.url}/")
    bob.page.get_by_role("button", name="Sign out").click()
    bob.page.get_by_role("button", name="Sign in").wait_for()
    assert not [c for c in bob.context.cookies() if c["name"] == "velvet_session"]
    ada.close()
    bob.close()


@pytest.mark.parametrize("where", ["leaderboard", "players/Ada", "sign-in form"])
def test_account_pages_pass_the_accessibility_audit(
    server: WebServer, browser: Any, where: str
) -> None:
    axe = _axe()
    httpx.post(
        f"{server.url}/api/account/signup", json={"name": "Ada", "password": "correct horse"}
    )
    tab = Tab(browser, DESKTOP)
    page = tab.page
    if where == "sign-in form":
        page.goto(f"{server.url}/")
        page.get_by_role("button", name="Sign in").first.click()
        page.locator("form.account-form").wait_for()
    else:
        page.goto(f"{server.url}/{where}")
        page.locator("section.players h1").wait_for()
    violations = axe.run(page).response["violations"]
    bad = [v for v in violations if v["impact"] in FAILING]
    assert not bad, [(v["id"], v["help"], [n["target"] for n in v["nodes"]]) for v in bad]
    tab.close()


def test_the_lobby_makes_a_rated_room_for_a_game_between_two_people(
    server: WebServer, browser: Any
) -> None:
    """The lobby's "Rated" box (More options) is offered for VS, not for co-op P5, and a
    room created with it is rated; the refusal of a rated room against a bot lands on it."""
    tab = StrictTab(browser)
    page = tab.page
    page.goto(f"{server.url}/")
    page.select_option("#game", "p5")
    page.locator("details.more summary").click()
    assert not page.locator("#rated").is_visible()  # co-op: every seat wins or loses together
    page.select_option("#game", "vs")
    assert page.locator("#rated").is_visible()
    page.check("#rated")
    page.select_option("#seat_2", "normal")
    page.get_by_role("button", name="Create the room").click()
    error = page.locator("#rated-error")
    error.wait_for(state="visible")
    assert "two human seats" in error.inner_text(), error.inner_text()
    page.select_option("#seat_2", "human")
    with page.expect_response(lambda r: r.url.endswith("/api/rooms")) as answer:
        page.get_by_role("button", name="Create the room").click()
    room = answer.value.json()
    assert httpx.get(f"{server.url}/api/rooms/{room['room']}").json()["rated"] is True
    assert tab.errors == []
    tab.close()
