"""``velvet learn GAME``: the lessons of a game in the terminal (docs/learn.md)."""

from __future__ import annotations

from pathlib import Path

import click

from velvet.engine.errors import ConfigError
from velvet.games import game_names, get_game, get_spec
from velvet.learn.lessons import load_lessons
from velvet.learn.progress import load_progress, progress_path, save_progress


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
    if game_name not in game_names():
        raise ConfigError(f"unknown game '{game_name}': choose {', '.join(game_names())}")
    if only and not folders:
        raise ConfigError("--only needs --lessons DIR: which lessons, then?")
    game = get_game(game_name)
    lessons = load_lessons(game, folders, builtin=not only)
    if not lessons:
        raise ConfigError(f"game '{game_name}' has no lessons: give --lessons DIR")
    if check:
        click.echo(f"{len(lessons)} lessons of {game_name}: all check out")
        return
    if reset:
        try:
            done = load_progress()
        except ConfigError:  # an unreadable file: --reset is the way out it names
            done = {}
        done.pop(game_name, None)
        save_progress(done)
        click.echo(f"Progress of {game_name} forgotten ({progress_path()}).")
        return
    if start is not None and not 1 <= start <= len(lessons):
        raise ConfigError(f"--lesson {start}: choose 1 to {len(lessons)}")
    from rich.console import Console

    from velvet.learn.terminal import Learn

    console = Console(highlight=False)
    runner = Learn(
        game_name, lessons, console, console.input, get_spec(game_name).short_title or game_name
    )
    if list_only:
        console.print(runner.menu_screen())
        return
    runner.run(None if start is None else start - 1)
