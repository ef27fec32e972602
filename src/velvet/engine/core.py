"""The contract every game implements and every consumer relies on.

A :class:`Game` is immutable: rules version, card database, action table.
A :class:`State` is one match: plain data, cheap to clone, serialisable.
Legality has one source, ``State.legal_actions()``; ``apply`` checks against
it and raises :class:`IllegalActionError` (naming a rule ID) without changing
anything, while ``apply_unchecked`` is the fast path for search.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, Self

from mypy_extensions import mypyc_attr
from typing_extensions import TypeVar

from velvet.engine.errors import ConfigError, IllegalActionError, InvalidActionError
from velvet.engine.rng import Rng

A = TypeVar("A", bound=Hashable)
"""The action type of one game (``P5Action``, ``VsAction``, a toy game's ``Move`` ...)."""

View = Mapping[str, Any]
"""What one seat may see (``State.view``): JSON-able data, keys chosen by the game."""

V = TypeVar("V", bound=View, default=Any)
"""The view type of one game: a ``TypedDict`` (``P5View``, ``VsView``) so that mypy checks
every reader. It defaults to ``Any``, so generic code writes ``State[A]`` / ``Game[Any]``
and a game's own code sees its own view type; TypedDicts cost nothing at run time."""

Config = dict[str, Any]
"""A game's set-up (``Game.new_state``): JSON-able data, keys chosen by the game."""


class Action(Protocol):
    """A small immutable value; ``str(action)`` is its one text form."""

    def __str__(self) -> str: ...

    def __hash__(self) -> int: ...


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """Something that happened: a die rolled, a token spent, a card drawn ...

    ``kind`` is a short machine name; ``data`` holds JSON-able details.
    """

    kind: str
    data: Mapping[str, Any]

    def __init__(self, kind: str, data: Mapping[str, Any] | None = None) -> None:
        # Rules make one or two events a step: the slots are set directly, which is a
        # third faster than the frozen dataclass's own __init__ (object.__setattr__).
        _set_kind(self, kind)
        _set_data(self, {} if data is None else data)

    def __str__(self) -> str:
        if not self.data:
            return self.kind
        details = " ".join(f"{k}={v}" for k, v in self.data.items())
        return f"{self.kind} {details}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **dict(self.data)}


_set_kind = vars(Event)["kind"].__set__  # the slots' descriptors
_set_data = vars(Event)["data"].__set__

TERMINAL = -1
"""``current_player`` of a finished game."""


@dataclass(frozen=True, slots=True)
class CardInfo:
    """A card in words and as data, for any front end (``Game.describe_card``).

    ``lines`` read top to bottom as the card would be printed: costs, skills,
    weakness, abilities. ``data`` holds the same facts as JSON-able values.
    """

    id: str
    name: str
    kind: str
    lines: tuple[str, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        """Name, kind and every line, one per line."""
        return "\n".join((f"{self.name} ({self.kind})", *self.lines))

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "lines": list(self.lines),
            "data": dict(self.data),
        }


def player_name(seat: int) -> str:
    """How people number seats: seat 0 is "Player 1"."""
    return f"Player {seat + 1}"


@mypyc_attr(allow_interpreted_subclasses=True)  # the compiled build (docs/rl.md): P5State, toys
class State(ABC, Generic[A, V]):
    """One match of a game with actions ``A`` and views ``V``; fields kept in ``__slots__``."""

    __slots__ = ()

    @property
    @abstractmethod
    def game(self) -> Game[A, V]: ...

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat that must decide next, or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> list[A]:
        """Every action the current player may take now, in a stable order."""

    @abstractmethod
    def apply_unchecked(self, action: A) -> list[Event]:
        """Apply an action known to be legal (fast path for bots)."""

    @abstractmethod
    def explain_illegal(self, action: A) -> IllegalActionError:
        """Why ``action`` (not among the legal ones) is illegal, with its rule ID."""

    @abstractmethod
    def clone(self) -> Self: ...

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """Per-seat outcome: 1 win, 0 loss (co-op games give every seat the same)."""

    @abstractmethod
    def view(self, player: int) -> V:
        """All that ``player`` may see, as JSON-able data (principle 4)."""

    def reveals_since(self, before: Self) -> bool:
        """Whether the moves from ``before`` to this state drew on chance or showed
        something hidden, so that taking them back would let a player peek or reroll.

        The default says yes: a game that does not tell allows no undo.
        """
        return True

    def public_view(self) -> V:
        """What a spectator, who holds no seat, may see (principle 4).

        A game that does not define it refuses, rather than show a seat's view.
        """
        raise ConfigError(f"game '{self.game.name}' has no public (spectator) view")

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-able data; ``game.state_from_json`` reads it."""

    @abstractmethod
    def outcome_text(self) -> str:
        """One line saying how the game ended (or that it has not)."""

    def game_over_error(self) -> IllegalActionError:
        """The refusal of any action once the game has ended, citing how it ended.

        The default cites ``game.game_over_rule``; a game with several endings
        names the clause of the one that happened.
        """
        return IllegalActionError(self.game.game_over_rule, "the game is over; no action is legal")

    def action_label(self, action: A) -> str:
        """What a player reads for ``action`` (a legal one), with card names.

        Labels of the legal actions of one decision are distinct. The default is
        the text form; games give words ("Use Eiha (Arsène) on Pixie").
        """
        return str(action)

    def action_labels(self) -> dict[A, str]:
        """A label for every legal action, as :meth:`action_label` gives them.

        Front ends that show a whole decision call this once; a game whose labels
        are made for the decision as a whole (to keep them distinct) overrides it.
        """
        return {a: self.action_label(a) for a in self.legal_actions()}

    def apply(self, action: A) -> list[Event]:
        """Apply a legal action and return its events; an illegal one changes nothing."""
        if self.is_terminal():
            raise self.game_over_error()
        if action not in self.legal_actions():
            raise self.explain_illegal(action)
        return self.apply_unchecked(action)

    def canonical(self) -> str:
        """Canonical JSON text of the whole state: equal states give equal text."""
        return canonical_json(self.to_json())

    def digest(self) -> str:
        return hashlib.sha256(self.canonical().encode()).hexdigest()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC, Generic[A, V]):
    """Immutable description of one game with one card set; its actions are ``A``, views ``V``."""

    # Class attributes of each game (ClassVar: compiled code then reads the subclass's).
    name: ClassVar[str]
    rules_version: ClassVar[str]
    num_players: ClassVar[tuple[int, ...]]
    game_over_rule: ClassVar[str] = "GAME-OVER"
    """The rule ID cited when an action comes after the game has ended."""

    @abstractmethod
    def new_state(self, config: Mapping[str, Any], seed: int | Rng) -> State[A, V]:
        """A new match; raises ConfigError naming what is wrong with ``config``.

        ``seed``: an integer, or an :class:`Rng` that every draw of the set-up comes from
        and that becomes the state's RNG (the OpenSpiel adapter deals through it, one
        chance outcome at a time); ``new_state(c, s)`` is ``new_state(c, Rng(s))``.
        A game that takes only integers works everywhere but that adapter."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """Read an action's text form (raises InvalidActionError if garbled)."""

    @abstractmethod
    def state_from_json(self, data: Any) -> State[A, V]:
        """Rebuild a state from ``State.to_json`` (raises RecordError if corrupt)."""

    @abstractmethod
    def cardset_hash(self) -> str:
        """A digest of the card data this game was built from."""

    @abstractmethod
    def action_ids(self) -> Sequence[str]:
        """The stable table of action texts (or templates) behind integer ids."""

    def action_to_id(self, action: A) -> int:
        """The stable integer id of ``action`` (raises InvalidActionError if it has none).

        The default is the action's place in :meth:`action_ids`, for games whose
        table lists every action's text; games with templates override it.
        """
        try:
            return list(self.action_ids()).index(str(action))
        except ValueError:
            raise InvalidActionError(f"'{action}' is not an action of game '{self.name}'") from None

    def action_from_id(self, action_id: int) -> A:
        """The action with id ``action_id`` (raises InvalidActionError if there is none)."""
        table = self.action_ids()
        if isinstance(action_id, bool) or not isinstance(action_id, int):
            raise InvalidActionError(f"action id must be an integer, not {action_id!r}")
        if not 0 <= action_id < len(table):
            raise InvalidActionError(f"no action id {action_id}: ids are 0..{len(table) - 1}")
        return self.parse_action(table[action_id])

    def default_config(self) -> Config:
        """The set-up ``new_state`` gets when a front end has no choices to pass."""
        return {}

    def choices(self) -> Mapping[str, Sequence[tuple[str, str]]]:
        """What a set-up may pick from, by kind: ``(id, name)`` pairs (thieves, decks ...)."""
        return {}

    def determinize(self, view: V, player: int, rng: Rng) -> State[A, V]:
        """A full state consistent with ``player``'s ``view``, hidden parts drawn from ``rng``.

        Search bots call it; a game with nothing hidden may rebuild the state from
        the view with a fresh RNG. Raises ConfigError if the game cannot.
        """
        raise ConfigError(f"game '{self.name}' cannot sample states from a view (no determinize)")

    def describe_card(self, card_id: str) -> CardInfo:
        """The card ``card_id`` in words and as data (raises ConfigError if unknown)."""
        return CardInfo(card_id, card_id, "card")

    def card_ids(self) -> list[str]:
        """Every card of the set, each once, as :meth:`describe_card` takes it."""
        return []

    def action_targets(self, state: State[A, V], action: A) -> tuple[str, ...]:
        """What ``action`` (legal in ``state``) acts on, as board refs ``"kind:key"``.

        A board (the browser client's) marks each thing it draws with its ref, so that
        clicking it offers the actions that name it; refs are the game's to choose
        (docs/web.md lists them). The default: none, the action is a button only.
        """
        return ()

    def action_note(self, state: State[A, V], action: A) -> str | None:
        """A short fact a player should know before choosing ``action`` (e.g. the exact
        chance of a check), or None. The default: none."""
        return None

    def event_for(self, event: Event, seat: int | None) -> Event:
        """``event`` as ``seat`` may see it (None: a spectator), hidden cards left out.

        The default: every event is public.
        """
        return event

    def event_text(self, event: Event) -> str:
        """A sentence for ``event`` with names, seats as "Player 1"/"Player 2"."""
        return str(event)

    def position(self, spec: Mapping[str, Any]) -> State[A, V]:
        """A state built from a position described by names (see docs/engine.md).

        Raises ConfigError naming what is wrong with ``spec``.
        """
        raise ConfigError(f"game '{self.name}' cannot build positions by name")

    def position_of(self, state: State[A, V], seed: int = 0) -> dict[str, Any]:
        """The position of ``state`` by names, as :meth:`position` reads it (``seed``: the
        position's RNG; the state's own is hidden). Raises ConfigError for a state the format
        cannot hold (a pending effect); the default writes none."""
        raise ConfigError(f"game '{self.name}' cannot write positions by name")


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def choose_by_text(state: State[A], text: str) -> A:
    """Turn a person's input into a legal action, going through the legal list.

    Accepts the action's number in the legal list (1-based) or its text form.
    A text that parses but is not legal raises the rule-naming error.
    """
    text = " ".join(text.split())
    if not text:
        raise InvalidActionError("empty move: type a number from the list or an action's text")
    legal = state.legal_actions()
    if text.isdigit():
        index = int(text)
        if 1 <= index <= len(legal):
            return legal[index - 1]
        raise InvalidActionError(f"no action number {index}: choose 1 to {len(legal)}")
    for action in legal:
        if str(action) == text:
            return action
    action = state.game.parse_action(text)
    raise state.explain_illegal(action)
