"""Persona VS's entry in the game registry (``velvet.games``).

Set-up options (player cards, deck files, who goes first), the renderer and
evaluator by import path, what is private in a view, and the columns a
simulation records: each seat's deck and the cards it played, who went first,
and the number of turns. The rules modules are imported only when a game is loaded.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from velvet.engine.core import Config, Game, State
from velvet.engine.errors import ConfigError, DeckError
from velvet.engine.rng import Rng
from velvet.engine.spec import ConfigOption, GameSpec, Options
from velvet.vs import actions as A

if TYPE_CHECKING:
    from velvet.vs.game import VsGame

DEFAULT_CARDS = ("p5", "p4")
SECOND_DRAWS = ("0", "1", "2")
"""``--second-draws``: extra set-up cards for the second player (``second_draws`` in the config)."""


def load(cards: Sequence[Path | str]) -> Game[Any]:
    """The VS game with its built-in cards, extended or replaced by ``cards``."""
    from velvet.vs.game import load_vs_game

    return load_vs_game(cards)


def _vs(game: Game[Any]) -> VsGame:
    from velvet.vs.game import VsGame

    if not isinstance(game, VsGame):
        raise ConfigError(f"expected the vs game, not '{game.name}'")
    return game


def _deck_player_card(path: str) -> str:
    """The ``player_card`` a deck file (already checked by ``load_deck``) is built for."""
    try:
        with open(path, "rb") as handle:
            return str(tomllib.load(handle)["player_card"])
    except (OSError, tomllib.TOMLDecodeError, KeyError) as error:
        raise DeckError(f"{path}: no player_card ({error})") from None


def make_config(game: Game[Any], seats: int, options: Options) -> Config:
    """A match from the options: player cards (default p5 then p4), decks, first player.

    A ``deck`` is a built-in player card's name (``p5``, ``p4``, ``p3``: that card
    with its deck) or a deck file (the player card it names, with its 40 cards).
    """
    vs = _vs(game)
    if seats != 2:
        raise ConfigError(f"vs is for 2 players, not {seats}")
    chosen = tuple(options.get("player_card", ()))
    decks = tuple(options.get("deck", ()))
    if len(chosen) > 2 or len(decks) > 2:
        raise ConfigError(
            "Persona VS has 2 seats: give --player-card and --deck at most twice",
            "player_card" if len(chosen) > 2 else "deck",
        )
    cards = [  # a seat not given (or None, left at its default): p5 then p4
        (chosen[seat] if seat < len(chosen) else None) or DEFAULT_CARDS[seat] for seat in range(2)
    ]
    try:
        config = vs.default_config(*cards)
    except ConfigError as error:  # an unknown player card: the same words, on its option
        seat = next((n for n, card in enumerate(cards) if card not in vs.players), None)
        raise ConfigError(str(error), "player_card", seat) from None
    for seat, deck in enumerate(decks):
        if deck is None:
            continue
        if deck in vs.players:
            config["players"][seat] = vs.default_config(deck, deck)["players"][0]
            continue
        from velvet.vs.decks import load_deck

        ids = load_deck(deck, vs)
        player_card = _deck_player_card(deck)
        if seat < len(chosen) and chosen[seat] is not None and chosen[seat] != player_card:
            raise ConfigError(
                f"{deck} is a deck for player card '{player_card}', "
                f"not --player-card {chosen[seat]}",
                "deck",
                seat,
            )
        config["players"][seat] = {"player_card": player_card, "deck": ids}
    first = options.get("first") or "random"
    if first not in ("1", "2", "random"):
        raise ConfigError(f"--first must be 1, 2 or random, not {first!r}", "first")
    config["first_player"] = None if first == "random" else int(first) - 1
    second_draws = options.get("second_draws") or "0"
    if second_draws not in SECOND_DRAWS:
        raise ConfigError(f"--second-draws must be 0, 1 or 2, not {second_draws!r}", "second_draws")
    if second_draws != "0":
        config["second_draws"] = int(second_draws)
    return config


def vary(game: Game[Any], config: Config, rng: Rng) -> Config:
    """A random match: each seat a random player card with its built-in deck.

    The set-up rules of ``config`` that are not about the decks (who goes first,
    ``second_draws``, ``open_decklists``) carry over to the drawn match.
    """
    vs = _vs(game)
    cards = list(vs.players or DEFAULT_CARDS)
    picks = [cards[rng.randbelow(len(cards))] for _ in range(2)]
    drawn = vs.default_config(*picks)
    for key in KEPT_WHEN_VARIED:
        if key in config:
            drawn[key] = config[key]
    return drawn


KEPT_WHEN_VARIED = ("first_player", "second_draws", "open_decklists")
"""Config keys ``vary`` keeps: the match's rules, not its decks."""


def start(state: State[Any]) -> dict[str, Any]:
    """Columns known at the start: each seat's player card (deck), who goes first, and
    ``second_draws``: how many more cards the second player holds (the offset)."""
    data = state.to_json()
    out: dict[str, Any] = {"first_player": data.get("turn")}
    hands = data.get("hand", [])
    first = data.get("turn")
    if len(hands) == 2 and first in (0, 1):
        out["second_draws"] = len(hands[1 - first]) - len(hands[first])
    for seat, card in enumerate(data.get("player_cards", [])):
        out[f"deck_{seat}"] = card
        out[f"cards_played_{seat}"] = set()
        out[f"plays_{seat}"] = 0
    return out


PLAYS = (A.Summon, A.Fuse, A.PlaySupport, A.PlayReact)
"""The actions that play a card from hand."""


def track(state: State[Any], action: Any, columns: dict[str, Any]) -> None:
    """Collect, per seat, the cards it summoned, fused, supported or reacted with."""
    if not isinstance(action, PLAYS):
        return
    seat = state.current_player
    name = _card_names(_vs(state.game)).get(action.card, action.card)
    played = columns.setdefault(f"cards_played_{seat}", set())
    played.add(name)
    key = f"plays_{seat}"
    columns[key] = columns.get(key, 0) + 1


def summarize(state: State[Any]) -> dict[str, Any]:
    """Columns at the end: the number of turns played."""
    return {"turns": state.to_json().get("turn_no")}


_NAMES: dict[int, dict[str, str]] = {}


def _card_names(game: VsGame) -> dict[str, str]:
    """Card id -> "id name" from the game's card set, found once per game object."""
    key = id(game)
    names = _NAMES.get(key)
    if names is None:
        names = {card.id: f"{card.id} {card.name}" for card in game.all_cards}
        _NAMES[key] = names
    return names


SPEC = GameSpec(
    name="vs",
    title="Persona VS: summon, fuse and attack until the rival's HP is 0.",
    short_title="Persona VS",
    load=load,
    players=(2,),
    options=(
        ConfigOption(
            "player_card",
            "Player card per seat: p5, p4 or p3 (default p5 then p4).",
            True,
            choices_from="player_cards",
            defaults=lambda game, seats: DEFAULT_CARDS[:seats],
        ),
        ConfigOption(
            "deck",
            "Deck per seat: a deck file, or p5/p4/p3 for a player card's built-in deck.",
            True,
            kind="path",
            metavar="FILE",
            label="deck (TOML file)",
            choices_from="player_cards",
        ),
        ConfigOption(
            "first",
            "Who goes first (VS-SETUP-4).",
            choices=("1", "2", "random"),
            default="random",
            metavar="WHO",
            label="who goes first",
            choice_labels=("Player 1", "Player 2", "Random"),
        ),
        ConfigOption(
            "second_draws",
            "Offset for going first: the second player draws this many more cards at "
            "set-up (Velvet option; 0-2 measured in docs/lab.md).",
            choices=SECOND_DRAWS,
            default="0",
            metavar="N",
            label="second player draws extra",
            choice_labels=("No (the rulebook)", "1 more card", "2 more cards"),
        ),
    ),
    make_config=make_config,
    board="vs.js",
    names=Path(__file__).resolve().parent / "data" / "names",
    hidden_information=True,
    hides_hands=True,
    private=("hand",),
    renderer="velvet.ui.vs_render",
    encoder="velvet.vs.encoder:VsEncoder",
    shaping="velvet.vs.encoder:hp_potential",
    evaluator="velvet.bots.heuristics:vs_evaluator",
    cards="velvet.vs.cards",
    deck_check="velvet.vs.decks:check_deck",
    rules_summary="velvet.printing.summary:vs_summary",
    print_cards="velvet.vs.printcards:print_cards",
    balance="velvet.vs.balance",
    summarize=summarize,
    start=start,
    track=track,
    result_cells=(
        ("first_player", "seat"),
        ("deck_{s}", "name"),
        ("second_draws", "whole?"),
        ("plays_{s}", "count?"),
    ),
    vary=vary,
    turns_key="turns",
    # The evaluator moves 0.035 for a 3-HP swing: ``hard`` beat greedy 76 / 86 / 76 / 72 %
    # with exploration 0.1 / 0.2 / 0.4 / 0.7 (80-100 games each), and 15 % with no playout
    # (the evaluator then scores a turn half-way through its cost payments). A VS turn is a
    # chain of one player's decisions (summon, pay, pay ...): greedy follows up to 12.
    # hint chance map: isotonic, fitted by benchmarks/calibration.py --fit on the 500 even
    # positions of the seed-23 run (1,000 VS positions played on by easy = greedy:5) and
    # measured on the 500 odd ones (ECE 6.8 points, Brier 0.190; Platt's (1.9241, -0.0178)
    # did worse, 8.4 and 0.192; the raw value is steep in the middle, flat at the top)
    hint_calibration=(
        (0.148, 0.01),
        (0.3501, 0.12),
        (0.4095, 0.2),
        (0.4288, 0.2188),
        (0.4598, 0.4531),
        (0.4851, 0.4545),
        (0.5014, 0.5263),
        (0.5202, 0.5556),
        (0.5502, 0.625),
        (0.5834, 0.7857),
        (0.6079, 0.8276),
        (0.7169, 0.8679),
        (0.9238, 0.9444),
        (0.9948, 0.99),
    ),
    search="ismcts",
    search_tuning={"exploration": 0.2, "max_playout": 10},
    greedy_follow=12,
    # easy as ISMCTS 30 lost to greedy 7-13 (10 seed pairs), so it was below greedy. Greedy
    # with 5 samples instead of 1: greedy 0, greedy:5 +9, normal +75 Elo (Bradley-Terry,
    # 12 seed pairs per pairing, seed 23; greedy:5 beat greedy 14-10, lost to normal 8-16):
    # the order greedy < easy < normal by point estimate, none decided (docs/lab.md).
    levels={"easy": ("greedy", "5")},
    # Measured bot against bot (seed 25, default decks, both seat orders, one niced worker):
    #   velvet arena vs --bot easy --bot normal --bot hard --pairs chain --games 12 \
    #       --seed 25 --workers 1 --format csv --out runs/bot-ratings
    #   velvet arena vs --bot easy --bot normal --games 30 --seed 25 --workers 1 \
    #       --format csv --out runs/bot-ratings       # 18 more seeds of easy-normal
    #   python benchmarks/arena_export.py runs/bot-ratings \
    #       benchmarks/data/arena-vs-bot-ratings-seed25
    #   python benchmarks/bot_ratings.py benchmarks/data/arena-vs-bot-ratings-seed25.csv
    # 84 games, one Bradley-Terry fit: easy 1466 [1378, 1553], hard 1682 [1526, 1837]. The
    # scale is anchored (normal = 1500 by convention), only the differences are measured;
    # easy is not decided below normal (27-33 in 60 games).
    bot_ratings={"easy": 1466.0, "normal": 1500.0, "hard": 1682.0},
    bot_anchor="normal",
)
