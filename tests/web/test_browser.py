"""The browser client end to end, in headless Chromium driven by Playwright.

A room is made in the lobby (with its errors shown by field), a whole VS game is
played between two browser contexts by clicking, one player reloads mid-game, a
spectator sees no hand, the phone width has no horizontal scroll, and every
WebSocket frame the pages exchange is a protocol message holding only what that
seat may see (each state's view equals the engine's view for that seat).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx

from tests.web.conftest import SERVER_TYPES, Tab, WebServer, check_frames

DESKTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
PREFERRED = ("Use ", "Summon", "Fuse", "Send", "Make")
"""Labels clicked first, so that damage is dealt and the game ends in about 100 moves."""


def _create(server: WebServer, **body: Any) -> dict[str, Any]:
    answer = httpx.post(f"{server.url}/api/rooms", json={"game": "vs", **body})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def _room_version(server: WebServer, room: str) -> int:
    return int(httpx.get(f"{server.url}/api/rooms/{room}").json()["version"])


def _pick(legal: list[dict[str, Any]]) -> dict[str, Any]:
    for prefix in PREFERRED:
        for action in legal:
            if action["label"].startswith(prefix):
                return action
    return legal[0]


def _click(tab: Tab, action: dict[str, Any], on_board: bool) -> None:
    """Click the thing the action acts on (a menu item if it offers several), or its button."""
    page = tab.page
    if on_board and action["targets"]:
        ref = action["targets"][0]
        target = page.locator(f'[data-ref="{ref}"].actable')
        if target.count():
            target.first.click()
            menu = page.locator(".menu")
            if menu.count():
                menu.get_by_role("menuitem", name=action["label"], exact=False).first.click()
            return
    page.locator(f'button.action[data-action="{action["text"]}"]').click()


def test_the_lobby_creates_a_room_and_shows_errors_by_field(
    server: WebServer, browser: Any, shots: Path
) -> None:
    tab = Tab(browser, DESKTOP)
    page = tab.page
    page.goto(f"{server.url}/")
    page.wait_for_selector("form.create-form")
    page.select_option("#game", "vs")
    page.select_option("#seat_2", "human")
    page.click("details.more summary")
    page.check("#hotseat")  # one screen: this browser plays both seats
    page.fill("#turn_timer", "1")
    page.click("button[type=submit]")
    error = page.locator("#turn_timer-error")
    error.wait_for(state="visible")
    assert "turn_timer" in error.inner_text()
    page.fill("#turn_timer", "")
    bad = {"name": "mine.toml", "mimeType": "text/plain", "buffer": b'player_card = "p5"\n'}
    page.set_input_files("#deck_1", files=[bad])
    page.click("button[type=submit]")
    deck_error = page.locator("#deck_1-error")
    deck_error.wait_for(state="visible")
    assert "deck of seat 1" in deck_error.inner_text()
    assert page.locator("#turn_timer-error").is_hidden()
    page.screenshot(path=str(shots / "lobby-error-1280x720.png"), full_page=True)
    page.set_input_files("#deck_1", files=[])
    page.click("button[type=submit]")
    page.wait_for_selector(".invites")
    links = page.locator(".invites input.link")
    assert links.count() == 1  # the spectators': one screen spends both invites here
    assert page.locator(".invites a.primary").count() == 2  # "Play as" each seat
    room = page.evaluate("JSON.parse(localStorage.getItem('velvet.seats'))[0].room")
    assert httpx.get(f"{server.url}/api/rooms/{room}").json()["game"] == "vs"
    assert len(page.evaluate("JSON.parse(localStorage.getItem('velvet.seats'))")) == 2
    page.screenshot(path=str(shots / "lobby-created-1280x720.png"), full_page=True)
    page.goto(f"{server.url}/")  # rejoin: the lobby lists the seats kept in this browser
    rejoin = page.get_by_role("link", name="Rejoin as Player 2")
    rejoin.click()
    page.wait_for_selector(".vs-board .pbar")
    assert page.evaluate("window.velvet.welcome.seat") == 1
    # One screen: both seats were claimed by this browser, so it may switch between them.
    page.select_option(".seat-picker", label="Play as Player 1")
    page.wait_for_function("window.velvet.welcome && window.velvet.welcome.seat === 0")
    tab.close()

    phone = Tab(browser, PHONE)
    phone.page.goto(f"{server.url}/")
    phone.page.wait_for_selector("form.create-form")
    phone.no_sideways_scroll()
    phone.page.screenshot(path=str(shots / "lobby-390x844.png"), full_page=True)
    phone.close()


def test_a_whole_vs_game_between_two_browsers(server: WebServer, browser: Any, shots: Path) -> None:
    created = _create(server, seats=["human", "human"])
    room = created["room"]
    tabs = [Tab(browser, DESKTOP), Tab(browser, PHONE)]
    for tab, invite in zip(tabs, created["invites"], strict=True):
        tab.page.goto(invite["url"])
        tab.page.wait_for_selector(".vs-board .pbar")
        tab.wait_version(0)
    started = time.monotonic()
    moves = 0
    reloaded = False
    snapped: set[str] = set()
    while True:
        version = _room_version(server, room)
        for tab in tabs:
            tab.wait_version(version)
        state = tabs[0].state()
        if state["status"] == "over":
            break
        seat = state["to_move"]
        tab = tabs[seat]
        legal = tab.state()["legal"]
        assert legal, f"seat {seat} has no actions at version {version}"
        action = _pick(legal)
        moments = [{6: "early", 40: "later"}.get(moves, "")]
        moments.append("skill" if action["label"].startswith("Use ") else "")
        moments.append("react" if any(a["text"] == "pass" for a in legal) else "")
        moment = next((m for m in moments if m and m not in snapped), None)
        if moment:
            snapped.add(moment)
            name = f"vs-{moment}"
            for each, size in zip(tabs, ("1280x720", "390x844"), strict=True):
                each.page.mouse.move(0, 0)
                each.page.screenshot(path=str(shots / f"{name}-{size}.png"))
                if moment == "later":  # the whole board: both fields, the piles, the hand
                    each.page.screenshot(path=str(shots / f"vs-board-{size}.png"), full_page=True)
                each.no_sideways_scroll()
        _click(tab, action, on_board=moves % 2 == 0)
        tab.wait_version(version + 1)
        moves += 1
        if moves == 12 and not reloaded:  # a reload mid-game: the page carries on
            reloaded = True
            tabs[1].page.reload()
            tabs[1].page.wait_for_selector(".vs-board .pbar")
            tabs[1].wait_version(version + 1)
            assert tabs[1].page.locator(".log-list li").count() > 0  # the log survives
        assert moves < 600, "the game did not end"
        assert time.monotonic() - started < 120, f"too slow: {moves} moves"
    for tab in tabs:
        tab.page.locator(".banner").wait_for(state="visible")
    verdicts = sorted(tab.page.locator(".banner strong").inner_text() for tab in tabs)
    assert verdicts == ["You lose", "You win!"]
    for tab in tabs:
        tab.page.mouse.move(0, 0)
    tabs[0].page.screenshot(path=str(shots / "vs-over-1280x720.png"))
    tabs[1].page.screenshot(path=str(shots / "vs-over-390x844.png"))
    record = httpx.get(f"{server.url}/api/rooms/{room}/record").json()["record"]
    assert len(record["actions"]) == moves
    for seat, tab in enumerate(tabs):
        assert check_frames(tab, seat, record) > moves // 2
        tab.close()


def test_a_spectator_sees_no_hand(server: WebServer, browser: Any, shots: Path) -> None:
    created = _create(server, seats=["human", "human"], turn_timer=600)
    player = Tab(browser, DESKTOP)
    player.page.goto(created["invites"][0]["url"])
    watcher = Tab(browser, PHONE)
    watcher.page.goto(created["spectate"])
    watcher.page.wait_for_selector(".vs-board .pbar")
    player.page.wait_for_selector(".vs-board .pbar")
    assert player.page.locator('[data-ref^="hand:"]').count() == 5
    assert watcher.page.locator(".hand").count() == 0
    assert watcher.page.locator('[data-ref^="hand:"]').count() == 0
    assert watcher.page.locator(".badge", has_text="Spectator").count() == 1
    view = watcher.page.evaluate("window.velvet.state.view")
    assert view["hand"] == [] and view["viewer"] is None
    assert watcher.page.evaluate("window.velvet.state.legal") == []
    assert watcher.page.evaluate("window.velvet.welcome.seat") is None
    assert watcher.page.locator(".timer").inner_text().endswith("left")  # the room's timer
    watcher.no_sideways_scroll()
    watcher.page.screenshot(path=str(shots / "vs-spectator-390x844.png"), full_page=True)
    for text in watcher.received:
        message = json.loads(text)
        assert message["type"] in SERVER_TYPES
        if message["type"] == "state":
            assert message["view"]["hand"] == [] and message["legal"] == []
    player.close()
    watcher.close()


def test_a_page_opened_mid_decision_counts_down_what_is_left(
    server: WebServer, browser: Any
) -> None:
    created = _create(server, seats=["human", "human"], first="1", turn_timer=60)
    player = Tab(browser, DESKTOP)
    player.page.goto(created["invites"][0]["url"])
    player.page.wait_for_selector(".vs-board .pbar")
    time.sleep(3.5)  # the decision's timer runs while nobody else is here
    watcher = Tab(browser, DESKTOP)
    watcher.page.goto(created["spectate"])
    watcher.page.wait_for_selector(".vs-board .pbar")
    minutes, seconds = watcher.page.locator(".timer").inner_text().split()[0].split(":")
    left = int(minutes) * 60 + int(seconds)
    assert 30 <= left <= 57, left  # not the whole minute: the server said what is left
    player.close()
    watcher.close()


def test_keyboard_alone_plays_and_refusals_show_their_rule(server: WebServer, browser: Any) -> None:
    created = _create(server, seats=["human", "human"], first="1")
    tab = Tab(browser, DESKTOP)
    page = tab.page
    page.goto(created["invites"][0]["url"])
    page.wait_for_selector("button.action")
    # A move the server refuses (sent from the page by hand) comes back as a toast with its rule.
    view = page.evaluate("window.velvet.state.view")
    absent = next(c for c in view["decklists"][0] if c not in view["hand"])
    page.evaluate(
        "card => window.velvet.connection.move('summon ' + card)",
        absent,
    )
    toast = page.locator(".toast")
    toast.wait_for(state="visible")
    assert "(rule VS-" in toast.inner_text()
    # Keyboard alone: Tab reaches a card that can act, Enter acts on it; digits pick buttons.
    first = page.locator('[data-ref^="hand:"].actable').first
    first.focus()
    assert page.locator("#popover").is_visible()  # the card in words, on focus
    assert page.evaluate("document.activeElement.dataset.ref").startswith("hand:")
    # The socket drops; a move chosen meanwhile is sent once the client has reconnected.
    page.evaluate("window.velvet.connection.ws.close()")
    page.keyboard.press("1")  # the first action: end the Planning Step
    tab.wait_version(1)
    assert page.locator(".log-list li").count() >= 1
    welcomes = [m for m in map(json.loads, tab.received) if m["type"] == "welcome"]
    moves = [m for m in map(json.loads, tab.sent) if m["type"] == "move"]
    assert len(welcomes) == 2 and [m["action"] for m in moves][-1] == "end"
    assert sum(m["type"] == "hello" for m in map(json.loads, tab.sent)) == 2
    tab.close()


def test_a_p5_room_opens_and_plays_by_buttons(server: WebServer, browser: Any) -> None:
    """The P5 board module may be absent from a build: then the table says so, and the
    action buttons still play; either way the page does not break."""
    created = httpx.post(f"{server.url}/api/rooms", json={"game": "p5", "seats": ["human"]})
    assert created.status_code == 201, created.text
    tab = Tab(browser, DESKTOP)
    page = tab.page
    page.goto(created.json()["invites"][0]["url"])
    page.wait_for_selector("button.action")
    page.wait_for_function("!document.querySelector('#board').textContent.includes('Loading')")
    missing = page.locator(".board-missing")
    if missing.count():
        assert "P5 board is not part of this build" in missing.inner_text()
    page.locator("button.action").first.click()
    tab.wait_version(1)
    tab.no_sideways_scroll()
    tab.close()


def test_two_people_take_a_move_back_when_both_agree(server: WebServer, browser: Any) -> None:
    room = _create(server, first="1")
    tabs = [Tab(browser, DESKTOP), Tab(browser, DESKTOP)]
    for tab, invite in zip(tabs, room["invites"], strict=True):
        tab.page.goto(invite["url"])
        tab.page.wait_for_selector(".vs-board")
        tab.wait_version(0)
    a, b = tabs
    start = a.state()
    assert a.page.locator(".tools .undo").count() == 0
    a.page.locator(f'button.action[data-action="{start["legal"][0]["text"]}"]').click()
    a.wait_version(1)
    b.wait_version(1)
    asking = a.page.locator(".tools button.undo")
    asking.wait_for(state="visible")
    assert asking.inner_text() == "↶ Ask to undo"
    assert b.page.locator(".tools .undo").count() == 0  # nothing of Player 2's to take back
    a.page.locator("body").press("u")
    a.page.locator(".tools .undo-wait").wait_for(state="visible")
    allow = b.page.locator(".tools button.undo")
    allow.wait_for(state="visible")
    assert allow.inner_text() == "↶ Allow Player 1's undo"
    allow.click()
    a.wait_version(2)
    b.wait_version(2)
    assert a.state()["view"] == start["view"] and a.state()["legal"] == start["legal"]
    assert "Player 1 takes back 1 move." in b.page.inner_text(".log-list")
    for tab in tabs:
        tab.close()


def test_the_lobby_offers_the_second_player_extra_cards(server: WebServer, browser: Any) -> None:
    """The lobby's "second player draws extra" reaches the room: seat 2 starts with 6 cards."""
    tab = Tab(browser, DESKTOP)
    page = tab.page
    page.goto(f"{server.url}/")
    page.wait_for_selector("form.create-form")
    page.select_option("#game", "vs")
    page.select_option("#seat_2", "human")
    page.select_option("#first", "1")
    page.select_option("#second_draws", "1")
    page.click("details.more summary")
    page.check("#hotseat")  # one screen: this browser plays both seats
    page.click("button[type=submit]")
    page.wait_for_selector(".invites")
    page.goto(f"{server.url}/")
    page.get_by_role("link", name="Rejoin as Player 2").click()
    page.wait_for_selector(".vs-board .pbar")
    page.wait_for_function("window.velvet.state && window.velvet.state.view")
    assert len(page.evaluate("window.velvet.state.view.hand")) == 6
    page.select_option(".seat-picker", label="Play as Player 1")
    page.wait_for_function("window.velvet.welcome && window.velvet.welcome.seat === 0")
    page.wait_for_function("window.velvet.state && window.velvet.state.view")
    assert len(page.evaluate("window.velvet.state.view.hand")) == 5
    tab.close()


def test_on_a_phone_a_tap_shows_a_hand_card_and_a_second_tap_plays_it(
    server: WebServer, browser: Any, shots: Path
) -> None:
    """A tap meant to read a card never plays it: it selects the card and shows all its
    text (skills too) with its actions; a tap on one of them plays it."""
    created = _create(server, seats=["human", "easy"], first="1")
    tab = Tab(browser, PHONE)
    page = tab.page
    page.goto(created["invites"][0]["url"])
    page.wait_for_selector(".vs-board .pbar")
    tab.wait_version(0)
    page.wait_for_function("Object.keys(window.velvet.cards).length > 0")
    state = tab.state()
    action = next(a for a in state["legal"] if a["targets"][:1] == ["hand:0"])
    card = page.locator(f'[data-ref="{action["targets"][0]}"].actable')
    card_id = card.get_attribute("data-card")
    card.click()
    menu = page.locator(".menu")
    menu.wait_for(state="visible")
    page.wait_for_timeout(300)
    assert tab.state()["version"] == state["version"]
    assert not any(json.loads(t)["type"] == "move" for t in tab.sent), "the tap played the card"
    assert "selected" in (card.get_attribute("class") or "")
    info = page.evaluate("id => window.velvet.cards[id]", card_id)
    shown = " ".join(menu.locator(".menu-card").inner_text().split())
    for line in info["lines"]:  # every line of the card, its skills among them
        assert " ".join(line.split()) in shown, line
    assert any(line.startswith("Skill") for line in info["lines"]), info["lines"]
    tab.no_sideways_scroll()
    page.screenshot(path=str(shots / "vs-tap-390x844.png"))
    menu.locator(f'button[data-action="{action["text"]}"]').click()
    tab.wait_version(state["version"] + 1)
    sent = [json.loads(t) for t in tab.sent]
    assert [m["action"] for m in sent if m["type"] == "move"] == [action["text"]]
    tab.close()


def test_the_lobby_lists_the_p5_set_up_choices_from_the_server(
    server: WebServer, browser: Any, shots: Path
) -> None:
    """Thieves, personas and palaces are lists of the game's own choices, not blind text."""
    from velvet.p5.game import load_p5_game

    choices = load_p5_game().choices()
    answer = httpx.get(f"{server.url}/api/games/p5/choices")
    assert answer.status_code == 200
    assert httpx.get(f"{server.url}/api/games/chess/choices").status_code == 404
    tab = Tab(browser, DESKTOP)
    page = tab.page
    page.goto(f"{server.url}/")
    page.wait_for_selector("form.create-form")
    page.select_option("#game", "p5")
    page.select_option("#seat_2", "human")
    lists = {"thief_1": "thieves", "thief_2": "thieves", "persona_1": "personas"}
    lists |= {"persona_2": "personas", "palace": "palaces"}
    for field, kind in lists.items():
        page.wait_for_function(f"document.querySelector('#{field}').options.length > 1")
        control = page.locator(f"#{field}")
        assert control.evaluate("c => c.tagName") == "SELECT"
        values = control.evaluate("c => [...c.options].map(o => o.value)")
        assert values == ["", *(ident for ident, _ in choices[kind])], field
        names = control.evaluate("c => [...c.options].slice(1).map(o => o.textContent)")
        assert names == [name for _, name in choices[kind]]
    thief, persona = choices["thieves"][-1][0], choices["personas"][-1][0]
    page.select_option("#thief_2", thief)
    page.select_option("#persona_1", persona)
    page.screenshot(path=str(shots / "lobby-p5-1280x720.png"), full_page=True)
    page.click("button[type=submit]")
    page.wait_for_selector(".invites")
    page.get_by_role("link", name="Play as Player 1").first.click()
    page.wait_for_selector(".p5-board")
    players = page.evaluate("window.velvet.state.view.players")
    assert players[1]["thief"] == thief and players[0]["persona"] == persona
    # the seat left at "Default" keeps its default card
    default = load_p5_game().default_config(2)["players"]
    assert players[0]["thief"] == default[0]["thief"]
    assert players[1]["persona"] == default[1]["persona"]
    tab.close()
