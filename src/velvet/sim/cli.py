"""The ``velvet sim`` and ``velvet report`` commands (registered by velvet.cli)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import click

from velvet.bots import BOT_HELP
from velvet.engine.errors import VelvetError
from velvet.engine.files import parse_json


class CommandError(click.ClickException):
    """A bad option or file: one line on stderr, exit status 2, no traceback."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        """``error: …`` as every Velvet command writes it (click says ``Error:``)."""
        click.echo(f"error: {self.format_message()}", err=True, file=file)


_GAME_NAME = re.compile(r"^(p5|vs|[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*)$")


def _check_game_name(game: str) -> None:
    """p5, vs or package.module:ATTRIBUTE (no paths: a module is imported by name)."""
    if not _GAME_NAME.match(game):
        shown = game if len(game) <= 60 and game.isprintable() else repr(game[:60])
        raise CommandError(
            f"unknown game '{shown}': choose p5, vs or package.module:ATTRIBUTE naming a SimGame"
        )


@click.command("sim")
@click.argument("game", metavar="GAME")
@click.option(
    "--games",
    "-n",
    "n_games",
    type=int,
    default=100,
    show_default=True,
    help="How many games to play.",
)
@click.option(
    "--seat",
    "seats",
    multiple=True,
    metavar="BOT",
    help=f"The bot in the next seat (repeat per seat): {BOT_HELP}. Default: random in every seat.",
)
@click.option(
    "--cards",
    "card_paths",
    multiple=True,
    type=click.Path(dir_okay=False),
    metavar="PATH",
    help="A custom card file extending or replacing the cards (repeatable).",
)
@click.option(
    "--deck",
    "decks",
    multiple=True,
    metavar="FILE",
    help="For games with a --deck option (vs): a deck file or built-in deck per seat.",
)
@click.option(
    "--config",
    "config_text",
    metavar="JSON",
    help="The whole game configuration as JSON, instead of the default.",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Base seed: game i is seeded by velvet.sim.run.game_seed(seed, i).",
)
@click.option(
    "--start",
    type=int,
    default=0,
    show_default=True,
    help="First game index (to split one run into shards that merge).",
)
@click.option(
    "--workers",
    type=int,
    default=None,
    help="Processes (pool) or CPUs (local Ray); default every core.",
)
@click.option(
    "--backend",
    type=click.Choice(["pool", "ray"]),
    default="pool",
    show_default=True,
    help="Process pool on this machine, or Ray.",
)
@click.option(
    "--address",
    default=None,
    metavar="ADDR",
    help="Ray cluster address (HOST:PORT, ray://HOST:PORT or auto); default starts Ray locally.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Results directory (default sim-results/GAME-seedN). Rerunning into the "
    "same directory resumes the missing games.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["parquet", "csv"]),
    default=None,
    help="Result chunk format (default parquet when pyarrow is installed).",
)
@click.option(
    "--vary-setup",
    "vary",
    is_flag=True,
    help="Draw each game's set-up at random (p5: thieves, personas, palace; "
    "vs: player cards with their decks), seeded by the game's seed.",
)
@click.option(
    "--max-actions",
    type=int,
    default=20_000,
    show_default=True,
    help="Stop a game after this many actions and record it as an error.",
)
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def sim_command(
    game: str,
    n_games: int,
    seats: tuple[str, ...],
    card_paths: tuple[str, ...],
    decks: tuple[str, ...],
    config_text: str | None,
    seed: int,
    start: int,
    workers: int | None,
    backend: str,
    address: str | None,
    out: str | None,
    fmt: str | None,
    vary: bool,
    max_actions: int,
    no_progress: bool,
) -> None:
    """Play many seeded bot games of GAME (p5, vs, or module:SPEC) and save the results.

    Writes one row per game (seed, winner, length, day/turn and game columns)
    as Parquet chunks plus summary.json (win rates with 95% Wilson intervals)
    into --out. Ctrl-C keeps the finished games; run the same command again
    to play only the missing ones. Example:

        velvet sim vs --games 1000 --seat ismcts:50 --seat random --seed 7
    """
    from velvet.sim.games import resolve_game
    from velvet.sim.run import run_sim

    _check_game_name(game)
    try:
        sim_game = resolve_game(game)
        loaded = sim_game.load(card_paths)
        if not seats:
            seats = ("random",) * (2 if len(decks) == 2 else min(loaded.num_players))
        if config_text is not None:
            if decks:
                raise CommandError("give either --config or --deck, not both")
            config = _parse_config(config_text)
            _check_config(loaded, config)
        else:
            config = sim_game.config_for(loaded, len(seats), {"deck": decks})
        target = Path(out) if out else Path("sim-results") / f"{game.replace(':', '-')}-seed{seed}"
        summary = run_sim(
            game,
            n_games,
            list(seats),
            config,
            seed,
            target,
            workers=workers,
            backend="ray" if backend == "ray" else "pool",
            ray_address=address,
            card_paths=card_paths,
            progress=not no_progress and sys.stderr.isatty(),
            start=start,
            fmt=fmt,
            vary=vary,
            max_actions=max_actions,
        )
    except VelvetError as exc:
        raise CommandError(str(exc)) from None
    for line in summary.lines():
        click.echo(line)
    if summary.interrupted:
        sys.exit(130)


def _parse_config(text: str) -> dict[str, Any]:
    def problem(message: str) -> CommandError:
        return CommandError(message.replace("--config: ", "--config is not JSON: ", 1))

    config = parse_json(text, problem, "--config")
    if not isinstance(config, dict):
        raise CommandError("--config must be a JSON object")
    return config


_CONFIG_FAULTS = (TypeError, KeyError, ValueError, IndexError, AttributeError, RecursionError)


def _check_config(game: Any, config: dict[str, Any]) -> None:
    """A config of the wrong shape (a list where a name goes) is one line, not a traceback."""
    try:
        game.new_state(config, 0)
    except VelvetError:
        raise
    except _CONFIG_FAULTS as exc:
        raise CommandError(f"--config: a value has the wrong type ({type(exc).__name__})") from None


@click.command("report")
@click.argument(
    "results_dirs",
    nargs=-1,
    required=True,
    metavar="RESULTS_DIR...",
    type=click.Path(exists=True, file_okay=False, readable=True),
)
@click.option(
    "--out",
    default="report.html",
    show_default=True,
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="Where to write the HTML report.",
)
@click.option("--force", is_flag=True, help="Replace --out if it exists.")
@click.option(
    "--combine",
    is_flag=True,
    help="Pool separate runs of one game (same rules and cards), such as one run per "
    "deck pairing, instead of merging shards of one run.",
)
def report_command(results_dirs: tuple[str, ...], out: str, force: bool, combine: bool) -> None:
    """Write a self-contained HTML report (embedded plots) of `velvet sim` results.

    Give one results directory, or several shards of one run to merge, or with
    --combine several runs of one game to pool (one per deck pairing, say). Shows
    win rates with 95% intervals per seat and by thief/persona/palace or deck,
    day or turn of victory and defeat, matchups, first-player advantage, game
    length, and the win rate with and without each confidant, shadow or card.
    """
    from velvet.sim.report import write_report

    try:
        path = write_report([Path(d) for d in results_dirs], Path(out), combine, force=force)
    except VelvetError as exc:
        raise CommandError(str(exc)) from None
    click.echo(f"report written to {path}")
