"""Rooms, seats, moves, reconnection and persistence through the app (TestClient)."""

from __future__ import annotations

import hashlib
import json
import random
import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import hello, send, sqlite_url

from velvet.cli import main
from velvet.engine.record import GameRecord, load_record
from velvet.games import get_game
from velvet.server.app import Settings, create_app


def make_room(client: TestClient, **options: Any) -> dict[str, Any]:
    r = client.post("/api/rooms", json=options)
    assert r.status_code == 201, r.text
    return dict(r.json())


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(50):
        m = ws.receive_json()
        if m["type"] == kind:
            return dict(m)
    raise AssertionError(f"no {kind} message")


def test_two_people_play_vs_each_seeing_only_their_own_hand(client: TestClient) -> None:
    room = make_room(client, game="vs", first="1")
    assert len(room["invites"]) == 2
    t0, t1 = (i["token"] for i in room["invites"])
    assert len(t0) >= 22 and t0 != t1  # >= 128 bits of token_urlsafe
    with (
        client.websocket_connect(f"/ws/{room['room']}") as a,
        client.websocket_connect(f"/ws/{room['room']}") as b,
        client.websocket_connect(f"/ws/{room['room']}") as spectator,
    ):
        sa, sb, ss = hello(a, t0), hello(b, t1), hello(spectator, None)
        assert sa["view"]["hand"] and sb["view"]["hand"]
        assert ss["view"]["hand"] == [] and ss["legal"] == []
        assert sa["to_move"] == 0 and sa["legal"] and sb["legal"] == []
        move = sa["legal"][0]["text"]
        send(a, type="move", version=0, action=move)
        mine = next_of(a, "state")
        assert mine["ack"] and mine["version"] == 1
        theirs = next_of(b, "state")
        assert not theirs["ack"] and theirs["version"] == 1
        assert next_of(spectator, "state")["version"] == 1


def test_refused_moves_name_the_reason_and_change_nothing(client: TestClient) -> None:
    room = make_room(client, game="vs", first="1")
    t0, t1 = (i["token"] for i in room["invites"])
    with (
        client.websocket_connect(f"/ws/{room['room']}") as a,
        client.websocket_connect(f"/ws/{room['room']}") as b,
    ):
        start = hello(a, t0)
        hello(b, t1)
        send(b, type="move", version=0, action=start["legal"][0]["text"])
        assert next_of(b, "error")["code"] == "not_your_turn"
        send(a, type="move", version=5, action=start["legal"][0]["text"])
        assert next_of(a, "error")["code"] == "stale"
        send(a, type="move", version=0, action="attack")  # well-formed, not legal now
        error = next_of(a, "error")
        assert error["code"] in ("illegal", "invalid")
        if error["code"] == "illegal":
            assert error["rule"].startswith("VS-")
        send(a, type="move", version=0, action="no such move at all")
        assert next_of(a, "error")["code"] in ("illegal", "invalid")
        info = client.get(f"/api/rooms/{room['room']}").json()
        assert info["version"] == 0


def test_a_token_opens_only_its_seat_and_bad_tokens_are_refused(client: TestClient) -> None:
    room = make_room(client, game="vs")
    other = make_room(client, game="vs")
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        ws.send_text(json.dumps({"v": 1, "type": "hello", "token": other["invites"][0]["token"]}))
        assert ws.receive_json()["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        state = hello(ws, room["invites"][1]["token"])
        assert state["view"]["viewer"] == 1


def test_reconnecting_restores_the_seat_and_a_restart_loses_nothing(tmp_path: Path) -> None:
    settings = Settings(db=sqlite_url(tmp_path), bot_workers=0)
    with TestClient(create_app(settings)) as client:
        room = make_room(client, game="p5", players=2)
        tokens = [i["token"] for i in room["invites"]]
        for _ in range(6):
            with client.websocket_connect(f"/ws/{room['room']}") as ws:
                state = hello(ws, tokens[0])
                if state["to_move"] != 0:
                    break
                send(ws, type="move", version=state["version"], action=state["legal"][-1]["text"])
                assert next_of(ws, "state")["ack"]
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            before = hello(ws, tokens[0])
    assert before["version"] >= 1
    with (
        TestClient(create_app(settings)) as client,  # a new process on the same database
        client.websocket_connect(f"/ws/{room['room']}") as ws,
    ):
        after = hello(ws, tokens[0])
    assert after["version"] == before["version"]
    assert after["view"] == before["view"] and after["legal"] == before["legal"]


def test_resign_ends_the_game_and_the_record_reveals_the_committed_seed(
    client: TestClient, tmp_path: Path
) -> None:
    room = make_room(client, game="vs", seats=["human", "random"])
    token = room["invites"][0]["token"]
    assert client.get(f"/api/rooms/{room['room']}/record").status_code == 409
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        hello(ws, token)
        send(ws, type="resign")
        over = next_of(ws, "over")
        assert over["result"]["resigned"] == 0 and over["result"]["returns"] == [0.0, 1.0]
        send(ws, type="move", version=0, action="pass")
        assert next_of(ws, "error")["code"] == "game_over"
    got = client.get(f"/api/rooms/{room['room']}/record").json()
    digest = hashlib.sha256(f"{got['nonce']}:{got['seed']}".encode()).hexdigest()
    assert digest == room["seed_sha256"] == got["seed_sha256"]
    record = GameRecord.from_json(got["record"])
    assert record.seed == got["seed"]
    record.replay(get_game("vs"))  # the record replays
    download = tmp_path / "room.json"  # the download as it is: velvet replay/review read it
    download.write_text(json.dumps(got))
    assert load_record(download, get_game).to_json() == got["record"]
    shown = CliRunner().invoke(main, ["replay", str(download), "--view", "1"])
    assert shown.exit_code == 0 and f"{len(record.actions)} actions" in shown.output, shown.output


RENAMED = '[[persona]]\nid = "004"\nname = "Renamed Frost"\ncost = 1\nweakness = "fire"\n'
RENAMED += 'skills = [{ name = "Bufu", type = "ice", damage = 3 }]\n'


def test_a_custom_card_room_is_reviewed_with_its_own_cards(client: TestClient) -> None:
    room = make_room(client, game="vs", seats=["human", "random"], cards=[RENAMED])
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        hello(ws, room["invites"][0]["token"])
        send(ws, type="resign")
        next_of(ws, "over")
    download = client.get(f"/api/rooms/{room['room']}/record").json()
    assert download["cards"] == [RENAMED]
    with client.stream("POST", "/api/review", json=download) as answer:
        assert answer.status_code == 200
        # its progress lines come as they are judged: never held back by a compressor
        assert "content-encoding" not in answer.headers
        start = json.loads(next(answer.iter_lines()))
    assert start["type"] == "start" and start["game"] == "vs"
    # without its cards the record is of another card set, and the review says so
    bare = client.post("/api/review", json=download["record"])
    assert bare.status_code == 422 and "card" in bare.json()["message"], bare.json()
    bad = client.post("/api/review", json={**download, "cards": "x"})
    assert bad.status_code == 422 and "field 'cards'" in bad.json()["message"]


def test_the_page_files_and_json_come_compressed_to_a_client_that_takes_gzip(
    client: TestClient,
) -> None:
    room = make_room(client, game="vs")["room"]
    for path in ("/static/app.js", "/static/style.css", f"/api/rooms/{room}/cards", "/"):
        packed = client.get(path, headers={"accept-encoding": "gzip"})
        plain = client.get(path, headers={"accept-encoding": "identity"})
        assert packed.status_code == plain.status_code == 200, path
        assert packed.headers["content-encoding"] == "gzip", path
        assert "content-encoding" not in plain.headers, path
        assert packed.content == plain.content  # httpx unpacks it: the same bytes
        assert int(packed.headers["content-length"]) < len(plain.content) / 2, path
    small = client.get("/healthz", headers={"accept-encoding": "gzip"})  # not worth it
    assert small.status_code == 200 and "content-encoding" not in small.headers


def test_the_page_preloads_its_modules_and_a_table_its_board(client: TestClient) -> None:
    html = {"accept": "text/html"}
    lobby = client.get("/", headers=html).text
    preloaded = re.findall(r'<link rel="modulepreload" href="static/([\w-]+\.js)">', lobby)
    assert {"lobby.js", "table.js", "i18n.js", "seeks.js"} <= set(preloaded)  # seeks: 2 deep
    assert "app.js" not in preloaded and len(preloaded) == len(set(preloaded))
    assert "data-board" not in lobby and "{{PRELOAD}}" not in lobby
    for game, board in (("vs", "vs"), ("p5", "p5")):
        room = make_room(client, game=game)["room"]
        table = client.get(f"/join/{room}", headers=html).text
        link = f'<link rel="stylesheet" href="static/{board}.css" data-board="{game}">'
        assert link in table, table
        for module in (f"{board}.js", "cards.js"):
            assert f'<link rel="modulepreload" href="static/{module}">' in table
    unknown = client.get("/join/no-such-room", headers=html)
    assert unknown.status_code == 200 and "data-board" not in unknown.text


def test_a_bot_game_runs_to_its_end_and_a_rematch_keeps_the_seats(client: TestClient) -> None:
    room = make_room(client, game="vs", seats=["human", "random"], listed=False)
    token = room["invites"][0]["token"]
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        state = hello(ws, token)
        pick = random.Random(3)
        for _ in range(3000):
            if state["status"] == "over":
                break
            if state["legal"]:
                action = pick.choice(state["legal"])["text"]
                send(ws, type="move", version=state["version"], action=action)
            state = next_of(ws, "state")
        assert state["status"] == "over"
        send(ws, type="rematch")
        new = next_of(ws, "rematch")["room"]
    assert new != room["room"]
    with client.websocket_connect(f"/ws/{new}") as ws:
        assert hello(ws, token)["version"] >= 0  # the same token opens the same seat


def test_room_options_are_checked_like_the_cli(client: TestClient) -> None:
    cases = [
        ({"game": "p5", "thieves": ["nobody"]}, "unknown thief 'nobody'"),
        ({"game": "vs", "seats": ["human", "wizard"]}, "unknown bot 'wizard'"),
        ({"game": "vs", "player_cards": ["p9"]}, "p9"),
        ({"game": "vs", "decks": ["player_card = 'p5'\n[[cards]]\ncard = 'zzz'\n"]}, "zzz"),
        ({"game": "vs", "decks": ["not toml ["]}, "deck of seat 1: not valid TOML"),
        ({"game": "p5", "player_cards": ["p5"]}, "game 'p5' has no option --player_card"),
        ({"game": "vs", "options": {"deck": [None, {"text": "[x"}]}}, "deck of seat 2"),
    ]
    for body, words in cases:
        r = client.post("/api/rooms", json=body)
        assert r.status_code == 400, (body, r.text)
        assert words in r.json()["message"], r.json()
    fields = {  # each refusal names the option (or room field) and seat it is about
        "thief": ({"game": "p5", "options": {"thief": ["nobody"]}}, 0),
        "seats": ({"game": "vs", "seats": ["human", "wizard"]}, 1),
        "player_card": ({"game": "vs", "options": {"player_card": ["p5", "p9"]}}, 1),
        "deck": ({"game": "vs", "options": {"deck": [None, {"text": "[x"}]}}, 1),
        "palace": ({"game": "p5", "options": {"palace": "nowhere"}}, None),
        "takeover": ({"game": "vs", "takeover": "wizard"}, None),
    }
    for option, (body, seat) in fields.items():
        got = client.post("/api/rooms", json=body).json()
        assert (got["error"], got["option"], got["seat"]) == ("bad_options", option, seat), got
    schema = client.post("/api/rooms", json={"game": "vs", "turn_timer": 1}).json()
    assert (schema["error"], schema["option"], schema["seat"]) == (
        "bad_request",
        "turn_timer",
        None,
    )
    seat = client.post("/api/rooms", json={"game": "vs", "seats": ["human", ""]}).json()
    assert (seat["option"], seat["seat"]) == ("seats", 1)
    r = client.post("/api/rooms", json={"game": "chess"})
    assert r.status_code == 422 and "game" in r.json()["message"]
    assert r.json()["message"] == "game: unknown game 'chess': choose p5, vs"
    # a name with a newline is quoted escaped: the message stays one line (found by the fuzz)
    r = client.post("/api/rooms", json={"game": "\n"})
    assert r.json()["message"] == "game: unknown game '\\n': choose p5, vs"
    r = client.post("/api/seeks", json={"game": "x\ty", "secret": "s" * 16})
    assert r.status_code == 422 and "\t" not in r.json()["message"], r.json()
    assert client.get("/api/rooms").json() == []


def test_a_custom_deck_file_is_played(client: TestClient) -> None:
    deck = (Path(__file__).parents[2] / "src/velvet/vs/data/decks/p4.toml").read_text()
    room = make_room(client, game="vs", player_cards=["p4", "p4"], decks=[deck, None])
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        state = hello(ws, room["invites"][0]["token"])
    assert state["view"]["player_cards"] == ["p4", "p4"]
    assert sorted(state["view"]["decklists"][0]) == sorted(state["view"]["decklists"][1])


def test_the_games_route_publishes_what_the_lobby_form_is_built_from(
    client: TestClient,
) -> None:
    games = client.get("/api/games").json()
    assert [g["name"] for g in games] == ["p5", "vs"]
    vs = games[1]
    assert vs["bots"][:3] == ["easy", "normal", "hard"] and "random" in vs["bots"]
    assert {o["name"] for o in vs["options"]} == {"player_card", "deck", "first", "second_draws"}
    deck = next(o for o in vs["options"] if o["name"] == "deck")
    assert (deck["kind"], deck["multiple"]) == ("path", True)
    assert "/api/games" in client.get("/openapi.json").json()["paths"]


def test_lobby_lists_open_rooms(client: TestClient) -> None:
    listed = make_room(client, game="p5")
    make_room(client, game="p5", listed=False)
    lobby = client.get("/api/rooms").json()
    assert [r["room"] for r in lobby] == [listed["room"]]
    assert "token" not in json.dumps(lobby)


def test_a_dropped_seat_is_handed_to_a_bot_after_the_grace_period(tmp_path: Path) -> None:
    settings = Settings(db=sqlite_url(tmp_path), bot_workers=0)
    with TestClient(create_app(settings)) as client:
        room = make_room(client, game="vs", first="1", grace=1, takeover="random")
        t0, t1 = (i["token"] for i in room["invites"])
        with client.websocket_connect(f"/ws/{room['room']}") as b:
            hello(b, t1)
            with client.websocket_connect(f"/ws/{room['room']}") as a:
                hello(a, t0)
            deadline = time.monotonic() + 10
            while client.get(f"/api/rooms/{room['room']}").json()["version"] == 0:
                assert time.monotonic() < deadline, "the bot never took the seat"
                time.sleep(0.1)
            seats = client.get(f"/api/rooms/{room['room']}").json()["seats"]
            assert seats[0]["who"] == "random"


def test_websocket_origin_is_checked(client: TestClient) -> None:
    room = make_room(client, game="p5")
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(
            f"/ws/{room['room']}", headers={"origin": "http://evil.example"}
        ) as ws,
    ):
        ws.receive_json()
    with client.websocket_connect(
        f"/ws/{room['room']}", headers={"origin": "http://testserver"}
    ) as ws:
        hello(ws, None)


def test_openapi_documents_the_room_api(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert {"/api/rooms", "/api/rooms/{room_id}", "/api/rooms/{room_id}/record"} <= set(
        spec["paths"]
    )
    game = spec["components"]["schemas"]["CreateRoom"]["properties"]["game"]
    assert game["type"] == "string" and game["enum"] == ["p5", "vs"]  # the registry's names


def test_a_locked_database_refuses_the_move_clearly_and_changes_nothing(tmp_path: Path) -> None:
    settings = Settings(db=sqlite_url(tmp_path), bot_workers=0, busy_ms=200)
    with TestClient(create_app(settings)) as client:
        room = make_room(client, game="p5")
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            start = hello(ws, room["invites"][0]["token"])
            move = start["legal"][0]["text"]
            other = sqlite3.connect(tmp_path / "velvet.sqlite3", isolation_level=None)
            other.execute("BEGIN EXCLUSIVE")  # another writer holds the database
            send(ws, type="move", version=0, action=move)
            error = next_of(ws, "error")
            assert error["code"] == "storage" and "locked" in error["message"]
            other.execute("ROLLBACK")
            other.close()
            assert client.get(f"/api/rooms/{room['room']}").json()["version"] == 0
            send(ws, type="move", version=0, action=move)  # the same move, once free
            assert next_of(ws, "state")["ack"]


def test_the_turn_timer_moves_for_a_seat_that_waits_too_long(client: TestClient) -> None:
    room = make_room(client, game="p5", turn_timer=5, takeover="random")
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        start = hello(ws, room["invites"][0]["token"])
        assert start["legal"]
        moved = next_of(ws, "state")  # nothing sent: the timer plays after 5 s
        assert moved["version"] == 1 and not moved["ack"]


def test_a_seat_that_reconnects_mid_decision_is_told_the_time_left(client: TestClient) -> None:
    room = make_room(client, game="vs", first="1", turn_timer=8, takeover="random")
    first, other = (invite["token"] for invite in room["invites"][:2])
    with client.websocket_connect(f"/ws/{room['room']}") as waiting:
        seen = hello(waiting, other)  # the other person stays: the room and its timer run on
        assert seen["to_move"] == 0 and not seen["legal"]
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            start = hello(ws, first)
            assert start["legal"] and start["version"] == 0
            assert start["time_left"] is not None and 6.5 <= start["time_left"] <= 8.0
        time.sleep(1.5)
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            again = hello(ws, first)
            assert again["version"] == 0 and again["legal"]  # the same decision, still timed
            assert again["time_left"] is not None
            assert 0.0 < again["time_left"] <= start["time_left"] - 1.4


def test_an_uploaded_card_file_is_checked_like_cards_check(client: TestClient) -> None:
    r = client.post("/api/rooms", json={"game": "vs", "cards": ["[[persona]]\nid = 7\n"]})
    assert r.status_code == 400, r.text
    message = r.json()["message"]
    assert message.startswith("card file 1: card 'persona #1': field 'id'"), message
    assert "\n" not in message


def test_serve_and_join_options_are_checked() -> None:
    from click.testing import CliRunner

    from velvet.cli import main

    runner = CliRunner()
    bad_db = runner.invoke(main, ["serve", "--db", "mysql://x"])
    assert bad_db.exit_code == 2 and "use sqlite:///FILE" in bad_db.output
    bad_link = runner.invoke(main, ["join", "ftp://x"])
    assert bad_link.exit_code == 2 and "not an invite link" in bad_link.output


def test_serve_passes_its_room_limits_to_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    from velvet.server import app as app_module

    made: list[Settings] = []
    monkeypatch.setattr(app_module, "create_app", lambda settings: made.append(settings))
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    runner = CliRunner()
    limits = ["--rooms-per-second", "500", "--max-rooms", "6000", "--max-connections", "7000"]
    ran = runner.invoke(main, ["serve", "--no-browser", *limits])
    assert ran.exit_code == 0, ran.output
    assert (made[0].http_rate, made[0].max_rooms) == (500.0, 6000)
    assert made[0].serve.connection_cap() == 7000
    assert runner.invoke(main, ["serve", "--no-browser"]).exit_code == 0
    assert (made[1].http_rate, made[1].max_rooms) == (Settings().http_rate, Settings().max_rooms)
    assert made[1].serve.max_connections is None  # the descriptor limit's share
    bad = runner.invoke(main, ["serve", "--max-rooms", "0"])
    assert bad.exit_code == 2 and "--max-rooms" in bad.output
