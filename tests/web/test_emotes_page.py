"""Emotes at the table (issue 25, chat): between two people each table has a "Say…" menu of
preset emotes; one said reaches the other table as a toast, a player can mute the other
side's, and a table against a bot offers none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from tests.web.conftest import Tab, WebServer

DESKTOP = {"width": 1280, "height": 720}


def _seat(tab: Tab, url: str) -> None:
    tab.page.goto(url)
    tab.page.wait_for_selector(".table:not(.pending) .vs-board")
    tab.wait_version(0)


def test_an_emote_said_at_one_table_is_a_toast_at_the_other_and_can_be_muted(
    server: WebServer, browser: Any, shots: Path
) -> None:
    room = httpx.post(
        f"{server.url}/api/rooms", json={"game": "vs", "seats": ["human", "human"]}
    ).json()
    mine, theirs = Tab(browser, DESKTOP), Tab(browser, DESKTOP)
    _seat(mine, room["invites"][0]["url"])
    menu = mine.page.locator(".bar .emote-menu")
    assert menu.count() == 0  # nobody to say it to while the other seat is open
    _seat(theirs, room["invites"][1]["url"])
    menu.wait_for(timeout=10_000)  # the other player came: the menu with them
    menu.locator("summary").click()
    words = menu.locator(".emote-list button").all_inner_texts()
    assert words == [
        "Hello!",
        "Good luck!",
        "Nice move!",
        "Well played!",
        "Oops!",
        "Thinking…",
        "Good game!",
    ]
    mine.page.screenshot(path=str(shots / "emote-menu-1280x720.png"))
    menu.locator("button[data-emote=good_luck]").click()
    assert not menu.evaluate("d => d.open")  # the menu closes once one is said
    toast = theirs.page.locator("#toasts", has_text="Player 1: Good luck!")
    toast.wait_for(timeout=10_000)
    sent = [f for f in mine.sent if '"emote"' in f]
    assert sent == ['{"v":1,"type":"emote","emote":"good_luck"}'], sent
    # the other player mutes emotes: the next one is not shown there (but is here)
    theirs.page.locator(".bar .emote-menu summary").click()
    theirs.page.check("#emote-mute")
    assert theirs.page.evaluate("localStorage.getItem('velvet.muteEmotes')") == "1"
    mine.page.wait_for_timeout(3100)  # one emote every 3 seconds
    mine.page.locator(".bar .emote-menu summary").click()
    mine.page.locator("button[data-emote=well_played]").click()
    mine.page.locator("#toasts", has_text="Player 1: Well played!").wait_for(timeout=10_000)
    theirs.page.wait_for_timeout(500)
    heard = [f for f in theirs.received if '"type":"emote"' in f]
    assert len(heard) == 2  # it came: the page chose not to show it
    assert theirs.page.locator("#toasts", has_text="Well played!").count() == 0
    assert not mine.errors and not theirs.errors, mine.errors + theirs.errors
    mine.close()
    theirs.close()


def test_a_table_against_a_bot_offers_no_emotes(server: WebServer, browser: Any) -> None:
    room = httpx.post(
        f"{server.url}/api/rooms", json={"game": "vs", "seats": ["human", "random"]}
    ).json()
    tab = Tab(browser, DESKTOP)
    _seat(tab, room["invites"][0]["url"])
    assert tab.page.locator(".bar .tools button", has_text="Resign").count() == 1
    assert tab.page.locator(".emote-menu").count() == 0
    tab.close()


def test_a_room_made_without_emotes_offers_none(server: WebServer, browser: Any) -> None:
    tab = Tab(browser, DESKTOP)
    tab.page.goto(f"{server.url}/")
    tab.page.wait_for_selector("form.create-form")
    tab.page.select_option("#game", "vs")
    tab.page.select_option("#seat_2", "human")
    tab.page.click("details.more summary")
    assert tab.page.is_checked("#emotes")  # on unless turned off
    tab.page.uncheck("#emotes")
    tab.page.click("button[type=submit]")
    tab.page.wait_for_selector(".invites")
    links = tab.page.locator(".invites input.link").evaluate_all("ls => ls.map(l => l.value)")
    mine, theirs = Tab(browser, DESKTOP), Tab(browser, DESKTOP)
    _seat(mine, links[0])
    _seat(theirs, links[1])
    assert mine.page.evaluate("window.velvet.welcome.emotes") is False
    mine.page.wait_for_function(  # the other player is here (seat 2 no longer open)
        "() => [...document.querySelectorAll('.player-name')].map(n => n.textContent)"
        ".join() === 'Guest,Guest'"
    )
    assert mine.page.locator(".bar .tools button", has_text="Resign").count() == 1
    assert mine.page.locator(".emote-menu").count() == 0
    for t in (tab, mine, theirs):
        t.close()


def test_a_room_with_text_chat_carries_a_line_as_text_to_the_other_table(
    server: WebServer, browser: Any, shots: Path
) -> None:
    room = httpx.post(
        f"{server.url}/api/rooms",
        json={"game": "vs", "seats": ["human", "human"], "chat": True, "emotes": False},
    ).json()
    mine, theirs = Tab(browser, DESKTOP), Tab(browser, DESKTOP)
    _seat(mine, room["invites"][0]["url"])
    _seat(theirs, room["invites"][1]["url"])
    menu = mine.page.locator(".bar .emote-menu")
    menu.wait_for(timeout=10_000)  # emotes are off, text chat on: the menu holds the box
    menu.locator("summary").click()
    assert menu.locator(".emote-list button[data-emote]").count() == 0
    line = "<img src=x onerror=\"document.title='owned'\"> see you at the palace"
    mine.page.fill("#chat-line", line)
    mine.page.screenshot(path=str(shots / "chat-1280x720.png"))
    mine.page.press("#chat-line", "Enter")
    said = f"Player 1: {line}"
    theirs.page.locator("#toasts", has_text=said).wait_for(timeout=10_000)
    logged = theirs.page.locator(".log-list .ev-chat")
    assert logged.all_inner_texts() == [said]  # the words, as written, in the log too
    assert theirs.page.locator(".log-list img, #toasts img").count() == 0  # text, not markup
    assert theirs.page.title() != "owned"
    assert mine.page.input_value("#chat-line") == ""
    assert not mine.errors and not theirs.errors, mine.errors + theirs.errors
    mine.close()
    theirs.close()
