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
        # every part with something to act on is open (on a phone the others fold)
        for action in fixture["legal"]:
            for ref in action["targets"]:
                assert page.locator(f'[data-ref="{ref}"]').first.is_visible(), ref
        folded = page.eval_on_selector_all(
            "details.p5-fold:not([open])", "ds => ds.map(d => d.dataset.fold)"
        )
        if size == "1280x720":
            assert folded == [], f"a wide screen folds nothing: {folded}"
        if any(e["kind"] in ("check", "dice") for e in fixture["events"]):
            page.wait_for_selector('.p5-tray[data-landed="true"]', timeout=5000)
        page.screenshot(
            path=str(shots / f"p5-board-{name}-{size}.png"), full_page=size == "1280x720"
        )
        page.evaluate("document.querySelectorAll('details.p5-fold').forEach(d => d.open = true)")
        text = page.inner_text(".p5-board")
        assert f"Day {view['day']} of {view['days']}" in " ".join(text.split())
        for sh in view["palace"]["shadows"]:
            info = game.describe_card(f"shadow:{sh['id']}")
            card = page.locator(f'[data-ref="shadow:{sh["id"]}"]')
            assert info.name.upper() in card.inner_text().upper()
            weak = " ".join(card.locator(".vc-weak").inner_text().split())
            # weaknesses are words (and icons), never colour alone
            for w in info.data.get("weak", []):
                assert w.capitalize() in weak or w.upper() in weak.upper()
        if view["palace"]["boss"] is not None:
            assert "BOSS" in page.locator('[data-ref="boss"]').inner_text().upper()
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
        page.close()


def test_a_click_on_a_location_makes_its_action(
    browser: Any, site: str, game: P5Game, cards: dict[str, Any]
) -> None:
    state, events = find(game, "solo-town")
    FIXTURES["click"] = {**board(game, state, events, 0), "cards": cards}
    visit = next(a for a in FIXTURES["click"]["legal"] if a["text"].startswith("visit"))
    page = open_board(browser, site, "click", "1280x720")
    page.click(f'[data-ref="{visit["targets"][0]}"] .vc-name')
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
    # the headline names who moved, in the third person, never "your"
    assert f"Move 1 of {len(frames) - 1}: Player {frames[1]['mover'] + 1}" in where.inner_text()
    assert frames[1]["headline"] in where.inner_text()
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


def test_a_location_and_its_confidant_are_separate_targets(
    browser: Any, site: str, game: P5Game, cards: dict[str, Any]
) -> None:
    """A click anywhere on a location card visits it; only its confidant's own card
    recruits (a recruit rolls dice and cannot be taken back)."""
    state, events = find(game, "solo-town")
    FIXTURES["spots"] = {**board(game, state, events, 0), "cards": cards}
    legal = FIXTURES["spots"]["legal"]
    recruits = {a["targets"][-1]: a for a in legal if a["text"].startswith("recruit ")}
    visits = {a["targets"][0]: a for a in legal if a["text"].startswith("visit ")}
    both = sorted(set(recruits) & set(visits))
    assert both, "the position offers no location with a visit and a recruit"
    for size in SIZES:
        page = open_board(browser, site, "spots", size)
        for ref in both:
            card = page.locator(f'[data-ref="{ref}"]')
            card.scroll_into_view_if_needed()
            box = card.bounding_box()
            x0, y0, w, hgt = box["x"], box["y"], box["width"], box["height"]
            points = {
                "centre": (x0 + w / 2, y0 + hgt / 2),
                "top left": (x0 + 4, y0 + 4),
                "top right": (x0 + w - 4, y0 + 4),
                "bottom left": (x0 + 4, y0 + hgt - 4),
                "bottom right": (x0 + w - 4, y0 + hgt - 4),
            }
            for where, (x, y) in points.items():
                page.evaluate("window.__acted = []")
                page.mouse.click(x, y)
                acted = page.evaluate("window.__acted")
                assert acted == [visits[ref]["text"]], f"{size} {ref} {where}: {acted}"
            conf = recruits[ref]["targets"][0]
            page.evaluate("window.__acted = []")
            page.locator(f'[data-ref="{conf}"]').scroll_into_view_if_needed()
            cbox = page.locator(f'[data-ref="{conf}"]').bounding_box()
            page.mouse.click(cbox["x"] + cbox["width"] / 2, cbox["y"] + cbox["height"] / 2)
            assert page.evaluate("window.__acted") == [recruits[ref]["text"]], f"{size} {conf}"
        page.close()


def test_success_and_failure_are_told_apart_by_word_mark_and_colour(
    browser: Any, site: str, game: P5Game, cards: dict[str, Any]
) -> None:
    state, events = find(game, "solo-town")
    FIXTURES["dice"] = {**board(game, state, events, 0), "cards": cards}
    page = open_board(browser, site, "dice", "1280x720")
    results = page.evaluate(
        """async () => {
          const m = await import("/static/p5.js");
          const f = await (await fetch("/fixture/dice.json")).json();
          const root = document.getElementById("root");
          const check = (success, dice) => ({kind: "check", text: "",
            data: {player: 0, stat: "guts", dice, success}});
          m.renderBoard(root, {...f, events: [check(true, [5, 2]), check(false, [1, 3])],
            version: 99, act: () => {}});
          return [...root.querySelectorAll(".p5-roll-result")].map(
            (r) => [r.textContent, getComputedStyle(r).color]);
        }"""
    )
    (won, won_colour), (lost, lost_colour) = results
    assert won == "✓ Success" and lost == "✗ Failure"
    assert won_colour != lost_colour, won_colour
    page.close()


@pytest.mark.parametrize("name", ["p5", "vs"])
def test_replay_headlines_name_the_mover_never_your(name: str) -> None:
    """A replay is read by anyone: each move's headline starts with its mover's name and
    says "their", not "your" (the label is worded for the mover)."""
    import random
    import re

    from velvet.engine.record import GameRecord
    from velvet.games import get_game
    from velvet.server.replay import replay_frames

    played = get_game(name)
    record = GameRecord.start(played, played.default_config(), 5)
    state = played.new_state(played.default_config(), 5)
    rng = random.Random(5)
    movers = []
    while not state.is_terminal() and len(record.actions) < 80:
        action = rng.choice(state.legal_actions())
        movers.append(state.current_player)
        record.actions.append(str(action))
        state.apply_unchecked(action)
    labels_with_your = 0
    for seat in [None, *range(max(movers) + 1)]:
        frames = replay_frames(played, record, seat)
        assert frames[0]["headline"] is None
        for frame, mover in zip(frames[1:], movers, strict=True):
            assert frame["mover"] == mover
            assert frame["headline"].startswith(f"Player {mover + 1}"), frame["headline"]
            assert not re.search(r"\byours?\b", frame["headline"], re.I), frame["headline"]
            labels_with_your += bool(re.search(r"\byour\b", frame["label"], re.I))
    if name == "vs":
        assert labels_with_your, "no label said 'your': the test proves nothing"


SHELL = """async (name) => {
  const { Table } = await import("/static/table.js");
  const module = await import("/static/p5.js");
  const f = await (await fetch(`/fixture/${name}.json`)).json();
  window.__acted = [];
  const table = new Table(document.getElementById("root"), {
    onAct: (text) => window.__acted.push(text), seats: [] });
  table.setWelcome({ room: name, game: "p5", seat: 0,
    seats: [{ seat: 0, name: "Player 1", who: "human" }] });
  table.setCards(f.cards);
  table.setBoard(module, null);
  table.setState({ version: 1, view: f.view, legal: f.legal, events: [], status: "playing",
    to_move: 0, undo: false, undo_asked: null });
}"""
"""The real table (table.js) around the P5 board on the harness page, moves recorded."""


def test_in_the_table_a_click_on_a_location_never_recruits(
    browser: Any, site: str, game: P5Game, cards: dict[str, Any]
) -> None:
    """The same real clicks through the table's own wiring (table.js): centre and corners
    of each location card visit it; its confidant's card recruits."""
    state, events = find(game, "solo-town")
    FIXTURES["shell-town"] = {**board(game, state, events, 0), "cards": cards}
    legal = FIXTURES["shell-town"]["legal"]
    page = open_board(browser, site, "shell-town", "1280x720")
    page.evaluate(SHELL, "shell-town")
    page.wait_for_selector(".board .p5-board .actable")
    for action in legal:
        if not action["text"].startswith("visit "):
            continue
        ref = action["targets"][0]
        card = page.locator(f'.board [data-ref="{ref}"]')
        card.scroll_into_view_if_needed()
        box = card.bounding_box()
        x0, y0, w, hgt = box["x"], box["y"], box["width"], box["height"]
        corners = [(x0 + 4, y0 + 4), (x0 + w - 4, y0 + 4), (x0 + 4, y0 + hgt - 4)]
        for x, y in [(x0 + w / 2, y0 + hgt / 2), *corners, (x0 + w - 4, y0 + hgt - 4)]:
            page.evaluate("window.__acted = []")
            page.mouse.click(x, y)
            assert page.evaluate("window.__acted") == [action["text"]], (ref, x, y)
    recruit = next(a for a in legal if a["text"].startswith("recruit "))
    page.evaluate("window.__acted = []")
    page.locator(f'.board [data-ref="{recruit["targets"][0]}"] .vc-name').click()
    assert page.evaluate("window.__acted") == [recruit["text"]]
    page.close()


def test_an_element_only_touched_by_an_action_asks_before_making_it(
    browser: Any, site: str, game: P5Game, cards: dict[str, Any]
) -> None:
    """A token row is the second target of a "hit": its click opens the menu (the one
    action and Cancel), it does not pay at once."""
    state, events = find(game, "solo-fight")
    FIXTURES["shell-fight"] = {**board(game, state, events, 0), "cards": cards}
    legal = FIXTURES["shell-fight"]["legal"]
    firsts = {a["targets"][0] for a in legal if a["targets"]}
    touching: dict[str, list[str]] = {}
    for action in legal:
        for ref in action["targets"][1:]:
            if ref not in firsts:
                touching.setdefault(ref, []).append(action["text"])
    ref, texts = next((r, t) for r, t in sorted(touching.items()) if len(t) == 1)
    page = open_board(browser, site, "shell-fight", "1280x720")
    page.evaluate(SHELL, "shell-fight")
    node = page.locator(f'.board [data-ref="{ref}"].actable')
    node.click()
    menu = page.locator(".menu")
    menu.wait_for(state="visible")
    assert page.evaluate("window.__acted") == []
    menu.locator(f'button[data-action="{texts[0]}"]').click()
    assert page.evaluate("window.__acted") == texts
    page.close()
