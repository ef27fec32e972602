"""Deck files a user writes: ``player_card = "p5"`` and ``[[cards]] card = "001", count = 2``.

``card`` may be a card id or a card name (case-insensitive). Every problem is
a :class:`DeckError` naming the rule (VS-DECK-1) and the card; a name that is nearly
right (accents aside, or misspelt) gets "did you mean" with the card's own name. The
format is in docs/decks.md.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from velvet.engine.errors import ConfigError, DeckError
from velvet.engine.files import one_line, parse_toml, read_text
from velvet.engine.names import did_you_mean
from velvet.vs.state import MAX_COPIES

if TYPE_CHECKING:
    from velvet.vs.game import VsGame

DECK_DIR = Path(__file__).parent / "data" / "decks"


def default_deck_path(player_card: str) -> Path:
    """The built-in 40-card deck of a player card (p5, p4, p3)."""
    path = DECK_DIR / f"{player_card}.toml"
    if not path.exists():
        raise ConfigError(f"no built-in deck for player card '{player_card}'")
    return path


def _read(path: Path | str, game: VsGame) -> tuple[str, list[str]]:
    label = str(path)

    def problem(message: str) -> DeckError:
        return DeckError(message.replace(": no such file", ": no such deck file", 1))

    data = parse_toml(read_text(path, problem), DeckError, label)
    unknown = set(data) - {"player_card", "cards", "name"}
    if unknown:
        near = did_you_mean(str(sorted(unknown)[0]), ["player_card", "cards", "name"])
        raise DeckError(
            f"{label}: unknown keys {sorted(unknown)}; allowed: player_card, cards, name{near}"
        )
    pc = data.get("player_card")
    if not isinstance(pc, str) or pc not in game.players:
        near = did_you_mean(pc, game.players) if isinstance(pc, str) else ""
        raise DeckError(
            f"{label}: player_card must be one of {', '.join(game.players)} "
            f"(got {pc!r}{near}) [VS-DECK-1]"
        )
    rows = data.get("cards")
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise DeckError(f"{label}: list the cards as [[cards]] tables with card = ID and count = N")
    ids: list[str] = []
    for n, row in enumerate(rows, start=1):
        extra = set(row) - {"card", "count"}
        if extra:
            near = did_you_mean(str(sorted(extra)[0]), ["card", "count"])
            raise DeckError(
                f"{label}: cards #{n}: unknown keys {sorted(extra)}; allowed: card, count{near}"
            )
        ref = row.get("card")
        count = row.get("count", 1)
        if not isinstance(ref, str):
            raise DeckError(f"{label}: cards #{n}: 'card' must be a card id or name")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise DeckError(f"{label}: card '{ref}': count must be a whole number >= 1")
        if count > MAX_COPIES:
            raise DeckError(
                f"{label}: card '{ref}': count {count}; a deck holds at most {MAX_COPIES} "
                "cards of one name [VS-DECK-1]"
            )
        ident = resolve_card(ref, game)
        if ident is None:
            near = did_you_mean(ref, game.names)
            raise DeckError(
                f"{label}: unknown card '{one_line(ref, 60)}' (no card has that number or "
                f"name{near}) [VS-DECK-1]"
            )
        ids.extend([ident] * count)
    return pc, ids


def resolve_card(ref: str, game: VsGame) -> str | None:
    """A card id from an id or a (case-insensitive) name."""
    if ref in game.index:
        return ref
    found = game.by_name.get(ref.casefold())
    return found[0] if found else None


def load_deck(path: Path | str, game: VsGame) -> list[str]:
    """The deck's 40 card ids, checked against VS-DECK-1."""
    pc, ids = _read(path, game)
    try:
        game.check_deck(pc, ids)
    except DeckError as error:
        raise DeckError(f"{path}: {error}") from None
    return ids


def check_deck(path: Path | str, game: VsGame) -> str:
    """A one-line summary of a valid deck, or a DeckError naming the rule and card."""
    pc, _ = _read(path, game)
    ids = load_deck(path, game)
    kinds = Counter(type(game.card(i)).__name__.lower() for i in ids)
    return (
        f"ok: {path}: {game.players[pc].name} deck, {len(ids)} cards "
        f"({kinds['persona']} personas, {kinds['support']} supports, {kinds['react']} reacts)"
    )
