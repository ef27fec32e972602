"""The VS table in the browser: a whole game played by clicking the table; on a phone each
decision and what it acts on fit one screen; the table's screenshots at 1280×720 and
390×844; a 20-event animation without a long task (> 50 ms), and none under reduced
motion; axe finds no serious violation on the table.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import Tab, WebServer
from tests.web.test_accessibility import _axe, serious_violations
from velvet.server import room_rows

DESKTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def axe() -> Any:
    return _axe()


SEED = int(os.environ.get("VELVET_VS_TABLE_SEED", "1"))
"""The seed of every room these tests create (the server runs in this process): the same
deal on every run, so a failure replays. VELVET_VS_TABLE_SEED tries another one."""


@pytest.fixture(autouse=True)
def _seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(room_rows, "draw_seed", lambda: SEED)


PREFERRED = ("Use ", "Summon", "Fuse", "Send", "Make")
"""Labels clicked first, so that damage is dealt and the game ends soon."""


def _create(server: WebServer, **body: Any) -> dict[str, Any]:
    answer = httpx.post(f"{server.url}/api/rooms", json={"game": "vs", **body})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def _pick(legal: list[dict[str, Any]]) -> dict[str, Any]:
    for prefix in PREFERRED:
        for action in legal:
            if action["label"].startswith(prefix):
                return action
    return legal[0]


def _pick_on_table(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """As _pick, among the actions that act on something when there are any."""
    return _pick([a for a in legal if a["targets"]] or legal)


def _open(browser: Any, server: WebServer, viewport: dict[str, int]) -> Tab:
    created = _create(server, seats=["human", "greedy"], first="1")
    tab = Tab(browser, viewport)
    tab.page.goto(created["invites"][0]["url"])
    tab.page.wait_for_selector(".vs-table .pbar")
    tab.wait_version(0)
    tab.page.wait_for_function("Object.keys(window.velvet.cards).length > 0")
    return tab


def _my_turn(tab: Tab) -> dict[str, Any]:
    """The state once it is this seat's decision or the game is over."""
    tab.page.wait_for_function(
        "() => { const s = window.velvet.state;"
        " return s && (s.status === 'over' || (s.to_move === 0 && s.legal.length > 0)); }",
        timeout=15_000,
    )
    return dict(tab.state())


def _click_table(tab: Tab, action: dict[str, Any]) -> bool:
    """Click what the action acts on (and its item in the menu a tap opens); False when
    no element of the table stands for it."""
    page = tab.page
    ref = action["targets"][0] if action["targets"] else None
    target = page.locator(f'[data-ref="{ref}"].actable') if ref else None
    if target is None or not target.count():
        page.locator(f'button.action[data-action="{action["text"]}"]').click()
        return False
    target.first.click()
    menu = page.locator(".menu")
    if menu.count():
        menu.locator(f'button[data-action="{action["text"]}"]').first.click()
    return True


def _still(tab: Tab) -> None:
    """The motion over and the page at its top, for a screenshot."""
    tab.page.mouse.move(0, 0)
    tab.page.evaluate(
        "async () => { const m = await import(new URL('static/motion.js', document.baseURI));"
        " await m.idle(); scrollTo(0, 0); }"
    )


def _fits(tab: Tab, ref: str) -> str:
    """'' when the actions panel and the element ``ref`` are both in the first screen,
    with the element not under the panel; else what is out."""
    out = tab.page.evaluate(
        """ref => {
          scrollTo(0, 0);
          const node = document.querySelector(`[data-ref="${CSS.escape(ref)}"].actable`);
          const panel = document.querySelector('.side > .actions').getBoundingClientRect();
          if (!node) return 'no element';
          const r = node.getBoundingClientRect();
          const bottom = Math.min(innerHeight, panel.top + 8);
          if (panel.bottom > innerHeight + 1) return `actions end at ${panel.bottom}`;
          if (r.top < 0 || r.top + Math.min(r.height, 60) > bottom)
            return `${ref} at ${Math.round(r.top)}..${Math.round(r.bottom)}, room to ${bottom}`;
          return '';
        }""",
        ref,
    )
    return str(out)


TWENTY_EVENTS = """async () => {
          const base = document.baseURI;
          const vs = await import(new URL('static/vs.js', base));
          const motion = await import(new URL('static/motion.js', base));
          const root = document.querySelector('.vs-table');
          const ctx = window.velvet.table.context();
          const main = (p) => ctx.view.field[p][0].at(-1);
          const kinds = [
            ['summon', {player: 0, card: main(0), slot: 'm'}],
            ['damage', {player: 1, amount: 3, hp: 20}],
            ['draw', {player: 0, count: 1}],
            ['fuse', {player: 1, card: main(1), slot: 'm'}],
            ['skill', {player: 0, slot: 'm'}],
            ['weakness', {player: 1}],
            ['heal', {player: 0, amount: 2, hp: 25}],
            ['draw', {player: 1, count: 2}],
            ['discard', {player: 0}],
            ['damage', {player: 0, amount: 4, hp: 0}],
          ];
          const events = [...kinds, ...kinds].map(([kind, data]) => ({kind, data, text: kind}));
          root.getBoundingClientRect();  // the page laid out and quiet first
          await new Promise((r) => setTimeout(r, 300));
          const long = [];
          const t0 = performance.now();
          const seen = new PerformanceObserver(
            (list) => long.push(...list.getEntries().map((e) => [e.duration, e.startTime - t0])));
          seen.observe({type: 'longtask'});
          document.documentElement.dataset.motion = 'normal';
          const steps = vs.motionSteps(root, ctx, events);
          const played = motion.play(steps);
          await motion.idle();
          await new Promise((r) => setTimeout(r, 100));
          seen.disconnect();
          const ms = performance.now() - t0;
          return {events: events.length, steps: steps.length, played, long, ms};
}"""
"""20 events of every kind the table animates, on the cards and gauges it shows, played
at Normal speed while a PerformanceObserver records long tasks."""


def _twenty_events(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(TWENTY_EVENTS))


def _long(run: dict[str, Any]) -> list[float]:
    return [d for d, _ in run["long"] if d > 50]


def test_on_a_phone_each_decision_and_what_it_acts_on_fit_one_screen(
    server: WebServer, browser: Any, axe: Any, shots: Path
) -> None:
    """30 decisions tapped on the table (a tap opens the card's menu, a second plays), and on
    until turn 4 with the rival's field full (the room's seed is random, and some games take
    more decisions to get there)."""
    tab = _open(browser, server, PHONE)
    page = tab.page
    targeted = on_table = 0
    misfits: list[str] = []
    snapped = False
    last_turn, in_turn = -1, 0
    for decision in range(60):
        if decision >= 30 and snapped:
            break
        state = _my_turn(tab)
        if state["status"] == "over":
            break
        turn = state["view"]["turn_no"]
        in_turn = in_turn + 1 if turn == last_turn else 1
        last_turn = turn
        ends = [a for a in state["legal"] if a["label"].startswith("End ")]
        # Some seeds let the preferred actions go round within a turn (a swap back and forth):
        # after 8 decisions in one turn, end the step.
        action = ends[0] if in_turn > 8 and ends else _pick_on_table(state["legal"])
        if action["targets"]:
            why = _fits(tab, action["targets"][0])
            if why and decision < 30:
                misfits.append(f"{action['label']}: {why}")
        fielded = page.locator(".vs-table .side-top .vs-field .vc").count()
        if not snapped and fielded and state["view"]["turn_no"] >= 4:
            snapped = True
            _still(tab)
            page.screenshot(path=str(shots / "vs-table-390x844.png"))
            page.screenshot(path=str(shots / "vs-table-full-390x844.png"), full_page=True)
            tab.no_sideways_scroll()
            assert not serious_violations(axe, page)
        targeted += bool(action["targets"])
        on_table += _click_table(tab, action)
        tab.wait_version(state["version"] + 1)
    assert snapped, f"no turn 4 with the rival's field full: {state['view']}"
    assert on_table == targeted >= 10, (on_table, targeted)
    assert len(misfits) <= 2, misfits
    tab.close()


def test_a_whole_game_plays_by_clicking_the_table_and_twenty_events_animate_smoothly(
    server: WebServer, browser: Any, axe: Any, shots: Path
) -> None:
    tab = _open(browser, server, DESKTOP)
    page = tab.page
    started = time.monotonic()
    moves = targeted = on_table = 0
    while True:  # until both fields hold a persona and someone took damage
        state = _my_turn(tab)
        view = state["view"]
        if all(view["field"][p][0] for p in (0, 1)) and min(view["hp"]) < 30 and view["hand"]:
            break
        assert state["status"] != "over" and moves < 60, "no moment for the screenshot"
        action = _pick(state["legal"])
        targeted += bool(action["targets"])
        on_table += _click_table(tab, action)
        tab.wait_version(state["version"] + 1)
        moves += 1
    _still(tab)
    page.screenshot(path=str(shots / "vs-table-1280x720.png"))
    page.screenshot(path=str(shots / "vs-table-full-1280x720.png"), full_page=True)
    assert not serious_violations(axe, page)

    # 20 events of every kind the table animates, on the cards and gauges it shows. The
    # machine running the tests may be busy (a descheduled renderer makes any task look
    # long), so the animation gets three runs to show one without a long task.
    runs = [_twenty_events(page)]
    while len(runs) < 3 and _long(runs[-1]):
        runs.append(_twenty_events(page))
    result = runs[-1]
    assert result["events"] == 20
    assert result["played"] == result["steps"] >= 20, result
    assert result["ms"] > 1000, result  # it did run, one step after another
    assert not _long(result), runs
    # the Look menu's speed scales it; Off, or reduced motion, animates nothing
    speeds = page.evaluate(
        """async () => {
          const motion = await import(new URL('static/motion.js', document.baseURI));
          const node = document.querySelector('.hp-gauge');
          const out = {};
          for (const speed of ['slow', 'normal', 'fast', 'off']) {
            document.documentElement.dataset.motion = speed;
            out[speed] = [motion.scale(), motion.play([{kind: 'pulse', node}])];
            motion.cancel();
          }
          document.documentElement.dataset.motion = 'normal';
          return out;
        }"""
    )
    assert speeds == {"slow": [1.7, 1], "normal": [1, 1], "fast": [0.5, 1], "off": [0, 0]}
    page.emulate_media(reduced_motion="reduce")
    none = page.evaluate(
        """async () => {
          const motion = await import(new URL('static/motion.js', document.baseURI));
          return motion.play([{kind: 'pulse', node: document.querySelector('.hp-gauge')}]);
        }"""
    )
    assert none == 0

    while state["status"] != "over":  # the rest of the game, by clicking the table
        action = _pick(state["legal"])
        targeted += bool(action["targets"])
        on_table += _click_table(tab, action)
        tab.wait_version(state["version"] + 1)
        moves += 1
        assert moves < 400, "the game did not end"
        assert time.monotonic() - started < 150, f"too slow: {moves} moves"
        state = _my_turn(tab)
    page.locator(".banner").wait_for(state="visible")
    # every move that acts on something was made by clicking that thing on the table
    # how many of a game's moves act on a card depends on the room's random seed (5 of 18 seen)
    assert on_table == targeted >= 5, (on_table, targeted, moves)
    tab.close()
