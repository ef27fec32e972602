"""Terminal rendering of the Persona 5 board game: the board from a player's view.

``render(view, game)`` draws the board; ``event_line`` is the engine's own sentence
(``P5Game.event_text``). Actions are labelled by the state being played
(``P5State.action_label``): a board drawn from a view never rebuilds a state to
name them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from velvet.engine.core import Event
from velvet.engine.errors import VelvetError
from velvet.i18n import N_, _, localize, ngettext
from velvet.i18n import seat_name as player_name
from velvet.p5.cards import RESOURCES, STATS, effect_text
from velvet.p5.game import P5Game, load_p5_game
from velvet.p5.odds import action_odds
from velvet.p5.state import P5State
from velvet.p5.views import P5View
from velvet.p5.words import idle_note

HIDES_HANDS = False  # the board game is co-operative and open
_RES_WORDS = {"stamina": N_("Stamina"), "sp": N_("SP"), "bullet": N_("Bullet"), "cash": N_("Cash")}
_STAT_WORDS = {
    "knowledge": N_("Kno"),
    "guts": N_("Gut"),
    "proficiency": N_("Pro"),
    "compassion": N_("Com"),
    "charm": N_("Cha"),
}


class _Words(dict[str, str]):
    """Fixed words by key, in the active language when read."""

    def __getitem__(self, key: str) -> str:
        return _(super().__getitem__(key))


_RES = _Words(_RES_WORDS)
_STAT_SHORT = _Words(_STAT_WORDS)


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
        return localize(str(card.name), self.game.name) if card is not None else ident


def _tokens(counts: dict[str, int]) -> str:
    return " ".join(f"{n} {_RES[k]}" for k, n in counts.items() if n) or "-"


def _remaining(now: dict[str, int], full: Mapping[Any, int]) -> str:
    parts = []
    for k in RESOURCES:
        total = full.get(k, 0)
        if total:
            parts.append(f"{_RES[k]} {total - now.get(k, 0)}/{total}")
    return ", ".join(parts)


def day_text(view: Mapping[str, Any]) -> str:
    """ "Day 3 of 28"; after the last day (the game lost by P5-END-2, when the day counter
    has gone one past it) the last day, never "Day 29 of 28". A difficulty level other
    than the rulebook's is named after it: "Day 3 of 24 · hard difficulty"."""
    text = _("Day {day} of {days}").format(day=min(view["day"], view["days"]), days=view["days"])
    level = view.get("difficulty")
    return _("{day} · {level} difficulty").format(day=text, level=level) if level else text


def render(view: P5View, game: P5Game | None = None) -> RenderableType:
    """The whole board as one rich renderable."""
    names = _Names(game)
    players = view["players"]
    where: dict[str, list[str]] = {}
    for i, p in enumerate(players):
        where.setdefault(p["location"], []).append(f"P{i + 1}")
    head = Text(day_text(view), style="bold")
    if view["result"] == 1:
        head.append("  — " + _("VICTORY"), style="bold green")
    elif view["result"] == -1:
        head.append("  — " + _("DEFEAT"), style="bold red")

    locs = Table(title=_("Locations"), expand=False)
    for col in (N_("location"), N_("confidant (checks)"), N_("here"), N_("effects")):
        locs.add_column(_(col), overflow="fold")
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
            f"{names.name(names.palace, pal['id'])} — "
            + _("alert {alert}%").format(alert=pal["alert"])
            + "  "
            + _("(inside: {who})").format(who=" ".join(where.get("palace", [])) or _("nobody")),
            style="bold",
        )
    )
    if palace is not None:
        if pal["boss"] is None:
            for row in palace.rows:
                if row.alert <= pal["alert"]:
                    text = effect_text(row.on_enter) or row.text or _("no effect")
                    row_text = _("{alert}% row: On Palace Enter: {effect}")
                    lines.append(_indent(row_text.format(alert=row.alert, effect=text)))
        else:
            b = palace.boss
            g = names.game.at(view.get("difficulty", "standard"))  # a level may add to it
            full = dict(zip(RESOURCES, g.boss_health[g.palace_index[pal["id"]]], strict=True))
            lines.append(
                Text(
                    "  "
                    + _("BOSS {boss} — weak {weak} — met {met}").format(
                        boss=localize(b.name, names.game.name),
                        weak=", ".join(b.weak) or _("none"),
                        met=_remaining(pal["boss"], full),
                    ),
                    style="bold red",
                )
            )
    shadows = Table(title=_("Revealed shadows"))
    for col in (N_("shadow"), N_("weak"), N_("met so far"), N_("ability")):
        shadows.add_column(_(col), overflow="fold")
    for sh in pal["shadows"]:
        sc = names.shadow.get(sh["id"])
        if sc is None:
            shadows.add_row(sh["id"], "", _tokens(sh["remaining"]), "")
            continue
        ability = []
        if sc.on_enter:
            ability.append(_("On Palace Enter: {effect}").format(effect=effect_text(sc.on_enter)))
        if sc.on_death:
            ability.append(_("On Death: {effect}").format(effect=effect_text(sc.on_death)))
        shadows.add_row(
            names.name(names.shadow, sc.id),
            ", ".join(w.capitalize() for w in sc.weak) or "-",
            _remaining(sh["remaining"], dict(sc.health)),
            "; ".join(ability),
        )
    lines.append(shadows)

    team = Table(title=_("Phantom Thieves"))
    for col in (
        N_("player"),
        N_("stats"),
        N_("fresh"),
        N_("spent"),
        N_("confidants"),
        N_("persona / party"),
    ):
        team.add_column(_(col), overflow="fold")
    for i, p in enumerate(players):
        stats = " ".join(f"{_STAT_SHORT[s]} {p['stats'][s]}" for s in STATS)
        persona = names.name(names.persona, p["persona"])
        if p["held"]:
            party = ", ".join(names.name(names.shadow, x) for x in p["party"]) or _("empty")
            held = ", ".join(names.name(names.shadow, x) for x in p["held"])
            persona += "; " + _("party: {party}; held: {held}").format(party=party, held=held)
        team.add_row(
            f"{player_name(i)} {names.name(names.thief, p['thief'])}"
            + (" *" if i == view["turn"] else ""),
            stats,
            _tokens(p["fresh"]),
            _tokens(p["spent"]),
            ", ".join(names.name(names.conf, c) for c in p["confidants"]) or "-",
            persona,
        )
    decks = view["decks"]
    supply = Text(
        _(
            "Supply left: {supply}   Decks: {locations} locations, {confidants} confidants, "
            "{shadows} shadows"
        ).format(
            supply=_tokens(view["supply"]),
            locations=decks["locations"],
            confidants=decks["confidants"],
            shadows=decks["shadows"],
        )
    )
    d = view["decision"]
    if "draft" in d:
        draft = ", ".join(names.name(names.shadow, x) for x in d["draft"]) or _("nobody")
        supply.append(
            "\n" + _("Draft party: {draft} (confirm with done; P5-ARSENE-3)").format(draft=draft)
        )
    who = player_name(d["player"]) if d["player"] is not None else _("nobody")
    now = _("Now: {who} — {what}").format(who=who, what=localize(d["text"], names.game.name))
    decision = Text(now, style="bold cyan")
    return Group(head, locs, Panel(Group(*lines), title=_("Palace")), team, supply, decision)


def _card_lines(names: _Names, ident: str, prefix: str = "") -> list[str]:
    """The card's lines (from ``describe_card``) that start with ``prefix``, prefix cut."""
    try:
        lines = names.game.describe_card(ident).lines
    except VelvetError:
        return []
    return [line[len(prefix) :] for line in lines if line.startswith(prefix)]


def _left(remaining: Mapping[str, int]) -> str:
    return " + ".join(f"{n} {_RES[k]}" for k, n in remaining.items() if n) or _("nothing")


def _indent(text: str, style: str = "") -> RenderableType:
    """A line under a heading: indented by two, its wrapped part too."""
    return Padding(Text(text, style=style), (0, 0, 0, 2))


def compact(view: dict[str, Any], game: P5Game | None = None) -> RenderableType:
    """The board in a few lines: day and alert, each thief, the shadows, who decides.

    With several thieves, the one deciding is shown in full (skills, party, confidants)
    and each other in two lines (stats, tokens, persona), so two players fit 80 x 24;
    ``board`` shows every thief in full.
    """
    names = _Names(game)
    pal = view["palace"]
    where: dict[str, list[str]] = {}
    for i, p in enumerate(view["players"]):
        where.setdefault(p["location"], []).append(player_name(i))
    out: list[RenderableType] = []
    head = Text(day_text(view), style="bold")
    head.append(f" · {names.name(names.palace, pal['id'])} · ")
    head.append(_("alert {alert} %").format(alert=pal["alert"]))
    inside = ", ".join(where.get("palace", [])) or _("nobody")
    head.append(" · " + _("in the palace: {who}").format(who=inside))
    if view["result"] == 1:
        head.append(" · " + _("VICTORY"), style="bold green")
    elif view["result"] == -1:
        head.append(" · " + _("DEFEAT"), style="bold red")
    out.append(head)
    decider = view["decision"].get("player")
    for i, p in enumerate(view["players"]):
        loc = p["location"]
        at = {"off": _("not yet out"), "palace": _("in the palace")}.get(
            loc, _("at {location}").format(location=names.name(names.loc, loc))
        )
        line = Text(f"{player_name(i)} ", style="bold")
        line.append(f"{names.name(names.thief, p['thief'])}, {at} · ")
        line.append(" ".join(f"{_STAT_SHORT[s]} {p['stats'][s]}" for s in STATS))
        out.append(line)
        spent = _tokens(p["spent"])
        persona = names.name(names.persona, p["persona"])
        if decider is not None and i != decider and len(view["players"]) > 1:
            party = [names.name(names.shadow, x) for x in p["party"]]
            with_party = f" + {', '.join(party)}" if party else ""
            known = len(p["confidants"])
            confidants = (
                " · " + ngettext("{n} confidant", "{n} confidants", known).format(n=known)
                if known
                else ""
            )
            tokens = _("fresh: {fresh} · spent: {spent}").format(
                fresh=_tokens(p["fresh"]), spent=spent
            )
            out.append(
                _indent(
                    f"{tokens} · {persona}{with_party}{confidants} " + _("('board': skills)"),
                    style="dim",
                )
            )
            continue
        out.append(
            _indent(
                _("fresh: {fresh} · spent: {spent}").format(fresh=_tokens(p["fresh"]), spent=spent)
            )
        )
        skills = _card_lines(names, p["persona"], "Skill — ")
        out.append(_indent(f"{persona}: " + (" · ".join(skills) or _("no skills"))))
        for sh in p["party"]:
            for ability in _card_lines(names, sh, "Persona ability"):
                what = ability.split("— ", 1)[-1]
                who = names.name(names.shadow, sh)
                out.append(_indent(_("party {shadow}: {what}").format(shadow=who, what=what)))
        if p["held"]:
            held = ", ".join(names.name(names.shadow, x) for x in p["held"] if x not in p["party"])
            if held:
                out.append(
                    _indent(_("held (not in the party): {held}").format(held=held), style="dim")
                )
        for c in p["confidants"]:
            ability = "; ".join(_card_lines(names, c, "Ability — "))
            who = names.name(names.conf, c)
            out.append(_indent(_("confidant {who}: {ability}").format(who=who, ability=ability)))
    for sh in pal["shadows"]:
        weak = "".join(_card_lines(names, sh["id"], "Weak to: ")) or _("nothing")
        out.append(
            Text(
                _("Shadow {shadow} — weak to {weak} — left to pay: {left}").format(
                    shadow=names.name(names.shadow, sh["id"]),
                    weak=weak,
                    left=_left(sh["remaining"]),
                ),
                style="red",
            )
        )
    palace = names.palace.get(pal["id"])
    if palace is not None and pal["boss"] is not None:
        b = palace.boss
        left = {k: int(v) for k, v in pal["boss"].items()}
        boss = Text(
            _("BOSS {boss} — weak to {weak} — left to pay: {left}").format(
                boss=localize(b.name, names.game.name),
                weak=", ".join(w.capitalize() for w in b.weak) or _("nothing"),
                left=_left(left),
            ),
            style="bold red",
        )
        text = effect_text(b.on_enter)
        if text:
            boss.append("\n  " + _("On Palace Enter: {effect}").format(effect=text))
        if b.text:
            boss.append(f"\n  {b.text}")
        out.append(boss)
    d = view["decision"]
    if "draft" in d:
        draft = ", ".join(names.name(names.shadow, x) for x in d["draft"]) or _("nobody")
        out.append(Text(_("Draft party: {draft} (confirm with done)").format(draft=draft)))
    who = player_name(d["player"]) if d.get("player") is not None else _("nobody")
    now = _("Now: {who} — {what}").format(who=who, what=localize(d["text"], names.game.name))
    out.append(Text(now, style="bold cyan"))
    return Group(*out)


def odds(state: Any, action: Any) -> list[str]:
    """The exact chance of each check or Dice roll ``action`` makes (P5-CHECK-1/2), or
    the engine's word that it does nothing (``velvet.p5.words.idle_note``)."""
    if not isinstance(state, P5State):
        return []
    idle = idle_note(state, action)
    return action_odds(state, action) or ([idle] if idle else [])


def event_line(event: Event, game: P5Game | None = None) -> str:
    """The engine's sentence for ``event`` (names from ``game``'s cards)."""
    return (game or load_p5_game()).event_text(event)
