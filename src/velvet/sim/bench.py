"""Velvet Bench: frozen arena tasks, so that agents rated on different days compare.

A task (``velvet/data/bench.toml``, docs/bench.md) pins everything a rating depends on: the
game and its rules version, the card set's hash, the set-up (the config's hash, whether
set-ups are drawn from the seeds, and a hash of every set-up its games use), the base seed
and number of games, and the reference opponents with fixed budgets (simulations, not
seconds, so a faster machine plays the same bots). :func:`check_task` refuses to run a
task whose pins no longer match this Velvet (a card or rule change fails loudly: such a
change needs a new task version); :func:`run_task` runs the entries against the
reference opponents with :func:`velvet.sim.arena.run_arena` (the paired-seed protocol:
in a game of rivals every seed in both seat orders; co-op, the same set-ups for every
entry) and returns its rating table.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from velvet.engine.core import canonical_json
from velvet.engine.errors import ConfigError
from velvet.games import get_spec
from velvet.sim.arena import ArenaOptions, ArenaResult, run_arena
from velvet.sim.run import game_config, game_seed

BENCH_FILE = "bench.toml"


@dataclass(frozen=True)
class Task:
    """One frozen bench task (a table of bench.toml)."""

    name: str
    game: str
    players: int
    rules_version: str
    cardset_hash: str
    config_sha256: str
    setups_sha256: str
    vary: bool
    seed: int
    games: int
    opponents: tuple[str, ...]
    anchor: str
    description: str

    @property
    def cooperative(self) -> bool:
        return get_spec(self.game).cooperative


def load_tasks() -> dict[str, Task]:
    """Every task of the bench file shipped with Velvet, by name."""
    text = resources.files("velvet").joinpath("data", BENCH_FILE).read_text(encoding="utf-8")
    data = tomllib.loads(text)
    tasks: dict[str, Task] = {}
    for name, entry in data["tasks"].items():
        tasks[name] = Task(
            name=name,
            game=str(entry["game"]),
            players=int(entry["players"]),
            rules_version=str(entry["rules_version"]),
            cardset_hash=str(entry["cardset_hash"]),
            config_sha256=str(entry["config_sha256"]),
            setups_sha256=str(entry["setups_sha256"]),
            vary=bool(entry["vary"]),
            seed=int(entry["seed"]),
            games=int(entry["games"]),
            opponents=tuple(str(b) for b in entry["opponents"]),
            anchor=str(entry["anchor"]),
            description=str(entry.get("description", "")),
        )
    return tasks


def get_task(name: str) -> Task:
    tasks = load_tasks()
    if name not in tasks:
        raise ConfigError(f"unknown bench task {name!r}: choose one of {', '.join(tasks)}")
    return tasks[name]


def task_config(task: Task) -> dict[str, Any]:
    """The task's base set-up: its game's default config for its seats."""
    spec = get_spec(task.game)
    config: dict[str, Any] = spec.config_for(spec.load(()), task.players, {})
    return config


def pins(task: Task, games: int | None = None) -> dict[str, str]:
    """What this Velvet gives for the task's pins (``games`` set-ups hashed; default all)."""
    spec = get_spec(task.game)
    game = spec.load(())
    config = task_config(task)
    setups = [
        game_config(spec, game, config, game_seed(task.seed, i), task.vary)
        for i in range(task.games if games is None else games)
    ]
    return {
        "rules_version": game.rules_version,
        "cardset_hash": game.cardset_hash(),
        "config_sha256": _sha256(config),
        "setups_sha256": _sha256(setups),
    }


def check_task(task: Task) -> None:
    """ConfigError naming every pin of ``task`` that this Velvet no longer matches."""
    now = pins(task)
    wrong = [
        f"{key} is {now[key][:16]}, the task pins {getattr(task, key)[:16]}"
        for key in ("rules_version", "cardset_hash", "config_sha256", "setups_sha256")
        if now[key] != getattr(task, key)
    ]
    if wrong:
        raise ConfigError(
            f"bench task {task.name} is frozen and this Velvet differs: {'; '.join(wrong)} "
            "(the rules, cards or set-ups changed: a new task version is needed)"
        )


def run_task(
    task: Task,
    entries: Sequence[str],
    out: Path,
    games: int | None = None,
    workers: int | None = None,
    progress: bool = False,
    say: Any = None,
) -> ArenaResult:
    """Rate ``entries`` on ``task`` beside its reference opponents (checked first)."""
    if not entries:
        raise ConfigError("give the bots to rate: --bot X (a built-in bot, module:Class, cmd:...)")
    check_task(task)
    clash = [e for e in entries if e.strip().lower() in task.opponents]
    if clash:
        raise ConfigError(
            f"{', '.join(clash)} is already one of {task.name}'s reference opponents "
            f"({', '.join(task.opponents)})"
        )
    n_games = task.games if games is None else games
    options = ArenaOptions(
        n_games=n_games,
        seed=task.seed,
        config=task_config(task),
        vary=task.vary,
        players=task.players,
        workers=workers,
        progress=progress,
        anchor=None if task.cooperative else task.anchor,
    )
    bots = [*task.opponents, *entries]
    if say is None:
        return run_arena(task.game, bots, out, options)
    return run_arena(task.game, bots, out, options, say=say)


def _sha256(data: Any) -> str:
    return hashlib.sha256(canonical_json(data).encode()).hexdigest()
