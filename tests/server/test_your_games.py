"""``POST /api/seats`` (issue 25, "your turn"): the games of the seats a client holds, its
move first, with who plays each seat; nothing about a seat it does not hold; bad input
refused as ``bad_request``. And the ``seats`` message and ``display_name`` that put names
on the table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from tests.server.conftest import sqlite_url
from tests.server.test_accounts import as_, sign_up
from tests.server.test_seats import greet, make_room, next_of
from tests.server.test_storage import _room

from velvet.server.storage import Storage, migrate


def ask(client: TestClient, seats: list[dict[str, Any]], **headers: str) -> dict[str, Any]:
    r = client.post("/api/seats", json={"seats": seats}, headers=headers)
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_a_seat_holder_sees_its_games_its_move_first_and_nothing_of_other_seats(
    client: TestClient,
) -> None:
    ada = sign_up(client, "Ada")
    vs = make_room(client, game="vs", first="1", seats=["human", "human"])
    bot = make_room(client, game="vs", first="2", seats=["human", "hard"])
    invites = [i["token"] for i in vs["invites"]]
    with (
        client.websocket_connect(f"/ws/{vs['room']}", headers=as_(ada)) as a,
        client.websocket_connect(f"/ws/{vs['room']}") as b,
        client.websocket_connect(f"/ws/{bot['room']}") as c,
    ):
        first = greet(a, invites[0])
        secret_a = first[0]["secret"]
        assert first[0]["seats"][0]["display_name"] == "Ada"
        assert first[0]["seats"][1]["display_name"] == "Open seat"
        welcome_b = greet(b, invites[1])[0]
        secret_b = welcome_b["secret"]
        # the seat Ada was waiting for has a person now: her table is told who
        seats = next_of(a, "seats")["seats"]
        assert [s["display_name"] for s in seats] == ["Ada", "Guest"]
        assert [s["player"] for s in seats] == ["Ada", None]
        secret_c = greet(c, bot["invites"][0]["token"])[0]["secret"]

    mine = ask(
        client,
        [{"room": bot["room"], "secret": secret_c}, {"room": vs["room"], "secret": secret_a}],
    )
    assert mine["unknown"] == [] and mine["player"] is None
    assert [g["room"] for g in mine["games"]] == [vs["room"], bot["room"]]  # my move first
    game = mine["games"][0]
    assert game["your_move"] is True and game["to_move"] == 0
    assert game["seats"] == [0] and game["here"] == [0] and game["title"] == "Persona VS"
    assert [p["display_name"] for p in game["players"]] == ["Ada", "Guest"]
    other = mine["games"][1]
    assert other["your_move"] is False and other["to_move"] == 1
    assert [p["display_name"] for p in other["players"]] == ["Guest", "Bot (hard)"]
    # Player 2's holder sees the same room as waiting for the other side
    theirs = ask(client, [{"room": vs["room"], "secret": secret_b}])
    assert [(g["seats"], g["your_move"]) for g in theirs["games"]] == [([1], False)]

    # nothing secret comes back: no token, no secret (not even the caller's), no view
    text = json.dumps(mine)
    for token in [*invites, secret_b, secret_a, secret_c, bot["invites"][0]["token"]]:
        assert token not in text
    assert "view" not in text and "hand" not in text and "sha256" not in text

    # another seat's invite (claimed by its holder) or a made-up secret opens nothing
    stray = ask(
        client,
        [
            {"room": vs["room"], "secret": invites[1]},
            {"room": vs["room"], "secret": "x" * 32},
            {"room": "no-such-room", "secret": secret_a},
            {"room": bot["room"], "secret": secret_c},
        ],
    )
    assert stray["unknown"] == [0, 1, 2]
    assert [g["room"] for g in stray["games"]] == [bot["room"]]

    # signed in, the account's seats come without any secret sent
    signed = ask(client, [], **as_(ada))
    assert signed["player"] == "Ada"
    assert [(g["room"], g["seats"], g["here"], g["your_move"]) for g in signed["games"]] == [
        (vs["room"], [0], [], True)
    ]


BAD = [
    ({"seats": [{"room": "r", "secret": "short"}]}, "seats.0.secret"),
    ({"seats": [{"room": "r", "secret": "y" * 32, "seat": 1}]}, "seats.0.seat"),
    ({"seats": [{"room": "r", "secret": 12345678901234567}]}, "seats.0.secret"),
    ({"seats": [{"room": "", "secret": "y" * 32}]}, "seats.0.room"),
    ({"seats": [{"room": "r", "secret": "y" * 32}] * 61}, "seats"),
    ({"seats": "all of them"}, "seats"),
    ({"tokens": []}, "tokens"),
]


def test_bad_input_is_refused_as_bad_request_naming_the_field(client: TestClient) -> None:
    for body, where in BAD:
        r = client.post("/api/seats", json=body)
        assert r.status_code == 422, (body, r.text)
        answer = r.json()
        assert answer["error"] == "bad_request"
        assert answer["message"].startswith(where), (where, answer["message"])
    r = client.post(
        "/api/seats", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 422 and r.json()["error"] == "bad_request"
    # the seats of nobody: an empty answer, not an error
    assert ask(client, []) == {"games": [], "unknown": [], "player": None}


def test_the_lobby_names_an_account_seat_of_a_room_not_in_memory(client: TestClient) -> None:
    ada = sign_up(client, "Ada")
    vs = make_room(client, game="vs", seats=["human", "human"])
    with client.websocket_connect(f"/ws/{vs['room']}", headers=as_(ada)) as a:
        greet(a, vs["invites"][0]["token"])
    hub = client.app.state.hub  # type: ignore[attr-defined]
    if vs["room"] in hub.rooms:
        hub._evict(hub.rooms[vs["room"]])
    assert vs["room"] not in hub.rooms  # left memory: the lobby reads it from the database
    listed = next(r for r in client.get("/api/rooms").json() if r["room"] == vs["room"])
    assert [s["display_name"] for s in listed["seats"]] == ["Ada", "Open seat"]


def _rooms_of(storage: Storage) -> None:
    migrate(storage.engine)
    older, newer, over = _room("older"), _room("newer"), _room("over")
    newer.created, over.created = older.created + 1, older.created + 2
    older.seats[1].account = newer.seats[0].account = over.seats[0].account = 7
    for row in (older, newer, over):
        storage.create_room(row)
    storage.finish("over", 0, {"text": "a draw"})
    found = storage.rooms_of(["newer", "older", "nowhere"])
    assert sorted(found) == ["newer", "older"]
    assert [s.seat for s in found["older"].seats] == [0, 1]
    assert found["older"].seats[1].token_sha256 == "b" * 64  # the digests, to compare with
    assert storage.rooms_of([]) == {}
    # games going on first, newest first; a finished one after them
    assert storage.rooms_of_account(7) == ["newer", "older", "over"]
    assert storage.rooms_of_account(8) == []
    storage.close()


def test_the_rooms_of_seats_on_sqlite(tmp_path: Path) -> None:
    _rooms_of(Storage(sqlite_url(tmp_path)))


def test_the_rooms_of_seats_on_postgresql(pg_url: str) -> None:
    _rooms_of(Storage(pg_url))


def test_a_bot_standing_in_and_the_person_coming_back_are_announced(client: TestClient) -> None:
    room = make_room(
        client, game="vs", first="1", seats=["human", "human"], grace=1, takeover="random"
    )
    path = f"/ws/{room['room']}"
    with client.websocket_connect(path) as a:
        greet(a, room["invites"][0]["token"])
        with client.websocket_connect(path) as b:
            secret = greet(b, room["invites"][1]["token"])[0]["secret"]
        assert [s["display_name"] for s in next_of(a, "seats")["seats"]] == ["Guest", "Guest"]
        # Player 2 left: after the grace period the takeover bot plays the seat, named so
        stand_in = next_of(a, "seats")["seats"][1]
        assert stand_in["display_name"] == "Guest (a bot plays for now)"
        assert stand_in["who"] == "random"
        with client.websocket_connect(path) as b:
            greet(b, secret)
            back = next_of(a, "seats")["seats"][1]
            assert (back["display_name"], back["who"]) == ("Guest", "human")
