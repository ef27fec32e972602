"""Game-independent kernel: state/action contract, RNG, events, records."""

from velvet.engine.core import TERMINAL, Action, Event, Game, State, canonical_json, choose_by_text
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

__all__ = [
    "TERMINAL",
    "Action",
    "CardDataError",
    "ConfigError",
    "DeckError",
    "Event",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "InvalidActionError",
    "RecordError",
    "Rng",
    "State",
    "VelvetError",
    "canonical_json",
    "choose_by_text",
    "load_game",
    "load_record",
    "save_game",
]
