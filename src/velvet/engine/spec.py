"""What a game declares once so that every front end finds it: the :class:`GameSpec`.

A game package holds one ``GameSpec`` (``velvet.p5.spec:SPEC``): its name, how to
load it, the set-up options a player may pick, and what the CLI, the simulator,
the bots and the terminal need beyond the engine contract. Parts that live outside
the engine (the renderer, the bots' evaluator) are named by import path, so the
engine and the game packages never import ui or bots; :func:`resolve` loads them.
``velvet.games`` is the registry that turns a name into a spec.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from velvet.engine.core import Config, Game, State
from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng

Summarizer = Callable[[State[Any]], Mapping[str, Any]]
"""Columns of a results row read from a state (``summarize`` at the end, ``start`` at the start)."""
Tracker = Callable[[State[Any], Any, dict[str, Any]], None]
"""``track(state, action, columns)``: called before each action; may add to ``columns``."""
CellKind = Literal[
    "name", "seat", "day", "count", "whole", "name?", "seat?", "day?", "count?", "whole?"
]
"""What a results cell holds (:attr:`GameSpec.result_cells`); ``?``: it may be empty."""
Varier = Callable[[Game[Any], Config, Rng], Config]
"""``vary(game, config, rng)``: a random valid set-up like ``config`` (``--vary-setup``)."""
Options = Mapping[str, Any]
"""Chosen set-up options by :attr:`ConfigOption.name`: a tuple when repeatable, else a value.
A repeatable option's tuple may hold None for a seat left at its default (a server room's
form picks the second seat's thief and not the first's)."""
ConfigMaker = Callable[[Game[Any], int, Options], Config]
"""``make_config(game, seats, options)``: the set-up for ``seats`` players and ``options``."""
Loader = Callable[[Sequence[Path | str]], Game[Any]]
"""``load(card_paths)``: the game with its built-in cards, extended or replaced by the files."""
SeatDefaults = Callable[[Game[Any], int], Sequence[str]]
DailyOptions = Callable[[Game[Any], int, Rng], Options]
"""``options(game, seats, rng)``: a daily challenge's set-up options, drawn from ``rng``."""
"""``defaults(game, seats)``: what each seat of a repeatable option (the one value of
another) gets when left out, read from the game's default set-up ("Default: Joker")."""


def no_summary(state: State[Any]) -> dict[str, Any]:
    """The summary of a game that offers none."""
    return {}


@dataclass(frozen=True, slots=True)
class ConfigOption:
    """One set-up choice, shown as ``--NAME`` by ``velvet play GAME`` (and ``velvet sim``),
    and as a field of the browser lobby's form (``GET /api/games``, ``CreateRoom.options``).
    """

    name: str
    help: str
    multiple: bool = False
    """Given once per seat, in seat order."""
    choices: tuple[str, ...] = ()
    default: str | None = None
    kind: Literal["text", "path"] = "text"
    """``path``: a file (``--deck FILE``); a server room takes the file's text instead (an
    upload, never a path on the server), or one of ``choices_from``'s ids."""
    metavar: str = "ID"
    label: str = ""
    """The form's words for the field ("thief": "Player 1's thief"); empty: the name."""
    choice_labels: tuple[str, ...] = ()
    """Words for each of ``choices``, in order ("Random" for ``random``); empty: the choice."""
    choices_from: str | None = None
    """A key of the game's ``choices()`` whose ``(id, name)`` pairs the value is one of
    (``thieves``): a form's list, read from the card set (custom cards too). The game
    checks the value; the command line takes any text."""
    defaults: SeatDefaults | None = None
    """Each seat's value when left out (of an option that is not per seat: its one value),
    read from the game's default set-up, for a form to show; None: nothing to show."""
    choice_help: tuple[tuple[str, str], ...] = ()
    """``(choice, what it does)``, one line per choice, listed under the command's help."""

    def __post_init__(self) -> None:
        if self.choice_labels and len(self.choice_labels) != len(self.choices):
            raise ValueError(f"option {self.name}: one choice label per choice")

    @property
    def field_label(self) -> str:
        """The form's words for the field."""
        return self.label or self.name.replace("_", " ")


CalibrationMap = tuple[float, float] | tuple[tuple[float, float], ...]
"""A game's ``hint_calibration``: Platt's ``(a, b)``, or isotonic ``(value, chance)`` points."""


@dataclass(frozen=True, slots=True)
class BalanceGame:
    """One game of a balance band (a game's ``balance`` plug-in, ``setup``): its set-up,
    how many seats the bot plays, and the seat whose result is the band's rate."""

    config: Config
    seats: int
    seat: int = 0


@dataclass(frozen=True, slots=True)
class DailyChallenge:
    """A co-op game's daily challenge (``GameSpec.daily``): one set-up a UTC day, the same
    for everyone, on ``velvet serve``'s ``/daily`` page and in ``velvet daily`` (the seed and
    the draw: ``velvet.engine.daily``)."""

    options: DailyOptions
    """The day's set-up options (as ``velvet play`` takes them), drawn from the day's
    set-up RNG; the config is then ``config_for(game, seats, options)``."""
    seats: int = 1
    """How many people play the day's game (every seat a person's)."""
    rank_by: str = ""
    """The results column (``summarize``) of the day or turn a won game ended on, fewer
    first on the leaderboard; empty: the spec's ``turns_key``."""


PLUGIN_FACETS = (
    "renderer",
    "evaluator",
    "playout_policy",
    "cards",
    "deck_check",
    "forecast",
    "rules_summary",
    "print_cards",
    "print_boards",
    "print_legend",
    "balance",
    "encoder",
    "shaping",
    "expert_policy",
    "expert_prune",
    "expert_evaluator",
)
"""The :class:`GameSpec` fields that name a plug-in by import path (``module`` or
``module:function``): a front end reaches a game's own code only through these."""


@dataclass(frozen=True, kw_only=True)
class GameSpec:
    """Everything a front end needs to know about one game, declared once by the game."""

    name: str
    load: Loader
    title: str = ""
    """One line for help texts."""
    short_title: str = ""
    """The game's name on printed sheets and card backs ("Persona VS"); empty: ``name``."""
    players: tuple[int, ...] = (2,)
    """Seat counts ``velvet play`` offers (the game's ``num_players``)."""
    options: tuple[ConfigOption, ...] = ()
    make_config: ConfigMaker | None = None
    """Builds a config from seats and options; without it, ``default_config`` (no options).
    The command line and a server room both reach it through :meth:`config_for`."""
    default_config: Mapping[str, Any] = field(default_factory=dict)
    hidden_information: bool = False
    """Some of a state is secret from a seat (a hand, a face-down deck, future dice): the seed
    would reveal it, so ``velvet play`` shows the seed's SHA-256 until the game ends."""
    cooperative: bool = False
    """Every seat wins or loses together (P5): a hint to one person cannot favour them over
    another, so a server room offers hints even when several people play."""
    hides_hands: bool = False
    """Seats hold secrets from each other: hot-seat play passes the screen between them."""
    private: tuple[str, ...] = ()
    """Keys of ``view(p)`` that hold what only seat ``p`` may see (its hand, its secret)."""
    renderer: str | None = None
    """Import path of a module with ``render(view, game)`` for the board, or None."""
    evaluator: str | None = None
    """``module:function`` of the bots' position evaluator, or None (neutral)."""
    playout_policy: str | None = None
    """``module:function`` picking a search playout's action, ``policy(legal, rng) -> action``,
    or None (uniform at random over the legal actions)."""
    expert_policy: str | None = None
    """``module:function`` of the ``expert`` level's playout policy, ``policy(state, legal,
    rng) -> action`` reading the sampled state, or None (the level is ``hard``'s search)."""
    expert_prune: str | None = None
    """``module:function`` of the ``expert`` level's root pruning, ``prune(state, legal) ->
    the moves worth searching`` (never empty, never a move that changes the position)."""
    expert_evaluator: str | None = None
    """``module:function`` of the ``expert`` level's leaf value, ``evaluate(game, view,
    player)`` as ``evaluator``, or None (the level scores its leaves by ``evaluator``)."""
    hint_calibration: CalibrationMap | None = None
    """The map from a hint search's mean value to the chance shown, fitted by
    ``benchmarks/calibration.py --fit``: ``(a, b)`` of ``1 / (1 + exp(-(a · logit(value) +
    b)))`` (Platt scaling), or ``((value, chance), ...)`` points, values rising and chances
    never falling, joined by straight lines and flat past the ends (isotonic regression);
    None: the value itself."""
    hint_spread: float = 0.0
    """How far the real chance to win strays, among positions the hint's search values
    alike: the standard deviation of a position's chance around its calibrated ``win``,
    measured by ``benchmarks/calibration.py`` from the forecast's repeated games (0: not
    measured). A hint's ``chance_margin`` carries it; its ``margin`` (comparing the moves of
    one position) does not."""
    chance_bot: str = "easy"
    """The level whose play every chance shown assumes from the position on: the outcomes
    ``hint_calibration`` was fitted against (every seat playing on like it) and the bot of
    the forecast's games. What the level is in this game comes from ``levels``; the words
    shown name both ('if you play on like the easy bot (greedy, 5 samples a move)')."""
    cards: str | None = None
    """Import path of a module with ``card_rows``, ``card_list_markdown`` and
    ``check_card_files`` for ``velvet cards``, or None (the game has no card files)."""
    deck_check: str | None = None
    """``module:function`` behind ``velvet deck check``, ``check(path, game) -> str`` (a
    one-line summary of a valid deck file, or an error naming what is wrong), or None: the
    game's seats bring no deck files."""
    summarize: Summarizer = no_summary
    """Results columns read from the finished state."""
    start: Summarizer = no_summary
    """Results columns read from the state as the game begins (decks, first player ...)."""
    track: Tracker | None = None
    result_cells: tuple[tuple[str, CellKind], ...] = ()
    """What the game's own cells of a finished results row hold, checked whenever a results
    folder is read (``velvet report``, a resumed ``velvet sim``): ``(column, kind)``, the
    column with ``{s}`` for each seat (``deck_{s}``). Kinds: ``name`` (a non-empty text),
    ``seat`` (a seat number), ``day`` (1 or more), ``count`` (0 or more), ``whole`` (a whole
    number); a trailing ``?``: the cell may be absent or empty, else every finished row has
    it (a row without it is refused as not a game of this game). Only registered games'
    rows are checked (``velvet.games.registered_spec``)."""
    vary: Varier | None = None
    setup_columns: tuple[str, ...] = ()
    """Results columns that tell one set-up from another (``palace``; per seat with
    ``{s}``, ``thief_{s}``): the co-op ``velvet arena`` gives each bot's win rate by each
    (``ratings.json`` ``by_palace``, ``by_thief`` ...) and prints it by the first."""
    turns_key: str | None = None
    """Which summary column counts days or turns (copied to the ``turns`` column)."""
    search: Literal["mcts", "ismcts"] = "ismcts"
    """The tree search the bot levels use: MCTS for co-op games, ISMCTS otherwise."""
    search_tuning: Mapping[str, float] = field(default_factory=dict)
    """``exploration`` and ``max_playout`` for the search bots (else 1.4 and 300)."""
    greedy_follow: int = 0
    """How many of its own next decisions the greedy bot plays out before scoring."""
    levels: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Bot levels this game plays otherwise than the defaults (``velvet.bots.registry``),
    level -> ``(kind, budget)``: kind ``greedy``, ``search`` (the game's ``search``),
    ``expert``, ``mcts`` or ``ismcts``; budget simulations (``"5"``) or seconds
    (``"1.5s"``). ``{"easy": ("greedy", "5")}``: ``easy`` is greedy with 5 samples.
    A level given a budget by the player (``easy:10``) keeps this kind."""
    bot_ratings: Mapping[str, float] = field(default_factory=dict)
    """Bot level -> its fixed rating on the players' Glicko-2 scale, measured in the arena
    against the other levels and anchored at ``bot_anchor`` = 1500 (docs/web.md, "Bot
    ratings"). A level left out has no rating: none is shown and the quick-pair queue
    offers no such bot."""
    bot_anchor: str = ""
    """The level of ``bot_ratings`` rated 1500 by convention (not by games with people);
    empty for a game whose bots have no ratings."""
    forecast: str | None = None
    """``module:function`` of the game's forecast, or None (the game offers none): plays whole
    games from samples of a seat's view, ``forecast(state, seat, games, bot, seconds=None,
    stop=None)`` (``stop()`` true: end early, the answer is no longer wanted), and returns the
    chance to win with its interval (a ``velvet.bots.hints.Forecast``). The server offers
    ``forecast`` only in a game that has one."""

    board: str | None = None
    """The browser client's board module for the game, a file of ``velvet/web/static``
    (``p5.js``; a stylesheet of the same stem beside it is loaded with it), or None: the
    browser plays the game with its action buttons only. Published by ``GET /api/games``."""

    names: Path | None = None
    """A folder of ``LANG.toml`` tables (``[names]`` English card name = its name in that
    language: ``ja.toml``) that ``velvet.i18n.card_names`` reads; None: names stay English."""

    rules_summary: str | None = None
    """``module:function`` of the rules summary ``velvet print`` adds to the cards,
    ``summary(game) -> [(heading, (line, ...)), ...]`` (short clauses with their rule IDs;
    numbers that are game data read from ``game``), or None: the game has none, and
    ``velvet print --rules`` says so."""

    print_cards: str | None = None
    """``module:function`` of the cards ``velvet print`` prints, ``cards(game, deck) ->
    [PrintCard, ...]`` (``velvet.printing.cardtext``; ``deck``: a deck file to print instead
    of the whole set, or None), or None: the game has no printed cards."""

    print_legend: str | None = None
    """``module:function``, ``icons(game) -> [icon, ...]``: the icons the printed legend
    lists first, in that order (P5: its resources and skill types), before those the cards
    show; None: only the icons on the cards."""
    print_boards: str | None = None
    """``module:function`` of the sheets ``velvet print --boards`` adds after the cards and
    the rules, ``boards(canvas, game, paper, notes) -> [(label, pages), ...]`` (a reportlab
    canvas; ``notes`` collects what the PDF had to change), or None: the game has none."""

    encoder: str | None = None
    """``module:Class`` of the RL adapters' observation encoder (``velvet.adapters``):
    ``Class(game, players)`` is a ``velvet.adapters.encoding.Encoder``, a fixed-size float32
    vector of a seat's view; None: the Gymnasium, PettingZoo and OpenSpiel adapters refuse
    the game, saying so."""
    shaping: str | None = None
    """``module:function`` of the reward shaping's potential, ``potential(state, seat) ->
    float`` read only from what ``view(seat)`` shows (docs/rl.md), which the Gymnasium env's
    ``shaping=`` weighs; None: the game offers no shaping."""

    daily: DailyChallenge | None = None
    """The game's daily challenge (a co-op game), or None: it has none. Read by
    ``velvet daily`` and the server's ``/api/daily`` (docs/web.md, "Daily challenge")."""

    balance: str | None = None
    """Import path of the module ``velvet balance check`` reads the game's bands through,
    or None (the game has no balance bands): ``SUBJECT``, what a band is of (``"palace"``);
    ``check_subject(subject)``, ValueError if ``subject`` cannot be one (read with the
    bands file, before any game is loaded); ``setup(game, subject, index) ->``
    :class:`BalanceGame`, game ``index`` of the subject's band (ConfigError if the card set
    has no such subject); and optionally ``subjects(game)``, every subject of a card set,
    so a custom set's subjects without a band are measured too."""

    def plugin(self, facet: str, what: str) -> Any:
        """The plug-in the facet ``facet`` names (see :data:`PLUGIN_FACETS`), loaded; a
        ConfigError saying the game has no ``what`` if the spec names none."""
        if facet not in PLUGIN_FACETS:
            raise ValueError(f"{facet} is not a plug-in facet of GameSpec: {PLUGIN_FACETS}")
        path = getattr(self, facet)
        if path is None:
            raise ConfigError(f"game '{self.name}' has no {what} (its GameSpec sets no {facet})")
        return resolve(path, f"game '{self.name}' {what}")

    def plugin_paths(self) -> dict[str, str]:
        """The facets this spec names by import path, facet -> path (those it sets)."""
        named = ((facet, getattr(self, facet)) for facet in PLUGIN_FACETS)
        return {facet: path for facet, path in named if path is not None}

    def config_for(self, game: Game[Any], seats: int, options: Options | None = None) -> Config:
        """The set-up for ``seats`` players with the chosen ``options`` (ConfigError if bad)."""
        chosen = {k: v for k, v in (options or {}).items() if not _left_out(v)}
        known = {o.name for o in self.options}
        unknown = sorted(set(chosen) - known)
        if unknown:
            allowed = ", ".join(f"--{o.name}" for o in self.options) or "none"
            raise ConfigError(
                f"game '{self.name}' has no option --{unknown[0]}; its options: {allowed}",
                unknown[0],
            )
        if self.make_config is not None:
            return self.make_config(game, seats, chosen)
        return dict(self.default_config) if self.default_config else game.default_config()


def _left_out(value: Any) -> bool:
    """An option not given: None, or a repeatable one with no seat's value."""
    if isinstance(value, (tuple, list)):
        return all(v is None for v in value)
    return value is None


def resolve(path: str, what: str) -> Any:
    """The object named ``package.module:ATTR`` (or a module, without ``:ATTR``).

    Raises ConfigError naming ``what`` and the path if it cannot be imported.
    """
    module_name, sep, attr = path.partition(":")
    if not module_name or (sep and not attr):
        raise ConfigError(f"{what} '{path}': write package.module:ATTRIBUTE")
    if not all(part.isidentifier() for part in module_name.split(".")):
        # '../x' would reach importlib as a relative import and fail with a TypeError
        raise ConfigError(f"{what} '{path}': {module_name!r} is not a module name")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"{what} '{path}': cannot import {module_name} ({exc})") from None
    if not sep:
        return module
    try:
        return getattr(module, attr)
    except AttributeError:
        raise ConfigError(f"{what} '{path}': {module_name} has no {attr}") from None
