"""Balance that guards itself: fixed seeded games compared with stored win-rate bands.

``balance.toml`` (``velvet/data/balance.toml``) holds, per profile (``short`` for CI,
``full`` for the benchmark), one entry per subject of a game (a P5 palace, a VS deck
pairing): the game, the bot, the number of games, the seed, the band ``[low, high]``
and the reference run behind it. What a subject is and how its games are set up is
the game's own: its spec's ``balance`` plug-in (``GameSpec.balance``), so any registered
game with one can be banded. :func:`check` plays exactly those games — with any card
set, so a designer sees what a new card does — and fails an entry whose measured rate
falls outside its band, naming it and the measured interval.

A band is the range a fresh sample of the check's ``games`` lands in with 95 %
probability if the true rate lies anywhere in the reference run's 95 % Wilson
interval (:func:`band_for`): the 2.5 % binomial quantile at the interval's low end
to the 97.5 % quantile at its high end. A change that only reshuffles the seeds
stays inside; one that moves the rate by more than the noise does not.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.engine.spec import BalanceGame
from velvet.games import game_names, registered_spec
from velvet.sim.stats import Rate, wilson

BANDS_FILE = Path(__file__).resolve().parent.parent / "data" / "balance.toml"
PROFILES = ("short", "full")


def balanced_games() -> tuple[str, ...]:
    """The registered games whose spec names a ``balance`` plug-in."""
    return tuple(name for name in game_names() if _spec_balance(name) is not None)


def _spec_balance(name: str) -> str | None:
    spec = registered_spec(name)
    return None if spec is None else spec.balance


def plugin(game: str) -> Any:
    """The ``balance`` plug-in of the registered game ``game`` (a bands file names games
    by their registered name only, so reading one imports no module it names)."""
    spec = registered_spec(game)
    if spec is None or spec.balance is None:
        allowed = ", ".join(balanced_games()) or "none"
        raise ConfigError(f"no balance bands for game '{game}': games with bands: {allowed}")
    return spec.plugin("balance", "balance bands")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Reference(_Model):
    """The run a band was derived from."""

    wins: float = Field(ge=0)
    games: int = Field(ge=1)
    note: str = ""

    @model_validator(mode="after")
    def _check(self) -> Reference:
        if self.wins > self.games:
            raise ValueError("wins cannot exceed games")
        return self


class Entry(_Model):
    """One palace (P5) or deck pairing (VS, "p5-p4": the first deck's rate)."""

    game: str = Field(min_length=1)
    subject: str = Field(min_length=1)
    profile: Literal["short", "full"]
    bot: str = Field(min_length=1)
    games: int = Field(ge=2, le=100_000)
    seed: int = Field(ge=0)
    low: float = Field(ge=0, le=1)
    high: float = Field(ge=0, le=1)
    reference: Reference

    @model_validator(mode="after")
    def _check(self) -> Entry:
        if self.low > self.high:
            raise ValueError(f"low {self.low} is above high {self.high}")
        try:
            module = plugin(self.game)
        except ConfigError as error:
            raise ValueError(str(error)) from None
        module.check_subject(self.subject)
        return self

    @property
    def label(self) -> str:
        """``p5 palace kamoshida``: the game, what its subjects are, the subject."""
        return f"{self.game} {plugin(self.game).SUBJECT} {self.subject}"


def load_bands(path: Path | str = BANDS_FILE) -> list[Entry]:
    """Read and validate a bands file; errors name the file, the entry and the field."""
    label = str(path)
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{label}: no such bands file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{label}: cannot be read ({error})") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{label}: not valid TOML ({error})") from None
    unknown = set(data) - {"band"}
    if unknown:
        raise ConfigError(f"{label}: unknown keys {sorted(unknown)}; list entries as [[band]]")
    rows = data.get("band", [])
    if not isinstance(rows, list):
        raise ConfigError(f"{label}: list entries as [[band]] tables")
    entries: list[Entry] = []
    for n, row in enumerate(rows, start=1):
        try:
            entries.append(Entry.model_validate(row))
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "entry"
            name = row.get("subject", "?") if isinstance(row, dict) else "?"
            raise ConfigError(f"{label}: band #{n} ({name}): {where}: {first['msg']}") from None
    return entries


# --- bands -----------------------------------------------------------------------------------


def _binom_cdf(k: int, n: int, p: float) -> float:
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


def band_for(reference: Reference, games: int) -> tuple[float, float]:
    """Where ``games`` fresh games land (95 %) if the rate lies in the reference's interval."""
    ref = wilson(reference.wins, reference.games)
    low_k = 0
    while _binom_cdf(low_k, games, ref.low) < 0.025:
        low_k += 1
    high_k = games
    while high_k > 0 and 1 - _binom_cdf(high_k - 1, games, ref.high) < 0.025:
        high_k -= 1
    return low_k / games, high_k / games


# --- measuring -------------------------------------------------------------------------------


def measure(game: Game[Any], entry: Entry) -> Rate:
    """Play the entry's games with ``game``'s cards; the subject's win rate (draws half)."""
    from velvet.bots import make_bot
    from velvet.sim.run import game_seed, play_game

    module = plugin(entry.game)
    wins = 0.0
    for i in range(entry.games):
        try:
            one: BalanceGame = module.setup(game, entry.subject, i)
        except ConfigError as error:
            raise ConfigError(f"{entry.label}: {error}", error.option) from None
        bots = [make_bot(entry.bot, entry.game) for _ in range(one.seats)]
        state, _ = play_game(game, one.config, game_seed(entry.seed, i), bots)
        wins += state.returns()[one.seat]
    return wilson(wins, entry.games)


@dataclass(frozen=True)
class Outcome:
    entry: Entry
    rate: Rate
    banded: bool = True
    """False for a palace of a custom set that has no band: measured, never failed."""

    @property
    def ok(self) -> bool:
        if not self.banded:
            return True
        return self.entry.low - 1e-9 <= self.rate.rate <= self.entry.high + 1e-9

    def line(self) -> str:
        e, r = self.entry, self.rate
        if not self.banded:
            return (
                f"new  {e.label}: {r.wins:g}/{r.n} = {r.rate:.1%} "
                f"[95% CI {r.low:.1%}, {r.high:.1%}] (no band; {e.bot}, seed {e.seed})"
            )
        status = "ok  " if self.ok else "FAIL"
        return (
            f"{status} {e.label}: {r.wins:g}/{r.n} = {r.rate:.1%} "
            f"[95% CI {r.low:.1%}, {r.high:.1%}] band {e.low:.1%}-{e.high:.1%} "
            f"({e.bot}, seed {e.seed}; reference {e.reference.wins:g}/{e.reference.games}"
            + (f", {e.reference.note}" if e.reference.note else "")
            + ")"
        )


def check(
    profile: str = "short",
    cards: Sequence[Path | str] = (),
    bands: Path | str = BANDS_FILE,
    only: Sequence[str] = (),
    progress: Callable[[Outcome], None] | None = None,
    game: str | None = None,
) -> list[Outcome]:
    """Measure every entry of ``profile`` (of ``game``, or whose subject is in ``only``).

    Card files belong to one game: with ``cards``, ``game`` (or ``only`` naming
    subjects of one game) says which; a custom set's subjects without a band (a new P5
    palace; a game's plug-in ``subjects``) are measured too and shown as new.
    """
    from velvet.games import get_game

    if profile not in PROFILES:
        raise ConfigError(f"unknown profile '{profile}': choose {' or '.join(PROFILES)}")
    if game is not None and game not in balanced_games():
        names = balanced_games()
        choices = " or ".join(filter(None, (", ".join(names[:-1]), names[-1] if names else "")))
        raise ConfigError(f"unknown game '{game}': choose {choices or 'none (no game has bands)'}")
    entries = [e for e in load_bands(bands) if e.profile == profile]
    if game is not None:
        entries = [e for e in entries if e.game == game]
    if only:
        unknown = set(only) - {e.subject for e in entries}
        if unknown:
            raise ConfigError(f"no {profile} band for {', '.join(sorted(unknown))}")
        entries = [e for e in entries if e.subject in only]
    if not entries:
        raise ConfigError(f"{bands}: no bands for profile '{profile}'")
    if cards and len({e.game for e in entries}) > 1:
        choices = " or ".join(f"--game {name}" for name in sorted({e.game for e in entries}))
        raise ConfigError(f"card files belong to one game: add {choices}")
    games: dict[str, Game[Any]] = {}
    outcomes: list[Outcome] = []
    plan = [(entry, True) for entry in entries] + [
        (entry, False) for entry in _unbanded(entries, cards, only)
    ]
    for entry, banded in plan:
        if entry.game not in games:
            games[entry.game] = get_game(entry.game, cards)
        outcome = Outcome(entry, measure(games[entry.game], entry), banded)
        outcomes.append(outcome)
        if progress is not None:
            progress(outcome)
    return outcomes


def _unbanded(
    entries: Sequence[Entry], cards: Sequence[Path | str], only: Sequence[str]
) -> list[Entry]:
    """Entries for the subjects of a custom card set that have no band (a new palace),
    played like the first band of their game; for games whose plug-in lists subjects."""
    from velvet.games import get_game

    if not cards or only:
        return []
    out: list[Entry] = []
    for name in dict.fromkeys(e.game for e in entries):
        subjects = getattr(plugin(name), "subjects", None)
        if subjects is None:
            continue
        mine = [e for e in entries if e.game == name]
        banded = {e.subject for e in mine}
        out += [
            mine[0].model_copy(update={"subject": subject, "low": 0.0, "high": 1.0})
            for subject in subjects(get_game(name, cards))
            if subject not in banded
        ]
    return out
