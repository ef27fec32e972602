"""The daily challenge's day, seed and set-up: the same for everyone, on every machine.

A day is a UTC calendar date. Its game seed and the RNG its set-up is drawn from are
the first 8 bytes of a SHA-256, read big-endian and shifted right by one (63 bits, as a
room's seed)::

    seed       = sha256("velvet daily GAME YYYY-MM-DD")
    setup seed = sha256("velvet daily setup GAME YYYY-MM-DD")

The set-up options are the spec's ``daily.options(game, seats, Rng(setup seed))``, the
config ``spec.config_for(game, seats, options)`` of the built-in cards. ``velvet daily``
and ``velvet serve``'s ``/daily`` page both come here, so they deal the same game. Anyone
can work the seed out (that is what makes it the same everywhere): the leaderboard trusts
the server's rooms, not a local game.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from velvet.engine.core import Config, Game
from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng
from velvet.engine.spec import DailyChallenge, GameSpec, Options

_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True, slots=True)
class DailySetup:
    """One game's daily challenge of one day."""

    game: str
    day: date
    seed: int
    seats: int
    options: Options
    config: Config


def day_of(when: float) -> date:
    """The UTC day of a Unix time."""
    return datetime.fromtimestamp(when, UTC).date()


def day_start(day: date) -> float:
    """The Unix time the day begins (00:00 UTC)."""
    return datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()


def day_end(day: date) -> float:
    """The Unix time the day ends (00:00 UTC of the next): its replays open then."""
    return day_start(day + timedelta(days=1))


def parse_day(text: str, today: date) -> date:
    """``YYYY-MM-DD`` (or ``today``) as a day no later than ``today``; ConfigError naming
    the text otherwise."""
    if text == "today":
        return today
    try:
        if not _DAY.fullmatch(text):
            raise ValueError(text)
        day = date.fromisoformat(text)
    except ValueError:
        raise ConfigError(f"day {text[:40]!r}: write YYYY-MM-DD (a UTC date)", "day") from None
    if day > today:
        raise ConfigError(
            f"day {day.isoformat()} has not begun (today, UTC, is {today.isoformat()})", "day"
        )
    return day


def _digest(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def daily_seed(game: str, day: date) -> int:
    """The game seed of ``game``'s challenge of ``day``."""
    return _digest(f"velvet daily {game} {day.isoformat()}")


def setup_seed(game: str, day: date) -> int:
    """The seed of the RNG ``game``'s set-up of ``day`` is drawn from."""
    return _digest(f"velvet daily setup {game} {day.isoformat()}")


def challenge_of(spec: GameSpec) -> DailyChallenge:
    """The spec's daily challenge; ConfigError if the game has none."""
    if spec.daily is None:
        raise ConfigError(f"game '{spec.name}' has no daily challenge (its GameSpec sets no daily)")
    return spec.daily


def daily_setup(spec: GameSpec, game: Game[Any], day: date) -> DailySetup:
    """``game``'s (built-in cards) challenge of ``day``: its seed, options and config."""
    challenge = challenge_of(spec)
    options = dict(challenge.options(game, challenge.seats, Rng(setup_seed(spec.name, day))))
    config = spec.config_for(game, challenge.seats, options)
    seed = daily_seed(spec.name, day)
    return DailySetup(spec.name, day, seed, challenge.seats, options, config)


def rank_key(spec: GameSpec) -> str:
    """The results column a won daily game is ranked by (fewer first)."""
    key = challenge_of(spec).rank_by or spec.turns_key
    if not key:
        raise ConfigError(f"game '{spec.name}': its daily challenge names no rank_by column")
    return key
