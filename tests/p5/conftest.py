"""Fixtures of the Persona 5 tests."""

from __future__ import annotations

import pytest

from velvet.p5.game import P5Game, load_p5_game


@pytest.fixture(scope="session")
def game() -> P5Game:
    return load_p5_game()
