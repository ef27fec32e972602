"""The Puzzles page: a puzzle solved by clicking, its rating kept in the browser's storage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import Tab, WebServer, browser, server, shots  # noqa: F401 (fixtures)
from velvet.games import get_game
from velvet.learn.puzzles import load_puzzles


def test_a_puzzle_is_solved_by_clicking_and_rated(
    server: WebServer,  # noqa: F811
    browser: Any,  # noqa: F811
    shots: Path,  # noqa: F811
) -> None:
    first = load_puzzles(get_game("vs"))[0]
    tab = Tab(browser, {"width": 1280, "height": 720})
    page = tab.page
    page.goto(f"{server.url}/puzzles/vs")
    page.wait_for_selector("button.action")
    assert "You are Player" in page.inner_text(".learn-goal")
    assert "(you)" in page.inner_text(".learn-board")
    page.click(f"button.action[data-action='{first.answer}']")
    page.wait_for_selector(".learn-success")
    text = page.inner_text(".puzzle-message")
    assert "✓ Solved" in text and "Why: " in text and "Your rating: " in text
    page.screenshot(path=str(shots / "puzzle-solved-1280x720.png"), full_page=True)
    saved = page.evaluate("JSON.parse(localStorage.getItem('velvet.puzzles'))")
    assert saved["vs"]["solved"] == [first.id] and saved["vs"]["solver"][0] > 1500
    page.click("text=Next:")
    page.wait_for_selector("button.action")
    assert "1 of" in page.inner_text(".puzzle-ratings") and "null" not in page.inner_text("main")
    tab.close()
