"""``velvet print``: the print-and-play PDF of a built-in or custom card set."""

from __future__ import annotations

from pathlib import Path

import click

from velvet.engine.errors import ConfigError
from velvet.games import find_spec, game_names, get_spec

CARDS_HELP = (
    "A card file or folder of *.toml files that extends the built-in set "
    '(or replaces it if the file says [set] mode = "replace"). Repeatable.'
)


def _printable_games() -> list[str]:
    """The registered games whose spec names printed cards (``GameSpec.print_cards``)."""
    return [name for name in game_names() if (spec := find_spec(name)) and spec.print_cards]


@click.command("print")
@click.argument("game", type=click.Choice(_printable_games()))
@click.option(
    "--cards", "card_paths", multiple=True, type=click.Path(path_type=Path), help=CARDS_HELP
)
@click.option(
    "--deck",
    type=click.Path(path_type=Path),
    default=None,
    help="VS only: print the 40 cards of this deck file instead of the whole set.",
)
@click.option(
    "--out", type=click.Path(path_type=Path), required=True, help="The PDF file to write."
)
@click.option(
    "--paper",
    type=click.Choice(["a4", "letter"], case_sensitive=False),
    default="a4",
    show_default=True,
)
@click.option(
    "--backs/--no-backs",
    default=False,
    show_default=True,
    help="After each sheet of faces, a sheet of backs for double-sided printing "
    "(flip on the long edge).",
)
@click.option(
    "--rules/--no-rules", default=True, show_default=True, help="Add the rules summary sheet."
)
@click.option(
    "--boards/--no-boards",
    default=True,
    show_default=True,
    help="P5: add the player boards, palace rows and day track.",
)
def print_command(
    game: str,
    card_paths: tuple[Path, ...],
    deck: Path | None,
    out: Path,
    paper: str,
    backs: bool,
    rules: bool,
    boards: bool,
) -> None:
    """Write print-and-play sheets: every card at real size (63 x 88 mm), 9 to a page.

    \b
    velvet print p5 --out p5-cards.pdf --backs
    velvet print vs --deck my-deck.toml --paper letter --out deck.pdf
    velvet print p5 --cards my-cards.toml --out custom.pdf
    """
    try:
        from velvet.printing.sheets import write_pdf
    except ModuleNotFoundError as missing:
        package = (missing.name or "reportlab").split(".")[0]
        raise ConfigError(
            f"velvet print needs {package}, which is not installed: pip install 'velvet[print]'"
        ) from None

    spec = get_spec(game)
    loaded = spec.load(card_paths)
    result = write_pdf(
        loaded,
        out,
        paper=paper.lower(),
        backs=backs,
        deck=deck,
        rules=rules,
        boards=boards,
        spec=spec,
    )
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    click.echo(result.summary())
