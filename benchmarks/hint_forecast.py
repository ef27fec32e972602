#!/usr/bin/env python
"""Do the P5 hint and forecast agree at one decision? How often they differ by more than
their combined margins, and by how much on average.

Positions are drawn as ``benchmarks/calibration.py`` draws them (one decision of two or more
choices per seeded game of the game's ``chance_bot``, solo on varied set-ups); at each it asks
the hint (``--budget`` simulations, as the terminal's ``hint``) and the forecast
(``--forecast-games`` games, as the terminal's ``forecast``), both from the seat's view, and
records the hint's chance for its best move ± its margin and the forecast's rate ± its margin
(half its 95 % Wilson interval). Both assume the same play, every seat playing on like the
game's ``chance_bot``; the hint's chance is after its own move (the search's best), the
forecast's from the position with the bot's move.

The hint's margin here is its ``chance_margin``: its own margin and the spread of real
chances among positions its search values alike (the game's measured ``hint_spread``);
``--no-spread`` compares with the margin alone, as before that was measured.
``--from-calibration`` reads the P5 rows of ``benchmarks/calibration.py`` instead (their
forecasts are of ``forecast_games`` games, 4 in the shipped run: about what the server's
3-second forecast plays).

    python benchmarks/hint_forecast.py --positions 50 --rows /tmp/agreement.json
    python benchmarks/hint_forecast.py --from /tmp/agreement.json
    python benchmarks/hint_forecast.py --from-calibration \
        benchmarks/data/calibration-rows-seed23.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))


def agreement_row(index: int, seed: int, budget: int, forecast_games: int) -> dict[str, Any]:
    """The hint and the forecast at position ``index`` of the seeded P5 run."""
    from calibration import sample_position

    from velvet.bots.hints import assumed_bot, forecast, hints

    bot = assumed_bot("p5")
    chosen, _, step = sample_position("p5", index, seed, bot)
    seat = chosen.current_player
    best = hints(chosen, seat, budget, top=1)[0]
    outlook = forecast(chosen, seat, forecast_games, bot)
    return {
        "index": index,
        "step": step,
        "day": chosen.view(seat).get("day"),
        "hint": best.win,
        "hint_margin": best.chance_margin,
        "hint_search_margin": best.margin,
        "forecast": outlook.rate,
        "forecast_margin": outlook.margin,
        "forecast_games": outlook.games,
    }


def from_calibration(row: dict[str, Any]) -> dict[str, Any]:
    """A P5 row of ``benchmarks/calibration.py`` as an agreement row: the chance shown now
    (the spec's map and spread; the row's search margin as recorded)."""
    import math

    from velvet.bots.hints import calibrated
    from velvet.games import get_spec

    spread = 1.96 * get_spec("p5").hint_spread
    return {
        "index": row["index"],
        "step": row["step"],
        "day": row.get("day"),
        "hint": calibrated("p5", row["hint_value"]),
        "hint_margin": min(math.hypot(row["hint_margin"], spread), 1.0),
        "hint_search_margin": row["hint_margin"],
        "forecast": row["forecast_rate"],
        "forecast_margin": row["forecast_margin"],
        "forecast_games": row["forecast_games"],
    }


def disagree(row: dict[str, Any]) -> bool:
    """True when the two differ by more than their margins together."""
    gap = abs(row["hint"] - row["forecast"])
    return bool(gap > row["hint_margin"] + row["forecast_margin"])


def summary(rows: Sequence[dict[str, Any]]) -> dict[str, float]:
    n = len(rows)
    gaps = [r["hint"] - r["forecast"] for r in rows]
    mean = sum(gaps) / n
    sd = math.sqrt(sum((g - mean) ** 2 for g in gaps) / (n - 1)) if n > 1 else 0.0
    return {
        "n": n,
        "beyond_margins": sum(disagree(r) for r in rows),
        "mean_gap": mean,
        "mean_gap_se": sd / math.sqrt(n) if n else 0.0,
        "mean_abs_gap": sum(abs(g) for g in gaps) / n,
        "max_abs_gap": max(abs(g) for g in gaps),
        "mean_hint_margin": sum(r["hint_margin"] for r in rows) / n,
        "mean_forecast_margin": sum(r["forecast_margin"] for r in rows) / n,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--budget", type=int, default=800, help="hint simulations (800)")
    parser.add_argument("--forecast-games", type=int, default=20, help="as the terminal (20)")
    parser.add_argument("--rows", type=Path, help="write the rows (JSON) here, after each")
    parser.add_argument("--from", dest="source", type=Path, help="read rows instead of playing")
    parser.add_argument(
        "--from-calibration",
        dest="calibration",
        type=Path,
        help="read the P5 rows of a benchmarks/calibration.py --rows file instead",
    )
    parser.add_argument(
        "--no-spread", action="store_true", help="the hint's search margin alone, no spread"
    )
    args = parser.parse_args(argv)
    if args.positions < 1 or args.budget < 1 or args.forecast_games < 1:
        print(
            "error: --positions, --budget and --forecast-games must be 1 or more", file=sys.stderr
        )
        return 2
    if args.calibration:
        try:
            found = json.loads(args.calibration.read_text(encoding="utf-8"))["rows"]
            rows = [from_calibration(r) for r in found if r["game"] == "p5"]
        except (OSError, ValueError, KeyError, TypeError) as error:
            print(
                f"error: {args.calibration}: not a calibration rows file ({error})", file=sys.stderr
            )
            return 2
    elif args.source:
        try:
            rows = list(json.loads(args.source.read_text(encoding="utf-8"))["rows"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            print(f"error: {args.source}: not a rows file ({error})", file=sys.stderr)
            return 2
    else:
        rows = []
        meta = {"seed": args.seed, "budget": args.budget, "forecast_games": args.forecast_games}
        for index in range(args.positions):
            rows.append(agreement_row(index, args.seed, args.budget, args.forecast_games))
            if args.rows:
                args.rows.write_text(json.dumps({**meta, "rows": rows}, indent=1) + "\n")
    if not rows:
        print("error: no rows", file=sys.stderr)
        return 2
    if args.no_spread:
        rows = [{**r, "hint_margin": r["hint_search_margin"]} for r in rows]
    s = summary(rows)
    print(
        f"P5 hint and forecast at {s['n']} positions: beyond their combined margins at "
        f"{s['beyond_margins']} ({s['beyond_margins'] / s['n']:.0%}); hint − forecast "
        f"{100 * s['mean_gap']:+.1f} points on average (± {100 * 1.96 * s['mean_gap_se']:.1f}, "
        f"95 %), mean |gap| {100 * s['mean_abs_gap']:.1f}, largest {100 * s['max_abs_gap']:.1f}; "
        f"mean margins: hint ± {100 * s['mean_hint_margin']:.1f}, forecast "
        f"± {100 * s['mean_forecast_margin']:.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
