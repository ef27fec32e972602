"""``velvet balance check``: the seeded balance games against the stored bands."""

from __future__ import annotations

from pathlib import Path

import click

from velvet.sim.balance import BANDS_FILE, Outcome, check


@click.group("balance")
def balance_command() -> None:
    """Check win rates per P5 palace and VS deck pairing against balance.toml."""


@click.command("check")
@click.option(
    "--cards",
    "card_paths",
    multiple=True,
    type=click.Path(path_type=Path),
    help="A custom card file or folder (extends or replaces the built-in set). Repeatable.",
)
@click.option(
    "--game",
    metavar="GAME",
    default=None,
    help="Only this game's bands (needed with --cards): a registered game whose spec has "
    "balance bands (velvet.sim.balance.balanced_games()).",
)
@click.option("--full", is_flag=True, help="The full profile (normal bots; tens of minutes).")
@click.option(
    "--bands",
    type=click.Path(path_type=Path),
    default=BANDS_FILE,
    show_default="the built-in balance.toml",
    help="The bands file.",
)
@click.option(
    "--only",
    multiple=True,
    metavar="SUBJECT",
    help="Only this band's subject (a palace, a deck pairing ...). Repeatable.",
)
def balance_check(
    card_paths: tuple[Path, ...],
    game: str | None,
    full: bool,
    bands: Path,
    only: tuple[str, ...],
) -> None:
    """Play fixed, seeded games and fail if a win rate leaves its band.

    \b
    velvet balance check                      # the short profile (CI)
    velvet balance check --game vs --cards my.toml   # what custom cards do to the rates
    velvet balance check --full --only p5-p4  # one pairing with normal bots
    """

    def show(outcome: Outcome) -> None:
        click.echo(outcome.line())

    profile = "full" if full else "short"
    outcomes = check(profile, card_paths, bands, only, progress=show, game=game)
    failed = [o for o in outcomes if not o.ok]
    banded = sum(o.banded for o in outcomes)
    new = len(outcomes) - banded
    extra = f"; {new} without a band measured" if new else ""
    if failed:
        names = ", ".join(o.entry.subject for o in failed)
        click.echo(
            f"balance check failed: {len(failed)} of {banded} outside their band ({names}){extra}",
            err=True,
        )
        raise click.exceptions.Exit(1)
    click.echo(f"balance check passed: {banded} of {banded} inside their band{extra}")


balance_command.add_command(balance_check)
