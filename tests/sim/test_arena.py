"""The arena: Bradley–Terry fit, SPRT, paired comparisons, the command, and the bot ladder."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.optimize  # type: ignore[import-untyped,unused-ignore]
from click.testing import CliRunner

from velvet.engine.errors import ConfigError
from velvet.sim.arena import (
    ArenaOptions,
    SprtTest,
    elo_to_score,
    fit_bradley_terry,
    paired_comparison,
    run_arena,
    score_to_elo,
    sprt_llr,
)
from velvet.sim.arena_cli import arena_command

# ------------------------------------------------------------------ the fit


def _games(
    strengths: list[float], n: int, rng: random.Random
) -> list[tuple[int, int, float, float]]:
    """Every pairing plays ``n`` games drawn from the Elo model of ``strengths``."""
    games = []
    for i in range(len(strengths)):
        for j in range(i + 1, len(strengths)):
            p = elo_to_score(strengths[i] - strengths[j])
            wins = sum(1 for _ in range(n) if rng.random() < p)
            games.append((i, j, float(wins), float(n)))
    return games


def test_fit_recovers_known_strengths_within_intervals() -> None:
    truth = [0.0, 120.0, 250.0, 400.0]
    games = _games(truth, 600, random.Random(0))
    ratings = fit_bradley_terry(["a", "b", "c", "d"], games, anchor=0, prior_draws=0)
    assert ratings.elo[0] == 0.0 and ratings.low[0] == ratings.high[0] == 0.0
    for true, low, high in zip(truth, ratings.low, ratings.high, strict=True):
        assert low <= true <= high
    assert ratings.elo == sorted(ratings.elo)
    for i in range(3):
        width = ratings.high[i + 1] - ratings.low[i + 1]
        assert 20 < width < 120  # an interval, not a point or the whole line


def test_fit_intervals_cover_the_truth_about_95_percent() -> None:
    """Over 300 seeded replications the 95 % interval of a rating holds the truth 90-99 %."""
    rng = random.Random(11)
    truth = [0.0, 80.0, -50.0]
    covered = 0
    for _ in range(300):
        ratings = fit_bradley_terry(["a", "b", "c"], _games(truth, 80, rng), prior_draws=0)
        covered += ratings.low[1] <= truth[1] <= ratings.high[1]
    assert 0.90 <= covered / 300 <= 0.99


def test_fit_agrees_with_a_generic_optimiser() -> None:
    """The analytic-gradient fit finds the same maximum as Nelder-Mead on the likelihood."""
    games = [(0, 1, 30.0, 50.0), (1, 2, 12.0, 40.0), (0, 2, 20.0, 30.0)]
    ratings = fit_bradley_terry(["a", "b", "c"], games, prior_draws=0)

    def nll(x: np.ndarray) -> float:
        theta = np.array([0.0, *x])
        total = 0.0
        for i, j, s, n in games:
            p = 1 / (1 + math.exp(-(theta[i] - theta[j])))
            total -= s * math.log(p) + (n - s) * math.log(1 - p)
        return total

    found = scipy.optimize.minimize(nll, [0.0, 0.0], method="Nelder-Mead", tol=1e-10).x
    elo = [0.0, *(found * 400 / math.log(10))]
    assert ratings.elo == pytest.approx(elo, abs=0.5)


def test_fit_mean_anchor_and_difference_intervals() -> None:
    games = _games([0.0, 100.0, 200.0], 300, random.Random(2))
    ratings = fit_bradley_terry(["a", "b", "c"], games, anchor=None)
    assert sum(ratings.elo) == pytest.approx(0.0, abs=1e-9)
    assert ratings.anchor == "mean"
    assert all(
        lo < e < hi for e, lo, hi in zip(ratings.elo, ratings.low, ratings.high, strict=True)
    )
    anchored = fit_bradley_terry(["a", "b", "c"], games, anchor=0)
    # the difference of two bots and its interval do not depend on the anchor
    assert ratings.difference(2, 1) == pytest.approx(anchored.difference(2, 1), abs=1e-3)


def test_fit_a_clean_sweep_is_finite_and_disconnected_bots_are_refused() -> None:
    ratings = fit_bradley_terry(["strong", "weak"], [(0, 1, 20.0, 20.0)], anchor=1)
    assert 300 < ratings.elo[0] < 1000 and ratings.low[0] > 0
    with pytest.raises(ConfigError, match="no games link c"):
        fit_bradley_terry(["a", "b", "c"], [(0, 1, 5.0, 10.0)])


# ------------------------------------------------------------------ SPRT


def test_llr_matches_a_direct_constrained_fit() -> None:
    """The Lagrange solution of the trinomial MLE equals SLSQP's constrained maximum."""
    counts = [30.0, 25.0, 45.0]
    values = np.array([0.0, 0.5, 1.0])
    pdf = np.array(counts) / sum(counts)

    def best_loglik(s: float) -> float:
        found = scipy.optimize.minimize(
            lambda p: -float(np.sum(pdf * np.log(p))),
            pdf,
            method="SLSQP",
            bounds=[(1e-9, 1)] * 3,
            constraints=[
                {"type": "eq", "fun": lambda p: float(np.sum(p)) - 1},
                {"type": "eq", "fun": lambda p: float(np.dot(p, values)) - s},
            ],
            options={"ftol": 1e-14, "maxiter": 500},
        )
        return -float(found.fun)

    expected = sum(counts) * (best_loglik(elo_to_score(40)) - best_loglik(elo_to_score(0)))
    assert sprt_llr(counts, 0, 40) == pytest.approx(expected, rel=1e-4)


def _simulate_sprt(elo: float, test: SprtTest, rng: random.Random, most: int = 4000) -> str | None:
    """Game pairs from a bot ``elo`` stronger (no draws), until the test decides."""
    p = elo_to_score(elo)
    pairs: list[tuple[float, float]] = []
    while len(pairs) < most:
        for _ in range(10):
            pairs.append((float(rng.random() < p), float(rng.random() < p)))
        decision = test.decision(test.llr(pairs))
        if decision is not None:
            return decision
    return None


def test_sprt_decides_h1_for_a_clearly_stronger_bot() -> None:
    test = SprtTest(0, 50)
    rng = random.Random(3)
    assert all(_simulate_sprt(150, test, rng) == "H1" for _ in range(10))


def test_sprt_decides_h0_for_equal_bots_most_of_the_time() -> None:
    test = SprtTest(0, 50, alpha=0.05, beta=0.05)
    rng = random.Random(4)
    decisions = [_simulate_sprt(0, test, rng) for _ in range(60)]
    assert decisions.count("H0") >= 54  # beta = 5 %: about 57 of 60


def test_sprt_bounds_and_bad_specs() -> None:
    test = SprtTest.parse("0, 50", 0.05, 0.05, "pentanomial")
    assert test.bounds == pytest.approx((-2.944, 2.944), abs=1e-3)
    for text in ("50,0", "0", "a,b", "0,50,100", "0,inf", "0,5000"):
        with pytest.raises(ConfigError, match="--sprt"):
            SprtTest.parse(text, 0.05, 0.05, "pentanomial")
    pairs = [(1.0, 0.0), (0.5, 1.0), (1.0, 1.0)]
    assert SprtTest(0, 50, model="trinomial").counts(pairs) == [1, 1, 4]  # loss, draw, win
    assert SprtTest(0, 50).counts(pairs) == [0, 0, 1, 1, 1]  # pair scores 0, 1/2 ... 2
    with pytest.raises(ConfigError, match="--sprt-model"):
        SprtTest.parse("0,50", 0.05, 0.05, "binomial")
    with pytest.raises(ConfigError, match="--alpha"):
        SprtTest.parse("0,50", 0.7, 0.05, "pentanomial")


def test_score_and_elo_are_inverse() -> None:
    for elo in (-300.0, 0.0, 42.0, 700.0):
        assert score_to_elo(elo_to_score(elo)) == pytest.approx(elo)
    assert score_to_elo(1.0) == math.inf and score_to_elo(0.0) == -math.inf


# ------------------------------------------------------------------ paired comparison


def test_paired_comparison_counts_and_mcnemar() -> None:
    outcomes = (
        [(True, False)] * 12 + [(False, True)] * 2 + [(True, True)] * 6 + [(False, False)] * 20
    )
    c = paired_comparison("a", "b", outcomes)
    assert (c.n, c.a_only, c.b_only, c.both) == (40, 12, 2, 6)
    assert c.difference == pytest.approx(0.25)
    assert c.low > 0 and c.verdict == "a better"
    assert c.p_value == pytest.approx(0.01294, abs=1e-4)  # 2 * P(X <= 2), X ~ Bin(14, 1/2)
    even = paired_comparison("a", "b", [(True, False), (False, True)] * 5)
    assert even.verdict == "unclear" and even.p_value == 1.0


# ------------------------------------------------------------------ the command


def _arena(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(arena_command, args)
    return result.exit_code, result.output


def test_arena_errors_say_what_to_do(tmp_path: Path) -> None:
    out = ["--out", str(tmp_path / "a"), "--workers", "1", "--no-progress"]
    code, text = _arena(["vs", "--bot", "random", "--bot", "grandmaster", *out])
    assert code == 2 and "unknown bot 'grandmaster': choose one of" in text
    code, text = _arena(["vs", "--bot", "random", *out])
    assert code == 2 and "at least two --bot" in text
    code, text = _arena(["vs", *out])
    assert code == 2 and "--bot A --bot B" in text
    code, text = _arena(["vs", "--bot", "random", "--bot", "greedy", "--sprt", "50", *out])
    assert code == 2 and "--sprt ELO0,ELO1" in text
    code, text = _arena(["vs", "--bot", "random", "--bot", "random", *out])
    assert code == 2 and "given twice" in text
    three = ["--bot", "random", "--bot", "greedy", "--bot", "easy"]
    code, text = _arena(["vs", *three, "--sprt", "0,50", *out])
    assert code == 2 and "two bots" in text
    code, text = _arena(["p5", "--bot", "random", "--bot", "easy", "--sprt", "0,50", *out])
    assert code == 2 and "co-op" in text
    code, text = _arena(["vs", "--bot", "random", "--bot", "easy", "--anchor", "hard", *out])
    assert code == 2 and "--anchor hard" in text
    two = ["vs", "--bot", "random", "--bot", "easy"]
    code, text = _arena([*two, *out[:2], "--workers", "0"])
    assert code == 2 and "--workers must be a positive number" in text
    code, text = _arena([*two, *out, "--backend", "ray", "--address", "no-such-host:1"])
    assert code == 2 and "cannot reach Ray at no-such-host:1" in text
    code, text = _arena(["p5", "--bot", "random", "-o", "palace=atlantis", *out])
    assert code == 2 and "unknown palace 'atlantis'" in text
    assert not (tmp_path / "a").exists()  # nothing written by a refused command
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    code, text = _arena(
        ["vs", "--bot", "random", "--bot", "easy", "--out", str(tmp_path / "other")]
    )
    assert code == 2 and "new or empty folder" in text


def test_arena_resumes_and_refuses_another_arena(tmp_path: Path) -> None:
    out = tmp_path / "duel"
    args = ["velvet_toys:DUEL", "--bot", "random", "--bot", "greedy", "--games", "6"]
    args += ["--workers", "1", "--no-progress", "--out", str(out), "--format", "csv"]
    code, text = _arena(args)
    assert code == 0, text
    assert "random vs greedy" in text and "of 12" in text
    chunks = sorted(p.name for p in out.glob("*/games/*"))
    assert {p.name for p in out.iterdir()} == {
        "arena.json",
        "ratings.json",
        "random--greedy",
        "greedy--random",
    }
    code, again = _arena(args)  # everything played: no new chunk, the same figures
    assert code == 0 and sorted(p.name for p in out.glob("*/games/*")) == chunks
    assert again.splitlines()[-6:] == text.splitlines()[-6:]
    code, text = _arena([*args[:-4], "--seed", "9", *args[-4:]])
    assert code == 2 and "holds another arena (base_seed was 0, now 9)" in text


def test_pairs_are_the_same_seed_with_seats_swapped(tmp_path: Path) -> None:
    run_arena(
        "velvet_toys:DUEL",
        ["random", "greedy"],
        tmp_path,
        ArenaOptions(n_games=5, workers=1, fmt="csv", vary=True),
    )
    from velvet.sim.results import ResultStore

    ab = {r["index"]: r for r in ResultStore(tmp_path / "random--greedy").load_rows()}
    ba = {r["index"]: r for r in ResultStore(tmp_path / "greedy--random").load_rows()}
    assert sorted(ab) == sorted(ba) == list(range(5))
    for i in ab:
        assert ab[i]["seed"] == ba[i]["seed"]
        assert ab[i]["first"] == ba[i]["first"]  # the same drawn set-up
        assert (ab[i]["bot_0"], ba[i]["bot_0"]) == ("random", "greedy")


@pytest.mark.slow
def test_sprt_on_real_games_stops_when_decided(tmp_path: Path) -> None:
    """greedy crushes random at once; VS's easy (greedy with 5 samples, ~60 Elo above
    greedy in docs/lab.md) is far from 200 Elo stronger: H0."""
    strong = run_arena(
        "vs",
        ["greedy", "random"],
        tmp_path / "h1",
        ArenaOptions(n_games=40, workers=1, fmt="csv", sprt=SprtTest(0, 200), batch=2),
    )
    sprt = strong.data["sprt"]
    assert sprt["decision"] == "H1" and sprt["pairs"] < 40
    assert sprt["llr"] >= sprt["bounds"][1]
    chunks = sorted(p.name for p in (tmp_path / "h1").glob("*/games/*"))
    again = run_arena(  # resumed: decided from the games on disk, none played
        "vs",
        ["greedy", "random"],
        tmp_path / "h1",
        ArenaOptions(n_games=40, workers=1, fmt="csv", sprt=SprtTest(0, 200), batch=2),
    )
    assert again.data["sprt"] == sprt
    assert sorted(p.name for p in (tmp_path / "h1").glob("*/games/*")) == chunks
    same = run_arena(
        "vs",
        ["easy", "greedy"],
        tmp_path / "h0",
        ArenaOptions(n_games=40, workers=1, fmt="csv", sprt=SprtTest(0, 200), batch=2),
    )
    assert same.data["sprt"]["decision"] == "H0" and same.data["sprt"]["pairs"] < 40


# ------------------------------------------------------------------ the ladder (CI)


@pytest.mark.slow
def test_ladder_does_not_invert(tmp_path: Path) -> None:
    """VS: random < greedy, decided (intervals apart), and easy wins more of its 12 seed
    pairs against greedy than it loses (it lost 7-13 as ISMCTS 30; greedy:5 won 14-10).
    P5: on the same set-ups, random never wins and greedy is not decidedly worse."""
    vs = run_arena(
        "vs",
        ["random", "greedy", "easy"],
        tmp_path / "vs",
        ArenaOptions(n_games=12, seed=23, workers=1, fmt="csv"),
    )
    rated = {b["bot"]: b for b in vs.data["ratings"]["bots"]}
    assert rated["random"]["ci95"][1] < rated["greedy"]["ci95"][0]
    assert rated["random"]["ci95"][1] < rated["easy"]["ci95"][0]
    (greedy_easy,) = [p for p in vs.data["pairings"] if {p["a"], p["b"]} == {"greedy", "easy"}]
    wins = {greedy_easy["a"]: greedy_easy["a_wins"], greedy_easy["b"]: greedy_easy["b_wins"]}
    assert wins["easy"] > wins["greedy"], greedy_easy
    p5 = run_arena(
        "p5",
        ["random", "greedy"],
        tmp_path / "p5",
        ArenaOptions(n_games=20, seed=23, workers=1, fmt="csv", vary=True),
    )
    rates = {r["bot"]: r for r in p5.data["win_rates"]}
    assert rates["random"]["wins"] == 0 and rates["random"]["n"] == 20
    (paired,) = p5.data["paired"]
    assert paired["verdict"] != "random better"
    assert json.loads((tmp_path / "p5" / "ratings.json").read_text())["setups"] == 20


def test_arena_is_a_velvet_command() -> None:
    from velvet.cli import main

    result = CliRunner().invoke(main, ["arena", "--help"])
    assert result.exit_code == 0, result.output
    assert "--sprt ELO0,ELO1" in result.output and "--bot BOT" in result.output


def test_interrupted_arena_keeps_its_games_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import velvet.sim.run as run

    real = run.run_chunk
    calls = {"n": 0}

    def stopping(job: run.Job, indices: list[int]) -> list[dict[str, Any]]:
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(job, indices)

    monkeypatch.setattr(run, "run_chunk", stopping)
    options = ArenaOptions(n_games=4, workers=1, fmt="csv")
    first = run_arena("velvet_toys:DUEL", ["random", "greedy"], tmp_path, options)
    assert first.interrupted and "run again with the same --out" in first.lines[-1]
    assert first.data["pairings"][0]["games"] == 2  # two games of the first seat order
    assert not (tmp_path / "greedy--random").exists()
    monkeypatch.setattr(run, "run_chunk", real)
    second = run_arena("velvet_toys:DUEL", ["random", "greedy"], tmp_path, options)
    assert not second.interrupted
    assert second.data["pairings"][0]["games"] == 8 and second.data["pairings"][0]["pairs"] == 4


def test_a_folder_of_sim_runs_is_adopted(tmp_path: Path) -> None:
    """`velvet sim` runs of the same seed and set-up count as the arena's games."""
    from velvet.sim.run import run_sim

    run_sim(
        "velvet_toys:DUEL",
        3,
        ["random", "greedy"],
        {"first": 0},
        5,
        tmp_path / "random--greedy",
        workers=1,
        fmt="csv",
        progress=False,
    )
    options = ArenaOptions(n_games=3, seed=5, config={"first": 0}, workers=1, fmt="csv")
    result = run_arena("velvet_toys:DUEL", ["random", "greedy"], tmp_path, options)
    assert result.data["pairings"][0]["pairs"] == 3
    run_sim(
        "velvet_toys:DUEL",
        3,
        ["random", "greedy"],
        {"first": 1},
        5,
        tmp_path / "b" / "random--greedy",
        workers=1,
        fmt="csv",
        progress=False,
    )
    with pytest.raises(ConfigError, match="holds another run"):  # not the same set-up
        run_arena("velvet_toys:DUEL", ["random", "greedy"], tmp_path / "b", options)


def test_arena_export_folds_the_games_into_one_csv(tmp_path: Path) -> None:
    import csv
    import importlib.util

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "arena_export.py"
    spec = importlib.util.spec_from_file_location("bench_arena_export", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    options = ArenaOptions(n_games=3, workers=1, fmt="csv")
    run_arena("velvet_toys:DUEL", ["random", "greedy"], tmp_path / "a", options)
    assert module.main([str(tmp_path / "a"), str(tmp_path / "out" / "duel")]) == 0
    with open(tmp_path / "out" / "duel.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert sorted((r["run"], r["index"]) for r in rows) == sorted(
        (run, str(i)) for run in ("random--greedy", "greedy--random") for i in range(3)
    )
    assert json.loads((tmp_path / "out" / "duel.json").read_text())["kind"] == "versus"
    assert module.main([str(tmp_path / "out"), str(tmp_path / "x")]) == 2  # not an arena


def test_cross_table_shows_each_side_of_a_pairing() -> None:
    from velvet.sim.arena import cross_table

    table = [
        {"a": "x", "b": "y", "games": 10, "a_wins": 7, "b_wins": 3, "a_score": 0.7},
        {"a": "y", "b": "z", "games": 4, "a_wins": 1, "b_wins": 2, "a_score": 0.375},
    ]
    lines = cross_table(["x", "y", "z"], table)
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:]}
    assert rows["x"] == ["7/10", "70%", "-"]
    assert rows["y"] == ["3/10", "30%", "1/4", "38%"]
    assert rows["z"] == ["-", "2/4", "62%"]


def test_paired_elo_interval_uses_the_pair_spread_and_never_collapses() -> None:
    from velvet.sim.arena import paired_elo

    mixed = paired_elo([(1.0, 1.0), (1.0, 0.0), (0.0, 0.0), (1.0, 0.0)] * 10)
    assert mixed.score == pytest.approx(0.5)
    half = 1.959963984540054 * math.sqrt(0.125 / 40)  # pair scores 1, 1/2, 0, 1/2
    assert (mixed.score_low, mixed.score_high) == pytest.approx((0.5 - half, 0.5 + half))
    sweep = paired_elo([(0.0, 0.0)] * 6)
    assert sweep.score == 0.0 and 0.2 < sweep.score_high < 0.3  # Wilson of 0/12
    assert sweep.elo[0] == -math.inf and -300 < sweep.elo[2] < -100


@pytest.mark.slow
def test_ray_backend_plays_the_same_games_as_the_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One local Ray serves every run of the arena; the seeds make its games the pool's."""
    pytest.importorskip("ray")
    import velvet.sim.run as run

    def second_ray(n_workers: int) -> None:
        pytest.fail("run_sim started its own Ray: the arena's was not used")

    monkeypatch.setattr(run, "start_local_ray", second_ray)
    bots = ["random", "greedy", "easy"]
    pool = run_arena(
        "velvet_toys:DUEL", bots, tmp_path / "pool", ArenaOptions(n_games=4, workers=1)
    )
    ray = run_arena(
        "velvet_toys:DUEL",
        bots,
        tmp_path / "ray",
        ArenaOptions(n_games=4, workers=1, backend="ray"),
    )
    assert ray.data["pairings"] == pool.data["pairings"]
    assert ray.data["ratings"] == pool.data["ratings"]


def test_without_the_lab_extra_the_arena_says_which_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.delitem(sys.modules, "velvet.sim.arena")
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)  # as if scipy were not installed
    out = tmp_path / "arena"
    result = CliRunner().invoke(
        arena_command, ["vs", "--bot", "random", "--bot", "greedy", "--out", str(out)]
    )
    assert result.exit_code == 2
    assert "the arena needs scipy.optimize: pip install 'velvet[lab]'" in result.output
    assert not out.exists()
