"""Notices between processes: their text carries the move, when it is short enough."""

from __future__ import annotations

import asyncio

from velvet.server.bus import MAX_ACTION, _deliver, make_bus, notice


def _heard(payload: str) -> list[tuple[str, int, bool, str | None]]:
    got: list[tuple[str, int, bool, str | None]] = []

    async def handler(room: str, version: int, over: bool, action: str | None) -> None:
        got.append((room, version, over, action))

    asyncio.run(_deliver(payload, handler))
    return got


def test_a_notice_carries_the_move_with_its_spaces() -> None:
    assert _heard(notice("r1", 7, False, "play 2 on  left")) == [
        ("r1", 7, False, "play 2 on  left")
    ]
    assert _heard(notice("r1", 8, True, None)) == [("r1", 8, True, None)]  # a resignation


def test_a_long_move_is_left_out_and_the_database_is_read_instead() -> None:
    assert _heard(notice("r1", 7, False, "x" * (MAX_ACTION + 1))) == [("r1", 7, False, None)]


def test_garbage_on_the_channel_is_ignored() -> None:
    assert _heard("") == [] and _heard("r1 seven 0") == [] and _heard("r1") == []


def test_the_bus_follows_the_database() -> None:
    assert type(make_bus("sqlite:///x.db", None)).__name__ == "Bus"
    assert type(make_bus("postgresql://u@h/db", None)).__name__ == "PostgresBus"
    assert type(make_bus("postgresql://u@h/db", "redis://h:6379/0")).__name__ == "RedisBus"
