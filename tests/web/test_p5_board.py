"""The P5 board and the replay viewer alone, on a harness page (``harness/``, served by
the ``site`` fixture): real positions drawn by p5.js, clicked through data-ref, readable
at 1280×720 and 390×844; the replay viewer steps through a game's frames."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import FIXTURES
from tests.web.p5_positions import MOMENTS, board, cards_of, find, replay
from velvet.p5.game import P5Game, load_p5_game
from velvet.p5.words import view_refs

SIZES = {"1280x720": (1280, 720), "390x844": (390, 844)}


@pytest.fixture(scope="module")
def game() -> P5Game:
    return load_p5_game()


@pytest.fixture(scope="module")
def cards(game: P5Game) -> dict[str, Any]:
    return cards_of(game)


def open_board(browser: Any, site: str, name: str, size: str) -> Any:
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site}/harness/index.html?board={name}")
    page.wait_for_selector("body[data-ready]")
    assert page.get_attribute("body", "data-error") is None, page.get_attribute(
        "body", "data-error"
    )
    assert not errors, errors
    return page


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    client = page.evaluate("document.documentElement.clientWidth")
    assert width <= client, f"the page scrolls sideways: {width} > {client}"


@pytest.mark.parametrize("name", list(MOMENTS))
def test_the_board_shows_the_position_and_every_target(
    browser: Any, site: str, game: P5Game, cards: dict[str, Any], name: str, shots: Path
) -> None:
    state, events = find(game, name)
    seat = state.current_player
    fixture = {**board(game, state, events, seat), "cards": cards}
    FIXTURES[name] = fixture
    view = fixture["view"]
    for size in SIZES:
        page = open_board(browser, site, name, size)
        text = page.inner_text(".p5-board")
        assert f"Day {view['day']} of {view['days']}" in " ".join(text.split())
        for sh in view["palace"]["shadows"]:
            info = game.describe_card(f"shadow:{sh['id']}")
            card = page.locator(f'[data-ref="shadow:{sh["id"]}"]')
            assert info.name in card.inner_text()
            weak = " ".join(card.locator(".p5-weak").inner_text().split())
            # weaknesses are words (and icons), never colour alone
            for w in info.data.get("weak", []):
                assert w.capitalize() in weak or w.upper() in weak.upper()
        if view["palace"]["boss"] is not None:
            assert "Boss:" in page.locator('[data-ref="boss"]').inner_text()
        shown = set(page.eval_on_selector_all("[data-ref]", "els => els.map(e => e.dataset.ref)"))
        assert view_refs(game, view) <= shown
        for action in fixture["legal"]:
            for ref in action["targets"]:
                assert ref in shown, f"{action['text']}: no element for {ref}"
                assert "p5-live" in (page.get_attribute(f'[data-ref="{ref}"]', "class") or "")
            if action["note"] and action["targets"]:
                first = page.locator(f'[data-ref="{action["targets"][0]}"] .p5-chance')
                notes = [first.nth(k).get_attribute("data-note") for k in range(first.count())]
                assert action["note"] in notes
        if any(e["kind"] in ("check", "dice") for e in fixture["events"]):
            page.wait_for_selector('.p5-tray[data-landed="true"]', timeout=5000)
            dice = page.locator(".p5-die").count()
            rolled = sum(len(e["data"]["dice"]) for e in fixture["events"] if "dice" in e["data"])
            assert dice == rolled
        if size == "390x844":
            no_sideways_scroll(page)
        page.screenshot(
            path=str(shots / f"p5-board-{name}-{size}.png"), full_page=size == "1280x720"
        )
        page.close()


def test_a_click_on_a_location_makes_its_action(
    browser: Any, site: str, game: P5Game, cards: dict[str, Any]
) -> None:
    state, events = find(game, "solo-town")
    FIXTURES["click"] = {**board(game, state, events, 0), "cards": cards}
    visit = next(a for a in FIXTURES["click"]["legal"] if a["text"].startswith("visit"))
    page = open_board(browser, site, "click", "1280x720")
    page.click(f'[data-ref="{visit["targets"][0]}"] h4')
    assert page.evaluate("window.__acted") == [visit["text"]]
    page.close()


def test_spectators_see_the_board_without_live_targets(
    browser: Any, site: str, game: P5Game, cards: dict[str, Any]
) -> None:
    state, events = find(game, "duo-fight")
    FIXTURES["spectator"] = {**board(game, state, events, None), "cards": cards}
    page = open_board(browser, site, "spectator", "390x844")
    assert page.locator(".p5-live").count() == 0
    assert "(you)" not in page.inner_text(".p5-board")
    no_sideways_scroll(page)
    page.close()


def test_dice_land_at_once_when_motion_is_reduced(
    browser: Any, site: str, game: P5Game, cards: dict[str, Any]
) -> None:
    state, events = find(game, "solo-fight")
    FIXTURES["still"] = {**board(game, state, events, 0), "cards": cards}
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{site}/harness/index.html?board=still")
    page.wait_for_selector("body[data-ready]")
    assert page.get_attribute(".p5-tray", "data-landed") == "true"
    assert page.locator(".p5-rolling").count() == 0
    context.close()


def test_the_replay_steps_jumps_plays_and_switches_views(
    browser: Any, site: str, game: P5Game, cards: dict[str, Any], shots: Path
) -> None:
    FIXTURES["replay"] = {**replay(game, players=2, seed=3, steps=40), "cards": cards}
    frames = FIXTURES["replay"]["frames"]["0"]
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{site}/harness/index.html?replay=replay")
    page.wait_for_selector("body[data-ready]")
    where = page.locator(".replay-where")
    assert where.get_attribute("data-index") == "0"
    assert "Start" in where.inner_text()
    page.click('[data-replay="forward"]')
    assert where.get_attribute("data-index") == "1"
    assert frames[1]["label"] in where.inner_text()
    page.focus(".replay")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert where.get_attribute("data-index") == "3"
    page.keyboard.press("ArrowLeft")
    assert where.get_attribute("data-index") == "2"
    page.keyboard.press("End")
    assert where.get_attribute("data-index") == str(len(frames) - 1)
    page.keyboard.press("Home")
    page.locator('[data-replay="slider"]').fill("20")
    assert where.get_attribute("data-index") == "20"
    day = frames[20]["view"]["day"]
    assert f"Day {day} of" in " ".join(page.inner_text(".p5-day").split())
    page.select_option('[data-replay="pace"]', "0.5")
    page.click('[data-replay="play"]')
    page.wait_for_function("document.querySelector('.replay-where').dataset.index >= '22'")
    page.click('[data-replay="play"]')
    assert page.get_attribute('[data-replay="play"]', "aria-pressed") == "false"
    page.select_option('[data-replay="view"]', "")
    page.wait_for_function("!document.querySelector('[data-replay=view]').disabled")
    assert "(you)" not in page.inner_text(".p5-board")
    page.select_option('[data-replay="view"]', "1")
    page.wait_for_function("document.querySelector('.p5-me') !== null")
    assert "Player 2 (you)" in page.inner_text(".p5-board")
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / "p5-board-replay-390x844.png"))
    page.close()


def test_dice_roll_once_per_version_and_the_header_names_the_day(
    browser: Any, site: str, game: P5Game, cards: dict[str, Any]
) -> None:
    """The same state drawn again (after an error toast) shows the dice landed."""
    state, events = find(game, "solo-fight")
    FIXTURES["again"] = {**board(game, state, events, 0), "cards": cards}
    page = open_board(browser, site, "again", "1280x720")
    rolling, step = page.evaluate(
        """async () => {
          const m = await import("/static/p5.js");
          const f = await (await fetch("/fixture/again.json")).json();
          const root = document.getElementById("root");
          const ctx = { ...f, version: 7, act: () => {} };
          const counts = [];
          for (const version of [7, 7, 8]) {
            m.renderBoard(root, { ...ctx, version });
            counts.push(root.querySelectorAll(".p5-rolling").length);
          }
          return [counts, m.stepText(ctx)];
        }"""
    )
    assert rolling[0] > 0 and rolling[1] == 0 and rolling[2] == rolling[0]
    assert step.startswith(f"Day {state.view(0)['day']} of 28 · ")
    page.close()
