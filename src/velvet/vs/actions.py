"""Persona VS actions: small frozen values, one compact text form each.

Slots are written ``m`` (main), ``s1``, ``s2``; players ``p0``/``p1``; cards
by id. ``parse_action(str(a)) == a`` for every action.
"""

from __future__ import annotations

from dataclasses import dataclass

from velvet.engine.errors import InvalidActionError

SLOT_NAMES = ("m", "s1", "s2")


def slot_text(slot: int) -> str:
    return SLOT_NAMES[slot]


def mask_text(mask: int) -> str:
    return "+".join(SLOT_NAMES[i] for i in range(3) if mask >> i & 1)


@dataclass(frozen=True, slots=True)
class EndPlanning:
    """End the Planning Step and go to the Skill Step (VS-TURN-1)."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Summon:
    """Play a persona from hand, paying its cost afterwards (VS-SUMMON-1)."""

    card: str

    def __str__(self) -> str:
        return f"summon {self.card}"


@dataclass(frozen=True, slots=True)
class Fuse:
    """Fuse a hand persona onto the field personas in ``slots`` (a bit mask, VS-FUSE-1)."""

    card: str
    slots: int

    def __str__(self) -> str:
        return f"fuse {self.card} {mask_text(self.slots)}"


@dataclass(frozen=True, slots=True)
class Change:
    """Swap the main with the sub in ``slot`` (VS-CHANGE-1)."""

    slot: int

    def __str__(self) -> str:
        return f"change {slot_text(self.slot)}"


@dataclass(frozen=True, slots=True)
class PlaySupport:
    card: str

    def __str__(self) -> str:
        return f"support {self.card}"


@dataclass(frozen=True, slots=True)
class DeclareSkill:
    """Declare skill ``index`` of card ``card`` in the stack at ``slot`` (VS-SKILL-1)."""

    slot: int
    card: str
    index: int

    def __str__(self) -> str:
        return f"skill {slot_text(self.slot)} {self.card} {self.index}"


@dataclass(frozen=True, slots=True)
class NoSkill:
    """Declare no skill: the Skill Step ends (VS-SKILL-4)."""

    def __str__(self) -> str:
        return "noskill"


@dataclass(frozen=True, slots=True)
class PlayReact:
    card: str

    def __str__(self) -> str:
        return f"react {self.card}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Play no React in this window."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class PayHand:
    """Pay one unit of a cost by discarding a card from hand."""

    card: str

    def __str__(self) -> str:
        return f"pay hand {self.card}"


@dataclass(frozen=True, slots=True)
class PayField:
    """Pay one unit by sending the persona (whole stack) in ``slot`` to the discard pile."""

    slot: int

    def __str__(self) -> str:
        return f"pay field {slot_text(self.slot)}"


@dataclass(frozen=True, slots=True)
class PayStack:
    """Pay a named extra cost with a card from inside the stack at ``slot`` (VS-RULE-ULT)."""

    slot: int
    card: str

    def __str__(self) -> str:
        return f"pay stack {slot_text(self.slot)} {self.card}"


@dataclass(frozen=True, slots=True)
class Promote:
    """Make the sub in ``slot`` the new main (VS-RULE-LOSEMAIN)."""

    slot: int

    def __str__(self) -> str:
        return f"promote {slot_text(self.slot)}"


@dataclass(frozen=True, slots=True)
class Target:
    """Choose the persona of ``player`` in ``slot`` as an effect's target."""

    player: int
    slot: int

    def __str__(self) -> str:
        return f"target p{self.player} {slot_text(self.slot)}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Choose a card of your hand for a discard effect."""

    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Search:
    card: str

    def __str__(self) -> str:
        return f"search {self.card}"


@dataclass(frozen=True, slots=True)
class Recover:
    card: str

    def __str__(self) -> str:
        return f"recover {self.card}"


@dataclass(frozen=True, slots=True)
class First:
    """Apply damage modifier number ``index`` next (VS-SKILL-3)."""

    index: int

    def __str__(self) -> str:
        return f"first {self.index}"


VsAction = (
    EndPlanning
    | Summon
    | Fuse
    | Change
    | PlaySupport
    | DeclareSkill
    | NoSkill
    | PlayReact
    | Pass
    | PayHand
    | PayField
    | PayStack
    | Promote
    | Target
    | Discard
    | Search
    | Recover
    | First
)

_USAGE = (
    "actions: end, noskill, pass, summon ID, fuse ID m+s1, change s1, support ID, react ID, "
    "skill m ID N, pay hand ID, pay field s1, pay stack m ID, promote s1, target p1 m, "
    "discard ID, search ID, recover ID, first N"
)


def _slot(word: str, text: str) -> int:
    if word not in SLOT_NAMES:
        raise InvalidActionError(f"'{text}': '{word}' is not a slot; slots are m, s1, s2")
    return SLOT_NAMES.index(word)


def _int(word: str, text: str) -> int:
    if not word.isdigit():
        raise InvalidActionError(f"'{text}': '{word}' is not a number")
    return int(word)


def parse_action(text: str) -> VsAction:
    """Read the text form of an action (the inverse of ``str``)."""
    words = text.split()
    if not words:
        raise InvalidActionError("empty action; " + _USAGE)
    verb, args = words[0], words[1:]
    n = len(args)
    simple: dict[str, VsAction] = {"end": EndPlanning(), "noskill": NoSkill(), "pass": Pass()}
    if verb in simple and n == 0:
        return simple[verb]
    one_card: dict[str, type[Summon | PlaySupport | PlayReact | Discard | Search | Recover]] = {
        "summon": Summon,
        "support": PlaySupport,
        "react": PlayReact,
        "discard": Discard,
        "search": Search,
        "recover": Recover,
    }
    if verb in one_card and n == 1:
        return one_card[verb](args[0])
    if verb == "fuse" and n == 2:
        mask = 0
        for word in args[1].split("+"):
            mask |= 1 << _slot(word, text)
        return Fuse(args[0], mask)
    if verb == "change" and n == 1:
        return Change(_slot(args[0], text))
    if verb == "promote" and n == 1:
        return Promote(_slot(args[0], text))
    if verb == "skill" and n == 3:
        return DeclareSkill(_slot(args[0], text), args[1], _int(args[2], text))
    if verb == "pay" and n >= 2:
        if args[0] == "hand" and n == 2:
            return PayHand(args[1])
        if args[0] == "field" and n == 2:
            return PayField(_slot(args[1], text))
        if args[0] == "stack" and n == 3:
            return PayStack(_slot(args[1], text), args[2])
    if verb == "target" and n == 2 and args[0] in ("p0", "p1"):
        return Target(int(args[0][1]), _slot(args[1], text))
    if verb == "first" and n == 1:
        return First(_int(args[0], text))
    raise InvalidActionError(f"cannot read '{text}'; " + _USAGE)
