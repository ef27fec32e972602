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
    "load_game",
    "load_record",
    "player_name",
    "save_game",
]
