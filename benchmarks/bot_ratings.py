#!/usr/bin/env python
"""The bots' fixed ratings on the players' Glicko-2 scale (velvet.server.ratings.BOT_RATINGS),
refitted from the committed arena games: one Bradley–Terry fit (Elo scale, 95 % intervals)
over every game of the file, anchored so that ``--anchor`` (default ``normal``) is 1500.

The anchor is a convention, not a measured human rating: the bots were measured against
each other only. Glicko-2's scale (1500 + 173.7178 μ, 173.7178 = 400 / ln 10) is the Elo
scale, so an Elo difference between two bots is their rating difference there.

    python benchmarks/bot_ratings.py benchmarks/data/arena-vs-bot-ratings-seed25.csv
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

from velvet.sim.arena import fit_bradley_terry

ANCHOR_RATING = 1500.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=Path, help="a CSV of benchmarks/arena_export.py")
    parser.add_argument("--anchor", default="normal", help="the bot rated 1500")
    args = parser.parse_args()
    rows = list(csv.DictReader(args.games.open(encoding="utf-8")))
    bots = sorted({r["bot_0"] for r in rows} | {r["bot_1"] for r in rows})
    if args.anchor not in bots:
        parser.error(f"--anchor {args.anchor!r} played no game here; bots: {', '.join(bots)}")
    games = []
    for r in rows:
        if r["error"]:
            continue
        a, b = float(r["return_0"]), float(r["return_1"])
        score = 1.0 if a > b else 0.0 if a < b else 0.5
        games.append((bots.index(r["bot_0"]), bots.index(r["bot_1"]), score, 1))
    fit = fit_bradley_terry(bots, games, anchor=bots.index(args.anchor))
    print(f"{len(games)} games; Bradley-Terry, Elo scale, {args.anchor} anchored at 1500")
    order = sorted(range(len(bots)), key=lambda i: fit.elo[i])
    for i in order:
        low, high = ANCHOR_RATING + fit.low[i], ANCHOR_RATING + fit.high[i]
        print(f"  {bots[i]:8} {ANCHOR_RATING + fit.elo[i]:6.0f}  [{low:.0f}, {high:.0f}]")


if __name__ == "__main__":
    main()
