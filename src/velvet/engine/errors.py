"""The small typed family of errors a user can cause.

Every error carries a one-line message that names what was wrong and, where
it helps, what is allowed. The command line prints ``str(error)`` and exits
with status 2; it never shows a traceback for these.
"""

from __future__ import annotations


class VelvetError(Exception):
    """Base of every error caused by bad input (a file, a move, an option).

    Its text is always one line: user text quoted in a message (a card name with a
    newline, a NUL byte) shows its unprintable characters escaped, as ``\\n``.
    """

    def __str__(self) -> str:
        return printable(super().__str__())


def printable(text: str) -> str:
    """``text`` with its unprintable characters escaped (a newline as ``\\n``): one line."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


class InvalidActionError(VelvetError, ValueError):
    """An action's text could not be read at all (garbled input)."""


class IllegalActionError(VelvetError, ValueError):
    """A well-formed action that the rules do not allow now.

    ``rule_id`` names the clause of RULE-INDEX that forbids it.
    """

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"{message} [{rule_id}]")
        self.rule_id = rule_id
        self.reason = message


class CardDataError(VelvetError):
    """A card file broke the schema; names the file, the card and the field."""

    def __init__(self, file: str, card: str | None, field: str | None, message: str) -> None:
        where = file
        if card:
            where += f": card '{card}'"
        if field:
            where += f": field '{field}'"
        super().__init__(f"{where}: {message}")
        self.file = file
        self.card = card
        self.field = field
        self.reason = message


class ConfigError(VelvetError):
    """A game configuration names something unknown or breaks a set-up rule.

    ``option`` names the set-up option the error is about (a :class:`ConfigOption` name
    of the game's spec, ``thief``, ``second_draws``; or a server room's own field,
    ``seats``, ``cards``), so a form can show the error on its field; None when it is about
    no one option (the whole config). The message names it too.
    ``seat`` (0-based): the seat whose value of a per-seat option is wrong, if one is.
    """

    def __init__(self, message: str, option: str | None = None, seat: int | None = None) -> None:
        super().__init__(message)
        self.option = option
        self.seat = seat

    def __reduce__(self) -> tuple[type[ConfigError], tuple[str, str | None, int | None]]:
        """Kept through pickling (a worker process's error reaches its parent)."""
        return (type(self), (str(self.args[0]) if self.args else "", self.option, self.seat))


class DeckError(VelvetError):
    """A deck file is malformed or breaks a deck-building rule."""


class RecordError(VelvetError):
    """A saved game or game record is corrupt or belongs to other rules or cards."""
