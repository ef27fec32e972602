"""Card schema of the Persona 5 board game, loading, and card listings.

Cards are TOML data validated by the pydantic models below; behaviour is
composed from a small effect vocabulary (:class:`Effect`) and abilities
(:class:`Ability`) that the rules engine interprets. No rule code looks at a
card's name or id.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from velvet.cards.loader import CardFile, load_card_files, merge_by_id, read_toml, validate_cards
from velvet.engine.errors import CardDataError
from velvet.i18n import N_, _

if TYPE_CHECKING:
    from velvet.p5.game import P5Game

DATA_DIR = Path(__file__).parent / "data"
DIFFICULTY_FILE = DATA_DIR / "levels" / "difficulty.toml"
"""The difficulty levels (``velvet.p5.difficulty``): beside the cards, not one of them."""

RESOURCES = ("stamina", "sp", "bullet", "cash")
STATS = ("knowledge", "guts", "proficiency", "compassion", "charm")

Res = Literal["stamina", "sp", "bullet", "cash"]
Token = Literal["stamina", "sp", "bullet"]
DamageKind = Literal["stamina", "sp", "bullet", "cash", "any"]
Stat = Literal["knowledge", "guts", "proficiency", "compassion", "charm"]
SkillType = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]*$", max_length=40)]
"""A skill type id; the allowed ones are game data (``[[rules]] skill_types``)."""
Count = Field(ge=0, le=20)
Name = Annotated[str, Field(min_length=1, max_length=80)]
Text = Annotated[str, Field(max_length=500)]
Ident = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]*$", max_length=40)]
MAX_EFFECTS = 12
"""Most effects in one list (the built-in cards use at most 4)."""
MAX_EFFECT_DEPTH = 4
"""Deepest nesting of ``then``/``else`` branches (the built-in cards use 2)."""
SHADOW_HEALTH = (1, 12)
"""Total health of a shadow: P5-COMBAT-1 requirements; the built-in shadows have 3..5."""
BOSS_HEALTH = (1, 20)
"""Total health of a boss; the built-in bosses have 15..19."""
HEALTH_COUNT = 12
"""Most of one kind in a health requirement."""

SECTIONS = ("rules", "thief", "persona", "confidant", "shadow", "palace", "location")


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


EffectOp = Literal[
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
]
"""The effect vocabulary of P5 cards; the engine interprets each op."""


class Effect(Model):
    """One step of the effect vocabulary (RULE-INDEX P5-TERM-*).

    gain/restore/spend/pay take ``amount``; pay and spend are all-or-nothing and
    pay runs ``then`` when paid; stat/stat_choice raise social stats; check rolls
    a stat, dice rolls one die (``then``/``else``); restore_mix restores ``n``
    tokens (or one per recruited confidant: ``per = "bonds"``) split among
    ``kinds`` by the player; draw_persona draws shadows as personas.
    """

    op: EffectOp
    amount: dict[Res, int] = {}
    stat: Stat | None = None
    stats: tuple[Stat, ...] = Field(default=(), max_length=5)
    n: int = Field(default=1, ge=0, le=20)
    per: Literal["bonds"] | None = None
    kinds: tuple[Token, ...] = Field(default=(), max_length=3)
    then: tuple[Effect, ...] = Field(default=(), max_length=MAX_EFFECTS)
    else_: tuple[Effect, ...] = Field(default=(), alias="else", max_length=MAX_EFFECTS)

    @property
    def depth(self) -> int:
        """1 for an effect without branches, plus the deepest branch."""
        return 1 + max((e.depth for e in (*self.then, *self.else_)), default=0)

    @model_validator(mode="after")
    def _shape(self) -> Effect:
        if self.op in ("gain", "restore", "spend", "pay") and not self.amount:
            raise ValueError(f"op '{self.op}' needs amount = {{stamina = 1, ...}}")
        if any(v < 0 or v > 20 for v in self.amount.values()):
            raise ValueError("amount values must be 0..20")
        if self.op == "restore" and "cash" in self.amount:
            raise ValueError("cash cannot be restored (it has one side: P5-COMP-2)")
        if self.op in ("stat", "check") and self.stat is None:
            raise ValueError(f"op '{self.op}' needs stat (one of {', '.join(STATS)})")
        if self.op == "restore_mix" and len(self.kinds) < 1:
            raise ValueError("restore_mix needs kinds = ['stamina', 'sp']")
        if self.then and self.op not in ("pay", "check", "dice"):
            raise ValueError("only pay, check and dice take 'then'")
        if self.else_ and self.op not in ("check", "dice"):
            raise ValueError("only check and dice take 'else'")
        if self.depth > MAX_EFFECT_DEPTH:
            raise ValueError(f"then/else branches nested deeper than {MAX_EFFECT_DEPTH}")
        return self


class Ability(Model):
    """A persona skill, a shadow's persona ability, a thief passive or a confidant ability.

    trigger: ``use`` (activated), ``auto`` (always on: amp, check_bonus,
    party_bonus, grant), ``setup``, ``recruit`` or ``palace_enter`` (effects run then).
    """

    name: Name
    text: Text = ""
    trigger: Literal["use", "auto", "setup", "recruit", "palace_enter"] = "use"
    cost: dict[Res, int] = {}
    type: SkillType | None = None
    damage: dict[DamageKind, int] = {}
    dice: bool = False
    target: Literal["one", "all"] = "one"
    limit: Literal["day", "palace"] | None = None
    palace_only: bool = False
    effects: tuple[Effect, ...] = Field(default=(), max_length=MAX_EFFECTS)
    amp: SkillType | None = None
    check_bonus: dict[Stat, int] = {}
    party_bonus: int = Field(default=0, ge=0, le=5)
    grant: dict[Token, int] = {}

    @model_validator(mode="after")
    def _shape(self) -> Ability:
        for table in (self.cost, self.damage, self.check_bonus, self.grant):
            if any(v < 0 or v > 20 for v in table.values()):
                raise ValueError("counts must be 0..20")
        if self.damage and self.type is None:
            raise ValueError("a skill that deals damage needs a type")
        if self.trigger != "use" and (self.cost or self.damage or self.dice or self.limit):
            raise ValueError("only trigger 'use' abilities have cost, damage, dice or limit")
        if self.trigger == "auto" and self.effects:
            raise ValueError("auto abilities are passive: no effects")
        if self.trigger != "auto" and (
            self.amp or self.check_bonus or self.party_bonus or self.grant
        ):
            raise ValueError("amp, check_bonus, party_bonus and grant need trigger = 'auto'")
        if self.trigger == "setup" and any(
            e.op not in ("gain", "stat") for e in _effects_in(self.effects)
        ):
            raise ValueError("set-up abilities may only gain or raise stats")
        if self.trigger == "use" and not (self.damage or self.effects):
            raise ValueError("an activated ability needs damage or effects")
        if self.trigger == "use" and self.limit is None and _pays_for_itself(self):
            raise ValueError(
                "an activated ability with no cost, or one whose effects give its cost "
                "back, needs limit = 'day' or 'palace' (else it could be used without end)"
            )
        return self

    @property
    def attack(self) -> bool:
        return bool(self.damage)


def _effects_in(effects: Sequence[Effect]) -> Iterator[Effect]:
    for effect in effects:
        yield effect
        yield from _effects_in(effect.then)
        yield from _effects_in(effect.else_)


def _pays_for_itself(ability: Ability) -> bool:
    """True if using ``ability`` can cost nothing in the end: no cost at all, or effects
    that may gain or restore at least what it costs of every kind it costs."""
    cost = {kind: n for kind, n in ability.cost.items() if n}
    if not cost:
        return True
    back: dict[str, int] = {}
    for effect in _effects_in(ability.effects):
        if effect.op in ("gain", "restore"):
            for kind, n in effect.amount.items():
                back[kind] = back.get(kind, 0) + n
        elif effect.op == "restore_mix":
            for kind in effect.kinds:
                back[kind] = back.get(kind, 0) + (99 if effect.per == "bonds" else effect.n)
    return all(back.get(kind, 0) >= n for kind, n in cost.items())


class Thief(Model):
    id: Ident
    name: Name
    stats: dict[Stat, int]
    passive: Ability

    @model_validator(mode="after")
    def _shape(self) -> Thief:
        if set(self.stats) != set(STATS):
            raise ValueError(f"stats must give all five: {', '.join(STATS)}")
        if any(v < 0 or v > 6 for v in self.stats.values()):
            raise ValueError("stats must be 0..6")
        return self


class Persona(Model):
    id: Ident
    name: Name
    party: bool = False
    skills: tuple[Ability, ...] = Field(min_length=1, max_length=6)


class Confidant(Model):
    id: Ident
    name: Name
    arcana: Text = ""
    checks: tuple[Stat, Stat]
    thief: Ident | None = None
    arsene_only: bool = False
    counts_as_recruited: bool = True
    ability: Ability


class Shadow(Model):
    id: Ident
    name: Name
    weak: tuple[SkillType, ...] = Field(default=(), max_length=8)
    health: dict[Res, int]
    text: Text = ""
    on_enter: tuple[Effect, ...] = Field(default=(), max_length=MAX_EFFECTS)
    on_death: tuple[Effect, ...] = Field(default=(), max_length=MAX_EFFECTS)
    persona: Ability

    @model_validator(mode="after")
    def _shape(self) -> Shadow:
        if self.id in ("boss", "thief"):
            raise ValueError("'boss' and 'thief' are reserved ids")
        _check_health(self.health, SHADOW_HEALTH)
        return self


def _check_health(health: Mapping[Any, int], bounds: tuple[int, int]) -> None:
    """P5-COMBAT-1: typed requirements; bounded so that every damage split stays small."""
    low, high = bounds
    if any(v < 0 or v > HEALTH_COUNT for v in health.values()):
        raise ValueError(f"health counts must be 0..{HEALTH_COUNT}")
    if not low <= sum(health.values()) <= high:
        raise ValueError(f"health must total {low}..{high}")


class Row(Model):
    alert: Literal[0, 25, 50, 75]
    text: Text = ""
    on_enter: tuple[Effect, ...] = Field(default=(), max_length=MAX_EFFECTS)
    reveal: int | None = Field(default=None, ge=0, le=5)


class Boss(Model):
    name: Name
    weak: tuple[SkillType, ...] = Field(default=(), max_length=8)
    health: dict[Res, int]
    text: Text = ""
    on_enter: tuple[Effect, ...] = Field(default=(), max_length=MAX_EFFECTS)
    reveal: int = Field(default=0, ge=0, le=5)

    @model_validator(mode="after")
    def _shape(self) -> Boss:
        _check_health(self.health, BOSS_HEALTH)
        return self


class Palace(Model):
    id: Ident
    name: Name
    rows: tuple[Row, Row, Row, Row]
    boss: Boss

    @model_validator(mode="after")
    def _shape(self) -> Palace:
        if [r.alert for r in self.rows] != [0, 25, 50, 75]:
            raise ValueError("rows must be the 0, 25, 50 and 75 % alert rows in order")
        return self


class Location(Model):
    id: Ident
    name: Name
    start: bool = False
    text: Text = ""
    effects: tuple[Effect, ...] = Field(min_length=1, max_length=MAX_EFFECTS)


class Rules(Model):
    """Game data that the rulebook leaves to the components (P5-COMP-3, P5-COMP-4)."""

    id: str = "rules"
    supply: dict[Res, int]
    stat_cap: int = Field(default=6, ge=1, le=20)
    party_size: int = Field(default=3, ge=1, le=10)
    days: int = Field(default=28, ge=1, le=100)
    reveal_per_player: int = Field(default=2, ge=1, le=5)
    arsene_shadows: int = Field(default=5, ge=0, le=10)
    solo_gain: dict[Res, int] = {}
    skill_types: tuple[SkillType, ...] = Field(min_length=1, max_length=40)

    @model_validator(mode="after")
    def _shape(self) -> Rules:
        if set(self.supply) != set(RESOURCES):
            raise ValueError(f"supply must give all four: {', '.join(RESOURCES)}")
        if any(v < 1 or v > 99 for v in self.supply.values()):
            raise ValueError("supply sizes must be 1..99")
        if any(v < 0 or v > 20 for v in self.solo_gain.values()):
            raise ValueError("solo_gain counts must be 0..20")
        return self


class CardSet:
    """The validated cards of one game, in file order."""

    __slots__ = (
        "confidants",
        "digest",
        "locations",
        "palaces",
        "personas",
        "rules",
        "shadows",
        "thieves",
    )

    def __init__(
        self,
        rules: Rules,
        thieves: Sequence[Thief],
        personas: Sequence[Persona],
        confidants: Sequence[Confidant],
        shadows: Sequence[Shadow],
        palaces: Sequence[Palace],
        locations: Sequence[Location],
        digest: str,
    ) -> None:
        self.rules = rules
        self.thieves = tuple(thieves)
        self.personas = tuple(personas)
        self.confidants = tuple(confidants)
        self.shadows = tuple(shadows)
        self.palaces = tuple(palaces)
        self.locations = tuple(locations)
        self.digest = digest


def builtin_files() -> list[CardFile]:
    return [read_toml(p) for p in sorted(DATA_DIR.glob("*.toml"))]


def build_cardset(files: Sequence[CardFile]) -> CardSet:
    """Validate and merge files in order (``[set] mode = "replace"`` drops what came before)."""
    import hashlib

    acc: dict[str, list[BaseModel]] = {s: [] for s in SECTIONS}
    models: dict[str, type[BaseModel]] = {
        "rules": Rules,
        "thief": Thief,
        "persona": Persona,
        "confidant": Confidant,
        "shadow": Shadow,
        "palace": Palace,
        "location": Location,
    }
    last = files[-1].path if files else "<no files>"
    origin: dict[str, str] = {}
    for f in files:
        if f.mode == "replace":
            acc = {s: [] for s in SECTIONS}
        for section in SECTIONS:
            cards = validate_cards(f, section, models[section], allowed_sections=SECTIONS)
            acc[section] = merge_by_id(acc[section], cards, f.path)
            for card in cards:
                origin[f"{section}:{getattr(card, 'id', '')}"] = f.path
        last = f.path
    if not acc["rules"]:
        raise CardDataError(last, None, "rules", "the card set has no [[rules]] table")
    for section in ("thief", "persona", "palace", "location", "shadow"):
        if not acc[section]:
            raise CardDataError(last, None, section, f"the card set has no {section} cards")
    confidants = [c for c in acc["confidant"] if isinstance(c, Confidant)]
    thief_ids = {t.id for t in acc["thief"] if isinstance(t, Thief)}
    for c in confidants:
        if c.thief is not None and c.thief not in thief_ids:
            raise CardDataError(last, c.id, "thief", f"unknown thief '{c.thief}'")
    rules = acc["rules"][-1]
    assert isinstance(rules, Rules)
    _check_types(rules, acc, origin)
    _check_ability_keys(acc, origin)
    locations = [c for c in acc["location"] if isinstance(c, Location)]
    if not any(loc.start for loc in locations):
        raise CardDataError(last, None, "location", "no starting location (start = true)")
    digest = hashlib.sha256("".join(f.digest for f in files).encode()).hexdigest()
    return CardSet(
        rules,
        [c for c in acc["thief"] if isinstance(c, Thief)],
        [c for c in acc["persona"] if isinstance(c, Persona)],
        confidants,
        [c for c in acc["shadow"] if isinstance(c, Shadow)],
        [c for c in acc["palace"] if isinstance(c, Palace)],
        locations,
        digest,
    )


def _check_types(rules: Rules, acc: dict[str, list[BaseModel]], origin: dict[str, str]) -> None:
    """Every skill type a card names must be one of the game data's ``skill_types``."""
    allowed = set(rules.skill_types)

    def fail(section: str, ident: str, field: str, value: str) -> None:
        raise CardDataError(
            origin.get(f"{section}:{ident}", "<cards>"),
            ident,
            field,
            f"unknown skill type '{value}'; allowed: {', '.join(rules.skill_types)}",
        )

    def ability(section: str, ident: str, field: str, a: Ability) -> None:
        for name, value in (("type", a.type), ("amp", a.amp)):
            if value is not None and value not in allowed:
                fail(section, ident, f"{field}.{name}", value)

    for section, cards in acc.items():
        for card in cards:
            ident = str(getattr(card, "id", ""))
            if isinstance(card, Thief):
                ability(section, ident, "passive", card.passive)
            elif isinstance(card, Persona):
                for i, a in enumerate(card.skills):
                    ability(section, ident, f"skills.{i}", a)
            elif isinstance(card, Confidant):
                ability(section, ident, "ability", card.ability)
            elif isinstance(card, Shadow):
                ability(section, ident, "persona", card.persona)
                for w in card.weak:
                    if w not in allowed:
                        fail(section, ident, "weak", w)
            elif isinstance(card, Palace):
                for w in card.boss.weak:
                    if w not in allowed:
                        fail(section, ident, "boss.weak", w)


def slug(name: str) -> str:
    """``"Eiha (Arsène)"`` → ``"eiha-ars-ne"``: a skill's name as part of its ability key."""
    return "-".join("".join(c if c.isalnum() else " " for c in name.lower()).split())


def _check_ability_keys(acc: dict[str, list[BaseModel]], origin: dict[str, str]) -> None:
    """Each ability has a key (``persona.skill-name``, or the id of the thief, confidant or
    shadow it is printed on) that actions name, so keys must be unique, and not ``boss``."""
    seen = {"boss"}
    keys: list[tuple[str, str, str]] = []
    for section in ("persona", "thief", "confidant", "shadow"):
        for card in acc[section]:
            ident = str(getattr(card, "id", ""))
            if isinstance(card, Persona):
                keys += [(section, ident, f"{ident}.{slug(a.name)}") for a in card.skills]
            else:
                keys.append((section, ident, ident))
    for section, ident, key in keys:
        if key in seen:
            raise CardDataError(
                origin.get(f"{section}:{ident}", "<cards>"),
                ident,
                "id",
                f"ability key '{key}' is used twice (ids must be unique "
                "across thieves, confidants and shadows)",
            )
        seen.add(key)


def load_cardset(paths: Iterable[Path | str] = ()) -> CardSet:
    return build_cardset(builtin_files() + load_card_files(paths))


def check_card_files(paths: Iterable[Path | str]) -> str:
    """Validate custom card files with the built-in set; raise CardDataError on the first fault."""
    files = load_card_files(paths)
    cs = build_cardset(builtin_files() + files)
    return (
        f"ok: {len(files)} file(s); {len(cs.thieves)} thieves, {len(cs.personas)} personas, "
        f"{len(cs.confidants)} confidants, {len(cs.shadows)} shadows, {len(cs.palaces)} palaces, "
        f"{len(cs.locations)} locations"
    )


# --- card text ------------------------------------------------------------------------------


def _amount(amount: Mapping[Any, int]) -> str:
    """``{"stamina": 2, "cash": 1}`` as "2 Stamina + 1 Cash" (empty for none)."""
    parts = (_("{n} {resource}").format(n=n, resource=_res(k)) for k, n in amount.items() if n)
    return _(" + ").join(parts)


RES_NAME = {"stamina": "Stamina", "sp": "SP", "bullet": "Bullet", "cash": "Cash", "any": "ANY"}
"""Each resource's name in the card data's English (the catalogue's message)."""
_RES_WORDS = (N_("Stamina"), N_("SP"), N_("Bullet"), N_("Cash"), N_("ANY"))


def _res(key: str) -> str:
    """A resource's name in the language spoken."""
    return _(RES_NAME[key]) if key in RES_NAME else key


amount_text = _amount
res_word = _res


def _cap(word: str) -> str:
    """A stat or skill type as the cards print it ("Guts", "Fire"), in the language spoken."""
    return _(word.capitalize())


def _then_text(effects: Sequence[Effect]) -> str:
    """Text of a ``then``/``else`` branch, grouped when it has several effects, so that
    "Pay 1 Cash: (Restore 3 Stamina. Gain 1 Stamina)" cannot read as an unconditional gain."""
    text = effect_text(effects)
    return _("({text})").format(text=text) if len(effects) > 1 else text


_OPS = {
    "gain": N_("Gain {amount}"),
    "restore": N_("Restore {amount}"),
    "spend": N_("Spend {amount}"),
    "pay": N_("Pay {amount}"),
}
"""The four token effects' words."""


def effect_text(effects: Sequence[Effect]) -> str:
    """Card text for a list of effects, in the rulebook's keywords (in the language spoken)."""
    parts: list[str] = []
    for e in effects:
        if e.op in _OPS:
            text = _(_OPS[e.op]).format(amount=_amount(e.amount))
            if e.then:
                text = _("{effect}: {then}").format(effect=text, then=_then_text(e.then))
        elif e.op == "stat":
            text = f"+{e.n} {_cap(e.stat) if e.stat else ''}"
        elif e.op == "stat_choice":
            which = "/".join(_cap(s) for s in e.stats) if e.stats else _("any social stat")
            text = _("+{n} to {stats} (your choice)").format(n=e.n, stats=which)
        elif e.op in ("check", "dice"):
            if e.op == "check" and e.stat:
                head = _("{stat} check").format(stat=_cap(e.stat))
            else:
                head = _("Dice")
            if e.then:
                text = _("{head}: {then}").format(head=head, then=_then_text(e.then))
                if e.else_:
                    text = _("{text}; on a failure {otherwise}").format(
                        text=text, otherwise=_then_text(e.else_)
                    )
            else:
                text = _("{head}, on a failure: {otherwise}").format(
                    head=head, otherwise=_then_text(e.else_) or _("nothing")
                )
        elif e.op == "restore_mix":
            count = _("1 per recruited confidant") if e.per == "bonds" else str(e.n)
            kinds = "/".join(_res(k) for k in e.kinds)
            text = _("Restore {count} of {kinds} (mixed)").format(count=count, kinds=kinds)
        else:
            text = _("Draw {n} shadow(s) as personas").format(n=e.n)
        parts.append(text)
    return _(". ").join(parts)


def ability_text(a: Ability) -> str:
    bits: list[str] = []
    if a.trigger == "auto":
        bits.append(_("Auto"))
        if a.amp:
            bits.append(_("{type} Amp: +1 Bullet damage to {type} skills").format(type=_cap(a.amp)))
        for s, n in a.check_bonus.items():
            bits.append(_("+{n} die on {stat} checks").format(n=n, stat=_cap(s)))
        if a.party_bonus:
            bits.append(_("+{n} persona party slot").format(n=a.party_bonus))
        if a.grant:
            bits.append(_("while active gives {amount} (spent)").format(amount=_amount(a.grant)))
    else:
        if a.trigger == "setup":
            bits.append(_("At set-up"))
        elif a.trigger == "recruit":
            bits.append(_("On recruit"))
        elif a.trigger == "palace_enter":
            bits.append(_("On Palace Enter"))
        if a.limit:
            bits.append(_("1/Day") if a.limit == "day" else _("1/Palace"))
        if a.palace_only:
            bits.append(_("in the palace only"))
        if a.cost:
            bits.append(_("cost {amount}").format(amount=_amount(a.cost)))
        if a.type:
            bits.append(_cap(a.type))
        if a.dice:
            bits.append(_("Dice"))
        if a.damage:
            if a.target == "all":
                bits.append(_("deals {amount} to every shadow").format(amount=_amount(a.damage)))
            else:
                bits.append(_("deals {amount}").format(amount=_amount(a.damage)))
        if a.effects:
            bits.append(effect_text(a.effects))
    body = _(", ").join(bits)
    text = _("{ability}: {body}").format(ability=a.name, body=body)
    return _("{text} — {words}").format(text=text, words=a.text) if a.text else text


def card_rows(game: P5Game) -> list[tuple[str, str, str, str]]:
    """(kind, id, name, text) for every card, for ``velvet cards list``."""
    cs = game.cards
    rows: list[tuple[str, str, str, str]] = []
    rows.append(
        (
            "rules",
            "rules",
            "Supply and limits",
            f"supply {_amount(cs.rules.supply)}; stat cap {cs.rules.stat_cap}; party "
            f"{cs.rules.party_size}; {cs.rules.days} days",
        )
    )
    for t in cs.thieves:
        stats = " ".join(f"{s[:4].capitalize()} {t.stats[s]}" for s in STATS)  # type: ignore[index]
        rows.append(("thief", t.id, t.name, f"{stats}; {ability_text(t.passive)}"))
    for p in cs.personas:
        head = "Persona party (uses shadows' persona abilities). " if p.party else ""
        rows.append(("persona", p.id, p.name, head + " | ".join(ability_text(a) for a in p.skills)))
    for c in cs.confidants:
        checks = " + ".join(s.capitalize() for s in c.checks)
        rows.append(("confidant", c.id, c.name, f"Checks {checks}. {ability_text(c.ability)}"))
    for s in cs.shadows:
        weak = ",".join(w.capitalize() for w in s.weak) or "none"
        text = f"Weak {weak}; health {_amount(s.health)}"
        if s.on_enter:
            text += f"; On Palace Enter: {effect_text(s.on_enter)}"
        if s.on_death:
            text += f"; On Death: {effect_text(s.on_death)}"
        rows.append(("shadow", s.id, s.name, f"{text}; Persona: {ability_text(s.persona)}"))
    for pal in cs.palaces:
        rows_text = " / ".join(
            f"{r.alert}%: {effect_text(r.on_enter) or r.text or '-'}"
            + (f" (reveals {r.reveal} shadows per player)" if r.reveal is not None else "")
            for r in pal.rows
        )
        b = pal.boss
        reveal = f"; reveals {b.reveal} shadow(s) per player" if b.reveal else ""
        boss = (
            f"Boss {b.name} (weak {','.join(b.weak) or 'none'}; health {_amount(b.health)}{reveal})"
        )
        if b.on_enter:
            boss += f" On Palace Enter: {effect_text(b.on_enter)}"
        rows.append(("palace", pal.id, pal.name, f"{rows_text}; {boss}"))
    for loc in cs.locations:
        head = "Start. " if loc.start else ""
        rows.append(("location", loc.id, loc.name, head + effect_text(loc.effects)))
    return rows


def card_list_markdown(game: P5Game) -> str:
    """The Markdown card list (docs/p5-cards.md is generated from it)."""
    out = [
        "# Persona 5 board game — built-in cards",
        "",
        "Generated by `velvet.p5.cards.card_list_markdown`; do not edit by hand.",
        "",
    ]
    kind = ""
    for k, ident, name, text in card_rows(game):
        if k != kind:
            kind = k
            out += ["", f"## {k}", "", "| id | name | text |", "|---|---|---|"]
        out.append(f"| `{ident}` | {name} | {text.replace('|', '/')} |")
    return "\n".join(out) + "\n"


def legend_icons(game: Any) -> list[str]:
    """The printed legend's first icons (GameSpec ``print_legend``): the resources, any
    resource, then the card set's skill types."""
    return [*RESOURCES, "any", *game.cards.rules.skill_types]
