"""Write your own bot for Velvet's arena and bench: a class with ``choose(view, legal)``.

::

    from velvet.bot import Agent

    class FirstChoice(Agent):
        def choose(self, view, legal):
            return legal[0]

Enter it by its import path: ``velvet arena vs --bot mymodule:FirstChoice --bot greedy``
(the current folder is searched first), or any program speaking JSON lines on stdin and
stdout: ``--bot cmd:'python my_agent.py'`` (docs/bench.md, "External agents").

What an agent is given, and nothing else: ``view`` is the engine's ``view(seat)`` of its
own seat as plain JSON data (dicts, lists, strings, numbers; a copy, the agent may keep or
change it), never the state; ``legal`` the legal actions' text forms, as the terminal
and the online protocol write them (``"pass"``, ``"end"``, ...). It returns one of
``legal``. Anything else (another string, an exception, no answer) forfeits the game:
the arena scores it as a loss for that seat and says why.

The class need not inherit :class:`Agent`: it is made with no arguments, once per game,
and ``start(game, seat, seed)`` is called before its first decision when it has one.
"""

from __future__ import annotations

from typing import Any


class Agent:
    """A base for external agents: override :meth:`choose` (and :meth:`start` if needed)."""

    game: str = ""
    """The game's name ("vs", "p5", or a plug-in game's), set by :meth:`start`."""
    seat: int = 0
    """The seat this agent plays (0 is "Player 1")."""
    seed: int = 0
    """A seed for the agent's own randomness: the same in every replay of the same game."""

    def start(self, game: str, seat: int, seed: int) -> None:
        """Called once per game before the first decision."""
        self.game = game
        self.seat = seat
        self.seed = seed

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        """One of ``legal`` (the legal actions' texts) for the position seen in ``view``."""
        raise NotImplementedError("an Agent must define choose(view, legal)")


__all__ = ["Agent"]
