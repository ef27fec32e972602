"""Every message of many random games, over real sockets, checked for hidden cards.

Both games; seats played by people (clients choosing random legal moves) and by
the server's bots; a spectator in every room. Each game's record is replayed
afterwards, and every message a seat or spectator got is checked against the
true state of its version: the view is exactly ``view(seat)``, the legal list is
that seat's own, and no event, label or view names a card hidden from it.

The suite plays ``VELVET_LEAK_GAMES`` games (default 60); the issue's full run is
``VELVET_LEAK_GAMES=200``.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
from pathlib import Path
from typing import Any

import httpx
from tests.server.conftest import LiveServer, sqlite_url
from websockets.asyncio.client import connect

from velvet.engine.core import Game, State
from velvet.engine.errors import ConfigError
from velvet.engine.record import GameRecord
from velvet.games import get_game
from velvet.server.app import Settings
from velvet.server.games import public_view

GAMES = int(os.environ.get("VELVET_LEAK_GAMES", "60"))
AT_ONCE = 25
HTTP_TIMEOUT = httpx.Timeout(60.0)
"""Per request. httpx's default, 5 s, was not enough for a room to be made while 25 games
play at once on a loaded machine (load 6-8: httpx.ReadTimeout); no request here is slow
on an idle one, so a minute still fails a server that stopped answering."""
SOCKET_OPEN_TIMEOUT = 60.0
"""A socket's opening handshake (the websockets default is 10 s), for the same reason."""
GAME_TIMEOUT = 300.0
"""One whole game, every seat and the spectator (about 10 s each when idle): longer means a
move went unanswered, which fails naming the game."""
PATTERNS = [["human", "human"], ["human", "random"], ["random", "human"], ["random", "random"]]


_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _strings(data: Any) -> set[str]:
    """Every string (keys too) inside JSON-able ``data``."""
    return set(_STRING.findall(json.dumps(data, ensure_ascii=False)))


def hidden_from(state: State[Any], seat: int | None) -> set[str]:
    """Card ids in places ``seat`` may not look (None: a spectator).

    In VS that is the other players' hands and decks (a player may look through
    their own deck when an effect searches it).
    """
    data = state.to_json()
    if state.game.name == "vs":
        others = [p for p in range(2) if p != seat]
        return {c for p in others for c in [*data["hand"][p], *data["deck"][p]]}
    cards = state.game.cards  # type: ignore[attr-defined]
    return (
        {cards.shadows[i].id for i in data["shadow_deck"]}
        | {cards.locations[i].id for i in data["loc_deck"]}
        | {cards.confidants[i].id for i in data["conf_deck"]}
    )


def seen_by(state: State[Any], seat: int | None) -> set[str]:
    view = public_view(state) if seat is None else state.view(seat)
    view.pop("decklists", None)  # the deck lists are public; their order is not in them
    return _strings(view)


def check_game(messages: list[tuple[int | None, dict[str, Any]]], record: dict[str, Any]) -> int:
    """Check every state message of one game against its replay; return how many."""
    rec = GameRecord.from_json(record)
    game = get_game(rec.game)
    states = [s.clone() for s, _, _ in rec.steps(game)]
    seen: dict[tuple[int, int | None], set[str]] = {}

    def seen_at(v: int, seat: int | None) -> set[str]:
        if (v, seat) not in seen:
            seen[v, seat] = seen_by(states[v], seat)
        return seen[v, seat]

    names: dict[str, tuple[str, ...]] = {}
    checked = 0

    def secret_at(v: int, seat: int | None) -> set[str]:
        visible = seen_at(v, seat) | (seen_at(v - 1, seat) if v else set())
        return hidden_from(states[v], seat) - visible

    def unnamed(secret: set[str], talk: str, seat: int | None, v: int) -> None:
        for card in secret:
            if card not in names:
                names[card] = _names(game, card)
            for word in (card, *names[card]):
                if word not in talk:
                    continue  # the whole-name search below can only find what is in it
                # a whole name: "Izanagi" is not found in "Izanagi-no-Okami"
                found = re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", talk) is not None
                assert not found, f"seat {seat} read hidden {word!r} at {v}: {talk}"

    for seat, msg in messages:
        assert msg["type"] in ("welcome", "log", "state", "over", "error", "pong", "seats"), msg[
            "type"
        ]
        if msg["type"] == "log":  # the log so far a joining socket gets: as it may see it
            for entry in msg["entries"]:
                unnamed(secret_at(entry["version"], seat), entry["text"], seat, entry["version"])
                checked += 1
            continue
        if msg["type"] != "state":
            continue
        v = msg["version"]
        state = states[v]
        if seat is None:
            assert msg["view"] == public_view(state)
            if game.name == "vs":
                assert msg["view"]["hand"] == []
        else:
            assert msg["view"] == state.view(seat), f"seat {seat} got another view at {v}"
        if msg["legal"]:
            assert seat is not None and state.current_player == seat
            assert [a["text"] for a in msg["legal"]] == [str(a) for a in state.legal_actions()]
        secret = secret_at(v, seat)
        shown = {k: x for k, x in msg["view"].items() if k != "decklists"}
        named = _strings([e["data"] for e in msg["events"]]) | _strings(shown)
        leaked = secret & named
        assert not leaked, f"seat {seat} was told of hidden cards {leaked} at version {v}"
        talk = " | ".join([e["text"] for e in msg["events"]] + [a["label"] for a in msg["legal"]])
        unnamed(secret, talk, seat, v)
        checked += 1
    return checked


def _names(game: Game[Any], card: str) -> tuple[str, ...]:
    """The names a hidden card goes by (an id two kinds share names both cards)."""
    try:
        return (game.describe_card(card).name,)
    except ConfigError:
        kinds = ("shadow", "confidant", "location", "thief", "persona")
        found = []
        for kind in kinds:
            try:
                found.append(game.describe_card(f"{kind}:{card}").name)
            except ConfigError:
                continue
        assert found, f"no card {card!r}"
        return tuple(found)


async def play_one(base: str, http: httpx.AsyncClient, number: int) -> tuple[int, int]:
    name = "vs" if number % 2 else "p5"
    seats = PATTERNS[(number // 2) % len(PATTERNS)]
    body: dict[str, Any] = {"game": name, "seats": seats, "listed": False}
    if name == "p5":
        body["players"] = 2
    created = (await http.post("/api/rooms", json=body)).json()
    ws_url = created["websocket"]
    tokens = {i["seat"]: i["token"] for i in created["invites"]}
    messages: list[tuple[int | None, dict[str, Any]]] = []
    record: dict[str, Any] = {}
    pick = random.Random(number)

    async def seat_loop(seat: int | None) -> None:
        async with connect(
            ws_url, max_size=2**24, compression=None, open_timeout=SOCKET_OPEN_TIMEOUT
        ) as ws:
            await ws.send(json.dumps({"v": 1, "type": "hello", "token": tokens.get(seat)}))
            async for raw in ws:
                msg = json.loads(raw)
                messages.append((seat, msg))
                if msg["type"] == "over":
                    record.update(msg["record"])
                    return
                if msg["type"] == "state" and msg["legal"] and seat is not None:
                    action = pick.choice(msg["legal"])["text"]
                    await ws.send(
                        json.dumps(
                            {"v": 1, "type": "move", "version": msg["version"], "action": action}
                        )
                    )

    try:
        await asyncio.wait_for(
            asyncio.gather(seat_loop(None), *(seat_loop(s) for s in tokens)),
            timeout=GAME_TIMEOUT,
        )
    except TimeoutError:
        last = max((m.get("version", -1) for _, m in messages), default=-1)
        raise AssertionError(
            f"game {number} ({name}, seats {seats}) did not end within {GAME_TIMEOUT:.0f} s: "
            f"{len(messages)} messages, the last state version {last}"
        ) from None
    return check_game(messages, record), len(messages)


async def play_all(base: str) -> tuple[int, int, int]:
    async with httpx.AsyncClient(base_url=base, timeout=HTTP_TIMEOUT) as http:
        games = checked = total = 0
        for start in range(0, GAMES, AT_ONCE):
            batch = range(start, min(GAMES, start + AT_ONCE))
            for c, n in await asyncio.gather(*(play_one(base, http, i) for i in batch)):
                games += 1
                checked += c
                total += n
        return games, checked, total


def test_no_hidden_card_reaches_a_seat_or_spectator_that_may_not_see_it(tmp_path: Path) -> None:
    settings = Settings(db=sqlite_url(tmp_path), bot_workers=1, rate=1000, http_rate=1000)
    with LiveServer(settings) as server:
        games, checked, total = asyncio.run(play_all(server.url))
    assert games == GAMES
    assert checked > 100 * GAMES  # every game is long; each state message was checked
    print(f"{games} games, {total} messages, {checked} state messages checked")
