#!/usr/bin/env python
"""Loading time of the largest schema-valid P5 card set beside the built-in one.

Builds a custom file at every bound of the schema (as many shadows as a set may
hold, each with the largest health, and a boss with the largest health), then times
`P5Game(load_cardset(...))` for it and for the built-in set, alternating, and prints
the best of ``--repeat`` for each with their ratio and the action-table sizes.

    python benchmarks/card_limits.py --repeat 5
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from velvet.cards.loader import MAX_CARDS
from velvet.p5 import cards
from velvet.p5.game import P5Game

SHADOW = """
[[shadow]]
id = "big-{i}"
name = "Big {i}"
weak = ["fire"]
health = {{ stamina = 3, sp = 3, bullet = 3, cash = 3 }}
persona = {{ name = "Agi {i}", cost = {{ sp = 1 }}, type = "fire", damage = {{ sp = 1 }} }}
"""
PALACE = """
[[palace]]
id = "tall"
name = "Tall"
rows = [{ alert = 0 }, { alert = 25 }, { alert = 50 }, { alert = 75 }]
boss = { name = "Boss", health = { stamina = 10, sp = 10 } }
"""


def timed(paths: list[Path]) -> tuple[float, int]:
    began = time.perf_counter()
    game = P5Game(cards.load_cardset(paths))
    return time.perf_counter() - began, len(game.action_table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    if args.repeat <= 0:
        print("error: --repeat must be a positive number", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        big = Path(folder) / "limits.toml"
        extra = MAX_CARDS - len(cards.load_cardset().shadows)
        big.write_text("".join(SHADOW.format(i=i) for i in range(extra)) + PALACE)
        best = {"built-in": float("inf"), "at every bound": float("inf")}
        size = {}
        for _ in range(args.repeat):
            for label, paths in (("built-in", []), ("at every bound", [big])):
                seconds, size[label] = timed(paths)
                best[label] = min(best[label], seconds)
    print(f"{'set':<16}{'actions':>10}{'best s':>10}")
    for label, seconds in best.items():
        print(f"{label:<16}{size[label]:>10}{seconds:>10.3f}")
    print(f"ratio {best['at every bound'] / best['built-in']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
