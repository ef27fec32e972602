"""Find the renderer of a game: ``render(view, game)``, ``event_line``, ``action_label``."""

from __future__ import annotations

import importlib
import inspect
import json
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from rich.console import RenderableType
from rich.pretty import Pretty

from velvet.engine.core import Event, Game


class RenderFn(Protocol):
    def __call__(self, view: dict[str, Any], game: Any, /) -> RenderableType: ...


@dataclass(frozen=True)
class Renderer:
    render: RenderFn
    event_line: Any
    action_label: Any
    hides_hands: bool


def _plain_render(view: dict[str, Any], game: Any) -> RenderableType:
    return Pretty(view)


def _plain_event(event: Event) -> str:
    return str(event)


def _plain_label(action: Any, view: dict[str, Any]) -> str:
    return str(action)


def renderer_for(game: Game) -> Renderer:
    """The game's own renderer module ``velvet.ui.<name>_render``, or a plain fallback."""
    try:
        module = importlib.import_module(f"velvet.ui.{game.name}_render")
    except ModuleNotFoundError:
        return Renderer(_plain_render, _plain_event, _plain_label, hides_hands=True)
    label: Any = getattr(module, "action_label", _plain_label)
    if "game" in inspect.signature(label).parameters:
        label = partial(label, game=game)  # names come from the cards being played
    line: Any = getattr(module, "event_line", _plain_event)
    if "game" in inspect.signature(line).parameters:
        line = partial(line, game=game)
    return Renderer(
        module.render,
        line,
        label,
        hides_hands=getattr(module, "HIDES_HANDS", game.name == "vs"),
    )


def as_json(view: dict[str, Any]) -> str:
    return json.dumps(view, indent=1, ensure_ascii=False)
