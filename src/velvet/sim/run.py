"""Batch simulation: many seeded games, every core or a Ray cluster, resumable.

Game ``i`` of a run is seeded by :func:`game_seed` ``(base_seed, i)`` alone, so
any game replays by itself (``replay_game``), runs split over machines merge
by index, and an interrupted run resumes by playing only the missing indices.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from velvet.bots import Bot
from velvet.bots.external import Forfeit, close_bots, make_entrant
from velvet.engine.core import Game, State
from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng
from velvet.engine.spec import GameSpec
from velvet.engine.workers import die_with_parent
from velvet.games import get_spec
from velvet.sim.results import MAX_GAMES, SUMMARY_FILE, ResultStore, Row, atomic_write_json
from velvet.sim.stats import wilson

Backend = Literal["pool", "ray"]
BACKENDS = ("pool", "ray")
MAX_ACTIONS = 20_000
"""A game still running after this many actions is stopped and recorded as an error
(real P5 and VS games take tens to hundreds of actions)."""

MAX_MAX_ACTIONS = 1_000_000
MAX_WORKERS = 1024

RESERVED = ("index", "seed", "winner", "length", "turns", "seconds", "error", "outcome")
_MASK = (1 << 64) - 1


def _mix64(x: int) -> int:
    """The SplitMix64 finaliser: a bijective scramble of 64 bits."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def game_seed(base_seed: int, index: int) -> int:
    """Seed of game ``index`` in a run: ``mix64(mix64(base_seed) ^ index) >> 1``.

    A pure function of the two numbers (63 bits, never negative), so a game
    replays alone and shards of one run (different index ranges) merge.
    """
    return _mix64(_mix64(base_seed & _MASK) ^ index) >> 1


def bot_seed(seed: int, seat: int) -> int:
    """Seed of the RNG that the bot in ``seat`` uses during game ``seed``."""
    return _mix64(seed ^ ((seat + 1) * 0xD1B54A32D192ED03 & _MASK)) >> 1


@dataclass
class Summary:
    """What a run produced: counts, per-seat win rates (95% Wilson) and lengths."""

    game: str
    seats: list[str]
    n_games: int
    finished: int
    errors: int
    interrupted: bool
    seconds: float
    played_now: int
    win_rates: list[dict[str, Any]] = field(default_factory=list)
    mean_length: float = 0.0
    mean_turns: float | None = None
    out: str = ""
    first_player: dict[str, Any] | None = None
    """The first player's win rate (95% Wilson, a draw counts half) when rows record
    ``first_player``; else None."""
    setup: dict[str, Any] = field(default_factory=dict)
    """The config's single-valued entries (VS: ``first_player``, ``second_draws``)."""

    @property
    def games_per_second(self) -> float:
        return self.played_now / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seats": self.seats,
            "n_games": self.n_games,
            "finished": self.finished,
            "errors": self.errors,
            "interrupted": self.interrupted,
            "win_rates": self.win_rates,
            "mean_length": round(self.mean_length, 3),
            "mean_turns": None if self.mean_turns is None else round(self.mean_turns, 3),
            "first_player": self.first_player,
            "setup": self.setup,
            "played_now": self.played_now,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 3),
        }

    def lines(self) -> list[str]:
        """A few lines for a terminal."""
        out = [f"{self.game}: {self.finished}/{self.n_games} games in {self.out}"]
        for item in self.win_rates:
            lo, hi = item["ci95"]
            out.append(
                f"  seat {item['seat']} {item['bot']}: win {item['rate']:.1%} "
                f"[{lo:.1%}, {hi:.1%}] over {item['n']}"
            )
        if self.first_player is not None:
            lo, hi = self.first_player["ci95"]
            out.append(
                f"  first player: win {self.first_player['rate']:.1%} [{lo:.1%}, {hi:.1%}] "
                f"over {self.first_player['n']} (a draw counts half)"
            )
        if self.setup:
            shown = ", ".join(f"{key}={json.dumps(value)}" for key, value in self.setup.items())
            out.append(f"  set-up: {shown}")
        out.append(f"  mean length {self.mean_length:.1f} actions")
        if self.errors:
            out.append(f"  {self.errors} game(s) failed: see the 'error' column")
        if self.interrupted:
            out.append(
                "  interrupted: finished games kept; run again with the same --out to resume"
            )
        return out


# ------------------------------------------------------------------ playing


def make_bots(seats: Sequence[str], game_name: str) -> list[Bot]:
    """One fresh bot per seat spec (raises ConfigError on a bad spec): a built-in bot or an
    external agent (``module:Class``, ``cmd:PROGRAM``; velvet.bots.external)."""
    return [make_entrant(spec, game_name) for spec in seats]


def play_game(
    game: Game[Any],
    config: Mapping[str, Any],
    seed: int,
    bots: Sequence[Bot],
    max_actions: int = MAX_ACTIONS,
    on_action: Callable[[State[Any], Any], None] | None = None,
    on_start: Callable[[State[Any]], None] | None = None,
) -> tuple[State[Any], int]:
    """Play one game to its end; each bot sees only its seat's view. Returns (state, length)."""
    state = game.new_state(config, seed)
    if on_start is not None:
        on_start(state)
    rngs: list[Rng] = []
    length = 0
    while not state.is_terminal():
        if length >= max_actions:
            raise ConfigError(f"game did not end within {max_actions} actions")
        seat = state.current_player
        while len(rngs) <= seat:
            rngs.append(Rng(bot_seed(seed, len(rngs))))
        bot = _bot_for(bots, seat)
        legal = state.legal_actions()
        try:
            action = bot.choose(game, state.view(seat), legal, rngs[seat])
        except Forfeit as forfeit:  # an external agent broke the rules: its seat loses
            forfeit.seat = seat
            forfeit.length = length
            raise
        if on_action is not None:
            on_action(state, action)
        state.apply_unchecked(action)
        length += 1
    return state, length


def _bot_for(bots: Sequence[Bot], seat: int) -> Bot:
    if seat >= len(bots):
        raise ConfigError(f"seat {seat} has no bot: give one --seat per seat ({len(bots)} given)")
    bot = bots[seat]
    if bot.seat is None:
        bot.seat = seat
    return bot


def play_row(
    sim_game: GameSpec,
    game: Game[Any],
    config: Mapping[str, Any],
    seats: Sequence[str],
    base_seed: int,
    index: int,
    max_actions: int = MAX_ACTIONS,
    vary: bool = False,
) -> Row:
    """Play game ``index`` of a run and summarise it as one results row.

    A game that breaks (an engine bug, a stuck game) gives a row whose
    ``error`` column says why, so one bad game does not sink a long run.
    """
    seed = game_seed(base_seed, index)
    row: Row = {"index": index, "seed": seed}
    config = game_config(sim_game, game, config, seed, vary)
    start = time.perf_counter()
    columns: dict[str, Any] = {}
    track = sim_game.track

    def on_action(state: State[Any], action: Any) -> None:
        if track is not None:
            track(state, action, columns)

    bots: list[Bot] = []
    try:
        bots = make_bots(seats, sim_game.name)
        state, length = play_game(
            game,
            config,
            seed,
            bots,
            max_actions,
            on_action=on_action if track is not None else None,
            on_start=lambda first: columns.update(sim_game.start(first)),
        )
        returns = state.returns()
        summary = {**columns, **sim_game.summarize(state)}
    except Forfeit as forfeit:  # a lost game for the offender, not a failed one
        return _forfeit_row(row, forfeit, sim_game, seats, columns, start)
    except Exception as exc:  # recorded in the row, not hidden
        row.update(winner=None, length=None, turns=None, error=_one_line(exc), outcome=None)
        row["seconds"] = round(time.perf_counter() - start, 6)
        return row
    finally:
        close_bots(bots)
    row["winner"] = winner_of(returns)
    row["length"] = length
    turns = summary.get(sim_game.turns_key) if sim_game.turns_key else None
    row["turns"] = turns if isinstance(turns, int) and not isinstance(turns, bool) else None
    row["seconds"] = round(time.perf_counter() - start, 6)
    row["error"] = None
    row["outcome"] = state.outcome_text()
    for seat, value in enumerate(returns):
        row[f"return_{seat}"] = float(value)
        row[f"bot_{seat}"] = seats[seat] if seat < len(seats) else ""
    for key, value in summary.items():
        if key == sim_game.turns_key and key in RESERVED:
            continue
        row[key if key not in RESERVED else f"g_{key}"] = _cell(value)
    return row


FORFEIT = "forfeit"
"""How a forfeited game's ``outcome`` starts: ``forfeit by seat 2 (BOT): REASON``."""


def _forfeit_row(
    row: Row,
    forfeit: Forfeit,
    sim_game: GameSpec,
    seats: Sequence[str],
    columns: dict[str, Any],
    start: float,
) -> Row:
    """The row of a game an external agent forfeited: its seat scores 0 and, in a game of
    rivals, every other seat 1; in a co-op game every seat has lost."""
    seat = forfeit.seat if forfeit.seat is not None else 0
    n = len(seats)
    returns = [0.0 if sim_game.cooperative or s == seat else 1.0 for s in range(n)]
    row["winner"] = winner_of(returns)
    row["length"] = forfeit.length
    row["turns"] = None
    row["seconds"] = round(time.perf_counter() - start, 6)
    row["error"] = None
    row["outcome"] = f"{FORFEIT} by seat {seat + 1} ({forfeit.bot}): {forfeit.reason}"[:500]
    for s, value in enumerate(returns):
        row[f"return_{s}"] = value
        row[f"bot_{s}"] = seats[s]
    for key, value in columns.items():
        row[key if key not in RESERVED else f"g_{key}"] = _cell(value)
    return row


def setup_seed(seed: int) -> int:
    """Seed of the RNG that picks game ``seed``'s set-up when set-ups vary."""
    return _mix64(seed ^ 0x5EED5E7C0FF1CE) >> 1


def game_config(
    sim_game: GameSpec, game: Game[Any], config: Mapping[str, Any], seed: int, vary: bool
) -> Mapping[str, Any]:
    """The configuration of one game: ``config``, or a set-up drawn from it when varying."""
    if not vary:
        return config
    if sim_game.vary is None:
        raise ConfigError(f"game '{sim_game.name}' cannot vary its set-up")
    return sim_game.vary(game, dict(config), Rng(setup_seed(seed)))


def winner_of(returns: Sequence[float]) -> int | None:
    """The one seat with the best return, or None (a draw, or a co-op game)."""
    best = max(returns)
    top = [i for i, v in enumerate(returns) if v == best]
    return top[0] if len(top) == 1 and len(returns) > 1 else None


def _cell(value: Any) -> Any:
    """A summary value as a results cell: lists become ';'-joined text."""
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value) if isinstance(value, set | frozenset) else value
        return ";".join(str(v) for v in items)
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return f"{type(exc).__name__}: {text}"[:500]


_GAMES: dict[tuple[str, tuple[str, ...]], tuple[GameSpec, Game[Any]]] = {}


def _loaded(game_name: str, cards: tuple[str, ...]) -> tuple[GameSpec, Game[Any]]:
    """Load a game once per process (workers keep it between chunks)."""
    key = (game_name, cards)
    if key not in _GAMES:
        sim_game = get_spec(game_name)
        _GAMES[key] = (sim_game, sim_game.load(cards))
    return _GAMES[key]


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to play games of one run (picklable)."""

    game_name: str
    cards: tuple[str, ...]
    config: dict[str, Any]
    seats: tuple[str, ...]
    base_seed: int
    max_actions: int = MAX_ACTIONS
    vary: bool = False


def run_chunk(job: Job, indices: list[int]) -> list[Row]:
    """Play the games ``indices`` of a run (the unit of work sent to a worker)."""
    sim_game, game = _loaded(job.game_name, job.cards)
    return [
        play_row(sim_game, game, job.config, job.seats, job.base_seed, i, job.max_actions, job.vary)
        for i in indices
    ]


def replay_game(
    game_name: str,
    config: Mapping[str, Any],
    seats: Sequence[str],
    base_seed: int,
    index: int,
    cards: Sequence[str] = (),
    vary: bool = False,
) -> tuple[State[Any], list[str]]:
    """Replay game ``index`` of a run alone: its final state and its actions as text."""
    sim_game = get_spec(game_name)
    game = sim_game.load(tuple(str(c) for c in cards))
    actions: list[str] = []
    seed = game_seed(base_seed, index)
    state, _ = play_game(
        game,
        game_config(sim_game, game, config, seed, vary),
        seed,
        make_bots(seats, game_name),
        on_action=lambda _s, a: actions.append(str(a)),
    )
    return state, actions


# ------------------------------------------------------------------ running


def run_sim(
    game_name: str,
    n_games: int,
    seats: list[str],
    config: dict[str, Any],
    base_seed: int,
    out: Path,
    workers: int | None = None,
    backend: Backend = "pool",
    ray_address: str | None = None,
    card_paths: Sequence[Path | str] = (),
    progress: bool = True,
    *,
    start: int = 0,
    chunk_size: int | None = None,
    fmt: str | None = None,
    max_actions: int = MAX_ACTIONS,
    vary: bool = False,
) -> Summary:
    """Play games ``start .. start+n_games-1`` of a run into ``out``; resume if begun.

    ``workers`` defaults to every core; ``workers=1`` plays in this process.
    ``backend="ray"`` sends chunks to Ray (a local cluster, or ``ray_address``).
    Ctrl-C stops early: finished chunks stay on disk and the summary is written.
    ``vary=True`` draws each game's set-up (P5: thieves, personas, palace; VS:
    player cards) from the game's choices, seeded by the game's seed.
    """
    if not 0 < n_games <= MAX_GAMES:
        raise ConfigError(f"--games must be a positive number (1..{MAX_GAMES}), not {n_games}")
    if not 0 <= start <= MAX_GAMES:
        raise ConfigError(f"--start must be 0..{MAX_GAMES}, not {start}")
    if backend not in BACKENDS:
        raise ConfigError(f"unknown backend '{backend}': choose one of {', '.join(BACKENDS)}")
    if ray_address and backend != "ray":
        raise ConfigError("--address is for the ray backend: add --backend ray")
    if workers is not None and not 0 < workers <= MAX_WORKERS:
        raise ConfigError(f"--workers must be a positive number (1..{MAX_WORKERS}), not {workers}")
    if not seats:
        raise ConfigError("give at least one --seat bot")
    if not 0 < max_actions <= MAX_MAX_ACTIONS:
        raise ConfigError(
            f"--max-actions must be a positive number (1..{MAX_MAX_ACTIONS}), not {max_actions}"
        )
    cards = tuple(str(p) for p in card_paths)
    sim_game, game = _loaded(game_name, cards)
    make_bots(seats, sim_game.name)  # fail fast on a bad spec, before any process starts
    first = game_seed(base_seed, start)
    game.new_state(game_config(sim_game, game, config, first, vary), first)  # bad config?
    store = ResultStore(Path(out), fmt)
    store.start(
        {
            "game": game_name,
            "seats": list(seats),
            "config": config,
            "base_seed": base_seed,
            "cards": list(cards),
            "vary": vary,
            "n_games": start + n_games,
            "seed_function": "velvet.sim.run.game_seed",
            "rules_version": game.rules_version,
            "cardset_hash": game.cardset_hash(),
        }
    )
    done = store.done_indices()
    todo = [i for i in range(start, start + n_games) if i not in done]
    n_workers = workers or os.cpu_count() or 1
    size = chunk_size or max(1, min(50, len(todo) // (n_workers * 8) or 1))
    chunks = [todo[i : i + size] for i in range(0, len(todo), size)]
    job = Job(game_name, cards, config, tuple(seats), base_seed, max_actions, vary)

    began = time.perf_counter()
    played = 0
    interrupted = False
    with _Progress(progress, len(todo), game_name) as bar:
        try:
            for rows in _execute(backend, n_workers, ray_address, job, chunks):
                store.write_chunk(rows)
                played += len(rows)
                bar.advance(len(rows))
        except KeyboardInterrupt:
            interrupted = True
    summary = summarize_run(store, game_name, list(seats), start + n_games)
    summary.setup = setup_entries(config)
    summary.interrupted = interrupted
    summary.played_now = played
    summary.seconds = time.perf_counter() - began
    atomic_write_json(store.root / SUMMARY_FILE, summary.to_json())
    return summary


def _execute(
    backend: str,
    n_workers: int,
    ray_address: str | None,
    job: Job,
    chunks: list[list[int]],
) -> Iterator[list[Row]]:
    if not chunks:
        return
    if backend == "ray":
        yield from _execute_ray(n_workers, ray_address, job, chunks)
    elif n_workers == 1:
        for chunk in chunks:
            yield run_chunk(job, chunk)
    else:
        yield from _execute_pool(n_workers, job, chunks)


INTERRUPT_POLL = 0.2
"""Seconds between a pool run's checks for Ctrl-C."""


@contextmanager
def _ctrl_c_sets(stop: threading.Event) -> Iterator[None]:
    """While inside, the first Ctrl-C only sets ``stop``; a second one interrupts at once.

    A KeyboardInterrupt raised at a random point of the main thread may land inside
    ``concurrent.futures.wait`` while it holds the futures' locks; the pool's manager
    thread then waits on them for ever and shutdown hangs. The loop below checks the flag
    between waits, where no lock is held. Off the main thread signals cannot be handled:
    nothing changes there.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: object) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _execute_pool(n_workers: int, job: Job, chunks: list[list[int]]) -> Iterator[list[Row]]:
    pool = ProcessPoolExecutor(
        max_workers=min(n_workers, len(chunks)),
        # spawn, not fork: a forked worker of a process with threads (Ray's gRPC, a
        # server's, a test runner's) may inherit a lock held or a fork handler that kills it
        mp_context=multiprocessing.get_context("spawn"),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )
    stop = threading.Event()
    try:
        with _ctrl_c_sets(stop):
            pending: set[Future[list[Row]]] = {
                pool.submit(run_chunk, job, chunk) for chunk in chunks
            }
            while pending:
                if stop.is_set():
                    raise KeyboardInterrupt
                finished, pending = wait(
                    pending, timeout=INTERRUPT_POLL, return_when=FIRST_COMPLETED
                )
                for future in finished:
                    yield future.result()
            if stop.is_set():
                raise KeyboardInterrupt
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def check_ray_address(address: str) -> None:
    """Fail in a second with a one-line ConfigError if a Ray address cannot be reached."""
    if address in ("auto", "local"):
        return
    target = address.removeprefix("ray://")
    host, sep, port_text = target.rpartition(":")
    if not sep or not host or not port_text.isdigit():
        raise ConfigError(f"bad Ray address '{address}': use HOST:PORT, ray://HOST:PORT or auto")
    try:
        with socket.create_connection((host, int(port_text)), timeout=3):
            pass
    except OSError as exc:
        raise ConfigError(f"cannot reach Ray at {address}: {exc.strerror or exc}") from None


def start_local_ray(n_workers: int) -> None:
    """Start a local Ray with ``n_workers`` CPUs whose workers import what this process can.

    ``run_sim(backend="ray")`` starts (and stops) one itself unless Ray is already
    running; starting it first lets a caller keep one Ray for several jobs.
    """
    import ray  # type: ignore[import-untyped,import-not-found,unused-ignore]

    path = os.pathsep.join(p for p in sys.path if p and os.path.isdir(p))
    ray.init(
        num_cpus=n_workers,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": path}},
    )


def _execute_ray(
    n_workers: int,
    ray_address: str | None,
    job: Job,
    chunks: list[list[int]],
) -> Iterator[list[Row]]:
    if ray_address:
        check_ray_address(ray_address)
    try:
        import ray  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        raise ConfigError("the ray backend needs Ray: pip install 'velvet[ray]'") from None
    started_here = False
    if not ray.is_initialized():
        if ray_address:
            try:
                ray.init(address=ray_address, log_to_driver=False)
            except Exception as exc:  # Ray raises many kinds: one line
                raise ConfigError(f"cannot join Ray at {ray_address}: {_one_line(exc)}") from None
        else:
            start_local_ray(n_workers)
        started_here = True
    remote = ray.remote(run_chunk)
    pending = [remote.remote(job, chunk) for chunk in chunks]
    try:
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            for ref in finished:
                yield ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started_here:
            ray.shutdown()


class _Progress:
    """A rich progress bar with rate and ETA (or nothing when disabled)."""

    def __init__(self, enabled: bool, total: int, label: str) -> None:
        self._enabled = enabled and total > 0
        self._total = total
        self._label = label
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> _Progress:
        if self._enabled:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._progress = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
            )
            self._progress.start()
            self._task = self._progress.add_task(self._label, total=self._total, rate="")
            self._began = time.perf_counter()
        return self

    def advance(self, n: int) -> None:
        if self._progress is not None:
            task = self._progress.tasks[0]
            elapsed = time.perf_counter() - self._began
            rate = (task.completed + n) / elapsed if elapsed > 0 else 0.0
            self._progress.update(self._task, advance=n, rate=f"{rate:7.1f} games/s")

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()


# ------------------------------------------------------------------ summary


def summarize_run(store: ResultStore, game: str, seats: list[str], n_games: int) -> Summary:
    """Win rates (95% Wilson), mean length and turns over every finished row."""
    rows = store.load_rows()
    good = [r for r in rows if not r.get("error")]
    n_seats = max([len(seats)] + [_seat_count(r) for r in good])
    win_rates = []
    for seat in range(n_seats):
        values = [r.get(f"return_{seat}") for r in good]
        got = [float(v) for v in values if v is not None]
        rate = wilson(sum(1 for v in got if v >= 1.0), len(got))
        win_rates.append(
            {"seat": seat, "bot": seats[seat] if seat < len(seats) else "", **rate.to_json()}
        )
    firsts = [r for r in good if _is_seat(r.get("first_player"))]
    first = wilson(sum(first_player_score(r) for r in firsts), len(firsts)) if firsts else None
    lengths = [r["length"] for r in good if r.get("length") is not None]
    turns = [r["turns"] for r in good if isinstance(r.get("turns"), int)]
    return Summary(
        game=game,
        seats=seats,
        n_games=n_games,
        finished=len(rows),
        errors=len(rows) - len(good),
        interrupted=False,
        seconds=0.0,
        played_now=0,
        win_rates=win_rates,
        mean_length=sum(lengths) / len(lengths) if lengths else 0.0,
        mean_turns=sum(turns) / len(turns) if turns else None,
        out=str(store.root),
        first_player=first.to_json() if first is not None else None,
    )


def _is_seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def first_player_score(row: Row) -> float:
    """1 if the row's first player won, 0.5 for a draw (every return equal), else 0."""
    returns = [row.get(f"return_{seat}") for seat in range(_seat_count(row))]
    mine = row.get(f"return_{row['first_player']}")
    if mine is None:
        return 0.0
    if float(mine) >= 1.0:
        return 1.0
    return 0.5 if len(set(returns)) == 1 else 0.0


def setup_entries(config: Mapping[str, Any]) -> dict[str, Any]:
    """The entries of a config that are one value (not a list of players or decks)."""
    return {
        key: value
        for key, value in config.items()
        if value is None or isinstance(value, str | int | float | bool)
    }


def _seat_count(row: Row) -> int:
    return sum(1 for key in row if key.startswith("return_") and row[key] is not None)
