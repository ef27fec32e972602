"""``velvet review RECORD``: every decision of a game judged from its mover's view, drawn as a
chart of the chance to win with the mistakes marked (docs/learn.md, "Review")."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

import click

from velvet.engine.errors import ConfigError

if TYPE_CHECKING:
    from rich.console import Console, JustifyMethod, RenderableType

    from velvet.learn.review import Decision, Review

BLOCKS = " ▁▂▃▄▅▆▇█"
CHART_ROWS = 4
"""Rows of the chance chart: 4 rows of eighths, 32 steps from 0 % to 100 %."""
SEAT_STYLES = ("cyan", "magenta", "yellow", "green")


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.0%}"


def columns(values: list[tuple[float, bool]], width: int) -> list[tuple[float, bool]]:
    """``values`` (chance, mistake) squeezed into ``width`` columns: a column holds the
    lowest chance of its decisions and is a mistake if any of them is."""
    if len(values) <= width:
        return values
    out = []
    for c in range(width):
        lo, hi = c * len(values) // width, (c + 1) * len(values) // width
        part = values[lo:hi] or values[lo : lo + 1]
        out.append((min(v for v, _ in part), any(m for _, m in part)))
    return out


def chart(result: Review, seat: int, width: int = 60) -> RenderableType:
    """The chance chart of one seat: after each of its judged decisions, its chance to win
    (four rows of blocks), with ▲ under its mistakes and the first and last move numbers."""
    from rich.text import Text

    mine = [d for d in result.decisions if d.mover == seat and d.judged]
    style = SEAT_STYLES[seat % len(SEAT_STYLES)]
    out = Text()
    out.append(f"Player {seat + 1}", style=f"bold {style}")
    out.append(f"  chance to win after each of {len(mine)} decisions\n")
    if not mine:
        out.append("  (no decision to judge)\n")
        return out
    cols = columns([(d.after or 0.0, d.mistake) for d in mine], width)
    steps = CHART_ROWS * (len(BLOCKS) - 1)
    heights = [round(v * steps) for v, _ in cols]
    for row in range(CHART_ROWS, 0, -1):
        axis = {CHART_ROWS: "100% ┤", 1: "  0% ┤"}.get(row, "     │")
        out.append(axis, style="dim")
        for (_, bad), h in zip(cols, heights, strict=True):
            fill = min(max(h - (row - 1) * (len(BLOCKS) - 1), 0), len(BLOCKS) - 1)
            out.append(BLOCKS[fill], style="red" if bad else style)
        out.append("\n")
    out.append("      ", style="dim")
    out.append("".join("▲" if bad else " " for _, bad in cols).rstrip(), style="bold red")
    out.append("\n")
    first, last = f"move {mine[0].index}", f"move {mine[-1].index}"
    gap = max(len(cols) - len(first) - len(last), 1)
    out.append(f"      {first}{' ' * gap}{last}\n", style="dim")
    return out


def mistake_lines(d: Decision) -> RenderableType:
    """One mistake: the move, the drop and its margin, the better move and why."""
    from rich.text import Text

    assert d.best is not None and d.played is not None  # a mistake was judged
    out = Text()
    out.append(f"✗ move {d.index} · Player {d.mover + 1} played ", style="bold red")
    out.append(f"“{d.label}”", style="bold")
    out.append(
        f": {_pct(d.before)} → {_pct(d.after)} (a drop of {d.drop:.0%}, margin ±{d.margin:.0%})\n"
    )
    out.append("    Better: ", style="bold green")
    out.append(f"{d.best.label} ({_pct(d.best.win)}) — {d.best.reason}")
    return out


def decisions_table(result: Review) -> RenderableType:
    """Every decision in a row: the move, who, the chance before and after, the verdict."""
    from rich.table import Table

    table = Table(title="Every decision", title_justify="left", expand=False)
    headers: tuple[tuple[str, JustifyMethod], ...] = (
        ("move", "right"),
        ("player", "left"),
        ("played", "left"),
        ("before → after", "left"),
        ("best move", "left"),
    )
    for name, kind in headers:
        table.add_column(name, justify=kind, overflow="fold")
    for d in result.decisions:
        if d.best is None or d.played is None:
            table.add_row(str(d.index), f"P{d.mover + 1}", d.label, "forced", "", style="dim")
            continue
        same = d.best.action == d.played.action
        table.add_row(
            f"{'✗ ' if d.mistake else ''}{d.index}",
            f"P{d.mover + 1}",
            d.label,
            f"{_pct(d.before)} → {_pct(d.after)} ±{d.margin:.0%}",
            "=" if same else d.best.label,
            style="red" if d.mistake else None,
        )
    return table


def render(result: Review, console: Console, every: bool = False) -> None:
    """The review as a person reads it: a head line, a chart per seat, the mistakes."""
    judged = [d for d in result.decisions if d.judged]
    forced = sum(1 for d in result.decisions if not d.judged)
    head = (
        f"Review of a {result.game} game: {result.moves} moves, {len(judged)} decisions "
        f"judged ({forced} forced), {len(result.mistakes)} "
        f"mistake{'' if len(result.mistakes) == 1 else 's'}"
    )
    console.print(f"[bold]{head}[/bold]")
    if result.outcome:
        console.print(result.outcome)
    console.print(
        f"Chances are from each mover's own view at the time, {result.assumes} "
        f"(up to {result.simulations} simulations"
        + (f" or {result.seconds:g} s" if result.seconds is not None else "")
        + " per decision).",
        style="dim",
    )
    width = max(min(console.width - 8, 72), 10)
    for seat in sorted({d.mover for d in result.decisions}):
        console.print(chart(result, seat, width))
    if every:
        console.print(decisions_table(result))
    if not result.mistakes:
        console.print("No mistake beyond the estimates' margins.")
    for decision in result.mistakes:
        console.print(mistake_lines(decision))


@click.command("review")
@click.argument("record_file", metavar="RECORD", type=click.Path(path_type=Path))
@click.option(
    "--cards",
    "card_paths",
    multiple=True,
    type=click.Path(path_type=Path),
    help="The same --cards the game was played with.",
)
@click.option(
    "--seat",
    "seats",
    multiple=True,
    type=int,
    help="Judge only this player's decisions, counted from 1. Repeatable (default: all).",
)
@click.option(
    "--seconds",
    type=float,
    default=0.5,
    show_default=True,
    help="Search time per decision (a 100-move game: under 60 s on one worker).",
)
@click.option(
    "--simulations",
    type=int,
    default=800,
    show_default=True,
    help="Most simulations per decision (the search stops at whichever comes first).",
)
@click.option(
    "--workers",
    type=int,
    default=1,
    show_default=True,
    help="Worker processes (0: in this process).",
)
@click.option("--all", "every", is_flag=True, help="List every decision, not only the mistakes.")
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON (for tools).")
def review_command(
    record_file: Path,
    card_paths: tuple[Path, ...],
    seats: tuple[int, ...],
    seconds: float,
    simulations: int,
    workers: int,
    every: bool,
    as_json: bool,
) -> None:
    """Judge every decision of a game record (or a save) from its mover's own view.

    For each move with a choice: the mover's chance to win before and after it, from
    what that player could see then (no hidden cards, no later dice), a chart of it, and
    the mistakes (a drop beyond the estimates' margin) with the better move and why.

    \b
    velvet review game.json
    velvet review game.json --seat 1 --seconds 1 --all
    velvet review game.json --json > review.json
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from velvet.engine.record import load_record
    from velvet.games import get_game
    from velvet.learn.review import review

    if not (math.isfinite(seconds) and seconds > 0):
        raise ConfigError(f"--seconds must be more than 0, not {seconds}")
    if simulations < 1:
        raise ConfigError(f"--simulations must be 1 or more, not {simulations}")
    if workers < 0:
        raise ConfigError(f"--workers must be 0 or more, not {workers}")
    if any(s < 1 for s in seats):
        raise ConfigError(f"--seat counts players from 1, not {min(seats)}")
    record = load_record(record_file, lambda name: get_game(name, card_paths))
    game = get_game(record.game, card_paths)
    errors = Console(stderr=True)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=errors,
        transient=True,
        disable=not errors.is_terminal,
    ) as bar:
        task = bar.add_task("Reviewing decisions", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = review(
            game,
            record,
            seconds=seconds,
            simulations=simulations,
            workers=workers,
            seats=[s - 1 for s in seats] if seats else None,
            progress=progress,
        )
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    console = Console(highlight=False)
    render(result, console, every)
    if result.mistakes:
        console.print(
            f"Puzzles of your mistakes: velvet puzzle {record.game} --from {record_file}",
            style="dim",
            soft_wrap=True,
        )
