"""The co-op arena breaks its win rates down by the columns the game's spec names.

``GameSpec.setup_columns`` of a toy co-op race: a plain column (``weather``, drawn from
the game's first state) and a per-seat one (``badge_{s}``). No other file knows them.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from velvet_toys import RACE

from velvet.engine.core import State
from velvet.sim.arena import ArenaOptions, run_arena


def _start(state: State[Any]) -> dict[str, Any]:
    weather = "sun" if int(state.digest()[:8], 16) % 2 else "rain"
    return {"weather": weather, **{f"badge_{s}": f"b{s}" for s in range(len(state.returns()))}}


COOP_RACE = dataclasses.replace(
    RACE, cooperative=True, start=_start, setup_columns=("weather", "badge_{s}")
)


def test_the_co_op_arena_gives_win_rates_by_the_specs_set_up_columns(tmp_path: Path) -> None:
    result = run_arena(
        "tests.sim.test_arena_setup_columns:COOP_RACE",
        ["random", "greedy"],
        tmp_path / "a",
        ArenaOptions(n_games=12, seed=2, workers=1, fmt="csv", players=1),
    )
    saved = json.loads((tmp_path / "a" / "ratings.json").read_text(encoding="utf-8"))
    assert saved["win_rates"] == result.data["win_rates"]
    for entry in saved["win_rates"]:
        by_weather = entry["by_weather"]
        assert set(by_weather) == {"rain", "sun"}
        assert sum(item["n"] for item in by_weather.values()) == entry["n"] == 12
        assert sum(item["wins"] for item in by_weather.values()) == entry["wins"]
        assert entry["by_badge"] == {"b0": {k: entry[k] for k in entry["by_badge"]["b0"]}}
    assert "  by weather (win rate, median winning day):" in result.lines
    assert any(line.startswith("    rain: random ") for line in result.lines)
    assert not any("by badge" in line for line in result.lines)  # only the first is printed
