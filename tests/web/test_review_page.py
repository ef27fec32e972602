"""The Review page: ``POST /api/review`` streams one judgement a line, and the page draws
the chance chart (SVG) with the mistakes, from a downloaded record or a finished room."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from tests.web.conftest import Tab, WebServer

DESKTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
RECORD = Path(__file__).parents[1] / "learn" / "data" / "vs-easy-seed5.json"


def _short(moves: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RECORD.read_text())
    data["actions"] = data["actions"][:moves]
    return data


def test_the_endpoint_streams_judgements_and_refuses_bad_records(server: WebServer) -> None:
    answer = httpx.post(f"{server.url}/api/review", json=_short(8), timeout=60)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in answer.text.splitlines()]
    assert lines[0]["type"] == "start" and lines[0]["moves"] == 8 and lines[0]["decisions"] == 8
    assert lines[0]["assumes"].startswith("if both players play on like the easy bot (")
    decisions = [line for line in lines if line["type"] == "decision"]
    assert [d["index"] for d in decisions] == list(range(1, 9))
    assert any(d["judged"] and d["best"]["reason"] for d in decisions)
    assert lines[-1]["type"] == "done"
    again = httpx.post(f"{server.url}/api/review", json={"record": _short(8)}, timeout=60)
    assert again.text == answer.text  # the same record, from the cache: a shared link agrees
    bad = _short(8)
    bad["actions"][3] = "fly away"
    refused = httpx.post(f"{server.url}/api/review", json=bad)
    assert refused.status_code == 422
    assert "action 4 'fly away' cannot be replayed" in refused.json()["message"]
    assert httpx.post(f"{server.url}/api/review", content=b"nope").status_code == 422
    missing = httpx.post(f"{server.url}/api/review", json={"game": "vs"})
    assert "missing field 'rules_version'" in missing.json()["message"]


def test_a_downloaded_record_is_reviewed_with_a_chart_and_a_link_to_a_move(
    server: WebServer, browser: Any, shots: Path, tmp_path: Path
) -> None:
    path = tmp_path / "velvet-game.json"
    path.write_text(json.dumps(_short(14)))
    tab = Tab(browser, DESKTOP)
    page = tab.page
    page.goto(f"{server.url}/review")
    page.set_input_files("input[data-review=file]", str(path))
    page.wait_for_selector(".review[data-done]", timeout=60_000)
    assert page.locator("svg.review-svg polyline.line").count() == 2  # one line per player
    assert "decisions judged" in page.inner_text(".review-status")
    page.locator("svg.review-svg").click(position={"x": 60, "y": 100})
    assert "#move=" in page.url
    moved = page.url.split("#move=")[1]
    assert page.inner_text(".review-details h2").startswith(f"Move {moved} · Player")
    page.goto(f"{server.url}/review#move=3")  # the link to a move opens it
    page.wait_for_selector(".review[data-done]", timeout=60_000)
    assert page.inner_text(".review-details h2").startswith("Move 3 · Player")
    assert "own view at the time" in page.inner_text(".review-details")
    page.screenshot(path=str(shots / "review-1280x720.png"), full_page=True)
    page.set_viewport_size(PHONE)
    tab.no_sideways_scroll()
    page.screenshot(path=str(shots / "review-390x844.png"), full_page=True)
    tab.close()


def test_a_finished_game_offers_its_review(server: WebServer, browser: Any) -> None:
    answer = httpx.post(f"{server.url}/api/rooms", json={"game": "vs", "seats": ["human"] * 2})
    assert answer.status_code == 201, answer.text
    invites = answer.json()["invites"]
    tab = Tab(browser, DESKTOP)
    page = tab.page
    page.goto(invites[0]["url"])
    page.wait_for_selector(".banner", state="attached")
    tab.wait_version(0)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    link = page.locator(".banner a.review-game")
    link.wait_for(state="visible")
    link.click()
    page.wait_for_selector(".review[data-done]", timeout=60_000)
    assert page.url.split("?")[1].startswith("room=")
    assert "0 moves" in page.inner_text(".review-status")
    tab.close()
