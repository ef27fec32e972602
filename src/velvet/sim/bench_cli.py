"""The ``velvet bench`` command (registered by velvet.cli): run a frozen Velvet Bench task."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from velvet.bots import BOT_HELP
from velvet.engine.errors import VelvetError
from velvet.sim.cli import CommandError


@click.command("bench")
@click.argument("task", metavar="TASK")
@click.option(
    "--bot",
    "bots",
    multiple=True,
    metavar="BOT",
    help=f"An entry to rate (repeatable): {BOT_HELP}; or an external agent, "
    "module.path:ClassName (velvet.bot) or cmd:'PROGRAM' (JSON lines, docs/bench.md).",
)
@click.option(
    "--games",
    "-n",
    "n_games",
    type=int,
    default=None,
    help="Seeds per pairing (rivals) or set-ups (co-op); default the task's frozen number. "
    "Fewer games give wider intervals and are not the task's figures.",
)
@click.option("--workers", type=int, default=None, help="Processes (default every core).")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Arena folder (default bench-results/TASK); rerun to resume or add entries.",
)
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def bench_command(
    task: str,
    bots: tuple[str, ...],
    n_games: int | None,
    workers: int | None,
    out: str | None,
    no_progress: bool,
) -> None:
    """Rate bots on a frozen Velvet Bench TASK beside its reference opponents.

    TASK is one of the tasks of docs/bench.md (vs-builtin-v1, p5-solo-v1,
    p5-duo-v1). The task's rules version, card set and set-ups are checked first:
    a Velvet whose cards or rules changed refuses to run it. Prints the arena's
    rating table (Elo with 95 % intervals; co-op: win rates with 95 % intervals).

    \b
    Examples:
        velvet bench vs-builtin-v1 --bot examples.bench_agent:RandomAgent
        velvet bench p5-solo-v1 --bot cmd:'python3 examples/bench_agent.py' --games 20
    """
    try:
        from velvet.sim.bench import get_task, run_task
    except ModuleNotFoundError as error:  # numpy and scipy come with the lab extra
        raise CommandError(f"the bench needs {error.name}: pip install 'velvet[lab]'") from None
    try:
        chosen = get_task(task)
        if n_games is not None and not 0 < n_games <= 10_000_000:
            raise CommandError(f"--games must be a positive number, not {n_games}")
        target = Path(out) if out else Path("bench-results") / chosen.name
        if n_games is not None and n_games != chosen.games:
            click.echo(
                f"note: {n_games} games, not the task's {chosen.games}: these are not "
                f"{chosen.name} figures",
                err=True,
            )
        result = run_task(
            chosen,
            bots,
            target,
            games=n_games,
            workers=workers,
            progress=not no_progress and sys.stderr.isatty(),
            say=click.echo,
        )
    except VelvetError as exc:
        raise CommandError(str(exc)) from None
    click.echo(f"{chosen.name}: {chosen.description}")
    for line in result.lines:
        click.echo(line)
    click.echo(f"  figures in {target / 'ratings.json'}")
    if result.interrupted:
        sys.exit(130)
