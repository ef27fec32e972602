"""Game-specific columns for results rows, and default configs for the CLI (p5, vs).

Columns ending in ``_<seat>`` are per seat; list values become ``;``-joined
text, which the report reads as "items" (confidants, shadows, cards).
P5 columns come from the final view (which names every card by id); VS
columns from the start (decks, first player), each action (cards played)
and the end (turn count).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from typing import Any

from velvet.engine.core import Game, State
from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng


def p5_config(game: Game, seats: int, decks: Sequence[str]) -> dict[str, Any]:
    """The default P5 set-up for ``seats`` players (no deck files in P5)."""
    if decks:
        raise ConfigError("p5 takes no --deck files (decks belong to vs)")
    config: dict[str, Any] = getattr(game, "default_config")(seats)  # noqa: B009
    return config


def vs_config(game: Game, seats: int, decks: Sequence[str]) -> dict[str, Any]:
    """The default VS match (P5 deck against P4 deck), or the two --deck given.

    A deck is a built-in player card's deck (``p5``, ``p4``, ``p3``) or a deck file.
    """
    if seats != 2:
        raise ConfigError(f"vs is for 2 players: give 2 --seat bots, not {seats}")
    if not decks:
        decks = ("p5", "p4")
    if len(decks) != 2:
        raise ConfigError(f"vs needs 0 or 2 --deck (files or p5/p4/p3), not {len(decks)}")
    config: dict[str, Any] = getattr(game, "default_config")()  # noqa: B009
    players = getattr(game, "players", {})
    for seat, deck in enumerate(decks):
        if deck in players:
            built_in = getattr(game, "default_config")(deck, deck)  # noqa: B009
            config["players"][seat] = built_in["players"][0]
            continue
        from velvet.vs.decks import load_deck

        cards = load_deck(deck, game)  # type: ignore[arg-type]
        with open(deck, "rb") as handle:
            player_card = tomllib.load(handle)["player_card"]
        config["players"][seat] = {"player_card": player_card, "deck": cards}
    return config


def _sample(rng: Rng, items: Sequence[str], k: int) -> list[str]:
    pool = list(items)
    rng.shuffle(pool)
    return pool[:k]


def vary_p5(game: Game, config: dict[str, Any], rng: Rng) -> dict[str, Any]:
    """A random P5 set-up with as many players as ``config``: distinct thieves and personas."""
    choices = getattr(game, "choices")()  # noqa: B009
    n = len(config.get("players", [])) or 1
    thieves = _sample(rng, [t for t, _ in choices["thieves"]], n)
    personas = _sample(rng, [p for p, _ in choices["personas"]], n)
    palaces = [p for p, _ in choices["palaces"]]
    return {
        **config,
        "players": [{"thief": t, "persona": p} for t, p in zip(thieves, personas, strict=True)],
        "palace": palaces[rng.randbelow(len(palaces))],
    }


def vary_vs(game: Game, config: dict[str, Any], rng: Rng) -> dict[str, Any]:
    """A random VS match: each seat a random player card with its built-in deck."""
    cards = list(getattr(game, "players", {}) or ("p5", "p4"))
    picks = [cards[rng.randbelow(len(cards))] for _ in range(2)]
    varied: dict[str, Any] = getattr(game, "default_config")(*picks)  # noqa: B009
    return varied


def summarize_p5(state: State) -> dict[str, Any]:
    """P5 columns: palace, thief/persona/confidants/shadows defeated per seat, day ended."""
    view = state.view(0)
    out: dict[str, Any] = {"day": view.get("day")}
    palace = view.get("palace")
    if isinstance(palace, dict):
        out["palace"] = palace.get("id")
    for seat, player in enumerate(view.get("players", [])):
        out[f"thief_{seat}"] = player.get("thief")
        out[f"persona_{seat}"] = player.get("persona")
        out[f"confidants_{seat}"] = sorted(player.get("confidants", []))
        out[f"confidant_count_{seat}"] = len(player.get("confidants", []))
        out[f"shadows_defeated_{seat}"] = sorted(set(player.get("taken", [])))
        out[f"shadow_count_{seat}"] = len(player.get("taken", []))
    return out


def start_vs(state: State) -> dict[str, Any]:
    """VS columns known at the start: each seat's player card (deck) and who goes first."""
    data = state.to_json()
    out: dict[str, Any] = {"first_player": data.get("turn")}
    for seat, card in enumerate(data.get("player_cards", [])):
        out[f"deck_{seat}"] = card
        out[f"cards_played_{seat}"] = set()
        out[f"plays_{seat}"] = 0
    return out


PLAY_VERBS = frozenset({"summon", "fuse", "support", "react"})


def track_vs(state: State, action: Any, columns: dict[str, Any]) -> None:
    """Collect, per seat, the cards it summoned, fused, supported or reacted with."""
    card = getattr(action, "card", None)
    if card is None or str(action).split(" ", 1)[0] not in PLAY_VERBS:
        return
    seat = state.current_player
    name = _card_names(state.game).get(str(card), str(card))
    played = columns.setdefault(f"cards_played_{seat}", set())
    played.add(name)
    key = f"plays_{seat}"
    columns[key] = columns.get(key, 0) + 1


def summarize_vs(state: State) -> dict[str, Any]:
    """VS columns at the end: the number of turns played."""
    return {"turns": state.to_json().get("turn_no")}


_NAMES: dict[int, dict[str, str]] = {}


def _card_names(game: Game) -> dict[str, str]:
    """Card id -> "id name" from the game's card set, found once per game object."""
    key = id(game)
    names = _NAMES.get(key)
    if names is None:
        names = {}
        cards = getattr(game, "cards", None)
        for attr in ("personas", "supports", "reacts", "players"):
            for card in getattr(cards, attr, None) or ():
                cid, cname = getattr(card, "id", None), getattr(card, "name", None)
                if isinstance(cid, str) and isinstance(cname, str):
                    names[cid] = f"{cid} {cname}"
        _NAMES[key] = names
    return names
