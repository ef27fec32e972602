"""Train a masked PPO agent (sb3-contrib MaskablePPO, CPU) on Persona VS against the random bot.

    python3 examples/train_vs.py --steps 1000000 --out runs/vs-ppo

The agent plays seat 0 of ``gymnasium.make("velvet/vs-v0", opponent="random")``;
which seat moves first is dealt by the game. Every ``--eval-every`` steps it plays
``--eval-games`` games against the random bot (greedy action among the legal ones)
and writes the win rate to ``curve.csv``; at the end it plays ``--final-games``
games against random and against greedy and writes ``final.json`` and
``curve.png`` (win rates with 95 % Wilson intervals). See docs/rl.md.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

import velvet.adapters  # noqa: F401  (registers velvet/vs-v0)
from velvet.games import get_game


class ObservationOnly(gym.ObservationWrapper[Any, int, Any]):
    """The encoded view as a flat Box; the mask stays available through ``action_masks()``."""

    def __init__(self, env: gym.Env[Any, int]) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]  # type: ignore[index]

    def observation(self, observation: Any) -> Any:
        return observation["observation"]

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined,no-any-return]


def make_env(opponent: str, shaping: float) -> Callable[[], gym.Env[Any, int]]:
    def build() -> gym.Env[Any, int]:
        return ObservationOnly(gym.make("velvet/vs-v0", opponent=opponent, shaping=shaping))

    return build


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a win rate (draws count half)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def evaluate(
    model: MaskablePPO, opponent: str, games: int, seed: int, batch: int = 50
) -> dict[str, Any]:
    """Play ``games`` games (greedy policy) against ``opponent``; count wins, draws, losses.

    ``batch`` games run side by side so that one policy call serves them all.
    """
    envs = [ObservationOnly(gym.make("velvet/vs-v0", opponent=opponent)) for _ in range(batch)]
    started = 0
    live: dict[int, Any] = {}
    for i, env in enumerate(envs[:games]):
        live[i], _ = env.reset(seed=seed + started)
        started += 1
    wins = draws = losses = 0
    while live:
        slots = list(live)
        observations = np.stack([live[i] for i in slots])
        masks = np.stack([envs[i].action_masks() for i in slots])
        actions, _ = model.predict(observations, deterministic=True, action_masks=masks)
        for i, action in zip(slots, actions, strict=True):
            obs, reward, terminated, truncated, _ = envs[i].step(int(action))
            if not (terminated or truncated):
                live[i] = obs
                continue
            if float(reward) > 0:
                wins += 1
            elif float(reward) < 0:
                losses += 1
            else:
                draws += 1
            if started < games:
                live[i], _ = envs[i].reset(seed=seed + started)
                started += 1
            else:
                del live[i]
    score = wins + 0.5 * draws
    low, high = wilson(score, games)
    return {
        "opponent": opponent,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": score / games,
        "ci95": [low, high],
    }


TRAIN_WINDOW = 200
"""Training episodes behind each point of the training win-rate curve."""


class CurveCallback(BaseCallback):
    """Every ``every`` steps, evaluate against random and append a row to curve.csv."""

    def __init__(
        self, path: Path, every: int, games: int, seed: int, minutes: float | None = None
    ) -> None:
        super().__init__()
        self.deadline = None if minutes is None else time.monotonic() + 60.0 * minutes
        self.path = path
        self.every = every
        self.games = games
        self.seed = seed
        self.next_at = 0
        self.rows: list[dict[str, Any]] = []
        self.started = time.monotonic()
        self.outcomes: list[float] = []
        """Seat 0's return in each finished training episode (stochastic policy)."""

    def _on_step(self) -> bool:
        for info in self.locals.get("infos", ()):
            if "returns" in info:
                self.outcomes.append(float(info["returns"][0]))
        if self.num_timesteps >= self.next_at:
            self.record()
            self.next_at += self.every
        return self.deadline is None or time.monotonic() < self.deadline

    def record(self) -> None:
        model = self.model
        assert isinstance(model, MaskablePPO)
        result = evaluate(model, "random", self.games, self.seed + 10_000 * len(self.rows))
        recent = self.outcomes[-TRAIN_WINDOW:]
        row = {
            "steps": self.num_timesteps,
            "seconds": round(time.monotonic() - self.started, 1),
            "win_rate": result["win_rate"],
            "low": result["ci95"][0],
            "high": result["ci95"][1],
            "train_win_rate": round(float(np.mean(recent)), 4) if recent else "",
            "train_episodes": len(self.outcomes),
        }
        self.rows.append(row)
        with self.path.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(row))
            writer.writeheader()
            writer.writerows(self.rows)
        print(f"steps {row['steps']}: {row['win_rate']:.1%} vs random ({self.games} games)")


def plot(rows: list[dict[str, Any]], path: Path, final: list[dict[str, Any]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [r["steps"] for r in rows]
    rate = [r["win_rate"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(
        steps, rate, marker="o", label="evaluation vs random (most likely legal action, 95 % CI)"
    )
    ax.fill_between(steps, [r["low"] for r in rows], [r["high"] for r in rows], alpha=0.25)
    train = [(r["steps"], float(r["train_win_rate"])) for r in rows if r["train_win_rate"] != ""]
    if train:
        ax.plot(
            [x for x, _ in train],
            [y for _, y in train],
            color="tab:orange",
            label=f"training episodes vs random (last {TRAIN_WINDOW}, sampled policy)",
        )
    for result, colour in zip(final, ("tab:green", "tab:red"), strict=False):
        ax.axhline(
            result["win_rate"],
            color=colour,
            linestyle="--",
            label=f"final vs {result['opponent']}: {result['win_rate']:.1%} "
            f"({result['games']} games)",
        )
    ax.axhline(0.5, color="grey", linewidth=0.8)
    ax.set_xlabel("environment steps (agent decisions)")
    ax.set_ylabel("win rate of seat 0 (draws count half)")
    ax.set_ylim(0, 1)
    ax.set_title("MaskablePPO on Persona VS (seat 0), trained against the random bot")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def train(
    steps: int,
    out: Path,
    seed: int = 0,
    n_envs: int = 16,
    eval_every: int = 50_000,
    eval_games: int = 100,
    final_games: int = 400,
    shaping: float = 0.5,
    final_opponents: tuple[str, ...] = ("random", "greedy"),
    minutes: float | None = None,
    rollout: int = 4096,
) -> dict[str, Any]:
    """Train, evaluate, and write model.zip, curve.csv, final.json and curve.png into ``out``."""
    torch.set_num_threads(1)
    out.mkdir(parents=True, exist_ok=True)
    env = DummyVecEnv([make_env("random", shaping) for _ in range(n_envs)])
    env.seed(seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=max(32, rollout // n_envs),
        batch_size=min(512, rollout),
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.99,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=seed,
        device="cpu",
        verbose=0,
    )
    curve = CurveCallback(out / "curve.csv", eval_every, eval_games, seed + 1, minutes)
    started = time.monotonic()
    cpu = time.process_time()
    model.learn(total_timesteps=steps, callback=curve)
    curve.record()
    training = {
        "steps": model.num_timesteps,
        "train_seconds": round(time.monotonic() - started, 1),
        "train_cpu_seconds": round(time.process_time() - cpu, 1),
        "seed": seed,
        "n_envs": n_envs,
        "shaping": shaping,
        **trained_on(),
    }
    model.save(out / "model.zip")
    (out / "training.json").write_text(json.dumps(training, indent=2) + "\n")
    return final_evaluation(out, final_games, seed, final_opponents)


def trained_on() -> dict[str, Any]:
    """The rules and card set the agent was trained on, and the command that trained it."""
    game = get_game("vs")
    return {
        "rules_version": game.rules_version,
        "cardset_hash": game.cardset_hash(),
        "command": " ".join(["python3", *sys.argv]),
    }


def final_evaluation(
    out: Path, games: int, seed: int = 0, opponents: tuple[str, ...] = ("random", "greedy")
) -> dict[str, Any]:
    """Evaluate ``out/model.zip`` against each opponent; write final.json and curve.png."""
    torch.set_num_threads(1)
    model = MaskablePPO.load(out / "model.zip", device="cpu")
    final = [
        evaluate(model, opponent, games, seed + 1_000_000 + k * games)
        for k, opponent in enumerate(opponents)
    ]
    training_file = out / "training.json"
    summary: dict[str, Any] = (
        json.loads(training_file.read_text()) if training_file.exists() else {}
    )
    summary["final"] = final
    (out / "final.json").write_text(json.dumps(summary, indent=2) + "\n")
    with (out / "curve.csv").open() as handle:
        rows = [
            {
                **row,
                "steps": int(row["steps"]),
                "win_rate": float(row["win_rate"]),
                "low": float(row["low"]),
                "high": float(row["high"]),
                "train_win_rate": row.get("train_win_rate") or "",
            }
            for row in csv.DictReader(handle)
        ]
    plot(rows, out / "curve.png", final)
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1_000_000)
    parser.add_argument("--out", type=Path, default=Path("runs/vs-ppo"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument(
        "--minutes", type=float, default=None, help="stop training after this wall time"
    )
    parser.add_argument("--eval-every", type=int, default=50_000)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--final-games", type=int, default=400)
    parser.add_argument("--shaping", type=float, default=0.5)
    parser.add_argument(
        "--opponents",
        nargs="+",
        default=["random", "greedy"],
        help="bots the final evaluation plays (any bot spec)",
    )
    parser.add_argument(
        "--evaluate-only",
        action="store_true",
        help="skip training: evaluate OUT/model.zip and redraw OUT/curve.png",
    )
    args = parser.parse_args()
    if args.evaluate_only:
        summary = final_evaluation(args.out, args.final_games, args.seed, tuple(args.opponents))
    else:
        summary = train(
            args.steps,
            args.out,
            seed=args.seed,
            n_envs=args.envs,
            eval_every=args.eval_every,
            eval_games=args.eval_games,
            final_games=args.final_games,
            shaping=args.shaping,
            minutes=args.minutes,
            final_opponents=tuple(args.opponents),
        )
    for result in summary["final"]:
        low, high = result["ci95"]
        print(
            f"vs {result['opponent']}: {result['win_rate']:.1%} "
            f"[{low:.1%}, {high:.1%}] over {result['games']} games"
        )


if __name__ == "__main__":
    main()
