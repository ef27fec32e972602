"""Terminal rendering of a Persona VS view (never the true state).

``render`` draws both players' HP, fields with their fusion stacks, pile
sizes, the viewer's own hand with full card text, the step and the pending
decision. It works from ``view(player)`` only, so the opponent's hand cannot
be shown: the view does not hold it. Every word about cards, actions and
events comes from the game (``describe_card``, ``action_label``, ``event_text``).
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from velvet.engine.core import Event
from velvet.i18n import N_, _, localize, ngettext
from velvet.i18n import seat_name as player_name
from velvet.vs.game import MODES, VsGame, load_vs_game
from velvet.vs.state import VsState
from velvet.vs.views import VsView
from velvet.vs.words import card_name, mod_text

HIDES_HANDS = True

STEP_LABELS = {
    "planning": N_("Planning Step"),
    "declare": N_("Skill Step — declare a skill"),
    "react-declaration": N_("Skill Step — declaration React window"),
    "resolve": N_("Skill Step — resolution"),
    "order": N_("Skill Step — ordering damage modifiers"),
    "react-resolution": N_("Skill Step — resolution React window"),
    "end-skill": N_("Skill Step — end"),
    "over": N_("Game over"),
}
SLOT_LABELS = (N_("main"), N_("sub 1"), N_("sub 2"))
PENDING = {
    "pay": N_("pay a cost (choose the cards)"),
    "promote": N_("choose a sub to become the new main"),
    "target": N_("choose a target"),
    "discard": N_("choose a card to discard"),
    "search": N_("choose a card from the deck"),
    "recover": N_("choose a card from the discard pile"),
}


def pending_text(view: VsView, game: VsGame | None = None) -> str:
    """Who decides what, in words."""
    if view["winner"] != -1:
        return _("nobody: the game is over")
    who = player_name(view["current_player"])
    if view["frames"]:
        frame = view["frames"][-1]
        kind = frame[0]
        text = _("{who} must {what}").format(who=who, what=_(PENDING.get(kind, kind)))
        if kind == "pay" and game is not None:
            card, left, extra = frame[2], frame[4], frame[5]
            name = localize(card_name(game, card), game.name)
            text += _(" for {card}: {left} left").format(card=name, left=left)
            if extra:
                text += _(", first a persona named {name}").format(name=localize(extra, game.name))
        return text
    step = view["step"]
    if step == "planning":
        return _("{who} plans (summon, fuse, change, supports) or ends the step").format(who=who)
    if step == "declare":
        return _("{who} declares a skill or none").format(who=who)
    if step.startswith("react"):
        return _("{who} (defending) may play one React or pass").format(who=who)
    if step == "order":
        return _("{who} orders the damage modifiers").format(who=who)
    return _("{who} to act").format(who=who)


def _player_panel(view: VsView, game: VsGame, p: int) -> Panel:
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    hp = view["hp"][p]
    table.add_row(_("HP"), Text(str(hp), style="bold red" if hp <= 10 else "bold green"))
    for slot, stack in enumerate(view["field"][p]):
        table.add_row(_(SLOT_LABELS[slot]), Text(_persona_words(game, stack) if stack else "—"))
    table.add_row(_("hand"), _cards(view["hand_sizes"][p]))
    table.add_row(_("deck"), _cards(view["deck_sizes"][p]))
    discard = view["discard"][p]
    top = localize(card_name(game, discard[-1]), game.name) if discard else ""
    table.add_row(
        _("discard"),
        _cards(len(discard)) + (_(" (top: {card})").format(card=top) if discard else ""),
    )
    you = _(" (you)") if p == view["viewer"] else ""
    turn = _(" — their turn") if view["turn"] == p else ""
    name = localize(card_name(game, view["player_cards"][p]), game.name)
    title = f"{player_name(p)}{you}: {name}{turn}"
    return Panel(table, title=Text(title), expand=True)


def _cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def _mods(game: VsGame, mods: list[list[Any]]) -> str:
    """ "-2 (Tetrakarn), x2 (Desperado)" from a view's [mode, amount, card id] rows."""
    return ", ".join(
        f"{mod_text(MODES[int(m)], int(a))} ({localize(card_name(game, str(src)), game.name)})"
        for m, a, src in mods
    )


def _live_rmods(view: VsView) -> list[list[Any]]:
    """The React modifiers that still apply: those of the skill declared now. After it
    resolves (1 more declares another, VS-MORE-1) they no longer do and are not shown."""
    return list(view["rmods"]) if view["skill"] is not None else []


def _seat_shown(view: VsView) -> int:
    """The seat drawn at the bottom: the viewer's, or Player 1's for a spectator."""
    return view["viewer"] if view["viewer"] is not None else 0


def _headline(view: VsView, dash: str) -> str:
    """'Turn 3 · Player 2's Planning Step', or 'Turn 22 · Game over' (no one's step)."""
    step = _(STEP_LABELS.get(view["step"], view["step"]))
    turn = _("Turn {number}").format(number=view["turn_no"])
    if view["step"] == "over":
        return f"{turn}{dash}{step}"
    whose = _("{player}'s {step}").format(player=player_name(view["turn"]), step=step)
    return f"{turn}{dash}{whose}"


def render(view: VsView, game: VsGame) -> RenderableType:
    """The board as one player sees it."""
    parts: list[RenderableType] = []
    head = _headline(view, " — ")
    if view["more_used"]:
        head += " (1 MORE)"
    parts.append(Text(head, style="bold"))
    if view["skill"] is not None:
        ident, k = view["skill"][1], view["skill"][2]
        info = game.describe_card(ident)
        skill = info.data["skills"][k]
        said = _("Declared: {skill} ({kind}, {damage}) of {card}").format(
            skill=skill["name"],
            kind=skill["type"],
            damage=skill["damage"],
            card=localize(info.name, game.name),
        )
        parts.append(Text(said))
    for mods, label in (
        (_live_rmods(view), N_("React modifiers")),
        (view["tmods"], N_("this turn's modifiers")),
    ):
        if mods:
            parts.append(Text(f"{_(label)}: {_mods(game, mods)}"))
    if view["negated"] and view["skill"] is not None:
        parts.append(Text(_("The skill's damage is negated.")))
    me = _seat_shown(view)
    parts.append(_player_panel(view, game, 1 - me))
    parts.append(_player_panel(view, game, me))
    if view["viewer"] is not None:  # a spectator holds no hand
        hand = Table(
            title=_("Your hand ({count})").format(count=len(view["hand"])), show_lines=False
        )
        hand.add_column(_("name"), style="bold")
        hand.add_column(_("kind"))
        hand.add_column(_("text"))
        for ident in view["hand"]:
            info = game.describe_card(ident)
            hand.add_row(
                Text(localize(info.name, game.name)), Text(info.kind), Text(" ".join(info.lines))
            )
        parts.append(hand)
    parts.append(Text(_("Pending: ") + pending_text(view, game), style="cyan"))
    return Group(*parts)


def _persona_words(game: VsGame, stack: list[str]) -> str:
    """A field persona in words: name, weakness (the top card's), then the skills and
    abilities of every card of the stack, which the fused persona all has (VS-FUSE-1):
    the top's first, then each card under it, named."""
    info = game.describe_card(stack[-1])
    words = [
        line.rstrip(".") for line in info.lines if not line.startswith(("Cost ", "VS starter"))
    ]
    text = f"{localize(info.name, game.name)} — " + "; ".join(words)
    for ident in reversed(stack[:-1]):
        under = game.describe_card(ident)
        powers = [line.rstrip(".") for line in under.lines if line.startswith(POWERS)]
        fused = _(" — fused under it: {card}").format(card=localize(under.name, game.name))
        text += fused + (": " + "; ".join(powers) if powers else "")
    return text


POWERS = ("Skill ", "Ability ")
"""The lines of a persona card a fused stack keeps from every card in it (VS-FUSE-1)."""


def answered(view: VsView, game: VsGame) -> str:
    """The declared skill a React window answers, in words ('' when none is declared)."""
    if view["skill"] is None:
        return ""
    ident, k = view["skill"][1], view["skill"][2]
    info = game.describe_card(ident)
    skill = info.data["skills"][k]
    return _("{skill} ({kind}, {damage} damage) of {card}, declared by {player}").format(
        skill=skill["name"],
        kind=skill["type"],
        damage=skill["damage"],
        card=localize(info.name, game.name),
        player=player_name(view["turn"]),
    )


def _indent(text: str, style: str = "") -> RenderableType:
    """A line under a heading: indented by two, its wrapped part too."""
    return Padding(Text(text, style=style), (0, 0, 0, 2))


def compact(view: VsView, game: VsGame) -> RenderableType:
    """The board in a few lines: both fields in words, HP, piles, own hand, who decides."""
    out: list[RenderableType] = []
    head = _headline(view, " · ")
    if view["more_used"]:
        head += " (1 MORE)"
    out.append(Text(head, style="bold"))
    me = _seat_shown(view)
    for p in (1 - me, me):
        you = _(" (you)") if p == view["viewer"] else ""
        hp = view["hp"][p]
        name = localize(card_name(game, view["player_cards"][p]), game.name)
        line = Text(f"{player_name(p)}{you} {name}: ")
        line.append(_("HP {hp}").format(hp=hp), style="bold red" if hp <= 10 else "bold green")
        line.append(
            _(" · hand {hand} · deck {deck} · discard {discard}").format(
                hand=view["hand_sizes"][p],
                deck=view["deck_sizes"][p],
                discard=len(view["discard"][p]),
            )
        )
        out.append(line)
        for slot, stack in enumerate(view["field"][p]):
            if stack:
                out.append(_indent(f"{_(SLOT_LABELS[slot])}: {_persona_words(game, stack)}"))
        if not any(view["field"][p]):
            out.append(_indent(_("no persona on the field"), style="dim"))
    declared = answered(view, game)
    if declared:
        out.append(Text(_("Declared: {what}").format(what=declared), style="yellow"))
    for mods, label in (
        (_live_rmods(view), N_("React modifiers")),
        (view["tmods"], N_("this turn's modifiers")),
    ):
        if mods:
            out.append(Text(f"{_(label)}: {_mods(game, mods)}"))
    if view["negated"] and view["skill"] is not None:
        out.append(Text(_("The skill's damage is negated.")))
    if view["viewer"] is not None:  # a spectator holds no hand
        hand = [localize(card_name(game, c), game.name) for c in view["hand"]]
        out.append(
            Text(
                _("Your hand ({count}): {cards}").format(
                    count=len(hand), cards=", ".join(hand) or _("empty")
                )
            )
        )
    pending = pending_text(view, game)
    if view["step"].startswith("react") and declared:
        pending += _(", answering {what}").format(what=declared)
    out.append(Text(_("Now: ") + pending, style="bold cyan"))
    return Group(*out)


def event_line(event: Event, game: VsGame | None = None) -> str:
    """One sentence per event (the game's ``event_text``)."""
    return (game or load_vs_game()).event_text(event)


def action_label(action: Any, view: VsView, game: VsGame | None = None) -> str:
    """The game's words for an action of the viewer, from what the view shows.

    ``game`` is the game being played (its card set may be custom); the built-in
    set is the fallback.
    """
    game = game or load_vs_game()
    return VsState.from_view(game, view).action_label(action)
