"""`velvet balance check` bands any registered game whose spec names a ``balance`` plug-in.

This module is the toy Duel's balance plug-in (``GameSpec.balance``): a band's subject
is which seat leads, its rate that leader's. The toy game is registered with it, as an
installed package's entry point does, and banded by a bands file of its own.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from velvet_toys import DUEL, DuelGame

import velvet.games
from velvet.bots import make_bot
from velvet.cli import main
from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.engine.spec import BalanceGame
from velvet.sim.balance import check, load_bands
from velvet.sim.run import game_seed, play_game

SUBJECT = "leader"


def check_subject(subject: str) -> None:
    if subject not in ("0", "1"):
        raise ValueError("a duel leader is seat 0 or 1")


def setup(game: Game[Any], subject: str, index: int) -> BalanceGame:
    if not isinstance(game, DuelGame):
        raise ConfigError("the card set is not of the duel")
    return BalanceGame({"first": int(subject)}, seats=2, seat=int(subject))


BANDED_DUEL = dataclasses.replace(DUEL, balance="tests.sim.test_balance_plugin")

BAND = """
[[band]]
game = "duel"
subject = "{subject}"
profile = "short"
bot = "random"
games = 30
seed = 3
low = {low}
high = {high}
reference = {{ wins = 15, games = 30 }}
"""


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        velvet.games,
        "_installed",
        lambda: {
            "duel": "tests.sim.test_balance_plugin:BANDED_DUEL",
            "race": "velvet_toys:RACE",
        },
    )


def _leader_wins(leader: int) -> float:
    """The same 30 games as the band's, played here directly."""
    wins = 0.0
    for i in range(30):
        bots = [make_bot("random", "duel"), make_bot("random", "duel")]
        state, _ = play_game(DuelGame(), {"first": leader}, game_seed(3, i), bots)
        wins += state.returns()[leader]
    return wins


@pytest.mark.usefixtures("registered")
def test_a_toy_games_band_is_measured_through_its_plug_in(tmp_path: Path) -> None:
    bands = tmp_path / "bands.toml"
    bands.write_text(
        BAND.format(subject="0", low=0.0, high=1.0) + BAND.format(subject="1", low=0.0, high=0.0),
        encoding="utf-8",
    )
    first, second = check("short", bands=bands, game="duel")
    assert first.entry.label == "duel leader 0" and first.ok
    assert first.rate.wins == _leader_wins(0) and first.rate.n == 30
    assert second.rate.wins == _leader_wins(1) > 0 and not second.ok
    result = CliRunner().invoke(main, ["balance", "check", "--game", "duel", "--bands", str(bands)])
    assert result.exit_code == 1
    assert "FAIL duel leader 1:" in result.output
    assert "balance check failed: 1 of 2 outside their band (1)" in result.output


@pytest.mark.usefixtures("registered")
def test_bands_of_a_game_without_the_plug_in_or_a_bad_subject_are_refused(
    tmp_path: Path,
) -> None:
    bands = tmp_path / "bands.toml"
    bands.write_text(BAND.format(subject="2", low=0.0, high=1.0), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"band #1 \(2\): .*a duel leader is seat 0 or 1"):
        load_bands(bands)
    bands.write_text(
        BAND.format(subject="0", low=0.0, high=1.0).replace('"duel"', '"race"'), encoding="utf-8"
    )
    with pytest.raises(
        ConfigError, match=r"no balance bands for game 'race': games with bands: p5, vs, duel"
    ):
        load_bands(bands)
    with pytest.raises(ConfigError, match=r"unknown game 'race': choose p5, vs or duel"):
        check("short", game="race")
