"""The MaskablePPO example trains a few thousand steps and writes its curve and results."""

from __future__ import annotations

import csv
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_vs.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_vs_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_train_vs_smoke(tmp_path: Path) -> None:
    example = load_example()
    summary = example.train(
        2048,
        tmp_path,
        n_envs=4,
        rollout=1024,
        eval_every=2048,
        eval_games=2,
        final_games=3,
        final_opponents=("random",),
    )
    assert summary["steps"] >= 2048
    [final] = summary["final"]
    assert final["games"] == 3
    assert final["wins"] + final["draws"] + final["losses"] == 3
    low, high = final["ci95"]
    assert 0.0 <= low <= final["win_rate"] <= high <= 1.0
    assert json.loads((tmp_path / "final.json").read_text())["final"] == summary["final"]
    with (tmp_path / "curve.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [int(r["steps"]) for r in rows] == sorted(int(r["steps"]) for r in rows)
    assert len(rows) >= 2
    assert (tmp_path / "curve.png").read_bytes()[:4] == b"\x89PNG"

    # the saved agent only ever picks legal actions when given the mask
    model = example.MaskablePPO.load(tmp_path / "model.zip", device="cpu")
    env = example.ObservationOnly(example.gym.make("velvet/vs-v0"))
    obs, _ = env.reset(seed=3)
    for _ in range(20):
        mask = env.action_masks()
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert mask[int(action)]
        obs, _, terminated, truncated, _ = env.step(int(action))
        if terminated or truncated:
            break


def test_wilson_interval_is_the_textbook_one() -> None:
    example = load_example()
    low, high = example.wilson(80, 100)
    assert np.isclose(low, 0.7112, atol=1e-3) and np.isclose(high, 0.8666, atol=1e-3)
    assert example.wilson(0, 0) == (0.0, 1.0)
