"""One match of Persona VS as plain data: the fields, their JSON, and copies.

Cards are small ints (indexes into the game's tables). Each player's field
is three slots (0 = main, 1 and 2 = subs), each a tuple of cards from the
bottom of a fusion stack to its top (empty = free). Pending decisions are
``frames`` (small classes, top last); queued effects wait in ``effq``.

This module holds no rules and imports none of the modules that do. The rules
live above it, each importing only the ones below::

    state  <-  effects  <-  flow  <-  view, illegal  <-  game

- :mod:`velvet.vs.effects`: what cards, skills and abilities do (the effect interpreter);
- :mod:`velvet.vs.flow`: the turn's steps, legal actions and ``apply`` (the step machine);
- :mod:`velvet.vs.view`: what a seat may see, and determinization;
- :mod:`velvet.vs.illegal`: why an action is illegal, naming the rule.

``game.py`` binds them to :class:`VsState` through :data:`RULES`, so the state's rule
methods (``legal_actions``, ``apply_unchecked``, ``view``...) are thin delegates.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, Self, get_args

from typing_extensions import Unpack

from velvet.engine.core import TERMINAL, Event, State
from velvet.engine.errors import IllegalActionError, RecordError
from velvet.engine.rng import Rng
from velvet.engine.rules import RuleFunctions
from velvet.engine.rules import Rules as EngineRules
from velvet.vs import actions as A
from velvet.vs.cards import HP_START, Op
from velvet.vs.views import VsPublic, VsView

if TYPE_CHECKING:
    from velvet.vs.game import VsGame


# --- codes -----------------------------------------------------------------------------------

DECK_SIZE = 40
MAX_COPIES = 2
"""VS-DECK-1: a deck is exactly ``DECK_SIZE`` cards, at most ``MAX_COPIES`` of one name."""
MAX_SECOND_DRAWS = 2
"""The most extra cards the second-player offset (a VS-SETUP-2 option) may give."""

# The card data's words as small ints, each derived by name from the schema's words
# (velvet.vs.cards): the game compiles cards into these codes, the rules compare codes.
OPS: tuple[str, ...] = get_args(Op)
OP_HEAL = OPS.index("heal")
OP_DAMAGE = OPS.index("damage")
OP_DRAW = OPS.index("draw")
OP_DISCARD = OPS.index("discard")
OP_DISCARD_RANDOM = OPS.index("discard_random")
OP_BOUNCE = OPS.index("bounce")
OP_DESTROY = OPS.index("destroy")
OP_SWAP = OPS.index("swap")
OP_MODIFY = OPS.index("modify")
OP_NEGATE = OPS.index("negate")
OP_SEARCH = OPS.index("search")
OP_RECOVER = OPS.index("recover")
WHO = ("self", "opponent")
WHO_SELF = WHO.index("self")
MODES = ("add", "mul", "half")
MODE_ADD = MODES.index("add")
MODE_MUL = MODES.index("mul")
SLOT_FILTERS = ("main", "sub", "any")
SLOT_MAIN = SLOT_FILTERS.index("main")
SLOT_SUB = SLOT_FILTERS.index("sub")
KINDS = ("persona", "support", "react", "any")
PERSONA = KINDS.index("persona")
SUPPORT = KINDS.index("support")
REACT = KINDS.index("react")
ANY_KIND = KINDS.index("any")
TIMINGS = ("declaration", "resolution")
DECLARATION = TIMINGS.index("declaration")
RESOLUTION = TIMINGS.index("resolution")


def apply_mod(dmg: int, mode: int, amount: int) -> int:
    """What one damage modifier of ``mode`` (a code of ``MODES``) does; never below 0."""
    if mode == MODE_ADD:
        dmg += amount
    elif mode == MODE_MUL:
        dmg *= amount
    else:
        dmg //= 2
    return dmg if dmg > 0 else 0


# --- steps, decisions, queued effects ----------------------------------------------------------

HAND_SIZE = 5
TURN_CAP = 200
"""Ruling (docs/vs-rules.md, VS-END-2): after this many turns the game is a draw."""


# Steps of a turn.
PLAN, DECLARE, REACT1, RESOLVE, ORDER, REACT2, ENDSKILL, OVER = range(8)
STEP_NAMES = (
    "planning",
    "declare",
    "react-declaration",
    "resolve",
    "order",
    "react-resolution",
    "end-skill",
    "over",
)
# Effect contexts: where a queued effect came from.
CTX_PLAIN, CTX_REACT, CTX_SUPPORT = range(3)
DRAW_RESULT = 2
"""``winner`` of a game ended by the turn cap."""

Stack = tuple[int, ...]
Mod = tuple[int, int]
"""A damage modifier: (mode, amount); equal pairs are interchangeable (VS-SKILL-3)."""
SrcMod = tuple[int, int, int]
"""(mode, amount, card number of the Support or React that made it)."""


class Work(NamedTuple):
    """A queued effect; ``effect`` -1 means "``card`` now goes to the discard pile"."""

    player: int
    effect: int
    ctx: int
    card: int


# Pending decisions (``frames``), one small class per kind; ``player`` decides.


class PayFrame(NamedTuple):
    """A cost being paid for ``card`` (VS-SUMMON-1, VS-RULE-ULT)."""

    player: int
    card: int
    mask: int
    """The fusion's material slots as a bit mask; -1 for a summon."""
    left: int
    """Units of the cost still to pay."""
    extra: int
    """Name number of the ultimate's named card still owed, or -1."""


class PromoteFrame(NamedTuple):
    """A sub must become the new main (VS-RULE-LOSEMAIN)."""

    player: int


class TargetFrame(NamedTuple):
    """Choose a persona of ``target`` for effect ``op`` (bounce, destroy, swap)."""

    player: int
    op: int
    target: int
    slot: int


class DiscardFrame(NamedTuple):
    """Discard ``left`` more cards of your choice."""

    player: int
    left: int


class SearchFrame(NamedTuple):
    """Take a card of ``kind`` from your deck."""

    player: int
    kind: int


class RecoverFrame(NamedTuple):
    """Take a card of ``kind`` from your discard pile."""

    player: int
    kind: int


Frame = PayFrame | PromoteFrame | TargetFrame | DiscardFrame | SearchFrame | RecoverFrame
FRAME_NAMES: dict[type, str] = {
    PayFrame: "pay",
    PromoteFrame: "promote",
    TargetFrame: "target",
    DiscardFrame: "discard",
    SearchFrame: "search",
    RecoverFrame: "recover",
}
FRAME_TYPES: dict[str, type] = {name: t for t, name in FRAME_NAMES.items()}


class ModSource(NamedTuple):
    """A non-React damage modifier of the declared skill and where it came from."""

    mode: int
    amount: int
    card: int
    kind: str
    """"support" (this turn's Supports), "attack" or "defend" (abilities)."""


class ExtraPayment(NamedTuple):
    """One way to pay an ultimate's named extra cost (VS-RULE-ULT)."""

    action: A.VsAction
    hand: int
    """Cards it takes from the hand."""
    field: int
    """Personas it takes from the field."""
    freed: int
    """Field slots it frees."""


# --- the rules, bound from above -------------------------------------------------------------


class Rules(EngineRules["VsState", A.VsAction, VsView]):
    """The rules a :class:`VsState` delegates to, from the modules above this one.

    This module imports none of them (no import cycle); ``game.py``, which makes
    every state, binds them once with :func:`bind_rules`. Beyond the contract's
    rules VS has ``mod_sources``: every non-React modifier of the declared skill.
    """

    __slots__ = ("mod_sources",)
    mod_sources: Callable[[VsState], list[ModSource]]


def bind_rules(
    *,
    mod_sources: Callable[[VsState], list[ModSource]],
    **rules: Unpack[RuleFunctions[VsState, A.VsAction, VsView]],
) -> None:
    """Give :class:`VsState` its rules (called by ``game.py``)."""
    RULES.mod_sources = mod_sources
    RULES.bind(**rules)


# --- the state -------------------------------------------------------------------------------


_FIELDS = (
    "rng",
    "pcs",
    "decklists",
    "open_lists",
    "hp",
    "hand",
    "deck",
    "disc",
    "field",
    "turn",
    "step",
    "turn_no",
    "more_used",
    "more_pending",
    "sk_c",
    "sk_k",
    "sk_slot",
    "rmods",
    "negated",
    "tmods",
    "mods",
    "applied",
    "dmg",
    "frames",
    "effq",
    "winner",
)
"""Every field of a :class:`VsState`, declared once: ``__slots__`` is made from it, and
tests/engine/test_state_fields.py checks that clone, JSON, view and determinize cover it."""


class VsState(State[A.VsAction, VsView]):
    """A Persona VS match; see the module docstring for the layout."""

    __slots__ = (*_FIELDS, "_game")

    _game: VsGame
    rng: Rng
    pcs: tuple[str, str]
    decklists: tuple[tuple[int, ...], ...]  # two; not a fixed tuple, which mypyc unboxes
    open_lists: tuple[bool, bool]
    hp: list[int]
    hand: list[list[int]]
    deck: list[list[int]]
    disc: list[list[int]]
    field: list[list[Stack]]
    turn: int
    step: int
    turn_no: int
    more_used: bool
    more_pending: bool
    sk_c: int
    sk_k: int
    sk_slot: int
    rmods: list[SrcMod]
    negated: bool
    tmods: list[SrcMod]
    mods: list[Mod]
    applied: list[Mod]
    dmg: int
    frames: list[Frame]
    effq: list[Work]
    winner: int

    # --- construction ------------------------------------------------------------------

    @classmethod
    def blank(cls, game: VsGame) -> VsState:
        s = cls()
        s._game = game
        s.rng = Rng(0)
        s.pcs = ("", "")
        s.decklists = ((), ())
        s.open_lists = (True, True)
        s.hp = [HP_START, HP_START]
        s.hand = [[], []]
        s.deck = [[], []]
        s.disc = [[], []]
        s.field = [[(), (), ()], [(), (), ()]]
        s.turn = 0
        s.step = PLAN
        s.turn_no = 1
        s.more_used = False
        s.more_pending = False
        s.sk_c = -1
        s.sk_k = -1
        s.sk_slot = -1
        s.rmods = []
        s.negated = False
        s.tmods = []
        s.mods = []
        s.applied = []
        s.dmg = 0
        s.frames = []
        s.effq = []
        s.winner = -1
        return s

    @classmethod
    def setup(
        cls,
        game: VsGame,
        pcs: list[str],
        decks: list[list[int]],
        first: int | None,
        rng: Rng,
        public: tuple[bool, bool] = (True, True),
        second_extra_cards: int = 0,
    ) -> VsState:
        """VS-SETUP-1..4: starter out of the deck into hand, shuffle, draw to 5, 30 HP.

        ``public`` says whose decklist every player may see (a built-in deck, or open
        decklists by config); a private list is seen by its owner only.
        ``second_extra_cards`` (a Velvet option beside VS-SETUP-2, default 0, to offset
        the first player's edge): once the first player is decided, the second player
        draws that many more cards (docs/lab.md, docs/vs-rules.md).
        """
        s = cls.blank(game)
        s.rng = rng
        s.pcs = (pcs[0], pcs[1])
        s.open_lists = public
        s.decklists = (tuple(sorted(decks[0])), tuple(sorted(decks[1])))
        for p in (0, 1):
            deck = list(decks[p])
            starter = game.index[game.players[pcs[p]].starter]
            deck.remove(starter)
            s.hand[p] = [starter]
            rng.shuffle(deck)
            s.deck[p] = deck
            for _ in range(HAND_SIZE - 1):
                s.hand[p].append(deck.pop())
        s.turn = rng.randbelow(2) if first is None else first
        second = 1 - s.turn
        for _ in range(second_extra_cards):  # VS-SETUP-2 option: after VS-SETUP-4
            s.hand[second].append(s.deck[second].pop())
        return s

    def clone(self) -> Self:
        s = self.__class__()
        s._game = self._game
        s.rng = self.rng.clone()
        s.pcs = self.pcs
        s.decklists = self.decklists
        s.open_lists = self.open_lists
        s.hp = self.hp[:]
        h = self.hand
        s.hand = [h[0][:], h[1][:]]
        d = self.deck
        s.deck = [d[0][:], d[1][:]]
        d = self.disc
        s.disc = [d[0][:], d[1][:]]
        f = self.field
        s.field = [f[0][:], f[1][:]]
        s.turn = self.turn
        s.step = self.step
        s.turn_no = self.turn_no
        s.more_used = self.more_used
        s.more_pending = self.more_pending
        s.sk_c = self.sk_c
        s.sk_k = self.sk_k
        s.sk_slot = self.sk_slot
        s.rmods = self.rmods[:]
        s.negated = self.negated
        s.tmods = self.tmods[:]
        s.mods = self.mods[:]
        s.applied = self.applied[:]
        s.dmg = self.dmg
        s.frames = self.frames[:]
        s.effq = self.effq[:]
        s.winner = self.winner
        return s

    # --- protocol ------------------------------------------------------------------------

    @property
    def game(self) -> VsGame:
        return self._game

    @property
    def current_player(self) -> int:
        if self.winner != -1:
            return TERMINAL
        if self.frames:
            return self.frames[-1].player
        if self.step == REACT1 or self.step == REACT2:
            return 1 - self.turn
        return self.turn

    def is_terminal(self) -> bool:
        return self.winner != -1

    def returns(self) -> list[float]:
        if self.winner == DRAW_RESULT:
            return [0.5, 0.5]
        if self.winner == -1:
            return [0.0, 0.0]
        return [1.0 if p == self.winner else 0.0 for p in (0, 1)]

    def outcome_text(self) -> str:
        if self.winner == -1:
            return "the game is not over"
        if self.winner == DRAW_RESULT:
            return f"draw: the turn cap of {TURN_CAP} turns was reached"
        loser = 1 - self.winner
        card = self._game.players.get(self.pcs[self.winner])
        # the character's name alone: "Yu Narukami (Persona 4)" is Yu Narukami
        who = card.name.split(" (")[0] if card is not None else self.pcs[self.winner]
        why = "'s HP reached 0" if self.hp[loser] <= 0 else " could not draw in the Draw Step"
        return f"Player {self.winner + 1} ({who}) wins: Player {loser + 1}{why}"

    def game_over_error(self) -> IllegalActionError:
        """The refusal after the end, citing the clause that ended the game."""
        if self.winner == DRAW_RESULT:
            # the turn cap is the ruling written under VS-END-2 (docs/vs-rules.md)
            return IllegalActionError(
                "VS-END-2", f"the game is over: a draw at the turn cap ({TURN_CAP})"
            )
        loser = 1 - self.winner
        if self.hp[loser] <= 0:
            return IllegalActionError("VS-END-1", f"the game is over: Player {loser + 1}'s HP is 0")
        return IllegalActionError(
            "VS-END-2", f"the game is over: Player {loser + 1} could not draw in the Draw Step"
        )

    # --- the rules (flow.py, view.py, illegal.py, effects.py), bound by game.py -------------

    def legal_actions(self) -> list[A.VsAction]:
        return RULES.legal_actions(self)

    def apply_unchecked(self, action: A.VsAction) -> list[Event]:
        return RULES.apply_unchecked(self, action)

    def explain_illegal(self, action: A.VsAction) -> IllegalActionError:
        return RULES.explain(self, action)

    def view(self, player: int) -> VsView:
        return RULES.view(self, player)

    def public_view(self) -> VsView:
        """What a spectator may see: no hand, and a decklist only where it is public."""
        return RULES.public_view(self)

    def mod_sources(self) -> list[ModSource]:
        """Every non-React modifier of the declared skill (``velvet.vs.effects``)."""
        return RULES.mod_sources(self)

    def action_label(self, action: A.VsAction) -> str:
        """Words for ``action`` with card names (``velvet.vs.words``)."""
        return RULES.label(self, action)

    # --- JSON and queries ---------------------------------------------------------------------

    def _frame_json(self, fr: Frame) -> list[Any]:
        g = self._game
        if type(fr) is PayFrame:
            p, c, mask, rem, extra = fr
            return ["pay", p, g.ids[c], mask, rem, g.names[extra] if extra >= 0 else None]
        return [FRAME_NAMES[type(fr)], *fr]

    def public_json(self) -> VsPublic:
        g = self._game
        ids = g.ids
        return {
            "turn": self.turn,
            "turn_no": self.turn_no,
            "step": STEP_NAMES[self.step],
            "hp": self.hp[:],
            "discard": [[ids[c] for c in d] for d in self.disc],
            "field": [[[ids[c] for c in st] for st in f] for f in self.field],
            "more_used": self.more_used,
            "more_pending": self.more_pending,
            "skill": None
            if self.sk_c < 0
            else [A.SLOT_NAMES[self.sk_slot], ids[self.sk_c], self.sk_k],
            "rmods": [[m, a, ids[x]] for m, a, x in self.rmods],
            "negated": self.negated,
            "tmods": [[m, a, ids[x]] for m, a, x in self.tmods],
            "mods": [list(m) for m in self.mods],
            "applied": [list(m) for m in self.applied],
            "dmg": self.dmg,
            "frames": [self._frame_json(f) for f in self.frames],
            "effq": [[p, e, c, ids[x]] for p, e, c, x in self.effq],
            "winner": self.winner,
            "player_cards": list(self.pcs),
            "decklists": [[ids[c] for c in d] for d in self.decklists],
            "open_decklists": list(self.open_lists),
        }

    def to_json(self) -> dict[str, Any]:
        ids = self._game.ids
        data: dict[str, Any] = {**self.public_json()}
        data["hand"] = [[ids[c] for c in h] for h in self.hand]
        data["deck"] = [[ids[c] for c in d] for d in self.deck]
        data["rng"] = self.rng.to_json()
        return data

    def reveals_since(self, before: VsState) -> bool:
        """A shuffle or random discard drew on chance, or a card left a deck unseen."""
        return (
            self.rng.to_json() != before.rng.to_json() or self.deck_sizes() != before.deck_sizes()
        )

    def deck_sizes(self) -> list[int]:
        return [len(self.deck[0]), len(self.deck[1])]

    @classmethod
    def from_public_json(cls, game: VsGame, data: Mapping[str, Any]) -> VsState:
        s = cls.blank(game)
        ix = game.index

        def cards(xs: Any) -> list[int]:
            if not isinstance(xs, list):
                raise RecordError("vs state: expected a list of card ids")
            try:
                return [ix[x] for x in xs]
            except (KeyError, TypeError):
                raise RecordError(f"vs state: unknown card id in {xs!r}") from None

        s.turn = int(data["turn"]) & 1
        s.turn_no = int(data["turn_no"])
        s.step = STEP_NAMES.index(data["step"])
        s.hp = [int(x) for x in data["hp"]][:2]
        s.disc = [cards(d) for d in data["discard"]]
        s.field = [[tuple(cards(st)) for st in f] for f in data["field"]]
        if len(s.disc) != 2 or len(s.field) != 2 or any(len(f) != 3 for f in s.field):
            raise RecordError("vs state: needs 2 discard piles and 2 fields of 3 slots")
        s.more_used = bool(data["more_used"])
        s.more_pending = bool(data["more_pending"])
        sk = data["skill"]
        if sk is None:
            s.sk_c = s.sk_k = s.sk_slot = -1
        else:
            slot, card, k = sk
            s.sk_slot = A.SLOT_NAMES.index(slot)
            s.sk_c = ix[card]
            s.sk_k = int(k)
        s.rmods = [(int(m), int(a), ix[x]) for m, a, x in data["rmods"]]
        s.negated = bool(data["negated"])
        s.tmods = [(int(m), int(a), ix[x]) for m, a, x in data["tmods"]]
        s.mods = [(int(m), int(a)) for m, a in data["mods"]]
        s.applied = [(int(m), int(a)) for m, a in data["applied"]]
        s.dmg = int(data["dmg"])
        frames: list[Frame] = []
        for name, *values in data["frames"]:
            kind = FRAME_TYPES[name]
            if kind is PayFrame:
                p, card, mask, left, extra = values
                named = game.names.index(extra) if extra is not None else -1
                frames.append(PayFrame(int(p), ix[card], int(mask), int(left), named))
            else:
                frames.append(kind(*(int(x) for x in values)))
        s.frames = frames
        n_eff = len(game.effects)
        effq: list[Work] = []
        for p, e, c, x in data["effq"]:
            if not -1 <= e < n_eff or c not in (CTX_PLAIN, CTX_REACT, CTX_SUPPORT):
                raise RecordError(f"vs state: unknown effect {e} or context {c}")
            effq.append(Work(int(p), int(e), int(c), ix[x]))
        s.effq = effq
        s.winner = int(data["winner"])
        pcs = data["player_cards"]
        s.pcs = (str(pcs[0]), str(pcs[1]))
        dl = data["decklists"]
        s.decklists = tuple(tuple(sorted(cards(d))) if d is not None else () for d in dl[:2])
        public = data.get("open_decklists", [True, True])
        s.open_lists = (bool(public[0]), bool(public[1]))
        return s

    @classmethod
    def from_view(cls, game: VsGame, view: VsView) -> VsState:
        """Only what ``view`` shows (the viewer's hand; other hands and decks empty).

        Enough to put the viewer's own decisions in words; never for play.
        """
        s = cls.from_public_json(game, view)
        if view["viewer"] is not None:  # the public view holds no hand
            s.hand[view["viewer"] & 1] = [game.index[x] for x in view["hand"]]
        return s

    @classmethod
    def from_json(cls, game: VsGame, data: Any) -> VsState:
        if not isinstance(data, dict):
            raise RecordError("vs state: expected a JSON object")
        s = cls.from_public_json(game, data)
        ix = game.index
        s.hand = [[ix[x] for x in h] for h in data["hand"]]
        s.deck = [[ix[x] for x in d] for d in data["deck"]]
        s.rng = Rng.from_json(data["rng"])
        if len(s.hand) != 2 or len(s.deck) != 2:
            raise RecordError("vs state: needs 2 hands and 2 decks")
        return s

    def limbo(self, p: int) -> list[int]:
        """Cards of ``p`` between zones: a persona being paid for, a Support/React resolving."""
        out = [fr.card for fr in self.frames if type(fr) is PayFrame and fr.player == p]
        out += [x for q, e, _, x in self.effq if e < 0 and q == p]
        return out

    def zones(self, p: int) -> Counter[int]:
        """Every card of ``p`` wherever it is (deck, hand, field stacks, discard, limbo)."""
        count: Counter[int] = Counter(self.deck[p])
        count.update(self.hand[p])
        count.update(self.disc[p])
        for st in self.field[p]:
            count.update(st)
        count.update(self.limbo(p))
        return count


RULES = Rules(VsState)
"""The rules every :class:`VsState` delegates to (bound by ``game.py``)."""
