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
Games the earlier run lacks are played as well, so ``--fill-from`` alone completes a
partial run (a longer ``--games``, or one cut short) without replaying what it holds.

``--save-rows FILE`` writes the games behind the tables (one small JSON file: per game its
index, set-up, result, day and outcome, and the card set it was played with; in a header
the card-set hash of the current data, the bot and the seed) so they outlast a results
directory; ``--fill-from FILE`` reads such a file back, and refuses one made for another
card set, bot or seed.

    python benchmarks/setup_balance.py --bot normal --games 405 --seed 1 --out runs/bal
    python benchmarks/setup_balance.py --bot normal --games 405 --seed 1 --out runs/bal2 \\
        --only goemon --fill-from runs/bal --save-rows rows.json
    python benchmarks/setup_balance.py --report --games 405 --seed 1 --fill-from rows.json
"""

from __future__ import annotations

import argparse
import json
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
from velvet.engine.files import parse_json, read_text, show_path
from velvet.engine.rng import Rng
from velvet.games import get_spec
from velvet.sim.results import ResultStore, atomic_write_bytes
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
        help="an earlier run's --out, or a --save-rows file: games it holds are read from "
        "it (but --only's are replayed), the rest are played (a file must be for this "
        "card set, bot and seed)",
    )
    parser.add_argument(
        "--save-rows",
        default=None,
        help="write the games behind the tables to this JSON file (see --fill-from)",
    )
    parser.add_argument(
        "--band", type=float, default=15.0, help="flag rates this many points off the mean"
    )
    parser.add_argument(
        "--report",
        action="store_true",
        help="only print the tables of what --out and --fill-from hold",
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


ROWS_FORMAT = "velvet setup_balance rows 1"
"""The first field of a ``--save-rows`` file: what it is and the version of its layout."""

ROW_COLUMNS = (
    "index",
    "thief",
    "persona",
    "palace",
    "won",
    "return",
    "day",
    "outcome",
    "error",
    "cards",
)
"""One saved game: design index and set-up, won (0/1), seat 0's return, the day the game
ended on (29 = day 28 passed), outcome text, error (a failed game), and the first 12 hex
digits of the card-set hash it was played with."""

HASH_SHOWN = 12
MAX_ROWS_BYTES = 10_000_000


def current_cardset_hash() -> str:
    """The card-set hash of the P5 data this process loads (built-in cards)."""
    return _P5.load(()).cardset_hash()


def _rows_from_dir(source: Path, bot: str, seed: int) -> list[dict[str, Any]]:
    """An earlier run's rows, each tagged with the card set it was played with.

    The card set may differ (that is a paired re-run), the bot and seed may not.
    """
    store = ResultStore(source)
    meta = store.read_meta()
    if meta is None:
        raise ConfigError(
            f"--fill-from {show_path(str(source))}: no run.json, not a results folder"
        )
    where = f"--fill-from {show_path(str(source))}"
    if meta["game"] != SIM_NAME:
        raise ConfigError(f"{where}: a run of {meta['game']!r}, not of {SIM_NAME!r}")
    if meta["seats"] != [bot]:
        raise ConfigError(f"{where}: played by bot {meta['seats']}, this run is --bot {bot}")
    if meta["base_seed"] != seed:
        raise ConfigError(
            f"{where}: played with seed {meta['base_seed']}, this run is --seed {seed}"
        )
    cards = str(meta.get("cardset_hash", ""))[:HASH_SHOWN]
    return [{**r, "cards": cards} for r in store.load_rows()]


def _bad_rows(path: Path, what: str) -> ConfigError:
    return ConfigError(f"--fill-from {show_path(str(path))}: {what}")


def read_rows_file(
    path: Path, bot: str, seed: int, cardset: str, paired: bool = False
) -> list[dict[str, Any]]:
    """The games of a ``--save-rows`` file, as results rows; it must be for this run.

    Refused, with the field named, if it is no such file, or was saved for another bot or
    seed than ``bot`` and ``seed``, or for another card-set hash than ``cardset`` unless
    the run is ``paired`` (``--only``: the games the changed cards touch are re-played,
    the rest are read from the file, as from a folder).
    """
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise _bad_rows(path, f"cannot be read ({exc.strerror or exc})") from None
    if size > MAX_ROWS_BYTES:
        raise _bad_rows(path, f"over {MAX_ROWS_BYTES} bytes, not a rows file")
    data = parse_json(read_text(path, ConfigError), ConfigError, str(path))
    if not isinstance(data, dict) or data.get("format") != ROWS_FORMAT:
        raise _bad_rows(path, f"not a rows file of this script (no format {ROWS_FORMAT!r})")
    for key, want in (("cardset_hash", cardset), ("bot", bot), ("seed", seed)):
        if data.get(key) != want and not (key == "cardset_hash" and paired):
            raise _bad_rows(
                path,
                f"saved for {key} {data.get(key)!r}, this run has {want!r}"
                + (
                    " (the card data changed since: re-play the games of the changed "
                    "thieves or personas with --only ID, the rest are read from the file)"
                    if key == "cardset_hash"
                    else ""
                ),
            )
    if data.get("columns") != list(ROW_COLUMNS):
        raise _bad_rows(path, f"columns must be {list(ROW_COLUMNS)}")
    rows = data.get("rows")
    if not isinstance(rows, list):
        raise _bad_rows(path, "'rows' must be a list")
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    for n, cells in enumerate(rows, 1):
        if not isinstance(cells, list) or len(cells) != len(ROW_COLUMNS):
            raise _bad_rows(path, f"row {n} must be a list of {len(ROW_COLUMNS)} cells")
        row = dict(zip(ROW_COLUMNS, cells, strict=True))
        index = row["index"]
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < 100_000:
            raise _bad_rows(path, f"row {n}: index must be a game number, not {index!r}")
        if index in seen:
            raise _bad_rows(path, f"row {n}: game {index} is there twice")
        seen.add(index)
        want_setup = design(index)
        got_setup = Setup(row["thief"], row["persona"], row["palace"])
        if got_setup != want_setup:
            raise _bad_rows(
                path, f"row {n}: game {index} was {got_setup}, the design says {want_setup}"
            )
        error = row["error"]
        if error is not None and not isinstance(error, str):
            raise _bad_rows(path, f"row {n}: error must be a text or null")
        ret = row["return"]
        if error is None and (not isinstance(ret, int | float) or isinstance(ret, bool)):
            raise _bad_rows(path, f"row {n}: return must be a number, not {ret!r}")
        if error is None and row["won"] != int(ret >= 1.0):
            raise _bad_rows(path, f"row {n}: won {row['won']!r} does not agree with return {ret!r}")
        out.append(
            {
                "index": index,
                "thief_0": row["thief"],
                "persona_0": row["persona"],
                "palace": row["palace"],
                "return_0": ret,
                "day": row["day"],
                "outcome": row["outcome"],
                "error": error,
                "cards": row["cards"],
            }
        )
    return out


def rows_of(
    root: Path,
    fill: Path | None,
    games: int,
    bot: str = "normal",
    seed: int = 0,
    paired: bool = False,
) -> dict[int, dict[str, Any]]:
    """Games 0..games-1 from ``root``, the missing ones from ``fill`` (a folder or rows file).

    Each row carries ``cards``: the start of the card-set hash it was played with.
    """
    rows: dict[int, dict[str, Any]] = {}
    sources: list[list[dict[str, Any]]] = []
    if root.exists():
        meta = ResultStore(root).read_meta()
        cards = str((meta or {}).get("cardset_hash", ""))[:HASH_SHOWN]
        sources.append([{**r, "cards": cards} for r in ResultStore(root).load_rows()])
    if fill is not None:
        if fill.is_dir():
            sources.append(_rows_from_dir(fill, bot, seed))
        else:
            sources.append(read_rows_file(fill, bot, seed, current_cardset_hash(), paired))
    for source in sources:
        for r in source:
            i = int(r["index"])
            if i < games and i not in rows:
                rows[i] = r
    return rows


def rows_document(rows: Mapping[int, Mapping[str, Any]], bot: str, seed: int, games: int) -> bytes:
    """The ``--save-rows`` file: a header, then one game a line (diffs stay readable)."""
    header = {
        "format": ROWS_FORMAT,
        "game": "p5",
        "cardset_hash": current_cardset_hash(),
        "bot": bot,
        "seed": seed,
        "games": games,
        "design": "benchmarks/setup_balance.py design(i); game i seeded by game_seed(seed, i)",
        "columns": list(ROW_COLUMNS),
    }
    lines = []
    for i in sorted(rows):
        r = rows[i]
        setup = design(i)
        error = r.get("error") or None
        ret = None if error else float(r.get("return_0") or 0.0)
        cells = [
            i,
            setup.thief,
            setup.persona,
            setup.palace,
            None if ret is None else int(ret >= 1.0),
            ret,
            r.get("day"),
            r.get("outcome"),
            error,
            r.get("cards") or None,
        ]
        lines.append(json.dumps(cells, ensure_ascii=False))
    head = json.dumps(header, indent=1, ensure_ascii=False)[:-2]  # drop the closing "\n}"
    body = ",\n  ".join(lines)
    return f'{head},\n "rows": [\n  {body}\n ]\n}}\n'.encode()


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
        if args.report and not (args.out or args.fill_from):
            raise ConfigError("--report reads --out and --fill-from: give one")
        make_bot(args.bot, "p5")  # a bad bot spec fails before any game
        indices = selected(args.games, args.only)
        fill = Path(args.fill_from) if args.fill_from else None
        if fill is not None and not fill.exists():
            raise ConfigError(f"--fill-from {show_path(str(fill))}: no such folder or file")
        save = Path(args.save_rows) if args.save_rows else None
        if save is not None and save.is_dir():
            raise ConfigError(f"--save-rows {show_path(str(save))} is a folder: give a file name")
        paired = bool(args.only) or args.report  # tables only: say, not refuse, old data
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(args.out) if args.out else Path(tmp)
            meta = ResultStore(root).read_meta() if root.exists() else None
            if meta is not None and not args.report:
                played = str(meta.get("cardset_hash", ""))
                if played and played != current_cardset_hash():
                    raise ConfigError(
                        f"--out {show_path(str(root))} holds games played with other card "
                        f"data ({played[:HASH_SHOWN]}, now {current_cardset_hash()[:HASH_SHOWN]})"
                        ": resuming would mix them; give a new --out"
                    )
            if fill is not None:  # a wrong --fill-from fails before any game is played
                filled = rows_of(Path(tmp) / "none", fill, args.games, args.bot, args.seed, paired)
                # games the earlier run lacks are played too, beside the --only ones
                keep = set(indices) if args.only else set()
                indices = sorted(keep | (set(range(args.games)) - set(filled)))
            if not args.report:
                print(
                    f"p5 solo, bot {args.bot}, balanced design, games {len(indices)} of "
                    f"0..{args.games - 1}, seed {args.seed}, rounds of {ROUND}",
                    flush=True,
                )
                play(args, root, indices)
            rows = rows_of(root, fill, args.games, args.bot, args.seed, paired)
            for line in report(rows, args.band):
                print(line)
            current = current_cardset_hash()[:HASH_SHOWN]
            older = sum(1 for r in rows.values() if r.get("cards") and r["cards"] != current)
            if older:
                print(
                    f"{older} of {len(rows)} games were played with other card data than "
                    f"the current ({current}): valid only if they hold no changed card"
                )
            if save is not None:
                atomic_write_bytes(save, rows_document(rows, args.bot, args.seed, args.games))
                print(f"{len(rows)} games saved to {show_path(str(save))}")
    except VelvetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
