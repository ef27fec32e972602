"""Terminal rendering of the Persona 5 board game: the board from a player's view.

``render(view, game)`` draws the board, ``event_line(event)`` turns an event into
a line of text (every die with its face), ``action_label(action, view)`` gives
a human label for an action's text form.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from velvet.engine.core import Event
from velvet.p5 import actions as A
from velvet.p5.cards import RESOURCES, STATS, effect_text
from velvet.p5.game import P5Game, load_p5_game

HIDES_HANDS = False  # the board game is co-operative and open
_RES = {"stamina": "Stamina", "sp": "SP", "bullet": "Bullet", "cash": "Cash"}
_STAT_SHORT = {
    "knowledge": "Kno",
    "guts": "Gut",
    "proficiency": "Pro",
    "compassion": "Com",
    "charm": "Cha",
}


class _Names:
    """Card names by id, from a game (the default set when none is given)."""

    def __init__(self, game: P5Game | None) -> None:
        g = game or load_p5_game()
        cs = g.cards
        self.game = g
        self.loc = {x.id: x for x in cs.locations}
        self.conf = {x.id: x for x in cs.confidants}
        self.shadow = {x.id: x for x in cs.shadows}
        self.thief = {x.id: x for x in cs.thieves}
        self.persona = {x.id: x for x in cs.personas}
        self.palace = {x.id: x for x in cs.palaces}

    def name(self, table: dict[str, Any], ident: str) -> str:
        card = table.get(ident)
        return str(card.name) if card is not None else ident


def _tokens(counts: dict[str, int]) -> str:
    return " ".join(f"{n} {_RES[k]}" for k, n in counts.items() if n) or "-"


def _remaining(now: dict[str, int], full: Mapping[Any, int]) -> str:
    parts = []
    for k in RESOURCES:
        total = full.get(k, 0)
        if total:
            parts.append(f"{_RES[k]} {total - now.get(k, 0)}/{total}")
    return ", ".join(parts)


def render(view: dict[str, Any], game: P5Game | None = None) -> RenderableType:
    """The whole board as one rich renderable."""
    names = _Names(game)
    players = view["players"]
    where: dict[str, list[str]] = {}
    for i, p in enumerate(players):
        where.setdefault(p["location"], []).append(f"P{i + 1}")
    head = Text(f"Day {view['day']} of {view['days']}", style="bold")
    if view["result"] == 1:
        head.append("  — VICTORY", style="bold green")
    elif view["result"] == -1:
        head.append("  — DEFEAT", style="bold red")

    locs = Table(title="Locations", expand=False)
    for col in ("location", "confidant (checks)", "here", "effects"):
        locs.add_column(col, overflow="fold")
    for loc in view["locations"]:
        card = names.loc.get(loc["id"])
        conf = loc["confidant"]
        conf_text = "-"
        if conf:
            c = names.conf.get(conf)
            checks = " + ".join(s.capitalize() for s in c.checks) if c else ""
            conf_text = f"{names.name(names.conf, conf)} ({checks})"
        locs.add_row(
            names.name(names.loc, loc["id"]),
            conf_text,
            " ".join(where.get(loc["id"], [])),
            effect_text(card.effects) if card else "",
        )

    pal = view["palace"]
    palace = names.palace.get(pal["id"])
    lines: list[RenderableType] = []
    lines.append(
        Text(
            f"{names.name(names.palace, pal['id'])} — alert {pal['alert']}%  "
            f"(inside: {' '.join(where.get('palace', [])) or 'nobody'})",
            style="bold",
        )
    )
    if palace is not None:
        if pal["boss"] is None:
            for row in palace.rows:
                if row.alert <= pal["alert"]:
                    text = effect_text(row.on_enter) or row.text or "no effect"
                    lines.append(Text(f"  {row.alert}% row: On Palace Enter: {text}"))
        else:
            b = palace.boss
            full = dict(b.health)
            lines.append(
                Text(
                    f"  BOSS {b.name} — weak {', '.join(b.weak) or 'none'} — met "
                    f"{_remaining(pal['boss'], full)}",
                    style="bold red",
                )
            )
    shadows = Table(title="Revealed shadows")
    for col in ("shadow", "weak", "met so far", "ability"):
        shadows.add_column(col, overflow="fold")
    for sh in pal["shadows"]:
        sc = names.shadow.get(sh["id"])
        if sc is None:
            shadows.add_row(sh["id"], "", _tokens(sh["remaining"]), "")
            continue
        ability = []
        if sc.on_enter:
            ability.append(f"On Palace Enter: {effect_text(sc.on_enter)}")
        if sc.on_death:
            ability.append(f"On Death: {effect_text(sc.on_death)}")
        shadows.add_row(
            sc.name,
            ", ".join(w.capitalize() for w in sc.weak) or "-",
            _remaining(sh["remaining"], dict(sc.health)),
            "; ".join(ability),
        )
    lines.append(shadows)

    team = Table(title="Phantom Thieves")
    for col in (
        "player",
        "stats",
        "Stamina fresh/spent",
        "SP fresh/spent",
        "Bullet fresh/spent",
        "Cash",
        "confidants",
        "persona / party",
    ):
        team.add_column(col, overflow="fold")
    for i, p in enumerate(players):
        stats = " ".join(f"{_STAT_SHORT[s]} {p['stats'][s]}" for s in STATS)
        fresh, spent = p["fresh"], p["spent"]
        persona = names.name(names.persona, p["persona"])
        if p["held"]:
            party = ", ".join(names.name(names.shadow, x) for x in p["party"]) or "empty"
            persona += f"; party: {party}; held: " + ", ".join(
                names.name(names.shadow, x) for x in p["held"]
            )
        team.add_row(
            f"P{i + 1} {names.name(names.thief, p['thief'])}" + (" *" if i == view["turn"] else ""),
            stats,
            f"{fresh['stamina']}/{spent['stamina']}",
            f"{fresh['sp']}/{spent['sp']}",
            f"{fresh['bullet']}/{spent['bullet']}",
            str(fresh["cash"]),
            ", ".join(names.name(names.conf, c) for c in p["confidants"]) or "-",
            persona,
        )
    decks = view["decks"]
    supply = Text(
        f"Supply left: {_tokens(view['supply'])}   Decks: {decks['locations']} "
        f"locations, {decks['confidants']} confidants, {decks['shadows']} shadows"
    )
    run = view.get("party_run") or []
    if run:
        parties = " → ".join(
            "{" + ", ".join(names.name(names.shadow, x) for x in party) + "}" for party in run
        )
        supply.append(
            f"\nParty changes this run: {parties} (only the first party may be returned to; "
            "P5-ARSENE-3)"
        )
    d = view["decision"]
    who = f"P{d['player'] + 1}" if d.get("player") is not None else "nobody"
    decision = Text(f"Now: {who} — {d['text']}", style="bold cyan")
    return Group(head, locs, Panel(Group(*lines), title="Palace"), team, supply, decision)


def _dice(faces: list[int]) -> str:
    return " ".join(f"[{f}★]" if f >= 5 else f"[{f}]" for f in faces) or "(no dice)"


def event_line(event: Event) -> str:
    """One human line per event; dice show every face (★ = Phantom Thief symbol)."""
    d = dict(event.data)
    who = f"P{d['player'] + 1}" if isinstance(d.get("player"), int) else ""
    k = event.kind
    if k == "check":
        ok = "success" if d["success"] else "failure"
        return f"{who} {d['stat'].capitalize()} check: {_dice(d['dice'])} → {ok}"
    if k == "dice":
        return f"{who} rolls the Phantom Thief die: {_dice(d['dice'])} → " + (
            "success" if d["success"] else "failure"
        )
    texts: dict[str, Callable[[], str]] = {
        "visit": lambda: f"{who} visits {d['location']}",
        "gain": lambda: (
            f"{who} gains {d['tokens']}"
            + ("" if d["tokens"] == d["asked"] else f" (asked {d['asked']}; supply short)")
        ),
        "restore": lambda: f"{who} restores {d['tokens']}",
        "spend": lambda: f"{who} spends {d['tokens']}",
        "ignored": lambda: f"{who} cannot pay {d['cannot_pay']}: effect ignored",
        "stat": lambda: f"{who} {d['stat'].capitalize()} is now {d['value']}",
        "recruit": lambda: f"{who} recruits {d['confidant']}",
        "recruit_failed": lambda: f"{who} fails to recruit {d['confidant']}",
        "discover": lambda: f"{who} discovers {d['location']} (confidant: {d['confidant']})",
        "enter_palace": lambda: f"{who} enters the palace at {d['alert']}% alert",
        "enter_effect": lambda: f"On Palace Enter: {d['source']}",
        "use": lambda: f"{who} uses {d['skill']}" + (f" on {d['target']}" if d["target"] else ""),
        "damage": lambda: (
            f"{d['target']} takes damage: "
            + ", ".join(f"{x}={y}" for x, y in d.items() if x != "target")
        ),
        "miss": lambda: f"{d['target']} is not hit",
        "defeat": lambda: f"{who} defeats {d['shadow']}",
        "reveal": lambda: f"shadow revealed: {d['shadow']}",
        "alert": lambda: f"alert rises to {d['alert']}%",
        "boss": lambda: f"the palace flips: boss {d['name']} appears",
        "boss_defeated": lambda: f"{who} defeats the boss — victory!",
        "game_over": lambda: "day 28 has passed — defeat",
        "day": lambda: f"— day {d['day']} —",
        "turn": lambda: f"P{d['player'] + 1} takes the turn",
        "end_turn": lambda: f"{who} ends the turn",
        "equip": lambda: f"{who} equips {d['shadow']} (gets {d['spent_tokens']} spent)",
        "unequip": lambda: f"{who} unequips {d['shadow']} (loses {d['lost']})",
        "draw_persona": lambda: f"{who} draws {d['shadow']} as a persona",
    }
    make = texts.get(k)
    return make().strip() if make else str(event)


def action_label(action: Any, view: dict[str, Any], game: P5Game | None = None) -> str:
    """A human label shown next to an action's text form (names from ``game``'s cards)."""
    names = _Names(game)
    g = names.game
    if isinstance(action, A.Go):
        return f"Player {action.player + 1} takes the next turn"
    if isinstance(action, A.Visit):
        card = names.loc.get(action.loc)
        return f"Visit {names.name(names.loc, action.loc)}" + (
            f": {effect_text(card.effects)}" if card else ""
        )
    if isinstance(action, A.Recruit):
        conf = next(
            (x["confidant"] for x in view.get("locations", []) if x["id"] == action.loc), None
        )
        c = names.conf.get(conf or "")
        checks = f" ({' + '.join(s.capitalize() for s in c.checks)} checks)" if c else ""
        return (
            f"Recruit {names.name(names.conf, conf or '?')} at "
            f"{names.name(names.loc, action.loc)}{checks}"
        )
    if isinstance(action, A.Discover):
        return "Spend 1 Cash: discover a new location and confidant"
    if isinstance(action, A.Palace):
        return "Enter the palace"
    if isinstance(action, A.End):
        return "End the turn"
    if isinstance(action, A.Use):
        i = g.ab_index.get(action.skill)
        skill = g.abilities[i].name if i is not None else action.skill
        target = (
            " on the boss"
            if action.target == "boss"
            else f" on {names.name(names.shadow, action.target)}"
            if action.target
            else ""
        )
        return f"Use {skill}{target}"
    if isinstance(action, A.Hit):
        return f"Spend 1 {_RES[action.res]} against {names.name(names.shadow, action.target)}"
    if isinstance(action, A.First):
        kind, _, ident = action.source.partition(":")
        what = {
            "row": f"the {int(ident or 0) * 25}% alert row" if ident.isdigit() else "row",
            "shadow": names.name(names.shadow, ident),
            "boss": "the boss",
            "ability": ident,
        }.get(kind, action.source)
        return f"Resolve {what}'s On Palace Enter effect next"
    if isinstance(action, A.StatUp):
        return f"+1 {action.stat.capitalize()}"
    if isinstance(action, A.Assign):
        parts = [f"{n} {_RES[k]}" for k, n in zip(RESOURCES, action.counts(), strict=True) if n]
        return "As " + (" + ".join(parts) or "nothing")
    if isinstance(action, A.Equip):
        return f"Equip {names.name(names.shadow, action.shadow)} in the persona party"
    if isinstance(action, A.Unequip):
        return f"Unequip {names.name(names.shadow, action.shadow)}"
    return str(action)
