"""Batch simulation of bot games: seeded, parallel (process pool or Ray), resumable,
with Parquet/CSV results, JSON summaries and HTML reports."""

from velvet.sim.report import write_report
from velvet.sim.results import load_results
from velvet.sim.run import Summary, game_seed, play_game, replay_game, run_sim
from velvet.sim.stats import wilson

__all__ = [
    "Summary",
    "game_seed",
    "load_results",
    "play_game",
    "replay_game",
    "run_sim",
    "wilson",
    "write_report",
]
