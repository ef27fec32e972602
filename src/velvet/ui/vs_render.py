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

from velvet.engine.core import Event, player_name
from velvet.vs.game import MODES, VsGame, load_vs_game
from velvet.vs.state import VsState
from velvet.vs.views import VsView
from velvet.vs.words import card_name, mod_text

HIDES_HANDS = True

STEP_LABELS = {
    "planning": "Planning Step",
    "declare": "Skill Step — declare a skill",
    "react-declaration": "Skill Step — declaration React window",
    "resolve": "Skill Step — resolution",
    "order": "Skill Step — ordering damage modifiers",
    "react-resolution": "Skill Step — resolution React window",
    "end-skill": "Skill Step — end",
    "over": "Game over",
}
SLOT_LABELS = ("main", "sub 1", "sub 2")
PENDING = {
    "pay": "pay a cost (choose the cards)",
    "promote": "choose a sub to become the new main",
    "target": "choose a target",
    "discard": "choose a card to discard",
    "search": "choose a card from the deck",
    "recover": "choose a card from the discard pile",
}


def pending_text(view: VsView, game: VsGame | None = None) -> str:
    """Who decides what, in words."""
    if view["winner"] != -1:
        return "nobody: the game is over"
    who = player_name(view["current_player"])
    if view["frames"]:
        frame = view["frames"][-1]
        kind = frame[0]
        text = f"{who} must {PENDING.get(kind, kind)}"
        if kind == "pay" and game is not None:
            _, _, card, _, left, extra = frame
            text += f" for {card_name(game, card)}: {left} left"
            if extra:
                text += f", first a persona named {extra}"
        return text
    step = view["step"]
    if step == "planning":
        return f"{who} plans (summon, fuse, change, supports) or ends the step"
    if step == "declare":
        return f"{who} declares a skill or none"
    if step.startswith("react"):
        return f"{who} (defending) may play one React or pass"
    if step == "order":
        return f"{who} orders the damage modifiers"
    return f"{who} to act"


def _player_panel(view: VsView, game: VsGame, p: int) -> Panel:
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    hp = view["hp"][p]
    table.add_row("HP", Text(str(hp), style="bold red" if hp <= 10 else "bold green"))
    for slot, stack in enumerate(view["field"][p]):
        table.add_row(SLOT_LABELS[slot], Text(_persona_words(game, stack) if stack else "—"))
    table.add_row("hand", f"{view['hand_sizes'][p]} cards")
    table.add_row("deck", f"{view['deck_sizes'][p]} cards")
    discard = view["discard"][p]
    table.add_row(
        "discard",
        f"{len(discard)} cards" + (f" (top: {card_name(game, discard[-1])})" if discard else ""),
    )
    you = " (you)" if p == view["viewer"] else ""
    turn = " — their turn" if view["turn"] == p else ""
    title = f"{player_name(p)}{you}: {card_name(game, view['player_cards'][p])}{turn}"
    return Panel(table, title=Text(title), expand=True)


def _mods(game: VsGame, mods: list[list[Any]]) -> str:
    """ "-2 (Tetrakarn), x2 (Desperado)" from a view's [mode, amount, card id] rows."""
    return ", ".join(
        f"{mod_text(MODES[int(m)], int(a))} ({card_name(game, str(src))})" for m, a, src in mods
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
    step = STEP_LABELS.get(view["step"], view["step"])
    if view["step"] == "over":
        return f"Turn {view['turn_no']}{dash}{step}"
    return f"Turn {view['turn_no']}{dash}{player_name(view['turn'])}'s {step}"


def render(view: VsView, game: VsGame) -> RenderableType:
    """The board as one player sees it."""
    parts: list[RenderableType] = []
    head = _headline(view, " — ")
    if view["more_used"]:
        head += " (1 MORE)"
    parts.append(Text(head, style="bold"))
    if view["skill"] is not None:
        _, ident, k = view["skill"]
        info = game.describe_card(ident)
        skill = info.data["skills"][k]
        parts.append(
            Text(f"Declared: {skill['name']} ({skill['type']}, {skill['damage']}) of {info.name}")
        )
    for mods, label in (
        (_live_rmods(view), "React modifiers"),
        (view["tmods"], "this turn's modifiers"),
    ):
        if mods:
            parts.append(Text(f"{label}: {_mods(game, mods)}"))
    if view["negated"] and view["skill"] is not None:
        parts.append(Text("The skill's damage is negated."))
    me = _seat_shown(view)
    parts.append(_player_panel(view, game, 1 - me))
    parts.append(_player_panel(view, game, me))
    if view["viewer"] is not None:  # a spectator holds no hand
        hand = Table(title=f"Your hand ({len(view['hand'])})", show_lines=False)
        hand.add_column("name", style="bold")
        hand.add_column("kind")
        hand.add_column("text")
        for ident in view["hand"]:
            info = game.describe_card(ident)
            hand.add_row(Text(info.name), Text(info.kind), Text(" ".join(info.lines)))
        parts.append(hand)
    parts.append(Text("Pending: " + pending_text(view, game), style="cyan"))
    return Group(*parts)


def _persona_words(game: VsGame, stack: list[str]) -> str:
    """A field persona in words: name, weakness (the top card's), then the skills and
    abilities of every card of the stack, which the fused persona all has (VS-FUSE-1):
    the top's first, then each card under it, named."""
    info = game.describe_card(stack[-1])
    words = [
        line.rstrip(".") for line in info.lines if not line.startswith(("Cost ", "VS starter"))
    ]
    text = f"{info.name} — " + "; ".join(words)
    for ident in reversed(stack[:-1]):
        under = game.describe_card(ident)
        powers = [line.rstrip(".") for line in under.lines if line.startswith(POWERS)]
        text += f" — fused under it: {under.name}" + (": " + "; ".join(powers) if powers else "")
    return text


POWERS = ("Skill ", "Ability ")
"""The lines of a persona card a fused stack keeps from every card in it (VS-FUSE-1)."""


def answered(view: VsView, game: VsGame) -> str:
    """The declared skill a React window answers, in words ('' when none is declared)."""
    if view["skill"] is None:
        return ""
    _, ident, k = view["skill"]
    info = game.describe_card(ident)
    skill = info.data["skills"][k]
    return (
        f"{skill['name']} ({skill['type']}, {skill['damage']} damage) of {info.name}, "
        f"declared by {player_name(view['turn'])}"
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
        you = " (you)" if p == view["viewer"] else ""
        hp = view["hp"][p]
        line = Text(f"{player_name(p)}{you} {card_name(game, view['player_cards'][p])}: ")
        line.append(f"HP {hp}", style="bold red" if hp <= 10 else "bold green")
        line.append(
            f" · hand {view['hand_sizes'][p]} · deck {view['deck_sizes'][p]}"
            f" · discard {len(view['discard'][p])}"
        )
        out.append(line)
        for slot, stack in enumerate(view["field"][p]):
            if stack:
                out.append(_indent(f"{SLOT_LABELS[slot]}: {_persona_words(game, stack)}"))
        if not any(view["field"][p]):
            out.append(_indent("no persona on the field", style="dim"))
    declared = answered(view, game)
    if declared:
        out.append(Text(f"Declared: {declared}", style="yellow"))
    for mods, label in (
        (_live_rmods(view), "React modifiers"),
        (view["tmods"], "this turn's modifiers"),
    ):
        if mods:
            out.append(Text(f"{label}: {_mods(game, mods)}"))
    if view["negated"] and view["skill"] is not None:
        out.append(Text("The skill's damage is negated."))
    if view["viewer"] is not None:  # a spectator holds no hand
        hand = [card_name(game, c) for c in view["hand"]]
        out.append(Text(f"Your hand ({len(hand)}): {', '.join(hand) or 'empty'}"))
    pending = pending_text(view, game)
    if view["step"].startswith("react") and declared:
        pending += f", answering {declared}"
    out.append(Text("Now: " + pending, style="bold cyan"))
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
