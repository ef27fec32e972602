"""One match of the Persona 5 board game as plain data: the fields, their codes, clone and JSON.

Tokens are per-player counts ``fresh[p][k]`` / ``spent[p][k]`` (k: Stamina, SP,
Bullet, Cash; Cash is never spent, it returns to the supply: P5-COMP-2).
Cards are indices into the game's tuples. Decisions inside effects sit on a
stack ``dec``; effects waiting to run sit on a stack ``work``.

No rules here. They sit in the modules above this one, each importing only
those below it: ``effects.py`` (what abilities and cards do), ``flow.py`` (the
turn, legal actions, apply, set-up, the end), ``view.py`` (views, determinize,
labels) and ``illegal.py`` (why a move is illegal); ``game.py`` binds them to
:class:`P5State` through :data:`RULES`, so the state's methods are thin delegates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, get_args

from typing_extensions import Unpack

from velvet.engine.core import TERMINAL, Event, State
from velvet.engine.errors import ConfigError, IllegalActionError, RecordError
from velvet.engine.rng import Rng
from velvet.engine.rules import RuleFunctions
from velvet.engine.rules import Rules as EngineRules
from velvet.p5 import actions as A
from velvet.p5.cards import EffectOp
from velvet.p5.difficulty import STANDARD
from velvet.p5.views import P5View

if TYPE_CHECKING:
    from velvet.p5.game import P5Game

# --- codes -----------------------------------------------------------------------------------

ST, SP, BU, CA = 0, 1, 2, 3
OFF, IN_PALACE = -1, -2
# phases
ORDER, MAIN, DISCOVER, FIGHT, ENDING, OVER, AFTER = range(7)
PHASES = ("order", "main", "discover", "fight", "ending", "over", "after")
# decisions on the stack
D_ENTER, D_STAT, D_ALLOC, D_MIX, D_PARTY = range(5)
# work items
W_EFF, W_ENTER, W_ALLOC, W_DEFEAT = range(4)
# compiled cards: effect ops and ability triggers by name, On Palace Enter sources, the boss
OPS: tuple[str, ...] = get_args(EffectOp)
OP = {name: i for i, name in enumerate(OPS)}
TRIGGERS = {"use": 0, "auto": 1, "setup": 2, "recruit": 3, "palace_enter": 4}
ROW_SRC = 100_000
BOSS_SRC = 200_000
ABIL_SRC = 300_000
BOSS = -1  # target key of the boss

T_USE, T_AUTO, T_SETUP, T_RECRUIT, T_ENTER = (
    TRIGGERS[k] for k in ("use", "auto", "setup", "recruit", "palace_enter")
)
O_GAIN, O_RESTORE, O_SPEND, O_PAY, O_STAT, O_CHOICE, O_CHECK, O_DICE, O_MIX, O_DRAW = (
    OP[k]
    for k in (
        "gain",
        "restore",
        "spend",
        "pay",
        "stat",
        "stat_choice",
        "check",
        "dice",
        "restore_mix",
        "draw_persona",
    )
)

# --- decisions and work items ----------------------------------------------------------------


class EnterOrder(NamedTuple):
    """Decision: which On Palace Enter source resolves next (P5-PALACE-1)."""

    kind: int  # D_ENTER
    player: int
    sources: tuple[int, ...]


class StatChoice(NamedTuple):
    """Decision: which of ``stats`` gets +``n`` (P5-RECRUIT-3, stat_choice effects)."""

    kind: int  # D_STAT
    player: int
    stats: tuple[int, ...]
    n: int


SplitOf = int | tuple[int, ...]
"""What a split is of: a target key (D_ALLOC: a shadow index or ``BOSS``) or the token
kinds a mixed restore allows (D_MIX); in JSON an integer or a list."""


class Split(NamedTuple):
    """Decision: how many of ``left`` go to resource ``res``: ANY damage on the target
    ``of`` (D_ALLOC, P5-COMBAT-4) or a mixed restore over the kinds ``of`` (D_MIX)."""

    kind: int  # D_ALLOC or D_MIX
    player: int
    of: SplitOf
    left: int
    res: int


class PartyDraft(NamedTuple):
    """Decision: the draft party and the shadows changed so far (P5-ARSENE-3)."""

    kind: int  # D_PARTY
    player: int
    draft: tuple[int, ...]
    moved: tuple[int, ...]


Decision = EnterOrder | StatChoice | Split | PartyDraft
DECISIONS: dict[int, type[Decision]] = {
    D_ENTER: EnterOrder,
    D_STAT: StatChoice,
    D_ALLOC: Split,
    D_MIX: Split,
    D_PARTY: PartyDraft,
}


class EffectItem(NamedTuple):
    """Work: run one effect for the player in turn."""

    kind: int  # W_EFF
    effect: int


class EnterItem(NamedTuple):
    """Work: the On Palace Enter sources still to resolve."""

    kind: int  # W_ENTER
    sources: tuple[int, ...]


class AllocItem(NamedTuple):
    """Work: place ``n`` ANY damage on ``target``."""

    kind: int  # W_ALLOC
    target: int
    n: int


class DefeatItem(NamedTuple):
    """Work: see whether ``target`` is defeated."""

    kind: int  # W_DEFEAT
    target: int


WorkItem = EffectItem | EnterItem | AllocItem | DefeatItem
WORK: dict[int, type[WorkItem]] = {
    W_EFF: EffectItem,
    W_ENTER: EnterItem,
    W_ALLOC: AllocItem,
    W_DEFEAT: DefeatItem,
}
_FIELDS = (
    "rng",
    "n",
    "day",
    "phase",
    "turn",
    "went",
    "thief",
    "persona",
    "fresh",
    "spent",
    "stats",
    "loc",
    "conf",
    "held",
    "drawn",
    "party",
    "grants",
    "taken",
    "used_day",
    "used_pal",
    "supply",
    "locs",
    "loc_conf",
    "loc_deck",
    "conf_deck",
    "shadow_deck",
    "palace",
    "alert",
    "rev",
    "rem",
    "boss_rem",
    "result",
    "dec",
    "work",
    "disc",
    "party_set",
)


new_tuple = tuple.__new__  # builds a NamedTuple without its Python-level __new__ (hot paths)


def decisions_from_json(items: Any) -> list[Decision]:
    """Pending decisions from their JSON lists (the kind comes first)."""
    return [DECISIONS[x[0]](*_tuplify(x)) for x in items]


def work_from_json(items: Any) -> list[WorkItem]:
    """Queued work items from their JSON lists (the kind comes first)."""
    return [WORK[x[0]](*_tuplify(x)) for x in items]


def listify(x: Any) -> Any:
    """Tuples and lists, nested, as JSON lists."""
    if isinstance(x, list | tuple):
        return [listify(v) for v in x]
    return x


def _tuplify(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(_tuplify(v) for v in x)
    return x


# --- the rules, bound from above -------------------------------------------------------------


class Rules(EngineRules["P5State", A.P5Action, P5View]):
    """The rules a :class:`P5State` delegates to, from the modules above this one.

    This module imports none of them (no import cycle); ``game.py``, which makes
    every state, binds them once with :func:`bind_rules`. Beyond the contract's
    rules P5 has ``labels``: the labels of a whole decision, made together to keep them
    distinct.
    """

    __slots__ = ("labels",)
    labels: Callable[[P5State], dict[A.P5Action, str]]


def bind_rules(
    *,
    labels: Callable[[P5State], dict[A.P5Action, str]],
    **rules: Unpack[RuleFunctions[P5State, A.P5Action, P5View]],
) -> None:
    """Give :class:`P5State` its rules (called by ``game.py``)."""
    RULES.labels = labels
    RULES.bind(**rules)


# --- the state -------------------------------------------------------------------------------


class P5State(State[A.P5Action, P5View]):
    """One match: the fields of ``_FIELDS`` (declared once, checked by
    tests/engine/test_state_fields.py); its rules are delegates to :data:`RULES`."""

    __slots__ = (*_FIELDS, "_game")

    _game: P5Game
    rng: Rng
    n: int
    day: int
    phase: int
    turn: int
    went: list[bool]
    thief: list[int]
    persona: list[int]
    fresh: list[list[int]]
    spent: list[list[int]]
    stats: list[list[int]]
    loc: list[int]
    conf: list[list[int]]
    held: list[list[int]]
    drawn: list[list[int]]
    party: list[list[int]]
    grants: list[list[list[int]]]
    taken: list[list[int]]
    used_day: list[list[int]]
    used_pal: list[list[int]]
    supply: list[int]
    locs: list[int]
    loc_conf: list[int]
    loc_deck: list[int]
    conf_deck: list[int]
    shadow_deck: list[int]
    palace: int
    alert: int
    rev: list[int]
    rem: list[list[int]]
    boss_rem: list[int]
    result: int
    dec: list[Decision]
    work: list[WorkItem]
    disc: int
    party_set: bool
    """P5-ARSENE-3 ruling: the player in turn has chosen a party since their last other
    action, so no new party decision is offered until they act otherwise."""

    # --- protocol --------------------------------------------------------------------------

    @property
    def game(self) -> P5Game:
        return self._game

    @property
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase == ORDER:
            return 0
        return self.turn

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        return [1.0 if self.result == 1 else 0.0] * self.n

    def outcome_text(self) -> str:
        if self.result == 1:
            return f"Victory: the boss of the palace fell on day {self.day} (P5-END-1)"
        if self.result == -1:
            return f"Defeat: day {self.game.days} passed and the boss still stands (P5-END-2)"
        return f"In progress: day {self.day} of {self.game.days}"

    def clone(self) -> P5State:
        o = P5State()
        o._game = self._game
        o.rng = self.rng.clone()
        o.n = self.n
        o.day = self.day
        o.phase = self.phase
        o.turn = self.turn
        o.went = self.went[:]
        o.thief = self.thief
        o.persona = self.persona
        o.fresh = [x[:] for x in self.fresh]
        o.spent = [x[:] for x in self.spent]
        o.stats = [x[:] for x in self.stats]
        o.loc = self.loc[:]
        o.conf = [x[:] for x in self.conf]
        o.held = [x[:] for x in self.held]
        o.drawn = [x[:] for x in self.drawn]
        o.party = [x[:] for x in self.party]
        o.grants = [[g[:] for g in x] for x in self.grants]
        o.taken = [x[:] for x in self.taken]
        o.used_day = [x[:] for x in self.used_day]
        o.used_pal = [x[:] for x in self.used_pal]
        o.supply = self.supply[:]
        o.locs = self.locs[:]
        o.loc_conf = self.loc_conf[:]
        o.loc_deck = self.loc_deck[:]
        o.conf_deck = self.conf_deck[:]
        o.shadow_deck = self.shadow_deck[:]
        o.palace = self.palace
        o.alert = self.alert
        o.rev = self.rev[:]
        o.rem = [x[:] for x in self.rem]
        o.boss_rem = self.boss_rem[:]
        o.result = self.result
        o.dec = self.dec[:]
        o.work = self.work[:]
        o.disc = self.disc
        o.party_set = self.party_set
        return o

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {f: getattr(self, f) for f in _FIELDS}
        d["rng"] = self.rng.to_json()
        d["dec"] = [listify(x) for x in self.dec]
        d["work"] = [listify(x) for x in self.work]
        d = {k: (v if not isinstance(v, list) else listify(v)) for k, v in d.items()}
        level = self._game.level
        if level != STANDARD:  # a Velvet difficulty level (the rulebook's game: no key)
            d["difficulty"] = level
        return d

    # --- the rules (flow.py, view.py, illegal.py), bound by game.py ----------------------------

    def legal_actions(self) -> list[A.P5Action]:
        return RULES.legal_actions(self)

    def apply_unchecked(self, action: A.P5Action) -> list[Event]:
        return RULES.apply_unchecked(self, action)

    def explain_illegal(self, action: A.P5Action) -> IllegalActionError:
        return RULES.explain(self, action)

    def game_over_error(self) -> IllegalActionError:
        """After the end, the refusal names the clause that ended the game (P5-END-*)."""
        return RULES.explain(self, None)

    def view(self, player: int) -> P5View:
        return RULES.view(self, player)

    def public_view(self) -> P5View:
        """What a spectator may see: the co-operative game hides the same from every seat."""
        return RULES.public_view(self)

    def reveals_since(self, before: P5State) -> bool:
        """A die was rolled or a card left a face-down deck (location, confidant, shadow)."""
        return self.rng.to_json() != before.rng.to_json() or (
            (len(self.loc_deck), len(self.conf_deck), len(self.shadow_deck))
            != (len(before.loc_deck), len(before.conf_deck), len(before.shadow_deck))
        )

    def action_label(self, action: A.P5Action) -> str:
        """Words for ``action`` with card names, distinct among the legal actions."""
        return RULES.label(self, action)

    def action_labels(self) -> dict[A.P5Action, str]:
        """Labels of every legal action, made once for the whole decision."""
        return RULES.labels(self)


RULES = Rules(P5State)
"""The rules every :class:`P5State` delegates to (bound by ``game.py``)."""


def state_from_json(g: P5Game, data: Any) -> P5State:
    if not isinstance(data, dict) or set(data) - {"difficulty"} != set(_FIELDS):
        raise RecordError(
            f"p5 state: expected an object with keys {', '.join(_FIELDS)} (and a difficulty)"
        )
    s = P5State()
    level = data.get("difficulty", STANDARD)
    if not isinstance(level, str) or (level == STANDARD and "difficulty" in data):
        raise RecordError(
            f"p5 state: 'difficulty' names a level other than standard, not {level!r}"
        )
    try:
        s._game = g.at(level)  # the level's numbers (days, boss health ...) with the state
    except ConfigError as error:
        raise RecordError(f"p5 state: {error}") from None
    for f in _FIELDS:
        if f != "rng":  # the record's rng is JSON (compiled build: fields check their types)
            setattr(s, f, data[f])
    s.rng = Rng.from_json(data["rng"])
    s.dec = decisions_from_json(data["dec"])
    s.work = work_from_json(data["work"])
    s.grants = [[list(x) for x in gl] for gl in data["grants"]]
    # shallow sanity checks: every index in range
    ns = len(g.cards.shadows)
    for sh in s.rev + s.shadow_deck + [x for h in s.held for x in h]:
        if not 0 <= sh < ns:
            raise RecordError(f"p5 state: shadow index {sh} out of range")
    if not 0 <= s.palace < len(g.cards.palaces) or s.n not in (1, 2):
        raise RecordError("p5 state: palace or player count out of range")
    if s.phase not in range(len(PHASES)):
        raise RecordError("p5 state: unknown phase")
    return s
