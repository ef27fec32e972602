"""The terminal play loop shared by both games.

It shows the current seat's view (a compact board that fits 80 x 24, the full
one on ``board``), lists ``legal_actions()`` grouped, numbered and paged in the
words of the contract (``state.action_label``; events by ``game.event_text``)
and takes a number, an action's text form or its words, always matched through
the legal list: it never decides a rule itself. Bots get the view and the legal
list only. Games whose GameSpec hides hands put a "pass the screen" prompt
between two human seats, and every screen shows events as the seat whose screen it
is may see them (``game.event_for``). ``hint`` asks the hard bot's search for the best
choices of the deciding seat, from its view only (``velvet.bots.hints``). See
docs/terminal.md.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from velvet.bots.base import Bot
from velvet.bots.budget import Budget
from velvet.bots.hints_cli import forecast_assumes, spread_note
from velvet.engine.core import (
    CardInfo,
    Event,
    Game,
    State,
    canonical_json,
    choose_by_text,
)
from velvet.engine.errors import ConfigError, VelvetError
from velvet.engine.files import one_line
from velvet.engine.names import norm as _norm
from velvet.engine.record import GameRecord, load_game, save_game, write_json_atomic
from velvet.engine.rng import Rng
from velvet.engine.undo import UndoLedger
from velvet.i18n import N_, _, localize, ngettext
from velvet.i18n import seat_name as player_name
from velvet.ui.choose import InvalidAction, number_problem, pick, pick_name
from velvet.ui.renderers import Renderer, renderer_for

HELP = N_(
    "Type an action's number, its text form or its words ('visit Weapons Shop'); Tab "
    "completes. Other commands: 'info NAME' or '?NAME' describes a card, 'more' shows the "
    "next page of choices, 'log' shows every event so far ('log 20': the last 20), "
    "'hint' shows the hard bot's three best choices for you with their chance to win if "
    "you play on like the easy bot and why ('hint 2s' or 'hint 3000' thinks longer), "
    "'forecast' (P5) plays games from here with the easy bot and gives the chance to beat "
    "the boss if you play like it ('forecast 100': more games, a smaller margin), 'undo' "
    "takes back your last move (while no dice, draw or hidden card was revealed since), "
    "'board' shows the full board, 'save FILE' saves the game, 'load FILE' loads one, "
    "'help' shows this, 'quit' leaves (you are offered to save)."
)
COMMANDS = (
    "info ",
    "more",
    "log",
    "hint",
    "forecast",
    "undo",
    "board",
    "save ",
    "load ",
    "help",
    "quit",
)
FORECAST_GAMES = 20
"""Games the ``forecast`` command plays by default (a few seconds)."""
MAX_FORECAST_GAMES = 1000
DEFAULT_PACE = 0.6
"""Seconds between bot moves when a person watches (``--pace`` sets it)."""

RECAP_ROWS = 5
"""Most rows the recap takes (the last events since a seat's last choice, one row each)."""
MIN_CHOICES = 3
"""Fewest rows of choices a decision screen keeps (the recap gives way first)."""
CHOICE_ROWS = 4
"""Rows around the choices: their heading, the page line, the prompt, one spare."""
MAX_LOG_LINES = 100_000

InputFn = Callable[[str], str]


@dataclass(frozen=True)
class Played:
    """A move of the game and its events, as the recap and ``log`` tell it."""

    index: int
    """Its place in the record's actions."""
    mover: int
    label: str
    events: list[Event]
    bot: str = ""
    """The bot's name when a bot made it."""


def played_moves(game: Game[Any], record: GameRecord) -> list[Played]:
    """The moves of a record with their events, replayed (empty if it does not replay)."""
    out: list[Played] = []
    mover, before = 0, None
    try:
        for state, text, events in record.steps(game):
            if text is not None and before is not None:
                label = before.action_label(choose_by_text(before, text))
                out.append(Played(len(out), mover, label, list(events)))
            if not state.is_terminal():
                mover, before = state.current_player, state.clone()
    except VelvetError:
        return out
    return out


MAX_LINE = 500
"""Longest line read at the prompt (an action's text is far shorter)."""
AUTOSAVE_FOLDER = "games"
"""Where in the data folder each game in progress has its own autosave."""
LEGACY_AUTOSAVE = "last-game.json"
"""The one autosave of earlier versions (still found by ``velvet resume``)."""


def data_dir() -> Path:
    """The user's data folder for Velvet (``VELVET_DATA_DIR`` overrides it)."""
    override = os.environ.get("VELVET_DATA_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("velvet", appauthor=False))


def autosave_path(record: GameRecord) -> Path:
    """The autosave of the game ``record`` starts: one file per game, named by the game
    and a digest of its seed, set-up and cards (the seed itself stays secret), so two
    games never share one and resuming a game keeps writing to its own."""
    key = canonical_json(
        {
            "game": record.game,
            "seed": record.seed,
            "config": record.config,
            "cards": record.cardset_hash,
        }
    )
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return data_dir() / AUTOSAVE_FOLDER / f"{record.game}-{digest}.json"


def autosaves() -> list[Path]:
    """Every autosave in the data folder, the last one written first."""
    folder = data_dir() / AUTOSAVE_FOLDER
    found = [path for path in folder.glob("*.json") if path.is_file()] if folder.is_dir() else []
    legacy = data_dir() / LEGACY_AUTOSAVE
    if legacy.is_file():
        found.append(legacy)

    def written(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:
            return 0.0

    return sorted(found, key=written, reverse=True)


CLEAR_SCROLLBACK = "\x1b[3J"
"""Erase the terminal's scroll-back (terminfo's E3; xterm, tmux, the Linux console...)."""
SCROLLBACK_TERMS = ("alacritty", "xterm-kitty", "foot", "wezterm", "xterm-ghostty", "contour")
"""Terminals that erase their scroll-back on ESC[3J though this machine may lack their
terminfo entry."""


@functools.lru_cache(maxsize=8)
def clears_scrollback(term: str | None) -> bool:
    """Whether the terminal ``term`` (a TERM value) is known to erase its scroll-back on
    ESC[3J: its terminfo entry has E3 (asked of ``tput``), or it is one of
    :data:`SCROLLBACK_TERMS`, or it is Windows Terminal. Unknown terminals are not."""
    if os.environ.get("WT_SESSION"):
        return True
    if not term or term == "dumb":
        return False
    if term.split("-")[0] in SCROLLBACK_TERMS or term in SCROLLBACK_TERMS:
        return True
    import shutil
    import subprocess

    tput = shutil.which("tput")
    if tput is None:
        return False
    try:
        done = subprocess.run([tput, "-T", term, "E3"], capture_output=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and CLEAR_SCROLLBACK.encode() in done.stdout


def terminal_reader(words: Callable[[], list[str]]) -> InputFn | None:
    """A prompt with line editing, history and Tab completion of ``words()`` (prompt_toolkit),
    or None when input or output is not a terminal (pipes and tests read plain lines)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return None
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document

    class Words(Completer):
        def get_completions(
            self, document: Document, complete_event: CompleteEvent
        ) -> Iterator[Completion]:
            typed = document.text_before_cursor
            key = _norm(typed)
            if not key:
                return
            seen: set[str] = set()
            for word in words():
                if word not in seen and _norm(word).startswith(key):
                    seen.add(word)
                    yield Completion(word, start_position=-len(typed))

    prompt: PromptSession[str] = PromptSession(completer=Words(), complete_while_typing=False)
    return lambda text: prompt.prompt(text)


def input_problem(text: str) -> str | None:
    """Why a prompt line cannot be an action or a command, or None."""
    if len(text) > MAX_LINE:
        return _("the line is too long ({length} characters; at most {most})").format(
            length=len(text), most=MAX_LINE
        )
    if any(not ch.isprintable() for ch in text.strip()):
        return _("the line holds control characters")
    return None


def _card_names(info: CardInfo) -> tuple[str, ...]:
    """What ``info NAME`` takes for a card: its display name (first), its id, the id
    without its kind, and the name before and inside brackets."""
    name = info.name
    before, _sep, inside = name.partition(" (")
    return (name, info.id, info.id.split(":")[-1], before, inside.rstrip(")"))


class QuitGame(Exception):
    """The person asked to leave the game."""


class GameCrashed(VelvetError):
    """An unexpected error stopped the game; the message says where it was saved."""


@dataclass
class Session:
    """One game being played at the terminal."""

    game: Game[Any]
    record: GameRecord
    state: State[Any]
    seats: Sequence[Bot | None]
    console: Console
    ask: InputFn
    renderer: Renderer = field(init=False)
    bot_rngs: list[Rng] = field(init=False)
    last_human: int | None = None
    game_for: Callable[[str], Game[Any]] | None = None
    savable: bool = True
    """False for a game started from a position: its record cannot replay it."""
    autosave: Path | None = None
    """Saved after every action when set (interactive play); a failure warns once."""
    autosaved: bool = False
    """Whether this session has written the game to ``autosave`` (so it is there)."""
    pace: float = 0.0
    """Seconds to wait after each bot move (so a person can follow it)."""
    shown: list[Any] = field(default_factory=list)
    """The choices in the order they were numbered on screen."""
    page: int = 0
    last_view: Any = None
    card_infos: list[CardInfo] | None = None
    ledger: UndoLedger = field(default_factory=UndoLedger)
    """Who made each move, the barrier no undo crosses, the states before the latest moves
    (velvet.engine.undo: the server's rule too)."""
    hints_each: bool = False
    """Show the hints before every decision of a human seat (``--hints``)."""
    hint_budget: Budget | None = None
    """The search's budget for a hint (None: the hard level's, 800 simulations)."""
    history: list[Played] = field(default_factory=list)
    """Every move of the game so far with its events (for the recap and ``log``)."""
    seen: dict[int, int] = field(default_factory=dict)
    """For each seat, how much of ``history`` its last decision screen came after."""
    recap_rows: int = 0
    """Rows the recap took on the current decision screen."""

    def __post_init__(self) -> None:
        self.renderer = renderer_for(self.game)
        self.ledger.restart(len(self.record.actions))  # a resumed game's moves stand
        if self.record.actions and not self.history:
            self.history = played_moves(self.game, self.record)
        self.bot_rngs = [
            Rng(self.record.seed * 7919 + 101 * seat + 1) for seat in range(len(self.seats))
        ]

    # -- output -------------------------------------------------------------

    def screen_seat(self) -> int | None:
        """Whose screen this is: the one human seat, the human who played last when
        several share it (hot-seat), or None (a spectator) when no person has a seat
        or none has played yet."""
        humans = [i for i, s in enumerate(self.seats) if s is None]
        if len(humans) == 1:
            return humans[0]
        return self.last_human if humans else None

    def said(self, events: list[Event], viewer: int | None) -> list[str]:
        """The sentences for ``events`` as ``viewer`` may see them (``game.event_for``)."""
        lines = (self.game.event_text(self.game.event_for(e, viewer)) for e in events)
        return [localize(line, self.game.name) for line in lines if line]

    def show_events(self, events: list[Event], viewer: int | None) -> None:
        for line in self.said(events, viewer):
            self.console.print(f"  • {escape(line)}")

    def show_board(self, player: int | None, *, full: bool = False) -> None:
        """The compact board (when it changed since last shown), or the full one; a
        seat's view, or the public one when ``player`` is None."""
        view = self.state.public_view() if player is None else self.state.view(player)
        compact = self.renderer.compact
        if full or compact is None:
            self.console.print(self.renderer.render(view, self.game))
        elif view != self.last_view:
            self.console.rule(style="dim")
            self.console.print(compact(view, self.game))
        self.last_view = view

    def choice_label(self, action: Any) -> str:
        label = localize(self.state.action_label(action), self.game.name)
        odds = self.renderer.odds(self.state, action) if self.renderer.odds else []
        return f"{label} ({', '.join(odds)})" if odds else label

    def show_actions(self, player: int, legal: list[Any], *, page: int = 0) -> None:
        """The choices grouped by kind and numbered; a page at a time when they are many."""
        groups: dict[str, list[Any]] = {}
        for action in legal:
            groups.setdefault(str(action).split(" ", 1)[0], []).append(action)
        self.shown = [action for group in groups.values() for action in group]
        rows: list[tuple[str, int, Any]] = []
        for kind, group in groups.items():
            for i, action in enumerate(group):
                rows.append((kind if i == 0 else "", len(rows) + 1, action))
        room = max(
            MIN_CHOICES, self.console.height - self.board_height() - self.recap_rows - CHOICE_ROWS
        )
        kind_width = max((len(kind) for kind, _, _ in rows), default=0)
        text_width = max(20, self.console.width - kind_width - len(str(len(rows))) - 2)
        pages: list[list[tuple[str, int, Any]]] = [[]]
        used = 0
        for row in rows:
            label = self.choice_label(row[2])
            height = len(
                self.console.render_lines(
                    Text(label), self.console.options.update(width=text_width)
                )
            )
            if pages[-1] and used + height > room:
                pages.append([])
                used = 0
            pages[-1].append(row)
            used += height
        self.page = page % len(pages)
        heading = _("{player}: your choices").format(player=player_name(player))
        self.console.print(f"[bold]{escape(heading)}[/]")
        table = Table(show_header=False, box=None, pad_edge=False)
        table.add_column(style="dim", no_wrap=True)
        table.add_column(justify="right", style="bold cyan", no_wrap=True)
        table.add_column(overflow="fold")
        for kind, number, action in pages[self.page]:
            table.add_row(kind, str(number), escape(self.choice_label(action)))
        self.console.print(table)
        if len(pages) > 1:
            line = _("Choices {first}-{last} of {total}: 'more' shows the next page.").format(
                first=pages[self.page][0][1], last=pages[self.page][-1][1], total=len(rows)
            )
            self.console.print(f"[dim]{escape(line)}[/]")

    def board_height(self) -> int:
        """Lines the compact board takes at this width (0 before one is shown)."""
        if self.last_view is None or self.renderer.compact is None:
            return 0
        drawn = self.renderer.compact(self.last_view, self.game)
        return len(self.console.render_lines(drawn, pad=False)) + 1

    def completions(self) -> list[str]:
        """Words Tab completes: the choices' words, commands, card names after info."""
        words = [*COMMANDS]
        for action in self.state.legal_actions():
            label = self.state.action_label(action)
            words += [label, label.split(":", 1)[0]]
        words += [f"info {info.name}" for info in self.cards()]
        return words

    def cards(self) -> list[CardInfo]:
        """Every card of the game in words (read once)."""
        if self.card_infos is not None:
            return self.card_infos
        out = []
        for ident in self.game.card_ids():
            try:
                out.append(self.game.describe_card(ident))
            except VelvetError:
                continue
        self.card_infos = out
        return out

    def find_card(self, name: str) -> CardInfo:
        """A card by id, by display name (case, accents and dashes ignored), by the name
        before or inside its brackets ('Joker' or 'Ren Amamiya' for "Joker (Ren Amamiya)"),
        or by the start of one of those when only one card fits; otherwise InvalidAction
        naming the candidates or the nearest names ("did you mean")."""
        try:
            return self.game.describe_card(name)
        except VelvetError:
            pass
        cards = self.cards()
        entries = [_card_names(info) for info in cards]
        return cards[pick_name(name, entries)]

    # -- what just happened: the recap and the log -------------------------------

    def remember(self, mover: int, label: str, events: list[Event], bot: str = "") -> None:
        """Keep a move made and its events for the recap and ``log``."""
        self.history.append(Played(len(self.record.actions) - 1, mover, label, events, bot))

    def forget_after(self, at: int) -> None:
        """Drop the moves from the record's action ``at`` on (they were taken back)."""
        self.history = [move for move in self.history if move.index < at]
        self.seen = {seat: min(n, len(self.history)) for seat, n in self.seen.items()}

    def move_lines(self, moves: Sequence[Played], viewer: int | None) -> list[str]:
        """Each move's events as ``viewer`` may see them, one sentence a line: '•' for the
        viewer's own moves, '▸' for the others' (a bot's move with no event, by its label)."""
        out: list[str] = []
        for move in moves:
            mark = "•" if move.mover == viewer else "▸"
            said = self.said(move.events, viewer)
            if not said and move.bot:
                label = localize(move.label, self.game.name)
                said = [f"{player_name(move.mover)} ({move.bot}): {label}"]
            out += [f"{mark} {line}" for line in said]
        return out

    def recap(self, player: int | None) -> list[str]:
        """What happened since ``player``'s last decision screen (since its own last move
        when it has had none in this session, or since the start), as it may see it."""
        start = self.seen.get(player) if player is not None else None
        if start is None:
            own = [i for i, move in enumerate(self.history) if move.mover == player]
            start = own[-1] if own else 0
        return self.move_lines(self.history[start:], player)

    def recap_room(self, choices: int = MIN_CHOICES) -> int:
        """Rows the recap may take: what the board and the first choices (at least
        ``MIN_CHOICES`` of the ``choices``) leave."""
        keep = min(MIN_CHOICES, max(1, choices))
        free = self.console.height - self.board_height() - CHOICE_ROWS - keep
        return max(0, min(RECAP_ROWS, free))

    def show_recap(self, player: int | None, choices: int = MIN_CHOICES) -> None:
        """The last few events since this seat's last decision, one row each, kept on
        screen between the board and the choices ('log' shows them all, in full)."""
        lines = self.recap(player)
        if player is not None:
            self.seen[player] = len(self.history)
        room = self.recap_room(choices)
        self.recap_rows = 0
        if not lines or room < 1:
            return
        shown = lines[-room:]
        if 1 < len(shown) < len(lines):  # the first row says how many more 'log' has
            shown = shown[1:]
            earlier = len(lines) - len(shown)
            more = _("… since your last choice, {earlier} earlier: 'log' shows them")
            shown = [more.format(earlier=earlier), *shown]
        elif len(shown) < room:  # all of it fits, and a heading too
            shown = [_("Since your last choice:"), *shown]
        for line in shown:
            self.console.print(
                Text(f"  {line}", style="magenta" if line.startswith("▸") else "dim"),
                no_wrap=True,
                overflow="ellipsis",
                crop=True,
            )
        self.recap_rows = len(shown)

    def show_log(self, player: int, what: str) -> None:
        """Every event so far as ``player`` may see it, a screen at a time (Enter for the
        next, q to stop); 'log N' shows the last N lines."""
        lines = self.move_lines(self.history, player)
        if what:
            if not (what.isascii() and what.isdigit() and 0 < int(what[:6]) <= MAX_LOG_LINES):
                self.error(
                    _("log takes a number of lines from 1 to {most}, not '{what}'").format(
                        most=MAX_LOG_LINES, what=one_line(what, 20)
                    )
                )
                return
            lines = lines[-int(what) :]
        if not lines:
            self.console.print(_("Nothing has happened yet."))
            return
        drawn = [Padding(Text(line), (0, 0, 0, 2)) for line in lines]
        rows = [len(self.console.render_lines(d, pad=False)) for d in drawn]
        room = max(3, self.console.height - 2)  # the 'more' prompt and one spare row
        at = 0
        while at < len(drawn):
            used = 0
            start = at
            while at < len(drawn) and (at == start or used + rows[at] <= room):
                self.console.print(drawn[at])
                used += rows[at]
                at += 1
            if at < len(drawn):
                try:
                    answer = self.ask(
                        _("-- {left} more lines: Enter for more, q to stop -- ").format(
                            left=len(drawn) - at
                        )
                    )
                except (EOFError, KeyboardInterrupt, UnicodeDecodeError):
                    break
                if answer.strip().lower() in ("q", "quit"):
                    break
        self.show_actions(player, self.state.legal_actions(), page=self.page)

    # -- turns --------------------------------------------------------------

    def pass_screen(self, player: int) -> None:
        humans = [i for i, s in enumerate(self.seats) if s is None]
        if not self.renderer.hides_hands or len(humans) < 2:
            return
        if self.last_human is not None and self.last_human != player:
            kept = self.clear_all()
            self.console.print(
                Panel(
                    escape(
                        _("Pass the screen to {player}, then press Enter.").format(
                            player=player_name(player)
                        )
                    ),
                    style="bold",
                )
            )
            if kept:
                self.console.print(f"[yellow]{escape(_('Warning:'))}[/] {escape(kept)}")
            self.read_line("")
            self.clear_all()
        self.last_human = player

    def clear_all(self) -> str | None:
        """Clear the screen and, where the terminal can, its scroll-back (ESC[3J), so the
        next player cannot scroll up to the last one's hand. Returns a one-line warning
        when the scroll-back may keep it (a terminal not known to erase it, or output
        that is no terminal), else None."""
        self.console.clear()
        term = os.environ.get("TERM")
        if self.console.is_terminal and clears_scrollback(term):
            self.console.file.write(CLEAR_SCROLLBACK)
            self.console.file.flush()
            return None
        where = _("this terminal (TERM={term})").format(term=term) if term else _("this terminal")
        if not self.console.is_terminal:
            where = _("this output (not a terminal)")
        return _(
            "{where} may keep {player}'s screen in its scroll-back: clear it "
            "(see docs/terminal.md) before passing"
        ).format(where=where, player=player_name(self.last_human or 0))

    def bot_turn(self, player: int, bot: Bot) -> None:
        legal = self.state.legal_actions()
        action = bot.choose(self.game, self.state.view(player), legal, self.bot_rngs[player])
        label = self.state.action_label(action)
        before = self.state.clone()
        events = self.state.apply(action)
        self.record.actions.append(str(action))
        self.ledger.push(before, self.state)
        self.remember(player, label, events, bot.name)
        said = self.said(events, self.screen_seat())
        if not said:
            who = f"{player_name(player)} ({bot.name})"
            said = [f"{who}: {localize(label, self.game.name)}"]
        for line in said:  # the events speak in the third person ('their main')
            self.console.print(f"  [magenta]▸[/] {escape(line)}")
        if self.pace > 0:
            time.sleep(self.pace)

    def human_turn(self, player: int) -> None:
        self.pass_screen(player)
        self.show_board(player)
        legal = self.state.legal_actions()
        self.show_recap(player, len(legal))
        self.show_actions(player, legal)
        if self.hints_each:
            self.show_hints(player, self.hint_budget)
        while True:
            text = self.read_line(f"{player_name(player)}> ")
            if text is None:
                continue
            state, done = self.state, len(self.record.actions)
            if self.command(text, player):
                if self.state is not state or len(self.record.actions) != done:
                    return
                continue
            problem = number_problem(text, len(legal))
            if problem is not None:
                self.error(problem)
                continue
            try:
                action = self.resolve(text)
            except VelvetError as error:
                self.error(str(error))
                continue
            except (ValueError, TypeError, KeyError, IndexError) as error:
                self.error(f"not understood: {one_line(str(error)) or 'not an action'}")
                continue
            before = self.state.clone()
            label = self.state.action_label(action)
            try:
                events = self.state.apply(action)
            except VelvetError as error:
                self.error(str(error))
                continue
            self.record.actions.append(str(action))
            self.ledger.push(before, self.state)
            self.remember(player, label, events)
            self.show_events(events, player)
            return

    def thinking(self, what: str) -> None:
        """Say that a search is running (it may take a few seconds)."""
        self.console.print(f"[dim]{escape(_('Thinking… ({what})').format(what=what))}[/]")

    def show_hints(self, player: int, budget: Budget | None) -> None:
        """The hard bot's top three choices for ``player``, from its view only."""
        from velvet.bots.hints import hints

        used = budget or self.hint_budget or Budget(count=800)
        self.thinking(
            _("the hard bot's search, {budget}, from your view").format(budget=_budget_words(used))
        )
        try:
            found = hints(self.state, player, used)
        except VelvetError as error:
            self.error(_("no hint: {error}").format(error=error))
            return
        if not found:
            self.error(_("no hint: the search found no choice"))
            return
        heading = _("Hints for {player}").format(player=player_name(player))
        self.console.print(f"[bold]{escape(heading)}[/] {escape(_('(best first):'))}")
        table = Table(show_header=False, box=None, pad_edge=False)
        table.add_column(justify="right", style="bold cyan", no_wrap=True)
        table.add_column(overflow="fold")
        for rank, hint in enumerate(found, start=1):
            number = next((i for i, a in enumerate(self.shown, 1) if a == hint.action), None)
            where = _("choice {number}: ").format(number=number) if number is not None else ""
            assumes = forecast_assumes(hint.bot, len(self.seats), self.game.name)
            label = localize(hint.label, self.game.name)
            table.add_row(
                f"{rank}.",
                f"{escape(where + label)} — [bold]{hint.win:.0%}[/] ± {hint.margin:.0%} "
                + escape(
                    _("to win {assumes}; {visits} simulations").format(
                        assumes=assumes, visits=hint.visits
                    )
                )
                + f"\n[dim]{escape(_('why: {reason}').format(reason=hint.reason))}[/]",
            )
        self.console.print(table)
        note = spread_note(self.game.name)
        if note:
            self.console.print(f"[dim]{escape(note)}[/]")

    def show_forecast(self, player: int, games: int) -> None:
        """The game's forecast hook (P5: the chance to beat the boss in time), with its margin."""
        from velvet.games import forecaster

        forecast = forecaster(self.game.name)
        if forecast is None:
            self.error(
                _(
                    "the game '{game}' offers no forecast "
                    "(P5 has one: the chance to beat the boss in time)"
                ).format(game=self.game.name)
            )
            return
        from velvet.bots.hints import assumed_bot

        bot = assumed_bot(self.game.name)
        self.thinking(
            _("playing {games} games from your view with the {bot} bot").format(
                games=games, bot=bot
            )
        )
        try:
            outlook = forecast(self.state, player, games, bot)
        except VelvetError as error:
            self.error(_("no forecast: {error}").format(error=error))
            return
        said = _(
            "{rate} to beat the boss by day {days} {assumes}: 95 % interval {low}–{high}, "
            "margin ± {margin}; {games} games from this position."
        ).format(
            rate=f"{outlook.rate:.0%}",
            days=outlook.days,
            assumes=forecast_assumes(outlook.bot, len(self.seats), self.game.name),
            low=f"{outlook.low:.0%}",
            high=f"{outlook.high:.0%}",
            margin=f"{outlook.margin:.0%}",
            games=outlook.games,
        )
        note = spread_note(self.game.name)
        self.console.print(
            f"[bold]{escape(_('Forecast'))}[/]: {escape(said)} {escape(_(FORECAST_VS_HINT))}"
            + (f" {escape(note)}" if note else "")
        )

    def error(self, message: str) -> None:
        """One line, ``error: …``, in the one voice of the front end."""
        self.console.print(f"[red]{escape(_('error:'))}[/] {escape(one_line(message))}")

    def resolve(self, text: str) -> Any:
        """The legal action ``text`` names: its number on screen, its text form, or its words.

        Words are matched through the legal list only (``velvet.ui.choose.pick``, the
        parser ``velvet join`` uses too), so nothing illegal is chosen here; words that
        fit more than one choice are refused with the candidates, words that fit none
        get the engine's reason (``choose_by_text``).
        """
        word = text.strip()
        if word.isascii() and word.isdigit():
            number = int(word)
            if 1 <= number <= len(self.shown) and self.shown[number - 1] in (
                legal := self.state.legal_actions()
            ):
                return legal[legal.index(self.shown[number - 1])]
            return choose_by_text(self.state, word)
        labels = self.state.action_labels()
        legal = list(labels)
        found = pick(word, [(str(action), labels[action]) for action in legal])
        if found is not None:
            return legal[found]
        return choose_by_text(self.state, word)

    def read_line(self, prompt: str) -> str | None:
        """One line from the person, or None (after saying why) if it cannot be used.

        End of input leaves the game (QuitGame); bytes that are not UTF-8, a line too
        long or control characters are refused without touching the game.
        """
        try:
            text = self.ask(prompt)
        except (EOFError, KeyboardInterrupt) as error:
            raise QuitGame from error
        except UnicodeDecodeError:
            self.error(_("the line is not UTF-8 text"))
            return None
        problem = input_problem(text)
        if problem is not None:
            self.error(problem)
            return None
        return text

    def confirm(self, question: str) -> bool:
        """Ask a yes/no question; anything but y/yes (or no input at all) is no."""
        try:
            answer = self.ask(f"{question} [y/N] ")
        except (EOFError, KeyboardInterrupt, UnicodeDecodeError):
            return False
        return answer.strip().lower() in ("y", "yes")

    def save_to(self, name: str, *, finished: bool = False) -> bool:
        """Save the game (or the finished game's record) to ``name``; says what happened."""
        path = Path(name)
        try:
            exists = os.path.lexists(path) and path.is_file()
        except (OSError, ValueError):
            exists = False
        if exists and not self.confirm(_("{name} exists. Replace it?").format(name=escape(name))):
            self.console.print(_("Not saved."))
            return False
        try:
            if finished:
                write_json_atomic(path, self.record.to_json(), overwrite=exists)
            else:
                save_game(path, self.record, self.state, overwrite=exists)
        except VelvetError as error:
            self.error(_("could not save: {error}").format(error=error))
            return False
        return True

    def save_autosave(self) -> None:
        """Keep the game in progress in the autosave file (warn once if that fails)."""
        if self.autosave is None:
            return
        try:
            self.autosave.parent.mkdir(parents=True, exist_ok=True)
            save_game(self.autosave, self.record, self.state)
        except (VelvetError, OSError) as error:
            reason = error.strerror if isinstance(error, OSError) else str(error)
            off = escape(_("Autosave off:"))
            self.console.print(f"[yellow]{off}[/] {escape(one_line(str(reason)))}")
            self.autosave = None
            self.autosaved = False
            return
        self.autosaved = True

    def drop_autosave(self) -> None:
        """Remove the finished game's autosave (``velvet resume`` takes games in progress)."""
        if self.autosave is None or not self.autosaved:
            return
        with contextlib.suppress(OSError):
            self.autosave.unlink()
        self.autosaved = False

    def undo(self, player: int) -> None:
        """Take back moves to this seat's last decision, unless a secret came out since.

        Only the asking seat's own moves are taken back (with everything after them);
        in hot-seat play another seat's move ends what can be undone.

        The state goes back to a copy kept before the move; the record keeps the moves
        taken back (``taken_back``) and drops them from its actions, so it still replays.
        """
        people = [i for i, s in enumerate(self.seats) if s is None]
        at = self.ledger.target(player, among=people)
        if at is not None:
            state = self.ledger.state_after(
                at, self.record.actions, lambda moves: self.record.replay(self.game, moves)
            )
            taken = self.record.actions[at:]
            del self.record.actions[at:]
            self.ledger.take_back(at)
            self.record.taken_back.append({"after": at, "actions": taken})
            self.state = state
            self.forget_after(at)
            self.last_view = None
            self.console.print(_("Taken back: {n} action(s).").format(n=len(taken)))
            return
        self.error(
            _(
                "nothing to undo: no move of yours since the last dice, draw or hidden card "
                "or another player's move (those cannot be taken back)"
            )
        )

    def command(self, text: str, player: int) -> bool:
        """Handle a session command; True if ``text`` was one."""
        words = text.split(maxsplit=1)
        if not words:
            return False
        verb = words[0].lower()
        if verb.startswith("?") and len(verb) > 1:
            words = ["info", text.strip()[1:]]
            verb = "info"
        if verb in ("help", "?"):
            self.console.print(escape(_(HELP)))
        elif verb == "quit":
            raise QuitGame
        elif verb in ("card", "info"):
            if len(words) < 2:
                self.error(_("info needs a card's name: info NAME (or ?NAME)"))
                return True
            try:
                info = self.find_card(words[1].strip())
            except InvalidAction as error:
                self.error(str(error))
                return True
            body = "\n".join(escape(localize(line, self.game.name)) for line in info.lines)
            title = f"{localize(info.name, self.game.name)} ({info.kind})"
            self.console.print(Panel(body, title=escape(title)))
        elif verb == "board":
            self.show_board(player, full=True)
            self.show_actions(player, self.state.legal_actions())
        elif verb == "more":
            self.show_actions(player, self.state.legal_actions(), page=self.page + 1)
        elif verb == "log":
            self.show_log(player, words[1].strip() if len(words) > 1 else "")
        elif verb == "hint":
            try:
                budget = Budget.parse(words[1]) if len(words) > 1 else None
            except ConfigError as error:
                self.error(
                    _("hint takes a budget like 'hint 2s' or 'hint 3000': {error}").format(
                        error=error
                    )
                )
                return True
            self.show_hints(player, budget)
        elif verb == "forecast":
            games = words[1].strip() if len(words) > 1 else str(FORECAST_GAMES)
            if not (games.isascii() and games.isdigit()) or not (
                1 <= int(games[:6]) <= MAX_FORECAST_GAMES
            ):
                self.error(
                    _("forecast takes a number of games from 1 to {most}, not '{what}'").format(
                        most=MAX_FORECAST_GAMES, what=one_line(games, 20)
                    )
                )
                return True
            self.show_forecast(player, int(games))
        elif verb == "undo":
            self.undo(player)
        elif verb in ("save", "load") and not self.savable:
            self.error(_("a game started from a position cannot be saved or loaded"))
        elif verb == "save":
            if len(words) < 2:
                self.error(_("save needs a file name: save FILE"))
                return True
            name = words[1].strip()
            if self.save_to(name):
                where = escape(name)
                self.console.print(
                    _("Saved to {where}. Resume with: velvet resume {where}").format(where=where)
                )
        elif verb == "load":
            if len(words) < 2:
                self.error(_("load needs a file name: load FILE"))
                return True
            name = words[1].strip()
            if self.record.actions and not self.confirm(
                _("Loading leaves this game (it stays in its autosave only if one is on). Load?")
            ):
                self.console.print(_("Not loaded."))
                return True
            try:
                record, state = load_game(Path(name), self.game_for or (lambda _: self.game))
            except VelvetError as error:
                self.error(_("could not load: {error}").format(error=error))
                return True
            if record.game != self.game.name:
                self.error(
                    _("could not load: it is a game of '{game}'").format(game=record.game[:40])
                )
                return True
            self.record, self.state = record, state
            self.history, self.seen = played_moves(self.game, record), {}
            self.ledger.restart(len(record.actions))
            self.last_view = None
            self.console.print(_("Loaded {name}.").format(name=escape(name)))
        else:
            return False
        return True

    def run(self) -> State[Any]:
        """Play until the game ends or a person quits; returns the final state.

        With ``autosave`` set, the game is saved there after every action. An
        unexpected error saves the game first and raises GameCrashed saying where.
        """
        try:
            while not self.state.is_terminal():
                player = self.state.current_player
                bot = self.seats[player] if player < len(self.seats) else None
                done = (self.record, len(self.record.actions))
                if bot is None:
                    self.human_turn(player)
                else:
                    self.bot_turn(player, bot)
                if (self.record, len(self.record.actions)) != done:
                    self.save_autosave()
        except (QuitGame, KeyboardInterrupt):
            self.console.print("\n" + _("Leaving the game."))
            self.offer_save()
            return self.state
        except VelvetError:
            raise
        except Exception as error:
            raise GameCrashed(self.crash_message(error)) from error
        self.end_screen()
        return self.state

    def crash_message(self, error: Exception) -> str:
        """Save the game after an unexpected error; the message says where it went."""
        what = one_line(f"{type(error).__name__}: {error}", 200)
        target = self.autosave or data_dir() / "crash-game.json"
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            save_game(target, self.record, self.state)
        except (VelvetError, OSError):
            return f"unexpected {what}; the game could not be saved (a bug: please report it)"
        return (
            f"unexpected {what} (a bug: please report it); the game is saved: "
            f"velvet resume {target}"
        )

    def end_screen(self) -> None:
        with contextlib.suppress(ConfigError):  # no public view: a spectator sees no board
            self.show_board(self.screen_seat())
        self.show_recap(self.screen_seat())
        count = len(self.record.actions)
        done = ngettext("{n} action", "{n} actions", count).format(n=count)
        if self.savable:
            done = _("{actions}, seed {seed}").format(actions=done, seed=self.record.seed)
        self.console.print(
            Panel(
                f"[bold]{escape(_('Game over'))}[/]: "
                f"{escape(localize(self.state.outcome_text(), self.game.name))}\n{escape(done)}.",
                title=escape(_("The end")),
                style="green",
            )
        )
        self.offer_save(finished=True)
        self.drop_autosave()

    def offer_save(self, finished: bool = False) -> None:
        """Ask for a file to save to; Enter, 'n' or 'no' skips, 'y' or 'yes' asks the name.

        Says the game stays in its autosave only when this session has written it there.
        """
        if not self.savable:
            return
        question = (
            _("Save the game record (for velvet replay) to a file? Name, or Enter to skip: ")
            if finished
            else _("Save the game (to resume later) to a file? Name, or Enter to skip: ")
        )
        for _attempt in range(3):
            try:
                name = self.ask(question).strip()
            except (EOFError, KeyboardInterrupt):
                break
            except UnicodeDecodeError:
                self.error(_("the line is not UTF-8 text"))
                continue
            if name.lower() in ("", "n", "no"):
                break
            if name.lower() in ("y", "yes"):
                question = _("File name (Enter to skip): ")
                continue
            if self.save_to(name, finished=finished):
                self.console.print(_("Saved to {name}.").format(name=escape(name)))
                return
        if finished:
            return
        if self.autosave is not None and self.autosaved:
            self.console.print(
                _("The game stays in {path}: velvet resume").format(path=escape(str(self.autosave)))
            )
        elif self.autosave is not None:
            self.console.print(_("Not saved: no move was made, so there is no autosave."))


FORECAST_BOT = "easy"
"""The default of ``velvet.bots.hints.ASSUMED_BOT``; the forecast's games are played by the
game's ``chance_bot`` (``velvet.bots.hints.assumed_bot``), the play a hint's chance assumes
too (the hard bot would take minutes a game)."""
FORECAST_VS_HINT = N_("The hints assume the same play, after their move.")


def _budget_words(budget: Budget) -> str:
    if budget.seconds is not None:
        return _("{seconds} s").format(seconds=f"{budget.seconds:g}")
    return _("{count} simulations").format(count=budget.count)


REPLAY_HELP = N_(
    "Enter or n: next action · b: back one · a number: go to that action · "
    "seat N: that seat's view · q: stop"
)


def replay(
    game: Game[Any],
    record: GameRecord,
    console: Console,
    *,
    viewer: int = 0,
    step: bool = False,
    ask: InputFn = input,
) -> State[Any]:
    """Print a game action by action, then the final board; ``step`` walks it at will.

    Each action is shown in the words of the state it was taken in (``action_label``).
    Stepping goes forward and back, jumps to an action number and changes whose view
    is shown; a view is one seat's, so only that seat's hidden cards appear.
    """
    renderer = renderer_for(game)
    states: list[State[Any]] = []
    steps: list[tuple[str, list[Event]]] = [("", [])]
    before: State[Any] | None = None
    for state, text, events in record.steps(game):
        if text is None or before is None:
            head = _("seed {seed}, {count} actions").format(
                seed=record.seed, count=len(record.actions)
            )
            console.print(f"[bold]{game.name}[/] {head}")
            states.append(state.clone())
            before = state.clone()
            continue
        label = before.action_label(choose_by_text(before, text))
        steps.append((label, list(events)))
        states.append(state.clone())
        before = state.clone()
        if not step:
            said = _step_lines(game, steps[-1], viewer)
            console.print(f"[bold cyan]{len(states) - 1:>4}[/] {said[0]}")
            for line in said[1:]:
                console.print(f"    {line}")
    final = states[-1]
    if step:
        viewer = _walk(states, steps, renderer, game, console, viewer, ask)
    console.print(_board(renderer, game, final.view(viewer)))
    console.print(Panel(escape(localize(final.outcome_text(), game.name)), title=_("Result")))
    return final


def _step_lines(game: Game[Any], step: tuple[str, list[Event]], viewer: int) -> list[str]:
    """An action's label and its events, as ``viewer`` may see them (``game.event_for``)."""
    label, events = step
    if not label:
        return []
    lines = (game.event_text(game.event_for(e, viewer)) for e in events)
    said = [f"   • {escape(localize(line, game.name))}" for line in lines if line]
    return [escape(localize(label, game.name)), *said]


def _board(renderer: Renderer, game: Game[Any], view: Any) -> Any:
    compact = renderer.compact
    return compact(view, game) if compact is not None else renderer.render(view, game)


def _walk(
    states: list[State[Any]],
    steps: list[tuple[str, list[Event]]],
    renderer: Renderer,
    game: Game[Any],
    console: Console,
    viewer: int,
    ask: InputFn,
) -> int:
    """Step through the replayed states on the person's commands; the last viewer."""
    last = len(states) - 1
    seats = len(states[0].returns())
    at = 0
    console.print(f"[dim]{escape(_(REPLAY_HELP))}[/]")
    while True:
        where = _("action {at} of {last} · {player}'s view")
        console.rule(where.format(at=at, last=last, player=player_name(viewer)), style="dim")
        for line in _step_lines(game, steps[at], viewer):
            console.print(line)
        console.print(_board(renderer, game, states[at].view(viewer)))
        try:
            answer = ask("replay> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            return viewer
        except UnicodeDecodeError:
            continue
        if answer in ("q", "quit"):
            return viewer
        if answer in ("", "n", "next"):
            if at == last:
                return viewer
            at += 1
        elif answer in ("b", "back"):
            at = max(0, at - 1)
        elif answer.isascii() and answer.isdigit() and len(answer) < 7:
            if int(answer) > last:
                wrong = _("no action {number}: this game has 0 to {last}")
                wrong = wrong.format(number=answer, last=last)
                console.print(f"[red]{escape(_('error:'))}[/] {escape(wrong)}")
                continue
            at = int(answer)
        elif answer.startswith("seat ") and answer[5:].strip() in {
            str(n) for n in range(1, seats + 1)
        }:
            viewer = int(answer[5:].strip()) - 1
        else:
            wrong = _("not a replay command.")
            console.print(f"[red]{escape(_('error:'))}[/] {escape(wrong)} {escape(_(REPLAY_HELP))}")
