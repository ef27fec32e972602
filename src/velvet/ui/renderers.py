"""Find the board renderer of a game through its GameSpec: ``render(view, game)``.

Words for actions and events come from the engine contract (``State.action_label``,
``Game.event_text``, ``Game.event_for``); a renderer only draws the board.
``event_line`` is still looked up in a renderer module that has it.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from rich.console import RenderableType
from rich.pretty import Pretty

from velvet.engine.core import Event, Game, View
from velvet.engine.spec import resolve
from velvet.games import find_spec


class RenderFn(Protocol):
    def __call__(self, view: View, game: Any, /) -> RenderableType: ...


@dataclass(frozen=True)
class Renderer:
    render: RenderFn
    event_line: Any
    hides_hands: bool
    compact: RenderFn | None = None
    """A short board that fits a small terminal (``render`` is the full one)."""
    """Every card id ``describe_card`` knows, for ``info NAME`` and completion."""
    odds: Callable[[Any, Any], list[str]] | None = None
    """The chances of the rolls an action makes, in words (state, action)."""


def _plain_render(view: View, game: Any) -> RenderableType:
    return Pretty(view)


def _plain_event(event: Event) -> str:
    return str(event)


def renderer_for(game: Game[Any]) -> Renderer:
    """The renderer module the game's spec names, or a plain one (JSON-like board).

    A game without a spec is assumed to hide hands, so hot-seat play passes the screen.
    """
    spec = find_spec(game.name)
    hides = spec.hides_hands if spec is not None else True
    if spec is None or spec.renderer is None:
        return Renderer(_plain_render, _plain_event, hides_hands=hides)
    module = resolve(spec.renderer, f"renderer of game '{game.name}'")
    line: Any = getattr(module, "event_line", _plain_event)
    if "game" in inspect.signature(line).parameters:
        line = partial(line, game=game)
    return Renderer(
        module.render,
        line,
        hides_hands=hides,
        compact=getattr(module, "compact", None),
        odds=getattr(module, "odds", None),
    )


def as_json(view: View) -> str:
    return json.dumps(view, indent=1, ensure_ascii=False)
