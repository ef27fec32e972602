"""The one command, ``velvet``, with sub-commands for play, cards, decks and replays.

Every error a user can cause is a :class:`VelvetError`; it is printed as one
line (``error: …``) with exit status 2, never as a traceback.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from velvet import __version__
from velvet.engine.core import Game, State
from velvet.engine.errors import ConfigError, VelvetError
from velvet.engine.files import one_line
from velvet.engine.record import GameRecord, load_game, load_record
from velvet.engine.spec import ConfigOption, GameSpec, resolve
from velvet.games import find_spec, game_names, get_game, get_spec

if TYPE_CHECKING:
    from rich.console import Console

    from velvet.bots.base import Bot
    from velvet.bots.budget import Budget

CARDS_HELP = (
    "A card file or folder of *.toml files that extends the built-in set "
    '(or replaces it if the file says [set] mode = "replace"). Repeatable.'
)


def usage_line(error: click.ClickException) -> str:
    """A click error (bad option, missing argument ...) as one line naming the command."""
    message = one_line(error.format_message())
    ctx = getattr(error, "ctx", None)
    if isinstance(error, click.UsageError) and ctx is not None:
        return f"{message} (see: {ctx.command_path} --help)"
    return message


LAZY_COMMANDS: dict[str, tuple[str, str, str]] = {
    "sim": (
        "velvet.sim.cli",
        "sim_command",
        "Play many seeded bot games of GAME (a game's name or module:SPEC) and save the results.",
    ),
    "report": (
        "velvet.sim.cli",
        "report_command",
        "Write a self-contained HTML report (embedded plots) of `velvet sim` results.",
    ),
    "arena": (
        "velvet.sim.arena_cli",
        "arena_command",
        "Rate bots of GAME on paired games: Elo ratings with 95 % intervals, or an SPRT.",
    ),
    "bench": (
        "velvet.sim.bench_cli",
        "bench_command",
        "Rate bots on a frozen Velvet Bench task beside its pinned reference opponents.",
    ),
    "print": (
        "velvet.printing.cli",
        "print_command",
        "Write print-and-play sheets: every card at real size (63 x 88 mm), 9 to a page.",
    ),
    "balance": (
        "velvet.sim.balance_cli",
        "balance_command",
        "Check win rates per P5 palace and VS deck pairing against balance.toml.",
    ),
    "hint": (
        "velvet.bots.hints_cli",
        "hint_command",
        "Show the best choices for a seat in a saved game, each with why, from its view only.",
    ),
    "serve": (
        "velvet.server.cli",
        "serve_command",
        "Serve online play: rooms over HTTP, games over WebSockets (docs/deploy.md).",
    ),
    "learn": (
        "velvet.learn.cli",
        "learn_command",
        "Short lessons of GAME in the terminal: a position, a goal, feedback naming the rule.",
    ),
    "puzzle": (
        "velvet.learn.puzzles_cli",
        "puzzle_command",
        "Puzzles of GAME from bot games: find the clearly best move from your view, see why.",
    ),
    "review": (
        "velvet.learn.review_cli",
        "review_command",
        "Judge every decision of a game record from its mover's own view: chance chart, mistakes.",
    ),
    "bot": (
        "velvet.bot.cli",
        "bot_command",
        "Play a seat of a running velvet serve with an external agent (velvet.bot).",
    ),
    "join": (
        "velvet.server.cli",
        "join_command",
        "Join a room from an invite link (http://HOST/join/ROOM#TOKEN); no token: watch.",
    ),
}
"""Commands imported only when used (the lab is slow to import), with their help line."""

COMMAND_EXTRAS = {
    "sim": "lab",
    "report": "lab",
    "balance": "lab",
    "arena": "lab",
    "bench": "lab",
    "print": "print",
    "serve": "server",
    "join": "server",
    "bot": "server",
}
"""The extra that brings what a lazy command needs, named when it is missing."""


class VelvetGroup(click.Group):
    """A click group that turns every error into one line, ``error: …``.

    A VelvetError (bad input) and a click usage error exit with status 2; an
    unexpected exception (a bug) is still one line, with status 1, never a
    traceback. Its help lists every command's description whole.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy: dict[str, tuple[str, str, str]] = {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            import importlib

            module, attr, _ = self.lazy[cmd_name]
            try:
                command = getattr(importlib.import_module(module), attr)
            except ModuleNotFoundError as missing:
                if (missing.name or "velvet").startswith("velvet"):
                    raise
                extra = COMMAND_EXTRAS.get(cmd_name, "test")
                raise ConfigError(
                    f"velvet {cmd_name} needs {missing.name}, which is not installed: "
                    f"pip install 'velvet[{extra}]'"
                ) from None
            if isinstance(command, click.Command):
                self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            if name in self.lazy and name not in self.commands:
                rows.append((name, self.lazy[name][2]))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=1000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            result = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:
            click.echo(error.format_message())
            sys.exit(2)
        except click.ClickException as error:
            click.echo(f"error: {usage_line(error)}", err=True)
            sys.exit(2 if isinstance(error, click.UsageError) else error.exit_code)
        except click.exceptions.Abort:
            click.echo("\ninterrupted", err=True)
            sys.exit(130)
        sys.exit(result if isinstance(result, int) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except VelvetError as error:
            click.echo(f"error: {one_line(str(error), 1000)}", err=True)
            ctx.exit(2)
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            ctx.exit(130)
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
            raise
        except RecursionError:
            click.echo("error: input nested too deep to handle", err=True)
            ctx.exit(2)
        except MemoryError:
            click.echo("error: out of memory (input too large?)", err=True)
            ctx.exit(2)
        except Exception as error:
            what = one_line(f"{type(error).__name__}: {error}")
            click.echo(f"error: unexpected {what} (a bug in Velvet: please report it)", err=True)
            ctx.exit(1)


@click.group(cls=VelvetGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="velvet")
@click.option(
    "--lang",
    metavar="LANG",
    default=None,
    help="Language of the words shown: en or ja (default: VELVET_LANG, then the locale; "
    "an unknown one is English).",
)
def main(lang: str | None = None) -> None:
    """Velvet: play and study the Persona 5 board game (p5) and Persona VS (vs).

    \b
    Start with:   velvet play p5          (solo board game)
                  velvet play vs --seat human --seat random
    """
    from velvet.i18n import set_language

    set_language(lang)


def _console() -> Console:
    from rich.console import Console  # imported when needed: --help starts faster

    return Console(highlight=False)


def _seed(seed: int | None) -> int:
    """The given seed, or one drawn from the OS (announced once the game starts)."""
    return int.from_bytes(os.urandom(4), "big") if seed is None else seed


def seed_digest(seed: int) -> str:
    """The SHA-256 of a seed's decimal text: shown during play instead of the seed."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def make_seat(spec: str, game_name: str) -> Bot | None:
    """``human`` → None (a person at the keyboard); anything else is a bot spec."""
    if spec == "human":
        return None
    from velvet.bots import make_bot

    return make_bot(spec, game_name)


def seat_names(specs: Sequence[str], players: int) -> list[str]:
    """Every seat's name as --seat gives it (unnamed seats are human)."""
    if len(specs) > players:
        raise ConfigError(f"{len(specs)} --seat options for {players} player(s)")
    return list(specs) + ["human"] * (players - len(specs))


def _seats(specs: Sequence[str], players: int, game_name: str) -> list[Bot | None]:
    return [make_seat(spec, game_name) for spec in seat_names(specs, players)]


def _run(
    game: Game[Any],
    config: dict[str, Any],
    seed: int,
    seats: list[Bot | None],
    console: Console,
    record: GameRecord | None = None,
    state: State[Any] | None = None,
    cards: Sequence[Path] = (),
    savable: bool = True,
    spec: GameSpec | None = None,
    names: Sequence[str] = (),
    pace: float | None = None,
    hints: HintOptions | None = None,
) -> State[Any]:
    from velvet.i18n import _
    from velvet.ui.terminal import DEFAULT_PACE, Session, autosave_path, terminal_reader

    spec = spec or find_spec(game.name)
    secret = spec is None or spec.hidden_information
    if record is None:
        record = GameRecord.start(game, config, seed)
    if names:
        record.seats = list(names)
    if state is None:
        state = game.new_state(config, seed)
        if secret:
            said = _(
                "Seed SHA-256 {digest} (the seed itself is shown when the game ends, so anyone "
                "can check the shuffles)"
            ).format(digest=seed_digest(seed))
            console.print(f"[dim]{said}[/]")
        else:
            said = _("Seed {seed} (pass --seed {seed} to play this game again)").format(seed=seed)
            console.print(f"[dim]{said}[/]")
    said = _("Type a number or an action's text; 'help' lists commands.")
    console.print(f"[dim]{said}[/]")
    human = any(seat is None for seat in seats)
    autosave = autosave_path(record) if savable and human else None
    if autosave is not None:
        said = _("The game is saved after every action to {path}.").format(path=autosave)
        console.print(f"[dim]{said}[/]")
    session = Session(
        game,
        record,
        state,
        seats,
        console,
        ask=lambda prompt: console.input(prompt),
        game_for=lambda name: get_game(name, cards),
        savable=savable,
        autosave=autosave,
        pace=(DEFAULT_PACE if human else 0.0) if pace is None else pace,
    )
    if hints is not None:
        session.hints_each, session.hint_budget = hints.each, hints.budget
    if record.actions:  # a resumed game: its autosave holds it from the start
        session.save_autosave()
    reader = terminal_reader(session.completions)
    if reader is not None:
        session.ask = reader
    return session.run()


@main.group(cls=VelvetGroup)
def play() -> None:
    """Play a game in the terminal: hot-seat, solo, or against bots."""


SEAT_HELP = (
    "Who plays a seat, in seat order: 'human' or a bot (random, greedy, mcts, ismcts, "
    "easy, normal, hard, expert; a budget as in mcts:200 or hard:1.5s). Repeatable; "
    "unnamed seats are human."
)
PACE_OPTION = click.Option(
    ["--pace"],
    type=click.FloatRange(0, 60),
    metavar="SECONDS",
    help="Pause after each bot move (default 0.6 s when a person plays, none otherwise).",
)
HINTS_OPTION = click.Option(
    ["--hints"],
    is_flag=True,
    help="Show the hard bot's three best choices, with their chance to win and why, "
    "before every decision of a human seat ('hint' at the prompt shows them once).",
)
HINT_BUDGET_OPTION = click.Option(
    ["--hint-budget"],
    metavar="BUDGET",
    default="800",
    show_default=True,
    help="How long a hint thinks: simulations (800) or seconds (1.5s).",
)


@dataclass(frozen=True)
class HintOptions:
    """``--hints`` and ``--hint-budget`` of ``velvet play``."""

    each: bool
    budget: Budget

    @classmethod
    def read(cls, values: dict[str, Any]) -> HintOptions:
        from velvet.bots.budget import Budget

        text = str(values.pop("hint_budget"))
        try:
            budget = Budget.parse(text)
        except ConfigError as error:
            raise click.BadParameter(str(error), param_hint="'--hint-budget'") from None
        return cls(bool(values.pop("hints")), budget)


POSITION_HELP = (
    "Start from a position described by names in a TOML or JSON file "
    "(see docs/engine.md, Positions) instead of a new game."
)


def read_position(path: Path) -> dict[str, Any]:
    """The position spec in a TOML (``.toml``) or JSON file; ConfigError names the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such position file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot be read ({error})") from None
    try:
        data = tomllib.loads(text) if path.suffix.lower() == ".toml" else json.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML ({error})") from None
    except json.JSONDecodeError as error:
        raise ConfigError(f"{path}: not valid JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a position is a table (TOML) or an object (JSON)")
    return data


def load_position(game: Game[Any], path: Path) -> State[Any]:
    """The state ``game.position`` builds from the file; errors name the file."""
    spec = read_position(path)
    try:
        return game.position(spec)
    except VelvetError as error:
        raise ConfigError(f"{path}: {error}") from None


def _option_param(option: ConfigOption) -> click.Option:
    flag = "--" + option.name.replace("_", "-")
    kind: click.ParamType[Any]
    if option.choices:
        kind = click.Choice(option.choices)
    elif option.kind == "path":
        kind = click.Path(dir_okay=False)
    else:
        kind = click.STRING
    return click.Option(
        [flag, option.name],
        multiple=option.multiple,
        type=kind,
        default=option.default,
        show_default=option.default is not None,
        metavar=option.metavar,
        help=option.help,
    )


class PlayCommand(click.Command):
    """``velvet play GAME``, whose help ends with one line per choice of the options
    that explain their choices (:attr:`ConfigOption.choice_help`)."""

    def __init__(self, *args: Any, spec: GameSpec, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.spec = spec

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        for option in self.spec.options:
            if option.choice_help:
                flag = "--" + option.name.replace("_", "-")
                with formatter.section(f"{flag} {option.metavar}"):
                    formatter.write_dl(list(option.choice_help))


def play_command(spec: GameSpec) -> click.Command:
    """``velvet play NAME``: the common options plus the set-up options the spec declares."""
    params: list[click.Parameter] = []
    if len(spec.players) > 1:
        low, high = min(spec.players), max(spec.players)
        params.append(
            click.Option(
                ["--players"],
                type=click.IntRange(low, high),
                default=low,
                show_default=True,
                help=f"How many players ({', '.join(map(str, spec.players))}).",
            )
        )
    params += [_option_param(option) for option in spec.options]
    params += [
        click.Option(
            ["--seed"],
            type=click.IntRange(0, 2**64 - 1),
            help="Seed for dice and shuffles (random if omitted).",
        ),
        click.Option(
            ["--cards", "cards"], multiple=True, type=click.Path(path_type=Path), help=CARDS_HELP
        ),
        click.Option(["--seat", "seats"], multiple=True, metavar="WHO", help=SEAT_HELP),
        PACE_OPTION,
        HINTS_OPTION,
        HINT_BUDGET_OPTION,
        click.Option(
            ["--load", "load"], type=click.Path(path_type=Path), help="Resume a saved game."
        ),
        click.Option(
            ["--position", "position"],
            type=click.Path(path_type=Path),
            metavar="FILE",
            help=POSITION_HELP,
        ),
    ]

    def callback(**values: Any) -> None:
        _play(spec, values)

    return PlayCommand(spec.name, callback=callback, params=params, help=spec.title, spec=spec)


def _play(spec: GameSpec, values: dict[str, Any]) -> None:
    console = _console()
    cards: tuple[Path, ...] = values.pop("cards")
    seats: tuple[str, ...] = values.pop("seats")
    load: Path | None = values.pop("load")
    position: Path | None = values.pop("position")
    seed: int | None = values.pop("seed")
    players: int = values.pop("players", spec.players[0])
    pace: float | None = values.pop("pace")
    hints = HintOptions.read(values)
    game = spec.load(cards)
    if load is not None:
        _resume(load, cards, seats, expect=spec.name, pace=pace, hints=hints)
        return
    if position is not None:
        state = load_position(game, position)
        seat_count = len(state.returns())
        console.print(f"[dim]Position from {position}.[/]")
        record = GameRecord.start(game, {}, 0)
        seat_list = _seats(seats, seat_count, spec.name)
        _run(
            game,
            {},
            0,
            seat_list,
            console,
            record,
            state,
            cards,
            savable=False,
            pace=pace,
            hints=hints,
        )
        return
    config = spec.config_for(game, players, values)
    names = seat_names(seats, players)
    seat_list = _seats(names, players, spec.name)
    _run(
        game,
        config,
        _seed(seed),
        seat_list,
        console,
        cards=cards,
        spec=spec,
        names=names,
        pace=pace,
        hints=hints,
    )


@main.command()
@click.argument("save", type=click.Path(path_type=Path), required=False)
@click.option("--cards", "cards", multiple=True, type=click.Path(path_type=Path), help=CARDS_HELP)
@click.option(
    "--seat",
    "seats",
    multiple=True,
    metavar="WHO",
    help="Who plays each seat now (default: as saved). " + SEAT_HELP,
)
@click.option(
    "--pace",
    type=click.FloatRange(0, 60),
    metavar="SECONDS",
    help="Pause after each bot move (default 0.6 s when a person plays, none otherwise).",
)
@click.option(
    "--list", "list_games", is_flag=True, help="List the games in progress, last played first."
)
def resume(
    save: Path | None,
    cards: tuple[Path, ...],
    seats: tuple[str, ...],
    pace: float | None,
    list_games: bool,
) -> None:
    """Resume a saved game of either game (without SAVE: the last game played here).

    Every game in progress has its own autosave; --list shows them. Every seat plays
    as it did when the game was saved (a person or the same bot), unless --seat says
    otherwise.
    """
    from velvet.ui.terminal import autosaves, data_dir

    if list_games:
        _list_autosaves(autosaves())
        return
    if save is None:
        found = autosaves()
        if not found:
            raise ConfigError(f"no game to resume: no autosave in {data_dir()}; give a save file")
        save = found[0]
        click.echo(f"Resuming the last game played: {save}")
    _resume(save, cards, seats, pace=pace)


def _list_autosaves(paths: Sequence[Path]) -> None:
    """One line per autosave: when, which game, how many moves, the file."""
    import time

    if not paths:
        click.echo("No game in progress.")
        return
    for path in paths:
        try:
            record = load_record(path)
            what = f"{record.game}, {len(record.actions)} actions"
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))
        except (VelvetError, OSError) as error:
            what, when = f"unreadable ({one_line(str(error), 60)})", "?"
        click.echo(f"{when}  {what:<24}  {path}")


def _resume(
    save: Path,
    cards: Sequence[Path],
    seats: Sequence[str],
    expect: str | None = None,
    pace: float | None = None,
    hints: HintOptions | None = None,
) -> None:
    record, state = load_game(save, lambda name: get_game(name, cards))
    if expect is not None and record.game != expect:
        raise ConfigError(f"{save} is a saved game of '{record.game}': use velvet resume {save}")
    game = get_game(record.game, cards)
    players = len(state.returns())
    saved = record.seats if len(record.seats) == players else []
    names = seat_names(seats or saved, players)
    seat_list = _seats(names, players, game.name)
    console = _console()
    if saved and not seats:
        console.print(f"[dim]Seats as saved: {', '.join(saved)}.[/]")
    _run(
        game,
        record.config,
        record.seed,
        seat_list,
        console,
        record,
        state,
        cards,
        names=names,
        pace=pace,
        hints=hints,
    )


@main.command()
@click.argument("record_file", metavar="RECORD", type=click.Path(path_type=Path))
@click.option(
    "--cards",
    "cards",
    multiple=True,
    type=click.Path(path_type=Path),
    help="The same --cards the game was played with.",
)
@click.option("--step", is_flag=True, help="Show the board after each action; Enter to go on.")
@click.option(
    "--view",
    "viewer",
    type=click.IntRange(1, 2),
    help="Whose view of the board to show (needed for an unfinished game that hides hands).",
)
def replay(record_file: Path, cards: tuple[Path, ...], step: bool, viewer: int | None) -> None:
    """Step through a game record (or a save) action by action.

    With --step: Enter goes on, b goes back, a number jumps to that action, 'seat N'
    shows that seat's view, q stops.
    """
    from velvet.ui.terminal import replay as run_replay

    record = load_record(record_file, lambda name: get_game(name, cards))
    game = get_game(record.game, cards)
    if viewer is None:
        spec = find_spec(game.name)
        if (spec is None or spec.hides_hands) and not record.replay(game).is_terminal():
            raise ConfigError(
                "this game is not over and hides hands: choose whose view with --view 1 or 2"
            )
        viewer = 1
    console = _console()
    run_replay(game, record, console, viewer=viewer - 1, step=step, ask=console.input)


@main.group(cls=VelvetGroup)
def cards() -> None:
    """List or check card sets."""


def _card_games() -> list[str]:
    """The registered games that have card files."""
    return [name for name in game_names() if (spec := find_spec(name)) and spec.cards]


GAME_OPTION = click.option(
    "--game",
    type=click.Choice(_card_games()),
    default=next(iter(_card_games()), None),
    show_default=True,
    help="Which game's cards.",
)


@cards.command("list")
@GAME_OPTION
@click.option(
    "--cards", "card_paths", multiple=True, type=click.Path(path_type=Path), help=CARDS_HELP
)
@click.option("--kind", help="Only cards of this kind (e.g. thief, shadow, persona, support).")
@click.option("--markdown", is_flag=True, help="Print the Markdown card list kept in docs/.")
def cards_list(game: str, card_paths: tuple[Path, ...], kind: str | None, markdown: bool) -> None:
    """Print a game's card set (built-in, or with --cards)."""
    module = _cards_module(game)
    loaded = get_game(game, card_paths)
    if markdown:
        click.echo(module.card_list_markdown(loaded), nl=False)
        return
    rows = [r for r in module.card_rows(loaded) if kind is None or r[0] == kind]
    if kind is not None and not rows:
        kinds = sorted({r[0] for r in module.card_rows(loaded)})
        raise ConfigError(f"no cards of kind '{kind}'; kinds: {', '.join(kinds)}")
    from rich.table import Table

    table = Table(show_lines=False)
    for column in ("kind", "id", "name", "text"):
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*(str(x) for x in row))
    _console().print(table)


@cards.command("check")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@GAME_OPTION
def cards_check(paths: tuple[Path, ...], game: str) -> None:
    """Validate card files (with the built-in set they extend); exit 2 on the first error."""
    click.echo(_cards_module(game).check_card_files(paths))


def _cards_module(game: str) -> Any:
    """The module behind ``velvet cards`` for ``game`` (named by its GameSpec)."""
    spec = get_spec(game)
    if spec.cards is None:
        raise ConfigError(f"game '{game}' has no card files")
    return resolve(spec.cards, f"cards of game '{game}'")


@main.group(cls=VelvetGroup)
def deck() -> None:
    """Check deck files (Persona VS)."""


def _deck_games() -> list[str]:
    """The registered games whose seats bring deck files (a ``deck_check`` facet)."""
    return [name for name in game_names() if (spec := find_spec(name)) and spec.deck_check]


@deck.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--game",
    type=click.Choice(_deck_games()),
    default=next(iter(_deck_games()), None),
    show_default=True,
    help="Which game's decks.",
)
@click.option(
    "--cards", "card_paths", multiple=True, type=click.Path(path_type=Path), help=CARDS_HELP
)
def deck_check(files: tuple[Path, ...], game: str, card_paths: tuple[Path, ...]) -> None:
    """Validate deck files against the game's deck rules (VS-DECK-1) and its card set."""
    spec = get_spec(game)
    if spec.deck_check is None:
        raise ConfigError(f"game '{game}' has no deck files")
    check = resolve(spec.deck_check, f"deck check of game '{game}'")
    loaded = get_game(game, card_paths)
    for file in files:
        click.echo(check(file, loaded))


@main.command()
@click.argument("game", required=False)
@click.option("--day", default="today", metavar="YYYY-MM-DD", help="The UTC day (default: today).")
@click.option("--pace", type=click.FloatRange(0, 60), metavar="SECONDS", hidden=True)
def daily(game: str | None, day: str, pace: float | None) -> None:
    """Play the daily challenge of GAME: the day's set-up and seed, as velvet serve's /daily."""
    from datetime import UTC, datetime

    from velvet.engine.daily import daily_setup, parse_day

    having = [n for n in game_names() if (s := find_spec(n)) is not None and s.daily is not None]
    if game is None:
        if len(having) != 1:
            raise ConfigError(f"name the game: games with a daily challenge: {', '.join(having)}")
        game = having[0]
    if game not in having:
        raise ConfigError(
            f"game '{game}' has no daily challenge; games with one: {', '.join(having) or 'none'}"
        )
    spec = get_spec(game)
    loaded = spec.load(())
    setup = daily_setup(spec, loaded, parse_day(day, datetime.now(UTC).date()))
    console = _console()
    chosen = ", ".join(
        f"{name} {' / '.join(map(str, v)) if isinstance(v, list) else v}"
        for name, v in setup.options.items()
    )
    console.print(f"Daily challenge of {setup.day.isoformat()} (UTC): {spec.short_title or game}")
    console.print(f"[dim]Set-up: {chosen}. The same game as velvet serve's /daily page.[/]")
    record = GameRecord.start(loaded, setup.config, setup.seed)
    names = ["human"] * setup.seats
    state = _run(
        loaded,
        setup.config,
        setup.seed,
        _seats(names, setup.seats, game),
        console,
        record,
        spec=spec,
        names=names,
        pace=pace,
    )
    if state.is_terminal():
        console.print(f"{state.outcome_text()}, in {len(record.actions)} actions.")


def _register_games() -> None:
    """A ``velvet play NAME`` command for every registered game."""
    for name in game_names():
        spec = find_spec(name)
        if spec is not None:
            play.add_command(play_command(spec), name)


_register_games()


main.lazy = LAZY_COMMANDS


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
