"""Positions by name: a whole Persona 5 board game state built from card ids and counts.

``P5Game.position(spec)`` reads a mapping (a TOML file, see docs/engine.md
"Positions") and returns a state ready to play: thieves, personas, fresh and spent
tokens, stats, locations and confidants, held shadows and the persona party, palace,
alert, revealed shadows with their damage, the boss, deck orders and scripted dice.
The shape is checked by pydantic, the meaning by the rules below; the first fault
raises a ConfigError naming the field (``position: players.1.party: ...``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng
from velvet.p5.cards import RESOURCES, STATS, Stat

if TYPE_CHECKING:
    from velvet.p5.game import P5Game
    from velvet.p5.state import P5State


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Tokens(_Model):
    stamina: int = Field(default=0, ge=0)
    sp: int = Field(default=0, ge=0)
    bullet: int = Field(default=0, ge=0)
    cash: int = Field(default=0, ge=0)

    def vec(self) -> list[int]:
        return [self.stamina, self.sp, self.bullet, self.cash]


class PlayerSpec(_Model):
    thief: str
    persona: str
    stats: dict[Stat, int] = {}
    fresh: Tokens = Tokens()
    spent: Tokens = Tokens()
    location: str = "off"
    confidants: list[str] = []
    held: list[str] = []
    party: list[str] = []
    drawn: list[str] = []
    taken: list[str] = []
    used_day: list[str] = []
    used_palace: list[str] = []
    went: bool = False


class LocationSpec(_Model):
    id: str
    confidant: str | None = None


class ShadowSpec(_Model):
    id: str
    damage: Tokens = Tokens()


class BossSpec(_Model):
    damage: Tokens = Tokens()


class PositionSpec(_Model):
    palace: str
    players: list[PlayerSpec] = Field(min_length=1, max_length=2)
    day: int = Field(default=1, ge=1)
    phase: Literal["order", "main", "fight", "after"] = "main"
    turn: int = Field(default=1, ge=1)
    alert: Literal[0, 25, 50, 75, 100] = 0
    locations: list[LocationSpec] | None = None
    shadows: list[ShadowSpec] | None = None
    boss: BossSpec | None = None
    shadow_deck: list[str] | None = None
    confidant_deck: list[str] | None = None
    location_deck: list[str] | None = None
    seed: int = 0
    dice: list[int] = []


def _fail(where: str, message: str) -> ConfigError:
    return ConfigError(f"position: {where}: {message}")


def _ids(table: Mapping[str, int], names: list[str], where: str, what: str) -> list[int]:
    out: list[int] = []
    for i, name in enumerate(names):
        if name not in table:
            raise _fail(f"{where}.{i}", f"unknown {what} '{name}'; known: {', '.join(table)}")
        if table[name] in out:
            raise _fail(f"{where}.{i}", f"{what} '{name}' is listed twice")
        out.append(table[name])
    return out


def build_position(g: P5Game, raw: Mapping[str, Any]) -> P5State:
    """The state that ``raw`` describes; ConfigError names the first wrong field."""
    from velvet.p5.effects import abilities, party_limit
    from velvet.p5.state import AFTER, FIGHT, IN_PALACE, MAIN, OFF, ORDER, P5State

    if not isinstance(raw, Mapping):
        raise ConfigError("position: expected a table of fields (palace, players, ...)")
    try:
        spec = PositionSpec.model_validate(dict(raw))
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "position"
        raise _fail(where, first["msg"]) from None
    config = {
        "players": [{"thief": p.thief, "persona": p.persona} for p in spec.players],
        "palace": spec.palace,
    }
    try:
        thieves, personas, palace = g.check_config(config)
    except ConfigError as error:
        raise ConfigError(f"position: {error}") from None
    n = len(spec.players)
    s = P5State()
    s._game = g
    s.rng = Rng(spec.seed)
    s.n = n
    if spec.day > g.days:
        raise _fail("day", f"the calendar has {g.days} days")
    s.day = spec.day
    s.thief, s.persona, s.palace = thieves, personas, palace
    s.result, s.dec, s.work, s.disc, s.party_set = 0, [], [], -1, False
    s.alert = spec.alert // 25
    arsene = any(g.persona_party[x] for x in personas)

    # locations and confidants
    if spec.locations is None:
        s.locs = list(g.loc_start)
        given_conf: list[int] | None = None
    else:
        s.locs = _ids(g.loc_index, [x.id for x in spec.locations], "locations", "location")
        given_conf = [
            -1 if x.confidant is None else _one(g.conf_index, x.confidant, f"locations.{i}")
            for i, x in enumerate(spec.locations)
        ]
    s.conf = []
    for p, ps in enumerate(spec.players):
        s.conf.append(
            sorted(_ids(g.conf_index, ps.confidants, f"players.{p}.confidants", "confidant"))
        )
    allowed = {
        c
        for c in range(len(g.cards.confidants))
        if g.conf_thief[c] not in thieves and (arsene or not g.conf_arsene_only[c])
    }
    used: dict[int, str] = {}
    for p, ps in enumerate(spec.players):
        for i, name in enumerate(ps.confidants):
            c = g.conf_index[name]
            _place(used, c, f"players.{p}.confidants.{i}", name, allowed)
    for i, c in enumerate(given_conf or []):
        if c >= 0:
            _place(used, c, f"locations.{i}.confidant", g.cards.confidants[c].id, allowed)
    if spec.confidant_deck is not None:
        deck = _ids(g.conf_index, spec.confidant_deck, "confidant_deck", "confidant")
        for i, c in enumerate(deck):
            _place(used, c, f"confidant_deck.{i}", g.cards.confidants[c].id, allowed)
        conf_deck = deck[::-1]  # the spec lists the top first; the state pops from the end
    else:
        conf_deck = [c for c in sorted(allowed) if c not in used]
        s.rng.shuffle(conf_deck)
    if given_conf is None:
        given_conf = [conf_deck.pop() if conf_deck else -1 for _ in s.locs]
    s.loc_conf = given_conf
    s.conf_deck = conf_deck
    if spec.location_deck is not None:
        ld = _ids(g.loc_index, spec.location_deck, "location_deck", "location")
        for i, li in enumerate(ld):
            if li in s.locs:
                raise _fail(f"location_deck.{i}", "that location is already on the table")
        s.loc_deck = ld[::-1]
    else:
        s.loc_deck = [li for li in g.loc_other if li not in s.locs]
        s.rng.shuffle(s.loc_deck)

    # players
    s.stats, s.fresh, s.spent, s.loc, s.went = [], [], [], [], []
    s.held, s.party, s.drawn, s.taken, s.grants = [], [], [], [], []
    s.used_day, s.used_pal = [], []
    owner: dict[int, str] = {}
    for p, ps in enumerate(spec.players):
        at = f"players.{p}"
        stats = list(g.thief_stats[thieves[p]])
        for stat, value in ps.stats.items():
            if not 0 <= value <= g.stat_cap:
                raise _fail(f"{at}.stats.{stat}", f"must be 0..{g.stat_cap}")
            stats[STATS.index(stat)] = value
        s.stats.append(stats)
        s.fresh.append(ps.fresh.vec())
        if ps.spent.cash:
            raise _fail(f"{at}.spent.cash", "Cash has one side: it is never spent (P5-COMP-2)")
        s.spent.append(ps.spent.vec())
        if ps.location == "off":
            s.loc.append(OFF)
        elif ps.location == "palace":
            s.loc.append(IN_PALACE)
        else:
            li = _one(g.loc_index, ps.location, f"{at}.location")
            if li not in s.locs:
                raise _fail(f"{at}.location", f"'{ps.location}' is not on the table")
            if li in s.loc:
                raise _fail(f"{at}.location", f"'{ps.location}' is occupied (P5-DAY-4)")
            s.loc.append(li)
        s.went.append(ps.went)
        held = _ids(g.shadow_index, ps.held, f"{at}.held", "shadow")
        taken = _ids(g.shadow_index, ps.taken, f"{at}.taken", "shadow")
        if held and not g.persona_party[personas[p]]:
            raise _fail(f"{at}.held", "only a persona-party persona (Arsene) holds shadows")
        for i, x in enumerate(held):
            _place(owner, x, f"{at}.held.{i}", g.cards.shadows[x].id)
        for i, x in enumerate(taken):
            if x not in held:
                _place(owner, x, f"{at}.taken.{i}", g.cards.shadows[x].id)
        party = _ids(g.shadow_index, ps.party, f"{at}.party", "shadow")
        drawn = _ids(g.shadow_index, ps.drawn, f"{at}.drawn", "shadow")
        for field, group in (("party", party), ("drawn", drawn)):
            for i, x in enumerate(group):
                if x not in held:
                    raise _fail(f"{at}.{field}.{i}", f"'{g.cards.shadows[x].id}' is not held")
        s.held.append(held)
        s.drawn.append(drawn)
        s.taken.append(taken)
        s.party.append(party)
        grants = [[*g.ab_grant[g.shadow_abil[x]][:3], 0] for x in party]
        s.grants.append(grants)
        for k in range(3):
            need = sum(gr[k] for gr in grants)
            if need > s.fresh[p][k] + s.spent[p][k]:
                raise _fail(
                    f"{at}.party",
                    f"the party gives {need} {RESOURCES[k]} (P5-ARSENE-2): "
                    "list them among the player's fresh or spent tokens",
                )
    for p, ps in enumerate(spec.players):
        at = f"players.{p}"
        if len(s.party[p]) > party_limit(s, p):
            raise _fail(f"{at}.party", f"holds at most {party_limit(s, p)} personas")
        mine = abilities(s, p)
        for field, keys in (("used_day", ps.used_day), ("used_palace", ps.used_palace)):
            got = _ids(g.ab_index, keys, f"{at}.{field}", "ability")
            limit = 1 if field == "used_day" else 2
            for i, a in enumerate(got):
                if a not in mine or g.ab_limit[a] != limit:
                    raise _fail(
                        f"{at}.{field}.{i}",
                        f"'{g.ab_key[a]}' is not a {'1/Day' if limit == 1 else '1/Palace'} "
                        "ability of this player",
                    )
            (s.used_day if limit == 1 else s.used_pal).append(sorted(got))

    # the palace: revealed shadows, boss, shadow deck
    s.rev, s.rem = [], []
    for i, sh in enumerate(spec.shadows or []):
        x = _one(g.shadow_index, sh.id, f"shadows.{i}.id")
        _place(owner, x, f"shadows.{i}", sh.id)
        s.rev.append(x)
        s.rem.append(_left(g.shadow_health[x], sh.damage, f"shadows.{i}.damage"))
    if spec.shadow_deck is not None:
        deck = _ids(g.shadow_index, spec.shadow_deck, "shadow_deck", "shadow")
        for i, x in enumerate(deck):
            _place(owner, x, f"shadow_deck.{i}", g.cards.shadows[x].id)
        s.shadow_deck = deck[::-1]
    else:
        s.shadow_deck = [x for x in range(len(g.cards.shadows)) if x not in owner]
        s.rng.shuffle(s.shadow_deck)
    if spec.shadows is None:
        for _ in range(g.reveal_per_player * n):
            if s.shadow_deck:
                x = s.shadow_deck.pop()
                s.rev.append(x)
                s.rem.append(list(g.shadow_health[x]))
    if spec.boss is not None and spec.alert != 100:
        raise _fail("boss", "the boss is only in play at 100% alert (P5-BOSS-1)")
    s.boss_rem = []
    if spec.alert == 100:
        damage = spec.boss.damage if spec.boss else Tokens()
        s.boss_rem = _left(g.boss_health[palace], damage, "boss.damage")

    # the supply holds what no player holds (P5-COMP-3)
    s.supply = []
    for k, res in enumerate(RESOURCES):
        left = g.supply0[k] - sum(s.fresh[p][k] + s.spent[p][k] for p in range(n))
        if left < 0:
            raise _fail(
                "players", f"the players hold more {res} than the supply has ({g.supply0[k]})"
            )
        s.supply.append(left)

    # whose turn, and in which phase
    if spec.turn > n:
        raise _fail("turn", f"there are {n} player(s)")
    s.turn = spec.turn - 1
    phases = {"order": ORDER, "main": MAIN, "fight": FIGHT, "after": AFTER}
    s.phase = phases[spec.phase]
    if all(s.went):
        raise _fail("players", "every player has gone today: the day would have moved on")
    if spec.phase == "order":
        if sum(not w for w in s.went) < 2:
            raise _fail("phase", "'order' needs two players who have not gone today")
        s.turn = 0
    elif s.went[s.turn]:
        raise _fail("turn", f"player {spec.turn} has already gone today")
    if spec.phase == "fight" and s.loc[s.turn] != IN_PALACE:
        raise _fail("phase", "a fight needs the player in turn at location 'palace'")
    for i, face in enumerate(spec.dice):
        if not 1 <= face <= 6:
            raise _fail(f"dice.{i}", "a die face is 1..6")
    s.rng.script([face - 1 for face in spec.dice])
    return s


def _one(table: Mapping[str, int], name: str, where: str) -> int:
    if name not in table:
        raise _fail(where, f"unknown '{name}'; known: {', '.join(table)}")
    return table[name]


def _place(used: dict[int, str], x: int, where: str, name: str, allowed: Any = None) -> None:
    """Each card is in one place only; ``allowed`` is the set the card must belong to."""
    if allowed is not None and x not in allowed:
        raise _fail(where, f"'{name}' left the game at set-up (P5-SETUP-5)")
    if x in used:
        raise _fail(where, f"'{name}' is already placed at {used[x]}")
    used[x] = where


def _left(health: tuple[int, ...], damage: Tokens, where: str) -> list[int]:
    dealt = damage.vec()
    for k, res in enumerate(RESOURCES):
        if dealt[k] > health[k]:
            raise _fail(f"{where}.{res}", f"more than the requirement ({health[k]})")
    left = [health[k] - dealt[k] for k in range(4)]
    if not any(left):
        raise _fail(where, "every requirement is met: it would be defeated")
    return left


def position_spec(s: P5State, seed: int = 0) -> dict[str, Any]:
    """The position of ``s`` by names (the inverse of :func:`build_position`), for a state
    between decisions of a turn (no pending decision, effect or party choice); ``seed``
    becomes the position's RNG (the state's own RNG is hidden and is not written). Raises
    ConfigError for any other state."""
    from velvet.p5.state import AFTER, FIGHT, IN_PALACE, MAIN, OFF, ORDER

    g = s.game
    phases = {ORDER: "order", MAIN: "main", FIGHT: "fight", AFTER: "after"}
    if s.result or s.phase not in phases or s.dec or s.work or s.disc != -1 or s.party_set:
        raise ConfigError("position: only a state with no pending decision can be written")
    cards = g.cards

    def tokens(vec: Any) -> dict[str, int]:
        return {res: int(vec[k]) for k, res in enumerate(RESOURCES) if vec[k]}

    def shadows(xs: Any) -> list[str]:
        return [cards.shadows[x].id for x in xs]

    players = []
    for p in range(s.n):
        at = s.loc[p]
        where = "off" if at == OFF else "palace" if at == IN_PALACE else cards.locations[at].id
        players.append(
            {
                "thief": cards.thieves[s.thief[p]].id,
                "persona": cards.personas[s.persona[p]].id,
                "stats": dict(zip(STATS, (int(v) for v in s.stats[p]), strict=True)),
                "fresh": tokens(s.fresh[p]),
                "spent": tokens(s.spent[p]),
                "location": where,
                "confidants": [cards.confidants[c].id for c in s.conf[p]],
                "held": shadows(s.held[p]),
                "party": shadows(s.party[p]),
                "drawn": shadows(s.drawn[p]),
                "taken": shadows(s.taken[p]),
                "used_day": [g.ab_key[a] for a in s.used_day[p]],
                "used_palace": [g.ab_key[a] for a in s.used_pal[p]],
                "went": bool(s.went[p]),
            }
        )
    spec: dict[str, Any] = {
        "palace": cards.palaces[s.palace].id,
        "day": s.day,
        "phase": phases[s.phase],
        "turn": s.turn + 1,
        "alert": s.alert * 25,
        "seed": seed,
        "shadow_deck": shadows(s.shadow_deck[::-1]),
        "confidant_deck": [cards.confidants[c].id for c in s.conf_deck[::-1]],
        "location_deck": [cards.locations[li].id for li in s.loc_deck[::-1]],
        "players": players,
        "locations": [
            {"id": cards.locations[li].id}
            | ({"confidant": cards.confidants[c].id} if c >= 0 else {})
            for li, c in zip(s.locs, s.loc_conf, strict=True)
        ],
        "shadows": [
            {
                "id": cards.shadows[x].id,
                "damage": tokens([h - r for h, r in zip(g.shadow_health[x], rem, strict=True)]),
            }
            for x, rem in zip(s.rev, s.rem, strict=True)
        ],
    }
    if s.boss_rem:
        health = g.boss_health[s.palace]
        spec["boss"] = {"damage": tokens([h - r for h, r in zip(health, s.boss_rem, strict=True)])}
    return spec
