"""The reference client: invite links, and a whole terminal session against a live server."""

from __future__ import annotations

import asyncio
import io
import os
import sys
import time
from pathlib import Path

import httpx
import pytest
from tests.server.conftest import LiveServer, sqlite_url

from velvet.server.app import Settings
from velvet.server.client import parse_invite, play_terminal
from velvet.server.hinting import HintSettings


@pytest.mark.parametrize(
    ("url", "websocket", "room", "token"),
    [
        ("http://h:1/join/R1#tok", "ws://h:1/ws/R1", "R1", "tok"),
        ("https://h/velvet/join/R2", "wss://h/velvet/ws/R2", "R2", None),
        ("ws://h:2/ws/R3", "ws://h:2/ws/R3", "R3", None),
    ],
)
def test_invite_links_are_read(url: str, websocket: str, room: str, token: str | None) -> None:
    invite = parse_invite(url)
    assert (invite.websocket, invite.room, invite.token) == (websocket, room, token)


@pytest.mark.parametrize("url", ["ftp://h/join/R", "http://h/rooms/R", "http:///join/R", "R"])
def test_bad_invite_links_are_refused(url: str) -> None:
    with pytest.raises(ValueError, match="not an invite link"):
        parse_invite(url)


def test_a_terminal_session_plays_a_move(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with LiveServer(Settings(db=sqlite_url(tmp_path), bot_workers=0)) as server:
        room = httpx.post(f"{server.url}/api/rooms", json={"game": "p5"}).json()
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
        lines: list[str] = []
        assert asyncio.run(play_terminal(room["invites"][0]["url"], lines.append)) == 0
        info = httpx.get(f"{server.url}/api/rooms/{room['room']}").json()
    text = "\n".join(lines)
    assert "playing as Player 1" in text and "Your move (version 0)" in text
    assert info["version"] == 1  # the move typed as "1" was made


def test_a_terminal_session_takes_a_move_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with LiveServer(Settings(db=sqlite_url(tmp_path), bot_workers=0)) as server:
        room = httpx.post(f"{server.url}/api/rooms", json={"game": "p5"}).json()
        # a solo game's first action, a visit to Home, rolls no die and draws no card
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\nundo\n"))
        lines: list[str] = []
        assert asyncio.run(play_terminal(room["invites"][0]["url"], lines.append)) == 0
        info = httpx.get(f"{server.url}/api/rooms/{room['room']}").json()
    text = "\n".join(lines)
    assert "(or 'undo': take back your last move)" in text
    assert "Player 1 takes back 1 move." in text
    assert info["version"] == 2  # the move, then the undo


def test_a_terminal_session_asks_for_a_hint_and_a_forecast(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hints = HintSettings(budget="30", workers=0, forecast_games=1)
    with LiveServer(Settings(db=sqlite_url(tmp_path), bot_workers=0, hints=hints)) as server:
        room = httpx.post(f"{server.url}/api/rooms", json={"game": "p5"}).json()
        monkeypatch.setattr(sys, "stdin", io.StringIO("hint\nforecast\n"))
        lines: list[str] = []
        assert asyncio.run(play_terminal(room["invites"][0]["url"], lines.append)) == 0
        info = httpx.get(f"{server.url}/api/rooms/{room['room']}").json()
    text = "\n".join(lines)
    assert "Type 'hint' or 'forecast' when it is your move" in text
    assert "Hints (best first; 30 simulations, from your view):" in text
    assert (
        sum(
            line.startswith(("  1. ", "  2. ", "  3. "))
            and "to win if every player plays on like the easy bot (" in line
            for line in lines
        )
        == 3
    )
    assert text.count("     why: ") == 3
    assert "Forecast: " in text and "to beat the boss by day 28" in text
    assert "if every player plays like the easy bot" in text  # whose play each chance assumes
    assert "The hints assume the same play, after their move." in text
    assert info["version"] == 0  # asking changed nothing


def test_a_terminal_session_in_a_game_without_a_forecast_says_so_and_sends_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hints = HintSettings(budget="30", workers=0, forecast_games=1)
    with LiveServer(Settings(db=sqlite_url(tmp_path), bot_workers=0, hints=hints)) as server:
        body = {"game": "vs", "seats": ["human", "random"], "first": "1"}
        room = httpx.post(f"{server.url}/api/rooms", json=body).json()
        monkeypatch.setattr(sys, "stdin", io.StringIO("forecast\n"))
        lines: list[str] = []
        assert asyncio.run(play_terminal(room["invites"][0]["url"], lines.append)) == 0
    text = "\n".join(lines)
    assert "Type 'hint' when it is your move" in text  # no 'or forecast' in Persona VS
    assert "error: this room offers no forecast" in text
    assert "Playing games" not in text and "the game 'vs' offers no forecast" not in text


def test_a_terminal_session_cancels_a_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hints = HintSettings(budget="30s", workers=0, forecast_games=1, forecast_bot="greedy")
    with LiveServer(Settings(db=sqlite_url(tmp_path), bot_workers=0, hints=hints)) as server:
        room = httpx.post(f"{server.url}/api/rooms", json={"game": "p5"}).json()
        # typed while the 30-second search runs; then a forecast, which the freed slot takes
        monkeypatch.setattr(sys, "stdin", io.StringIO("hint\nhint cancel\nforecast\n"))
        lines: list[str] = []
        shown: dict[str, float] = {}

        def show(line: str) -> None:
            lines.append(line)
            shown.setdefault(line, time.perf_counter())

        started = time.perf_counter()
        assert asyncio.run(play_terminal(room["invites"][0]["url"], show)) == 0
    text = "\n".join(lines)
    assert "('hint cancel' stops it.)" in text and "The hint was cancelled." in text
    assert "Hints (best first" not in text  # the cancelled answer never came
    assert "Forecast: " in text and "error:" not in text
    # the cancel came long before the 30-second search would have ended (the forecast after
    # it plays a search game, whose time depends on the machine's load: not timed here)
    cancelled = next(at for line, at in shown.items() if "The hint was cancelled." in line)
    assert cancelled - started < 20


def test_a_terminal_session_is_told_its_clock_moved_for_a_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hints = HintSettings(budget="1s", workers=0)
    with LiveServer(Settings(db=sqlite_url(tmp_path), bot_workers=0, hints=hints)) as server:
        body = {"game": "p5", "turn_timer": 60, "takeover": "random"}
        room = httpx.post(f"{server.url}/api/rooms", json=body).json()
        monkeypatch.setattr(sys, "stdin", io.StringIO("hint\n"))
        lines: list[str] = []
        assert asyncio.run(play_terminal(room["invites"][0]["url"], lines.append)) == 0
    clock = [line for line in lines if line.startswith("Player 1's clock: +")]
    assert len(clock) == 1 and clock[0].endswith(" left).")
    assert "for the hint (0:5" in clock[0] or "for the hint (1:00" in clock[0]


def test_the_terminal_shows_the_time_left_of_a_decision_under_way() -> None:
    from velvet.server.client import _show

    lines: list[str] = []
    base = {"type": "state", "version": 3, "view": {}, "events": [], "legal": []}
    legal = [{"label": "Go home", "text": "home"}]
    _show({**base, "legal": legal, "time_left": 75.4}, lines.append, [])
    _show({**base, "to_move": 1, "time_left": 9.0}, lines.append, [])
    _show({**base, "legal": legal, "time_left": None}, lines.append, [])
    assert "Your move (version 3, 1:15 left):" in lines
    assert "Waiting for Player 2, 0:09 left …" in lines
    assert lines.count("Your move (version 3):") == 1  # a decision just begun: no clock


def test_the_terminal_names_who_plays_each_seat_from_the_server() -> None:
    from velvet.server.client import _show

    lines: list[str] = []
    seats = [
        {"seat": 0, "name": "Player 1", "who": "human", "display_name": "Ada"},
        {"seat": 1, "name": "Player 2", "who": "hard", "display_name": "Bot (hard)"},
    ]
    welcome = {"type": "welcome", "room": "r", "game": "vs", "seat": 0, "seed_sha256": "0"}
    _show({**welcome, "seats": seats}, lines.append, [])
    seats[1] = {"seat": 1, "name": "Player 2", "who": "human", "display_name": "Guest"}
    _show({"type": "seats", "seats": seats}, lines.append, [])
    assert lines[-1] == "Players: Player 1: Ada · Player 2: Guest"
    assert "Players: Player 1: Ada · Player 2: Bot (hard)" in lines


def test_join_fits_80_by_24_with_the_compact_board_and_pages_of_choices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")  # what a terminal of 80 x 24 tells rich
    monkeypatch.setenv("LINES", "24")
    with LiveServer(Settings(db=sqlite_url(tmp_path), bot_workers=0)) as server:
        room = httpx.post(f"{server.url}/api/rooms", json={"game": "p5"}).json()
        # three pages at most: how many choices fit one depends on the dealt confidants
        # (a recruit's chance note takes one or two rows)
        monkeypatch.setattr(sys, "stdin", io.StringIO("more\nmore\n"))
        lines: list[str] = []
        assert asyncio.run(play_terminal(room["invites"][0]["url"], lines.append)) == 0
    drawn = [row for line in lines for row in line.splitlines()]
    assert [row for row in drawn if len(row) > 80] == []
    top = next(i for i, row in enumerate(drawn) if row.startswith("Day 1 of 28 · "))
    page = next(i for i, row in enumerate(drawn) if "'more' shows the next page" in row)
    assert page - top + 2 <= 24  # the board, the first page and the prompt fit
    first, second = drawn[top:page], drawn[page + 1 :]
    assert any("Visit Weapons Shop" in row for row in first)
    # the room's note, from the engine: nothing is spent at the start, so Home restores none
    assert "Restore 2 SP + 1 Bullet (does nothing: nothing spent to restore)" in " ".join(
        " ".join(first).split()
    )
    assert not any("Change the party" in row for row in first)
    assert any("Change the party" in row for row in second)  # shown by 'more'


def test_join_takes_the_words_play_takes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with LiveServer(Settings(db=sqlite_url(tmp_path), bot_workers=0)) as server:
        room = httpx.post(f"{server.url}/api/rooms", json={"game": "p5"}).json()
        # the words of a label, not the text form 'visit weapons-shop'
        monkeypatch.setattr(sys, "stdin", io.StringIO("Visit Weapons Shop\n"))
        lines: list[str] = []
        assert asyncio.run(play_terminal(room["invites"][0]["url"], lines.append)) == 0
        info = httpx.get(f"{server.url}/api/rooms/{room['room']}").json()
    assert "error:" not in "\n".join(lines)
    assert "  Player 1 visits Weapons Shop." in lines
    assert info["version"] == 1


def test_join_matches_words_through_the_legal_list_alone() -> None:
    from velvet.server.client import move_text
    from velvet.ui.choose import InvalidAction

    legal = [
        {"text": "pass", "label": "Play no React"},
        {"text": "react 021", "label": "React with Counter"},
        {"text": "react 045", "label": "React with Rakukaja"},
    ]
    assert move_text("React with Counter", legal) == "react 021"
    assert move_text("react with counter", legal) == "react 021"
    assert move_text("2", legal) == "react 021"
    with pytest.raises(InvalidAction, match=r"could be more than one choice \(2\): React with"):
        move_text("react", legal)
    with pytest.raises(InvalidAction, match="no action number 9: choose 1 to 3"):
        move_text("9", legal)
    with pytest.raises(InvalidAction, match="digits 0-9"):
        move_text("²", legal)  # str.isdigit says yes, int() says no
    # words that fit nothing go to the server as typed: its legal list judges them
    assert move_text("summon pixie", legal) == "summon pixie"


def test_velvet_join_keeps_its_seat_and_a_second_client_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The claim's secret is kept in the data folder: the same invite link joined again
    from this user opens the seat; the same link from another user (another data folder)
    is refused as used."""
    with LiveServer(Settings(db=sqlite_url(tmp_path), bot_workers=0)) as server:
        room = httpx.post(f"{server.url}/api/rooms", json={"game": "p5"}).json()
        url = room["invites"][0]["url"]
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
        first: list[str] = []
        assert asyncio.run(play_terminal(url, first.append)) == 0
        saved = Path(os.environ["VELVET_DATA_DIR"]) / "joined-seats.json"
        monkeypatch.setattr(sys, "stdin", io.StringIO("move seat\n"))
        again: list[str] = []
        assert asyncio.run(play_terminal(url, again.append)) == 0
        other = tmp_path / "another-user"
        monkeypatch.setenv("VELVET_DATA_DIR", str(other))
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        refused: list[str] = []
        assert asyncio.run(play_terminal(url, refused.append)) == 2
    assert oct(saved.stat().st_mode & 0o777) == "0o600"
    text = "\n".join(again)
    assert "playing as Player 1" in text and "The game so far" in text
    assert "one-time code" in text
    assert any("already used" in line for line in refused)
