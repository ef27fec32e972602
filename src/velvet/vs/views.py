"""The shape of a Persona VS view (``VsState.view``), as TypedDicts that mypy checks.

``VsPublic`` is what both players see; ``to_json`` adds the hands, deck orders and
RNG, while ``VsView`` adds only the viewer's own hand and the sizes of the rest.
Cards are named by their ids; a rival's private decklist is ``None``.
"""

from __future__ import annotations

from typing import Any, TypedDict


class VsPublic(TypedDict):
    """The public part of a VS state, common to ``to_json`` and every view."""

    turn: int
    turn_no: int
    step: str
    hp: list[int]
    discard: list[list[str]]
    field: list[list[list[str]]]
    """Per player, 3 slots (main, sub 1, sub 2), each a stack of card ids, base first."""
    more_used: bool
    more_pending: bool
    skill: list[Any] | None
    """The skill being resolved: ``[slot name, card id, skill index]``, or ``None``."""
    rmods: list[list[Any]]
    negated: bool
    tmods: list[list[Any]]
    mods: list[list[int]]
    applied: list[list[int]]
    dmg: int
    frames: list[list[Any]]
    effq: list[list[Any]]
    winner: int
    player_cards: list[str]
    decklists: list[list[str] | None]
    open_decklists: list[bool]


class VsView(VsPublic):
    """All that one seat of a VS game may see."""

    viewer: int | None
    """The seat whose view this is; None in the public (spectator) view."""
    hand: list[str]
    hand_sizes: list[int]
    deck_sizes: list[int]
    current_player: int
