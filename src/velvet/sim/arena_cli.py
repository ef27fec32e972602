"""The ``velvet arena`` command (registered by velvet.cli)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from velvet.bots import BOT_HELP
from velvet.engine.errors import VelvetError
from velvet.sim.cli import (
    CommandError,
    SimCommand,
    _check_game_name,
    parallel_options,
    parse_options,
)


@click.command("arena", cls=SimCommand)
@click.argument("game", metavar="GAME")
@click.option(
    "--bot",
    "bots",
    multiple=True,
    metavar="BOT",
    help=f"A bot to rate (repeat: at least two for a game of rivals): {BOT_HELP}; or an "
    "external agent: module.path:ClassName (velvet.bot) or cmd:'PROGRAM' (JSON lines; "
    "docs/bench.md). An agent that misbehaves loses that game by forfeit.",
)
@click.option(
    "--games",
    "-n",
    "n_games",
    type=int,
    default=100,
    show_default=True,
    help="Rivals: seeds per pairing, each played twice (seats swapped), so 2N games a "
    "pairing; co-op: set-ups per bot. With --sprt: the most game pairs before giving up.",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Base seed: game i of every run is seeded by velvet.sim.run.game_seed(seed, i).",
)
@click.option(
    "--pairs",
    type=click.Choice(["all", "chain"]),
    default="all",
    show_default=True,
    help="Rivals: play every two bots (all), or each bot with the next one given (chain: "
    "a ladder in fewer games).",
)
@click.option(
    "--anchor",
    default=None,
    metavar="BOT|mean",
    help="Rivals: the bot rated 0 (default: the first --bot), or 'mean' for ratings averaging 0.",
)
@click.option(
    "--sprt",
    "sprt_text",
    default=None,
    metavar="ELO0,ELO1",
    help="Rivals, two bots: a sequential test (GSPRT on game pairs) of H0 'the first bot is "
    "ELO0 Elo stronger than the second' against H1 'ELO1 stronger' (logistic Elo, e.g. "
    "0,50); stops as soon as it is decided, printing the LLR and its bounds as it goes.",
)
@click.option("--alpha", type=float, default=0.05, show_default=True, help="SPRT: false H1 rate.")
@click.option("--beta", type=float, default=0.05, show_default=True, help="SPRT: false H0 rate.")
@click.option(
    "--sprt-model",
    type=click.Choice(["pentanomial", "trinomial"]),
    default="pentanomial",
    show_default=True,
    help="SPRT: score game pairs (pentanomial) or single games (trinomial).",
)
@click.option(
    "--batch",
    type=int,
    default=None,
    help="SPRT: game pairs between two looks at the LLR (default 2 per worker).",
)
@click.option(
    "--players",
    type=int,
    default=1,
    show_default=True,
    help="Co-op games: seats per game, every seat the bot being rated.",
)
@click.option(
    "--vary-setup/--same-setup",
    "vary",
    default=None,
    help="Draw each game's set-up from its seed (as `velvet sim --vary-setup`), the same "
    "for every bot. Default: vary for co-op games, the default set-up (or --option) for "
    "rivals.",
)
@click.option(
    "--option",
    "-o",
    "option_texts",
    multiple=True,
    metavar="NAME=VALUE",
    help="A set-up option of GAME as for `velvet sim` (e.g. -o palace=kamoshida); "
    "implies --same-setup unless --vary-setup is given.",
)
@click.option(
    "--cards",
    "card_paths",
    multiple=True,
    type=click.Path(dir_okay=False),
    metavar="PATH",
    help="A custom card file extending or replacing the cards (repeatable).",
)
@parallel_options
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Arena folder (default arena-results/GAME-seedN): one velvet sim results folder "
    "per bot or pairing, arena.json and ratings.json. Rerunning into the same folder plays "
    "only the missing games; more bots or --games add to it.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["parquet", "csv"]),
    default=None,
    help="Result chunk format (default parquet when pyarrow is installed).",
)
@click.option(
    "--max-actions",
    type=int,
    default=20_000,
    show_default=True,
    help="Stop a game after this many actions and record it as an error.",
)
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def arena_command(
    game: str,
    bots: tuple[str, ...],
    n_games: int,
    seed: int,
    pairs: str,
    anchor: str | None,
    sprt_text: str | None,
    alpha: float,
    beta: float,
    sprt_model: str,
    batch: int | None,
    players: int,
    vary: bool | None,
    option_texts: tuple[str, ...],
    card_paths: tuple[str, ...],
    workers: int | None,
    backend: str,
    address: str | None,
    out: str | None,
    fmt: str | None,
    max_actions: int,
    no_progress: bool,
) -> None:
    """Rate bots of GAME on paired games: ratings with 95 % intervals, or an SPRT.

    vs: every pairing plays each seed twice, seats swapped; prints Bradley-Terry
    ratings (maximum likelihood, Elo scale) with 95 % intervals and each pairing's
    wins, score and Elo from its game pairs. p5 (co-op): every bot plays the same
    set-ups; prints each bot's win rate and median winning day, by palace, and
    every two bots compared on the same set-ups. Ctrl-C keeps the finished games;
    the same command again plays only the missing ones.

    \b
    Examples:
        velvet arena vs --bot random --bot greedy --bot normal --games 50
        velvet arena p5 --bot easy --bot normal --games 40
        velvet arena vs --bot hard --bot normal --sprt 0,50 --games 500
    """
    try:
        from velvet.sim.arena import ArenaOptions, SprtTest, run_arena
    except ModuleNotFoundError as error:  # numpy and scipy come with the lab extra
        raise CommandError(f"the arena needs {error.name}: pip install 'velvet[lab]'") from None
    from velvet.games import get_spec

    _check_game_name(game)
    try:
        if not bots:
            raise CommandError(
                "give the bots to rate: --bot A --bot B (e.g. --bot random --bot greedy)"
            )
        if not 0 < n_games <= 10_000_000:
            raise CommandError(f"--games must be a positive number, not {n_games}")
        test = SprtTest.parse(sprt_text, alpha, beta, sprt_model) if sprt_text else None
        if sprt_text is None and (batch is not None or sprt_model != "pentanomial"):
            raise CommandError("--batch and --sprt-model are for an SPRT: add --sprt ELO0,ELO1")
        sim_game = get_spec(game)
        loaded = sim_game.load(card_paths)
        seats = players if sim_game.cooperative else 2
        if sim_game.cooperative and seats not in loaded.num_players:
            allowed = ", ".join(str(n) for n in loaded.num_players)
            raise CommandError(f"--players {players}: {game} is for {allowed} players")
        if not sim_game.cooperative and players != 1:
            raise CommandError(f"--players is for co-op games; {game} has its bots play each other")
        options = parse_options(sim_game, option_texts)
        config = sim_game.config_for(loaded, seats, options)
        if vary is None:
            vary = sim_game.cooperative and not option_texts
        target = (
            Path(out) if out else Path("arena-results") / f"{game.replace(':', '-')}-seed{seed}"
        )
        result = run_arena(
            game,
            bots,
            target,
            ArenaOptions(
                n_games=n_games,
                seed=seed,
                config=config,
                cards=tuple(card_paths),
                vary=vary,
                players=seats,
                workers=workers,
                backend="ray" if backend == "ray" else "pool",
                ray_address=address,
                fmt=fmt,
                max_actions=max_actions,
                progress=not no_progress and sys.stderr.isatty(),
                pairs=pairs,
                anchor=anchor,
                sprt=test,
                batch=batch,
            ),
            say=click.echo,
        )
    except VelvetError as exc:
        raise CommandError(str(exc)) from None
    for line in result.lines:
        click.echo(line)
    click.echo(f"  figures in {target / 'ratings.json'}")
    if result.interrupted:
        sys.exit(130)
