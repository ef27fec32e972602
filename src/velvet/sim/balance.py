"""Balance that guards itself: fixed seeded games compared with stored win-rate bands.

``balance.toml`` (``velvet/data/balance.toml``) holds, per profile (``short`` for CI,
``full`` for the benchmark), one entry per P5 palace and per VS deck pairing: the
bot, the number of games, the seed, the band ``[low, high]`` and the reference
run behind it. :func:`check` plays exactly those games — with any card set, so a
designer sees what a new card does — and fails an entry whose measured rate falls
outside its band, naming it and the measured interval.

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
from velvet.p5.game import P5Game
from velvet.sim.stats import Rate, wilson
from velvet.vs.game import VsGame

BANDS_FILE = Path(__file__).resolve().parent.parent / "data" / "balance.toml"
PROFILES = ("short", "full")
VS_DECKS = ("p5", "p4", "p3")


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

    game: Literal["p5", "vs"]
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
        if self.game == "vs":
            a, _, b = self.subject.partition("-")
            if a not in VS_DECKS or b not in VS_DECKS or a == b:
                raise ValueError(f"a VS pairing is two of {', '.join(VS_DECKS)} like 'p5-p4'")
        return self

    @property
    def label(self) -> str:
        kind = "palace" if self.game == "p5" else "pairing"
        return f"{self.game} {kind} {self.subject}"


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

    wins = 0.0
    if entry.game == "p5":
        if not isinstance(game, P5Game):
            raise ConfigError(f"{entry.label}: the card set is not of the P5 board game")
        config: dict[str, Any] = game.default_config(1)
        palaces = {p.id for p in game.cards.palaces}
        if entry.subject not in palaces:
            raise ConfigError(f"{entry.label}: the card set has no palace '{entry.subject}'")
        config["palace"] = entry.subject
        for i in range(entry.games):
            state, _ = play_game(
                game, config, game_seed(entry.seed, i), [make_bot(entry.bot, "p5")]
            )
            wins += state.returns()[0]
        return wilson(wins, entry.games)
    if not isinstance(game, VsGame):
        raise ConfigError(f"{entry.label}: the card set is not of Persona VS")
    a, _, b = entry.subject.partition("-")
    for i in range(entry.games):
        first, second = (a, b) if i % 2 == 0 else (b, a)
        config = game.default_config(first, second)
        config["first_player"] = None
        bots = [make_bot(entry.bot, "vs"), make_bot(entry.bot, "vs")]
        state, _ = play_game(game, config, game_seed(entry.seed, i), bots)
        wins += state.returns()[0 if first == a else 1]
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
    subjects of one game) says which; a custom P5 set's palaces without a band are
    measured too and shown as new.
    """
    from velvet.games import get_game

    if profile not in PROFILES:
        raise ConfigError(f"unknown profile '{profile}': choose {' or '.join(PROFILES)}")
    if game is not None and game not in ("p5", "vs"):
        raise ConfigError(f"unknown game '{game}': choose p5 or vs")
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
        raise ConfigError("card files belong to one game: add --game p5 or --game vs")
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
    """Entries for the palaces of a custom P5 set that have no band, played like the others."""
    from velvet.games import get_game

    model = next((e for e in entries if e.game == "p5"), None)
    if not cards or only or model is None:
        return []
    banded = {e.subject for e in entries if e.game == "p5"}
    p5 = get_game("p5", cards)
    if not isinstance(p5, P5Game):
        raise ConfigError(f"game 'p5' is not the P5 board game ({type(p5).__name__})")
    palaces = [p.id for p in p5.cards.palaces]
    return [
        model.model_copy(update={"subject": palace, "low": 0.0, "high": 1.0})
        for palace in palaces
        if palace not in banded
    ]
