"""Game-independent kernel: state/action contract, RNG, events, records."""

from velvet.engine.core import (
    TERMINAL,
    Action,
    CardInfo,
    Config,
    Event,
    Game,
    State,
    View,
    canonical_json,
    choose_by_text,
    player_name,
)
from velvet.engine.errors import (
    CardDataError,
    ConfigError,
    DeckError,
    IllegalActionError,
    InvalidActionError,
    RecordError,
    VelvetError,
)
from velvet.engine.record import GameRecord, load_game, load_record, save_game
from velvet.engine.rng import Rng
from velvet.engine.spec import ConfigOption, GameSpec


def compiled() -> bool:
    """Whether this install is the compiled build (``VELVET_COMPILE=1``, docs/rl.md):
    the kernel and the VS engine then run as mypyc-compiled C extensions."""
    import importlib.machinery

    from velvet.engine import core

    return (core.__file__ or "").endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


__all__ = [
    "TERMINAL",
    "Action",
    "CardDataError",
    "CardInfo",
    "Config",
    "ConfigError",
    "ConfigOption",
    "DeckError",
    "Event",
    "Game",
    "GameRecord",
    "GameSpec",
    "IllegalActionError",
    "InvalidActionError",
    "RecordError",
    "Rng",
    "State",
    "VelvetError",
    "View",
    "canonical_json",
    "choose_by_text",
    "compiled",
    "load_game",
    "load_record",
    "player_name",
    "save_game",
]
