"""The rules a game's state class delegates to, bound once from above: :class:`Rules`.

A game's ``state.py`` holds the fields and imports none of its rules (no import
cycle: ``state <- effects <- flow <- view, illegal <- game``). Its contract methods
are thin delegates to one :class:`Rules` object, and ``game.py``, which imports
everything, fills that object once with :meth:`Rules.bind`. A game with rules of
its own beyond the contract (P5's decision-wide labels, VS's modifier sources)
subclasses :class:`Rules` with one slot each and binds them beside the contract's.
"""

from __future__ import annotations

from collections.abc import Callable
from types import FunctionType
from typing import Any, Generic, TypedDict

from mypy_extensions import mypyc_attr
from typing_extensions import TypeVar, Unpack

from velvet.engine.core import A, Event, State, V
from velvet.engine.errors import IllegalActionError

S = TypeVar("S", bound=State[Any, Any])
"""The state class of one game (``P5State``, ``VsState``)."""


class RuleFunctions(TypedDict, Generic[S, A, V]):
    """The contract's rules as module functions over a state ``S`` (:meth:`Rules.bind`)."""

    legal_actions: Callable[[S], list[A]]
    apply_unchecked: Callable[[S, A], list[Event]]
    explain: Callable[[S, A | None], IllegalActionError]
    """Why an action is illegal; ``None``: why the finished game allows none."""
    view: Callable[[S, int], V]
    public_view: Callable[[S], V]
    label: Callable[[S, A], str]


@mypyc_attr(allow_interpreted_subclasses=True)
class Rules(Generic[S, A, V]):
    """The rules a state of class ``S`` delegates to; empty until :meth:`bind`."""

    __slots__ = (
        "_state_type",
        "apply_unchecked",
        "explain",
        "label",
        "legal_actions",
        "public_view",
        "view",
    )
    legal_actions: Callable[[S], list[A]]
    apply_unchecked: Callable[[S, A], list[Event]]
    explain: Callable[[S, A | None], IllegalActionError]
    view: Callable[[S, int], V]
    public_view: Callable[[S], V]
    label: Callable[[S, A], str]

    def __init__(self, state_type: type[S]) -> None:
        self._state_type = state_type

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every rule this class holds, its game's own ones included, sorted."""
        # A compiled class (the compiled build, docs/rl.md) lists its fields, its bases'
        # included, in ``__mypyc_attrs__`` and has no ``__slots__``.
        slots = {
            s
            for k in cls.__mro__
            for s in (*getattr(k, "__slots__", ()), *getattr(k, "__mypyc_attrs__", ()))
        }
        return tuple(sorted(s for s in slots if not s.startswith("_")))

    def bind(self, **rules: Unpack[RuleFunctions[S, A, V]]) -> None:
        """Give the state class its rules (called once, by the game's ``game.py``)."""
        self.legal_actions = rules["legal_actions"]
        self.apply_unchecked = rules["apply_unchecked"]
        self.explain = rules["explain"]
        self.view = rules["view"]
        self.public_view = rules["public_view"]
        self.label = rules["label"]
        # The two calls of every step go straight to the rules, one call fewer per step than
        # the typed delegates of the class body (which declare them, and which this replaces).
        # A compiled rule (the compiled build, docs/rl.md) is no Python function and would
        # not bind as a method: the compiled state class keeps its delegates.
        for name, rule in (
            ("legal_actions", self.legal_actions),
            ("apply_unchecked", self.apply_unchecked),
        ):
            if isinstance(rule, FunctionType):
                setattr(self._state_type, name, rule)
