"""The shape of a P5 view (``P5State.view``), as TypedDicts that mypy checks.

A view is plain JSON-able data: what every player may see (P5 is co-operative and
open) minus the deck orders and the RNG. Token and stat counts are keyed by name
(``"stamina"``, ``"knowledge"`` ...); cards are named by their ids.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class P5DecisionView(TypedDict):
    """What is being decided now and by whom (``describe_decision``)."""

    kind: str
    player: int | None
    text: str
    resource: NotRequired[str]
    left: NotRequired[int]
    target: NotRequired[str]
    draft: NotRequired[list[str]]


class P5PlayerView(TypedDict):
    """One thief: stats, tokens, location, confidants, shadows and abilities used."""

    thief: str
    persona: str
    stats: dict[str, int]
    fresh: dict[str, int]
    spent: dict[str, int]
    location: str
    confidants: list[str]
    held: list[str]
    drawn: list[str]
    party: list[str]
    grants: list[dict[str, int]]
    taken: list[str]
    used_day: list[str]
    used_palace: list[str]
    went: bool


class P5LocationView(TypedDict):
    id: str
    confidant: str | None


class P5ShadowView(TypedDict):
    """A revealed shadow and the damage still needed, by resource."""

    id: str
    remaining: dict[str, int]


class P5PalaceView(TypedDict):
    id: str
    alert: int
    shadows: list[P5ShadowView]
    boss: dict[str, int] | None
    boss_health: NotRequired[dict[str, int]]
    """At a difficulty level other than ``standard``: what the boss needs in all (its card
    prints the rulebook's health)."""


class P5DecksView(TypedDict):
    """Deck sizes only: their order is hidden."""

    locations: int
    confidants: int
    shadows: int


class P5View(TypedDict):
    """All that one seat of a P5 game may see."""

    game: str
    me: int | None
    """The seat whose view this is; None in the public (spectator) view."""
    day: int
    days: int
    difficulty: NotRequired[str]
    """The difficulty level (``velvet.p5.difficulty``) when it is not ``standard``, the
    rulebook's game, whose views have no such key."""
    phase: str
    turn: int
    result: int
    players: list[P5PlayerView]
    supply: dict[str, int]
    locations: list[P5LocationView]
    discovered: str | None
    party_set: bool
    palace: P5PalaceView
    decks: P5DecksView
    decision: P5DecisionView
    dec: list[Any]
    """Pending decisions in their JSON form (kind first), as ``to_json`` writes them."""
    work: list[Any]
    """Queued work items in their JSON form (kind first)."""
