"""The Persona 5 board game as an immutable :class:`Game`: compiled cards and the action table.

Cards are compiled once into small tuples indexed by ints so that the state
refers to cards by index and the rules run on plain data.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from velvet.engine.core import CardInfo, Event, Game
from velvet.engine.errors import CardDataError, ConfigError, InvalidActionError, RecordError
from velvet.engine.rng import Rng
from velvet.p5 import actions as A
from velvet.p5.cards import (
    DIFFICULTY_FILE,
    RESOURCES,
    STATS,
    Ability,
    CardSet,
    Effect,
    load_cardset,
)
from velvet.p5.cards import slug as _slug
from velvet.p5.difficulty import STANDARD, Level, check_level, levels
from velvet.p5.flow import apply_unchecked, legal_actions, new_state
from velvet.p5.illegal import explain
from velvet.p5.state import (
    ABIL_SRC,
    BOSS,
    BOSS_SRC,
    OP,
    ROW_SRC,
    TRIGGERS,
    P5State,
    bind_rules,
    state_from_json,
)
from velvet.p5.state import OPS as OPS
from velvet.p5.view import action_label, decision_labels, determinize, make_view, public_view
from velvet.p5.views import P5View

bind_rules(  # the rules of a P5State: turn flow, views and labels, explanations of illegal moves
    legal_actions=legal_actions,
    apply_unchecked=apply_unchecked,
    explain=explain,
    view=make_view,
    public_view=public_view,
    label=action_label,
    labels=decision_labels,
)


def _vec(table: Mapping[Any, int], keys: Sequence[str]) -> tuple[int, ...]:
    return tuple(int(table.get(k, 0)) for k in keys)


class P5Game(Game[A.P5Action, P5View]):
    """Immutable: the card set compiled into index tables, plus the action table."""

    name = "p5"
    rules_version = "p5-1.1"  # 1.1: the turn's window, one-decision party, splits by kind
    num_players = (1, 2)
    game_over_rule = "P5-END-1"  # the state names P5-END-1 or P5-END-2 by how it ended

    def __init__(self, cards: CardSet, level: Level | None = None) -> None:
        self.cards = cards
        self.level: str = STANDARD if level is None else level.id
        """The difficulty level this game plays at (``velvet.p5.difficulty``)."""
        self._standard = self
        self._levels: dict[str, P5Game] = {}
        r = cards.rules
        self.skill_types: tuple[str, ...] = tuple(r.skill_types)
        self.supply0 = _vec(r.supply, RESOURCES)
        self.stat_cap = r.stat_cap
        self.party_size = r.party_size
        self.days = r.days + (level.days if level else 0)
        if self.days < 1:
            raise CardDataError(
                f"{DIFFICULTY_FILE}: level '{self.level}'",
                None,
                "days",
                f"leaves {self.days} days of the card set's {r.days}; a game needs 1 or more",
            )
        self.start_alert = level.alert // 25 if level else 0
        """The palace's alert row at set-up (0 by P5-SETUP-7)."""
        self.start_gain = level.gain_vec() if level else (0, 0, 0, 0)
        """Tokens each player gains at set-up beyond the rulebook's (none by the rulebook)."""
        boss_more = level.boss_vec() if level else (0, 0, 0, 0)
        self.reveal_per_player = r.reveal_per_player
        self.arsene_shadows = r.arsene_shadows
        self.solo_gain = _vec(r.solo_gain, RESOURCES) if r.solo_gain else (1, 1, 1, 1)
        self.thief_index = {t.id: i for i, t in enumerate(cards.thieves)}
        self.persona_index = {p.id: i for i, p in enumerate(cards.personas)}
        self.conf_index = {c.id: i for i, c in enumerate(cards.confidants)}
        self.shadow_index = {s.id: i for i, s in enumerate(cards.shadows)}
        self.palace_index = {p.id: i for i, p in enumerate(cards.palaces)}
        self.loc_index = {loc.id: i for i, loc in enumerate(cards.locations)}
        # effects, flattened: parallel tuples indexed by effect id
        self._effects: list[Effect] = []
        self.eff_op: list[int] = []
        self.eff_amount: list[tuple[int, ...]] = []
        self.eff_stat: list[int] = []
        self.eff_stats: list[tuple[int, ...]] = []
        self.eff_n: list[int] = []
        self.eff_bonds: list[bool] = []
        self.eff_kinds: list[tuple[int, ...]] = []
        self.eff_then: list[tuple[int, ...]] = []
        self.eff_else: list[tuple[int, ...]] = []
        # abilities
        self.abilities: list[Ability] = []
        self.ab_key: list[str] = []
        self.ab_owner: list[str] = []  # the name of the card the ability is printed on
        self.ab_index: dict[str, int] = {}
        self.ab_trigger: list[int] = []
        self.ab_cost: list[tuple[int, ...]] = []
        self.ab_damage: list[tuple[int, ...]] = []  # stamina, sp, bullet, cash, any
        self.ab_type: list[int] = []
        self.ab_amp: list[int] = []
        self.ab_bonus: list[tuple[int, ...]] = []
        self.ab_party: list[int] = []
        self.ab_grant: list[tuple[int, ...]] = []
        self.ab_limit: list[int] = []  # 0 none, 1 day, 2 palace
        self.ab_palace_only: list[bool] = []
        self.ab_attack: list[bool] = []
        self.ab_all: list[bool] = []
        self.ab_dice: list[bool] = []
        self.ab_effects: list[tuple[int, ...]] = []
        self.persona_abils = tuple(
            tuple(self._ability(f"{p.id}.{_slug(a.name)}", a, p.id, p.name) for a in p.skills)
            for p in cards.personas
        )
        self.persona_party = tuple(p.party for p in cards.personas)
        self.thief_abil = tuple(self._ability(t.id, t.passive, t.id, t.name) for t in cards.thieves)
        self.thief_stats = tuple(_vec(t.stats, STATS) for t in cards.thieves)
        self.conf_abil = tuple(
            self._ability(c.id, c.ability, c.id, c.name) for c in cards.confidants
        )
        self.conf_checks = tuple(
            (STATS.index(c.checks[0]), STATS.index(c.checks[1])) for c in cards.confidants
        )
        self.conf_thief = tuple(
            self.thief_index[c.thief] if c.thief else -1 for c in cards.confidants
        )
        self.conf_arsene_only = tuple(c.arsene_only for c in cards.confidants)
        self.conf_counts = tuple(c.counts_as_recruited for c in cards.confidants)
        self.shadow_abil = tuple(
            self._ability(s.id, s.persona, s.id, s.name) for s in cards.shadows
        )
        self.shadow_health = tuple(_vec(s.health, RESOURCES) for s in cards.shadows)
        self.shadow_weak = tuple(
            frozenset(self.skill_types.index(w) for w in s.weak) for s in cards.shadows
        )
        self.shadow_enter = tuple(self._compile(s.on_enter) for s in cards.shadows)
        self.shadow_death = tuple(self._compile(s.on_death) for s in cards.shadows)
        self.row_enter = tuple(
            tuple(self._compile(r.on_enter) for r in p.rows) for p in cards.palaces
        )
        self.row_reveal = tuple(tuple(r.reveal for r in p.rows) for p in cards.palaces)
        self.boss_health = tuple(
            tuple(h + x for h, x in zip(_vec(p.boss.health, RESOURCES), boss_more, strict=True))
            for p in cards.palaces
        )
        self.boss_weak = tuple(
            frozenset(self.skill_types.index(w) for w in p.boss.weak) for p in cards.palaces
        )
        self.boss_enter = tuple(self._compile(p.boss.on_enter) for p in cards.palaces)
        self.boss_reveal = tuple(p.boss.reveal for p in cards.palaces)
        self.loc_effects = tuple(self._compile(loc.effects) for loc in cards.locations)
        self.loc_start = tuple(i for i, loc in enumerate(cards.locations) if loc.start)
        self.loc_other = tuple(i for i, loc in enumerate(cards.locations) if not loc.start)
        for i, a in enumerate(self.abilities):
            if self.ab_trigger[i] == TRIGGERS["setup"]:
                for e in self._walk(self.ab_effects[i]):
                    if self.eff_op[e] not in (OP["gain"], OP["stat"]):
                        raise CardDataError(
                            "<cards>",
                            self.ab_key[i],
                            "effects",
                            "set-up abilities may only gain or raise stats",
                        )
            _ = a
        self._build_actions()

    def at(self, level: str) -> P5Game:
        """This card set at difficulty ``level`` (a ConfigError names the levels): the
        rulebook's game itself at ``standard``, else a game compiled once and kept."""
        ident = check_level(level)
        base = self._standard
        if ident == STANDARD:
            return base
        game = base._levels.get(ident)
        if game is None:
            game = P5Game(base.cards, levels()[ident])
            game._standard = base
            base._levels[ident] = game
        return game

    # --- compilation ---------------------------------------------------------------------

    def _walk(self, ids: Sequence[int]) -> list[int]:
        out: list[int] = []
        for e in ids:
            out.append(e)
            out += self._walk(self.eff_then[e]) + self._walk(self.eff_else[e])
        return out

    def _compile(self, effects: Sequence[Effect]) -> tuple[int, ...]:
        ids: list[int] = []
        for e in effects:
            then = self._compile(e.then)
            other = self._compile(e.else_)
            i = len(self._effects)
            self._effects.append(e)
            self.eff_op.append(OP[e.op])
            self.eff_amount.append(_vec(e.amount, RESOURCES))
            self.eff_stat.append(STATS.index(e.stat) if e.stat else -1)
            self.eff_stats.append(tuple(STATS.index(s) for s in e.stats) or tuple(range(5)))
            self.eff_n.append(e.n)
            self.eff_bonds.append(e.per == "bonds")
            self.eff_kinds.append(tuple(RESOURCES.index(k) for k in e.kinds))
            self.eff_then.append(then)
            self.eff_else.append(other)
            ids.append(i)
        return tuple(ids)

    def _ability(self, key: str, a: Ability, owner: str, owner_name: str) -> int:
        if key in self.ab_index or key in ("boss",):
            raise CardDataError(
                "<cards>",
                owner,
                "id",
                f"ability key '{key}' is used twice (ids must be unique "
                "across thieves, confidants and shadows)",
            )
        i = len(self.abilities)
        self.abilities.append(a)
        self.ab_key.append(key)
        self.ab_owner.append(owner_name)
        self.ab_index[key] = i
        self.ab_trigger.append(TRIGGERS[a.trigger])
        self.ab_cost.append(_vec(a.cost, RESOURCES))
        self.ab_damage.append(_vec(a.damage, (*RESOURCES, "any")))
        self.ab_type.append(self.skill_types.index(a.type) if a.type else -1)
        self.ab_amp.append(self.skill_types.index(a.amp) if a.amp else -1)
        self.ab_bonus.append(_vec(a.check_bonus, STATS))
        self.ab_party.append(a.party_bonus)
        self.ab_grant.append(_vec(a.grant, RESOURCES))
        self.ab_limit.append({None: 0, "day": 1, "palace": 2}[a.limit])
        self.ab_palace_only.append(a.palace_only or a.limit == "palace" or a.attack)
        self.ab_attack.append(a.attack)
        self.ab_all.append(a.target == "all")
        self.ab_dice.append(a.dice)
        self.ab_effects.append(self._compile(a.effects))
        return i

    # --- actions -------------------------------------------------------------------------

    def _build_actions(self) -> None:
        cs = self.cards
        shadows = [s.id for s in cs.shadows]
        targets = [*shadows, "boss"]
        # The same objects the legal lists hold (velvet.p5.flow), so ids found by identity.
        table: list[Any] = [*A.GO, A.DISCOVER, A.PALACE, A.END, A.DONE]
        self.visit_act = tuple(A.Visit(loc.id) for loc in cs.locations)
        self.recruit_act = tuple(A.Recruit(loc.id) for loc in cs.locations)
        table += [*self.visit_act, *self.recruit_act]
        self.use_plain: dict[int, A.Use] = {}
        self.use_target: dict[tuple[int, int], A.Use] = {}
        for a, key in enumerate(self.ab_key):
            if self.ab_trigger[a] != TRIGGERS["use"]:
                continue
            if self.ab_attack[a] and not self.ab_all[a]:
                for t, tid in zip([*range(len(shadows)), BOSS], targets, strict=True):
                    act = A.Use(key, tid)
                    self.use_target[a, t] = act
                    table.append(act)
            else:
                self.use_plain[a] = A.Use(key)
                table.append(self.use_plain[a])
        self.hit_act: dict[tuple[int, int], A.Hit] = {}
        for t, tid in zip([*range(len(shadows)), BOSS], targets, strict=True):
            for k, res in enumerate(RESOURCES):
                self.hit_act[k, t] = A.Hit(res, tid)
                table.append(self.hit_act[k, t])
        self.stat_act = tuple(A.StatUp(s) for s in STATS)
        table += self.stat_act
        self.equip_act = tuple(A.Equip(s) for s in shadows)
        self.unequip_act = tuple(A.Unequip(s) for s in shadows)
        table += [*self.equip_act, *self.unequip_act]
        self.first_row = tuple(A.First(f"row:{r}") for r in range(4))
        self.first_boss = A.First("boss")
        self.first_shadow = tuple(A.First(f"shadow:{s}") for s in shadows)
        self.first_abil = tuple(A.First(f"ability:{k}") for k in self.ab_key)
        table += [*self.first_row, self.first_boss, *self.first_shadow, *self.first_abil]
        # a split (ANY damage over requirements, a mixed restore over spent tokens) is
        # asked one kind at a time: 0..the most of that kind any card or the supply holds.
        tops = [
            max(
                [h[k] for h in self.shadow_health]
                + [h[k] for h in self.boss_health]
                + [self.supply0[k]]
            )
            for k in range(4)
        ]
        self.assign_act = tuple(
            tuple(A.Assign(res, x) for x in range(tops[k] + 1)) for k, res in enumerate(RESOURCES)
        )
        for row in self.assign_act:
            table += row
        self.action_table: tuple[Any, ...] = tuple(table)
        self.action_id_of = {a: i for i, a in enumerate(self.action_table)}

    def source_text(self, src: int) -> A.First:
        if src >= ABIL_SRC:
            return self.first_abil[src - ABIL_SRC]
        if src == BOSS_SRC:
            return self.first_boss
        if src >= ROW_SRC:
            return self.first_row[src - ROW_SRC]
        return self.first_shadow[src]

    def target_id(self, t: int) -> str:
        return "boss" if t == BOSS else self.cards.shadows[t].id

    # --- Game API ------------------------------------------------------------------------

    def parse_action(self, text: str) -> A.P5Action:
        return A.parse_action(text)

    def action_ids(self) -> Sequence[str]:
        return tuple(str(a) for a in self.action_table)

    def action_to_id(self, action: A.P5Action) -> int:
        try:
            return self.action_id_of[action]
        except (KeyError, TypeError):
            raise InvalidActionError(f"'{action}' is not an action of this card set") from None

    def action_from_id(self, i: int) -> Any:
        if not isinstance(i, int) or not 0 <= i < len(self.action_table):
            raise InvalidActionError(f"no action id {i}: ids are 0..{len(self.action_table) - 1}")
        return self.action_table[i]

    def event_text(self, event: Event) -> str:
        from velvet.p5.words import event_text

        return event_text(self, event)

    def describe_card(self, card_id: str) -> CardInfo:
        """Any card by id, or ``kind:id`` (``palace:futaba``, ``boss:kamoshida``)."""
        from velvet.p5.words import describe

        return describe(self, card_id)

    def card_ids(self) -> list[str]:
        """Every card as ``kind:id`` (a palace's boss is ``boss:PALACE``)."""
        from velvet.p5.words import card_ids

        return card_ids(self)

    def action_targets(self, state: Any, action: Any) -> tuple[str, ...]:
        """The board refs ``action`` acts on (docs/web.md, "The P5 board")."""
        from velvet.p5.words import action_targets

        return action_targets(state, action)

    def action_note(self, state: Any, action: Any) -> str | None:
        """The exact chance of the checks or Dice roll ``action`` makes, if any."""
        from velvet.p5.words import action_note

        return action_note(state, action)

    def position(self, spec: Mapping[str, Any]) -> Any:
        """A state from a position by names (docs/engine.md, "Positions")."""
        from velvet.p5.position import build_position

        return build_position(self, spec)

    def position_of(self, state: Any, seed: int = 0) -> dict[str, Any]:
        """The position of a state by names (``velvet.p5.position.position_spec``)."""
        from velvet.p5.position import position_spec

        return position_spec(state, seed)

    def cardset_hash(self) -> str:
        return self.cards.digest

    def choices(self) -> dict[str, list[tuple[str, str]]]:
        cs = self.cards
        return {
            "thieves": [(t.id, t.name) for t in cs.thieves],
            "personas": [(p.id, p.name) for p in cs.personas],
            "palaces": [(p.id, p.name) for p in cs.palaces],
        }

    def default_config(self, players: int = 1) -> dict[str, Any]:
        if players not in self.num_players:
            raise ConfigError(f"players must be 1 or 2, not {players}")
        cs = self.cards
        pairs = [
            (cs.thieves[i % len(cs.thieves)].id, cs.personas[i % len(cs.personas)].id)
            for i in range(players)
        ]
        return {
            "players": [{"thief": t, "persona": p} for t, p in pairs],
            "palace": cs.palaces[0].id,
        }

    def check_config(self, config: Mapping[str, Any]) -> tuple[list[int], list[int], int]:
        """Thief, persona and palace indices of a config; ConfigError names what is wrong."""
        if not isinstance(config, Mapping):
            raise ConfigError("config must be an object: {'players': [...], 'palace': ID}")
        unknown = set(config) - {"players", "palace", "difficulty"}
        if unknown:
            raise ConfigError(
                f"unknown config keys {sorted(unknown)}; allowed: players, palace, difficulty"
            )
        if "difficulty" in config:
            check_level(config["difficulty"])
        players = config.get("players")
        if not isinstance(players, list) or len(players) not in self.num_players:
            raise ConfigError("config 'players' must list 1 or 2 players")
        thieves: list[int] = []
        personas: list[int] = []
        for n, p in enumerate(players, start=1):
            if not isinstance(p, Mapping) or set(p) != {"thief", "persona"}:
                raise ConfigError(
                    f"player {n}: expected {{'thief': ID, 'persona': ID}}", None, n - 1
                )
            if p["thief"] not in self.thief_index:
                raise ConfigError(
                    f"player {n}: unknown thief '{p['thief']}'; allowed: "
                    f"{', '.join(self.thief_index)}",
                    "thief",
                    n - 1,
                )
            if p["persona"] not in self.persona_index:
                raise ConfigError(
                    f"player {n}: unknown persona '{p['persona']}'; allowed: "
                    f"{', '.join(self.persona_index)}",
                    "persona",
                    n - 1,
                )
            thieves.append(self.thief_index[p["thief"]])
            personas.append(self.persona_index[p["persona"]])
        if len(set(thieves)) != len(thieves):
            raise ConfigError("two players cannot play the same Phantom Thief", "thief", 1)
        if len(set(personas)) != len(personas) and not self.persona_party[personas[0]]:
            raise ConfigError(
                "two players cannot play the same persona; only a persona-party persona "
                "(Arsene) may be picked by both (P5-SETUP-11)",
                "persona",
                1,
            )
        palace = config.get("palace")
        if palace not in self.palace_index:
            raise ConfigError(
                f"unknown palace '{palace}'; allowed: {', '.join(self.palace_index)}", "palace"
            )
        return thieves, personas, self.palace_index[str(palace)]

    def new_state(self, config: Mapping[str, Any], seed: int | Rng) -> P5State:
        if isinstance(seed, Rng):
            return new_state(self, config, 0, seed)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ConfigError("seed must be an integer")
        return new_state(self, config, seed)

    def state_from_json(self, data: Any) -> P5State:
        try:
            return state_from_json(self, data)
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise RecordError(f"p5 state: corrupt or not a state ({error!r})") from None

    def determinize(self, view: P5View, player: int, rng: Rng) -> P5State:
        try:
            return determinize(self, view, player, rng)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise RecordError(f"p5 view: not a view of this card set ({error!r})") from None


@lru_cache(maxsize=1)
def _default_game() -> P5Game:
    return P5Game(load_cardset())


def load_p5_game(card_paths: Sequence[Path | str] = ()) -> P5Game:
    """The built-in card set, extended or replaced by custom files (cached when default)."""
    if not card_paths:
        return _default_game()
    return P5Game(load_cardset(card_paths))
