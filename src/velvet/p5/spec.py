"""The Persona 5 board game's entry in the game registry (``velvet.games``).

Set-up options, the renderer and evaluator by import path, and the columns a
simulation records: palace, thief, persona, confidants and shadows defeated per
seat, and the day the game ended (read from the final view, which names every
card by id). The rules modules are imported only when a game is loaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from velvet.engine.core import Config, Game, State
from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng
from velvet.engine.spec import ConfigOption, DailyChallenge, GameSpec, Options, SeatDefaults

if TYPE_CHECKING:
    from velvet.p5.game import P5Game


DIFFICULTY_LEVELS = ("story", "standard", "hard", "merciless")
"""``velvet.p5.difficulty.LEVELS``, written out so that no spec import reads the file."""
DIFFICULTY_HELP = (
    (
        "story",
        "34 days (6 more); each player starts with 2 Stamina + 2 SP + 2 Bullet + 2 Cash more",
    ),
    ("standard", "the rulebook's game: nothing changes"),
    ("hard", "24 days (4 fewer); the boss needs 1 Stamina + 1 SP more"),
    (
        "merciless",
        "22 days (6 fewer); the palace starts at 25 % alert; the boss needs 2 Stamina + 2 SP "
        "+ 1 Bullet more",
    ),
)
"""One line per level on what it changes: ``velvet.p5.difficulty.level_text`` of each level
of data/levels/difficulty.toml (tests/p5/test_difficulty.py keeps the two the same)."""


def load(cards: Sequence[Path | str]) -> Game[Any]:
    """The P5 game with its built-in cards, extended or replaced by ``cards``."""
    from velvet.p5.game import load_p5_game

    return load_p5_game(cards)


def _p5(game: Game[Any]) -> P5Game:
    from velvet.p5.game import P5Game

    if not isinstance(game, P5Game):
        raise ConfigError(f"expected the p5 game, not '{game.name}'")
    return game


def make_config(game: Game[Any], seats: int, options: Options) -> Config:
    """The default set-up for ``seats`` players, with any thief, persona or palace chosen."""
    config = _p5(game).default_config(seats)
    for option in ("thief", "persona"):
        values = tuple(options.get(option, ()))
        if len(values) > seats:
            raise ConfigError(f"{len(values)} --{option} options for {seats} player(s)", option)
        for seat, value in enumerate(values):
            if value is not None:  # None: the seat's default
                config["players"][seat][option] = value
    palace = options.get("palace")
    if palace:
        config["palace"] = palace
    level = options.get("difficulty")
    if level is not None and level != "standard":  # the rulebook's game names no level
        config["difficulty"] = level
    return config


def _sample(rng: Rng, items: Sequence[str], k: int) -> list[str]:
    pool = list(items)
    rng.shuffle(pool)
    return pool[:k]


def vary(game: Game[Any], config: Config, rng: Rng) -> Config:
    """A random set-up for as many players as ``config``: distinct thieves and personas.

    And a palace; everything else of ``config`` (its difficulty) stays."""
    choices = game.choices()
    n = len(config.get("players", [])) or 1
    thieves = _sample(rng, [t for t, _ in choices["thieves"]], n)
    personas = _sample(rng, [p for p, _ in choices["personas"]], n)
    palaces = [p for p, _ in choices["palaces"]]
    return {
        **config,
        "players": [{"thief": t, "persona": p} for t, p in zip(thieves, personas, strict=True)],
        "palace": palaces[rng.randbelow(len(palaces))],
    }


def daily_options(game: Game[Any], seats: int, rng: Rng) -> Options:
    """The day's set-up: distinct thieves and personas, and a palace, at the rulebook's
    difficulty (``vary`` of the default set-up, as options)."""
    config = vary(game, _p5(game).default_config(seats), rng)
    return {
        "thief": [p["thief"] for p in config["players"]],
        "persona": [p["persona"] for p in config["players"]],
        "palace": config["palace"],
    }


def summarize(state: State[Any]) -> dict[str, Any]:
    """Palace, thief/persona/confidants/shadows defeated per seat, and the day it ended."""
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


def _defaults(option: str) -> SeatDefaults:
    """Each seat's ``option`` (thief, persona) in the game's default set-up."""

    def defaults(game: Game[Any], seats: int) -> list[str]:
        return [str(player[option]) for player in _p5(game).default_config(seats)["players"]]

    return defaults


SPEC = GameSpec(
    name="p5",
    title="The Persona 5 Print & Play board game: 28 days to sweep a palace and beat its boss.",
    short_title="Persona 5 board game",
    load=load,
    players=(1, 2),
    options=(
        ConfigOption(
            "thief",
            "Phantom Thief per player, in seat order (see: velvet cards list).",
            True,
            choices_from="thieves",
            defaults=_defaults("thief"),
        ),
        ConfigOption(
            "persona",
            "Persona per player, in seat order.",
            True,
            choices_from="personas",
            defaults=_defaults("persona"),
        ),
        ConfigOption(
            "palace",
            "The palace to infiltrate.",
            choices_from="palaces",
            defaults=lambda game, seats: [str(_p5(game).default_config(seats)["palace"])],
        ),
        ConfigOption(
            "difficulty",
            "A Velvet variant (the rulebook has none); standard is the rulebook's game. "
            "Each level's changes: docs/p5-rules.md (and velvet play p5 --help).",
            choices=DIFFICULTY_LEVELS,
            default="standard",
            metavar="LEVEL",
            choice_help=DIFFICULTY_HELP,
            label="Difficulty",
            choice_labels=(  # the lobby's list; the numbers are in the help and the docs
                "Story: more days and tokens",
                "Standard: the rulebook's game",
                "Hard: fewer days, a tougher boss",
                "Merciless: fewest days, alert from the start, the toughest boss",
            ),
        ),
    ),
    make_config=make_config,
    board="p5.js",
    names=Path(__file__).resolve().parent / "data" / "names",
    hidden_information=True,  # the shadow deck is face down and the dice unrolled
    hides_hands=False,  # co-operative: the players see each other's cards
    renderer="velvet.ui.p5_render",
    encoder="velvet.p5.encoder:P5Encoder",
    evaluator="velvet.bots.heuristics:p5_evaluator",
    playout_policy="velvet.bots.heuristics:p5_playout",
    cards="velvet.p5.cards",
    rules_summary="velvet.printing.summary:p5_summary",
    print_cards="velvet.p5.printcards:print_cards",
    print_boards="velvet.printing.sheets:p5_boards",
    print_legend="velvet.p5.cards:legend_icons",
    balance="velvet.p5.balance",
    summarize=summarize,
    result_cells=(
        ("day", "day"),
        ("palace", "name"),
        ("thief_{s}", "name?"),
        ("persona_{s}", "name?"),
        ("confidant_count_{s}", "count?"),
        ("shadow_count_{s}", "count?"),
    ),
    vary=vary,
    daily=DailyChallenge(daily_options, seats=1),  # ranked by "day" (turns_key)
    setup_columns=("palace", "thief_{s}", "persona_{s}"),
    turns_key="day",
    # P5's evaluator values differ by a few hundredths, so a small exploration constant
    # and short playouts (random P5 play almost never wins) took mcts:60 from 0% to ~70%
    # wins (20 games). One player decides all day: greedy stays one ply.
    # Rules 1.1 made a turn longer in actions (a window after the action, splits one kind
    # at a time, the persona party drafted one shadow at a time): playouts now skip party
    # changes (p5_playout) and run 16 actions. Joker/Arsene on Kamoshida, normal, seed 0:
    # 8 actions uniform 1/30, 16 uniform 14/30, 16 with p5_playout 19/30 (8 with it 3/10).
    expert_policy="velvet.p5.expert:p5_expert_playout",
    expert_prune="velvet.p5.expert:p5_prune",
    # expert's leaves count the days left (p5_day_value): on seed 23's first 10 set-ups it
    # won all 10, median day 14.5, where with p5_evaluator it won all 10, median day 26
    # (docs/lab.md, "expert with a day-aware leaf value").
    expert_evaluator="velvet.p5.value:p5_day_value",
    # hint chance map: isotonic, fitted by benchmarks/calibration.py --fit on the 500 even
    # positions of the seed-23 run (1,000 P5 positions) and measured on the 500 odd ones
    # (ECE 6.8 points, Brier 0.168; Platt's (0.6957, -0.3541) did worse, 7.2 and 0.169).
    # Spread: the report's, from the 4-game forecasts (docs/lab.md, "Honest chances").
    hint_calibration=(
        (0.0326, 0.01),
        (0.1378, 0.2222),
        (0.2527, 0.25),
        (0.4001, 0.3091),
        (0.4315, 0.3333),
        (0.4745, 0.375),
        (0.5653, 0.4889),
        (0.8205, 0.7193),
        (0.9206, 0.8),
        (0.9832, 0.99),
    ),
    hint_spread=0.2534,
    search="mcts",
    cooperative=True,
    search_tuning={"exploration": 0.1, "max_playout": 16},
    greedy_follow=0,
    forecast="velvet.bots.hints:forecast",  # the chance to beat the boss before day 28
)
