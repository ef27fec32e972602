"""Storage: migrations, group commit, conflicts, and a database that is gone."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from sqlalchemy import inspect
from tests.server.conftest import sqlite_url

from velvet.server.storage import Conflict, RoomRow, SeatRow, Storage, StorageError, migrate


def _room(room_id: str) -> RoomRow:
    return RoomRow(
        id=room_id,
        game="vs",
        cards=[],
        config={"x": 1},
        seed=7,
        nonce="n",
        seed_sha256="h",
        status="playing",
        result=None,
        version=0,
        options={},
        listed=True,
        rematch_of=None,
        rematch=None,
        created=time.time(),
        seats=[SeatRow(0, "human", "a" * 64), SeatRow(1, "human", "b" * 64)],
    )


def _group_commit(storage: Storage) -> None:
    migrate(storage.engine)
    migrate(storage.engine)  # a second upgrade is a no-op
    assert {"velvet_rooms", "velvet_seats", "velvet_moves", "alembic_version"} <= set(
        inspect(storage.engine).get_table_names()
    )
    storage.create_room(_room("r1"))
    storage.create_room(_room("r2"))
    futures = [
        storage.submit_move("r1", 1, 0, "first", None),
        storage.submit_move("r1", 1, 1, "rival", None),  # the same number: must fail alone
        storage.submit_move("r2", 1, 0, "other", None),
        storage.submit_move("r1", 2, 1, "second", {"returns": [1.0, 0.0]}),
    ]
    outcomes = []
    for f in futures:
        try:
            f.result(10)
            outcomes.append("ok")
        except Conflict:
            outcomes.append("conflict")
    assert outcomes == ["ok", "conflict", "ok", "ok"]
    loaded = storage.load_room("r1")
    assert loaded is not None
    row, actions = loaded
    assert actions == ["first", "second"] and row.status == "over" and row.version == 2
    with pytest.raises(Conflict):
        storage.submit_move("r1", 3, 0, "after the end", None).result(10)
    changes = storage.changes("r1", 1)
    assert changes is not None and changes[1] == ["second"]


def test_group_commit_on_sqlite(tmp_path: Path) -> None:
    storage = Storage(sqlite_url(tmp_path))
    try:
        _group_commit(storage)
    finally:
        storage.close()


def test_group_commit_on_postgresql(pg_url: str) -> None:
    storage = Storage(pg_url)
    try:
        _group_commit(storage)
    finally:
        storage.close()


def test_a_database_that_is_gone_is_a_clear_error(tmp_path: Path) -> None:
    storage = Storage("postgresql://nobody@127.0.0.1:1/none")
    try:
        with pytest.raises(StorageError, match="unavailable"):
            storage.create_room(_room("r"))
        with pytest.raises(StorageError, match="unavailable"):
            storage.submit_move("r", 1, 0, "x", None).result(10)
    finally:
        storage.close()


def test_on_postgresql_the_commit_itself_announces_each_move_and_only_committed_ones(
    pg_url: str,
) -> None:
    import psycopg

    storage = Storage(pg_url)
    storage.notify_channel = "velvet_test_moves"
    listener = psycopg.connect(pg_url, autocommit=True)
    try:
        migrate(storage.engine)
        listener.execute('LISTEN "velvet_test_moves"')
        storage.create_room(_room("n1"))
        storage.submit_move("n1", 1, 0, "play 1 2", None).result(10)
        with pytest.raises(Conflict):  # move 1 again: refused, so never announced
            storage.submit_move("n1", 1, 1, "rival", None).result(10)
        storage.submit_move("n1", 2, 1, "end", {"returns": [0.0, 1.0]}).result(10)
        heard = [n.payload for n in listener.notifies(timeout=2.0, stop_after=3)]
    finally:
        listener.close()
        storage.close()
    assert heard == ["n1 1 0 play 1 2", "n1 2 1 end"]
