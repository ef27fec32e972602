#!/usr/bin/env python
"""P5 palace balance: solo win rate per palace for one bot, with 95% Wilson intervals.

Each palace is played ``--games`` times solo by ``--bot`` with one thief and persona
(default Joker/Arsene), through ``velvet.sim.run.run_sim`` (game i seeded by
``game_seed(seed, i)``, so every game replays alone). ``--vary-setup`` instead plays
``--games`` games *per palace* with a random thief and persona each game. The mean day
of victory is over won games only.

    python benchmarks/palace_balance.py --bot greedy --games 100
    python benchmarks/palace_balance.py --bot normal --games 24 --palace futaba
    python benchmarks/palace_balance.py --bot normal --games 30 --vary-setup
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from velvet.bots import make_bot
from velvet.engine.core import Game
from velvet.engine.errors import ConfigError, VelvetError
from velvet.engine.rng import Rng
from velvet.games import get_spec
from velvet.p5.spec import vary as vary_p5
from velvet.sim.results import ResultStore
from velvet.sim.run import run_sim
from velvet.sim.stats import Rate, wilson

SIM_NAME = "palace_balance:FIXED_PALACE"
"""The GameSpec used by --vary-setup: P5 with thief/persona drawn, palace kept."""


def vary_keep_palace(game: Game[Any], config: dict[str, Any], rng: Rng) -> dict[str, Any]:
    """A random thief and persona like ``vary_p5``, but the palace of ``config`` kept."""
    varied = vary_p5(game, config, rng)
    varied["palace"] = config["palace"]
    return varied


FIXED_PALACE = replace(get_spec("p5"), vary=vary_keep_palace)


@dataclass(frozen=True)
class PalaceResult:
    """One palace's outcome: win rate, mean day of victory, errors, wall time."""

    palace: str
    rate: Rate
    mean_win_day: float | None
    errors: int
    seconds: float
    setups: dict[str, list[int]]
    """thief or persona id -> [wins, games] (filled with --vary-setup)."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="bots: random | greedy[:N] | mcts[:N|:Ss] | easy | normal | hard[:N|:Ss]",
    )
    parser.add_argument("--bot", default="greedy", help="bot spec (default greedy)")
    parser.add_argument("--games", type=int, default=100, help="games per palace (default 100)")
    parser.add_argument(
        "--palace",
        action="append",
        default=None,
        help="palace id; repeat for several (default: every palace)",
    )
    parser.add_argument("--thief", default="joker", help="thief id (default joker)")
    parser.add_argument("--persona", default="arsene", help="persona id (default arsene)")
    parser.add_argument(
        "--vary-setup",
        action="store_true",
        help="draw a random thief and persona for each game (palace fixed)",
    )
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    parser.add_argument("--workers", type=int, default=None, help="processes (default all)")
    parser.add_argument(
        "--out",
        default=None,
        help="keep results under OUT/<palace> (a rerun resumes); default a temporary dir",
    )
    return parser.parse_args(argv)


def measure(palace: str, args: argparse.Namespace, root: Path) -> PalaceResult:
    """Play one palace's games and summarise them."""
    game_name = SIM_NAME if args.vary_setup else "p5"
    config = {"players": [{"thief": args.thief, "persona": args.persona}], "palace": palace}
    out = root / palace
    began = time.perf_counter()
    run_sim(
        game_name,
        args.games,
        [args.bot],
        config,
        args.seed,
        out,
        workers=args.workers,
        progress=False,
        vary=args.vary_setup,
    )
    rows = ResultStore(out).load_rows()
    good = [r for r in rows if not r.get("error")]
    won = [r for r in good if (r.get("return_0") or 0.0) >= 1.0]
    days = [r["turns"] for r in won if isinstance(r.get("turns"), int)]
    setups: dict[str, list[int]] = {}
    for r in good:
        for key in (f"thief:{r.get('thief_0')}", f"persona:{r.get('persona_0')}"):
            tally = setups.setdefault(key, [0, 0])
            tally[0] += (r.get("return_0") or 0.0) >= 1.0
            tally[1] += 1
    return PalaceResult(
        palace,
        wilson(len(won), len(good)),
        sum(days) / len(days) if days else None,
        len(rows) - len(good),
        time.perf_counter() - began,
        setups,
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # Workers import the --vary-setup GameSpec by module name.
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        if args.games <= 0:
            raise ConfigError(f"--games must be a positive number, not {args.games}")
        make_bot(args.bot, "p5")  # a bad bot spec fails before the table starts
        palaces = args.palace or [p for p, _ in FIXED_PALACE.load(()).choices()["palaces"]]
        setup = "random thief/persona" if args.vary_setup else f"{args.thief}/{args.persona}"
        print(f"p5 solo, bot {args.bot}, {setup}, {args.games} games per palace, seed {args.seed}")
        print(f"{'palace':<12}{'win rate [95% CI]':>34}{'win day':>9}{'secs':>8}")
        pooled: dict[str, list[int]] = {}
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(args.out) if args.out else Path(tmp)
            for palace in palaces:
                res = measure(palace, args, root)
                for key, (w, n) in res.setups.items():
                    pooled.setdefault(key, [0, 0])
                    pooled[key][0] += w
                    pooled[key][1] += n
                day = f"{res.mean_win_day:.1f}" if res.mean_win_day is not None else "-"
                errors = f"  ({res.errors} failed)" if res.errors else ""
                line = f"{palace:<12}{res.rate!s:>34}{day:>9}{res.seconds:>8.0f}{errors}"
                print(line, flush=True)
        if args.vary_setup:
            print("all palaces, by thief and by persona:")
            for key, (w, n) in sorted(pooled.items()):
                print(f"  {key:<22}{wilson(w, n)!s:>34}")
    except VelvetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
