"""Actions of the Persona 5 board game: small frozen values with one text form.

``str(action)`` is the text form and :func:`parse_action` reads it back;
``repr`` rebuilds the value. Every decision is one of these, including the
small ones inside effects (order of On Palace Enter effects, which stat gets
+1, how many ANY damage meet each requirement, how a mixed restore is split).
"""

from __future__ import annotations

from dataclasses import dataclass

from velvet.engine.errors import InvalidActionError
from velvet.p5.cards import RESOURCES, STATS


@dataclass(frozen=True, slots=True)
class Go:
    """Choose which player takes the next turn today (P5-DAY-1); ``player`` is 0-based."""

    player: int

    def __str__(self) -> str:
        return f"go p{self.player + 1}"


@dataclass(frozen=True, slots=True)
class Visit:
    """Visit a location and carry out its effects (P5-VISIT-1)."""

    loc: str

    def __str__(self) -> str:
        return f"visit {self.loc}"


@dataclass(frozen=True, slots=True)
class Recruit:
    """Move to a location and try to recruit its confidant (P5-RECRUIT-1)."""

    loc: str

    def __str__(self) -> str:
        return f"recruit {self.loc}"


@dataclass(frozen=True, slots=True)
class Discover:
    """Spend 1 Cash to reveal a new location and confidant (P5-DISCOVER-1)."""

    def __str__(self) -> str:
        return "discover"


@dataclass(frozen=True, slots=True)
class Palace:
    """Visit the palace (P5-PALACE-1)."""

    def __str__(self) -> str:
        return "palace"


@dataclass(frozen=True, slots=True)
class Use:
    """Use an activated skill or ability; ``target`` is a shadow id, 'boss' or ''."""

    skill: str
    target: str = ""

    def __str__(self) -> str:
        return f"use {self.skill} @{self.target}" if self.target else f"use {self.skill}"


@dataclass(frozen=True, slots=True)
class Hit:
    """Spend one fresh token (or discard one Cash) against a shadow's requirement (P5-COMBAT-2)."""

    res: str
    target: str

    def __str__(self) -> str:
        return f"hit {self.res} @{self.target}"


@dataclass(frozen=True, slots=True)
class End:
    """End the palace turn (P5-PALACE-5)."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class First:
    """Resolve this On Palace Enter source next (P5-PALACE-1).

    Sources: row:N, boss, shadow:ID, ability:ID.
    """

    source: str

    def __str__(self) -> str:
        return f"first {self.source}"


@dataclass(frozen=True, slots=True)
class StatUp:
    """Which social stat gets +1 (P5-RECRUIT-3, stat_choice effects)."""

    stat: str

    def __str__(self) -> str:
        return f"stat {self.stat}"


@dataclass(frozen=True, slots=True)
class Assign:
    """One step of a split: ``n`` of the ANY damage (or of a mixed restore) go to ``res``.

    A split is asked one kind at a time, in the order Stamina, SP, Bullet, Cash, so a
    decision never offers more than one option per count (P5-COMBAT-4, P5-CONF-MISHIMA).
    """

    res: str
    n: int

    def __str__(self) -> str:
        return f"assign {self.res}={self.n}"


@dataclass(frozen=True, slots=True)
class Equip:
    """Put a held shadow into the active persona party (P5-ARSENE-1..3)."""

    shadow: str

    def __str__(self) -> str:
        return f"equip {self.shadow}"


@dataclass(frozen=True, slots=True)
class Unequip:
    """Take a shadow out of the active persona party (P5-ARSENE-2)."""

    shadow: str

    def __str__(self) -> str:
        return f"unequip {self.shadow}"


@dataclass(frozen=True, slots=True)
class Done:
    """Make the draft party the active party (P5-ARSENE-2, P5-ARSENE-3)."""

    def __str__(self) -> str:
        return "done"


P5Action = (
    Go
    | Visit
    | Recruit
    | Discover
    | Palace
    | Use
    | Hit
    | End
    | First
    | StatUp
    | Assign
    | Equip
    | Unequip
    | Done
)

_WORD = "a word of lower-case letters, digits, '-', '_', '.' or ':'"
_FORMS = (
    "go pN | visit LOC | recruit LOC | discover | palace | use SKILL [@TARGET] | done | "
    "hit RES @TARGET | end | first SOURCE | stat STAT | assign RES=N | equip SHADOW | "
    "unequip SHADOW"
)


DISCOVER, PALACE, END, DONE = Discover(), Palace(), End(), Done()
GO = (Go(0), Go(1))
"""One object of each action without a card: the legal lists and the game's action
table share them (a consumer may find an action's id by its identity)."""


def _word(text: str, what: str) -> str:
    if not text or not all(c.isalnum() or c in "-_.:" for c in text):
        raise InvalidActionError(f"bad {what} '{text}': expected {_WORD}")
    return text


def parse_action(text: str) -> P5Action:
    """Read an action's text form; raise InvalidActionError naming the allowed forms."""
    words = text.strip().lower().split()
    if not words:
        raise InvalidActionError(f"empty action; forms: {_FORMS}")
    head, args = words[0], words[1:]
    if head in ("discover", "palace", "end", "done") and not args:
        simple: dict[str, P5Action] = {
            "discover": Discover(),
            "palace": Palace(),
            "end": End(),
            "done": Done(),
        }
        return simple[head]
    if head == "go" and len(args) == 1 and args[0][:1] == "p" and args[0][1:].isdigit():
        number = int(args[0][1:])
        if number >= 1:
            return Go(number - 1)
    if head in ("visit", "recruit", "first", "equip", "unequip") and len(args) == 1:
        word = _word(args[0], head + " argument")
        if head == "visit":
            return Visit(word)
        if head == "recruit":
            return Recruit(word)
        if head == "first":
            return First(word)
        return Equip(word) if head == "equip" else Unequip(word)
    if head == "stat" and len(args) == 1:
        if args[0] not in STATS:
            raise InvalidActionError(f"unknown stat '{args[0]}': one of {', '.join(STATS)}")
        return StatUp(args[0])
    if head == "use" and len(args) in (1, 2):
        skill = _word(args[0], "skill")
        if len(args) == 1:
            return Use(skill)
        if args[1][:1] == "@":
            return Use(skill, _word(args[1][1:], "target"))
    if head == "hit" and len(args) == 2 and args[1][:1] == "@":
        if args[0] not in RESOURCES:
            raise InvalidActionError(f"unknown resource '{args[0]}': one of {', '.join(RESOURCES)}")
        return Hit(args[0], _word(args[1][1:], "target"))
    if head == "assign" and len(args) == 1:
        key, _, value = args[0].partition("=")
        if key not in RESOURCES or not value.isdigit():
            raise InvalidActionError(
                f"bad assign '{args[0]}': write RES=N with RES one of {', '.join(RESOURCES)}"
            )
        return Assign(key, int(value))
    raise InvalidActionError(f"cannot read action '{text.strip()}'; forms: {_FORMS}")
