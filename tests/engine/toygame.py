"""A tiny two-player game on the kernel, so kernel, UI and CLI tests need no real game.

Race: players alternately roll a die (``roll``) or stop (``stop``); the first to
reach exactly 10 points wins, going over resets you to 0. Each player also holds
a hidden secret number that only they may see.

It registers like any game, by its :data:`SPEC` (``tests.engine.toygame:SPEC``),
and so runs through ``velvet sim``, ``velvet report`` and the conformance suite.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from velvet.engine import (
    TERMINAL,
    CardInfo,
    Config,
    ConfigError,
    Event,
    Game,
    IllegalActionError,
    InvalidActionError,
    RecordError,
    Rng,
    State,
    player_name,
)
from velvet.engine.spec import GameSpec


@dataclass(frozen=True, slots=True)
class Move:
    verb: str  # "roll" or "stop"

    def __str__(self) -> str:
        return self.verb


ROLL, STOP = Move("roll"), Move("stop")


class RaceState(State[Move]):
    __slots__ = ("_game", "rng", "scores", "secrets", "to_move", "winner")

    def __init__(self, game: RaceGame, rng: Rng) -> None:
        self._game = game
        self.rng = rng
        self.scores = [0, 0]
        self.secrets = [rng.randbelow(100), rng.randbelow(100)]
        self.to_move = 0
        self.winner = -1

    @property
    def game(self) -> RaceGame:
        return self._game

    @property
    def current_player(self) -> int:
        return TERMINAL if self.winner >= 0 else self.to_move

    def legal_actions(self) -> list[Move]:
        return [] if self.winner >= 0 else [ROLL, STOP]

    def apply_unchecked(self, action: Move) -> list[Event]:
        events: list[Event] = []
        if action == ROLL:
            face = self.rng.randbelow(6) + 1
            events.append(Event("die", {"player": self.to_move, "face": face}))
            total = self.scores[self.to_move] + face
            self.scores[self.to_move] = 0 if total > self._game.target else total
            if total == self._game.target:
                self.winner = self.to_move
                events.append(Event("win", {"player": self.to_move}))
        self.to_move = 1 - self.to_move
        return events

    def explain_illegal(self, action: Move) -> IllegalActionError:
        return IllegalActionError("TOY-1", f"'{action}' is not a move of this game")

    def action_label(self, action: Move) -> str:
        return "Roll the die" if action == ROLL else "Stop"

    def clone(self) -> Self:
        other = type(self).__new__(type(self))
        other._game = self._game
        other.rng = self.rng.clone()
        other.scores = self.scores.copy()
        other.secrets = self.secrets.copy()
        other.to_move = self.to_move
        other.winner = self.winner
        return other

    def is_terminal(self) -> bool:
        return self.winner >= 0

    def returns(self) -> list[float]:
        if self.winner < 0:
            return [0.0, 0.0]
        return [1.0 if p == self.winner else 0.0 for p in (0, 1)]

    def view(self, player: int) -> dict[str, Any]:
        return {
            "player": player,
            "scores": list(self.scores),
            "secret": self.secrets[player],
            "to_move": self.current_player,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "rng": self.rng.to_json(),
            "scores": self.scores,
            "secrets": self.secrets,
            "to_move": self.to_move,
            "winner": self.winner,
        }

    def outcome_text(self) -> str:
        return f"player {self.winner + 1} wins" if self.winner >= 0 else "in progress"


class RaceGame(Game[Move]):
    name = "race"
    rules_version = "1"
    num_players = (2,)
    game_over_rule = "TOY-END"

    def __init__(self, target: int = 10) -> None:
        self.target = target

    def new_state(self, config: Mapping[str, Any], seed: int | Rng) -> RaceState:
        unknown = set(config) - {"note"}
        if unknown:
            raise ConfigError(f"unknown config key(s): {', '.join(sorted(unknown))}")
        return RaceState(self, (seed if isinstance(seed, Rng) else Rng(seed)))

    def parse_action(self, text: str) -> Move:
        if text in ("roll", "stop"):
            return Move(text)
        raise InvalidActionError(f"'{text}' is not a move: write roll or stop")

    def state_from_json(self, data: Any) -> RaceState:
        try:
            state = RaceState.__new__(RaceState)
            state._game = self
            state.rng = Rng.from_json(data["rng"])
            state.scores = list(data["scores"])
            state.secrets = list(data["secrets"])
            state.to_move = int(data["to_move"])
            state.winner = int(data["winner"])
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(f"race state: {error}") from error
        return state

    def cardset_hash(self) -> str:
        return f"race-{self.target}"

    def action_ids(self) -> Sequence[str]:
        return ("roll", "stop")

    def describe_card(self, card_id: str) -> CardInfo:
        if card_id != "die":
            raise ConfigError(f"no card '{card_id}': the race has one, 'die'")
        return CardInfo("die", "Die", "equipment", ("Six faces, 1 to 6.",), {"faces": 6})

    def position(self, spec: Mapping[str, Any]) -> RaceState:
        """``scores = [a, b]``, ``to_move = 1`` or ``2`` (a player number), ``seed``."""
        unknown = set(spec) - {"scores", "to_move", "seed"}
        if unknown:
            raise ConfigError(f"unknown position key(s): {', '.join(sorted(unknown))}")
        scores = spec.get("scores", [0, 0])
        if (
            not isinstance(scores, list)
            or len(scores) != 2
            or not all(isinstance(x, int) and 0 <= x < self.target for x in scores)
        ):
            raise ConfigError(f"scores must be two numbers from 0 to {self.target - 1}")
        to_move = spec.get("to_move", 1)
        if to_move not in (1, 2):
            raise ConfigError("to_move must be 1 or 2 (Player 1 or Player 2)")
        state = RaceState(self, Rng(int(spec.get("seed", 0))))
        state.scores = list(scores)
        state.to_move = to_move - 1
        return state

    def event_text(self, event: Event) -> str:
        who = player_name(int(event.data["player"]))
        if event.kind == "die":
            return f"{who} rolls a {event.data['face']}."
        return f"{who} wins the race."


def _summary(state: State[Any]) -> dict[str, Any]:
    assert isinstance(state, RaceState)
    return {"score_0": state.scores[0], "score_1": state.scores[1]}


def _config(game: Game[Any], seats: int, options: Mapping[str, Any]) -> Config:
    if seats != 2:
        raise ConfigError(f"race is for 2 players, not {seats}")
    return {}


SPEC = GameSpec(
    name="race",
    title="Race to exactly 10 with a die.",
    load=lambda cards: RaceGame(),
    players=(2,),
    make_config=_config,
    hidden_information=True,
    hides_hands=True,
    private=("secret",),
    summarize=_summary,
)
