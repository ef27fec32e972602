"""Persona VS in words: action labels, event sentences and card descriptions.

Every front end shows these (``VsState.action_label``, ``VsGame.event_text``,
``VsGame.describe_card``), so no front end formats a card id or a slot code.
Seats are named as people number them, "Player 1" and "Player 2".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, get_args

from velvet.engine.core import CardInfo, Event
from velvet.engine.errors import ConfigError
from velvet.i18n import N_, _, ngettext, seat_name
from velvet.vs import actions as A
from velvet.vs.cards import (
    Ability,
    Effect,
    Persona,
    React,
    Skill,
    Support,
    ability_text,
    effect_text,
)

if TYPE_CHECKING:
    from velvet.vs.game import VsGame
    from velvet.vs.state import VsState

SLOT_WORDS = (N_("main"), N_("sub"), N_("sub"))
"""A slot as people say it; a player's two subs are told apart by their names."""
TYPE_WORDS = {
    "physical": N_("physical"),
    "fire": N_("fire"),
    "ice": N_("ice"),
    "electric": N_("electric"),
    "wind": N_("wind"),
}
"""A skill's damage type as people say it (the card data's words)."""


def _slot(slot: int) -> str:
    return _(SLOT_WORDS[slot])


def _type(word: str) -> str:
    return _(TYPE_WORDS[word]) if word in TYPE_WORDS else word


# --- names -----------------------------------------------------------------------------


def card_name(game: VsGame, ident: str) -> str:
    """A card's name; cards of one name in a custom set are told apart by a number."""
    if ident in game.players:
        return game.players[ident].name
    if ident not in game.index:
        return _("an unknown card")
    name = game.card(ident).name
    same = game.by_name.get(name.casefold(), [ident])
    if len(same) > 1:
        return _("{name} (version {number})").format(name=name, number=same.index(ident) + 1)
    return name


def _name(game: VsGame, c: int) -> str:
    return card_name(game, game.ids[c])


def mod_text(mode: str, amount: int) -> str:
    """A damage modifier: "+2", "-1", "x2", "halved"."""
    if mode == "add":
        return f"{amount:+d}"
    if mode == "mul":
        return f"x{amount}"
    return _("halved")


def _persona(state: VsState, p: int, slot: int, viewer: int) -> str:
    """ "your main Pixie", "Player 2's sub Kelpie" or "your empty sub slot"."""
    stack = state.field[p][slot]
    word = _slot(slot)
    if not stack:
        if p == viewer:
            return _("your empty {slot} slot").format(slot=word)
        return _("{player}'s empty {slot} slot").format(player=seat_name(p), slot=word)
    name = _name(state.game, stack[-1])
    if p == viewer:
        return _("your {slot} {name}").format(slot=word, name=name)
    return _("{player}'s {slot} {name}").format(player=seat_name(p), slot=word, name=name)


def _under(state: VsState, p: int, slot: int) -> str:
    n = len(state.field[p][slot]) - 1
    if n <= 0:
        return ""
    return ngettext(" (and the card under it)", " (and the {n} cards under it)", n).format(n=n)


def _cost(game: VsGame, c: int) -> str:
    cost = game.cost[c]
    text = _("cost {cost}").format(cost=cost) if cost else _("free")
    if game.extra[c] >= 0:
        named = game.names[game.extra[c]]
        text = _("{cost} and a persona named {name}").format(cost=text, name=named)
    return text


# --- action labels ------------------------------------------------------------------------


_CardAction = (
    A.Summon
    | A.Fuse
    | A.PlaySupport
    | A.DeclareSkill
    | A.PlayReact
    | A.PayHand
    | A.PayStack
    | A.Discard
    | A.Search
    | A.Recover
)
"""The actions that name a card by id."""
_CARD_ACTIONS = get_args(_CardAction)


def _card_of(action: A.VsAction) -> str | None:
    """The card id ``action`` names, or None for one that names no card."""
    return action.card if isinstance(action, _CARD_ACTIONS) else None


def action_label(state: VsState, action: A.VsAction) -> str:
    """What the deciding player reads for ``action`` in ``state``."""
    g = state.game
    card = _card_of(action)
    if card is not None and card not in g.index:
        return str(action)
    try:
        return _label(state, action)
    except (IndexError, KeyError, ValueError, AttributeError):
        return _plain_label(g, action)


def _plain_label(g: VsGame, action: A.VsAction) -> str:
    """A label that needs no position (for an action that is not legal now)."""
    card = _card_of(action)
    name = card_name(g, card) if card is not None else ""
    match action:
        case A.Summon():
            return _("Summon {name}").format(name=name)
        case A.Fuse():
            return _("Fuse {name}").format(name=name)
        case A.Change(slot=slot):
            return _("Change your main with your {slot}").format(slot=_slot(slot))
        case A.PlaySupport():
            return _("Play the Support {name}").format(name=name)
        case A.DeclareSkill():
            return _("Use a skill of {name}").format(name=name)
        case A.PlayReact():
            return _("React with {name}").format(name=name)
        case A.PayHand():
            return _("Pay with {name} from your hand").format(name=name)
        case A.PayField(slot=slot):
            return _("Pay with your {slot} persona").format(slot=_slot(slot))
        case A.PayStack():
            return _("Pay with {name} from a fused stack").format(name=name)
        case A.Promote(slot=slot):
            return _("Make your {slot} the new main").format(slot=_slot(slot))
        case A.Target(player=player, slot=slot):
            return _("Choose {player}'s {slot}").format(player=seat_name(player), slot=_slot(slot))
        case A.Discard():
            return _("Discard {name}").format(name=name)
        case A.Search():
            return _("Take {name} from your deck").format(name=name)
        case A.Recover():
            return _("Take {name} back from your discard pile").format(name=name)
        case A.First(index=index):
            return _("Apply damage modifier {number} next").format(number=index + 1)
    simple = _SIMPLE.get(type(action))
    return _(simple) if simple is not None else str(action)


_SIMPLE: dict[type[A.VsAction], str] = {
    A.EndPlanning: N_("End the Planning Step"),
    A.NoSkill: N_("Declare no skill (end the Skill Step)"),
    A.Pass: N_("Play no React"),
}


def _label(state: VsState, action: A.VsAction) -> str:
    from velvet.vs.state import OP_BOUNCE, OP_DESTROY, PayFrame, TargetFrame

    g = state.game
    simple = _SIMPLE.get(type(action))
    if simple is not None:
        return _(simple)
    me = state.current_player
    match action:
        case A.Summon(card=card):
            c = g.index[card]
            return _("Summon {name} ({cost})").format(name=_name(g, c), cost=_cost(g, c))
        case A.Fuse(card=card, slots=slots):
            c = g.index[card]
            onto = ""
            for s in range(3):
                if slots >> s & 1:
                    one = _persona(state, me, s, me)
                    onto = _("{a} and {b}").format(a=onto, b=one) if onto else one
            return _("Fuse {name} onto {onto} ({cost})").format(
                name=_name(g, c), onto=onto, cost=_cost(g, c)
            )
        case A.Change(slot=slot):
            main = state.field[me][0]
            return _("Change: {persona} becomes the main, {name} a sub").format(
                persona=_persona(state, me, slot, me), name=_name(g, main[-1])
            )
        case A.PlaySupport(card=card):
            return _("Play the Support {name}").format(name=card_name(g, card))
        case A.PlayReact(card=card):
            return _("React with {name}").format(name=card_name(g, card))
        case A.DeclareSkill():
            return _skill_label(state, action, me)
        case A.Promote(slot=slot):
            return _("Make {persona} the new main").format(persona=_persona(state, me, slot, me))
        case A.Discard(card=card):
            return _("Discard {name} from your hand").format(name=card_name(g, card))
        case A.Search(card=card):
            return _("Take {name} from your deck into your hand").format(name=card_name(g, card))
        case A.Recover(card=card):
            return _("Take {name} from your discard pile into your hand").format(
                name=card_name(g, card)
            )
        case A.First(index=index):
            return _first_label(state, index)
    frame = state.frames[-1] if state.frames else None
    if isinstance(action, A.Target) and type(frame) is TargetFrame:
        op, who = frame.op, action.player
        chosen = _persona(state, who, action.slot, me)
        under = _under(state, who, action.slot)
        if op == OP_BOUNCE:
            return _("Return {persona}{under} to its owner's hand").format(
                persona=chosen, under=under
            )
        if op == OP_DESTROY:
            return _("Send {persona}{under} to the discard pile").format(
                persona=chosen, under=under
            )
        return _("Swap {main} with {persona}").format(
            main=_persona(state, who, 0, me), persona=chosen
        )
    if type(frame) is PayFrame:
        _frame, c, _paid, left, extra = frame
        if extra >= 0:
            why = _("as the named cost of {name}").format(name=_name(g, c))
        else:
            why = _("to pay for {name} ({left} left to pay)").format(name=_name(g, c), left=left)
        if isinstance(action, A.PayHand):
            return _("Discard {name} from your hand {why}").format(
                name=card_name(g, action.card), why=why
            )
        if isinstance(action, A.PayField):
            return _("Send {persona}{under} to the discard pile {why}").format(
                persona=_persona(state, me, action.slot, me),
                under=_under(state, me, action.slot),
                why=why,
            )
        if isinstance(action, A.PayStack):
            stack = state.field[me][action.slot]
            x = g.index[action.card]
            if stack[-1] == x:
                return _(
                    "Remove {name} from the top of your {slot} stack, leaving {below} as "
                    "the persona, {why}"
                ).format(
                    name=_name(g, x), slot=_slot(action.slot), below=_name(g, stack[-2]), why=why
                )
            return _("Remove {name} from under {persona} {why}").format(
                name=_name(g, x), persona=_persona(state, me, action.slot, me), why=why
            )
    return _plain_label(g, action)


def _skill_label(state: VsState, action: A.DeclareSkill, me: int) -> str:
    g = state.game
    c = g.index[action.card]
    skill = _skill(g, c, action.index)
    stack = state.field[me][action.slot]
    if stack and stack[-1] == c:
        owner = _persona(state, me, action.slot, me)
    else:
        owner = _("{name} under {persona}").format(
            name=_name(g, c), persona=_persona(state, me, action.slot, me)
        )
    words = {
        "skill": skill.name,
        "type": _type(skill.type),
        "damage": skill.damage,
        "owner": owner,
    }
    rival = 1 - me
    main = state.field[rival][0]
    if not main:
        return _("Use {skill} ({type}, {damage} damage) of {owner}").format(**words)
    target = _persona(state, rival, 0, me)
    if g.weak[main[-1]] == g.skills[c][action.index][0]:
        return _(
            "Use {skill} ({type}, {damage} damage) of {owner} on {target}, its weakness"
        ).format(target=target, **words)
    return _("Use {skill} ({type}, {damage} damage) of {owner} on {target}").format(
        target=target, **words
    )


def _first_label(state: VsState, index: int) -> str:
    from velvet.vs.state import apply_mod

    g = state.game
    mode, amount = sorted(set(state.mods))[index]
    modes = ("add", "mul", "half")
    after = apply_mod(state.dmg, mode, amount)
    sources = sorted(
        {
            _source_text(g, g.ids[x], why)
            for m, a, x, why in state.mod_sources()
            if (m, a) == (mode, amount)
        }
    )
    words = {"mod": mod_text(modes[mode], amount), "before": state.dmg, "after": after}
    if sources:
        return _("Apply {mod} from {sources} next (damage {before} → {after})").format(
            sources=", ".join(sources), **words
        )
    return _("Apply {mod} next (damage {before} → {after})").format(**words)


def _source_text(g: VsGame, ident: str, kind: str) -> str:
    """ "Fire Boost of Jack-o'-Lantern", "the Support Desperado", "the React Tetrakarn"."""
    if kind == "support":
        return _("the Support {card}").format(card=card_name(g, ident))
    if kind == "react":
        return _("the React {card}").format(card=card_name(g, ident))
    if not ident:
        return _("an effect")
    card = g.card(ident)
    abilities = card.abilities if isinstance(card, Persona) else ()
    names = [a.name for a in abilities if a.trigger == kind]
    ability = names[0] if len(set(names)) == 1 else _("an ability")
    return _("{ability} of {card}").format(ability=ability, card=card_name(g, ident))


def _skill(g: VsGame, c: int, k: int) -> Skill:
    card = g.all_cards[c]
    if not isinstance(card, Persona):
        raise ValueError(f"{card.name} has no skills")
    return card.skills[k]


# --- board refs -------------------------------------------------------------------------

REF_KINDS = ("hand", "field", "stack", "deck", "discard", "player")
"""The things a VS board draws and an action can name (docs/web.md):
``hand:<index>`` a card of the deciding player's hand (0-based, in view order);
``field:<seat>:<slot>`` the persona on top of a slot (0 main, 1 and 2 subs);
``stack:<seat>:<slot>:<depth>`` one card of a slot's stack (0 is the base);
``deck:<seat>``, ``discard:<seat>`` a player's piles; ``player:<seat>`` a player."""


def action_targets(state: VsState, action: A.VsAction) -> tuple[str, ...]:
    """The refs of what ``action`` acts on, for the deciding player (``Game.action_targets``)."""
    g = state.game
    me = state.current_player
    if me not in (0, 1):
        return ()
    match action:
        case A.Summon() | A.Fuse() | A.PlaySupport() | A.PlayReact() | A.PayHand() | A.Discard():
            c = g.index.get(action.card, -1)
            return tuple(f"hand:{i}" for i, x in enumerate(state.hand[me]) if x == c)
        case A.Change(slot=slot) | A.Promote(slot=slot) | A.PayField(slot=slot):
            return (f"field:{me}:{slot}",)
        case A.Target(player=player, slot=slot):
            return (f"field:{player}:{slot}",)
        case A.DeclareSkill(slot=slot, card=card):
            stack = state.field[me][slot]
            c = g.index.get(card, -1)
            if stack and stack[-1] == c:
                return (f"field:{me}:{slot}",)
            return tuple(f"stack:{me}:{slot}:{d}" for d, x in enumerate(stack) if x == c)
        case A.PayStack(slot=slot, card=card):
            stack = state.field[me][slot]
            c = g.index.get(card, -1)
            return tuple(f"stack:{me}:{slot}:{d}" for d, x in enumerate(stack) if x == c)
        case A.Search():
            return (f"deck:{me}",)
        case A.Recover():
            return (f"discard:{me}",)
    return ()


# --- event sentences ------------------------------------------------------------------------


def event_text(game: VsGame, event: Event) -> str:
    """A sentence for ``event``, with card names and seats as "Player 1"/"Player 2"."""
    d = event.data
    k = event.kind
    who = seat_name(int(d["player"])) if "player" in d else ""

    def name(key: str = "card") -> str:
        return card_name(game, str(d.get(key, "")))

    def slot(key: str = "slot") -> str:
        word = str(d.get(key, "m"))
        return SLOT_WORDS[A.SLOT_NAMES.index(word)] if word in A.SLOT_NAMES else word

    def under() -> str:
        n = len(d.get("under") or [])
        if not n:
            return ""
        return ngettext(
            "; the {n} card under it goes to the discard pile",
            "; the {n} cards under it go to the discard pile",
            n,
        ).format(n=n)

    def where(key: str = "slot") -> str:
        return _(slot(key))

    if k == "turn":
        return _("Turn {turn}: {who}'s turn begins.").format(turn=d["turn"], who=who)
    if k == "step":
        if d.get("step") == "1 more":
            return _("1 more: {who}'s Skill Step starts again.").format(who=who)
        return _("{who} ends the Planning Step; the Skill Step begins.").format(who=who)
    if k == "play":
        how = str(d.get("as", "summon"))
        if how == "summon":
            return _("{who} plays {card} from hand to summon it.").format(who=who, card=name())
        onto = [card_name(game, str(x)) for x in d.get("onto", [])]
        return _("{who} plays {card} from hand to fuse it onto {onto}.").format(
            who=who, card=name(), onto=_and(onto) or _("their field")
        )
    if k == "pay":
        src = str(d.get("from", "hand"))
        paid = _(" for {card}").format(card=name("for")) if "for" in d else ""
        if src == "hand":
            return _("{who} discards {card} from hand to pay{paid}.").format(
                who=who, card=name(), paid=paid
            )
        return _("{who} removes {card} from the stack of their {slot} to pay{paid}.").format(
            who=who, card=name(), slot=where(), paid=paid
        )
    if k == "pay_field":
        said = _("{who} sends their {slot} {card} to the discard pile to pay a cost{under}.")
        return said.format(who=who, slot=where(), card=name(), under=under())
    if k == "summon":
        return _("{who} summons {card} as their {slot} persona.").format(
            who=who, card=name(), slot=_(slot())
        )
    if k == "fuse":
        stack = [card_name(game, str(x)) for x in d.get("stack", [])][:-1]
        return _("{who} fuses {card} over {stack}: it is their {slot} persona.").format(
            who=who, card=name(), stack=_and(stack), slot=where()
        )
    if k == "change":
        sub = _(", {card} goes to sub").format(card=name("sub")) if "sub" in d else ""
        return _("{who} changes: {card} is now their main{sub}.").format(
            who=who, card=name("main"), sub=sub
        )
    if k == "support":
        low = _(" (its 10 HP or less box)") if d.get("lowhp") else ""
        return _("{who} plays the Support {card}{low}.").format(who=who, card=name(), low=low)
    if k == "react":
        low = _(" (its 10 HP or less box)") if d.get("lowhp") else ""
        return _("{who} answers with the React {card}{low}.").format(who=who, card=name(), low=low)
    if k == "pass":
        return _("{who} plays no React.").format(who=who)
    if k == "skill":
        whose = _("their {slot} {card}").format(slot=where(), card=name())
        if d.get("top", d.get("card")) != d.get("card"):  # a card fused under the stack's top
            whose = _("{card}, fused under their {slot} {top}").format(
                card=name(), slot=where(), top=name("top")
            )
        return _("{who} declares {skill} ({type}, {damage} damage) of {whose}.").format(
            who=who, skill=d["skill"], type=_type(str(d["type"])), damage=d["damage"], whose=whose
        )
    if k == "noskill":
        if d.get("reason"):
            return _("{who} has no persona and skips the Skill Step.").format(who=who)
        return _("{who} declares no skill.").format(who=who)
    if k == "modifier":
        change = mod_text(str(d["mode"]), int(d["amount"]))
        if d.get("from") == "react":
            said = _("{who}'s React {card} changes this skill: {change} damage.")
        else:
            said = _("{who}'s Support {card} changes their skills this turn: {change} damage.")
        return said.format(who=who, card=name(), change=change)
    if k == "negate":
        return _("{card} of {who} negates the skill's damage.").format(card=name(), who=who)
    if k == "modify":
        src = ""
        if d.get("source"):
            src = _(" ({source})").format(
                source=_source_text(game, str(d["source"]), str(d.get("from", "")))
            )
        return _("Applied {change}{source}: the damage is now {damage}.").format(
            change=mod_text(str(d["mode"]), int(d["amount"])), source=src, damage=d["damage"]
        )
    if k == "damage":
        return _damage_text(game, d, who)
    if k == "no_damage":
        why = _(" (negated)") if d.get("negated") else ""
        return _("The skill deals no damage to {who}{why}{how}.").format(
            who=who, why=why, how=_how(game, d)
        )
    if k == "heal":
        of = _(" from {card}").format(card=name()) if d.get("card") else ""
        return _("{who} heals {amount} HP{of} (HP {hp}).").format(
            who=who, amount=d["amount"], of=of, hp=d["hp"]
        )
    if k == "weakness":
        return _("It hit the weakness of {who}'s main {card}.").format(who=who, card=name())
    if k == "one_more":
        return _("1 MORE! {who} hit a weakness and may declare another skill.").format(who=who)
    if k == "draw":
        return _("{who} draws {cards}.").format(who=who, cards=_count(int(d["count"])))
    if k == "discard":
        if d.get("random"):
            return _("{who} discards {card} at random.").format(who=who, card=name())
        return _("{who} discards {card}.").format(who=who, card=name())
    if k == "search":
        if "card" not in d:  # as another seat sees it (VsGame.event_for)
            return _("{who} takes a card from their deck into their hand.").format(who=who)
        return _("{who} takes {card} from their deck into hand and shuffles the deck.").format(
            who=who, card=name()
        )
    if k == "recover":
        return _("{who} takes {card} from their discard pile back into hand.").format(
            who=who, card=name()
        )
    if k == "promote":
        return _("{who} promotes their sub {card} to main.").format(who=who, card=name())
    if k == "bounce":
        return _("{who}'s {slot} {card} returns to their hand{under}.").format(
            who=who, slot=where(), card=name(), under=under()
        )
    if k == "destroy":
        return _("{who}'s {slot} {card} is sent to the discard pile{under}.").format(
            who=who, slot=where(), card=name(), under=under()
        )
    if k == "swap":
        return _("{who}'s main and sub swap: {card} is now their main.").format(
            who=who, card=name("main")
        )
    if k == "fizzle":
        reason = str(d.get("reason", "no target"))
        effect = str(d.get("effect", "effect"))
        if d.get("card"):
            said = _("{who}'s {card}: its {effect} effect does nothing ({reason}).")
        else:
            said = _("An {effect} effect does nothing ({reason}).")
        return said.format(who=who, card=name(), effect=effect, reason=reason)
    if k == "game_over":
        winner = int(d["winner"])
        if winner not in (0, 1):
            return _("The game ends in a draw ({reason}).").format(
                reason=d.get("reason", "turn cap")
            )
        loser = seat_name(1 - winner)
        why = {
            "hp": _("{loser}'s HP reached 0").format(loser=loser),
            "deck": _("{loser} could not draw in the Draw Step").format(loser=loser),
        }.get(str(d.get("reason")), str(d.get("reason")))
        return _("{winner} wins: {why}.").format(winner=seat_name(winner), why=why)
    return str(event)


def _count(n: int) -> str:
    return _("1 card") if n == 1 else _("{n} cards").format(n=n)


def _and(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return _("{some} and {last}").format(some=_(", ").join(words[:-1]), last=words[-1])


def _how(game: VsGame, d: Mapping[str, Any]) -> str:
    """ " from Agi of Pixie (base 2, +2 Fire Boost of Jack-o'-Lantern → 4)" for a skill."""
    if "skill" not in d or "base" not in d:
        return ""
    text = _(" from {skill} of {card}").format(
        skill=d["skill"], card=card_name(game, str(d.get("card", "")))
    )
    steps = d.get("steps") or []
    if not steps:
        return text
    parts = [_("base {base}").format(base=d["base"])]
    for mode, amount, source, kind, after in steps:
        src = _source_text(game, str(source), str(kind))
        parts.append(f"{mod_text(str(mode), int(amount))} {src} → {after}")
    return _("{text} ({steps})").format(text=text, steps=_(", ").join(parts))


def _damage_text(game: VsGame, d: Mapping[str, Any], who: str) -> str:
    amount = int(d["amount"])
    if d.get("source") == "skill":
        text = _("{who} takes {amount} damage{how}").format(
            who=who, amount=amount, how=_how(game, d)
        )
    else:
        of = _(" from {card}").format(card=card_name(game, str(d["card"]))) if d.get("card") else ""
        text = _("{who} loses {amount} HP{of}").format(who=who, amount=amount, of=of)
    excess = int(d.get("excess", 0))
    if excess:
        text += _("; HP stops at 0 and {excess} more is lost").format(excess=excess)
    return _("{text} (HP {hp}).").format(text=text, hp=d["hp"])


# --- card descriptions -----------------------------------------------------------------------


def describe_card(game: VsGame, ident: str) -> CardInfo:
    """A card in words and as data; raises ConfigError for an unknown id."""
    if not isinstance(ident, str):
        raise ConfigError(f"card id must be text, not {ident!r}")
    if ident in game.players:
        pc = game.players[ident]
        return CardInfo(
            pc.id,
            pc.name,
            "player",
            (f"Starter: {card_name(game, pc.starter)}", "Starts at 30 HP with a 40-card deck"),
            pc.model_dump(mode="json"),
        )
    if ident not in game.index:
        raise ConfigError(f"no Persona VS card with id '{ident}'")
    card = game.card(ident)
    data: dict[str, Any] = card.model_dump(mode="json")
    if isinstance(card, Persona):
        return CardInfo(card.id, card.name, "persona", _persona_lines(card), data)
    if isinstance(card, Support):
        lines = ["Support: play it in your Planning Step", _effects(card.effects, "support")]
        if card.lowhp:
            lines.append(
                _("10 HP or less: {effects}").format(effects=_effects(card.lowhp, "support"))
            )
        return CardInfo(card.id, card.name, "support", tuple(lines), data)
    return CardInfo(card.id, card.name, "react", _react_lines(card), data)


def _effects(effects: Sequence[Effect], context: str = "") -> str:
    text = _("; ").join(effect_text(e, context) for e in effects)
    return text[:1].upper() + text[1:] + _(".")


def _persona_lines(card: Persona) -> tuple[str, ...]:
    cost = f"Cost {card.cost}"
    if card.extra_cost_name:
        cost += (
            f", plus a persona named {card.extra_cost_name} from hand or field "
            "(even from inside a fused stack)"
        )
    lines = [cost]
    lines.append(f"Weakness: {card.weakness}" if card.weakness else "No weakness")
    if card.starter:
        lines.append("VS starter")
    lines += [_skill_line(s) for s in card.skills]
    lines += [_ability_line(a) for a in card.abilities]
    return tuple(lines)


def _skill_line(skill: Skill) -> str:
    text = f"Skill {skill.name}: {skill.type}, {skill.damage} damage"
    if skill.effects:
        text += "; then " + "; ".join(effect_text(e) for e in skill.effects)
    return text + "."


def _ability_line(ability: Ability) -> str:
    return "Ability " + ability_text(ability)


def _react_lines(card: React) -> tuple[str, ...]:
    when = "when a skill is declared" if card.timing == "declaration" else "after it resolves"
    against = f", against {card.vs_type} skills only" if card.vs_type else ""
    lines = [f"React: play it {when}{against}", _effects(card.effects, "react")]
    if card.lowhp:
        lines.append(_("10 HP or less: {effects}").format(effects=_effects(card.lowhp, "react")))
    return tuple(lines)
