"""Optional accounts (issue 25, part 2): sign-up, sign-in (rate limited), sign-out, a seat
bound to the account that claimed it, profiles; anonymous play unchanged."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.server.conftest import sqlite_url
from tests.server.test_seats import greet, make_room, next_of

from velvet.server.account_web import COOKIE, SignInLimiter
from velvet.server.accounts import Accounts
from velvet.server.app import Settings, create_app
from velvet.server.storage import Storage, make_engine, migrate


def sign_up(client: TestClient, name: str, password: str = "correct horse") -> str:
    """A new account; its session token (the client's cookie jar is left empty)."""
    r = client.post("/api/account/signup", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    token = r.cookies[COOKIE]
    client.cookies.clear()
    return str(token)


def as_(token: str) -> dict[str, str]:
    return {"cookie": f"{COOKIE}={token}"}


def count(url: str, table: str) -> int:
    engine = make_engine(url)
    try:
        with engine.connect() as c:
            return int(c.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar_one())
    finally:
        engine.dispose()


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    url = sqlite_url(tmp_path)
    settings = Settings(db=url, bot_workers=0, rate=1000, http_rate=1000)
    with TestClient(create_app(settings)) as client:
        yield client, url


def test_sign_up_sets_an_http_only_lax_cookie_and_signs_in(
    app_client: tuple[TestClient, str],
) -> None:
    client, url = app_client
    r = client.post("/api/account/signup", json={"name": "Ada", "password": "correct horse"})
    assert r.status_code == 201 and r.json() == {"name": "Ada"}
    cookie = r.headers["set-cookie"]
    assert f"{COOKIE}=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Secure" not in cookie  # served over plain http here
    assert client.get("/api/account").json() == {"name": "Ada"}
    engine = make_engine(url)
    with engine.connect() as c:
        stored = c.execute(sa.text("SELECT password_hash FROM velvet_accounts")).scalar_one()
        session = c.execute(sa.text("SELECT token_sha256 FROM velvet_sessions")).scalar_one()
    engine.dispose()
    assert stored.startswith("$argon2id$") and "correct horse" not in stored
    assert session != r.cookies[COOKIE]  # only the token's digest is kept
    out = client.post("/api/account/signout")
    assert out.status_code == 200 and client.get("/api/account").json() == {"name": None}
    assert count(url, "velvet_sessions") == 0


def test_the_cookie_is_secure_behind_an_https_public_url(tmp_path: Path) -> None:
    settings = Settings(db=sqlite_url(tmp_path), bot_workers=0, public_url="https://v.example")
    with TestClient(create_app(settings)) as client:
        r = client.post("/api/account/signup", json={"name": "Ada", "password": "correct horse"})
        assert r.status_code == 201 and "Secure" in r.headers["set-cookie"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"name": "Bob", "password": "short"}, 422, "short_password"),
        ({"name": "x", "password": "long enough pass"}, 422, "bad_name"),
        ({"name": "no spaces!", "password": "long enough pass"}, 422, "bad_name"),
        ({"name": "ada", "password": "long enough pass"}, 409, "name_taken"),  # any case
    ],
)
def test_bad_sign_ups_say_why_and_change_nothing(
    app_client: tuple[TestClient, str], body: dict[str, str], status: int, code: str
) -> None:
    client, url = app_client
    sign_up(client, "Ada")
    r = client.post("/api/account/signup", json=body)
    assert r.status_code == status and r.json()["error"] == code, r.text
    assert r.json()["message"]
    assert COOKIE not in r.cookies
    assert count(url, "velvet_accounts") == 1 and count(url, "velvet_sessions") == 1


def test_sign_in_with_the_right_password_only(app_client: tuple[TestClient, str]) -> None:
    client, url = app_client
    sign_up(client, "Ada")
    wrong = client.post("/api/account/signin", json={"name": "Ada", "password": "wrong horse!"})
    assert wrong.status_code == 401 and wrong.json()["error"] == "wrong_password"
    unknown = client.post("/api/account/signin", json={"name": "Eve", "password": "wrong horse"})
    assert unknown.status_code == 401 and unknown.json()["message"] == wrong.json()["message"]
    assert count(url, "velvet_sessions") == 1 and client.get("/api/account").json()["name"] is None
    right = client.post("/api/account/signin", json={"name": "ADA", "password": "correct horse"})
    assert right.status_code == 200 and right.json() == {"name": "Ada"}
    assert client.get("/api/account").json() == {"name": "Ada"}


def test_sign_in_is_rate_limited_per_name_with_retry_after(
    app_client: tuple[TestClient, str],
) -> None:
    client, _ = app_client
    sign_up(client, "Ada")
    for _ in range(5):
        r = client.post("/api/account/signin", json={"name": "Ada", "password": "guess guess"})
        assert r.status_code == 401
    r = client.post("/api/account/signin", json={"name": "Ada", "password": "correct horse"})
    assert r.status_code == 429 and r.json()["error"] == "rate_limited"
    assert 1 <= int(r.headers["retry-after"]) <= 300 and "try again in" in r.json()["message"]
    assert COOKIE not in r.cookies  # even the right password waits


def test_the_limiter_counts_names_and_addresses_apart() -> None:
    limiter = SignInLimiter(per_name=2, per_address=3)
    assert limiter.refusal("ada", "10.0.0.1") is None
    assert limiter.refusal("ADA", "10.0.0.2") is None
    assert limiter.refusal("ada", "10.0.0.3") is not None  # the name's two are used
    assert limiter.refusal("bob", "10.0.0.1") is None
    assert limiter.refusal("cy", "10.0.0.1") is None
    wait = limiter.refusal("dee", "10.0.0.1")  # the address's three are used
    assert wait is not None and 0 < wait <= 300
    assert limiter.refusal(None, "10.0.0.9") is None  # another address is not held up


def test_a_seat_claimed_while_signed_in_is_bound_to_the_account(
    app_client: tuple[TestClient, str],
) -> None:
    client, url = app_client
    ada = sign_up(client, "Ada")
    room = make_room(client, game="vs", first="1")
    path = f"/ws/{room['room']}"
    with client.websocket_connect(path, headers=as_(ada)) as ws:
        assert greet(ws, room["invites"][0]["token"])[-1]["type"] == "state"
    with client.websocket_connect(path) as ws:  # anonymous play is as it was
        assert greet(ws, room["invites"][1]["token"])[-1]["type"] == "state"
    with make_engine(url).connect() as c:
        bound = c.execute(
            sa.text("SELECT seat, account FROM velvet_seats WHERE room = :r ORDER BY seat"),
            {"r": room["room"]},
        ).all()
    assert bound[0][1] is not None and bound[1][1] is None
    seats = client.get(f"/api/rooms/{room['room']}").json()["seats"]
    assert [s["player"] for s in seats] == ["Ada", None]  # a guest has no name
    profile = client.get("/api/players/ada").json()
    assert profile["name"] == "Ada" and profile["playing"] == [
        {"room": room["room"], "game": "vs", "seat": 0}
    ]


def test_a_rated_room_asks_for_two_accounts(app_client: tuple[TestClient, str]) -> None:
    client, _ = app_client
    ada = sign_up(client, "Ada")
    room = make_room(client, game="vs", first="1", rated=True)
    assert client.get(f"/api/rooms/{room['room']}").json()["rated"] is True
    path = f"/ws/{room['room']}"
    with client.websocket_connect(path) as ws:
        refused = greet(ws, room["invites"][1]["token"])[-1]
    assert refused["code"] == "sign_in" and "rated game" in refused["message"]
    with client.websocket_connect(path, headers=as_(ada)) as ws:
        assert greet(ws, room["invites"][0]["token"])[-1]["type"] == "state"
    with client.websocket_connect(path, headers=as_(ada)) as ws:
        assert greet(ws, room["invites"][1]["token"])[-1]["code"] == "same_account"
    bob = sign_up(client, "Bob")
    with client.websocket_connect(path, headers=as_(bob)) as ws:  # the refusals spent nothing
        assert greet(ws, room["invites"][1]["token"])[-1]["type"] == "state"


@pytest.mark.parametrize(
    "options",
    [
        {"game": "p5", "players": 2},  # co-op
        {"game": "vs", "seats": ["human", "random"]},
        {"game": "vs", "hotseat": True},
        {"game": "vs", "takeover": "random", "grace": 5},
    ],
)
def test_a_room_that_cannot_be_rated_is_refused(
    app_client: tuple[TestClient, str], options: dict[str, Any]
) -> None:
    client, _ = app_client
    r = client.post("/api/rooms", json={**options, "rated": True})
    assert r.status_code == 400 and r.json()["message"].startswith("rated: "), r.text


def test_a_finished_game_shows_on_both_profiles_with_decks(
    app_client: tuple[TestClient, str],
) -> None:
    client, url = app_client
    ada, bob = sign_up(client, "Ada"), sign_up(client, "Bob")
    room = make_room(client, game="vs", first="1")
    path = f"/ws/{room['room']}"
    with (
        client.websocket_connect(path, headers=as_(ada)) as a,
        client.websocket_connect(path, headers=as_(bob)) as b,
    ):
        greet(a, room["invites"][0]["token"])
        greet(b, room["invites"][1]["token"])
        a.send_text('{"v": 1, "type": "resign"}')
        next_of(a, "over")
    deadline = time.monotonic() + 10
    while count(url, "velvet_result_seats") < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    games = client.get("/api/players/Bob").json()["games"]
    assert len(games) == 1 and games[0]["result"] == "won" and games[0]["rated"] is False
    assert games[0]["opponents"][0]["name"] == "Ada" and games[0]["deck"]
    assert client.get("/api/players/Ada").json()["games"][0]["result"] == "lost"
    assert client.get("/api/players/Nobody").status_code == 404


def test_accounts_work_the_same_on_postgresql(pg_url: str) -> None:
    storage = Storage(pg_url)
    try:
        migrate(storage.engine)
        accounts = Accounts(storage)
        ada = accounts.sign_up("Ada", "correct horse")
        assert accounts.sign_in("ada", "correct horse") == ada
        token = accounts.new_session(ada)
        assert accounts.session(token) == ada and accounts.session("forged") is None
        accounts.end_session(token)
        assert accounts.session(token) is None
    finally:
        storage.close()


NEW_TABLES = {
    "velvet_accounts",
    "velvet_sessions",
    "velvet_ratings",
    "velvet_results",
    "velvet_result_seats",
}


def _migrations(url: str) -> None:
    """0004 makes the account tables and ``velvet_seats.account``; down to 0003 takes them
    away, keeping the rooms; up again brings them back."""
    from alembic import command
    from alembic.config import Config

    storage = Storage(url)
    try:
        migrate(storage.engine)
        tables = set(sa.inspect(storage.engine).get_table_names())
        assert tables >= NEW_TABLES
        config = Config()
        config.set_main_option(
            "script_location", str(Path(__file__).parents[2] / "src/velvet/server/migrations")
        )
        with storage.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0003")
        inspector = sa.inspect(storage.engine)
        assert not NEW_TABLES & set(inspector.get_table_names())
        assert "account" not in {c["name"] for c in inspector.get_columns("velvet_seats")}
        assert "velvet_rooms" in inspector.get_table_names()
        migrate(storage.engine)
        inspector = sa.inspect(storage.engine)
        assert set(inspector.get_table_names()) >= NEW_TABLES
        assert "account" in {c["name"] for c in inspector.get_columns("velvet_seats")}
        assert Accounts(storage).sign_up("Ada", "correct horse").name == "Ada"
    finally:
        storage.close()


def test_migration_0004_up_down_up_on_sqlite(tmp_path: Path) -> None:
    _migrations(sqlite_url(tmp_path))


def test_migration_0004_up_down_up_on_postgresql(pg_url: str) -> None:
    _migrations(pg_url)


def test_a_rematch_keeps_the_accounts_seats_swapped_and_a_co_op_loss_is_no_draw(
    app_client: tuple[TestClient, str],
) -> None:
    client, url = app_client
    ada, bob = sign_up(client, "Ada"), sign_up(client, "Bob")
    room = make_room(client, game="vs", first="1", rated=True)
    path = f"/ws/{room['room']}"
    with (
        client.websocket_connect(path, headers=as_(ada)) as a,
        client.websocket_connect(path, headers=as_(bob)) as b,
    ):
        greet(a, room["invites"][0]["token"])
        greet(b, room["invites"][1]["token"])
        a.send_text('{"v": 1, "type": "resign"}')
        next_of(a, "over")
        a.send_text('{"v": 1, "type": "rematch"}')  # an offer to the other person
        next_of(b, "rematch_offer")
        b.send_text('{"v": 1, "type": "rematch"}')  # accepted
        again = next_of(a, "rematch")["room"]
    with make_engine(url).connect() as c:
        accounts = c.execute(
            sa.text("SELECT room, seat, account FROM velvet_seats ORDER BY room, seat")
        ).all()
    by_room = {r: [a for rr, _, a in accounts if rr == r] for r, _, _ in accounts}
    # each account keeps its own seat's claim, the seats swapped
    assert by_room[again] == by_room[room["room"]][::-1] and None not in by_room[again]
    # co-op: both seats lose together (returns [0, 0]): each is "lost", not "drew"
    coop = make_room(client, game="p5", players=2)
    path = f"/ws/{coop['room']}"
    with (
        client.websocket_connect(path, headers=as_(ada)) as a,
        client.websocket_connect(path, headers=as_(bob)) as b,
    ):
        greet(a, coop["invites"][0]["token"])
        greet(b, coop["invites"][1]["token"])
        a.send_text('{"v": 1, "type": "resign"}')
        next_of(a, "over")
    deadline = time.monotonic() + 10
    while count(url, "velvet_result_seats") < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    p5 = [g for g in client.get("/api/players/Bob").json()["games"] if g["game"] == "p5"]
    assert len(p5) == 1 and p5[0]["result"] == "lost" and not p5[0]["rated"]
