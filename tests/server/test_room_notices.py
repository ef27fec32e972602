"""Committed entries are typed records, stored as every server version stored them: a room
saved with an ``!undo N`` written by an older server loads, and a new undo is stored so."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import hello, send, sqlite_url
from tests.server.test_app import make_room, next_of
from tests.server.test_undo import first_text

from velvet.engine.errors import ConfigError
from velvet.server.app import Settings, create_app
from velvet.server.notices import (
    MoveEntry,
    RematchDeclined,
    RematchOffered,
    UndoAsked,
    UndoEntry,
    read_entry,
)
from velvet.server.rooms import _replay
from velvet.server.storage import Storage


def test_a_stored_entry_reads_back_as_a_move_or_an_undo() -> None:
    assert read_entry("equip 2") == MoveEntry("equip 2")
    assert read_entry("!undo 12") == UndoEntry(12) and UndoEntry(12).text() == "!undo 12"
    for bad in ("!undo ", "!undo two", "!undo -1", "!undo ²"):
        with pytest.raises(ConfigError, match="names no move count"):
            read_entry(bad)


def test_a_room_saved_by_an_older_server_with_an_undo_loads(tmp_path: Path) -> None:
    settings = Settings(db=sqlite_url(tmp_path), bot_workers=0, rate=1000, http_rate=1000)
    with TestClient(create_app(settings)) as client:
        room = make_room(client, game="p5")
        token = room["invites"][0]["token"]
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            start = hello(ws, token)
    move = first_text(start, "equip ")
    storage = Storage(settings.db)  # the entries as an older server committed them
    try:
        storage.submit_move(room["room"], 1, 0, move, None).result(10)
        storage.submit_move(room["room"], 2, 0, "!undo 0", None).result(10)
    finally:
        storage.close()
    with TestClient(create_app(settings)) as client:
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            again = hello(ws, token)
            assert again["version"] == 2 and again["view"] == start["view"]
            send(ws, type="move", version=2, action=move)
            assert next_of(ws, "state")["version"] == 3
            send(ws, type="undo", version=3)
            assert next_of(ws, "state")["acked"] == "!undo 0"
        loaded = client.app.state.hub.storage.load_room(room["room"])  # type: ignore[attr-defined]
    assert loaded is not None and loaded[1] == [move, "!undo 0", move, "!undo 0"]


def test_a_room_whose_stored_undo_is_broken_is_refused_by_name(tmp_path: Path) -> None:
    settings = Settings(db=sqlite_url(tmp_path), bot_workers=0, rate=1000, http_rate=1000)
    with TestClient(create_app(settings)) as client:
        room = make_room(client, game="p5")
        row = client.app.state.hub.storage.load_room(room["room"])[0]  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match=r"cannot be replayed: a stored undo '!undo x'"):
        _replay(row, ["!undo x"])


def test_notices_from_another_process_reach_the_rooms_sockets(client: TestClient) -> None:
    """What a Redis or PostgreSQL bus hands the hub, typed: an undo asked, a rematch
    offered and declined, and a move this process has not seen yet."""
    room = make_room(client, game="vs", first="1")
    hub = client.app.state.hub  # type: ignore[attr-defined]
    room_id, tokens = room["room"], [i["token"] for i in room["invites"]]
    with client.websocket_connect(f"/ws/{room_id}") as ws:
        start = hello(ws, tokens[1])
        client.portal.call(hub.catch_up, room_id, 0, False, UndoAsked(0))  # type: ignore[union-attr]
        asked = next_of(ws, "state")
        assert asked["undo_asked"] == 0 and asked["events"][0]["kind"] == "undo_ask"
        client.portal.call(hub.catch_up, room_id, 0, True, RematchOffered(0))  # type: ignore[union-attr]
        assert next_of(ws, "rematch_offer")["seat"] == 0
        client.portal.call(hub.catch_up, room_id, 0, True, RematchDeclined(1))  # type: ignore[union-attr]
        assert next_of(ws, "rematch_declined")["seat"] == 1
        live = hub.rooms[room_id]  # a move committed elsewhere, applied as its notice comes
        seat, move = live.to_move(), str(live.state.legal_actions()[0])
        hub.storage.submit_move(room_id, 1, seat, move, None).result(10)
        client.portal.call(hub.catch_up, room_id, 1, False, MoveEntry(move))  # type: ignore[union-attr]
        moved = next_of(ws, "state")
        assert moved["version"] == 1 and moved["undo_asked"] is None and start["version"] == 0
