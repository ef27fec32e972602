"""The terminal play loop shared by both games.

It shows the current seat's view, lists ``legal_actions()`` and takes a
number or an action's text form; it never decides a rule itself. Bots get
the view and the legal list only. Hot-seat games that hide hands put a
"pass the screen" prompt between two human seats.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from velvet.bots.base import Bot
from velvet.engine.core import Event, Game, State, choose_by_text
from velvet.engine.errors import VelvetError
from velvet.engine.record import GameRecord, load_game, save_game, write_json_atomic
from velvet.engine.rng import Rng
from velvet.ui.renderers import Renderer, renderer_for

HELP = (
    "Type an action's number or its text form. Other commands: "
    "'save FILE' saves the game, 'load FILE' loads one, 'board' shows the board again, "
    "'help' shows this, 'quit' leaves (you are offered to save)."
)

InputFn = Callable[[str], str]


class QuitGame(Exception):
    """The person asked to leave the game."""


@dataclass
class Session:
    """One game being played at the terminal."""

    game: Game
    record: GameRecord
    state: State
    seats: Sequence[Bot | None]
    console: Console
    ask: InputFn
    renderer: Renderer = field(init=False)
    bot_rngs: list[Rng] = field(init=False)
    last_human: int | None = None
    game_for: Callable[[str], Game] | None = None

    def __post_init__(self) -> None:
        self.renderer = renderer_for(self.game)
        self.bot_rngs = [
            Rng(self.record.seed * 7919 + 101 * seat + 1) for seat in range(len(self.seats))
        ]

    # -- output -------------------------------------------------------------

    def show_events(self, events: list[Event]) -> None:
        for event in events:
            line = self.renderer.event_line(event)
            if line:
                self.console.print(f"  • {line}")

    def show_board(self, player: int) -> None:
        self.console.print(self.renderer.render(self.state.view(player), self.game))

    def show_actions(self, player: int, legal: list[Any]) -> None:
        view = self.state.view(player)
        table = Table(title=f"Player {player + 1}: your choices", show_header=False, box=None)
        table.add_column(justify="right", style="bold cyan")
        table.add_column()
        table.add_column(style="dim")
        for number, action in enumerate(legal, start=1):
            label = self.renderer.action_label(action, view)
            text = str(action)
            table.add_row(str(number), label, "" if label == text else text)
        self.console.print(table)

    # -- turns --------------------------------------------------------------

    def pass_screen(self, player: int) -> None:
        humans = [i for i, s in enumerate(self.seats) if s is None]
        if not self.renderer.hides_hands or len(humans) < 2:
            return
        if self.last_human is not None and self.last_human != player:
            self.console.clear()
            self.console.print(
                Panel(f"Pass the screen to Player {player + 1}, then press Enter.", style="bold")
            )
            self.ask("")
            self.console.clear()
        self.last_human = player

    def bot_turn(self, player: int, bot: Bot) -> None:
        legal = self.state.legal_actions()
        view = self.state.view(player)
        action = bot.choose(self.game, view, legal, self.bot_rngs[player])
        label = self.renderer.action_label(action, view)  # in the position it was chosen in
        events = self.state.apply(action)
        self.record.actions.append(str(action))
        self.console.print(f"[bold magenta]Player {player + 1} ({bot.name})[/]: {label}")
        self.show_events(events)

    def human_turn(self, player: int) -> None:
        self.pass_screen(player)
        self.show_board(player)
        legal = self.state.legal_actions()
        self.show_actions(player, legal)
        while True:
            try:
                text = self.ask(f"Player {player + 1}> ")
            except EOFError as error:
                raise QuitGame from error
            if self.command(text, player):
                if self.state.current_player != player or self.state.legal_actions() != legal:
                    return
                continue
            try:
                action = choose_by_text(self.state, text)
                events = self.state.apply(action)
            except VelvetError as error:
                self.console.print(f"[red]Not allowed:[/] {error}")
                continue
            self.record.actions.append(str(action))
            self.show_events(events)
            return

    def command(self, text: str, player: int) -> bool:
        """Handle a session command; True if ``text`` was one."""
        words = text.split(maxsplit=1)
        if not words:
            return False
        verb = words[0].lower()
        if verb in ("help", "?"):
            self.console.print(HELP)
        elif verb == "quit":
            raise QuitGame
        elif verb == "board":
            self.show_board(player)
            self.show_actions(player, self.state.legal_actions())
        elif verb == "save":
            if len(words) < 2:
                self.console.print("[red]save needs a file name:[/] save FILE")
                return True
            try:
                save_game(Path(words[1]), self.record, self.state)
            except OSError as error:
                self.console.print(f"[red]Could not save:[/] {error.strerror}: {words[1]}")
                return True
            self.console.print(f"Saved to {words[1]}. Resume with: velvet play --load {words[1]}")
        elif verb == "load":
            if len(words) < 2:
                self.console.print("[red]load needs a file name:[/] load FILE")
                return True
            try:
                record, state = load_game(Path(words[1]), self.game_for or (lambda _: self.game))
            except VelvetError as error:
                self.console.print(f"[red]Could not load:[/] {error}")
                return True
            if record.game != self.game.name:
                self.console.print(f"[red]Could not load:[/] it is a game of '{record.game}'")
                return True
            self.record, self.state = record, state
            self.console.print(f"Loaded {words[1]}.")
        else:
            return False
        return True

    def run(self) -> State:
        """Play until the game ends or a person quits; returns the final state."""
        try:
            while not self.state.is_terminal():
                player = self.state.current_player
                bot = self.seats[player] if player < len(self.seats) else None
                if bot is None:
                    self.human_turn(player)
                else:
                    self.bot_turn(player, bot)
        except QuitGame:
            self.console.print("Leaving the game.")
            self.offer_save()
            return self.state
        self.end_screen()
        return self.state

    def end_screen(self) -> None:
        self.show_board(0)
        self.console.print(
            Panel(
                f"[bold]Game over[/]: {self.state.outcome_text()}\n"
                f"{len(self.record.actions)} actions, seed {self.record.seed}.",
                title="The end",
                style="green",
            )
        )
        self.offer_save(finished=True)

    def offer_save(self, finished: bool = False) -> None:
        what = "game record (for velvet replay)" if finished else "game (to resume later)"
        try:
            name = self.ask(f"Save the {what} to a file? Name, or Enter to skip: ").strip()
        except EOFError:
            return
        if not name:
            return
        try:
            if finished:
                write_json_atomic(Path(name), self.record.to_json())
            else:
                save_game(Path(name), self.record, self.state)
        except OSError as error:
            self.console.print(f"[red]Could not save:[/] {error.strerror}: {name}")
            return
        self.console.print(f"Saved to {name}.")


def replay(
    game: Game,
    record: GameRecord,
    console: Console,
    *,
    viewer: int = 0,
    step: bool = False,
    ask: InputFn = input,
) -> State:
    """Print a finished (or partial) game action by action, then the final board."""
    renderer = renderer_for(game)
    state: State | None = None
    for number, (state, text, events) in enumerate(record.steps(game)):
        if text is None:
            console.print(f"[bold]{game.name}[/] seed {record.seed}, {len(record.actions)} actions")
            continue
        console.print(f"[bold cyan]{number:>4}[/] {text}")
        for event in events:
            line = renderer.event_line(event)
            if line:
                console.print(f"       • {line}")
        if step:
            console.print(renderer.render(state.view(viewer), game))
            try:
                if ask("Enter for the next action, q to stop: ").strip().lower() == "q":
                    break
            except EOFError:
                break
    assert state is not None
    console.print(renderer.render(state.view(viewer), game))
    console.print(Panel(state.outcome_text(), title="Result"))
    return state
