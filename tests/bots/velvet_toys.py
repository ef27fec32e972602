"""Two small games on the kernel ABCs so bot and sim tests never need P5 or VS.

* ``Duel`` — two players, hidden hands: each is dealt ``hand`` cards from
  1..``cards``; over ``hand`` rounds the leader plays a card, the follower
  answers, the higher card (leader on a tie) takes the round; most rounds wins.
* ``Race`` — co-op dice for 1..n seats (seats take turns): roll a d6 to add to
  the turn's pot (a 1 loses the pot and ends the turn) or bank it; the team
  wins if the banked score reaches ``target`` within ``turns`` turns.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from velvet.engine.core import TERMINAL, Event, Game, State
from velvet.engine.errors import ConfigError, IllegalActionError, InvalidActionError, RecordError
from velvet.engine.rng import Rng
from velvet.engine.spec import GameSpec


@dataclass(frozen=True, slots=True)
class Play:
    card: int

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True, slots=True)
class Roll:
    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class Bank:
    def __str__(self) -> str:
        return "bank"


# --------------------------------------------------------------------- Duel


class DuelGame(Game[Play]):
    name = "duel"
    rules_version = "toy-1"
    num_players = (2,)

    def __init__(self, cards: int = 9, hand: int = 3) -> None:
        self.cards = cards
        self.hand = hand

    def new_state(self, config: Mapping[str, Any], seed: int | Rng) -> DuelState:
        unknown = set(config) - {"first"}
        if unknown:
            raise ConfigError(f"duel config: unknown key {sorted(unknown)[0]!r}; allowed: first")
        rng = seed if isinstance(seed, Rng) else Rng(seed)
        deck = list(range(1, self.cards + 1))
        rng.shuffle(deck)
        first = int(config.get("first", 0))
        hands = [sorted(deck[: self.hand]), sorted(deck[self.hand : 2 * self.hand])]
        return DuelState(self, hands, deck[2 * self.hand :], [], [0, 0], first, first, rng)

    def parse_action(self, text: str) -> Play:
        parts = text.split()
        if len(parts) != 2 or parts[0] != "play" or not parts[1].isdigit():
            raise InvalidActionError(f"bad duel action {text!r}: use 'play N'")
        return Play(int(parts[1]))

    def state_from_json(self, data: Any) -> DuelState:
        try:
            return DuelState(
                self,
                [list(h) for h in data["hands"]],
                list(data["deck"]),
                list(data["table"]),
                list(data["score"]),
                data["leader"],
                data["first"],
                Rng.from_json(data["rng"]),
                gone=list(data["gone"]),
            )
        except (KeyError, TypeError) as exc:
            raise RecordError(f"duel state: {exc}") from None

    def cardset_hash(self) -> str:
        return hashlib.sha256(f"duel{self.cards}/{self.hand}".encode()).hexdigest()

    def action_ids(self) -> Sequence[str]:
        return [f"play {c}" for c in range(1, self.cards + 1)]

    def determinize(self, view: dict[str, Any], player: int, rng: Rng) -> DuelState:
        """Deal the cards ``player`` cannot see at random (opponent hand, deck)."""
        seen = set(view["hand"]) | set(view["table"]) | set(view["gone"])
        unseen = [c for c in range(1, self.cards + 1) if c not in seen]
        sample = Rng(rng.randbelow(1 << 62))
        sample.shuffle(unseen)
        n = view["opponent_hand"]
        hands: list[list[int]] = [[], []]
        hands[player] = list(view["hand"])
        hands[1 - player] = sorted(unseen[:n])
        return DuelState(
            self,
            hands,
            unseen[n:],
            list(view["table"]),
            list(view["score"]),
            view["leader"],
            view["first"],
            sample,
            gone=list(view["gone"]),
        )


class DuelState(State[Play]):
    __slots__ = ("_game", "deck", "first", "gone", "hands", "leader", "rng", "score", "table")

    def __init__(
        self,
        game: DuelGame,
        hands: list[list[int]],
        deck: list[int],
        table: list[int],
        score: list[int],
        leader: int,
        first: int,
        rng: Rng,
        gone: list[int] | None = None,
    ) -> None:
        self._game = game
        self.hands = hands
        self.deck = deck
        self.table = table
        self.score = score
        self.leader = leader
        self.first = first
        self.rng = rng
        self.gone = gone or []

    @property
    def game(self) -> DuelGame:
        return self._game

    @property
    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return self.leader if not self.table else 1 - self.leader

    def legal_actions(self) -> list[Any]:
        if self.is_terminal():
            return []
        return [Play(c) for c in self.hands[self.current_player]]

    def apply_unchecked(self, action: Any) -> list[Event]:
        p = self.current_player
        self.hands[p].remove(action.card)
        self.table.append(action.card)
        events = [Event("played", {"player": p, "card": action.card})]
        if len(self.table) == 2:
            lead, follow = self.table
            winner = self.leader if lead >= follow else 1 - self.leader
            self.score[winner] += 1
            self.gone.extend(self.table)
            self.table = []
            self.leader = winner
            events.append(Event("round", {"winner": winner}))
        return events

    def explain_illegal(self, action: Any) -> IllegalActionError:
        return IllegalActionError("DUEL-1", f"{action} is not in your hand")

    def clone(self) -> DuelState:
        return DuelState(
            self._game,
            [self.hands[0][:], self.hands[1][:]],
            self.deck[:],
            self.table[:],
            self.score[:],
            self.leader,
            self.first,
            self.rng.clone(),
            self.gone[:],
        )

    def is_terminal(self) -> bool:
        return not self.hands[0] and not self.hands[1]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        return [1.0, 0.0] if self.score[0] > self.score[1] else [0.0, 1.0]

    def view(self, player: int) -> dict[str, Any]:
        return {
            "player": player,
            "hand": list(self.hands[player]),
            "opponent_hand": len(self.hands[1 - player]),
            "table": list(self.table),
            "gone": list(self.gone),
            "score": list(self.score),
            "leader": self.leader,
            "first": self.first,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [list(h) for h in self.hands],
            "deck": list(self.deck),
            "table": list(self.table),
            "gone": list(self.gone),
            "score": list(self.score),
            "leader": self.leader,
            "first": self.first,
            "rng": self.rng.to_json(),
        }

    def outcome_text(self) -> str:
        return f"score {self.score[0]}-{self.score[1]}"


# --------------------------------------------------------------------- Race


class RaceGame(Game[Roll | Bank]):
    name = "race"
    rules_version = "toy-1"
    num_players = (1, 2)

    def __init__(self, target: int = 20, turns: int = 5) -> None:
        self.target = target
        self.turns = turns

    def new_state(self, config: Mapping[str, Any], seed: int | Rng) -> RaceState:
        players = config.get("players", 1)
        if players not in self.num_players:
            raise ConfigError(f"race config: players must be one of {self.num_players}")
        return RaceState(self, players, 0, 0, 0, (seed if isinstance(seed, Rng) else Rng(seed)))

    def parse_action(self, text: str) -> Roll | Bank:
        if text == "roll":
            return Roll()
        if text == "bank":
            return Bank()
        raise InvalidActionError(f"bad race action {text!r}: use 'roll' or 'bank'")

    def state_from_json(self, data: Any) -> RaceState:
        return RaceState(
            self,
            data["players"],
            data["score"],
            data["pot"],
            data["turn"],
            Rng.from_json(data["rng"]),
        )

    def cardset_hash(self) -> str:
        return hashlib.sha256(f"race{self.target}/{self.turns}".encode()).hexdigest()

    def action_ids(self) -> Sequence[str]:
        return ["roll", "bank"]

    def determinize(self, view: dict[str, Any], player: int, rng: Rng) -> RaceState:
        """Nothing is hidden but future dice: a fresh RNG samples them."""
        return RaceState(
            self,
            view["players"],
            view["score"],
            view["pot"],
            view["turn"],
            Rng(rng.randbelow(1 << 62)),
        )


class RaceState(State[Roll | Bank]):
    __slots__ = ("_game", "players", "pot", "rng", "score", "turn")

    def __init__(
        self, game: RaceGame, players: int, score: int, pot: int, turn: int, rng: Rng
    ) -> None:
        self._game = game
        self.players = players
        self.score = score
        self.pot = pot
        self.turn = turn
        self.rng = rng

    @property
    def game(self) -> RaceGame:
        return self._game

    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.turn % self.players

    def legal_actions(self) -> list[Any]:
        if self.is_terminal():
            return []
        return [Roll(), Bank()]

    def apply_unchecked(self, action: Any) -> list[Event]:
        if isinstance(action, Bank):
            self.score += self.pot
            self.pot = 0
            self.turn += 1
            return [Event("bank", {"score": self.score})]
        die = self.rng.randbelow(6) + 1
        if die == 1:
            self.pot = 0
            self.turn += 1
        else:
            self.pot += die
        return [Event("roll", {"die": die})]

    def explain_illegal(self, action: Any) -> IllegalActionError:
        return IllegalActionError("RACE-1", "the race is over")

    def clone(self) -> RaceState:
        return RaceState(
            self._game, self.players, self.score, self.pot, self.turn, self.rng.clone()
        )

    def is_terminal(self) -> bool:
        return self.score >= self._game.target or self.turn >= self._game.turns

    def returns(self) -> list[float]:
        won = 1.0 if self.score >= self._game.target else 0.0
        return [won] * self.players

    def view(self, player: int) -> dict[str, Any]:
        return {
            "player": player,
            "players": self.players,
            "score": self.score,
            "pot": self.pot,
            "turn": self.turn,
        }

    def to_json(self) -> dict[str, Any]:
        data = self.view(0)
        del data["player"]
        data["rng"] = self.rng.to_json()
        return data

    def outcome_text(self) -> str:
        return f"score {self.score} after {self.turn} turns"


def _duel_summary(state: State[Any]) -> dict[str, Any]:
    assert isinstance(state, DuelState)
    return {"first": state.first, "score_0": state.score[0], "score_1": state.score[1]}


def _race_summary(state: State[Any]) -> dict[str, Any]:
    assert isinstance(state, RaceState)
    return {"score": state.score, "turns": state.turn}


DUEL = GameSpec(
    name="duel",
    load=lambda cards: DuelGame(),
    summarize=_duel_summary,
    default_config={"first": 0},
    vary=lambda game, config, rng: {**config, "first": rng.randbelow(2)},
    encoder="tests.adapters.duel_encoder:DuelEncoder",
    shaping="tests.adapters.duel_encoder:score_lead",
)
RACE = GameSpec(
    name="race",
    load=lambda cards: RaceGame(),
    summarize=_race_summary,
    turns_key="turns",
    default_config={"players": 1},
)


def _broken_summary(state: State[Any]) -> dict[str, Any]:
    """Fails for games won by seat 1, to test that a failing game becomes an error row."""
    if state.returns()[1] == 1.0:
        raise RuntimeError("summary exploded\nover two lines")
    return _duel_summary(state)


BROKEN = GameSpec(name="duel", load=lambda cards: DuelGame(), summarize=_broken_summary)
NOT_A_SIMGAME = 42


# --------------------------------------------------------------------- Stall


@dataclass(frozen=True, slots=True)
class Flip:
    def __str__(self) -> str:
        return "flip"


@dataclass(frozen=True, slots=True)
class Go:
    def __str__(self) -> str:
        return "go"


class StallGame(Game[Flip | Go]):
    """One seat: ``flip`` toggles a light and changes nothing else; ``go`` three times wins.

    With an evaluator that dislikes progress a bot could flip for ever: it tests
    that bots avoid returning to a view they already decided from.
    """

    name = "stall"
    rules_version = "toy-1"
    num_players = (1,)

    def new_state(self, config: Mapping[str, Any], seed: int | Rng) -> StallState:
        return StallState(self, False, 0)

    def parse_action(self, text: str) -> Flip | Go:
        if text in ("flip", "go"):
            return Flip() if text == "flip" else Go()
        raise InvalidActionError(f"bad stall action {text!r}: use 'flip' or 'go'")

    def state_from_json(self, data: Any) -> StallState:
        return StallState(self, data["light"], data["steps"])

    def cardset_hash(self) -> str:
        return "stall"

    def action_ids(self) -> Sequence[str]:
        return ["flip", "go"]

    def determinize(self, view: dict[str, Any], player: int, rng: Rng) -> StallState:
        return StallState(self, view["light"], view["steps"])


class StallState(State[Flip | Go]):
    __slots__ = ("_game", "light", "steps")

    def __init__(self, game: StallGame, light: bool, steps: int) -> None:
        self._game = game
        self.light = light
        self.steps = steps

    @property
    def game(self) -> StallGame:
        return self._game

    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else 0

    def legal_actions(self) -> list[Any]:
        return [] if self.is_terminal() else [Flip(), Go()]

    def apply_unchecked(self, action: Any) -> list[Event]:
        if isinstance(action, Flip):
            self.light = not self.light
        else:
            self.steps += 1
        return []

    def explain_illegal(self, action: Any) -> IllegalActionError:
        return IllegalActionError("STALL-1", "the game is over")

    def clone(self) -> StallState:
        return StallState(self._game, self.light, self.steps)

    def is_terminal(self) -> bool:
        return self.steps >= 3

    def returns(self) -> list[float]:
        return [1.0 if self.is_terminal() else 0.0]

    def view(self, player: int) -> dict[str, Any]:
        return {"player": player, "light": self.light, "steps": self.steps}

    def to_json(self) -> dict[str, Any]:
        return {"light": self.light, "steps": self.steps}

    def outcome_text(self) -> str:
        return f"{self.steps} steps"


def dislikes_progress(game: Game[Any], view: dict[str, Any], player: int) -> float:
    """An evaluator that prefers staying put: it would make a naive bot flip for ever."""
    return 0.9 - 0.2 * float(view["steps"])
