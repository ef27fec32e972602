"""The arena: rate bots on paired games, with intervals, and A/B tests that stop early.

Every game of an arena is a game of a ``velvet sim`` run (:func:`velvet.sim.run.run_sim`:
its worker pool or Ray, progress bar, Ctrl-C handling and resumable results folder), so
game ``i`` of every run is seeded by ``game_seed(seed, i)`` and the runs pair up by index:

* a two-player game (VS): each pairing of bots A, B plays seed ``i`` twice, A in seat 1
  then B in seat 1 (folders ``A--B`` and ``B--A``), so the seat, the first player and the
  decks even out within each pair. Ratings are a Bradley–Terry model fitted by maximum
  likelihood (:func:`fit_bradley_terry`) on the Elo scale, with 95 % intervals from the
  Fisher information; ``--sprt`` runs a GSPRT on the game pairs (:func:`sprt_llr`).
* a co-op game (P5): each bot plays the same set-ups (game ``i`` draws the same thieves,
  personas and palace for every bot); each bot gets its win rate (95 % Wilson), its median
  winning day, both by palace, and every two bots a paired comparison on the same set-ups
  (:func:`paired_comparison`).

Layout of ``OUT/``: ``arena.json`` (what the arena is), one ``velvet sim`` results folder
per bot (co-op) or per pairing and seat order (VS), and ``ratings.json`` (the figures).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import itertools
import math
import os
import re
import statistics
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import scipy.optimize  # type: ignore[import-untyped,unused-ignore]
import scipy.stats  # type: ignore[import-untyped,unused-ignore]

from velvet.bots.external import is_external, make_entrant
from velvet.engine.core import Game
from velvet.engine.errors import ConfigError, RecordError
from velvet.engine.files import describe_os_error, parse_json, read_text, show_path
from velvet.engine.spec import GameSpec
from velvet.games import get_spec
from velvet.sim.results import MAX_GAMES, RUN_FILE, ResultStore, Row, atomic_write_json
from velvet.sim.run import (
    FORFEIT,
    MAX_ACTIONS,
    MAX_MAX_ACTIONS,
    MAX_WORKERS,
    Backend,
    check_ray_address,
    game_config,
    game_seed,
    run_sim,
    start_local_ray,
)
from velvet.sim.stats import Z95, wilson

ARENA_FILE = "arena.json"
RATINGS_FILE = "ratings.json"
ELO_PER_LOGIT = 400 / math.log(10)
"""Elo points per unit of log-odds: P(win) = 1 / (1 + 10 ** (-elo / 400))."""
PRIOR_DRAWS = 1.0
"""Virtual drawn games added to each pairing played: keeps a 100 % score finite."""
SAME_ARENA_KEYS = ("game", "base_seed", "config", "cards", "vary", "players")
MAX_BOTS = 32
Say = Callable[[str], None]


def _silent(_line: str) -> None:
    pass


# ------------------------------------------------------------------ statistics


@dataclass(frozen=True)
class Ratings:
    """Bradley–Terry ratings on the Elo scale with 95 % intervals."""

    bots: list[str]
    elo: list[float]
    low: list[float]
    high: list[float]
    cov: list[list[float]]
    """Covariance of the Elo ratings (Elo²), for intervals of differences."""
    anchor: str
    """The bot fixed at 0, or ``mean`` (the ratings average 0)."""

    def difference(self, a: int, b: int) -> tuple[float, float, float]:
        """``elo[a] - elo[b]`` with its 95 % interval."""
        d = self.elo[a] - self.elo[b]
        var = self.cov[a][a] + self.cov[b][b] - 2 * self.cov[a][b]
        half = Z95 * math.sqrt(max(var, 0.0))
        return d, d - half, d + half

    def to_json(self) -> dict[str, Any]:
        return {
            "anchor": self.anchor,
            "model": "Bradley-Terry, maximum likelihood, Elo scale; 95 % intervals "
            f"from the Fisher information; {PRIOR_DRAWS:g} virtual draw per pairing",
            "bots": [
                {"bot": bot, "elo": round(e, 2), "ci95": [round(lo, 2), round(hi, 2)]}
                for bot, e, lo, hi in zip(self.bots, self.elo, self.low, self.high, strict=True)
            ],
        }


def fit_bradley_terry(
    bots: Sequence[str],
    games: Iterable[tuple[int, int, float, float]],
    anchor: int | None = 0,
    prior_draws: float = PRIOR_DRAWS,
) -> Ratings:
    """Maximum-likelihood Bradley–Terry ratings of ``bots`` on the Elo scale.

    ``games`` holds ``(i, j, score_i, n)``: bot ``i`` scored ``score_i`` (a win 1, a draw
    1/2) in ``n`` games against bot ``j``. P(i beats j) = 1 / (1 + 10^((R_j - R_i)/400)).
    Each pairing with games gets ``prior_draws`` virtual draws, so a bot that won every game
    still has a finite rating. ``anchor`` is the bot fixed at 0, or None for ratings that
    average 0. The 95 % intervals come from the inverse of the observed information (the
    Hessian of the log-likelihood at its maximum), treating games as independent (paired
    games make them conservative). ConfigError if the bots are not all connected by games.
    """
    k = len(bots)
    if k < 2:
        raise ConfigError("ratings need at least two bots")
    score = np.zeros((k, k))
    count = np.zeros((k, k))
    for i, j, s, n in games:
        if i == j or n <= 0:
            continue
        score[i, j] += s
        score[j, i] += n - s
        count[i, j] += n
        count[j, i] += n
    played = count > 0
    score += played * (prior_draws / 2)
    count += played * prior_draws
    _check_connected(bots, played)
    ref = 0 if anchor is None else anchor
    free = [i for i in range(k) if i != ref]

    def full(x: Any) -> Any:
        theta = np.zeros(k)
        theta[free] = x
        return theta

    def negloglik(x: Any) -> tuple[float, Any]:
        theta = full(x)
        diff = theta[:, None] - theta[None, :]
        log_p = -np.logaddexp(0.0, -diff)  # log sigma(theta_i - theta_j)
        value = -float(np.sum(score * log_p))
        p = np.exp(log_p)
        grad = -np.sum(score - count * p, axis=1)
        return value, grad[free]

    def hessian(x: Any) -> Any:
        theta = full(x)
        diff = theta[:, None] - theta[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))
        w = count * p * (1 - p)
        h = np.diag(np.sum(w, axis=1)) - w
        return h[np.ix_(free, free)]

    result = scipy.optimize.minimize(
        negloglik, np.zeros(k - 1), jac=True, hess=hessian, method="trust-exact"
    )
    theta = full(result.x)
    cov_free = np.linalg.inv(hessian(result.x))
    cov = np.zeros((k, k))
    cov[np.ix_(free, free)] = cov_free
    if anchor is None:
        centre = np.eye(k) - np.full((k, k), 1.0 / k)
        theta = centre @ theta
        cov = centre @ cov @ centre.T
    elo = theta * ELO_PER_LOGIT
    cov_elo = cov * ELO_PER_LOGIT**2
    half = Z95 * np.sqrt(np.clip(np.diag(cov_elo), 0.0, None))
    return Ratings(
        bots=list(bots),
        elo=[float(v) for v in elo],
        low=[float(v) for v in elo - half],
        high=[float(v) for v in elo + half],
        cov=[[float(v) for v in row] for row in cov_elo],
        anchor="mean" if anchor is None else bots[anchor],
    )


def _check_connected(bots: Sequence[str], played: Any) -> None:
    seen = {0}
    todo = [0]
    while todo:
        i = todo.pop()
        for j in range(len(bots)):
            if played[i, j] and j not in seen:
                seen.add(j)
                todo.append(j)
    if len(seen) < len(bots):
        apart = ", ".join(bots[i] for i in range(len(bots)) if i not in seen)
        raise ConfigError(
            f"no games link {apart} to {bots[0]}: ratings need every bot connected by games"
        )


def elo_to_score(elo: float) -> float:
    """Expected score per game of a bot ``elo`` points stronger (logistic Elo)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def score_to_elo(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (±inf at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)
"""What a bot can score in a pair of games (the pentanomial outcomes)."""


def _regularized(counts: Sequence[float]) -> tuple[float, Any]:
    """Counts as ``(N, frequencies)``, an empty outcome counted as 0.001 (as fishtest does)."""
    c = np.array([x if x > 0 else 1e-3 for x in counts], dtype=float)
    n = float(c.sum())
    return n, c / n


def _mle_with_mean(pdf: Any, values: Any, s: float) -> Any:
    """The distribution on ``values`` nearest ``pdf`` (maximum likelihood) with mean ``s``.

    The maximiser is ``p_i = pdf_i / (1 + x (values_i - s))`` where ``x`` solves
    ``sum pdf_i (values_i - s) / (1 + x (values_i - s)) = 0`` (a Lagrange multiplier).
    """
    d = values - s

    def f(x: float) -> float:
        return float(np.sum(pdf * d / (1.0 + x * d)))

    lo = -1.0 / float(d.max()) if d.max() > 0 else -1e12
    hi = -1.0 / float(d.min()) if d.min() < 0 else 1e12
    eps = 1e-12 * (hi - lo)
    x = scipy.optimize.brentq(f, lo + eps, hi - eps, xtol=1e-14)
    p = pdf / (1.0 + x * d)
    return p / p.sum()


def sprt_llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0).

    ``counts`` has 5 entries, how many game pairs the first bot scored 0, 1/2, 1, 3/2 and 2
    in (the pentanomial model), or 3, how many single games it lost, drew and won (the
    trinomial model). As fishtest computes it: the outcome distribution is fitted by maximum
    likelihood under each hypothesis' mean score (logistic Elo), and the LLR is
    ``N * sum_i p̂_i log(p1_i / p0_i)``.
    """
    if len(counts) not in (3, 5):
        raise ConfigError("SPRT counts are 3 (loss, draw, win) or 5 (game-pair scores)")
    if sum(counts) <= 0:
        return 0.0
    n, pdf = _regularized(counts)
    values = np.linspace(0.0, 1.0, len(counts))
    p0 = _mle_with_mean(pdf, values, elo_to_score(elo0))
    p1 = _mle_with_mean(pdf, values, elo_to_score(elo1))
    return n * float(np.sum(pdf * np.log(p1 / p0)))


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds: accept H0 at LLR <= lower, H1 at LLR >= upper."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


@dataclass(frozen=True)
class SprtTest:
    """What an SPRT tests: Elo ``elo0`` (H0) against ``elo1`` (H1), with its error rates."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "pentanomial"

    @classmethod
    def parse(cls, text: str, alpha: float, beta: float, model: str) -> SprtTest:
        """``ELO0,ELO1`` (e.g. ``0,50``) with the error rates, or a ConfigError saying how."""
        parts = [p.strip() for p in text.split(",")]
        example = "write --sprt ELO0,ELO1 with ELO0 < ELO1, as in --sprt 0,50"
        try:
            elo0, elo1 = (float(p) for p in parts)
        except ValueError:
            raise ConfigError(f"bad --sprt {text!r}: {example}") from None
        if not (math.isfinite(elo0) and math.isfinite(elo1)) or elo0 >= elo1:
            raise ConfigError(f"bad --sprt {text!r}: {example}")
        if max(abs(elo0), abs(elo1)) > 2000:
            raise ConfigError(f"bad --sprt {text!r}: Elo bounds must lie within ±2000")
        for name, value in (("--alpha", alpha), ("--beta", beta)):
            if not 0 < value < 0.5:
                raise ConfigError(f"{name} must be above 0 and below 0.5, not {value:g}")
        if model not in ("pentanomial", "trinomial"):
            raise ConfigError(f"--sprt-model must be pentanomial or trinomial, not {model!r}")
        return cls(elo0, elo1, alpha, beta, model)

    @property
    def bounds(self) -> tuple[float, float]:
        return sprt_bounds(self.alpha, self.beta)

    def llr(self, pairs: Sequence[tuple[float, float]]) -> float:
        """The LLR of the first bot's scores in ``pairs`` (game of each seat order)."""
        return sprt_llr(self.counts(pairs), self.elo0, self.elo1)

    def counts(self, pairs: Sequence[tuple[float, float]]) -> list[float]:
        if self.model == "trinomial":
            tri = [0.0, 0.0, 0.0]
            for game in (s for pair in pairs for s in pair):
                tri[round(2 * game)] += 1
            return tri
        return pentanomial(pairs)

    def decision(self, llr: float) -> str | None:
        """``H1`` or ``H0`` once the LLR crosses a bound, else None."""
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None


def pentanomial(pairs: Sequence[tuple[float, float]]) -> list[float]:
    """How many pairs scored 0, 1/2, 1, 3/2, 2 (the first bot's score in both games)."""
    counts = [0.0] * 5
    for a, b in pairs:
        counts[round(2 * (a + b))] += 1
    return counts


@dataclass(frozen=True)
class PairedElo:
    """A pairing's score and Elo difference from its game pairs, with 95 % intervals."""

    pairs: int
    score: float
    """Mean score per game of the first bot."""
    score_low: float
    score_high: float

    @property
    def elo(self) -> tuple[float, float, float]:
        return (
            score_to_elo(self.score),
            score_to_elo(self.score_low),
            score_to_elo(self.score_high),
        )


def paired_elo(pairs: Sequence[tuple[float, float]]) -> PairedElo:
    """The mean score per game with a 95 % interval from the variance of the pair scores
    (the pentanomial estimate: the pairing's correlation is in it); when every pair scored
    the same, the Wilson interval of the games instead (a zero variance is no certainty)."""
    n = len(pairs)
    if n == 0:
        return PairedElo(0, 0.5, 0.0, 1.0)
    per_pair = [(a + b) / 2 for a, b in pairs]
    mean = sum(per_pair) / n
    var = sum((x - mean) ** 2 for x in per_pair) / n
    if var == 0.0:  # every pair alike (a sweep, or all split): no spread to measure
        rate = wilson(2 * n * mean, 2 * n)  # so treat the games as independent
        return PairedElo(n, mean, rate.low, rate.high)
    half = Z95 * math.sqrt(var / n)
    return PairedElo(n, mean, max(0.0, mean - half), min(1.0, mean + half))


@dataclass(frozen=True)
class PairedComparison:
    """Two bots on the same set-ups: who won where the other lost."""

    a: str
    b: str
    n: int
    a_only: int
    """Set-ups that ``a`` won and ``b`` lost."""
    b_only: int
    both: int
    difference: float
    """Win rate of ``a`` minus that of ``b`` on these set-ups."""
    low: float
    high: float
    p_value: float
    """McNemar's exact test (binomial on the set-ups only one of them won)."""

    @property
    def verdict(self) -> str:
        if self.low > 0:
            return f"{self.a} better"
        if self.high < 0:
            return f"{self.b} better"
        return "unclear"

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "setups": self.n,
            "a_won_b_lost": self.a_only,
            "b_won_a_lost": self.b_only,
            "both_won": self.both,
            "difference": round(self.difference, 6),
            "ci95": [round(self.low, 6), round(self.high, 6)],
            "mcnemar_p": round(self.p_value, 6),
            "verdict": self.verdict,
        }


def paired_comparison(a: str, b: str, outcomes: Sequence[tuple[bool, bool]]) -> PairedComparison:
    """Compare two bots' wins on the same set-ups (``(a won, b won)`` per set-up).

    The difference in win rate has the Bonett–Price (2012) adjusted-Wald 95 % interval
    for paired proportions; the p-value is McNemar's exact (binomial) test.
    """
    n = len(outcomes)
    a_only = sum(1 for x, y in outcomes if x and not y)
    b_only = sum(1 for x, y in outcomes if y and not x)
    both = sum(1 for x, y in outcomes if x and y)
    diff = (a_only - b_only) / n if n else 0.0
    p12 = (a_only + 1) / (n + 2)
    p21 = (b_only + 1) / (n + 2)
    d = p12 - p21
    half = Z95 * math.sqrt(max(p12 + p21 - d * d, 0.0) / (n + 2))
    discordant = a_only + b_only
    p_value = float(scipy.stats.binomtest(a_only, discordant, 0.5).pvalue) if discordant else 1.0
    return PairedComparison(
        a, b, n, a_only, b_only, both, diff, max(-1.0, d - half), min(1.0, d + half), p_value
    )


# ------------------------------------------------------------------ the arena's folder


def bot_folder(spec: str) -> str:
    """A folder name for a bot spec (``hard:1.5s,c=0.2`` -> ``hard_1.5s_c=0.2``; an external
    agent's keeps its case, and a long one is cut and told apart by a hash of the spec)."""
    name = re.sub(r"[^A-Za-z0-9.=-]+", "_", spec)
    if len(name) > 60:
        name = f"{name[:48]}-{hashlib.sha256(spec.encode()).hexdigest()[:10]}"
    return name


def normalize_bots(game_name: str, specs: Sequence[str], cooperative: bool) -> list[str]:
    """The bot specs, checked (each builds), lower-case, each once; ConfigError if not."""
    if not specs:
        raise ConfigError("give the bots to rate: --bot A --bot B (e.g. --bot random --bot easy)")
    bots: list[str] = []
    for spec in specs:
        text = spec.strip() if is_external(spec) else spec.strip().lower()
        make_entrant(text, game_name)  # an unknown bot, bad budget or agent: its own error
        if text in bots:
            raise ConfigError(f"bot '{text}' is given twice: give each --bot once")
        bots.append(text)
    if len(bots) > MAX_BOTS:
        raise ConfigError(f"at most {MAX_BOTS} bots in one arena, not {len(bots)}")
    if not cooperative and len(bots) < 2:
        raise ConfigError(
            f"{game_name} rates bots against each other: give at least two --bot "
            f"(e.g. --bot {bots[0]} --bot random)"
        )
    if len({bot_folder(b).lower() for b in bots}) < len(bots):
        raise ConfigError("two --bot specs differ only in punctuation: give distinct bots")
    return bots


def start_arena(out: Path, meta: dict[str, Any]) -> None:
    """Record the arena in ``out/arena.json``, or check it is the arena already there.

    A folder of ``velvet sim`` results folders alone (each with its run.json) is adopted:
    each run is then checked by ``run_sim`` against the game, seats, seed and set-up.
    """
    path = out / ARENA_FILE
    try:
        if out.exists() and not out.is_dir():
            raise ConfigError(f"{show_path(str(out))}: not a folder (give a folder for --out)")
        names = sorted(p.name for p in out.iterdir()) if out.is_dir() else []
    except OSError as exc:
        raise ConfigError(
            f"{show_path(str(out))}: cannot be used ({describe_os_error(exc)})"
        ) from None
    if not names:
        atomic_write_json(path, meta)
        return
    if ARENA_FILE not in names and not all((out / n / RUN_FILE).is_file() for n in names):
        raise ConfigError(
            f"{show_path(str(out))}: holds other files and no {ARENA_FILE}: "
            "give a new or empty folder for --out"
        )
    if ARENA_FILE not in names:  # velvet sim runs to adopt: run_sim checks each one
        atomic_write_json(path, meta)
        return
    old = parse_json(read_text(path, RecordError), RecordError, str(path))
    if not isinstance(old, dict):
        raise RecordError(f"{show_path(str(path))}: expected a JSON object")
    for key in SAME_ARENA_KEYS:
        if old.get(key) != meta.get(key):
            raise ConfigError(
                f"{show_path(str(out))} holds another arena ({key} was {old.get(key)!r}, "
                f"now {meta.get(key)!r}): use a new --out folder"
            )
    bots = list(dict.fromkeys([*old.get("bots", []), *meta["bots"]]))
    atomic_write_json(path, {**old, "bots": bots})


# ------------------------------------------------------------------ running


@dataclass
class ArenaOptions:
    """How to play an arena (everything but the bots and the game)."""

    n_games: int = 100
    """VS: seeds per pairing (each played in both seat orders); co-op: set-ups per bot."""
    seed: int = 0
    config: dict[str, Any] = field(default_factory=dict)
    cards: tuple[str, ...] = ()
    vary: bool = False
    players: int = 1
    workers: int | None = None
    backend: Backend = "pool"
    ray_address: str | None = None
    fmt: str | None = None
    max_actions: int = MAX_ACTIONS
    progress: bool = False
    pairs: str = "all"
    """``all`` (every two bots) or ``chain`` (each bot with the next one given)."""
    anchor: str | None = None
    """The bot rated 0 (default the first), or ``mean``."""
    sprt: SprtTest | None = None
    batch: int | None = None
    """SPRT: game pairs played between two looks at the LLR (default 2 per worker)."""


@dataclass
class ArenaResult:
    """What an arena found: lines for a terminal and the same figures as JSON."""

    lines: list[str]
    data: dict[str, Any]
    interrupted: bool = False


def run_arena(
    game_name: str, bot_specs: Sequence[str], out: Path, options: ArenaOptions, say: Say = _silent
) -> ArenaResult:
    """Play (or resume) an arena into ``out`` and rate its bots; ``say`` prints progress."""
    sim_game = get_spec(game_name)
    cooperative = sim_game.cooperative
    bots = normalize_bots(game_name, bot_specs, cooperative)
    if options.sprt is not None:
        if cooperative:
            raise ConfigError(
                f"--sprt tests two bots playing each other; {game_name} is co-op: drop "
                "--sprt and read the paired comparison the arena prints"
            )
        if len(bots) != 2:
            raise ConfigError(f"--sprt compares two bots (A/B), not {len(bots)}: give two --bot")
    if options.pairs not in ("all", "chain"):
        raise ConfigError(f"--pairs must be all or chain, not {options.pairs!r}")
    if options.batch is not None and options.batch <= 0:
        raise ConfigError(f"--batch must be a positive number of game pairs, not {options.batch}")
    anchor = _anchor_index(bots, options.anchor)
    game = sim_game.load(options.cards)
    if not options.config:  # the game's default set-up for the seats
        seats = options.players if cooperative else 2
        options = dataclasses.replace(options, config=sim_game.config_for(game, seats, {}))
    _preflight(sim_game, game, options)
    start_arena(
        out,
        {
            "game": game_name,
            "kind": "co-op" if cooperative else "versus",
            "bots": bots,
            "base_seed": options.seed,
            "config": options.config,
            "cards": list(options.cards),
            "vary": options.vary,
            "players": options.players if cooperative else 2,
        },
    )
    with _one_ray(options):
        if cooperative:
            return _run_coop(game_name, bots, out, options, say)
        if options.sprt is not None:
            return _run_sprt(game_name, bots, out, options, options.sprt, say)
        return _run_versus(game_name, bots, out, options, anchor, say)


@contextlib.contextmanager
def _one_ray(options: ArenaOptions) -> Iterator[None]:
    """With ``--backend ray``, one Ray for every run of the arena (``run_sim`` starts and
    stops one per run when none is running)."""
    if options.backend != "ray":
        yield
        return
    try:
        import ray  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        raise ConfigError("the ray backend needs Ray: pip install 'velvet[ray]'") from None
    if ray.is_initialized():
        yield
        return
    if options.ray_address:
        try:
            ray.init(address=options.ray_address, log_to_driver=False)
        except Exception as exc:  # Ray raises many kinds: one line
            text = " ".join(str(exc).split())[:300] or type(exc).__name__
            raise ConfigError(f"cannot join Ray at {options.ray_address}: {text}") from None
    else:
        start_local_ray(options.workers or os.cpu_count() or 1)
    try:
        yield
    finally:
        ray.shutdown()


def _preflight(sim_game: GameSpec, game: Game[Any], options: ArenaOptions) -> None:
    """What ``run_sim`` would refuse, refused before the arena's folder is made."""
    if not 0 < options.n_games <= MAX_GAMES:
        raise ConfigError(
            f"--games must be a positive number (1..{MAX_GAMES}), not {options.n_games}"
        )
    if options.workers is not None and not 0 < options.workers <= MAX_WORKERS:
        raise ConfigError(
            f"--workers must be a positive number (1..{MAX_WORKERS}), not {options.workers}"
        )
    if not 0 < options.max_actions <= MAX_MAX_ACTIONS:
        raise ConfigError(
            f"--max-actions must be a positive number (1..{MAX_MAX_ACTIONS}), "
            f"not {options.max_actions}"
        )
    if options.ray_address:
        if options.backend != "ray":
            raise ConfigError("--address is for the ray backend: add --backend ray")
        check_ray_address(options.ray_address)
    first = game_seed(options.seed, 0)
    game.new_state(game_config(sim_game, game, options.config, first, options.vary), first)


def _anchor_index(bots: list[str], anchor: str | None) -> int | None:
    if anchor is None:
        return 0
    text = anchor.strip().lower()
    if text == "mean":
        return None
    if text not in bots:
        raise ConfigError(f"--anchor {anchor}: not one of the bots ({', '.join(bots)}) nor mean")
    return bots.index(text)


def _play(
    game_name: str,
    seats: list[str],
    folder: Path,
    options: ArenaOptions,
    n_games: int,
    start: int = 0,
) -> bool:
    """Play games ``start .. start+n_games-1`` of one run; True if Ctrl-C stopped it."""
    summary = run_sim(
        game_name,
        n_games,
        seats,
        options.config,
        options.seed,
        folder,
        workers=options.workers,
        backend=options.backend,
        ray_address=options.ray_address,
        card_paths=options.cards,
        progress=options.progress,
        start=start,
        fmt=options.fmt,
        max_actions=options.max_actions,
        vary=options.vary,
    )
    return summary.interrupted


def _rows(folder: Path) -> dict[int, Row]:
    """The finished games of one run, by index (none if the run has not begun)."""
    if not os.path.isdir(folder):
        return {}
    return {int(r["index"]): r for r in ResultStore(folder).load_rows() if not r.get("error")}


def _forfeits(folder: Path, n_games: int) -> list[str]:
    """The outcomes of the games an external agent forfeited (``forfeit by seat ...``)."""
    return [
        str(row["outcome"])
        for i, row in sorted(_rows(folder).items())
        if i < n_games and str(row.get("outcome") or "").startswith(FORFEIT)
    ]


FORFEITS_SHOWN = 5


def forfeit_lines(groups: Iterable[list[str]]) -> list[str]:
    """``N games lost by forfeit`` and the first few reasons, or nothing."""
    every = [text for group in groups for text in group]
    if not every:
        return []
    lines = [
        f"  {len(every)} game{'s' if len(every) > 1 else ''} lost by forfeit (scored as losses):"
    ]
    lines += [f"    {text}" for text in every[:FORFEITS_SHOWN]]
    if len(every) > FORFEITS_SHOWN:
        lines.append(
            f"    ... and {len(every) - FORFEITS_SHOWN} more (ratings.json lists them all)"
        )
    return lines


def _errors(folder: Path) -> int:
    if not os.path.isdir(folder):
        return 0
    return sum(1 for r in ResultStore(folder).load_rows() if r.get("error"))


def seat_score(row: Row, seat: int) -> float:
    """What ``seat`` scored in a finished game: 1 a win, 1/2 a draw, 0 a loss."""
    returns = [float(row[k]) for k in sorted(row) if k.startswith("return_") and row[k] is not None]
    mine = float(row[f"return_{seat}"])
    if all(r == mine for r in returns):
        return 0.5
    return 1.0 if mine == max(returns) else 0.0


def _pair_folders(out: Path, a: str, b: str) -> tuple[Path, Path]:
    return out / f"{bot_folder(a)}--{bot_folder(b)}", out / f"{bot_folder(b)}--{bot_folder(a)}"


def game_pairs(out: Path, a: str, b: str, limit: int | None = None) -> list[tuple[float, float]]:
    """``a``'s scores in each seed played both ways (a in seat 1, then b in seat 1)."""
    first, second = _pair_folders(out, a, b)
    ab, ba = _rows(first), _rows(second)
    indices = sorted(set(ab) & set(ba))
    if limit is not None:
        indices = [i for i in indices if i < limit]
    return [(seat_score(ab[i], 0), seat_score(ba[i], 1)) for i in indices]


def _pairings(bots: list[str], how: str) -> list[tuple[str, str]]:
    if how == "chain":
        return list(itertools.pairwise(bots))
    return [(a, b) for i, a in enumerate(bots) for b in bots[i + 1 :]]


def _run_versus(
    game_name: str,
    bots: list[str],
    out: Path,
    options: ArenaOptions,
    anchor: int | None,
    say: Say,
) -> ArenaResult:
    pairings = _pairings(bots, options.pairs)
    interrupted = False
    for a, b in pairings:
        for seats, folder in zip(((a, b), (b, a)), _pair_folders(out, a, b), strict=True):
            say(f"{seats[0]} (seat 1) vs {seats[1]} (seat 2): {options.n_games} games")
            if _play(game_name, list(seats), folder, options, options.n_games):
                interrupted = True
                break
        if interrupted:
            break
    return versus_result(game_name, bots, out, pairings, options.n_games, anchor, interrupted)


def versus_result(
    game_name: str,
    bots: list[str],
    out: Path,
    pairings: list[tuple[str, str]],
    n_games: int,
    anchor: int | None,
    interrupted: bool = False,
) -> ArenaResult:
    """The ratings and the pairwise table from the games in ``out``."""
    index = {bot: i for i, bot in enumerate(bots)}
    table: list[dict[str, Any]] = []
    games: list[tuple[int, int, float, float]] = []
    shown: dict[tuple[str, str], tuple[float, float, float]] = {}
    for a, b in pairings:
        first, second = _pair_folders(out, a, b)
        ab, ba = _rows(first), _rows(second)
        scores = [seat_score(ab[i], 0) for i in ab if i < n_games]
        scores += [seat_score(ba[i], 1) for i in ba if i < n_games]
        pairs = game_pairs(out, a, b, n_games)
        wins = sum(1 for s in scores if s == 1.0)
        draws = sum(1 for s in scores if s == 0.5)
        est = paired_elo(pairs)
        elo, elo_lo, elo_hi = est.elo
        shown[a, b] = est.elo  # ±inf kept for the text (the JSON has null there)
        table.append(
            {
                "a": a,
                "b": b,
                "games": len(scores),
                "a_wins": wins,
                "draws": draws,
                "b_wins": len(scores) - wins - draws,
                "a_score": round(sum(scores) / len(scores), 6) if scores else None,
                "pairs": len(pairs),
                "pentanomial": pentanomial(pairs),
                "elo_paired": _finite([elo, elo_lo, elo_hi]),
                "errors": _errors(first) + _errors(second),
                "forfeits": _forfeits(first, n_games) + _forfeits(second, n_games),
            }
        )
        if scores:
            games.append((index[a], index[b], sum(scores), float(len(scores))))
    ratings: Ratings | None = None
    problem = ""
    try:
        ratings = fit_bradley_terry(bots, games, anchor)
    except ConfigError as exc:
        problem = str(exc)
    lines = [f"{game_name} arena: {len(bots)} bots, {n_games} seeds per pairing, both seat orders"]
    if ratings is not None:
        lines.append(f"  ratings (Elo, Bradley-Terry ML, 95 % interval; {ratings.anchor} = 0):")
        order = sorted(range(len(bots)), key=lambda i: -ratings.elo[i])
        width = max(len(b) for b in bots)
        for i in order:
            lines.append(
                f"    {bots[i]:<{width}}  {_elo_text(ratings.elo[i]):>5}  "
                f"[{_elo_text(ratings.low[i])}, {_elo_text(ratings.high[i])}]"
            )
    else:
        lines.append(f"  no ratings yet: {problem}")
    lines.append("  pairings (A's wins-draws-losses, score, Elo A-B from the game pairs):")
    for row in table:
        if not row["games"]:
            lines.append(f"    {row['a']} vs {row['b']}: no games yet")
            continue
        elo, lo, hi = shown[row["a"], row["b"]]
        lines.append(
            f"    {row['a']} vs {row['b']}: {row['a_wins']}-{row['draws']}-{row['b_wins']} "
            f"of {row['games']}, {row['a_score']:.1%}, {_elo_text(elo)} "
            f"[{_elo_text(lo)}, {_elo_text(hi)}] over {row['pairs']} pairs"
            + (f" ({row['errors']} failed)" if row["errors"] else "")
        )
    lines.extend(forfeit_lines(row["forfeits"] for row in table))
    if len(table) > 1:
        lines.extend(cross_table(bots, table))
    if interrupted:
        lines.append("  interrupted: finished games kept; run again with the same --out to resume")
    data: dict[str, Any] = {
        "game": game_name,
        "kind": "versus",
        "bots": bots,
        "seeds_per_pairing": n_games,
        "ratings": ratings.to_json() if ratings is not None else None,
        "differences": _differences(ratings, pairings, index) if ratings else [],
        "pairings": table,
        "interrupted": interrupted,
    }
    atomic_write_json(out / RATINGS_FILE, data)
    return ArenaResult(lines, data, interrupted)


def cross_table(bots: list[str], table: list[dict[str, Any]]) -> list[str]:
    """The pairwise table: the row bot's wins/games and score against each column bot."""
    cells: dict[tuple[str, str], str] = {}
    for row in table:
        n = row["games"]
        if not n:
            continue
        score = row["a_score"]
        cells[row["a"], row["b"]] = f"{row['a_wins']}/{n} {score:.0%}"
        cells[row["b"], row["a"]] = f"{row['b_wins']}/{n} {1 - score:.0%}"
    width = max([len(b) for b in bots] + [len(c) for c in cells.values()] + [1])
    head = " " * (width + 6) + "  ".join(f"{b:>{width}}" for b in bots)
    lines = ["  pairwise (row's wins/games and score against the column):", head]
    for a in bots:
        row_cells = [f"{cells.get((a, b), '-' if a != b else ''):>{width}}" for b in bots]
        lines.append(f"    {a:<{width}}  " + "  ".join(row_cells))
    return lines


def _differences(
    ratings: Ratings, pairings: list[tuple[str, str]], index: dict[str, int]
) -> list[dict[str, Any]]:
    rows = []
    for a, b in pairings:
        d, lo, hi = ratings.difference(index[a], index[b])
        rows.append({"a": a, "b": b, "elo": round(d, 2), "ci95": [round(lo, 2), round(hi, 2)]})
    return rows


def _finite(values: list[float]) -> list[float | None]:
    return [round(v, 2) if math.isfinite(v) else None for v in values]


def _elo_text(value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return "+inf" if value is not None and value > 0 else "-inf"
    return f"{round(value) or 0:+d}"


def _run_sprt(
    game_name: str,
    bots: list[str],
    out: Path,
    options: ArenaOptions,
    test: SprtTest,
    say: Say,
) -> ArenaResult:
    """Play game pairs of A against B until the LLR crosses a bound or ``n_games`` pairs."""
    a, b = bots
    lower, upper = test.bounds
    batch = options.batch or 2 * (options.workers or os.cpu_count() or 1)
    limit = options.n_games
    say(
        f"SPRT {a} vs {b}: H0 Elo {test.elo0:g}, H1 Elo {test.elo1:g}, alpha {test.alpha:g}, "
        f"beta {test.beta:g} ({test.model}); bounds [{lower:.2f}, {upper:.2f}], "
        f"at most {limit} game pairs"
    )
    folders = _pair_folders(out, a, b)
    done = 0
    decision: str | None = None
    llr = 0.0
    interrupted = False
    while done < limit:
        step = min(batch, limit - done)
        have = game_pairs(out, a, b, done + step)
        if len(have) < done + step:
            for seats, folder in zip(((a, b), (b, a)), folders, strict=True):
                if _play(game_name, list(seats), folder, options, step, start=done):
                    interrupted = True
                    break
            if interrupted:
                break
            have = game_pairs(out, a, b, done + step)
        done += step
        llr = test.llr(have)
        decision = test.decision(llr)
        est = paired_elo(have)
        say(
            f"  {len(have)} pairs: LLR {llr:+.2f} [{lower:.2f}, {upper:.2f}], "
            f"score {est.score:.1%}, Elo {_elo_text(est.elo[0])}"
        )
        if decision is not None:
            break
    pairs = game_pairs(out, a, b, done)
    est = paired_elo(pairs)
    elo, lo, hi = est.elo
    if decision == "H1":
        verdict = (
            f"H1 accepted: {a} is stronger than {b} "
            f"(the games favour {test.elo1:+g} Elo over {test.elo0:+g})"
        )
    elif decision == "H0":
        verdict = (
            f"H0 accepted: {a} is not {test.elo1:g} Elo stronger than {b} "
            f"(the games favour {test.elo0:+g} Elo over {test.elo1:+g})"
        )
    elif interrupted:
        verdict = "interrupted before a decision: run again with the same --out to go on"
    else:
        verdict = f"undecided after {len(pairs)} game pairs (raise --games to play on)"
    lines = [
        f"{game_name} SPRT {a} vs {b}: {verdict}",
        f"  LLR {llr:+.2f} (bounds {lower:.2f}, {upper:.2f}) after {len(pairs)} game pairs; "
        f"pentanomial {pentanomial(pairs)}",
        f"  {a} scored {est.score:.1%} [{est.score_low:.1%}, {est.score_high:.1%}], "
        f"Elo {_elo_text(elo)} [{_elo_text(lo)}, {_elo_text(hi)}]",
    ]
    data = {
        "game": game_name,
        "kind": "sprt",
        "bots": bots,
        "sprt": {
            "elo0": test.elo0,
            "elo1": test.elo1,
            "alpha": test.alpha,
            "beta": test.beta,
            "model": test.model,
            "bounds": [round(lower, 6), round(upper, 6)],
            "llr": round(llr, 6),
            "decision": decision,
            "pairs": len(pairs),
            "pentanomial": pentanomial(pairs),
            "score": round(est.score, 6),
            "elo": _finite([elo, lo, hi]),
        },
        "interrupted": interrupted,
    }
    atomic_write_json(out / RATINGS_FILE, data)
    return ArenaResult(lines, data, interrupted)


def _run_coop(
    game_name: str, bots: list[str], out: Path, options: ArenaOptions, say: Say
) -> ArenaResult:
    interrupted = False
    for bot in bots:
        say(f"{bot}: {options.n_games} set-ups")
        seats = [bot] * options.players
        if _play(game_name, seats, out / bot_folder(bot), options, options.n_games):
            interrupted = True
            break
    breakdown = get_spec(game_name).setup_columns
    return coop_result(game_name, bots, out, options.n_games, interrupted, breakdown)


@dataclass(frozen=True)
class CoopRecord:
    """One bot's results in a co-op arena."""

    bot: str
    games: dict[int, Row]

    def won(self, index: int) -> bool:
        return float(self.games[index].get("return_0") or 0.0) >= 1.0


def _by(rows: Iterable[Row], key: Callable[[Row], list[str]]) -> dict[str, list[Row]]:
    groups: dict[str, list[Row]] = {}
    for row in rows:
        for value in key(row):
            groups.setdefault(value, []).append(row)
    return dict(sorted(groups.items()))


def _win_summary(rows: Sequence[Row]) -> dict[str, Any]:
    wins = [r for r in rows if float(r.get("return_0") or 0.0) >= 1.0]
    rate = wilson(len(wins), len(rows))
    days = [r["turns"] for r in wins if isinstance(r.get("turns"), int)]
    return {
        **rate.to_json(),
        "median_win_day": statistics.median(days) if days else None,
    }


def _seat_values(row: Row, base: str) -> list[str]:
    return sorted(
        {
            str(value)
            for key, value in row.items()
            if key.startswith(f"{base}_") and key[len(base) + 1 :].isdigit() and value
        }
    )


def _column_values(column: str) -> tuple[str, Callable[[Row], list[str]]]:
    """``(name, values of a row)`` of a set-up column: ``palace``, or per seat ``thief_{s}``
    (every seat's value, each once)."""
    base, per_seat, _ = column.partition("_{s}")
    if per_seat:
        return base, lambda r: _seat_values(r, base)
    return column, lambda r: [str(r[column])] if r.get(column) else []


def coop_result(
    game_name: str,
    bots: list[str],
    out: Path,
    n_games: int,
    interrupted: bool = False,
    breakdown: Sequence[str] = (),
) -> ArenaResult:
    """Each bot's win rate and winning day, overall and by each set-up column of
    ``breakdown`` (the game's ``GameSpec.setup_columns``; the first also printed), and
    paired comparisons of the bots."""
    records = [
        CoopRecord(bot, {i: r for i, r in _rows(out / bot_folder(bot)).items() if i < n_games})
        for bot in bots
    ]
    per_bot: list[dict[str, Any]] = []
    for record in records:
        rows = list(record.games.values())
        entry: dict[str, Any] = {"bot": record.bot, **_win_summary(rows)}
        entry["errors"] = _errors(out / bot_folder(record.bot))
        entry["forfeits"] = _forfeits(out / bot_folder(record.bot), n_games)
        for column in breakdown:
            name, key = _column_values(column)
            entry[f"by_{name}"] = {k: _win_summary(v) for k, v in _by(rows, key).items()}
        per_bot.append(entry)
    comparisons: list[PairedComparison] = []
    for i, first in enumerate(records):
        for second in records[i + 1 :]:
            common = sorted(set(first.games) & set(second.games))
            outcomes = [(first.won(k), second.won(k)) for k in common]
            comparisons.append(paired_comparison(first.bot, second.bot, outcomes))
    lines = [f"{game_name} arena (co-op): {len(bots)} bots on the same {n_games} set-ups"]
    width = max(len(b) for b in bots)
    lines.append("  win rate [95 % Wilson], median winning day:")
    for entry in sorted(per_bot, key=lambda e: -e["rate"]):
        lo, hi = entry["ci95"]
        day = entry["median_win_day"]
        lines.append(
            f"    {entry['bot']:<{width}}  {entry['rate']:6.1%} [{lo:.1%}, {hi:.1%}] "
            f"of {entry['n']}, day {'-' if day is None else f'{day:g}'}"
            + (f" ({entry['errors']} failed)" if entry["errors"] else "")
        )
    shown = _column_values(breakdown[0])[0] if breakdown else ""
    values = sorted({v for e in per_bot for v in e.get(f"by_{shown}", {})})
    if values:
        lines.append(f"  by {shown} (win rate, median winning day):")
        for value in values:
            cells = []
            for entry in per_bot:
                item = entry[f"by_{shown}"].get(value)
                if item is None:
                    continue
                day = item["median_win_day"]
                cells.append(
                    f"{entry['bot']} {item['wins']:g}/{item['n']}"
                    + ("" if day is None else f" d{day:g}")
                )
            lines.append(f"    {value}: " + ", ".join(cells))
    lines.extend(forfeit_lines(entry["forfeits"] for entry in per_bot))
    if comparisons:
        lines.append("  paired on the same set-ups (A-B win rate [95 %], McNemar p):")
        for c in comparisons:
            lines.append(
                f"    {c.a} vs {c.b}: {c.difference:+.1%} [{c.low:+.1%}, {c.high:+.1%}], "
                f"{c.a_only} vs {c.b_only} set-ups won by one only, p={c.p_value:.3g}: {c.verdict}"
            )
    if interrupted:
        lines.append("  interrupted: finished games kept; run again with the same --out to resume")
    data = {
        "game": game_name,
        "kind": "co-op",
        "bots": bots,
        "setups": n_games,
        "win_rates": per_bot,
        "paired": [c.to_json() for c in comparisons],
        "interrupted": interrupted,
    }
    atomic_write_json(out / RATINGS_FILE, data)
    return ArenaResult(lines, data, interrupted)
