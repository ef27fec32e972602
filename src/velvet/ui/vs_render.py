"""Terminal rendering of a Persona VS view (never the true state).

``render`` draws both players' HP, fields with their fusion stacks, pile
sizes, the viewer's own hand with full card text, the step and the pending
decision. It works from ``view(player)`` only, so the opponent's hand cannot
be shown: the view does not hold it.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from velvet.engine.core import Event
from velvet.vs import actions as A
from velvet.vs.cards import card_text
from velvet.vs.game import VsGame

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


def _name(game: VsGame, ident: str) -> str:
    return game.card(ident).name if ident in game.index else ident


def pending_text(view: dict[str, Any], game: VsGame | None = None) -> str:
    """Who decides what, in words."""
    if view["winner"] != -1:
        return "nobody: the game is over"
    who = view["current_player"]
    if view["frames"]:
        frame = view["frames"][-1]
        kind = frame[0]
        text = f"player {who + 1} must {PENDING.get(kind, kind)}"
        if kind == "pay" and game is not None:
            _, _, card, _, left, extra = frame
            text += f" for {_name(game, card)}: {left} left"
            if extra:
                text += f", first a persona named {extra}"
        return text
    step = view["step"]
    if step == "planning":
        return f"player {who + 1} plans (summon, fuse, change, supports) or ends the step"
    if step == "declare":
        return f"player {who + 1} declares a skill or none"
    if step.startswith("react"):
        return f"player {who + 1} (defending) may play one React or pass"
    if step == "order":
        return f"player {who + 1} orders the damage modifiers"
    return f"player {who + 1} to act"


def _stack(game: VsGame, stack: list[str]) -> str:
    if not stack:
        return "—"
    top = _name(game, stack[-1])
    under = [_name(game, c) for c in reversed(stack[:-1])]
    return top + (f"  [fused over: {', '.join(under)}]" if under else "")


def _player_panel(view: dict[str, Any], game: VsGame, p: int) -> Panel:
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    hp = view["hp"][p]
    table.add_row("HP", Text(str(hp), style="bold red" if hp <= 10 else "bold green"))
    for slot, stack in enumerate(view["field"][p]):
        table.add_row(SLOT_LABELS[slot], Text(_stack(game, stack)))
    table.add_row("hand", f"{view['hand_sizes'][p]} cards")
    table.add_row("deck", f"{view['deck_sizes'][p]} cards")
    discard = view["discard"][p]
    table.add_row(
        "discard",
        f"{len(discard)} cards" + (f" (top: {_name(game, discard[-1])})" if discard else ""),
    )
    you = " (you)" if p == view["viewer"] else ""
    turn = " — their turn" if view["turn"] == p else ""
    pc = view["player_cards"][p]
    title = f"Player {p + 1}{you}: {game.players[pc].name if pc in game.players else pc}{turn}"
    return Panel(table, title=Text(title), expand=True)


def render(view: dict[str, Any], game: VsGame) -> RenderableType:
    """The board as one player sees it."""
    parts: list[RenderableType] = []
    step = STEP_LABELS.get(view["step"], view["step"])
    head = f"Turn {view['turn_no']} — player {view['turn'] + 1}'s {step}"
    if view["more_used"]:
        head += " (1 MORE)"
    parts.append(Text(head, style="bold"))
    if view["skill"] is not None:
        _, ident, k = view["skill"]
        card = game.card(ident)
        skill = card.skills[k]  # type: ignore[union-attr]
        parts.append(
            Text(f"Declared: {skill.name} ({skill.type}, {skill.damage}) from {card.name}")
        )
    for key, label in (("rmods", "React modifiers"), ("tmods", "this turn's modifiers")):
        if view[key]:
            parts.append(Text(f"{label}: {view[key]}"))
    if view["negated"]:
        parts.append(Text("The skill's damage is negated."))
    me = view["viewer"]
    parts.append(_player_panel(view, game, 1 - me))
    parts.append(_player_panel(view, game, me))
    hand = Table(title=f"Your hand ({len(view['hand'])})", show_lines=False)
    hand.add_column("id")
    hand.add_column("name", style="bold")
    hand.add_column("text")
    for ident in view["hand"]:
        card = game.card(ident)
        hand.add_row(Text(ident), Text(card.name), Text(card_text(card)))
    parts.append(hand)
    parts.append(Text("Pending: " + pending_text(view, game), style="cyan"))
    return Group(*parts)


def event_line(event: Event) -> str:
    """One line per event, in words."""
    d = event.data
    who = f"player {d['player'] + 1}" if "player" in d else ""
    k = event.kind
    if k == "one_more":
        return f"1 MORE! {who} hit a weakness and may declare another skill"
    if k == "damage":
        return f"{who} takes {d['amount']} damage (HP {d['hp']})"
    if k == "heal":
        return f"{who} heals {d['amount']} (HP {d['hp']})"
    if k == "skill":
        return f"{who} declares {d['skill']} ({d['type']}, {d['damage']})"
    if k == "turn":
        return f"— turn {d['turn']}: player {d['player'] + 1} —"
    if k == "draw":
        return f"{who} draws {d['count']} card(s)"
    if k == "game_over":
        return (
            f"GAME OVER: player {d['winner'] + 1} wins ({d['reason']})"
            if d["winner"] in (0, 1)
            else "GAME OVER: draw"
        )
    if k == "weakness":
        return f"weakness hit on {who}'s main"
    if k in ("summon", "fuse", "support", "react", "pay", "discard", "search", "recover"):
        card = d.get("card", "")
        return f"{who} {k} {card}".strip()
    return str(event)


def action_label(action: Any, view: dict[str, Any], game: VsGame | None = None) -> str:
    """A short human label for an action (the text form stays the input).

    ``game`` is the game being played (its card set may be custom); the built-in
    set is the fallback.
    """
    from velvet.vs.game import load_vs_game

    game = game or load_vs_game()
    card = getattr(action, "card", None)
    if card is not None and card not in game.index:
        return str(action)  # a custom card set: the text form is the label
    name = game.card(card).name if card is not None else None
    t = type(action)
    if t is A.Summon:
        return f"Summon {name} (cost {game.cost[game.index[card]]})"  # type: ignore[index]
    if t is A.Fuse:
        return f"Fuse {name} onto {A.mask_text(action.slots)}"
    if t is A.DeclareSkill:
        persona = game.card(action.card)
        skill = persona.skills[action.index]  # type: ignore[union-attr]
        return f"Use {skill.name} ({skill.type}, {skill.damage}) of {persona.name}"
    if t is A.PlayReact:
        return f"React: {name}"
    if t is A.PlaySupport:
        return f"Support: {name}"
    if t is A.Pass:
        return "Play no React"
    if t is A.EndPlanning:
        return "End the Planning Step"
    if t is A.NoSkill:
        return "Declare no skill"
    if name:
        return f"{action} ({name})"
    return str(action)
