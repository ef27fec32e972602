"""A full disk: the move is refused with ``storage``, nothing changes, and it goes through later.

The database lives on a tmpfs of 2 MiB mounted for the test (needs the
right to mount, as root in the CI container); a filler file takes the last of it.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import hello, send

from velvet.server.app import Settings, create_app


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs (skipped, saying why, where mounting is not allowed)."""
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(
            "a full disk is made with a small tmpfs, and mounting one needs root "
            f"(CAP_SYS_ADMIN): {mounted.stderr.strip()[:200]}"
        )
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def _fill(folder: Path) -> Path:
    """Take every free byte of ``folder``'s file system with one file."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as error:
        assert error.errno == errno.ENOSPC, error
    finally:
        os.close(fd)
    return filler


def _next(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(20):
        message = ws.receive_json()
        if message["type"] == kind:
            return dict(message)
    raise AssertionError(f"no {kind} message")


def test_a_full_disk_refuses_the_move_changes_nothing_and_the_move_goes_through_later(
    small_disk: Path,
) -> None:
    db = small_disk / "velvet.sqlite3"
    settings = Settings(db=f"sqlite:///{db}", bot_workers=0)
    with TestClient(create_app(settings)) as client:
        room = client.post("/api/rooms", json={"game": "p5", "players": 2}).json()
        token = room["invites"][0]["token"]
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            start = hello(ws, token)
            move = start["legal"][0]["text"]
            filler = _fill(small_disk)
            send(ws, type="move", version=0, action=move)
            error = _next(ws, "error")
            assert error["code"] == "storage" and "full" in str(error["message"]), error
            assert client.get(f"/api/rooms/{room['room']}").json()["version"] == 0
            filler.unlink()  # space is back: the same move, sent again, is taken
            send(ws, type="move", version=0, action=move)
            assert _next(ws, "state")["ack"]
    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        moves = check.execute("SELECT number, action FROM velvet_moves").fetchall()
    assert moves == [(1, move)]
    with (
        TestClient(create_app(settings)) as client,
        client.websocket_connect(f"/ws/{room['room']}") as ws,
    ):
        again = hello(ws, token)
    assert again["version"] == 1
