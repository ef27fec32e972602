#!/usr/bin/env python
"""P5 thief and persona balance: a balanced solo design, win rates with 95% Wilson intervals.

Not random draws: game ``i`` of the design gets thief ``i mod 9`` and a persona chosen so
that every 9 consecutive games hold each thief and each persona once, every 81 games hold
each of the 81 thief/persona pairs once, and game ``i`` gets palace ``i mod 5``, so over
405 games every pair meets every palace once (each thief and persona 45 games, 9 in each
palace). Game ``i`` is seeded by ``velvet.sim.run.game_seed(seed, i)`` and played through
``velvet.sim.run.run_sim`` into ``--out`` one round of 9 at a time, each game saved when it
ends, so an interrupted run keeps its games and a rerun resumes.

The tables give each thief's and each persona's wins/games, rate and interval, the mean of
the 9 rates, and each one's distance from that mean; ``!`` flags one more than
``--band`` (default 15) points away.

``--only ID`` plays just the games holding that thief or persona (repeatable) and
``--fill-from DIR`` takes every other game from an earlier run's directory: a paired
re-run after a card change, on the same seeds, replays only the games the change can touch.

    python benchmarks/setup_balance.py --bot normal --games 405 --seed 1 --out runs/bal
    python benchmarks/setup_balance.py --bot normal --games 405 --seed 1 --out runs/bal2 \\
        --only goemon --fill-from runs/bal
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from velvet.bots import make_bot
from velvet.engine.core import Game
from velvet.engine.errors import ConfigError, VelvetError
from velvet.engine.rng import Rng
from velvet.games import get_spec
from velvet.sim.results import ResultStore
from velvet.sim.run import game_seed, run_sim, setup_seed
from velvet.sim.stats import Rate, wilson

SIM_NAME = "setup_balance:BALANCED"
"""The GameSpec the games run under: P5 whose varied set-up is the design's, by game index."""

ROUND = 9
"""Games per round: each thief and each persona once."""

DESIGN_KEY = "balanced_design_seed"
"""Config key carrying the run's base seed to ``vary_balanced`` (removed before play)."""

_P5 = get_spec("p5")
_CHOICES = _P5.load(()).choices()
THIEVES: tuple[str, ...] = tuple(t for t, _ in _CHOICES["thieves"])
PERSONAS: tuple[str, ...] = tuple(p for p, _ in _CHOICES["personas"])
PALACES: tuple[str, ...] = tuple(p for p, _ in _CHOICES["palaces"])


@dataclass(frozen=True)
class Setup:
    """One game of the design."""

    thief: str
    persona: str
    palace: str


def design(
    index: int,
    thieves: Sequence[str] = THIEVES,
    personas: Sequence[str] = PERSONAS,
    palaces: Sequence[str] = PALACES,
) -> Setup:
    """The set-up of game ``index``: a cyclic Latin square of thieves x personas, palaces cycled.

    With n thieves and n personas, game i has thief ``i mod n`` and persona
    ``(i mod n + i // n) mod n``: each n consecutive games (a round) hold every thief and
    every persona once, each n*n games every pair once. The palace is ``i mod len(palaces)``;
    when n and n*n are coprime with the palace count (9 and 5), every pair meets every palace
    once in n*n*len(palaces) games.
    """
    if index < 0:
        raise ConfigError(f"a game index is 0 or more, not {index}")
    n = len(thieves)
    if n == 0 or len(personas) != n or not palaces:
        raise ConfigError(
            f"the design needs as many personas as thieves and a palace "
            f"({n} thieves, {len(personas)} personas, {len(palaces)} palaces)"
        )
    t = index % n
    k = (index // n) % n
    return Setup(thieves[t], personas[(t + k) % n], palaces[index % len(palaces)])


_TOKENS: dict[int, dict[int, int]] = {}
"""base seed -> {first draw of a game's set-up RNG: game index} (grown on demand)."""


def _token(rng: Rng) -> int:
    return rng.randbelow(1 << 64)


def index_of(base_seed: int, token: int, limit: int = 100_000) -> int:
    """The game index whose set-up RNG first draws ``token`` (see ``run.game_config``)."""
    known = _TOKENS.setdefault(base_seed, {})
    if token in known:
        return known[token]
    for i in range(len(known), limit):
        t = _token(Rng(setup_seed(game_seed(base_seed, i))))
        known[t] = i
        if t == token:
            return i
    raise ConfigError(f"no game below {limit} of seed {base_seed} has this set-up seed")


def vary_balanced(game: Game[Any], config: dict[str, Any], rng: Rng) -> dict[str, Any]:
    """Game i's set-up from ``design(i)``; i is found from the set-up RNG run_sim seeds."""
    base = config.get(DESIGN_KEY)
    if not isinstance(base, int):
        raise ConfigError(f"the balanced design needs '{DESIGN_KEY}' (the run's base seed)")
    setup = design(index_of(base, _token(rng)))
    out = {k: v for k, v in config.items() if k != DESIGN_KEY}
    out["players"] = [{"thief": setup.thief, "persona": setup.persona}]
    out["palace"] = setup.palace
    return out


BALANCED = replace(_P5, vary=vary_balanced)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="bots: random | greedy[:N] | mcts[:N|:Ss] | easy | normal | hard[:N|:Ss]",
    )
    parser.add_argument("--bot", default="normal", help="bot spec (default normal)")
    parser.add_argument(
        "--games", type=int, default=405, help="games 0..N-1 of the design (default 405)"
    )
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument(
        "--out", default=None, help="results directory (a rerun resumes); default a temp dir"
    )
    parser.add_argument(
        "--only",
        action="append",
        default=None,
        help="play only games holding this thief or persona id (repeatable)",
    )
    parser.add_argument(
        "--fill-from",
        default=None,
        help="an earlier run's --out: games not played here are read from it",
    )
    parser.add_argument(
        "--band", type=float, default=15.0, help="flag rates this many points off the mean"
    )
    parser.add_argument(
        "--report", action="store_true", help="only print the tables of what --out holds"
    )
    return parser.parse_args(argv)


def selected(games: int, only: Sequence[str] | None) -> list[int]:
    """Indices 0..games-1, or those whose thief or persona is in ``only``."""
    if not only:
        return list(range(games))
    known = set(THIEVES) | set(PERSONAS)
    bad = [x for x in only if x not in known]
    if bad:
        raise ConfigError(f"--only {bad[0]!r} is no thief or persona: choose from {sorted(known)}")
    keep = set(only)
    return [i for i in range(games) if {design(i).thief, design(i).persona} & keep]


def play(args: argparse.Namespace, root: Path, indices: Sequence[int]) -> None:
    """Play ``indices`` in rounds of ROUND games, each saved as it ends."""
    config: dict[str, Any] = {"players": [{}], DESIGN_KEY: args.seed}
    runs: list[tuple[int, int]] = []  # (start, length) of consecutive indices
    for i in indices:
        if runs and runs[-1][0] + runs[-1][1] == i and runs[-1][1] < ROUND:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((i, 1))
    began = time.perf_counter()
    for n_done, (start, length) in enumerate(runs, 1):
        summary = run_sim(
            SIM_NAME,
            length,
            [args.bot],
            config,
            args.seed,
            root,
            workers=args.workers,
            progress=False,
            start=start,
            chunk_size=1,
            vary=True,
        )
        if summary.interrupted:  # Ctrl-C: the finished games are kept; stop here
            print(f"  interrupted: {len(ResultStore(root).done_indices())} games in {root}")
            return
        if n_done % 5 == 0 or n_done == len(runs):
            played = len(ResultStore(root).done_indices())
            print(
                f"  ... {played} games in {root} ({time.perf_counter() - began:.0f} s this call)",
                flush=True,
            )


def rows_of(root: Path, fill: Path | None, games: int) -> dict[int, dict[str, Any]]:
    """Games 0..games-1 from ``root``, the missing ones from ``fill``."""
    rows: dict[int, dict[str, Any]] = {}
    for source in (root, fill):
        if source is None or not source.exists():
            continue
        for r in ResultStore(source).load_rows():
            i = int(r["index"])
            if i < games and i not in rows:
                rows[i] = r
    return rows


def tally(rows: Mapping[int, Mapping[str, Any]], key: str) -> dict[str, tuple[int, int, int]]:
    """id -> (wins, games, failed) over the rows, by ``thief_0`` or ``persona_0``."""
    out: dict[str, list[int]] = {}
    for i, r in rows.items():
        setup = design(i)
        name = setup.thief if key == "thief_0" else setup.persona
        if r.get("error") is None and r.get(key) not in (None, name):
            raise ConfigError(
                f"game {i} was played with {key}={r.get(key)}, the design says {name}"
            )
        t = out.setdefault(name, [0, 0, 0])
        if r.get("error"):
            t[2] += 1
            continue
        t[0] += (r.get("return_0") or 0.0) >= 1.0
        t[1] += 1
    return {k: (v[0], v[1], v[2]) for k, v in out.items()}


def table(
    title: str, names: Sequence[str], counts: Mapping[str, tuple[int, int, int]], band: float
) -> list[str]:
    """One table: rate, interval, distance from the mean of the rates, flag."""
    rates: dict[str, Rate] = {
        n: wilson(counts[n][0], counts[n][1]) for n in names if n in counts and counts[n][1]
    }
    if not rates:
        return [f"{title}: no games"]
    mean = sum(r.rate for r in rates.values()) / len(rates)
    lines = [f"{title:<14}{'wins/games':>11}{'rate':>8}{'95% CI':>16}{'vs mean':>9}"]
    for n in sorted(rates, key=lambda x: rates[x].rate):
        r = rates[n]
        d = 100 * (r.rate - mean)
        flag = " !" if abs(d) > band else ""
        failed = f"  ({counts[n][2]} failed)" if counts[n][2] else ""
        ci = f"[{100 * r.low:.1f}, {100 * r.high:.1f}]"
        lines.append(
            f"{n:<14}{f'{r.wins}/{r.n}':>11}{100 * r.rate:>7.1f}%{ci:>16}{d:>+9.1f}{flag}{failed}"
        )
    outside = [n for n in rates if abs(100 * (rates[n].rate - mean)) > band]
    named = ": " + ", ".join(outside) if outside else ""
    lines.append(
        f"{'mean':<14}{'':>11}{100 * mean:>7.1f}%  ({len(rates)} rates; "
        f"{len(outside)} more than {band:g} points off{named})"
    )
    return lines


def report(rows: Mapping[int, Mapping[str, Any]], band: float) -> list[str]:
    good = [r for r in rows.values() if not r.get("error")]
    wins = sum((r.get("return_0") or 0.0) >= 1.0 for r in good)
    overall = wilson(wins, len(good)) if good else None
    lines = [f"{len(rows)} games, overall {overall}"]
    lines += table("thief", THIEVES, tally(rows, "thief_0"), band)
    lines += table("persona", PERSONAS, tally(rows, "persona_0"), band)
    return lines


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # run_sim (and its workers) import the design's GameSpec by module name.
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        if not 0 < args.games <= 100_000:
            raise ConfigError(f"--games must be 1..100000, not {args.games}")
        if args.report and not args.out:
            raise ConfigError("--report reads --out: give it")
        make_bot(args.bot, "p5")  # a bad bot spec fails before any game
        indices = selected(args.games, args.only)
        fill = Path(args.fill_from) if args.fill_from else None
        if fill is not None and not fill.is_dir():
            raise ConfigError(f"--fill-from {fill} is not a directory")
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(args.out) if args.out else Path(tmp)
            if not args.report:
                print(
                    f"p5 solo, bot {args.bot}, balanced design, games {len(indices)} of "
                    f"0..{args.games - 1}, seed {args.seed}, rounds of {ROUND}",
                    flush=True,
                )
                play(args, root, indices)
            for line in report(rows_of(root, fill, args.games), args.band):
                print(line)
    except VelvetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
