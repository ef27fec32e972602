#!/usr/bin/env python
"""Two costs a hostile client could once push onto ``velvet serve`` (docs/reliability.md).

``undo``: the time to load a P5 room of 30 quiet moves and then ``--pairs`` move/undo
pairs (each undo once replayed the game from the seed).

``ping``: the longest ping round trip on one room's socket while another client uploads
two 256 KiB card files (refused after a full parse), on a server in this process (the
parse once ran on the event loop).

    python benchmarks/server_limits.py undo --pairs 1500
    python benchmarks/server_limits.py ping --uploads 3
"""

from __future__ import annotations

import argparse
import json
import socket
import tempfile
import threading
import time
from typing import Any

PERSONA = """[[persona]]
id = "{i}"
name = "Card {i}"
cost = 1
weakness = "fire"
abilities = [{{ name = "Dia", trigger = "on_play", effects = [{{ op = "heal", amount = 2 }}] }}]
skills = [{{ name = "Zio", type = "electric", damage = 3 }}]

"""


def undo(pairs: int) -> None:
    from velvet.games import get_game
    from velvet.p5.game import P5Game
    from velvet.server.rooms import _replay, undo_entry
    from velvet.server.storage import RoomRow, SeatRow

    game = get_game("p5")
    assert isinstance(game, P5Game)
    config = game.default_config(1)
    state = game.new_state(config, 7)
    moves: list[str] = []
    while len(moves) < 31:  # moves that reveal nothing: they may be taken back
        for action in state.legal_actions():
            trial = state.clone()
            trial.apply(action)
            if not trial.reveals_since(state):
                state.apply(action)
                moves.append(str(action))
                break
        else:
            raise SystemExit("every action reveals something")
    entries = moves[:30] + [moves[30], undo_entry(30)] * pairs
    row = RoomRow(
        id="r", game="p5", cards=[], config=config, seed=7, nonce="n", seed_sha256="",
        status="playing", result=None, version=0, options={}, listed=False,
        rematch_of=None, rematch=None, created=0.0, seats=[SeatRow(0, "human", "")],
    )  # fmt: skip
    times = []
    for _ in range(3):
        started = time.perf_counter()
        _replay(row, entries)
        times.append(time.perf_counter() - started)
    print(f"{len(entries)} entries: best of 3 loads {min(times):.3f} s")


def ping(uploads: int) -> None:
    import httpx
    import uvicorn
    from websockets.sync.client import connect

    from velvet.server.app import Settings, create_app

    folder = tempfile.mkdtemp()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    settings = Settings(db=f"sqlite:///{folder}/db.sqlite3", bot_workers=0, rate=1e6)
    settings.http_rate = 1e6
    server = uvicorn.Server(
        uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="error")
    )
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    url = f"http://127.0.0.1:{port}"
    room = httpx.post(f"{url}/api/rooms", json={"game": "p5"}).json()
    big = "".join(PERSONA.format(i=1000 + i) for i in range(1300))[:262_000]
    big = big[: big.rindex("[[persona]]")]
    for trial in range(uploads):
        cards = [f"{big}\n# {trial} a\n", f"{big}\n# {trial} b\n"]
        status: list[int] = []

        def post(cards: list[str] = cards, status: list[int] = status) -> None:
            answer = httpx.post(f"{url}/api/rooms", json={"game": "vs", "cards": cards}, timeout=60)
            status.append(answer.status_code)

        upload = threading.Thread(target=post)
        with connect(f"ws://127.0.0.1:{port}/ws/{room['room']}") as ws:
            ws.send(json.dumps({"v": 1, "type": "hello", "token": None}))
            ws.recv(), ws.recv()  # welcome, state
            started = time.perf_counter()
            upload.start()
            trips: list[float] = []
            while upload.is_alive():
                sent = time.perf_counter()
                ws.send(json.dumps({"v": 1, "type": "ping"}))
                answer: Any = json.loads(ws.recv())
                assert answer["type"] == "pong"
                trips.append(time.perf_counter() - sent)
            upload.join()
        took = time.perf_counter() - started
        print(f"upload {took:.2f} s (status {status}), longest ping {max(trips) * 1000:.0f} ms")
    server.should_exit = True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("undo").add_argument("--pairs", type=int, default=1500)
    sub.add_parser("ping").add_argument("--uploads", type=int, default=3)
    args = parser.parse_args()
    if args.what == "undo":
        undo(args.pairs)
    else:
        ping(args.uploads)


if __name__ == "__main__":
    main()
