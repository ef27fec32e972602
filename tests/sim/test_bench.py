"""Velvet Bench v1: the shipped tasks' pins match this Velvet, a changed pin is refused
loudly, and a task runs its entries against its reference opponents into a rating table."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from velvet.engine.errors import ConfigError
from velvet.sim import bench
from velvet.sim.bench_cli import bench_command

V1 = ("vs-builtin-v1", "p5-solo-v1", "p5-duo-v1")


@pytest.mark.parametrize("name", V1)
def test_the_shipped_tasks_pins_match_this_velvets_rules_cards_and_set_ups(name: str) -> None:
    # A change of the rules version, the card data, the default set-up or the way set-ups
    # are drawn from seeds fails here: the task is frozen, a new version (-v2) is needed.
    task = bench.get_task(name)
    now = bench.pins(task)
    assert now == {
        "rules_version": task.rules_version,
        "cardset_hash": task.cardset_hash,
        "config_sha256": task.config_sha256,
        "setups_sha256": task.setups_sha256,
    }
    bench.check_task(task)
    assert task.games == 100 and task.seed == 0 and task.anchor in task.opponents
    assert all(
        any(ch.isdigit() for ch in b) for b in task.opponents if b not in ("random", "greedy")
    )


def test_the_tasks_are_v1s_three() -> None:
    tasks = bench.load_tasks()
    assert tuple(tasks) == V1
    assert [t.players for t in tasks.values()] == [2, 1, 2]
    assert [t.vary for t in tasks.values()] == [False, True, True]


@pytest.mark.parametrize("key", ["rules_version", "cardset_hash", "config_sha256", "setups_sha256"])
def test_a_task_whose_pins_differ_is_refused_naming_the_pin(key: str, tmp_path: Path) -> None:
    changes: dict[str, Any] = {key: "0" * 64}
    task = dataclasses.replace(bench.get_task("p5-solo-v1"), **changes)
    with pytest.raises(ConfigError, match=f"p5-solo-v1 is frozen and this Velvet differs: {key}"):
        bench.run_task(task, ["random"], tmp_path / "out", games=1)
    assert not (tmp_path / "out").exists()


def test_one_more_set_up_changes_the_set_up_hash() -> None:
    task = bench.get_task("p5-solo-v1")
    assert bench.pins(task, games=99)["setups_sha256"] != task.setups_sha256


GET_TASK = bench.get_task


def cheap(name: str) -> bench.Task:
    """The task with only its cheap opponents (the search's games are minutes long)."""
    task = GET_TASK(name)
    return dataclasses.replace(task, opponents=tuple(b for b in task.opponents if ":" not in b))


def test_a_rivals_task_rates_the_entry_beside_the_opponents_anchored_at_greedy(
    tmp_path: Path,
) -> None:
    result = bench.run_task(cheap("vs-builtin-v1"), ["mcts:5"], tmp_path / "out", games=2)
    ratings = result.data["ratings"]
    assert ratings["anchor"] == "greedy"
    assert {row["bot"] for row in ratings["bots"]} == {"random", "greedy", "mcts:5"}
    greedy = next(row for row in ratings["bots"] if row["bot"] == "greedy")
    assert greedy["elo"] == 0
    assert all(row["games"] == 4 for row in result.data["pairings"])


def test_a_co_op_task_gives_each_entry_its_win_rate_on_the_same_set_ups(tmp_path: Path) -> None:
    result = bench.run_task(cheap("p5-duo-v1"), ["greedy:2"], tmp_path / "out", games=3)
    assert [entry["bot"] for entry in result.data["win_rates"]] == ["random", "greedy", "greedy:2"]
    assert all(entry["n"] == 3 for entry in result.data["win_rates"])


def test_an_entry_may_not_be_a_reference_opponent(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="Greedy is already one of vs-builtin-v1's reference"):
        bench.run_task(bench.get_task("vs-builtin-v1"), ["Greedy"], tmp_path, games=1)


def test_the_command_prints_the_table_and_says_a_small_run_is_not_the_tasks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench, "get_task", cheap)
    out = tmp_path / "out"
    result = CliRunner().invoke(
        bench_command,
        ["p5-solo-v1", "--bot", "greedy:2", "--games", "2", "--workers", "1", "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert "note: 2 games, not the task's 100: these are not p5-solo-v1 figures" in result.output
    assert "win rate [95 % Wilson]" in result.output and "greedy:2" in result.output
    assert (out / "ratings.json").is_file()
    bad = CliRunner().invoke(bench_command, ["p5-solo-v9", "--bot", "greedy"])
    assert bad.exit_code != 0 and "unknown bench task 'p5-solo-v9'" in bad.output
