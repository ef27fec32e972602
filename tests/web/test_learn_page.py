"""The Learn page: the lobby's link, the lesson list and a lesson played by clicking, over
the GET endpoints of ``velvet.learn.web`` (the same words as ``velvet learn``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from tests.web.conftest import Tab, WebServer

DESKTOP = {"width": 1280, "height": 720}


def test_the_endpoints_list_lessons_answer_moves_and_refuse_bad_input(server: WebServer) -> None:
    listed = httpx.get(f"{server.url}/api/learn/p5").json()
    assert listed["title"] == "Persona 5 board game" and len(listed["lessons"]) == 12
    assert listed["lessons"][0] == {
        "id": "01-first-turn",
        "title": "Your first turn",
        "rules": ["P5-DAY-2", "P5-VISIT-1"],
    }
    url = f"{server.url}/api/learn/p5/01-first-turn"
    start = httpx.get(url).json()
    assert start["played"] == [] and not start["solved"] and "Castle of Lust" in start["board"]
    assert [c["text"] for c in start["choices"]][:2] == ["visit home", "visit sales-clerk"]
    wrong = httpx.get(url, params={"try": "visit sales-clerk"}).json()
    assert wrong["played"] == [] and wrong["message"][1].startswith("Rule P5-VISIT-1: Move to")
    solved = httpx.get(url, params={"try": "visit home"}).json()
    assert solved["solved"] and solved["played"] == ["visit home"] and solved["choices"] == []
    off = httpx.get(url, params={"played": "visit sales-clerk"})
    assert off.status_code == 400 and "not a move along" in off.json()["message"]
    assert httpx.get(f"{server.url}/api/learn/p5/nope").status_code == 404
    assert httpx.get(f"{server.url}/api/learn/chess").status_code == 404
    vs = httpx.get(f"{server.url}/api/learn/vs/03-one-more", params={"try": "use garu"}).json()
    assert vs["solved"] and vs["played"] == ["skill m 010 0", "pass"]


def test_a_lesson_is_played_by_clicking_from_the_lobby(
    server: WebServer, browser: Any, shots: Path
) -> None:
    tab = Tab(browser, DESKTOP)
    page = tab.page
    page.goto(f"{server.url}/")
    page.click("a[href=learn]")
    page.click("a[href='learn/p5']")
    page.wait_for_selector("button.lesson-pick")
    assert "0 of 12 done" in page.inner_text(".learn-body").lower()
    page.click("button[data-lesson='01-first-turn']")
    page.click("button.action[data-action='visit sales-clerk']")
    page.wait_for_selector(".learn-rule")
    assert page.inner_text(".learn-rule").startswith("Rule P5-VISIT-1:")
    assert "Not this time" in page.inner_text(".learn-feedback")
    assert "null" not in page.inner_text(".learn-body")
    page.screenshot(path=str(shots / "learn-feedback-1280x720.png"), full_page=True)
    page.click("button.action[data-action='visit home']")
    page.wait_for_selector(".learn-success")
    assert "Home flipped your spent Stamina" in page.inner_text(".learn-success")
    page.click("text=All lessons")
    assert "1 of 12 done" in page.inner_text(".learn-body").lower()
    assert page.inner_text("button[data-lesson='01-first-turn']").startswith("✓")
    tab.close()


def test_the_learn_page_fits_a_phone_without_sideways_scrolling(
    server: WebServer, browser: Any, shots: Path
) -> None:
    tab = Tab(browser, {"width": 390, "height": 844})
    page = tab.page
    page.goto(f"{server.url}/learn/vs")
    page.click("button[data-lesson='05-react']")
    page.click("button.action[data-action='pass']")
    page.wait_for_selector(".learn-rule")
    assert "Player 2 (you)" in page.inner_text(".learn-board")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(shots / "learn-vs-390x844.png"), full_page=True)
    tab.close()
