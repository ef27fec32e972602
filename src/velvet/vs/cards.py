"""Persona VS card schema, loading and text.

Cards are TOML (sections ``player``, ``persona``, ``support``, ``react``)
validated by the pydantic models below. Behaviour is composed from a small
effect vocabulary (:class:`Effect`) that the engine interprets; the card text
shown to people is generated from that data, so text and behaviour agree.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from velvet.cards.loader import CardFile, load_card_files, merge_by_id, validate_cards
from velvet.engine.errors import CardDataError
from velvet.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from velvet.vs.game import VsGame

DATA_DIR = Path(__file__).parent / "data"
SECTIONS = ("player", "persona", "support", "react")
DamageType = Literal["physical", "fire", "ice", "electric", "wind"]
DAMAGE_TYPES: tuple[str, ...] = get_args(DamageType)
Op = Literal[
    "heal",
    "damage",
    "draw",
    "discard",
    "discard_random",
    "bounce",
    "destroy",
    "swap",
    "modify",
    "negate",
    "search",
    "recover",
]
HP_START = 30
LOWHP = 10
Ident = Annotated[str, Field(min_length=1, max_length=40)]
Name = Annotated[str, Field(min_length=1, max_length=80)]
Text = Annotated[str, Field(max_length=500)]
MAX_EFFECTS = 12
"""Most effects on one card part (the built-in cards use at most 3)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Effect(_Model):
    """One step of a card's behaviour, interpreted by the engine.

    ``who`` is the player affected (``self`` = the card's controller);
    ``slot`` restricts bounce/destroy targets; ``kind`` filters search and
    recover; ``mode`` is how ``modify`` changes damage (add, mul, half).
    """

    op: Op
    who: Literal["self", "opponent"] = "self"
    amount: int = Field(default=1, ge=-20, le=20)
    mode: Literal["add", "mul", "half"] = "add"
    slot: Literal["main", "sub", "any"] = "any"
    kind: Literal["persona", "support", "react", "any"] = "any"
    if_weakness: bool = False

    @model_validator(mode="after")
    def _check(self) -> Effect:
        if self.op in ("heal", "damage", "draw", "discard", "discard_random") and self.amount < 1:
            raise ValueError(f"'{self.op}' needs amount >= 1")
        if self.op == "modify" and self.mode == "mul" and self.amount < 0:
            raise ValueError("'modify' with mode 'mul' needs amount >= 0")
        return self


class Skill(_Model):
    """A black box: usable by the main in the Skill Step (VS-FIELD-2)."""

    name: Name
    type: DamageType
    damage: int = Field(ge=0, le=30)
    effects: tuple[Effect, ...] = Field(default=(), max_length=MAX_EFFECTS)


class Ability(_Model):
    """A white box: works from the main or a sub (VS-FIELD-2).

    ``attack``/``defend`` change a skill's damage (``mode``/``amount``,
    optionally only for ``skill_type``); ``on_play`` runs ``effects`` when
    this card is summoned or fused.
    """

    name: Name
    trigger: Literal["attack", "defend", "on_play"]
    skill_type: DamageType | None = None
    mode: Literal["add", "mul", "half"] = "add"
    amount: int = Field(default=0, ge=-20, le=20)
    effects: tuple[Effect, ...] = Field(default=(), max_length=MAX_EFFECTS)

    @model_validator(mode="after")
    def _check(self) -> Ability:
        if self.trigger == "on_play" and not self.effects:
            raise ValueError("an 'on_play' ability needs effects")
        if self.trigger != "on_play" and self.effects:
            raise ValueError(f"an '{self.trigger}' ability changes damage; it takes no effects")
        if self.mode == "mul" and self.amount < 0:
            raise ValueError("an ability with mode 'mul' needs amount >= 0")
        return self


class PlayerCard(_Model):
    id: Ident
    name: Name
    starter: str = Field(min_length=1, max_length=40, description="id of the VS starter persona")


class Persona(_Model):
    id: Ident
    name: Name
    cost: int = Field(ge=0, le=9)
    weakness: DamageType | None = None
    starter: bool = False
    extra_cost_name: Name | None = None
    abilities: tuple[Ability, ...] = Field(default=(), max_length=6)
    skills: tuple[Skill, ...] = Field(default=(), max_length=6)
    flavor: Text = ""


class Support(_Model):
    id: Ident
    name: Name
    effects: tuple[Effect, ...] = Field(min_length=1, max_length=MAX_EFFECTS)
    lowhp: tuple[Effect, ...] = Field(default=(), max_length=MAX_EFFECTS)

    @model_validator(mode="after")
    def _check(self) -> Support:
        for effect in (*self.effects, *self.lowhp):
            if effect.op == "negate":
                raise ValueError("a Support cannot 'negate' (there is no skill to negate)")
        return self


class React(_Model):
    id: Ident
    name: Name
    timing: Literal["declaration", "resolution"]
    vs_type: DamageType | None = None
    effects: tuple[Effect, ...] = Field(min_length=1, max_length=MAX_EFFECTS)
    lowhp: tuple[Effect, ...] = Field(default=(), max_length=MAX_EFFECTS)

    @model_validator(mode="after")
    def _check(self) -> React:
        if self.timing == "resolution":
            for effect in (*self.effects, *self.lowhp):
                if effect.op in ("modify", "negate"):
                    raise ValueError(
                        f"'{effect.op}' changes damage, so it needs timing = 'declaration'"
                    )
        return self


AnyCard = Persona | Support | React


class CardSet:
    """The validated cards of one set, with the digest of the files they came from."""

    def __init__(
        self,
        players: list[PlayerCard],
        personas: list[Persona],
        supports: list[Support],
        reacts: list[React],
        digest: str,
    ) -> None:
        self.players = players
        self.personas = personas
        self.supports = supports
        self.reacts = reacts
        self.digest = digest


def _validate_file(
    file: CardFile,
) -> tuple[list[PlayerCard], list[Persona], list[Support], list[React]]:
    return (
        validate_cards(file, "player", PlayerCard, allowed_sections=SECTIONS),
        validate_cards(file, "persona", Persona),
        validate_cards(file, "support", Support),
        validate_cards(file, "react", React),
    )


def _effects_ok(
    file: str, card: str, where: str, effects: Iterable[Effect], allowed: set[str]
) -> None:
    for effect in effects:
        if effect.op not in allowed:
            raise CardDataError(
                file,
                card,
                where,
                f"effect '{effect.op}' is not allowed here; allowed: " + ", ".join(sorted(allowed)),
            )


_PLAIN_OPS = set(get_args(Op)) - {"modify", "negate"}
"""Ops a persona's skill or ability effects may use: damage changes (modify, negate)
belong to Reacts and Supports, and to abilities' attack/defend modes."""


def build_card_set(paths: Sequence[Path | str] = ()) -> CardSet:
    """Built-in files, then ``paths`` (extend by id, or replace with ``[set] mode``)."""
    builtin = load_card_files([DATA_DIR])
    extra = load_card_files(paths) if paths else []
    players: list[PlayerCard] = []
    personas: list[Persona] = []
    supports: list[Support] = []
    reacts: list[React] = []
    digest = hashlib.sha256()
    for file in [*builtin, *extra]:
        pl, pe, su, re_ = _validate_file(file)
        if file.mode == "replace":
            players, personas, supports, reacts = pl, pe, su, re_
        else:
            players = merge_by_id(players, pl, file.path)
            personas = merge_by_id(personas, pe, file.path)
            supports = merge_by_id(supports, su, file.path)
            reacts = merge_by_id(reacts, re_, file.path)
        digest.update(file.digest.encode())
        for persona in pe:
            for skill in persona.skills:
                _effects_ok(
                    file.path, persona.id, f"skills.{skill.name}", skill.effects, _PLAIN_OPS
                )
            for ability in persona.abilities:
                _effects_ok(
                    file.path, persona.id, f"abilities.{ability.name}", ability.effects, _PLAIN_OPS
                )
    label = extra[-1].path if extra else builtin[-1].path
    _cross_check(label, players, personas, supports, reacts)
    return CardSet(players, personas, supports, reacts, digest.hexdigest())


def _cross_check(
    label: str,
    players: list[PlayerCard],
    personas: list[Persona],
    supports: list[Support],
    reacts: list[React],
) -> None:
    """Ids unique across sections; starters and named extra costs point at real personas."""
    seen: dict[str, str] = {}
    for section, cards in (("persona", personas), ("support", supports), ("react", reacts)):
        for card in cards:
            if card.id in seen:
                raise CardDataError(label, card.id, "id", f"id used by a {seen[card.id]} as well")
            seen[card.id] = section
    by_id = {p.id: p for p in personas}
    names = {p.name for p in personas}
    for player in players:
        starter = by_id.get(player.starter)
        if starter is None:
            raise CardDataError(
                label, player.id, "starter", f"no persona with id '{player.starter}'"
            )
        if not starter.starter:
            raise CardDataError(
                label,
                player.id,
                "starter",
                f"persona '{starter.id}' has no VS mark (starter = true)",
            )
    for persona in personas:
        if persona.extra_cost_name is not None and persona.extra_cost_name not in names:
            raise CardDataError(
                label,
                persona.id,
                "extra_cost_name",
                f"no persona is named '{persona.extra_cost_name}'",
            )
    if not players:
        raise CardDataError(label, None, "player", "the card set has no player cards")


# --- card text --------------------------------------------------------------------------

_PERSONA_WORDS = {
    ("self", "main"): N_("a main persona"),
    ("self", "sub"): N_("a sub-persona"),
    ("self", "any"): N_("a persona"),
    ("opponent", "main"): N_("an opposing main persona"),
    ("opponent", "sub"): N_("an opposing sub-persona"),
    ("opponent", "any"): N_("an opposing persona"),
}
_KIND_WORDS = {
    "any": N_("card"),
    "persona": N_("persona card"),
    "support": N_("support card"),
    "react": N_("react card"),
}


def effect_text(effect: Effect, context: str = "") -> str:
    """One effect in words, in the language spoken (``context`` is 'react' or 'support'
    for modify)."""
    n = effect.amount
    mine = effect.who == "self"
    op = effect.op
    if op == "heal":
        text = (_("you heal {n} HP") if mine else _("your opponent heals {n} HP")).format(n=n)
    elif op == "damage":
        text = (_("you lose {n} HP") if mine else _("your opponent loses {n} HP")).format(n=n)
    elif op == "draw":
        if mine:
            text = ngettext("you draw {n} card", "you draw {n} cards", n).format(n=n)
        else:
            text = ngettext(
                "your opponent draws {n} card", "your opponent draws {n} cards", n
            ).format(n=n)
    elif op == "discard":
        if mine:
            text = ngettext(
                "discard {n} card of your choice", "discard {n} cards of your choice", n
            ).format(n=n)
        else:
            text = ngettext(
                "your opponent discards {n} card of their choice",
                "your opponent discards {n} cards of their choice",
                n,
            ).format(n=n)
    elif op == "discard_random":
        if mine:
            text = ngettext(
                "you discard {n} random card", "you discard {n} random cards", n
            ).format(n=n)
        else:
            text = ngettext(
                "your opponent discards {n} random card",
                "your opponent discards {n} random cards",
                n,
            ).format(n=n)
    elif op in ("bounce", "destroy"):
        persona = _(_PERSONA_WORDS[effect.who, effect.slot])
        if op == "bounce":
            text = _("return {persona} to its owner's hand").format(persona=persona)
        else:
            text = _("send {persona} to the discard pile").format(persona=persona)
    elif op == "swap":
        text = (
            _("swap your main persona with one of your subs")
            if mine
            else _("swap your opponent's main persona with one of their subs")
        )
    elif op == "negate":
        text = _("negate the skill's damage")
    elif op in ("search", "recover"):
        kind = _(_KIND_WORDS.get(effect.kind, _KIND_WORDS["any"]))
        if op == "search":
            text = _("search your deck for a {kind}, put it into your hand and shuffle")
        else:
            text = _("return a {kind} from your discard pile to your hand")
        text = text.format(kind=kind)
    else:
        text = _modify_text(effect.mode, n, context)
    if effect.if_weakness:
        text = _("if it hit a weakness: {text}").format(text=text)
    return text


def _change(mode: str, n: int, rounding: bool) -> str:
    """A damage change: "+2 damage", "x2 damage", "half damage (round down)"."""
    if mode == "add":
        return _("{n} damage").format(n=f"{n:+d}")
    if mode == "mul":
        return _("x{n} damage").format(n=n)
    return _("half damage (round down)") if rounding else _("half damage")


def _modify_text(mode: str, n: int, context: str) -> str:
    change = _change(mode, n, rounding=True)
    if context == "support":
        return _("your skills deal {change} this turn").format(change=change)
    return _("the skill deals {change}").format(change=change)


def _effects_text(effects: Iterable[Effect], context: str = "") -> str:
    parts = [effect_text(e, context) for e in effects]
    if not parts:
        return ""
    text = _("; ").join(parts)
    return text[0].upper() + text[1:] + _(".")


def ability_text(ability: Ability) -> str:
    """An ability in words (its name, an ASCII ": ", what it does), in the language spoken."""
    kind = _(ability.skill_type.capitalize()) if ability.skill_type else ""
    change = _change(ability.mode, ability.amount, rounding=False)
    if ability.trigger == "attack":
        if kind:
            text = _("{name}: your {type} skills deal {change}.")
        else:
            text = _("{name}: your skills deal {change}.")
        return text.format(name=ability.name, type=kind, change=change)
    if ability.trigger == "defend":
        if kind:
            text = _("{name}: {type} skills against you deal {change}.")
        else:
            text = _("{name}: skills against you deal {change}.")
        return text.format(name=ability.name, type=kind, change=change)
    effects = _("; ").join(effect_text(e) for e in ability.effects)
    return _("{name}: when played, {effects}.").format(name=ability.name, effects=effects)


def skill_text(skill: Skill) -> str:
    rest = _effects_text(skill.effects)
    return f"[{skill.type.capitalize()}] {skill.name} {skill.damage}" + (
        f" — {rest}" if rest else ""
    )


def card_text(card: AnyCard) -> str:
    """The full rules text of a card, generated from its data."""
    if isinstance(card, Persona):
        head = f"Cost {card.cost}, weak to {card.weakness or 'nothing'}"
        if card.starter:
            head += ", VS starter"
        if card.extra_cost_name:
            head += (
                f"; also discard a persona named {card.extra_cost_name}"
                " (hand or field, even from a stack)"
            )
        parts = [head + "."]
        parts += [ability_text(a) for a in card.abilities]
        parts += [skill_text(s) for s in card.skills]
        return " ".join(parts)
    if isinstance(card, Support):
        text = _effects_text(card.effects, "support")
        if card.lowhp:
            text += " [10 HP or less] " + _effects_text(card.lowhp, "support")
        return text
    timing = f"React ({card.timing}"
    timing += f", against {card.vs_type.capitalize()} skills)" if card.vs_type else ")"
    text = f"{timing}: " + _effects_text(card.effects, "react")
    if card.lowhp:
        text += " [10 HP or less] " + _effects_text(card.lowhp, "react")
    return text


def card_rows(game: VsGame) -> list[tuple[str, str, str, str]]:
    """(kind, id, name, text) for every card, player cards first (``velvet cards list``)."""
    rows: list[tuple[str, str, str, str]] = [
        ("player", p.id, p.name, f"starter: {game.card(p.starter).name} ({p.starter})")
        for p in game.cards.players
    ]
    for card in game.all_cards:
        kind = (
            "persona"
            if isinstance(card, Persona)
            else "support"
            if isinstance(card, Support)
            else "react"
        )
        rows.append((kind, card.id, card.name, card_text(card)))
    return rows


def card_list_markdown(game: VsGame) -> str:
    """The whole card list as Markdown (docs/vs-cards.md is generated from it)."""
    lines = [
        "# Persona VS cards",
        "",
        "Generated by `velvet.vs.cards.card_list_markdown`; names come from the games, "
        "numbers and texts are Velvet's own design.",
        "",
        "| kind | id | name | text |",
        "| --- | --- | --- | --- |",
    ]
    for kind, ident, name, text in card_rows(game):
        lines.append(f"| {kind} | {ident} | {name} | {text.replace('|', '/')} |")
    return "\n".join(lines) + "\n"


def check_card_files(paths: Sequence[Path | str]) -> str:
    """Validate custom card files with the built-in set they extend; a one-line summary."""
    from velvet.vs.game import VsGame

    game = VsGame(build_card_set(paths))
    return (
        f"ok: {len(game.cards.players)} player cards, {len(game.cards.personas)} personas, "
        f"{len(game.cards.supports)} supports, {len(game.cards.reacts)} reacts "
        f"(card set {game.cardset_hash()[:12]})"
    )
