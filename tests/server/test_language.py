"""The words the server writes come in each socket's language (``hello``'s ``lang``).

Action labels, the events of a state and the log are written per socket: a Japanese
socket reads Japanese words and card names, an English one (or one whose language Velvet
has no catalogue of) the engine's English, in the same room at the same time; what a
client sends back (an action's ``text``) never changes.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient
from tests.server.conftest import claim, hello, send
from tests.server.test_app import make_room, next_of

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def labels(state: dict[str, Any]) -> dict[str, str]:
    return {a["text"]: a["label"] for a in state["legal"]}


def test_each_socket_reads_the_words_in_its_own_language(client: TestClient) -> None:
    room = make_room(client, game="vs", first="1")
    token = room["invites"][0]["token"]
    with (
        client.websocket_connect(f"/ws/{room['room']}") as ja,
        client.websocket_connect(f"/ws/{room['room']}") as en,
    ):
        start = hello(ja, token, lang="ja-JP")
        english = hello(en, None, lang="fr")  # no French catalogue: English
        words = labels(start)
        assert words["end"] == "プランニングステップを終える"
        summons = [label for text, label in words.items() if text.startswith("summon ")]
        assert summons and all("召喚する" in s and JAPANESE.search(s) for s in summons)
        assert english["legal"] == []  # a spectator has no moves
        summon = next(text for text in words if text.startswith("summon "))
        send(ja, type="move", version=start["version"], action=summon)
        moved_ja = next_of(ja, "state")
        moved_en = next_of(en, "state")
    said_ja = " ".join(e["text"] for e in moved_ja["events"])
    said_en = " ".join(e["text"] for e in moved_en["events"])
    assert JAPANESE.search(said_ja), said_ja
    assert "summons" in said_en and not JAPANESE.search(said_en), said_en


def test_a_late_socket_reads_the_log_in_its_language(client: TestClient) -> None:
    room = make_room(client, game="vs", first="1")
    token = room["invites"][0]["token"]
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        start = hello(ws, token)
        assert labels(start)["end"] == "End the Planning Step"  # no lang: English
        send(ws, type="move", version=start["version"], action="end")
        next_of(ws, "state")
    for lang, japanese in (("ja", True), ("en", False)):
        with client.websocket_connect(f"/ws/{room['room']}") as late:
            claim(late, None, lang)
            log = late.receive_json()
            assert log["type"] == "log"
            text = " ".join(e["text"] for e in log["entries"])
            assert bool(JAPANESE.search(text)) is japanese, text


def test_a_language_tag_too_long_is_refused(client: TestClient) -> None:
    room = make_room(client, game="vs")
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        send(ws, type="hello", token=None, lang="x" * 41)
        answer = ws.receive_json()
    assert answer["type"] == "error" and "lang" in answer["message"]
