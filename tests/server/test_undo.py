"""Undo in a room: where the room allows it, never past chance or a hidden card, committed."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import hello, send, sqlite_url
from tests.server.test_app import make_room, next_of

from velvet.engine.record import GameRecord
from velvet.games import get_game, get_spec
from velvet.p5.game import P5Game
from velvet.server.app import Settings, create_app
from velvet.server.notices import MoveEntry, read_entry
from velvet.server.rooms import Room, undo_entry
from velvet.server.storage import RoomRow, SeatRow


def first_text(state: dict[str, Any], prefix: str) -> str:
    return next(str(a["text"]) for a in state["legal"] if a["text"].startswith(prefix))


def test_a_solo_player_takes_back_a_move_and_it_holds_after_a_restart(tmp_path: Path) -> None:
    settings = Settings(db=sqlite_url(tmp_path), bot_workers=0, rate=1000, http_rate=1000)
    with TestClient(create_app(settings)) as client:
        room = make_room(client, game="p5")
        token = room["invites"][0]["token"]
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            start = hello(ws, token)
            assert start["undo"] is False  # nothing made yet
            send(ws, type="move", version=0, action=first_text(start, "equip "))
            moved = next_of(ws, "state")
            assert moved["version"] == 1 and moved["undo"] is True
            send(ws, type="undo", version=1)
            undone = next_of(ws, "state")
    assert undone["ack"] and undone["acked"] == undo_entry(0)
    assert undone["version"] == 2  # an undo is committed like a move: versions only grow
    assert undone["view"] == start["view"] and undone["legal"] == start["legal"]
    assert [e["text"] for e in undone["events"]] == ["Player 1 takes back 1 move."]
    assert undone["undo"] is False
    with (
        TestClient(create_app(settings)) as client,  # a new process on the same database
        client.websocket_connect(f"/ws/{room['room']}") as ws,
    ):
        again = hello(ws, token)
        assert again["version"] == 2 and again["view"] == start["view"]
        send(ws, type="resign")
        over = next_of(ws, "over")
    record = over["record"]
    assert record["actions"] == []
    assert record["taken_back"] == [{"after": 0, "actions": [first_text(start, "equip ")]}]
    GameRecord.from_json(record).replay(get_game("p5"))  # the record still replays


def test_undo_stops_at_a_die_roll_or_a_revealed_card(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed = "velvet.server.room_rows.secrets.randbits"
    monkeypatch.setattr(seed, lambda _bits: 7)  # the room's seed
    room = make_room(client, game="p5")
    game = get_game("p5")
    assert isinstance(game, P5Game)
    local = game.new_state(game.default_config(1), 7)
    texts = []
    while True:  # the engine's own moves up to the first that draws on chance or a deck
        before = local.clone()
        action = local.legal_actions()[-1]
        local.apply(action)
        texts.append(str(action))
        if local.reveals_since(before):
            break
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        state = hello(ws, room["invites"][0]["token"])
        for text in texts:
            assert state["undo"] is (state["version"] > 0)  # every move so far can go back
            send(ws, type="move", version=state["version"], action=text)
            state = next_of(ws, "state")
        assert state["undo"] is False
        send(ws, type="undo", version=state["version"])
        refused = next_of(ws, "error")
        assert refused["code"] == "nothing_to_undo" and "cannot be taken back" in refused["message"]


def test_where_two_people_play_one_asks_and_the_other_agrees(client: TestClient) -> None:
    room = make_room(client, game="vs", first="1")
    a_token, b_token = (i["token"] for i in room["invites"])
    with (
        client.websocket_connect(f"/ws/{room['room']}") as a,
        client.websocket_connect(f"/ws/{room['room']}") as b,
    ):
        start, _ = hello(a, a_token), hello(b, b_token)
        send(a, type="move", version=0, action=start["legal"][0]["text"])  # ends the Planning
        moved = next_of(a, "state")
        assert moved["undo"] is True and next_of(b, "state")["undo"] is False
        send(a, type="undo", version=1)  # a request: nothing is taken back yet
        asked_a, asked_b = next_of(a, "state"), next_of(b, "state")
        assert asked_a["version"] == asked_b["version"] == 1
        assert asked_a["undo_asked"] == asked_b["undo_asked"] == 0
        assert asked_a["undo"] is False and asked_b["undo"] is True  # the other may agree
        assert "Player 1 asks to take back" in asked_b["events"][0]["text"]
        send(a, type="undo", version=1)
        assert next_of(a, "error")["code"] == "undo_asked"
        send(b, type="undo", version=1)  # Player 2 agrees
        back = next_of(a, "state")
    assert back["version"] == 2 and back["view"] == start["view"]
    assert back["undo_asked"] is None
    assert back["events"][0]["text"] == "Player 1 takes back 1 move."


def test_undo_is_refused_clearly_where_the_room_does_not_allow_it(client: TestClient) -> None:
    off = make_room(client, game="p5", undo="off")
    with client.websocket_connect(f"/ws/{off['room']}") as ws:
        state = hello(ws, off["invites"][0]["token"])
        send(ws, type="move", version=0, action=first_text(state, "equip "))
        state = next_of(ws, "state")
        assert state["undo"] is False
        send(ws, type="undo", version=state["version"])
        assert next_of(ws, "error")["code"] == "undo_off"
    solo = make_room(client, game="p5")
    with (
        client.websocket_connect(f"/ws/{solo['room']}") as ws,
        client.websocket_connect(f"/ws/{solo['room']}") as watcher,
    ):
        state = hello(ws, solo["invites"][0]["token"])
        hello(watcher, None)
        send(ws, type="move", version=0, action=first_text(state, "equip "))
        assert next_of(ws, "state")["undo"] is True
        send(ws, type="undo", version=0)  # made against an old version
        assert next_of(ws, "error")["code"] == "stale"
        send(watcher, type="undo", version=1)
        assert next_of(watcher, "error")["code"] == "spectator"
    assert client.post("/api/rooms", json={"game": "p5", "undo": "always"}).status_code == 422


def _room(seats: list[str], seed: int) -> Room:
    game = get_game("vs")
    config = get_spec("vs").config_for(game, 2, {"player_card": (), "first": "1"})
    row = RoomRow(
        id="r",
        game="vs",
        cards=[],
        config=config,
        seed=seed,
        nonce="n",
        seed_sha256="",
        status="playing",
        result=None,
        version=0,
        options={},
        listed=False,
        rematch_of=None,
        rematch=None,
        created=0.0,
        seats=[SeatRow(i, who, "") for i, who in enumerate(seats)],
    )
    return Room(row=row, game=game, state=game.new_state(config, seed), actions=[])


def test_undo_takes_back_the_bot_moves_after_the_persons_last_one() -> None:
    """Seat 1 is a bot: the person's skill and the bot's answer go back together."""
    found = False
    for seed in range(20):
        room = _room(["human", "random"], seed)
        pick = random.Random(seed)
        while not room.state.is_terminal() and room.version < 80:
            mover = room.state.current_player
            before = room.state.clone()
            text = str(pick.choice(room.state.legal_actions()))
            room.apply_entry(read_entry(text))
            revealed = room.state.reveals_since(before)
            mine_before = room.movers[-2:-1] == [0] and room.barrier < len(room.movers) - 1
            if mover == 1 and not revealed and mine_before:
                found = True
                keep = room.undo_target(0)
                assert keep == len(room.actions) - 2
                expected = room.state_after(keep)
                event = room.apply_entry(read_entry(undo_entry(keep)))[0]
                assert event.data == {"player": 0, "count": 2, "after": keep}
                assert room.state.view(0) == expected.view(0)
                assert room.state.current_player == 0 and room.record().taken_back
                break
        if found:
            break
    assert found, "no position with a bot's move after the person's in 20 games"
    off = _room(["human", "random"], 0)
    off.row.options["undo"] = "off"
    off.apply_entry(MoveEntry(str(off.state.legal_actions()[0])))
    assert off.undo_target(0) is None and not off.may_undo(0)
