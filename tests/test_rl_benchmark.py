"""benchmarks/rl_speed.py runs end to end on a tiny budget and reports every Velvet subject.

The figures themselves are measured by hand (docs/benchmarks.md); this only keeps the
script working as the adapters change.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "rl_speed.py"
VELVET_SUBJECTS = [
    "velvet vs raw engine",
    "velvet vs raw engine + view",
    "velvet p5 raw engine",
    "velvet gymnasium vs-v0",
    "velvet gymnasium p5-v0",
    "velvet pettingzoo vs (AEC)",
    "velvet pettingzoo p5 (AEC)",
    "velvet openspiel python_velvet_vs",
    "velvet openspiel python_velvet_p5(players=2)",
]
FLOORS = [
    f"floor {framework} {game} ({kind})"
    for framework, kind in (
        ("gymnasium", "null env"),
        ("pettingzoo", "null AEC env"),
        ("openspiel", "null game"),
    )
    for game in ("vs", "p5")
]
COSTS = Path(__file__).resolve().parent.parent / "benchmarks" / "rl_costs.py"


def test_rl_speed_reports_every_adapter_beside_the_raw_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = importlib.util.spec_from_file_location("bench_rl_speed", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    out_file = tmp_path / "rl.json"
    assert module.main(["--seconds", "0.05", "--json", str(out_file)]) == 0
    out = capsys.readouterr().out
    for name in VELVET_SUBJECTS + FLOORS:
        row = next(line for line in out.splitlines() if line.startswith(name + " "))
        assert float(row[len(name) :].split()[0].replace(",", "")) > 0
    assert re.search(r"velvet gymnasium vs-v0\s+\d+\.\d\dx", out)
    # the batched PettingZoo env, in 1 and 2 processes, set beside RLCard leduc's env
    batches = out.split("Batched envs, wall clock")[1]
    leduc = r"\s+\d+\.\d\dx rlcard leduc-holdem" if "rlcard leduc" in batches else ""
    for game in ("vs", "p5"):
        one = f"velvet pettingzoo batch {game} x16, 1 process"
        two = f"velvet pettingzoo batch {game} x16, 2 processes"
        assert re.search(re.escape(one) + leduc, batches)
        assert re.search(re.escape(two) + r"\s+\d+\.\d\dx the 1-process batch" + leduc, batches)
    # each framework's floor is set beside one raw engine decision of its game
    floor_block = out.split("Framework floor")[1].split("\n\n")[0]
    for name in FLOORS:
        assert re.search(re.escape(name) + r"\s+\d+\.\d\d us/step\s+\d+\.\d\dx", floor_block)
    data = json.loads(out_file.read_text())
    names = {r["name"] for r in data["results"]}
    assert set(VELVET_SUBJECTS + FLOORS) <= names
    # every peer measured (its batch subject, by the wall clock, among them) or said skipped
    peers = [r for r in data["results"] if r["kind"] == "peer" or r["name"].startswith("rlcard")]
    assert len(peers) + len(data["skipped"]) == 7


def test_rl_speed_only_runs_the_subjects_named(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_rl_speed_only", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    assert module.main(["--seconds", "0.05", "--only", "raw vs,gym vs"]) == 0
    out = capsys.readouterr().out
    starts = ("velvet", "pettingzoo", "rlcard")
    rows = [line.split("  ")[0] for line in out.splitlines() if line.startswith(starts)]
    assert rows == ["velvet vs raw engine", "velvet vs raw engine + view", "velvet gymnasium vs-v0"]
    assert "velvet gymnasium vs-v0" in out.split("Adapter cost")[1]


def test_rl_costs_times_every_part_of_both_games(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_rl_costs", COSTS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    assert module.main(["--games", "1"]) == 0
    out = capsys.readouterr().out
    for game in ("vs", "p5"):
        block = out.split(f"\n{game}: CPU microseconds per call")[1].split("\n\n")[0]
        rows = {line[:68].strip(): float(line[68:]) for line in block.splitlines()[1:]}
        assert rows["encode_state(state, seat)"] > 0
        assert rows["openspiel: observation_tensor(player)"] > 0
        assert len(rows) == 15
    with pytest.raises(SystemExit):
        module.main(["--games", "0"])
