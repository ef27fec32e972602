"""Notices between processes: their text carries the move, when it is short enough, and
reads back as the typed record it was made from."""

from __future__ import annotations

import asyncio

from velvet.server.bus import MAX_ACTION, _deliver, make_bus, notice
from velvet.server.notices import (
    MoveEntry,
    Notice,
    RematchDeclined,
    RematchMade,
    RematchOffered,
    UndoAsked,
    UndoEntry,
)


def _heard(payload: str) -> list[tuple[str, int, bool, Notice | None]]:
    got: list[tuple[str, int, bool, Notice | None]] = []

    async def handler(room: str, version: int, over: bool, said: Notice | None) -> None:
        got.append((room, version, over, said))

    asyncio.run(_deliver(payload, handler))
    return got


def test_a_notice_carries_the_move_with_its_spaces() -> None:
    assert _heard(notice("r1", 7, False, "play 2 on  left")) == [
        ("r1", 7, False, MoveEntry("play 2 on  left"))
    ]
    assert _heard(notice("r1", 8, True, None)) == [("r1", 8, True, None)]  # a resignation


def test_every_kind_of_notice_reads_back_as_it_was_sent() -> None:
    sent: list[Notice] = [
        MoveEntry("pass"),
        UndoEntry(3),
        UndoAsked(1),
        RematchOffered(0),
        RematchDeclined(1),
        RematchMade("Xk3abc"),
    ]
    for said in sent:
        assert _heard(notice("r1", 4, False, said.text())) == [("r1", 4, False, said)]
    # the texts processes of every version send: unchanged
    assert [s.text() for s in sent[1:]] == [
        "!undo 3",
        "!ask 1",
        "!offer 0",
        "!decline 1",
        "!rematch Xk3abc",
    ]


def test_a_long_move_is_left_out_and_the_database_is_read_instead() -> None:
    assert _heard(notice("r1", 7, False, "x" * (MAX_ACTION + 1))) == [("r1", 7, False, None)]


def test_garbage_on_the_channel_is_ignored() -> None:
    assert _heard("") == [] and _heard("r1 seven 0") == [] and _heard("r1") == []
    for text in ("!ask one", "!undo", "!undo x", "!offer ", "!rematch ", "!decline -1"):
        assert _heard(f"r1 3 0 {text}") == [], text


def test_the_bus_follows_the_database() -> None:
    assert type(make_bus("sqlite:///x.db", None)).__name__ == "Bus"
    assert type(make_bus("postgresql://u@h/db", None)).__name__ == "PostgresBus"
    assert type(make_bus("postgresql://u@h/db", "redis://h:6379/0")).__name__ == "RedisBus"
