"""A room's committed entries and its bus notices, as typed records with a ``kind``.

A committed entry (a row of ``velvet_moves``) is a move, stored as its action's text, or
an undo, stored as ``!undo N`` (the moves after the first N are taken back). A bus notice
(``room version over[ TEXT]``, velvet.server.bus) carries one committed entry, or one of
the notices never committed: ``!ask SEAT`` (SEAT asks to take its last move back),
``!emote SEAT EMOTE NONCE`` (a seat's preset emote; the nonce tells its sender it back),
``!chat SEAT NONCE TEXT`` (a seat's chat line, one line, the rest of the notice),
``!offer SEAT`` / ``!decline SEAT`` (a rematch offered or turned down), ``!rematch ROOM``
(the rematch was made). These stored and sent forms are the ones every version of the
server wrote, so old rooms load and processes of mixed versions understand each other;
in the code they are only the records below (``read_entry``, ``read_notice``, ``text``).
No action's text begins with ``!``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from velvet.engine.errors import ConfigError

UNDO_PREFIX = "!undo "
ASK_PREFIX = "!ask "
OFFER_PREFIX = "!offer "
DECLINE_PREFIX = "!decline "
MADE_PREFIX = "!rematch "
EMOTE_PREFIX = "!emote "
CHAT_PREFIX = "!chat "


@dataclass(frozen=True)
class MoveEntry:
    """A move: the text of the action made."""

    action: str
    kind: Literal["move"] = "move"

    def text(self) -> str:
        return self.action


@dataclass(frozen=True)
class UndoEntry:
    """An undo: the moves after the first ``keep`` are taken back."""

    keep: int
    kind: Literal["undo"] = "undo"

    def text(self) -> str:
        return f"{UNDO_PREFIX}{self.keep}"


Entry = MoveEntry | UndoEntry
"""A committed entry of a room (the version counts them)."""


@dataclass(frozen=True)
class UndoAsked:
    """``seat`` asked, at the notice's version, to take its last move back."""

    seat: int
    kind: Literal["undo_ask"] = "undo_ask"

    def text(self) -> str:
        return f"{ASK_PREFIX}{self.seat}"


@dataclass(frozen=True)
class RematchOffered:
    seat: int
    kind: Literal["rematch_offer"] = "rematch_offer"

    def text(self) -> str:
        return f"{OFFER_PREFIX}{self.seat}"


@dataclass(frozen=True)
class RematchDeclined:
    seat: int
    kind: Literal["rematch_decline"] = "rematch_decline"

    def text(self) -> str:
        return f"{DECLINE_PREFIX}{self.seat}"


@dataclass(frozen=True)
class RematchMade:
    """The rematch is room ``room``."""

    room: str
    kind: Literal["rematch_made"] = "rematch_made"

    def text(self) -> str:
        return f"{MADE_PREFIX}{self.room}"


@dataclass(frozen=True)
class Emoted:
    """``seat`` said the preset emote ``emote`` (``nonce``: this saying, so the process
    that sent it knows it when the bus brings it back)."""

    seat: int
    emote: str
    nonce: str
    kind: Literal["emote"] = "emote"

    def text(self) -> str:
        return f"{EMOTE_PREFIX}{self.seat} {self.emote} {self.nonce}"


@dataclass(frozen=True)
class Chatted:
    """``seat`` wrote the chat line ``words`` (``nonce`` as :class:`Emoted`'s)."""

    seat: int
    nonce: str
    words: str
    kind: Literal["chat"] = "chat"

    def text(self) -> str:
        return f"{CHAT_PREFIX}{self.seat} {self.nonce} {self.words}"


Notice = (
    MoveEntry
    | UndoEntry
    | UndoAsked
    | RematchOffered
    | RematchDeclined
    | RematchMade
    | Emoted
    | Chatted
)
"""What a bus notice carries after ``room version over``."""
RematchNotice = RematchOffered | RematchDeclined | RematchMade


def read_entry(text: str) -> Entry:
    """A committed entry as stored. Raises ConfigError for an ``!undo`` without a count."""
    if not text.startswith(UNDO_PREFIX):
        return MoveEntry(text)
    keep = text[len(UNDO_PREFIX) :]
    if not (keep.isascii() and keep.isdigit()):
        raise ConfigError(f"a stored undo '{text[:40]}' names no move count (!undo N)")
    return UndoEntry(int(keep))


SEAT_NOTICES: tuple[tuple[str, type[UndoAsked | RematchOffered | RematchDeclined]], ...] = (
    (ASK_PREFIX, UndoAsked),
    (OFFER_PREFIX, RematchOffered),
    (DECLINE_PREFIX, RematchDeclined),
)


def read_notice(text: str) -> Notice | None:
    """The notice ``text`` (after ``room version over``) carries; None when it is none of
    this server's (``!ask`` without a seat, ``!undo`` without a count, another ``!``
    word): such a notice is ignored."""
    for prefix, make in SEAT_NOTICES:
        if text.startswith(prefix):
            seat = text[len(prefix) :]
            return make(int(seat)) if seat.isascii() and seat.isdigit() else None
    if text.startswith(EMOTE_PREFIX):
        parts = text[len(EMOTE_PREFIX) :].split(" ")
        if len(parts) == 3 and parts[0].isascii() and parts[0].isdigit() and all(parts[1:]):
            return Emoted(int(parts[0]), parts[1], parts[2])
        return None
    if text.startswith(CHAT_PREFIX):
        seat, _sep, rest = text[len(CHAT_PREFIX) :].partition(" ")
        nonce, _sep, words = rest.partition(" ")
        if seat.isascii() and seat.isdigit() and nonce and words:
            return Chatted(int(seat), nonce, words)
        return None
    if text.startswith(MADE_PREFIX):
        room = text[len(MADE_PREFIX) :]
        return RematchMade(room) if room else None
    if text.startswith("!") and not text.startswith(UNDO_PREFIX):
        return None  # no move's text begins with "!"
    try:
        return read_entry(text)
    except ConfigError:
        return None
