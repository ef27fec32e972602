"""The ``velvet sim`` and ``velvet report`` commands (registered by velvet.cli)."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from velvet.bots import BOT_HELP
from velvet.engine.errors import VelvetError
from velvet.engine.files import parse_json
from velvet.engine.spec import GameSpec


class CommandError(click.ClickException):
    """A bad option or file: one line on stderr, exit status 2, no traceback."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        """``error: …`` as every Velvet command writes it (click says ``Error:``)."""
        click.echo(f"error: {self.format_message()}", err=True, file=file)


_SPEC_PATH = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*$")


def _check_game_name(game: str) -> None:
    """A registered game (built in or by an entry point) or package.module:ATTRIBUTE (no
    paths: a module is imported by name)."""
    from velvet.games import game_names

    names = game_names()
    if game not in names and not _SPEC_PATH.match(game):
        shown = game if len(game) <= 60 and game.isprintable() else repr(game[:60])
        raise CommandError(
            f"unknown game '{shown}': choose {', '.join(names)} "
            "or package.module:ATTRIBUTE naming a GameSpec"
        )


def parse_options(spec: GameSpec, texts: Sequence[str]) -> dict[str, Any]:
    """``--option NAME=VALUE`` texts as the options ``spec.config_for`` takes.

    NAME is one of the spec's :class:`ConfigOption` names (``second_draws``, or
    ``second-draws`` as the flag of ``velvet play`` spells it); a per-seat option may
    be repeated, in seat order, another may not. A value outside the option's choices
    is refused here, naming them; everything else is checked by the game's own
    ``make_config`` as for ``velvet play``.
    """
    declared = {option.name: option for option in spec.options}
    chosen: dict[str, Any] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        key = name.strip().replace("-", "_")
        if not sep or not key:
            raise CommandError(f"--option {text!r}: write NAME=VALUE (e.g. second_draws=1)")
        option = declared.get(key)
        if option is None:
            raise CommandError(
                f"--option {text}: game '{spec.name}' has no option '{key}'; "
                f"its options: {_option_names(spec)}"
            )
        if option.choices and value not in option.choices:
            raise CommandError(
                f"--option {text}: {key} must be one of {', '.join(option.choices)}, not {value!r}"
            )
        if option.multiple:
            chosen[key] = (*chosen.get(key, ()), value)
        elif key in chosen:
            raise CommandError(f"--option {key} given twice ({chosen[key]!r} and {value!r})")
        else:
            chosen[key] = value
    return chosen


def _option_names(spec: GameSpec) -> str:
    return ", ".join(option.name for option in spec.options) or "none"


def options_help(spec: GameSpec) -> list[tuple[str, str]]:
    """``(NAME=VALUE, what it does)`` per set-up option of ``spec``, for the help."""
    rows = []
    for option in spec.options:
        value = "|".join(option.choices) if option.choices else option.metavar
        text = option.help
        if option.multiple:
            text += " Per seat: repeat it in seat order."
        if option.default is not None:
            text += f"  [default: {option.default}]"
        rows.append((f"{option.name}={value}", text))
        rows += [(f"  {choice}", what) for choice, what in option.choice_help]
    return rows


def option_flags(game: str, args: Sequence[str], own: set[str]) -> list[str]:
    """``args`` with each ``--NAME VALUE`` (or ``--NAME=VALUE``) that names a set-up option
    of ``game``, as ``velvet play GAME`` spells it, written ``--option NAME=VALUE``; flags
    of the command itself (``own``) and everything after ``--`` are left as they are."""
    from velvet.games import find_spec

    spec = find_spec(game)
    if spec is None:
        return list(args)
    flags = {"--" + o.name.replace("_", "-"): o.name for o in spec.options}
    out: list[str] = []
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg == "--":
            out += [arg, *rest]
            break
        flag, eq, value = arg.partition("=")
        name = flags.get(flag)
        if name is None or flag in own or (not eq and not rest):
            out.append(arg)
            continue
        out += ["--option", f"{name}={value if eq else rest.pop(0)}"]
    return out


class SimCommand(click.Command):
    """``velvet sim``, whose help ends with the set-up options of its games.

    ``velvet sim GAME --help`` shows GAME's options; plain ``velvet sim --help`` those
    of every registered game. A GAME that cannot be found is named, not a traceback.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and not args[0].startswith("-"):
            ctx.meta["velvet_sim_game"] = args[0]
            own = {flag for param in self.params for flag in param.opts}
            args = [args[0], *option_flags(args[0], args[1:], own)]
        return super().parse_args(ctx, args)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        from velvet.games import game_names, get_spec

        asked = ctx.meta.get("velvet_sim_game")
        try:
            names = [asked] if asked else list(game_names())
            specs = [get_spec(name) for name in names]
        except VelvetError as exc:
            formatter.write_paragraph()
            formatter.write_text(f"(no options shown: {exc})")
            return
        for spec in specs:
            with formatter.section(
                f"Set-up options of {spec.name} (--option NAME=VALUE, or --NAME VALUE)"
            ):
                rows = options_help(spec)
                if rows:
                    formatter.write_dl(rows)
                else:
                    formatter.write_text("none")
                varied = vary_help(spec)
                if varied:
                    formatter.write_dl([("--vary-setup", varied)])


def vary_help(spec: GameSpec) -> str:
    """What ``--vary-setup`` draws for ``spec``'s game: its ``vary`` function's first line
    (empty: the game has none, so every game is played on the given set-up)."""
    if spec.vary is None:
        return ""
    lines = (spec.vary.__doc__ or "").strip().splitlines()
    return lines[0].replace("``", "") if lines else "draws each game's set-up at random"


def parallel_options(command: Any) -> Any:
    """``--workers``, ``--backend`` and ``--address``: where a command's games are played
    (``velvet sim`` and ``velvet arena`` alike)."""
    for option in reversed(
        [
            click.option(
                "--workers",
                type=int,
                default=None,
                help="Processes (pool) or CPUs (local Ray); default every core.",
            ),
            click.option(
                "--backend",
                type=click.Choice(["pool", "ray"]),
                default="pool",
                show_default=True,
                help="Process pool on this machine, or Ray.",
            ),
            click.option(
                "--address",
                default=None,
                metavar="ADDR",
                help="Ray cluster address (HOST:PORT, ray://HOST:PORT or auto); "
                "default starts Ray locally.",
            ),
        ]
    ):
        command = option(command)
    return command


@click.command("sim", cls=SimCommand)
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
    help="For games with a deck option: a deck file or built-in deck per seat "
    "(the same as --option deck=FILE).",
)
@click.option(
    "--option",
    "-o",
    "option_texts",
    multiple=True,
    metavar="NAME=VALUE",
    help="A set-up option of GAME, as `velvet play GAME` has it (e.g. second_draws=1 "
    "for --second-draws 1); repeat it per option, and per seat for per-seat options. "
    "`velvet sim GAME --help` lists GAME's options.",
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
@parallel_options
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
    help="Draw each game's set-up at random, seeded by the game's seed (what each game "
    "draws: its --vary-setup line below).",
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
    option_texts: tuple[str, ...],
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
    """Play many seeded bot games of GAME (a game's name or module:SPEC) and save the results.

    Writes one row per game (seed, winner, length, day/turn and game columns)
    as Parquet chunks plus summary.json (win rates with 95% Wilson intervals)
    into --out. Ctrl-C keeps the finished games; run the same command again
    to play only the missing ones. Example:

        velvet sim vs --games 1000 --seat ismcts:50 --seat random --seed 7
    """
    from velvet.games import get_spec
    from velvet.sim.run import run_sim

    _check_game_name(game)
    try:
        sim_game = get_spec(game)
        loaded = sim_game.load(card_paths)
        if not seats:
            seats = ("random",) * (2 if len(decks) == 2 else min(loaded.num_players))
        if config_text is not None:
            if decks:
                raise CommandError("give either --config or --deck, not both")
            if option_texts:
                raise CommandError(
                    "give either --config or --option, not both (--config is the whole "
                    "configuration; put the option's key in its JSON)"
                )
            config = _parse_config(config_text)
            _check_config(loaded, config)
        else:
            options = parse_options(sim_game, option_texts)
            if decks:
                if "deck" in options:
                    raise CommandError("give either --deck or --option deck=..., not both")
                options["deck"] = decks
            config = sim_game.config_for(loaded, len(seats), options)
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
