"""Puzzles: positions from bot games where one move is clearly best, from the mover's view.

A puzzle is one TOML file (format in docs/learn.md, "Puzzles"): a title, the solver's seat,
the answer (a move's text form), why it is the answer, what the verification measured, and
the position (the format of ``game.position``, docs/engine.md). Loading checks what a solver
could meet: the position builds, the solver's seat decides first, and the answer is one of
its legal moves; the first problem is a :class:`PuzzleError` naming the file and the field.

:func:`generate` mines games of a bot against itself for such positions. A position is kept
only when :func:`judge_position` finds, from the mover's own view (no hindsight on hidden cards
or future dice):

1. *one move clearly best*: the hint search (:func:`velvet.bots.hints.hints`, the ``hard``
   level's search on samples of the view) ranks it first; then the answer and each of its
   ``rivals`` next best moves get ``compare`` simulations of their own (the same search below
   that move alone), and the answer must be ahead of each by at least ``min_gap`` of the
   chance to win (the game's calibrated map) and by ``min_z`` standard errors;
2. *no answer that needs the hidden cards*: on each of ``deals`` full states sampled from the
   view (the cards and dice the solver cannot see dealt at random), a search that sees that
   whole deal finds the same answer best, or within ``tie`` of the best, in at least
   ``agree`` of the deals. A move that is only right when the rival holds a certain card is
   rejected, however good it looks on average.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from velvet.bots.budget import Budget
from velvet.bots.evaluators import determinize, get_evaluator
from velvet.bots.hints import Hint, _search_bot, calibrated, hints, view_seed
from velvet.bots.mcts import _Node
from velvet.engine.core import Game, State
from velvet.engine.errors import ConfigError, VelvetError
from velvet.engine.record import GameRecord
from velvet.engine.rng import Rng
from velvet.learn import datafile
from velvet.learn.datafile import DataFileError, data_files, read_model

MAX_PUZZLES = 1000
"""Most puzzle files in one folder."""
DEEP_BUDGET = 800
"""Simulations of the verifying search (the ``hard`` level's)."""
SCREEN_BUDGET = 300
"""Simulations of the first, cheap look that drops most positions before the deep search."""
COMPARE_BUDGET = 300
"""Simulations below each of the best move and its rivals alone, to compare them."""
RIVALS = 3
"""How many of the next best moves the answer is compared with."""
DEALS = 8
"""Deals of the hidden cards the answer is checked on."""
DEAL_BUDGET = 200
"""Simulations of the search on one deal."""
MIN_GAP = 0.10
"""How far (in chance to win) the answer must be ahead of the next move."""
MIN_Z = 2.0
"""And by how many standard errors of the difference of the two estimates."""
AGREE = 0.75
"""Share of the deals on which the answer must be best."""
TIE = 0.02
"""On one deal, a move this close to the best (in search value) counts as best too."""
_SEED_RANGE = 1 << 62


class PuzzleError(DataFileError):
    """A puzzle file that breaks the format or does not play as it says."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class VerifiedModel(_Strict):
    """What the verification measured when the puzzle was made (shown, never trusted)."""

    budget: int = Field(ge=1)
    win: float = Field(ge=0, le=1)
    next_win: float = Field(ge=0, le=1)
    next_move: str = Field(min_length=1, max_length=200)
    deals: int = Field(ge=0)
    agree: int = Field(ge=0)


class SourceModel(_Strict):
    """Where the position came from: a game of ``bot`` against itself from ``seed``, or a
    played game's record (``record``: its SHA-256, first 16 digits; ``played``: the move
    made there, the mistake the puzzle is about)."""

    bot: str | None = Field(default=None, min_length=1, max_length=40)
    seed: int | None = Field(default=None, ge=0)
    record: str | None = Field(default=None, pattern=r"^[0-9a-f]{16}$")
    played: str | None = Field(default=None, min_length=1, max_length=200)
    ply: int = Field(ge=0)

    @model_validator(mode="after")
    def _one_source(self) -> SourceModel:
        if (self.record is None) == (self.bot is None or self.seed is None):
            raise ValueError("give bot and seed (a bot game) or record (a played game)")
        return self


class PuzzleModel(_Strict):
    title: str = Field(min_length=1, max_length=80)
    seat: int = Field(ge=1, le=8)
    answer: str = Field(min_length=1, max_length=200)
    why: str = Field(min_length=1, max_length=600)
    verified: VerifiedModel
    source: SourceModel | None = None
    position: dict[str, Any]


@dataclass(frozen=True)
class Puzzle:
    """One checked puzzle of one game."""

    id: str
    file: str
    game: Game[Any]
    title: str
    seat: int
    """The solver's seat, 0-based."""
    answer: str
    why: str
    verified: VerifiedModel
    position: Mapping[str, Any]
    source: SourceModel | None = None

    def start(self) -> State[Any]:
        """A fresh state of the puzzle's position."""
        return self.game.position(self.position)

    def check(self, move: str) -> bool:
        """Whether ``move`` (a text form) is the answer."""
        return " ".join(move.split()) == self.answer


def builtin_folder(game_name: str) -> Path | None:
    """The built-in puzzles of a game (``velvet/data/puzzles/NAME``), or None."""
    return datafile.builtin_folder("puzzles", game_name)


def read_puzzle(path: Path, game: Game[Any], label: str | None = None) -> Puzzle:
    """One puzzle file, validated and checked against its position (module docstring)."""
    shown, model = read_model(path, PuzzleModel, PuzzleError, label, "Puzzles")
    puzzle = Puzzle(
        id=path.stem,
        file=shown,
        game=game,
        title=model.title,
        seat=model.seat - 1,
        answer=" ".join(model.answer.split()),
        why=" ".join(model.why.split()),
        verified=model.verified,
        position=model.position,
        source=model.source,
    )
    check_puzzle(puzzle)
    return puzzle


def check_puzzle(puzzle: Puzzle) -> State[Any]:
    """The puzzle's start state, once the position builds, the solver decides first and the
    answer is one of its legal moves (of two or more); else PuzzleError."""

    def fail(field: str | None, message: str) -> PuzzleError:
        return PuzzleError(puzzle.file, field, message)

    try:
        start = puzzle.start()
    except VelvetError as error:
        raise fail("position", f"{error} (the format is in docs/engine.md, Positions)") from None
    if start.is_terminal():
        raise fail("position", "the game is already over in this position")
    if start.current_player != puzzle.seat:
        raise fail("seat", f"player {puzzle.seat + 1} does not move first in this position")
    legal = [str(a) for a in start.legal_actions()]
    if len(legal) < 2:
        raise fail("position", "the solver has only one legal move here: no puzzle")
    if puzzle.answer not in legal:
        raise fail(
            "answer",
            f"'{puzzle.answer}' is not a legal move there: choose one of "
            + ", ".join(legal[:8])
            + ("…" if len(legal) > 8 else ""),
        )
    return start


def load_puzzles(
    game: Game[Any], folders: Sequence[Path] = (), *, builtin: bool = True
) -> list[Puzzle]:
    """The game's puzzles in file-name order: the built-in ones (unless ``builtin`` is false),
    then each folder's ``*.toml``; a file with a built-in puzzle's name replaces it."""
    found: dict[str, Puzzle] = {}
    for path, label in data_files("puzzles", game.name, folders, builtin, PuzzleError, MAX_PUZZLES):
        puzzle = read_puzzle(path, game, label)
        found[puzzle.id] = puzzle
    return sorted(found.values(), key=lambda puzzle: puzzle.id)


# --- judging a position ----------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """Whether a position makes a puzzle, and what the search found."""

    ok: bool
    reason: str
    best: Hint | None = None
    rival: Hint | None = None
    deals: int = 0
    agree: int = 0

    @property
    def gap(self) -> float:
        return self.best.win - self.rival.win if self.best and self.rival else 0.0


@dataclass(frozen=True)
class Settings:
    """How hard :func:`judge_position` looks (the module's constants by default)."""

    deep: int = DEEP_BUDGET
    screen: int = SCREEN_BUDGET
    deals: int = DEALS
    deal_budget: int = DEAL_BUDGET
    min_gap: float = MIN_GAP
    min_z: float = MIN_Z
    compare: int = COMPARE_BUDGET
    rivals: int = RIVALS
    agree: float = AGREE
    tie: float = TIE


def judge_position(state: State[Any], seat: int, settings: Settings = Settings()) -> Verdict:
    """Whether ``seat``'s decision in ``state`` is a puzzle (the module docstring's two
    tests), judged from ``state.view(seat)`` only."""
    if state.is_terminal() or state.current_player != seat:
        return Verdict(False, "not this seat's decision")
    legal = state.legal_actions()
    if len({str(a) for a in legal}) < 2:
        return Verdict(False, "only one legal move")
    first = hints(state, seat, settings.screen, top=2)
    if len(first) < 2 or first[0].win - first[1].win < settings.min_gap / 2:
        return Verdict(False, "no clear best move at first look")
    found = hints(state, seat, settings.deep, top=1 + settings.rivals)
    if len(found) < 2:
        return Verdict(False, "the search tried one move only", found[0] if found else None)
    best = found[0]
    values = {h.action: value_after(state, seat, h.action, settings.compare) for h in found}
    best_mean, best_error = values[best.action]
    worst_z, rival = math.inf, found[1]
    for hint in found[1:]:
        mean, error = values[hint.action]
        z = (best_mean - mean) / math.hypot(best_error, error)
        if z < worst_z:
            worst_z, rival = z, hint
    name = state.game.name
    gap = calibrated(name, best_mean) - calibrated(name, values[rival.action][0])
    best = replace(best, win=calibrated(name, best_mean))
    rival = replace(rival, win=calibrated(name, values[rival.action][0]))
    if gap < settings.min_gap or worst_z < settings.min_z:
        return Verdict(
            False,
            f"not clearly best: {gap:+.0%} (z {worst_z:.1f}) ahead of {rival.label}",
            best,
            rival,
        )
    agree, deals = deal_agreement(state, seat, best.action, settings)
    if agree < math.ceil(settings.agree * deals):
        return Verdict(
            False,
            f"depends on hidden cards: best on {agree} of {deals} deals only",
            best,
            rival,
            deals,
            agree,
        )
    return Verdict(True, "clearly best", best, rival, deals, agree)


def value_after(state: State[Any], seat: int, action: Any, budget: int) -> tuple[float, float]:
    """The search's mean value of ``action`` for ``seat`` and the standard error of that
    mean: ``budget`` simulations of the hint search below ``action`` alone, on samples of
    the view (the error from the spread of the simulations' own values)."""
    game = state.game
    view = state.view(seat)
    rng = Rng(view_seed(view, salt=hash_text(str(action))))
    bot = _search_bot(game, Budget(count=budget))
    evaluate = get_evaluator(game.name)
    root = _Node(seat)
    rewards: list[float] = []
    for _ in range(budget):
        sample = determinize(game, view, seat, Rng(rng.randbelow(_SEED_RANGE)))
        child = root.children.get(action)
        before = child.total if child is not None else 0.0
        bot._iterate(game, sample, root, seat, rng, evaluate, root_moves=[action])
        child = root.children.get(action)
        if child is not None:
            rewards.append(child.total - before)
    if len(rewards) < 2:
        return (rewards[0] if rewards else 0.0), 1.0
    mean = sum(rewards) / len(rewards)
    variance = sum((r - mean) ** 2 for r in rewards) / (len(rewards) - 1)
    return mean, math.sqrt(max(variance, 1e-6) / len(rewards))


def hash_text(text: str) -> int:
    """A stable small int of a text (Python's ``hash`` of a str changes per run)."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


def deal_agreement(
    state: State[Any], seat: int, answer: Any, settings: Settings = Settings()
) -> tuple[int, int]:
    """On how many of ``settings.deals`` deals of ``seat``'s view a search that sees the whole
    deal finds ``answer`` best (within ``settings.tie``); and the number of deals."""
    game = state.game
    view = state.view(seat)
    rng = Rng(view_seed(view, salt=26))
    bot = _search_bot(game, Budget(count=settings.deal_budget))
    evaluate = get_evaluator(game.name)
    agree = 0
    for _ in range(settings.deals):
        deal = determinize(game, view, seat, Rng(rng.randbelow(_SEED_RANGE)))
        legal = deal.legal_actions()
        if answer not in legal:
            continue
        root = _Node(seat)
        for _ in range(settings.deal_budget):
            bot._iterate(game, deal.clone(), root, seat, rng, evaluate, root_moves=legal)
        means = {a: c.total / c.visits for a, c in root.children.items() if c.visits}
        if answer in means and means[answer] >= max(means.values()) - settings.tie:
            agree += 1
    return agree, settings.deals


def why_text(verdict: Verdict) -> str:
    """Why the answer is right, in words, from the verdict."""
    best, rival = verdict.best, verdict.rival
    if best is None or rival is None:
        return ""
    reason = "; ".join(
        part for part in best.reason.split("; ") if not part.endswith("the next choice")
    )
    return (
        f"{best.label}: {reason}. From what you can see, the search gives it "
        f"{best.win:.0%} to win, {verdict.gap:.0%} more than the next best move "
        f"({rival.label}, {rival.win:.0%}); it is the best move on {verdict.agree} of "
        f"{verdict.deals} deals of the cards you cannot see."
    )


# --- mining bot games ------------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """A position that makes a puzzle, ready to be written."""

    position: dict[str, Any]
    seat: int
    verdict: Verdict
    seed: int
    ply: int


def writable(
    game: Game[Any], state: State[Any], seed: int
) -> tuple[State[Any], dict[str, Any]] | None:
    """``state`` as a puzzle can hold it: (the state rebuilt from its position, the position),
    or None when it is no decision of two or more moves, the position format cannot hold it,
    or it rebuilds with other legal moves."""
    legal = [str(a) for a in state.legal_actions()]
    if len(set(legal)) < 2:
        return None
    try:
        position = game.position_of(state, seed=seed)
        rebuilt = game.position(position)
    except ConfigError:
        return None
    if [str(a) for a in rebuilt.legal_actions()] != legal:
        return None
    return rebuilt, position


def candidates(
    game: Game[Any], bot: str, seed: int, per_game: int, skip: int = 2
) -> Iterator[tuple[State[Any], dict[str, Any], int]]:
    """Positions of one game of ``bot`` against itself from ``seed`` that the position format
    can hold and that rebuild with the same legal moves: (rebuilt state, position, ply),
    at most ``per_game``, spread over the game (every ``skip``-th writable decision)."""
    from velvet.bots.registry import make_bot
    from velvet.games import get_spec

    spec = get_spec(game.name)
    state = game.new_state(spec.config_for(game, spec.players[0], {}), seed)
    rng = Rng(seed + 1)
    bots: dict[int, Any] = {}
    made = held = 0
    ply = 0
    while not state.is_terminal() and made < per_game and ply < 5000:
        seat = state.current_player
        legal = state.legal_actions()
        fits = writable(game, state, seed + ply)
        if fits is not None:
            held += 1
            if held % skip == 0:
                made += 1
                yield fits[0], fits[1], ply
        if seat not in bots:
            bots[seat] = make_bot(bot, game.name)
            if hasattr(bots[seat], "seat"):
                bots[seat].seat = seat
        state.apply_unchecked(bots[seat].choose(game, state.view(seat), legal, rng))
        ply += 1


def generate(
    game: Game[Any],
    count: int,
    seed: int = 0,
    bot: str = "easy",
    settings: Settings = Settings(),
    per_game: int = 10,
    keep_per_game: int = 3,
    max_games: int = 500,
    progress: Callable[[str], None] | None = None,
) -> Iterator[Found]:
    """Up to ``count`` puzzles mined from games of ``bot`` against itself, game ``i`` from
    seed ``seed + i``: reproducible from ``seed`` (every search is seeded by its view)."""
    made = 0
    seen: set[str] = set()
    for i in range(max_games):
        if made >= count:
            return
        kept = 0
        for state, position, ply in candidates(game, bot, seed + i, per_game):
            seat = state.current_player
            key = state.canonical()
            if key in seen:
                continue
            seen.add(key)
            started = time.perf_counter()
            verdict = judge_position(state, seat, settings)
            if progress is not None:
                took = time.perf_counter() - started
                progress(f"game {i} ply {ply}: {verdict.reason} ({took:.1f} s)")
            if verdict.ok:
                yield Found(position, seat, verdict, seed + i, ply)
                made += 1
                kept += 1
                if made >= count or kept >= keep_per_game:
                    break


def puzzle_toml(
    found: Found, title: str, bot: str, budget: int, source: Mapping[str, Any] | None = None
) -> str:
    """The puzzle file's text for a found position (``source``: where it came from, else
    the game of ``bot`` from ``found.seed``)."""
    verdict = found.verdict
    assert verdict.best is not None and verdict.rival is not None  # a kept verdict has both
    head: dict[str, Any] = {
        "title": title,
        "seat": found.seat + 1,
        "answer": str(verdict.best.action),
        "why": why_text(verdict),
    }
    verified = {
        "budget": budget,
        "win": round(verdict.best.win, 4),
        "next_win": round(verdict.rival.win, 4),
        "next_move": str(verdict.rival.action),
        "deals": verdict.deals,
        "agree": verdict.agree,
    }
    source = dict(source) if source else {"bot": bot, "seed": found.seed, "ply": found.ply}
    made = "velvet puzzle --from" if "record" in source else "velvet puzzle generate"
    lines = [f"# A puzzle: the format is in docs/learn.md, Puzzles. Made by {made}."]
    lines += [f"{k} = {_toml_value(v)}" for k, v in head.items()]
    lines += ["", "[verified]"] + [f"{k} = {_toml_value(v)}" for k, v in verified.items()]
    lines += ["", "[source]"] + [f"{k} = {_toml_value(v)}" for k, v in source.items()]
    lines += ["", *_toml_table("position", found.position)]
    return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise ConfigError(f"cannot write {value!r} in a puzzle file")


def _toml_table(name: str, data: Mapping[str, Any]) -> list[str]:
    """A table; a list of tables under it as an array of tables (``[[name.key]]``)."""
    lines = [f"[{name}]"]
    nested: list[str] = []
    for key, value in data.items():
        if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            for item in value:
                nested += ["", f"[[{name}.{key}]]"]
                nested += [f"{k} = {_toml_value(v)}" for k, v in item.items()]
        else:
            lines.append(f"{key} = {_toml_value(value)}")
    return lines + nested


def write_puzzles(
    game: Game[Any],
    out: Path,
    count: int,
    seed: int = 0,
    bot: str = "easy",
    settings: Settings = Settings(),
    first: int = 1,
    progress: Callable[[str], None] | None = None,
) -> list[Path]:
    """Mine ``count`` puzzles (:func:`generate`) and write them to ``out`` as ``NNN.toml``,
    numbered from ``first``; each file is checked by :func:`read_puzzle` once written."""
    from velvet.games import get_spec

    out.mkdir(parents=True, exist_ok=True)
    title = get_spec(game.name).short_title or game.name
    written: list[Path] = []
    for number, found in enumerate(
        generate(game, count, seed, bot, settings, progress=progress), start=first
    ):
        path = out / f"{number:03d}.toml"
        path.write_text(puzzle_toml(found, f"{title} puzzle {number}", bot, settings.deep))
        read_puzzle(path, game)
        written.append(path)
        if progress is not None:
            progress(f"wrote {path}")
    return written


def record_digest(record: GameRecord) -> str:
    """The first 16 hex digits of the SHA-256 of a record's JSON (which game a mistake
    puzzle came from, without storing the game)."""
    text = json.dumps(record.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def mistakes(
    game: Game[Any],
    record: GameRecord,
    seats: Sequence[int] | None = None,
    settings: Settings = Settings(),
    progress: Callable[[str], None] | None = None,
) -> Iterator[tuple[Found, str]]:
    """Puzzles of the mistakes in a played game: each decision of ``seats`` (default: the
    record's human seats, else every seat) where one move was clearly best, judged as the
    generator judges (:func:`judge_position`, from the mover's view only), and another move
    was played. Yields (the puzzle, the move played); the position must fit the position
    format and rebuild with the same legal moves, as a generated puzzle's."""
    from velvet.learn.review import positions

    moves, _ = positions(game, record)
    if seats is None:
        humans = [i for i, who in enumerate(record.seats) if who == "human"]
        seats = humans or None
    for position in moves:
        state = position.state
        seat = state.current_player
        if seats is not None and seat not in seats:
            continue
        fits = writable(game, state, record.seed + position.index)
        if fits is None:
            continue
        rebuilt, written = fits
        started = time.perf_counter()
        verdict = judge_position(rebuilt, seat, settings)
        played = str(position.action)
        if progress is not None:
            took = time.perf_counter() - started
            progress(f"move {position.index} ({played}): {verdict.reason} ({took:.1f} s)")
        if verdict.ok and verdict.best is not None and str(verdict.best.action) != played:
            yield Found(written, seat, verdict, record.seed, position.index - 1), played


def write_mistakes(
    game: Game[Any],
    record: GameRecord,
    out: Path,
    seats: Sequence[int] | None = None,
    settings: Settings = Settings(),
    progress: Callable[[str], None] | None = None,
) -> list[Path]:
    """The puzzles of :func:`mistakes` written to ``out`` as ``mistake-DIGEST-PLY.toml``
    (one game's puzzles keep their names when it is mined again), each checked once
    written."""
    out.mkdir(parents=True, exist_ok=True)
    digest = record_digest(record)
    written: list[Path] = []
    for found, played in mistakes(game, record, seats, settings, progress):
        source = {"record": digest, "played": played, "ply": found.ply}
        title = f"Your move {found.ply + 1}"
        path = out / f"mistake-{digest}-{found.ply:03d}.toml"
        path.write_text(puzzle_toml(found, title, "", settings.deep, source), encoding="utf-8")
        read_puzzle(path, game)
        written.append(path)
    return written
