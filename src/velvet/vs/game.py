"""The Persona VS game: card tables, configs, action ids and determinization.

:class:`VsGame` is immutable: it compiles the validated cards into small
tuples indexed by card number so the rules (:mod:`velvet.vs.flow`,
:mod:`velvet.vs.effects`) never look at a card by name, and binds those rules
for its states (``bind_rules``). :func:`load_vs_game` caches the built-in game.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from velvet.engine.core import CardInfo, Event, Game, State
from velvet.engine.errors import ConfigError, DeckError, InvalidActionError, RecordError
from velvet.engine.rng import Rng
from velvet.vs import actions as A
from velvet.vs.cards import (
    DAMAGE_TYPES,
    AnyCard,
    CardSet,
    Effect,
    Persona,
    PlayerCard,
    React,
    Support,
    build_card_set,
)
from velvet.vs.effects import mod_sources
from velvet.vs.flow import apply_unchecked, legal_actions
from velvet.vs.illegal import explain_illegal

# The codes (ANY_KIND ... WHO_SELF) were defined here before the rules were split into
# modules; they live in velvet.vs.state now and stay importable from here.
from velvet.vs.state import ANY_KIND as ANY_KIND
from velvet.vs.state import DECK_SIZE as DECK_SIZE
from velvet.vs.state import DECLARATION as DECLARATION
from velvet.vs.state import KINDS as KINDS
from velvet.vs.state import MAX_COPIES as MAX_COPIES
from velvet.vs.state import MAX_SECOND_DRAWS as MAX_SECOND_DRAWS
from velvet.vs.state import MODE_ADD as MODE_ADD
from velvet.vs.state import MODE_MUL as MODE_MUL
from velvet.vs.state import MODES as MODES
from velvet.vs.state import OP_BOUNCE as OP_BOUNCE
from velvet.vs.state import OP_DAMAGE as OP_DAMAGE
from velvet.vs.state import OP_DESTROY as OP_DESTROY
from velvet.vs.state import OP_DISCARD as OP_DISCARD
from velvet.vs.state import OP_DISCARD_RANDOM as OP_DISCARD_RANDOM
from velvet.vs.state import OP_DRAW as OP_DRAW
from velvet.vs.state import OP_HEAL as OP_HEAL
from velvet.vs.state import OP_MODIFY as OP_MODIFY
from velvet.vs.state import OP_NEGATE as OP_NEGATE
from velvet.vs.state import OP_RECOVER as OP_RECOVER
from velvet.vs.state import OP_SEARCH as OP_SEARCH
from velvet.vs.state import OP_SWAP as OP_SWAP
from velvet.vs.state import OPS as OPS
from velvet.vs.state import PERSONA as PERSONA
from velvet.vs.state import REACT as REACT
from velvet.vs.state import RESOLUTION as RESOLUTION
from velvet.vs.state import SLOT_FILTERS as SLOT_FILTERS
from velvet.vs.state import SLOT_MAIN as SLOT_MAIN
from velvet.vs.state import SLOT_SUB as SLOT_SUB
from velvet.vs.state import SUPPORT as SUPPORT
from velvet.vs.state import TIMINGS as TIMINGS
from velvet.vs.state import WHO as WHO
from velvet.vs.state import WHO_SELF as WHO_SELF
from velvet.vs.state import VsState, bind_rules
from velvet.vs.view import determinize, make_view, public_view
from velvet.vs.views import VsView

RULES_VERSION = "vs-1.2"  # 1.2: a React with nothing to choose is not offered (VS-REACT-1)


class CompiledEffect(NamedTuple):
    """One effect of the card data as small ints (the codes of ``velvet.vs.state``)."""

    op: int
    who: int
    amount: int
    mode: int
    slot: int
    kind: int
    if_weakness: bool


class CompiledSkill(NamedTuple):
    """One skill of a persona as small ints."""

    damage_type: int
    """Index into ``DAMAGE_TYPES``."""
    damage: int
    effects: tuple[tuple[int, bool], ...]
    """(effect number, only if it hit a weakness) for each effect of the skill."""


def _action_label(state: VsState, action: A.VsAction) -> str:
    """Words for ``action`` (``velvet.vs.words``, loaded when a front end first asks)."""
    from velvet.vs.words import action_label

    return action_label(state, action)


bind_rules(  # the rules of a VsState: turn flow, effects, views, labels, illegal moves
    legal_actions=legal_actions,
    apply_unchecked=apply_unchecked,
    explain=explain_illegal,
    view=make_view,
    public_view=public_view,
    label=_action_label,
    mod_sources=mod_sources,
)


class VsGame(Game[A.VsAction, VsView]):
    """Persona VS with one card set; builds states, parses actions, maps ids."""

    name = "vs"
    rules_version = RULES_VERSION
    num_players = (2,)
    game_over_rule = "VS-END-1"  # the state names VS-END-1 or VS-END-2 by how it ended

    def __init__(self, cards: CardSet) -> None:
        self.cards = cards
        all_cards: list[AnyCard] = [*cards.personas, *cards.supports, *cards.reacts]
        all_cards.sort(key=lambda c: c.id)
        self.all_cards: tuple[AnyCard, ...] = tuple(all_cards)
        self.ids: tuple[str, ...] = tuple(c.id for c in all_cards)
        self.index: dict[str, int] = {c.id: i for i, c in enumerate(all_cards)}
        self.players: dict[str, PlayerCard] = {p.id: p for p in cards.players}
        names = sorted({c.name for c in all_cards})
        self.names: tuple[str, ...] = tuple(names)
        name_ix = {n: i for i, n in enumerate(names)}
        self.by_name: dict[str, list[str]] = {}
        for c in all_cards:
            self.by_name.setdefault(c.name.casefold(), []).append(c.id)
        self.effects: list[CompiledEffect] = []
        n = len(all_cards)
        self.kind: tuple[int, ...] = tuple(
            PERSONA if isinstance(c, Persona) else SUPPORT if isinstance(c, Support) else REACT
            for c in all_cards
        )
        self.name_of: tuple[int, ...] = tuple(name_ix[c.name] for c in all_cards)
        cost = [0] * n
        weak = [-1] * n
        extra = [-1] * n
        skills: list[tuple[CompiledSkill, ...]] = [()] * n
        attack: list[tuple[tuple[int, int, int], ...]] = [()] * n
        defend: list[tuple[tuple[int, int, int], ...]] = [()] * n
        onplay: list[tuple[int, ...]] = [()] * n
        play_eff: list[tuple[int, ...]] = [()] * n
        low_eff: list[tuple[int, ...]] = [()] * n
        timing = [-1] * n
        vs_type = [-1] * n
        for i, card in enumerate(all_cards):
            if isinstance(card, Persona):
                cost[i] = card.cost
                weak[i] = DAMAGE_TYPES.index(card.weakness) if card.weakness else -1
                extra[i] = name_ix[card.extra_cost_name] if card.extra_cost_name else -1
                skills[i] = tuple(
                    CompiledSkill(
                        DAMAGE_TYPES.index(s.type),
                        s.damage,
                        tuple((self._compile(e), e.if_weakness) for e in s.effects),
                    )
                    for s in card.skills
                )
                mods = [
                    (
                        a.trigger,
                        (
                            DAMAGE_TYPES.index(a.skill_type) if a.skill_type else -1,
                            MODES.index(a.mode),
                            a.amount,
                        ),
                    )
                    for a in card.abilities
                    if a.trigger != "on_play"
                ]
                attack[i] = tuple(m for t, m in mods if t == "attack")
                defend[i] = tuple(m for t, m in mods if t == "defend")
                onplay[i] = tuple(
                    self._compile(e)
                    for a in card.abilities
                    if a.trigger == "on_play"
                    for e in a.effects
                )
            else:
                play_eff[i] = tuple(self._compile(e) for e in card.effects)
                low_eff[i] = tuple(self._compile(e) for e in card.lowhp)
                if isinstance(card, React):
                    timing[i] = TIMINGS.index(card.timing)
                    vs_type[i] = DAMAGE_TYPES.index(card.vs_type) if card.vs_type else -1
        self.cost = tuple(cost)
        self.weak = tuple(weak)
        self.extra = tuple(extra)
        self.skills = tuple(skills)
        self.attack = tuple(attack)
        self.defend = tuple(defend)
        self.onplay = tuple(onplay)
        self.play_eff = tuple(play_eff)
        self.low_eff = tuple(low_eff)
        self.timing = tuple(timing)
        choosing = {OP_BOUNCE, OP_DESTROY, OP_SWAP, OP_SEARCH, OP_RECOVER}
        choosing |= {OP_DISCARD, OP_DISCARD_RANDOM}
        self.chooses: tuple[bool, ...] = tuple(
            any(self.effects[e].op in choosing for e in (*play_eff[i], *low_eff[i]))
            for i in range(n)
        )
        """Whether a Support/React has an effect that needs something to choose (VS-PLAN-1,
        VS-REACT-1)."""
        self.vs_type = tuple(vs_type)
        self._builtin: frozenset[tuple[int, ...]] | None = None
        self._build_actions()
        self._hash = hashlib.sha256((cards.digest + "|" + ",".join(self.ids)).encode()).hexdigest()

    def _compile(self, e: Effect) -> int:
        self.effects.append(
            CompiledEffect(
                OPS.index(e.op),
                WHO.index(e.who),
                e.amount,
                MODES.index(e.mode),
                SLOT_FILTERS.index(e.slot),
                KINDS.index(e.kind),
                e.if_weakness,
            )
        )
        return len(self.effects) - 1

    # --- actions ---------------------------------------------------------------------

    def _build_actions(self) -> None:
        n = len(self.ids)
        ids = self.ids
        self.a_end = A.EndPlanning()
        self.a_noskill = A.NoSkill()
        self.a_pass = A.Pass()
        self.a_summon = tuple(A.Summon(i) for i in ids)
        self.a_fuse = tuple(tuple(A.Fuse(i, m) for m in range(8)) for i in ids)
        self.a_change = tuple(A.Change(s) for s in range(3))
        self.a_support = tuple(A.PlaySupport(i) for i in ids)
        self.a_react = tuple(A.PlayReact(i) for i in ids)
        self.a_payhand = tuple(A.PayHand(i) for i in ids)
        self.a_payfield = tuple(A.PayField(s) for s in range(3))
        self.a_paystack = tuple(tuple(A.PayStack(s, i) for i in ids) for s in range(3))
        self.a_promote = tuple(A.Promote(s) for s in range(3))
        self.a_target = tuple(tuple(A.Target(p, s) for s in range(3)) for p in range(2))
        self.a_discard = tuple(A.Discard(i) for i in ids)
        self.a_search = tuple(A.Search(i) for i in ids)
        self.a_recover = tuple(A.Recover(i) for i in ids)
        # Every distinct non-React damage modifier the card set can produce (VS-SKILL-3).
        distinct = {
            (mode, amount)
            for table in (self.attack, self.defend)
            for row in table
            for _, mode, amount in row
        }
        distinct |= {(e.mode, e.amount) for e in self.effects if e.op == OP_MODIFY}
        self.a_first = tuple(A.First(k) for k in range(max(2, len(distinct))))
        self.a_skill = tuple(
            tuple(
                tuple(A.DeclareSkill(s, ids[c], k) for k in range(len(self.skills[c])))
                for c in range(n)
            )
            for s in range(3)
        )
        table: list[Any] = [self.a_end, self.a_noskill, self.a_pass]
        personas = [c for c in range(n) if self.kind[c] == PERSONA]
        table += [self.a_summon[c] for c in personas]
        table += [self.a_fuse[c][m] for c in personas for m in range(1, 8)]
        table += [self.a_change[1], self.a_change[2]]
        table += [self.a_support[c] for c in range(n) if self.kind[c] == SUPPORT]
        table += [self.a_react[c] for c in range(n) if self.kind[c] == REACT]
        table += [
            self.a_skill[s][c][k]
            for s in range(3)
            for c in personas
            for k in range(len(self.skills[c]))
        ]
        table += list(self.a_payhand) + list(self.a_payfield)
        table += [self.a_paystack[s][c] for s in range(3) for c in personas]
        table += [self.a_promote[1], self.a_promote[2]]
        table += [self.a_target[p][s] for p in range(2) for s in range(3)]
        table += (
            list(self.a_discard) + list(self.a_search) + list(self.a_recover) + list(self.a_first)
        )
        self._table: tuple[Any, ...] = tuple(table)
        self._texts: tuple[str, ...] = tuple(str(a) for a in table)
        self._ids: dict[Any, int] = {a: i for i, a in enumerate(table)}

    def action_ids(self) -> Sequence[str]:
        return self._texts

    def action_to_id(self, action: A.VsAction) -> int:
        try:
            return self._ids[action]
        except (KeyError, TypeError):
            raise InvalidActionError(f"'{action}' is not an action of this card set") from None

    def action_from_id(self, i: int) -> Any:
        if not 0 <= i < len(self._table):
            raise InvalidActionError(f"no action id {i}: ids are 0 to {len(self._table) - 1}")
        return self._table[i]

    def parse_action(self, text: str) -> A.VsAction:
        action = A.parse_action(text)
        card = getattr(action, "card", None)
        if card is not None and card not in self.index:
            raise InvalidActionError(f"'{text}': no card with id '{card}'")
        return action

    # --- cards -------------------------------------------------------------------------

    def card(self, ident: str) -> AnyCard:
        return self.all_cards[self.index[ident]]

    def describe_card(self, card_id: str) -> CardInfo:
        """Any card (player cards too) in words and as data (``velvet.vs.words``)."""
        from velvet.vs.words import describe_card

        return describe_card(self, card_id)

    def card_ids(self) -> list[str]:
        """Every card of the set, player cards first."""
        return list(dict.fromkeys([*self.players, *self.index]))

    def action_targets(
        self, state: State[A.VsAction, VsView], action: A.VsAction
    ) -> tuple[str, ...]:
        """Board refs of what ``action`` acts on (``velvet.vs.words.action_targets``)."""
        from velvet.vs.state import VsState
        from velvet.vs.words import action_targets

        return action_targets(state, action) if isinstance(state, VsState) else ()

    def event_for(self, event: Event, seat: int | None) -> Event:
        """A card searched from a deck goes to a hidden hand: only its player sees which."""
        if event.kind == "search" and "card" in event.data and event.data.get("player") != seat:
            return Event("search", {"player": event.data.get("player")})
        return event

    def event_text(self, event: Event) -> str:
        """A sentence for an event of this game (``velvet.vs.words``)."""
        from velvet.vs.words import event_text

        return event_text(self, event)

    def position(self, spec: Mapping[str, Any]) -> Any:
        """A state built by names (``velvet.vs.position``; format in docs/engine.md)."""
        from velvet.vs.position import build_position

        return build_position(self, spec)

    def position_of(self, state: Any, seed: int = 0) -> dict[str, Any]:
        """The position of a state by names (``velvet.vs.position.position_spec``)."""
        from velvet.vs.position import position_spec

        return position_spec(state, seed)

    def cardset_hash(self) -> str:
        return self._hash

    def player_cards(self) -> list[tuple[str, str]]:
        """(id, name) of every player card."""
        return [(p.id, p.name) for p in self.cards.players]

    def choices(self) -> dict[str, list[tuple[str, str]]]:
        """``player_cards``: what ``--player-card`` (and a built-in ``--deck``) names."""
        return {"player_cards": self.player_cards()}

    def default_config(self, p0: str = "p5", p1: str = "p4") -> dict[str, Any]:
        """A config with the built-in deck of each chosen player card."""
        from velvet.vs.decks import default_deck_path, load_deck

        players = []
        for pc in (p0, p1):
            if pc not in self.players:
                raise ConfigError(
                    f"unknown player card '{pc}': choose one of {', '.join(self.players)}"
                )
            players.append({"player_card": pc, "deck": load_deck(default_deck_path(pc), self)})
        return {"players": players, "first_player": None}

    def check_deck(self, player_card: str, deck: Sequence[str]) -> list[int]:
        """The deck as card numbers, or a DeckError naming VS-DECK-1 and the card."""
        pc = self.players.get(player_card)
        if pc is None:
            raise ConfigError(
                f"unknown player card '{player_card}': choose one of {', '.join(self.players)}"
            )
        out: list[int] = []
        for ident in deck:
            if not isinstance(ident, str) or ident not in self.index:
                raise DeckError(f"deck of {player_card}: unknown card '{ident}' [VS-DECK-1]")
            out.append(self.index[ident])
        if len(out) != DECK_SIZE:
            raise DeckError(
                f"deck of {player_card} has {len(out)} cards; "
                f"a deck is exactly {DECK_SIZE} [VS-DECK-1]"
            )
        if pc.starter not in deck:
            raise DeckError(
                f"deck of {player_card} lacks its VS starter {self.card(pc.starter).name} "
                f"({pc.starter}) [VS-DECK-1]"
            )
        counts = Counter(self.all_cards[c].name for c in out)
        for name, count in counts.items():
            if count > MAX_COPIES:
                raise DeckError(
                    f"deck of {player_card} has {count} cards named {name}; "
                    f"at most {MAX_COPIES} [VS-DECK-1]"
                )
        return out

    def builtin_decks(self) -> frozenset[tuple[int, ...]]:
        """The built-in decks that load with this card set, as sorted card numbers."""
        if self._builtin is None:
            from velvet.vs.decks import default_deck_path, load_deck

            found: set[tuple[int, ...]] = set()
            for pc in self.players:
                try:
                    deck = load_deck(default_deck_path(pc), self)
                except (ConfigError, DeckError):
                    continue
                found.add(tuple(sorted(self.index[i] for i in deck)))
            self._builtin = frozenset(found)
        return self._builtin

    def is_builtin_deck(self, deck: Sequence[int]) -> bool:
        """Whether ``deck`` (card numbers) is a built-in deck: its list is public."""
        return tuple(sorted(deck)) in self.builtin_decks()

    # --- states ------------------------------------------------------------------------

    def new_state(self, config: Mapping[str, Any], seed: int | Rng) -> VsState:
        if not isinstance(config, Mapping):
            raise ConfigError("vs config must be an object with 'players' and 'first_player'")
        unknown = set(config) - {"players", "first_player", "open_decklists", "second_draws"}
        if unknown:
            raise ConfigError(
                f"vs config: unknown keys {sorted(unknown)}; "
                "allowed: players, first_player, open_decklists, second_draws"
            )
        extra = config.get("second_draws", 0)
        if type(extra) is not int or not 0 <= extra <= MAX_SECOND_DRAWS:
            raise ConfigError(
                f"vs config: 'second_draws' (cards the second player draws at set-up, "
                f"VS-SETUP-2 option) must be 0 to {MAX_SECOND_DRAWS}, not {extra!r}"
            )
        open_lists = config.get("open_decklists", False)
        if not isinstance(open_lists, bool):
            raise ConfigError("vs config: 'open_decklists' must be true or false")
        players = config.get("players")
        if not isinstance(players, list) or len(players) != 2:
            raise ConfigError("vs config: 'players' must list exactly 2 players [VS-COMP-1]")
        first = config.get("first_player")
        if first is not None and (isinstance(first, bool) or first not in (0, 1)):
            raise ConfigError("vs config: 'first_player' must be null, 0 or 1 [VS-SETUP-4]")
        pcs: list[str] = []
        decks: list[list[int]] = []
        for seat, player in enumerate(players):
            if not isinstance(player, Mapping) or set(player) != {"player_card", "deck"}:
                raise ConfigError(
                    f"vs config: player {seat} needs exactly 'player_card' and 'deck'"
                )
            deck = player["deck"]
            if not isinstance(deck, list):
                raise DeckError(f"player {seat}: 'deck' must be a list of card ids [VS-DECK-1]")
            decks.append(self.check_deck(str(player["player_card"]), deck))
            pcs.append(str(player["player_card"]))
        if not isinstance(seed, Rng) and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise ConfigError("seed must be an integer")
        public = (
            open_lists or self.is_builtin_deck(decks[0]),
            open_lists or self.is_builtin_deck(decks[1]),
        )
        rng = seed if isinstance(seed, Rng) else Rng(seed)
        return VsState.setup(self, pcs, decks, first, rng, public, extra)

    def state_from_json(self, data: Any) -> VsState:
        try:
            return VsState.from_json(self, data)
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise RecordError(f"vs state: corrupt ({type(error).__name__}: {error})") from None

    def determinize(self, view: VsView, player: int, rng: Rng) -> VsState:
        """A full state consistent with ``view`` (opponent hand and deck orders sampled)."""
        return determinize(self, view, player, rng)


_DEFAULT: VsGame | None = None


def load_vs_game(card_paths: Sequence[Path | str] = ()) -> VsGame:
    """The built-in set (cached), or it extended/replaced by ``card_paths``."""
    global _DEFAULT
    if not card_paths:
        if _DEFAULT is None:
            _DEFAULT = VsGame(build_card_set())
        return _DEFAULT
    return VsGame(build_card_set(card_paths))
