"""``velvet learn GAME``: the lessons of a game in the terminal (docs/learn.md)."""

from __future__ import annotations

from pathlib import Path

import click

from velvet.games import get_spec
from velvet.learn.lessons import load_lessons
from velvet.learn.progress import load_progress, progress_path, save_progress
from velvet.learn.shelf import check_start, collection, forget, say_checked


@click.command("learn")
@click.argument("game_name", metavar="GAME")
@click.option(
    "--lessons",
    "folders",
    multiple=True,
    type=click.Path(path_type=Path),
    help="A folder of *.toml lesson files (or one file) added to the built-in ones; a file "
    "named as a built-in lesson replaces it. Repeatable.",
)
@click.option("--only", is_flag=True, help="Only the lessons of --lessons, not the built-in ones.")
@click.option("--lesson", "start", type=int, metavar="N", help="Start at lesson N.")
@click.option("--list", "list_only", is_flag=True, help="List the lessons with done marks.")
@click.option("--check", is_flag=True, help="Check the lesson files and say how many are good.")
@click.option("--reset", is_flag=True, help="Forget which lessons of GAME are done.")
def learn_command(
    game_name: str,
    folders: tuple[Path, ...],
    only: bool,
    start: int | None,
    list_only: bool,
    check: bool,
    reset: bool,
) -> None:
    """Short lessons of GAME: a position, a goal, and feedback naming the rule.

    Without options: the list of lessons with done marks; Enter resumes at the next one.
    Progress is kept in the data folder (VELVET_DATA_DIR overrides it).
    """
    lessons = collection(
        game_name,
        folders,
        only,
        lambda game: load_lessons(game, folders, builtin=not only),
        "lessons",
        "--lessons",
    )
    if check:
        say_checked(game_name, len(lessons), "lessons")
        return
    if reset:
        forget(game_name, load_progress, save_progress, progress_path, "Progress")
        return
    first = check_start(start, len(lessons), "--lesson")
    from rich.console import Console

    from velvet.learn.terminal import Learn

    console = Console(highlight=False)
    runner = Learn(
        game_name, lessons, console, console.input, get_spec(game_name).short_title or game_name
    )
    if list_only:
        console.print(runner.menu_screen())
        return
    runner.run(first)
