"""``velvet hint SAVE``: the hard bot's top choices in a saved game (and the P5 forecast),
each chance labelled with whose play it assumes (``velvet.bots.hints.assumed_bot``: the game's
``chance_bot`` level, and what that level is in the game)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from velvet.bots.budget import Budget
from velvet.engine.errors import ConfigError

if TYPE_CHECKING:
    from velvet.bots.hints import Forecast, Hint


def hint_line(hint: Hint, players: int = 1) -> str:
    """A hint in one line, its chance to win labelled with whose play it assumes."""
    from velvet.bots.hints import assumed_play

    return (
        f"{hint.label}: {hint.win:.0%} ± {hint.margin:.0%} to win "
        f"{assumed_play(hint.bot, players, hint.game or None)} ({hint.visits} simulations) "
        f"— {hint.reason}"
    )


def forecast_assumes(bot: str, players: int, game_name: str | None = None) -> str:
    """Whose play a forecast's chance assumes: 'if you play on like the easy bot'; given
    ``game_name``, with what that level is there ('… (MCTS, 30 simulations a move)')."""
    from velvet.bots.hints import assumed_play

    return assumed_play(bot, players, game_name)


def forecast_line(outlook: Forecast, players: int) -> str:
    """The forecast in one line, its chance labelled with whose play it assumes."""
    return (
        f"chance to beat the boss by day {outlook.days} "
        f"{forecast_assumes(outlook.bot, players, outlook.game or None)}: "
        f"{outlook.rate:.0%} [95% CI {outlook.low:.0%}, {outlook.high:.0%}] over "
        f"{outlook.games} games from this position "
        f"({forecast_beside_hint(outlook.bot, outlook.game or None)})"
    )


def forecast_beside_hint(bot: str, game_name: str | None = None) -> str:
    """How a forecast played by ``bot`` stands to the hints' chances (in ``game_name``,
    whose ``chance_bot`` the hints assume; default :data:`~velvet.bots.hints.ASSUMED_BOT`)."""
    from velvet.bots.hints import ASSUMED_BOT, assumed_bot

    assumed = assumed_bot(game_name) if game_name else ASSUMED_BOT
    if bot == assumed:
        return "the hints assume the same play, after their move"
    return f"the hints assume the {assumed} bot's play, so the two may differ"


def spread_note(game_name: str) -> str:
    """What a hint's chance is worth as this game's own chance, where the game measured it
    (its spec's ``hint_spread``): empty if not."""
    from velvet.games import find_spec

    spec = find_spec(game_name)
    if spec is None or not spec.hint_spread:
        return ""
    return (
        f"The hints' chances rank the moves within their margins; as this game's own chance "
        f"each is good to ± {1.96 * spec.hint_spread:.0%} only (positions the search values "
        "alike are won that differently, measured), so where a forecast differs, the "
        "forecast, which plays the games out, is the sharper one."
    )


@click.command("hint")
@click.argument("save", type=click.Path(path_type=Path))
@click.option(
    "--cards",
    "card_paths",
    multiple=True,
    type=click.Path(path_type=Path),
    help="The custom card files the game was played with.",
)
@click.option(
    "--seat",
    type=int,
    default=None,
    help="Whose hints, counted from 1 (default: the player deciding now).",
)
@click.option(
    "--budget", default="800", show_default=True, help="Simulations (800) or seconds (2s)."
)
@click.option("--top", default=3, show_default=True, help="How many choices to show.")
@click.option(
    "--forecast",
    "forecast_games",
    type=int,
    default=0,
    help="P5: also play this many games from the position and give the chance to win.",
)
@click.option(
    "--forecast-bot",
    default=None,
    help="The bot that plays them (default: the level the hints' chances assume, easy).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of lines.")
def hint_command(
    save: Path,
    card_paths: tuple[Path, ...],
    seat: int | None,
    budget: str,
    top: int,
    forecast_games: int,
    forecast_bot: str | None,
    as_json: bool,
) -> None:
    """Show the best choices for a seat in a saved game, each with why, from its view only.

    \b
    velvet hint save.json
    velvet hint save.json --budget 3s --forecast 40
    """
    from velvet.bots.hints import assumed_bot, assumed_play, forecast, hints
    from velvet.engine.core import player_name
    from velvet.engine.record import load_game
    from velvet.games import get_game

    if seat is not None and seat < 1:
        raise ConfigError(f"--seat counts players from 1, not {seat}")
    if top < 1:
        raise ConfigError(f"--top must be 1 or more, not {top}")
    _, state = load_game(save, lambda name: get_game(name, card_paths))
    if state.is_terminal():
        raise ConfigError(f"{save}: the game is over ({state.outcome_text()})")
    who = state.current_player if seat is None else seat - 1
    found = hints(state, who, Budget.parse(budget), top=top)
    outlook = forecast(state, who, forecast_games, forecast_bot) if forecast_games else None
    players = len(state.returns())
    if as_json:
        bot = found[0].bot if found else assumed_bot(state.game.name)
        data: dict[str, object] = {
            "seat": who,
            "bot": bot,
            "assumes": assumed_play(bot, players, state.game.name),
            "hints": [h.to_json() for h in found],
        }
        if outlook is not None:
            data["forecast"] = {
                "wins": outlook.wins,
                "games": outlook.games,
                "rate": outlook.rate,
                "ci95": [outlook.low, outlook.high],
                "bot": outlook.bot,
                "assumes": assumed_play(outlook.bot, players, state.game.name),
            }
        click.echo(json.dumps(data, ensure_ascii=False))
        return
    click.echo(f"Hints for {player_name(who)}:")
    for rank, found_hint in enumerate(found, start=1):
        click.echo(f"  {rank}. {hint_line(found_hint, players)}")
    if outlook is not None:
        click.echo(forecast_line(outlook, players))
    note = spread_note(state.game.name)  # after the forecast: it says how the two compare
    if note:
        click.echo(note)
