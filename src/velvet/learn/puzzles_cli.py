"""``velvet puzzle GAME``: puzzles in the terminal: a position, your move, right or wrong and
why, then the next one (docs/learn.md, "Puzzles")."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import click
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.text import Text

from velvet.engine.core import choose_by_text, player_name
from velvet.engine.errors import ConfigError, VelvetError
from velvet.engine.files import one_line
from velvet.games import get_spec
from velvet.learn.puzzles import Puzzle, load_puzzles
from velvet.learn.puzzles_play import (
    GameProgress,
    attempt,
    load_progress,
    of_game,
    progress_path,
    save_progress,
)
from velvet.learn.shelf import check_start, collection, forget, say_checked
from velvet.ui.renderers import renderer_for

WIDTH = 80
PROMPT = "Your move (or skip, quit) > "


def clip(text: str, width: int = WIDTH - 1) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


class QuitPuzzles(Exception):
    """The person left (quit, or end of input)."""


class Solve:
    """The puzzles of one game at one console, with the person's progress and rating."""

    def __init__(
        self,
        game_name: str,
        puzzles: Sequence[Puzzle],
        console: Console,
        ask: Callable[[str], str],
        title: str = "",
    ) -> None:
        self.game_name = game_name
        self.puzzles = list(puzzles)
        self.console = console
        self.ask = ask
        self.title = title or game_name

    def progress(self) -> GameProgress:
        return of_game(load_progress(), self.game_name)

    def next_index(self, after: int = -1) -> int:
        """The next puzzle not yet solved after index ``after`` (wrapping), else the next."""
        solved = set(self.progress().solved)
        count = len(self.puzzles)
        for step in range(1, count + 1):
            index = (after + step) % count
            if self.puzzles[index].id not in solved:
                return index
        return (after + 1) % count

    def screen(self, puzzle: Puzzle, message: Sequence[str] = ()) -> RenderableType:
        state = puzzle.start()
        renderer = renderer_for(puzzle.game)
        board = (renderer.compact or renderer.render)(state.view(puzzle.seat), puzzle.game)
        progress = self.progress()
        number = self.puzzles.index(puzzle) + 1
        rating = progress.rating_of(puzzle.id).rating
        parts: list[RenderableType] = [
            Text.from_markup(
                f"[bold]{escape(puzzle.title)}[/] ({number} of {len(self.puzzles)}) "
                f"[dim]puzzle rating {rating:.0f} · yours {progress.solver.rating:.0f} · "
                f"{len(progress.solved)} solved[/]"
            ),
            board,
            Text.from_markup(
                f"[bold green]You are {player_name(puzzle.seat)}.[/] One move is clearly the "
                "best from what you can see: find it."
            ),
        ]
        for index, label in enumerate(state.action_labels().values()):
            parts.append(Text(clip(f" {index + 1:>2}. {label}")))
        parts += [
            Text(line, style="yellow" if line.startswith(("error", "Not")) else "")
            for line in message
        ]
        return Group(*parts)

    def play(self, puzzle: Puzzle) -> str:
        """One puzzle: 'next' or 'quit' afterwards."""
        state = puzzle.start()
        message: list[str] = []
        while True:
            self.show(self.screen(puzzle, message))
            word = self.read(PROMPT).strip()
            low = word.lower()
            if low in ("q", "quit", "exit"):
                return "quit"
            if low in ("s", "skip"):
                return "next"
            if not word:
                message = []
                continue
            answer = attempt(puzzle, state, word)
            if answer.right is None:
                message = list(answer.lines)
                continue
            return self.answered(puzzle, answer.right, answer.lines)

    def answered(self, puzzle: Puzzle, right: bool, lines: Sequence[str]) -> str:
        try:
            done = load_progress()
            progress = of_game(done, self.game_name)
            rated = progress.record(puzzle.id, right)
            save_progress(done)
            note = (
                f"Your rating: {progress.solver.rating:.0f} (± {progress.solver.rd:.0f})"
                if rated
                else "Tried before: not rated again."
            )
        except VelvetError as error:
            note = f"(progress not saved: {one_line(str(error), 120)})"
        mark = "[bold green]✓ Solved[/]" if right else "[bold yellow]✗ Not solved[/]"
        parts: list[RenderableType] = [
            Text.from_markup(f"{mark}: {escape(puzzle.title)}"),
            *[Text(line) for line in lines],
            *played_line(puzzle),
            Text(note, style="dim"),
            Text("Enter: next puzzle · q: quit", style="dim"),
        ]
        self.show(Group(*parts))
        return "quit" if self.read("> ").strip().lower() in ("q", "quit", "exit") else "next"

    def run(self, start: int | None = None) -> None:
        index = start if start is not None else self.next_index()
        try:
            while self.play(self.puzzles[index]) == "next":
                index = self.next_index(index)
        except QuitPuzzles:
            return

    def show(self, screen: RenderableType) -> None:
        self.console.clear()
        self.console.print(screen)

    def read(self, prompt: str) -> str:
        try:
            return self.ask(prompt)
        except (EOFError, KeyboardInterrupt) as error:
            raise QuitPuzzles from error


@click.command("puzzle")
@click.argument("game_name", metavar="GAME")
@click.option(
    "--puzzles",
    "folders",
    multiple=True,
    type=click.Path(path_type=Path),
    help="A folder of *.toml puzzle files (or one file) added to the built-in ones; a file "
    "named as a built-in puzzle replaces it. Repeatable.",
)
@click.option("--only", is_flag=True, help="Only the puzzles of --puzzles, not the built-in ones.")
@click.option("--puzzle", "start", type=int, metavar="N", help="Start at puzzle N.")
@click.option("--check", is_flag=True, help="Check the puzzle files and say how many are good.")
@click.option("--reset", is_flag=True, help="Forget the puzzle progress and ratings of GAME.")
@click.option(
    "--from",
    "record_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A game record (a saved game, or a finished game's downloaded record): make puzzles "
    "of its mistakes, the moves where one move was clearly best and another was played, "
    "then solve them.",
)
@click.option(
    "--seat",
    "seats",
    multiple=True,
    type=int,
    help="With --from: whose moves (1-based; repeatable). Default: the record's people.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="With --from: where the puzzle files go (default: the data folder's puzzles/mine/GAME).",
)
def puzzle_command(
    game_name: str,
    folders: tuple[Path, ...],
    only: bool,
    start: int | None,
    check: bool,
    reset: bool,
    record_file: Path | None,
    seats: tuple[int, ...],
    out: Path | None,
) -> None:
    """Puzzles of GAME from bot games: find the clearly best move, see why, go on.

    Progress and Glicko-2 ratings (yours and each puzzle's) are kept in the data folder
    (VELVET_DATA_DIR overrides it). New puzzles: benchmarks/puzzles.py (docs/learn.md).
    With --from RECORD: puzzles of your own mistakes in that game, judged from your view
    at the time (a minute or more a game: each move is searched deeply).

    \b
    velvet puzzle vs
    velvet puzzle p5 --from game.json
    velvet puzzle vs --from game.json --seat 2 --out my-puzzles
    """
    if record_file is None and (seats or out is not None):
        raise ConfigError("--seat and --out go with --from RECORD")
    if record_file is not None:
        folders, only = (mine_record(game_name, record_file, seats, out),), True
    puzzles = collection(
        game_name,
        folders,
        only,
        lambda game: load_puzzles(game, folders, builtin=not only),
        "puzzles",
        "--puzzles",
    )
    if check:
        say_checked(game_name, len(puzzles), "puzzles")
        return
    if reset:
        forget(game_name, load_progress, save_progress, progress_path, "Puzzle progress")
        return
    first = check_start(start, len(puzzles), "--puzzle")
    load_progress()  # an unreadable progress file is an error before the first screen
    console = Console(highlight=False)
    title = get_spec(game_name).short_title or game_name
    Solve(game_name, puzzles, console, console.input, title).run(first)


def played_line(puzzle: Puzzle) -> list[Text]:
    """A mistake puzzle's reminder of what was played in the game (none for a bot game's)."""
    source = puzzle.source
    if source is None or source.played is None:
        return []
    try:
        state = puzzle.start()
        label = state.action_label(choose_by_text(state, source.played))
    except VelvetError:
        label = source.played
    return [Text(f"In your game you played: {label}.")]


def mine_record(game_name: str, record_file: Path, seats: Sequence[int], out: Path | None) -> Path:
    """``--from``: the record's mistake puzzles written to ``out`` (the data folder's
    ``puzzles/mine/GAME`` by default), that folder returned; ConfigError when it has none."""
    from velvet.engine.record import load_record
    from velvet.games import get_game
    from velvet.learn.puzzles import write_mistakes
    from velvet.ui.terminal import data_dir

    if any(s < 1 for s in seats):
        raise ConfigError(f"--seat counts players from 1, not {min(seats)}")
    record = load_record(record_file, get_game)
    if record.game != game_name:
        raise ConfigError(f"{record_file} is a game of {record.game}, not {game_name}")
    game = get_game(record.game)
    folder = out if out is not None else data_dir() / "puzzles" / "mine" / game_name
    errors = Console(stderr=True, highlight=False, soft_wrap=True)  # a path is never cut
    errors.print(f"Looking for your mistakes in {record_file} (each move is searched deeply)…")
    made = write_mistakes(
        game,
        record,
        folder,
        [s - 1 for s in seats] or None,
        progress=lambda line: errors.print(f"  {escape(line)}"),
    )
    if not made:
        raise ConfigError(
            f"no puzzle in {record_file}: no move missed one that was clearly best "
            "(or the positions do not fit the puzzle format)"
        )
    errors.print(f"{len(made)} puzzle(s) of your mistakes in {folder}")
    return folder
