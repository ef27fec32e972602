#!/usr/bin/env python
"""Are the chances Velvet shows honest? Brier score, ECE and a reliability diagram.

Positions are sampled from seeded games of the ``--bot`` level in every seat (P5 solo
on varied set-ups, VS with the default decks): one position per game, drawn uniformly
among its decisions of two or more choices. At each position it records

- the hint's chance for its best move (``velvet.bots.hints.hints`` at ``--budget``
  simulations: the raw search value and the calibrated chance shown), and what happened
  when that move was played and every seat played on like ``--bot``;
- P5: the forecast (``--forecast-games`` games of ``--bot`` from the seat's view), and
  what happened in the game the position came from (which ``--bot`` played on).

It reports, per game and estimator, the Brier score beside the constant baseline (the
base rate of the same positions), the expected calibration error over ten equal-width
bins, and draws the reliability diagram. ``--fit`` fits the logistic (Platt) map from
search value to chance on the even-numbered positions and measures it on the odd ones
(the numbers to put in each game's GameSpec ``hint_calibration``), and the isotonic map
(points joined by straight lines), measured the same way: a game ships the one that does
better on the odd positions.

    python benchmarks/calibration.py --positions 2000 --workers 2        # the full run
    python benchmarks/calibration.py --game p5 --positions 150 --rows p5.json
    python benchmarks/calibration.py --from p5.json --from vs.json --fit \
        --figure docs/figures/calibration.png
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

BINS = 10
GAMES = ("p5", "vs")


# --- the maths ------------------------------------------------------------------------------


def brier(p: Sequence[float], y: Sequence[float]) -> float:
    """Mean squared difference between the chances ``p`` and the outcomes ``y``."""
    if not p or len(p) != len(y):
        raise ValueError("brier needs as many outcomes as chances, at least one")
    return sum((a - b) ** 2 for a, b in zip(p, y, strict=True)) / len(p)


def bins_of(
    p: Sequence[float], y: Sequence[float], bins: int = BINS
) -> list[tuple[float, float, int]]:
    """(mean chance, mean outcome, count) of each non-empty equal-width bin of ``p``."""
    sums = [[0.0, 0.0, 0] for _ in range(bins)]
    for a, b in zip(p, y, strict=True):
        k = min(int(a * bins), bins - 1)
        sums[k][0] += a
        sums[k][1] += b
        sums[k][2] += 1
    return [(s[0] / s[2], s[1] / s[2], int(s[2])) for s in sums if s[2]]


def ece(p: Sequence[float], y: Sequence[float], bins: int = BINS) -> float:
    """Expected calibration error: the count-weighted mean gap |chance − outcome| per bin."""
    n = len(p)
    return sum(c * abs(a - b) for a, b, c in bins_of(p, y, bins)) / n


def logit(p: float, clip: float = 0.005) -> float:
    p = min(max(p, clip), 1 - clip)
    return math.log(p / (1 - p))


def fit_platt(values: Sequence[float], y: Sequence[float], steps: int = 50) -> tuple[float, float]:
    """(a, b) maximising the likelihood of ``y`` under sigmoid(a · logit(value) + b).

    Newton's method on the two parameters (numpy), with a small ridge so a sample that
    separates perfectly still gives finite numbers.
    """
    import numpy as np

    x = np.array([logit(v) for v in values])
    t = np.array(y, dtype=float)
    design = np.stack([x, np.ones_like(x)], axis=1)
    w = np.array([1.0, 0.0])
    ridge = 1e-3
    for _ in range(steps):
        z = design @ w
        q = 1 / (1 + np.exp(-z))
        grad = design.T @ (q - t) + ridge * w
        hess = design.T @ (design * (q * (1 - q))[:, None]) + ridge * np.eye(2)
        step = np.linalg.solve(hess, grad)
        w = w - step
        if float(np.abs(step).max()) < 1e-10:
            break
    return float(w[0]), float(w[1])


CHANCE_CLIP = 0.01
"""An isotonic map's chances stay within [1 %, 99 %]: a few hundred positions cannot show a
sure win or loss (a block of 38 won positions says little about the 39th)."""


def fit_isotonic(values: Sequence[float], y: Sequence[float]) -> list[tuple[float, float]]:
    """The isotonic map from search value to chance (scipy's pool-adjacent-violators,
    ``scipy.optimize.isotonic_regression``): one (value, chance) point per block of equal
    fitted chance, at the block's mean value, for ``velvet.bots.hints.apply_map`` to join by
    straight lines. With hundreds of positions it follows a shape Platt's two parameters
    cannot (Persona VS's: steep in the middle, flat at the top)."""
    import numpy as np
    from scipy.optimize import isotonic_regression  # type: ignore[import-untyped,unused-ignore]

    if not values or len(values) != len(y):
        raise ValueError("an isotonic fit needs as many outcomes as values, at least one")
    order = np.argsort(np.asarray(values, dtype=float), kind="stable")
    xs = np.asarray(values, dtype=float)[order]
    fitted = isotonic_regression(np.asarray(y, dtype=float)[order]).x
    points: list[tuple[float, float]] = []
    start = 0
    for end in range(1, len(xs) + 1):
        if end == len(xs) or fitted[end] != fitted[start]:
            chance = min(max(float(fitted[start]), CHANCE_CLIP), 1 - CHANCE_CLIP)
            points.append((round(float(xs[start:end].mean()), 4), round(chance, 4)))
            start = end
    return points


def summary(p: Sequence[float], y: Sequence[float]) -> dict[str, float]:
    base = sum(y) / len(y)
    return {
        "n": len(p),
        "base_rate": base,
        "mean_chance": sum(p) / len(p),
        "brier": brier(p, y),
        "brier_baseline": brier([base] * len(y), y),
        "ece": ece(p, y),
    }


def ece_interval(
    p: Sequence[float], y: Sequence[float], draws: int = 1000, seed: int = 23
) -> tuple[float, float]:
    """A 95 % bootstrap interval of :func:`ece` (positions drawn again with replacement)."""
    from velvet.engine.rng import Rng

    rng = Rng(seed)
    n = len(p)
    values = []
    for _ in range(draws):
        pick = [rng.randbelow(n) for _ in range(n)]
        values.append(ece([p[i] for i in pick], [y[i] for i in pick]))
    values.sort()
    return values[int(0.025 * draws)], values[int(0.975 * draws) - 1]


def perfect_ece(p: Sequence[float], draws: int = 400, seed: int = 23) -> list[float]:
    """The ECE a perfectly calibrated chance ``p`` shows by chance alone: outcomes drawn with
    those very chances, ``draws`` times (sorted). ECE is never 0 at a finite count."""
    from velvet.engine.rng import Rng

    rng = Rng(seed)
    scale = 1 << 30
    out = []
    for _ in range(draws):
        y = [1.0 if rng.randbelow(scale) < q * scale else 0.0 for q in p]
        out.append(ece(p, y))
    return sorted(out)


def check_map(
    rows: Sequence[dict[str, Any]], name: str, table: dict[str, Any] | None = None
) -> list[str]:
    """What is wrong with game ``name``'s map (its spec's, or ``table``'s) on the odd,
    held-out positions of ``rows``: an ECE above what 99 % of samples of a perfectly
    calibrated map of the same chances would show (:func:`perfect_ece`), or a mean chance
    more than three standard errors from the rate won. Empty: the map stands (at this count,
    it cannot be told from a right one)."""
    from velvet.bots.hints import calibrated

    held = [r for r in rows if r["game"] == name and r["index"] % 2 == 1]
    if not held:
        return [f"{name}: no held-out positions"]
    p = [calibrated(name, r["hint_value"], table) for r in held]
    y = [r["hint_outcome"] for r in held]
    s = summary(p, y)
    problems = []
    limit = perfect_ece(p)[int(0.99 * 400) - 1]
    if s["ece"] > limit:
        problems.append(
            f"{name}: ECE {100 * s['ece']:.1f} points on {len(p)} held-out positions, where a "
            f"right map would show at most {100 * limit:.1f} (99 %)"
        )
    se = math.sqrt(sum(q * (1 - q) for q in p)) / len(p)
    if abs(s["mean_chance"] - s["base_rate"]) > 3 * max(se, 1e-9):
        problems.append(
            f"{name}: mean chance {s['mean_chance']:.1%} against {s['base_rate']:.1%} won "
            f"(more than 3 standard errors, {se:.1%})"
        )
    return problems


# --- the positions --------------------------------------------------------------------------


def _config(game: Any, name: str, seed: int) -> dict[str, Any]:
    from velvet.engine.rng import Rng
    from velvet.games import find_spec

    if name == "vs":
        config: dict[str, Any] = game.default_config("p5", "p4")
        return config
    config = game.default_config(1)
    spec = find_spec(name)
    if spec is not None and spec.vary is not None:
        config = spec.vary(game, config, Rng(seed ^ 0x5EED))
    return config


def _play_on(state: Any, bot: str, seed: int) -> None:
    from velvet.bots.registry import make_bot
    from velvet.engine.rng import Rng
    from velvet.sim.run import bot_seed

    bots: dict[int, Any] = {}
    rngs: dict[int, Rng] = {}
    while not state.is_terminal():
        seat = state.current_player
        if seat not in bots:
            bots[seat] = make_bot(bot, state.game.name)
            if hasattr(bots[seat], "seat"):
                bots[seat].seat = seat
            rngs[seat] = Rng(bot_seed(seed, seat))
        action = bots[seat].choose(state.game, state.view(seat), state.legal_actions(), rngs[seat])
        state.apply_unchecked(action)


def sample_position(name: str, index: int, seed: int, bot: str) -> tuple[Any, Any, int]:
    """Game ``index`` of the run played by ``bot`` in every seat: (the state at one of its
    decisions of two or more choices, drawn uniformly; the finished game; the step drawn)."""
    from velvet.bots.registry import make_bot
    from velvet.engine.rng import Rng
    from velvet.games import get_game
    from velvet.sim.run import bot_seed, game_seed

    game = get_game(name)
    gseed = game_seed(seed, index)
    state = game.new_state(_config(game, name, gseed), gseed)
    bots: dict[int, Any] = {}
    rngs: dict[int, Rng] = {}
    pick = Rng(gseed ^ 0xCA11B)
    chosen: Any = None
    step = decisions = 0
    chosen_step = 0
    while not state.is_terminal():  # one decision of 2+ choices, uniformly (a reservoir of 1)
        seat = state.current_player
        legal = state.legal_actions()
        if len(legal) > 1:
            decisions += 1
            if pick.randbelow(decisions) == 0:
                chosen, chosen_step = state.clone(), step
        if seat not in bots:
            bots[seat] = make_bot(bot, name)
            if hasattr(bots[seat], "seat"):
                bots[seat].seat = seat
            rngs[seat] = Rng(bot_seed(gseed, seat))
        state.apply_unchecked(bots[seat].choose(game, state.view(seat), legal, rngs[seat]))
        step += 1
    if chosen is None:
        raise RuntimeError(f"{name} game {index} had no decision of two or more choices")
    return chosen, state, chosen_step


def position_row(
    name: str, index: int, seed: int, bot: str, budget: int, forecast_games: int
) -> dict[str, Any]:
    """One position of game ``index`` and what its chances were and what happened."""
    from velvet.bots.hints import forecast, hints
    from velvet.sim.run import game_seed

    gseed = game_seed(seed, index)
    chosen, state, chosen_step = sample_position(name, index, seed, bot)
    seat = chosen.current_player
    played_on = float(state.returns()[seat])  # the rest of this game was played by ``bot``
    best = hints(chosen, seat, budget, top=1)[0]
    after = chosen.clone()
    after.apply_unchecked(best.action)
    _play_on(after, bot, gseed ^ 0xAF7E5)
    row: dict[str, Any] = {
        "game": name,
        "index": index,
        "step": chosen_step,
        "seat": seat,
        "hint_value": best.value,
        "hint_chance": best.win,
        "hint_margin": best.margin,
        "hint_outcome": float(after.returns()[seat]),
        "played_on": played_on,
    }
    if name == "p5":
        outlook = forecast(chosen, seat, forecast_games, bot)
        row.update(
            forecast_rate=outlook.rate,
            forecast_games=outlook.games,
            forecast_margin=outlook.margin,
            day=chosen.view(seat).get("day"),
        )
    return row


def bot_of(name: str, bot: str | None) -> str:
    """Who plays game ``name``'s positions and on from them: ``bot``, else the level every
    chance shown in the game assumes (its GameSpec ``chance_bot``)."""
    from velvet.bots.hints import assumed_bot

    return bot or assumed_bot(name)


def collect(
    names: Sequence[str],
    positions: int,
    seed: int,
    bot: str | None,
    budget: int,
    forecast_games: int,
    workers: int,
    progress: bool = True,
    save: Any = None,
    done: Sequence[dict[str, Any]] = (),
) -> list[dict[str, Any]]:
    """Every position's row; ``save(rows)`` (optional) after each, so a stopped run keeps
    what it finished (the positions are handed out interleaved, in index order). Rows in
    ``done`` (a stopped run's, read back) are kept and their positions not played again."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from velvet.engine.workers import die_with_parent

    have = {(r["game"], r["index"]) for r in done}
    jobs = [(name, i) for i in range(positions) for name in names if (name, i) not in have]
    rows: list[dict[str, Any]] = [
        r for r in done if r["game"] in names and r["index"] < positions
    ]  # interleaved, in index order
    bar = Progress(
        TextColumn("[bold]positions"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        disable=not progress,
    )
    pool = ProcessPoolExecutor(
        max_workers=max(1, workers),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )
    try:
        with bar:
            task = bar.add_task("positions", total=len(jobs))
            futures = [
                pool.submit(position_row, name, i, seed, bot_of(name, bot), budget, forecast_games)
                for name, i in jobs
            ]
            for future in as_completed(futures):
                rows.append(future.result())
                bar.advance(task)
                if save is not None:
                    save(rows)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    rows.sort(key=lambda r: (r["game"], r["index"]))
    return rows


# --- the report -----------------------------------------------------------------------------


def estimators(
    rows: Sequence[dict[str, Any]], name: str
) -> dict[str, tuple[list[float], list[float]]]:
    """Per estimator of ``name``: (chances shown, outcomes)."""
    mine = [r for r in rows if r["game"] == name]
    out = {
        "hint (raw search value)": (
            [r["hint_value"] for r in mine],
            [r["hint_outcome"] for r in mine],
        ),
        "hint (shown)": (
            [_shown(name, r["hint_value"]) for r in mine],
            [r["hint_outcome"] for r in mine],
        ),
    }
    if name == "p5":
        out["forecast"] = ([r["forecast_rate"] for r in mine], [r["played_on"] for r in mine])
    return out


def spread(p: Sequence[float], k: Sequence[int], n: Sequence[int]) -> float:
    """How far the real chance q strays from the chance shown ``p``, among positions: the
    root of E[(f - p)^2] - E[k(n - k) / (n^2 (n - 1))], where f = k / n is a position's
    rate over its ``n`` forecast games (``k`` won) and the second term takes off the noise
    of so few games (an unbiased estimate of q(1 - q) / n). Each position needs n >= 2."""
    if not p or not len(p) == len(k) == len(n) or min(n) < 2:
        raise ValueError("spread needs a chance and at least 2 games for each position")
    noise = sum(w * (g - w) / (g * g * (g - 1)) for w, g in zip(k, n, strict=True)) / len(p)
    off = sum((w / g - c) ** 2 for c, w, g in zip(p, k, n, strict=True)) / len(p)
    return math.sqrt(max(0.0, off - noise))


def _spread_of(name: str, rows: Sequence[dict[str, Any]]) -> float:
    with_games = [r for r in rows if (r.get("forecast_games") or 0) >= 2]
    return spread(
        [_shown(name, r["hint_value"]) for r in with_games],
        [round(r["forecast_rate"] * r["forecast_games"]) for r in with_games],
        [r["forecast_games"] for r in with_games],
    )


def _shown(name: str, value: float) -> float:
    from velvet.bots.hints import calibrated

    return calibrated(name, value)


def report(rows: Sequence[dict[str, Any]], fit: bool) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for name in GAMES:
        mine = [r for r in rows if r["game"] == name]
        if not mine:
            continue
        held = [r for r in mine if r["index"] % 2 == 1]
        block: dict[str, Any] = {}
        for label, (p, y) in estimators(rows, name).items():
            block[label] = _with_interval(summary(p, y), p, y)
        for label, (p, y) in estimators(held, name).items():
            block[f"{label}, odd positions"] = _with_interval(summary(p, y), p, y)
        if any((r.get("forecast_games") or 0) >= 2 for r in mine):
            # the game's hint_spread, with the chance shown (the spec's map as it is now)
            block["spread of the real chance around the hint's"] = {
                "spread": _spread_of(name, mine),
                "n": sum(1 for r in mine if (r.get("forecast_games") or 0) >= 2),
            }
        if fit:
            train = [r for r in mine if r["index"] % 2 == 0]
            a, b = fit_platt([r["hint_value"] for r in train], [r["hint_outcome"] for r in train])
            table = {name: (a, b)}
            from velvet.bots.hints import calibrated

            p = [calibrated(name, r["hint_value"], table) for r in held]
            block["fitted map (even positions)"] = {"a": a, "b": b}
            y = [r["hint_outcome"] for r in held]
            block["hint (fitted map), odd positions"] = _with_interval(summary(p, y), p, y)
            points = fit_isotonic(
                [r["hint_value"] for r in train], [r["hint_outcome"] for r in train]
            )
            p = [calibrated(name, r["hint_value"], {name: tuple(points)}) for r in held]
            block["fitted isotonic map (even positions)"] = {"points": points}
            block["hint (isotonic map), odd positions"] = _with_interval(summary(p, y), p, y)
        result[name] = block
    return result


def _with_interval(s: dict[str, float], p: Sequence[float], y: Sequence[float]) -> dict[str, float]:
    low, high = ece_interval(p, y)
    return {**s, "ece_low": low, "ece_high": high}


def print_report(result: dict[str, Any]) -> None:
    for name, block in result.items():
        print(f"{name}:")
        for label, s in block.items():
            if "a" in s:
                print(f"  {label}: a = {s['a']:.4f}, b = {s['b']:.4f}")
                continue
            if "points" in s:
                pairs = ", ".join(f"({x}, {c})" for x, c in s["points"])
                print(f"  {label}: ({pairs})")
                continue
            if "spread" in s:
                print(f"  {label}: {s['spread']:.4f} (n = {s['n']}; the spec's hint_spread)")
                continue
            print(
                f"  {label}: n = {s['n']}, base rate {s['base_rate']:.1%}, mean chance "
                f"{s['mean_chance']:.1%}, Brier {s['brier']:.4f} (base-rate constant "
                f"{s['brier_baseline']:.4f}), ECE {100 * s['ece']:.1f} points "
                f"[95% bootstrap {100 * s['ece_low']:.1f}, {100 * s['ece_high']:.1f}]"
            )


def figure(rows: Sequence[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [n for n in GAMES if any(r["game"] == n for r in rows)]
    fig, axes = plt.subplots(1, len(names), figsize=(5.2 * len(names), 5), squeeze=False)
    for ax, name in zip(axes[0], names, strict=True):
        ax.plot([0, 1], [0, 1], color="grey", lw=1, ls="--", label="perfect")
        for (label, (p, y)), marker in zip(estimators(rows, name).items(), "osD", strict=False):
            pts = bins_of(p, y)
            ax.plot(
                [a for a, _, _ in pts],
                [b for _, b, _ in pts],
                marker=marker,
                label=f"{label} (ECE {100 * ece(p, y):.1f})",
            )
            for a, b, c in pts:
                ax.annotate(str(c), (a, b), fontsize=7, xytext=(3, 3), textcoords="offset points")
        count = sum(1 for r in rows if r["game"] == name)
        ax.set_title(f"{name}: {count} positions")
        ax.set_xlabel("chance shown (bin mean)")
        ax.set_ylabel("won (bin mean)")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=GAMES, help="repeat; default both")
    parser.add_argument("--positions", type=int, default=50, help="positions per game")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument(
        "--bot",
        help="who plays the games and on from them (default: each game's chance_bot, the "
        "level its chances assume)",
    )
    parser.add_argument("--budget", type=int, default=800, help="hint simulations")
    parser.add_argument("--forecast-games", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--rows", type=Path, help="write the positions' rows (JSON) here")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="keep the rows already in --rows (same seed, bots, budget and forecast games) "
        "and play only the positions missing",
    )
    parser.add_argument(
        "--from",
        dest="sources",
        type=Path,
        action="append",
        help="read rows written by --rows instead of playing (repeat)",
    )
    parser.add_argument("--fit", action="store_true", help="fit the map on even positions")
    parser.add_argument("--figure", type=Path, help="write the reliability diagram (PNG)")
    parser.add_argument("--json", type=Path, help="write the report (JSON) here")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    if args.positions < 1 or args.budget < 1 or args.forecast_games < 1 or args.workers < 1:
        print(
            "error: --positions, --budget, --forecast-games and --workers must be 1 or more",
            file=sys.stderr,
        )
        return 2
    if args.sources:
        rows: list[dict[str, Any]] = []
        for source in args.sources:
            try:
                rows.extend(json.loads(source.read_text(encoding="utf-8"))["rows"])
            except (OSError, ValueError, KeyError, TypeError) as error:
                print(
                    f"error: {source}: not a rows file written by --rows ({error})", file=sys.stderr
                )
                return 2
    else:
        from velvet.bots.hints import level_spec
        from velvet.bots.registry import make_bot
        from velvet.engine.errors import ConfigError

        names = args.game or list(GAMES)
        try:
            for name in names:
                make_bot(bot_of(name, args.bot), name)
        except ConfigError as error:
            print(f"error: --bot: {error}", file=sys.stderr)
            return 2
        meta: dict[str, Any] = {
            "seed": args.seed,
            "bot": args.bot or "chance_bot",
            "budget": args.budget,
            "forecast_games": args.forecast_games,
            "levels": {n: level_spec(bot_of(n, args.bot), n) for n in names},
        }
        done: list[dict[str, Any]] = []
        if args.resume:
            if not args.rows:
                print("error: --resume needs --rows (the file to go on with)", file=sys.stderr)
                return 2
            if args.rows.exists():
                try:
                    old = json.loads(args.rows.read_text(encoding="utf-8"))
                    done = list(old["rows"])
                except (OSError, ValueError, KeyError, TypeError) as error:
                    print(f"error: {args.rows}: not a rows file ({error})", file=sys.stderr)
                    return 2
                differ = [
                    k for k in ("seed", "bot", "budget", "forecast_games") if old.get(k) != meta[k]
                ]
                differ += [
                    f"{n}'s bot ({old.get('levels', {}).get(n)} there, {meta['levels'][n]} now)"
                    for n in names
                    if old.get("levels", {}).get(n) != meta["levels"][n]
                    and any(r["game"] == n for r in done)
                ]
                if differ:
                    print(
                        f"error: {args.rows} was made with another {', '.join(differ)}: "
                        "run without --resume, or with its settings",
                        file=sys.stderr,
                    )
                    return 2

        def save(done: list[dict[str, Any]]) -> None:
            if args.rows:
                ordered = sorted(done, key=lambda r: (r["game"], r["index"]))
                args.rows.write_text(
                    json.dumps({**meta, "rows": ordered}, indent=1) + "\n", encoding="utf-8"
                )

        rows = collect(
            names,
            args.positions,
            args.seed,
            args.bot,
            args.budget,
            args.forecast_games,
            args.workers,
            progress=not args.no_progress,
            save=save,
            done=done,
        )
    result = report(rows, args.fit)
    print_report(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    if args.figure:
        figure(rows, args.figure)
        print(f"reliability diagram: {args.figure}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
