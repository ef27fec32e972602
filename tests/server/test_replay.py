"""The replay of a finished game, frame by frame, as one seat or a spectator saw it."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import hello, send

from velvet.engine.errors import RecordError
from velvet.engine.record import GameRecord
from velvet.games import get_game
from velvet.server.replay import replay_frames


def make_room(client: TestClient, **options: Any) -> dict[str, Any]:
    r = client.post("/api/rooms", json=options)
    assert r.status_code == 201, r.text
    return dict(r.json())


def next_state(ws: Any) -> dict[str, Any]:
    for _ in range(50):
        m = ws.receive_json()
        if m["type"] == "state":
            return dict(m)
    raise AssertionError("no state message")


def play_vs_then_resign(client: TestClient, moves: int) -> dict[str, Any]:
    """Two people play ``moves`` random moves of VS, then seat 0 resigns."""
    room = make_room(client, game="vs", first="1")
    tokens = [i["token"] for i in room["invites"]]
    rng = random.Random(7)
    with (
        client.websocket_connect(f"/ws/{room['room']}") as a,
        client.websocket_connect(f"/ws/{room['room']}") as b,
    ):
        states = [hello(a, tokens[0]), hello(b, tokens[1])]
        for _ in range(moves):
            seat = states[0]["to_move"]
            if seat is None:
                break
            ws = (a, b)[seat]
            move = rng.choice(states[seat]["legal"])["text"]
            send(ws, type="move", version=states[seat]["version"], action=move)
            states = [next_state(a), next_state(b)]
        assert client.get(f"/api/rooms/{room['room']}/replay").status_code == 409
        send(a, type="resign")
        for _ in range(50):
            if a.receive_json()["type"] == "over":
                break
    return room


def test_a_seat_replays_its_own_view_and_never_the_other_hand(client: TestClient) -> None:
    room = play_vs_then_resign(client, moves=40)
    got = client.get(f"/api/rooms/{room['room']}/record").json()
    record = GameRecord.from_json(got["record"])
    game = get_game("vs")
    truth = [state.clone() for state, _, _ in record.steps(game)]
    assert len(truth) > 10
    for seat in (0, 1, None):
        query = "" if seat is None else f"?seat={seat}"
        answer = client.get(f"/api/rooms/{room['room']}/replay{query}")
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["seat"] == seat and body["game"] == "vs"
        frames = body["frames"]
        assert [f["index"] for f in frames] == list(range(len(truth)))
        assert frames[0]["move"] is None and frames[0]["events"] == []
        assert [f["move"] for f in frames[1:]] == record.actions
        for frame, state in zip(frames, truth, strict=True):
            own = [] if seat is None else sorted(state.view(seat)["hand"])
            assert sorted(frame["view"]["hand"]) == own
            assert frame["view"]["hand_sizes"] == [len(state.view(p)["hand"]) for p in (0, 1)]
            assert frame["view"] == (state.view(seat) if seat is not None else state.public_view())
            for event in frame["events"]:
                if event["kind"] == "search" and event["data"].get("player") != seat:
                    assert "card" not in event["data"]
        assert all(isinstance(f["label"], str) for f in frames[1:])


def test_replay_frames_hide_a_searched_card_from_the_other_seat() -> None:
    game = get_game("vs")
    config = game.default_config()
    for seed in range(60):
        record = GameRecord.start(game, config, seed)
        state = game.new_state(config, seed)
        rng = random.Random(seed)
        searched = False
        while not state.is_terminal() and len(record.actions) < 400:
            action = rng.choice(state.legal_actions())
            record.actions.append(str(action))
            events = state.apply_unchecked(action)
            searched = searched or any(e.kind == "search" and "card" in e.data for e in events)
        if not searched:
            continue
        for seat in (0, 1, None):
            for frame in replay_frames(game, record, seat):
                for event in frame["events"]:
                    if event["kind"] == "search":
                        mine = event["data"].get("player") == seat
                        assert ("card" in event["data"]) == mine
        return
    pytest.fail("no random game of 60 searched a card")


def test_the_replay_refuses_unknown_rooms_seats_and_unfinished_games(client: TestClient) -> None:
    assert client.get("/api/rooms/nothing-here/replay").json()["error"] == "no_room"
    room = make_room(client, game="p5", seats=["human"])
    assert client.get(f"/api/rooms/{room['room']}/replay").status_code == 409
    token = room["invites"][0]["token"]
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        hello(ws, token)
        send(ws, type="resign")
        for _ in range(50):
            if ws.receive_json()["type"] == "over":
                break
    bad = client.get(f"/api/rooms/{room['room']}/replay?seat=1")
    assert bad.status_code == 422 and "seat must be 0..0" in bad.json()["message"]
    good = client.get(f"/api/rooms/{room['room']}/replay?seat=0").json()
    assert len(good["frames"]) == 1 and good["frames"][0]["view"]["day"] == 1
    with pytest.raises(RecordError, match="no seat 3"):
        record = GameRecord.start(get_game("p5"), get_game("p5").default_config(), 1)
        replay_frames(get_game("p5"), record, 3)


def test_a_replay_speaks_the_language_asked_for(client: TestClient) -> None:
    room = play_vs_then_resign(client, moves=12)
    english = client.get(f"/api/rooms/{room['room']}/replay?seat=0").json()["frames"]
    japanese = client.get(f"/api/rooms/{room['room']}/replay?seat=0&lang=ja").json()["frames"]
    assert [f["move"] for f in japanese] == [f["move"] for f in english]  # the same game
    assert [f["view"] for f in japanese] == [f["view"] for f in english]
    kana = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    for en, ja in zip(english[1:], japanese[1:], strict=True):
        assert not kana.search(en["label"] + en["headline"])
        assert kana.search(ja["label"]) and kana.search(ja["headline"]), ja
    long = client.get(f"/api/rooms/{room['room']}/replay?lang={'x' * 41}")
    assert long.status_code == 422
