"""An example external agent for Velvet's arena and bench (docs/bench.md).

As a class (imported by the arena, called in its process)::

    velvet arena vs --bot examples.bench_agent:RandomAgent --bot greedy --games 20

As a program speaking JSON lines over stdin/stdout (any language can do this)::

    velvet arena vs --bot cmd:'python3 examples/bench_agent.py' --bot greedy --games 20

It sees only what the arena gives it: its seat's view and the legal actions' texts, and
picks uniformly at random among the actions (seeded by the arena: the same game replays
the same way). Replace ``choose`` with your own policy.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from velvet.bot import Agent


class RandomAgent(Agent):
    """Uniformly random among the legal actions (the built-in ``random`` bot's play)."""

    def start(self, game: str, seat: int, seed: int) -> None:
        super().start(game, seat, seed)
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        return self.rng.choice(legal)


def main() -> int:
    """The JSON-lines form: answer each ``decide`` message with a ``move``; stop at EOF."""
    agent = RandomAgent()
    started = False
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") != "decide":
            continue
        if not started:
            agent.start(message["game"], message["seat"], message["seed"])
            started = True
        texts = [entry["text"] for entry in message["legal"]]
        action = agent.choose(message["view"], texts)
        print(json.dumps({"v": 1, "type": "move", "action": action}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
