"""Difficulty levels of the P5 board game: Velvet variants, from ``data/levels/difficulty.toml``.

The rulebook has no difficulty. A level changes the game at set-up only, through numbers
the rules already read: the calendar's length (``days``), the palace's alert at set-up
(``alert``), tokens each player gains from the supply (``gain``) and the boss's health
(``boss_health``). ``standard`` is the rulebook's game and changes nothing: a game at
``standard`` is the game without a level, state for state. The file is validated like a
card file: a bad one is a :class:`CardDataError` naming the file, the level and the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator

from velvet.cards.loader import read_toml, validate_cards
from velvet.engine.errors import CardDataError
from velvet.p5.cards import DIFFICULTY_FILE, RESOURCES, Model, Res

LevelId = Literal["story", "standard", "hard", "merciless"]
LEVELS: tuple[LevelId, ...] = ("story", "standard", "hard", "merciless")
"""Every level, easiest first (``velvet play p5 --difficulty``)."""
STANDARD: LevelId = "standard"
"""The rulebook's game, the default."""
MOST = 6
"""Most tokens of one kind a level gives, or adds to the boss's health."""

_NAMES = {"stamina": "Stamina", "sp": "SP", "bullet": "Bullet", "cash": "Cash"}


class Level(Model):
    """One difficulty level: what it changes from the rulebook's set-up."""

    id: LevelId
    days: int = Field(default=0, ge=-20, le=20)
    """Days added to the calendar (P5-END-2); negative: fewer days."""
    alert: Literal[0, 25, 50, 75] = 0
    """The palace's alert at set-up, in per cent (P5-SETUP-7 puts it at 0)."""
    gain: dict[Res, int] = Field(default_factory=dict)
    """Tokens each player gains from the supply at set-up, after the solo gain (P5-SETUP-10)."""
    boss_health: dict[Res, int] = Field(default_factory=dict)
    """Added to the boss's health requirements when it appears (P5-BOSS-1)."""

    @model_validator(mode="after")
    def _shape(self) -> Level:
        for key, table in (("gain", self.gain), ("boss_health", self.boss_health)):
            if any(not 0 <= n <= MOST for n in table.values()):
                raise ValueError(f"{key} counts must be 0..{MOST}")
        if self.id == STANDARD and self.changes():
            raise ValueError(
                "standard is the rulebook's game and changes nothing "
                f"(remove {', '.join(self.changes())})"
            )
        return self

    def changes(self) -> tuple[str, ...]:
        """The keys this level sets to something other than the rulebook's."""
        keys = ("days", "alert", "gain", "boss_health")
        return tuple(k for k in keys if any(_counts(getattr(self, k))))

    def gain_vec(self) -> tuple[int, int, int, int]:
        """``gain`` as Stamina, SP, Bullet, Cash."""
        return _by_kind(self.gain)

    def boss_vec(self) -> tuple[int, int, int, int]:
        """``boss_health`` as Stamina, SP, Bullet, Cash."""
        return _by_kind(self.boss_health)


def _counts(value: int | Mapping[Any, int]) -> tuple[int, ...]:
    return tuple(value.values()) if isinstance(value, Mapping) else (value,)


def _by_kind(table: Mapping[Any, int]) -> tuple[int, int, int, int]:
    a, b, c, d = (int(table.get(k, 0)) for k in RESOURCES)
    return a, b, c, d


def read_levels(path: Path | str = DIFFICULTY_FILE) -> dict[str, Level]:
    """Every level of the file, by id in :data:`LEVELS` order; a CardDataError names the
    file, the level and the key of the first fault (or the level missing)."""
    file = read_toml(path)
    try:
        levels = validate_cards(file, "difficulty", Level, allowed_sections=("difficulty",))
    except CardDataError as error:
        if error.card is None:
            raise
        raise CardDataError(
            f"{error.file}: level '{error.card}'", None, error.field, error.reason
        ) from None
    by_id = {level.id: level for level in levels}
    for ident in LEVELS:
        if ident not in by_id:
            raise CardDataError(
                file.path,
                None,
                "difficulty",
                f"level '{ident}' is missing; every one of "
                f"{', '.join(LEVELS)} needs a [[difficulty]] table",
            )
    return {ident: by_id[ident] for ident in LEVELS}


@cache
def levels() -> dict[str, Level]:
    """The built-in levels (read once)."""
    return read_levels()


def check_level(value: object) -> LevelId:
    """``value`` as a level id; a ConfigError (option ``difficulty``) names the levels."""
    from velvet.engine.errors import ConfigError

    for ident in LEVELS:
        if value == ident:
            return ident
    raise ConfigError(f"unknown difficulty {value!r}; allowed: {', '.join(LEVELS)}", "difficulty")


def _tokens(table: Mapping[Any, int]) -> str:
    parts = [f"{n} {_NAMES[k]}" for k in RESOURCES if (n := table.get(k, 0))]
    return " + ".join(parts)


def level_text(level: Level, days: int = 28) -> str:
    """What ``level`` changes, in one line (``days``: the card set's calendar)."""
    if not level.changes():
        return "the rulebook's game: nothing changes"
    parts: list[str] = []
    if level.days:
        more = "more" if level.days > 0 else "fewer"
        parts.append(f"{days + level.days} days ({abs(level.days)} {more})")
    if level.alert:
        parts.append(f"the palace starts at {level.alert} % alert")
    if any(level.gain.values()):
        parts.append(f"each player starts with {_tokens(level.gain)} more")
    if any(level.boss_health.values()):
        parts.append(f"the boss needs {_tokens(level.boss_health)} more")
    return "; ".join(parts)


def docs_section(days: int = 28) -> str:
    """The "Difficulty (Velvet variants)" table of docs/p5-rules.md, from the built-in file."""
    rows = [f"| `{ident}` | {level_text(level, days)} |" for ident, level in levels().items()]
    return "\n".join(["| level | what it changes (on the built-in 28 days) |", "|---|---|", *rows])
