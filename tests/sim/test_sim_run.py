"""Batch simulation: seeds, rows, resume, shards, interruption, backends, errors."""

from __future__ import annotations

import json
import signal
from concurrent import futures
from pathlib import Path
from typing import Any

import pytest

from velvet.engine.errors import ConfigError
from velvet.games import get_spec
from velvet.sim import run as sim_run
from velvet.sim.results import ResultStore, load_results
from velvet.sim.run import check_ray_address, game_seed, replay_game, run_sim
from velvet.sim.stats import wilson

DUEL = "velvet_toys:DUEL"
RACE = "velvet_toys:RACE"
VOLATILE = ("seconds",)


def strip(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows without timing, which differs between runs."""
    return [{k: v for k, v in r.items() if k not in VOLATILE} for r in rows]


def sim(out: Path, n: int = 20, **kw: Any) -> Any:
    args: dict[str, Any] = {"workers": 1, "progress": False}
    args.update(kw)
    game = args.pop("game", DUEL)
    seats = args.pop("seats", ["random", "greedy"])
    config = args.pop("config", {})
    seed = args.pop("seed", 7)
    return run_sim(game, n, seats, config, seed, out, **args)


def no_temp_files(root: Path) -> bool:
    return not [p for p in root.rglob("*") if p.name.endswith(".tmp")]


# ------------------------------------------------------------------ seeds


def test_game_seed_is_a_documented_pure_function() -> None:
    seeds = [game_seed(42, i) for i in range(10_000)]
    assert seeds == [game_seed(42, i) for i in range(10_000)]
    assert len(set(seeds)) == 10_000
    assert all(0 <= s < 2**63 for s in seeds)
    assert game_seed(43, 0) != game_seed(42, 0)
    assert "game_seed" in (sim_run.__doc__ or "") and sim_run.game_seed.__doc__


# ------------------------------------------------------------------ rows and summary


def test_run_writes_rows_run_json_and_summary(tmp_path: Path) -> None:
    summary = sim(tmp_path / "r", n=30)
    root = tmp_path / "r"
    meta = json.loads((root / "run.json").read_text())
    assert meta["game"] == DUEL and meta["base_seed"] == 7 and meta["n_games"] == 30
    _, rows = load_results(root)
    assert [r["index"] for r in rows] == list(range(30))
    row = rows[0]
    for column in (
        "index",
        "seed",
        "winner",
        "length",
        "turns",
        "seconds",
        "error",
        "outcome",
        "return_0",
        "return_1",
        "bot_0",
        "bot_1",
        "first",
        "score_0",
        "score_1",
    ):
        assert column in row
    assert row["seed"] == game_seed(7, 0)
    assert row["length"] == 6 and row["winner"] in (0, 1)
    assert summary.finished == 30 and summary.errors == 0 and not summary.interrupted
    wins0 = sum(r["return_0"] for r in rows)
    expected = wilson(wins0, 30)
    stored = json.loads((root / "summary.json").read_text())
    assert stored["win_rates"][0]["wins"] == wins0
    assert stored["win_rates"][0]["ci95"] == [round(expected.low, 6), round(expected.high, 6)]
    assert stored["win_rates"][0]["bot"] == "random"
    assert no_temp_files(root)


def test_coop_game_turns_column_and_shared_returns(tmp_path: Path) -> None:
    sim(tmp_path / "r", n=10, game=RACE, seats=["random", "random"], config={"players": 2})
    _, rows = load_results(tmp_path / "r")
    for row in rows:
        assert row["return_0"] == row["return_1"]
        assert row["winner"] is None
        assert row["turns"] == row["g_turns"] if "g_turns" in row else row["turns"] is not None


def test_any_game_replays_alone(tmp_path: Path) -> None:
    sim(tmp_path / "r", n=12, seats=["ismcts:10", "greedy"])
    _, rows = load_results(tmp_path / "r")
    for index in (0, 5, 11):
        state, actions = replay_game(DUEL, {}, ["ismcts:10", "greedy"], 7, index)
        assert len(actions) == rows[index]["length"]
        assert state.returns()[0] == rows[index]["return_0"]
        assert state.outcome_text() == rows[index]["outcome"]


def test_shards_merge_into_the_whole_run(tmp_path: Path) -> None:
    sim(tmp_path / "a", n=10)
    sim(tmp_path / "b", n=10, start=10)
    sim(tmp_path / "whole", n=20)
    _, merged = load_results(tmp_path / "a", tmp_path / "b")
    _, whole = load_results(tmp_path / "whole")
    assert strip(merged) == strip(whole)


def test_resume_plays_only_missing_games(tmp_path: Path) -> None:
    out = tmp_path / "r"
    first = sim(out, n=15)
    assert first.played_now == 15
    again = sim(out, n=15)
    assert again.played_now == 0 and again.finished == 15
    more = sim(out, n=40)
    assert more.played_now == 25 and more.finished == 40
    sim(tmp_path / "fresh", n=40)
    assert strip(load_results(out)[1]) == strip(load_results(tmp_path / "fresh")[1])


def test_ctrl_c_keeps_finished_chunks_and_resume_completes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "r"
    real_write = ResultStore.write_chunk
    written: list[int] = []

    def write_then_interrupt(self: ResultStore, rows: Any) -> Path:
        if len(written) == 2:
            raise KeyboardInterrupt
        written.append(len(rows))
        return real_write(self, rows)

    monkeypatch.setattr(ResultStore, "write_chunk", write_then_interrupt)
    summary = sim(out, n=30, chunk_size=5)
    assert summary.interrupted
    assert summary.finished == 10
    assert json.loads((out / "summary.json").read_text())["interrupted"] is True
    assert no_temp_files(out)
    monkeypatch.setattr(ResultStore, "write_chunk", real_write)
    resumed = sim(out, n=30, chunk_size=5)
    assert resumed.played_now == 20 and resumed.finished == 30 and not resumed.interrupted
    sim(tmp_path / "fresh", n=30)
    assert strip(load_results(out)[1]) == strip(load_results(tmp_path / "fresh")[1])


def test_ctrl_c_in_a_pool_run_never_lands_inside_the_futures_locks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A KeyboardInterrupt raised inside ``concurrent.futures.wait`` can leave a future's lock
    held, and the pool's shutdown then hangs for ever (seen in CI): Ctrl-C must only be noticed
    between waits. Here Ctrl-C comes while the pool is waiting."""
    real_wait = futures.wait
    inside: list[str] = []

    def wait_with_ctrl_c(*args: Any, **kw: Any) -> Any:
        try:
            signal.raise_signal(signal.SIGINT)
            return real_wait(*args, **kw)
        except KeyboardInterrupt:
            inside.append("KeyboardInterrupt inside wait")
            raise

    monkeypatch.setattr("velvet.sim.run.wait", wait_with_ctrl_c)
    before = signal.getsignal(signal.SIGINT)  # ignored where a shell started this in the background
    summary = sim(tmp_path / "r", n=40, workers=2, chunk_size=2)
    assert inside == []
    assert summary.interrupted and summary.finished < 40
    assert no_temp_files(tmp_path / "r")
    assert signal.getsignal(signal.SIGINT) is before  # the run's own handler is gone


def test_process_pool_gives_the_same_rows_as_one_process(tmp_path: Path) -> None:
    sim(tmp_path / "one", n=24, seats=["ismcts:8", "random"])
    sim(tmp_path / "two", n=24, seats=["ismcts:8", "random"], workers=2, chunk_size=3)
    assert strip(load_results(tmp_path / "one")[1]) == strip(load_results(tmp_path / "two")[1])
    assert len(ResultStore(tmp_path / "two").chunk_files()) == 8


def test_csv_results_read_back_typed(tmp_path: Path) -> None:
    sim(tmp_path / "csv", n=8, fmt="csv")
    sim(tmp_path / "pq", n=8, fmt="parquet")
    assert all(p.suffix == ".csv" for p in ResultStore(tmp_path / "csv").chunk_files())
    csv_rows = strip(load_results(tmp_path / "csv")[1])
    pq_rows = strip(load_results(tmp_path / "pq")[1])
    assert csv_rows == pq_rows


def test_progress_bar_runs(tmp_path: Path) -> None:
    summary = sim(tmp_path / "r", n=5, progress=True)
    assert summary.finished == 5


# ------------------------------------------------------------------ failures


def test_a_failing_game_becomes_an_error_row(tmp_path: Path) -> None:
    summary = sim(tmp_path / "r", n=20, game="velvet_toys:BROKEN")
    _, rows = load_results(tmp_path / "r")
    bad = [r for r in rows if r["error"]]
    assert bad and summary.errors == len(bad) and summary.finished == 20
    assert all(r["error"] == "RuntimeError: summary exploded over two lines" for r in bad)


def test_a_game_that_does_not_end_is_stopped(tmp_path: Path) -> None:
    summary = sim(tmp_path / "r", n=3, max_actions=2)
    assert summary.errors == 3
    _, rows = load_results(tmp_path / "r")
    assert "did not end within 2 actions" in rows[0]["error"]


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"n": 0}, "--games must be a positive number"),
        ({"workers": 0}, "--workers must be a positive number"),
        ({"backend": "spark"}, "choose one of pool, ray"),
        ({"seats": []}, "at least one --seat"),
        ({"seats": ["wizard"]}, "unknown bot 'wizard'"),
        ({"game": "chess"}, "choose p5, vs or package.module:ATTRIBUTE"),
        ({"game": "no_such_module_x:GAME"}, "cannot import no_such_module_x"),
        ({"game": "velvet_toys:NOT_A_SIMGAME"}, "is not a GameSpec"),
        ({"config": {"colour": "red"}}, "unknown key 'colour'"),
        ({"fmt": "xlsx"}, "choose one of parquet, csv"),
        ({"ray_address": "127.0.0.1:1"}, "add --backend ray"),
    ],
)
def test_bad_options_raise_one_line_config_errors(
    tmp_path: Path, kwargs: dict[str, Any], fragment: str
) -> None:
    n = kwargs.pop("n", 3)
    with pytest.raises(ConfigError) as info:
        sim(tmp_path / "r", n=n, **kwargs)
    assert fragment in str(info.value) and "\n" not in str(info.value)
    assert not (tmp_path / "r" / "games").exists()


def test_a_different_run_in_the_same_directory_is_refused(tmp_path: Path) -> None:
    sim(tmp_path / "r", n=4)
    with pytest.raises(ConfigError, match="holds another run"):
        sim(tmp_path / "r", n=4, seed=8)


def test_too_few_seats_is_reported_in_the_row(tmp_path: Path) -> None:
    summary = sim(tmp_path / "r", n=2, seats=["random"])
    _, rows = load_results(tmp_path / "r")
    assert summary.errors == 2 and "seat 1 has no bot" in rows[0]["error"]


def test_builtin_games_resolve() -> None:
    assert get_spec("p5").turns_key == "day"
    assert get_spec("vs").name == "vs"


# ------------------------------------------------------------------ ray


@pytest.mark.parametrize(
    ("address", "fragment"),
    [("127.0.0.1:1", "cannot reach Ray at 127.0.0.1:1"), ("nonsense", "bad Ray address")],
)
def test_unreachable_ray_address_is_a_one_line_config_error(address: str, fragment: str) -> None:
    with pytest.raises(ConfigError) as info:
        check_ray_address(address)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_run_sim_with_unreachable_ray_address(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot reach Ray"):
        sim(tmp_path / "r", n=2, backend="ray", ray_address="127.0.0.1:1")


def test_ray_backend_matches_the_pool(tmp_path: Path) -> None:
    sim(tmp_path / "ray", n=8, backend="ray", workers=1, chunk_size=4)
    sim(tmp_path / "pool", n=8)
    assert strip(load_results(tmp_path / "ray")[1]) == strip(load_results(tmp_path / "pool")[1])


def test_varied_set_ups_are_seeded_per_game_and_replay(tmp_path: Path) -> None:
    sim(tmp_path / "v", n=40, vary=True)
    _, rows = load_results(tmp_path / "v")
    assert {r["first"] for r in rows} == {0, 1}
    sim(tmp_path / "w", n=40, vary=True, workers=2, chunk_size=7)
    assert strip(rows) == strip(load_results(tmp_path / "w")[1])
    state, _ = replay_game(DUEL, {}, ["random", "greedy"], 7, 13, vary=True)
    assert state.to_json()["first"] == rows[13]["first"]
    assert state.outcome_text() == rows[13]["outcome"]
    with pytest.raises(ConfigError, match="holds another run"):
        sim(tmp_path / "v", n=40)  # the same directory without --vary-setup is another run


def test_a_game_without_a_vary_hook_refuses_vary(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot vary its set-up"):
        sim(tmp_path / "r", n=2, game=RACE, seats=["random"], vary=True)
