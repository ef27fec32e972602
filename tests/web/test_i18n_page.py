"""The browser in Japanese: a browser whose language is Japanese gets the lobby and the table
in Japanese (card names too) from ``GET /api/i18n/ja``, Your games too; the header's menu
switches back."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx

from tests.web.conftest import WebServer

DESKTOP = {"width": 1280, "height": 720}


def test_a_japanese_browser_gets_the_lobby_and_table_in_japanese(
    server: WebServer, browser: Any, shots: Path
) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="ja-JP", bypass_csp=True)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{server.url}/")
        page.wait_for_selector("form.create-form")
        assert page.locator("#language").input_value() == "ja"
        assert page.evaluate("document.documentElement.lang") == "ja"
        assert "新しいゲーム" in page.locator("section.create h2").inner_text()
        assert page.locator("button[type=submit]").inner_text() == "ルームを作成"
        assert page.locator(".look-menu summary").inner_text() == "表示"  # the header's Look
        assert page.locator("#quick-pair").inner_text() == "クイック対戦"  # Find a game
        assert page.locator("#account .sign-in").inner_text() == "サインイン"
        thieves = page.locator("#thief_1 option").all_inner_texts()
        assert any("ジョーカー（雨宮蓮）" in name for name in thieves)
        page.screenshot(path=str(shots / "lobby-ja-1280x720.png"), full_page=True)

        game = page.locator("#game").input_value()
        page.select_option("#seat_2", "none")  # the first game, solo, with its defaults
        page.click("button[type=submit]")
        page.locator(".invites a.primary").first.click()
        page.wait_for_selector(".action-list .action")
        assert page.locator("#actions-title").inner_text().startswith("あなたの行動")
        assert page.locator(".log h2").inner_text() == "ゲームログ"
        labels = " ".join(page.locator(".action-list .label").all_inner_texts())
        # the server writes the labels in the page's language (hello's lang): no English verbs
        assert "を訪れる" in labels and "Visit " not in labels, labels
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", labels)
        names = httpx.get(f"{server.url}/api/i18n/ja").json()["names"][game]
        english = [
            n for n in names if re.search(rf"(?<![A-Za-z0-9]){re.escape(n)}(?![A-Za-z0-9])", labels)
        ]
        assert not english, english
        page.screenshot(path=str(shots / "table-ja-1280x720.png"))

        page.goto(f"{server.url}/games")  # Your games, with the game just made
        page.wait_for_selector(".your-games .game-list")
        assert page.locator(".your-games h1").inner_text() == "あなたのゲーム"
        box = page.locator(".your-games").inner_text()
        assert "あなたの手番" in box and "あなたの席：" in box and "you play" not in box, box
        assert page.title() == "Velvet · あなたのゲーム"

        page.goto(f"{server.url}/")
        page.wait_for_selector("form.create-form")
        page.select_option("#language", "en")  # kept in this browser, the page reloads
        page.wait_for_function("document.documentElement.lang === 'en'")
        page.wait_for_selector("form.create-form")
        assert page.locator("button[type=submit]").inner_text() == "Create the room"
        assert page.evaluate("localStorage.getItem('velvet.lang')") == "en"
    finally:
        context.close()
    assert not errors, errors
