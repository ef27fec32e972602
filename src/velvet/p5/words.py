"""Words for front ends: action labels, event sentences and card descriptions.

Everything a player reads about the Persona 5 board game comes from here, with card
names from the game's card set, so that every front end shows the same words
(``P5State.action_label``, ``P5Game.event_text``, ``P5Game.describe_card``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from velvet.engine.core import CardInfo, Event, player_name
from velvet.engine.errors import ConfigError
from velvet.p5 import actions as A
from velvet.p5.cards import RESOURCES, STATS, Ability, ability_text, effect_text

if TYPE_CHECKING:
    from velvet.p5.game import P5Game
    from velvet.p5.state import P5State

RES_NAME = {"stamina": "Stamina", "sp": "SP", "bullet": "Bullet", "cash": "Cash", "any": "ANY"}
KINDS = ("thief", "persona", "confidant", "shadow", "boss", "palace", "location")


def tokens(counts: Mapping[Any, int] | Sequence[int]) -> str:
    """``{"stamina": 2, "cash": 1}`` (or a 4-vector) as "2 Stamina + 1 Cash"."""
    if not isinstance(counts, Mapping):
        counts = dict(zip(RESOURCES, counts, strict=False))
    return " + ".join(f"{n} {RES_NAME.get(k, k)}" for k, n in counts.items() if n) or "nothing"


def _stat(stat: str) -> str:
    return stat.capitalize()


def _dice(faces: Sequence[int]) -> str:
    """Every face; the Phantom Thief symbol (5 and 6, P5-COMP-5) is marked with a star."""
    return ", ".join(f"{f}★" if f >= 5 else str(f) for f in faces) or "no dice"


# --- names ---------------------------------------------------------------------------------


def shadow_name(g: P5Game, ident: str, boss: str = "") -> str:
    """A shadow's name from its id; ``boss`` names the boss ("the boss" when not given)."""
    if ident == "boss":
        return f"the boss {boss}" if boss else "the boss"
    i = g.shadow_index.get(ident)
    return g.cards.shadows[i].name if i is not None else ident


def ability_name(g: P5Game, key: str) -> str:
    """ "Eiha (Arsene)": the ability's name and the card it is printed on."""
    a = g.ab_index.get(key)
    if a is None:
        return key
    return f"{g.abilities[a].name} ({g.ab_owner[a]})"


def _location(g: P5Game, ident: str) -> str:
    i = g.loc_index.get(ident)
    return g.cards.locations[i].name if i is not None else ident


def _confidant(g: P5Game, ident: str | None) -> str:
    if ident is None:
        return "no confidant"
    i = g.conf_index.get(ident)
    return g.cards.confidants[i].name if i is not None else ident


def _source(g: P5Game, source: str, boss: str = "") -> str:
    """An On Palace Enter source (``row:N``, ``boss``, ``shadow:ID``, ``ability:KEY``)."""
    kind, _, ident = source.partition(":")
    if kind == "row" and ident.isdigit():
        return f"the {int(ident) * 25}% alert row"
    if kind == "boss":
        return shadow_name(g, "boss", boss)
    if kind == "shadow":
        return shadow_name(g, ident)
    if kind == "ability":
        return ability_name(g, ident)
    return source


# --- action labels -------------------------------------------------------------------------


def action_labels(s: P5State) -> dict[A.P5Action, str]:
    """A label for every legal action of ``s``, distinct within the decision."""
    labels = {a: label(s, a) for a in s.legal_actions()}
    count: dict[str, int] = {}
    for text in labels.values():
        count[text] = count.get(text, 0) + 1
    return {a: (t if count[t] == 1 else f"{t} [{a}]") for a, t in labels.items()}


def label(s: P5State, action: A.P5Action) -> str:
    """What a player reads for ``action`` in the state ``s`` (see :func:`action_labels`)."""
    from velvet.p5.state import AFTER, D_ALLOC, D_MIX, FIGHT, PartyDraft, Split

    g = s.game
    boss = g.cards.palaces[s.palace].boss.name
    d = s.dec[-1] if s.dec else None
    if isinstance(action, A.Go):
        return f"{player_name(action.player)} takes the next turn today"
    if isinstance(action, A.Visit):
        li = g.loc_index[action.loc]
        return f"Visit {g.cards.locations[li].name}: {effect_text(g.cards.locations[li].effects)}"
    if isinstance(action, A.Recruit):
        li = g.loc_index[action.loc]
        where = g.cards.locations[li].name
        c = s.loc_conf[s.locs.index(li)] if li in s.locs else -1
        if c < 0:
            return f"Recruit at {where}"
        conf = g.cards.confidants[c]
        checks = " + ".join(_stat(x) for x in conf.checks)
        return f"Recruit {conf.name} at {where} ({checks} checks)"
    if isinstance(action, A.Discover):
        return "Spend 1 Cash to discover a new location and its confidant"
    if isinstance(action, A.Palace):
        return f"Enter the palace, {g.cards.palaces[s.palace].name} ({s.alert * 25}% alert)"
    if isinstance(action, A.End):
        if s.phase == FIGHT:
            return "End the turn (stop fighting)"
        return "End the turn" if s.phase == AFTER else "End"
    if isinstance(action, A.Use):
        name = ability_name(g, action.skill)
        cost = g.ab_cost[g.ab_index[action.skill]] if action.skill in g.ab_index else ()
        paid = f", paying {tokens(cost)}" if any(cost) else ""
        a = g.ab_index.get(action.skill)
        if action.target:
            return f"Use {name} on {shadow_name(g, action.target, boss)}{paid}"
        if a is not None and g.ab_attack[a]:
            return f"Use {name} on every shadow{paid}"
        return f"Use {name}{paid}"
    if isinstance(action, A.Hit):
        verb = "Discard" if action.res == "cash" else "Spend"
        return (
            f"{verb} 1 {RES_NAME[action.res]} against "
            f"{shadow_name(g, action.target, boss)}'s {RES_NAME[action.res]} requirement"
        )
    if isinstance(action, A.First):
        return f"Resolve the On Palace Enter effect of {_source(g, action.source, boss)} next"
    if isinstance(action, A.StatUp):
        return f"+1 {_stat(action.stat)}"
    if isinstance(action, A.Assign):
        res = RES_NAME.get(action.res, action.res)
        if type(d) is Split and d.kind == D_ALLOC and isinstance(d.of, int):
            target = shadow_name(g, g.target_id(d.of), boss)
            return f"{action.n} of the {d.left} ANY damage meet {target}'s {res} requirement"
        if type(d) is Split and d.kind == D_MIX:
            return f"Restore {action.n} of the {d.left} tokens as {res}"
        return f"Put {action.n} on {res}"
    if isinstance(action, A.Equip | A.Unequip):
        name = shadow_name(g, action.shadow)
        joins = isinstance(action, A.Equip)
        if type(d) is PartyDraft:
            return f"{name} {'joins' if joins else 'leaves'} the draft party"
        return f"Change the party: {name} {'joins' if joins else 'leaves'}"
    if isinstance(action, A.Done):
        if type(d) is PartyDraft:
            names = ", ".join(g.cards.shadows[x].name for x in d.draft) or "nobody"
            same = sorted(d.draft) == sorted(s.party[d.player])
            return f"Confirm the party: {names}" + (" (unchanged)" if same else "")
        return "Confirm the party"
    return str(action)


# --- event sentences -----------------------------------------------------------------------


def _who(data: Mapping[str, Any]) -> str:
    p = data.get("player")
    return player_name(p) if isinstance(p, int) else "The player"


def _damage(g: P5Game, d: Mapping[str, Any]) -> str:
    target = shadow_name(g, str(d.get("target", "")))
    if "hit" in d:  # one token spent against a requirement (P5-COMBAT-2)
        res = RES_NAME.get(str(d["hit"]), str(d["hit"]))
        return f"{_who(d)} meets 1 of {target}'s {res} requirement with their own token."
    if "any_as" in d and "skill" not in d:  # ANY damage meeting requirements (P5-COMBAT-4)
        text = f"ANY damage meets {tokens(d['any_as'])} of {target}'s requirements"
        lost = int(d.get("any_lost", 0))
        return text + (f"; {lost} ANY beyond them is lost." if lost else ".")
    skill = ability_name(g, str(d.get("skill", "")))
    parts = []
    base = tokens(d.get("base", {}))
    if d.get("base_any"):
        base = f"{d['base_any']} ANY" if base == "nothing" else f"{base} + {d['base_any']} ANY"
    parts.append(f"{skill} deals {base}")
    if d.get("amp"):
        parts.append(f"+{d['amp']} Bullet from Amp")
    if d.get("weak"):
        parts.append(f"{target} is weak to it, so all {d['any']} damage becomes ANY")
    else:
        parts.append(f"it meets {tokens(d.get('typed', {}))} of {target}'s requirements")
        if d.get("lost"):
            parts.append(f"{tokens(d['lost'])} beyond them is lost")
        if d.get("any"):
            parts.append(f"{d['any']} ANY damage to place")
    return "; ".join(parts) + "."


def event_text(g: P5Game, event: Event) -> str:
    """A sentence for ``event`` with card names and seats as "Player 1"/"Player 2"."""
    d = event.data
    who = _who(d)
    k = event.kind
    if k == "turn":
        return f"{player_name(d['player'])} takes the turn (day {d['day']})."
    if k == "visit":
        return f"{who} visits {_location(g, d['location'])}."
    if k == "gain":
        if not d["tokens"]:
            return f"{who} gains nothing: the supply has none of {tokens(d['asked'])}."
        short = (
            "" if d["tokens"] == d["asked"] else f" (of {tokens(d['asked'])}: the supply ran out)"
        )
        return f"{who} gains {tokens(d['tokens'])}{short}."
    if k == "restore":
        if not d["tokens"]:
            return f"{who} has no spent token of that kind to restore."
        return f"{who} restores {tokens(d['tokens'])} (spent to fresh)."
    if k == "spend":
        return f"{who} spends {tokens(d['tokens'])}."
    if k == "ignored":
        return f"{who} cannot pay {tokens(d['cannot_pay'])}, so that effect is ignored."
    if k == "stat":
        return f"{who}'s {_stat(d['stat'])} is now {d['value']}."
    if k == "check":
        result = "success" if d["success"] else "failure"
        return f"{who} makes a {_stat(d['stat'])} check: {_dice(d['dice'])} — {result}."
    if k == "dice":
        result = "success" if d["success"] else "failure"
        return f"{who} rolls the Phantom Thief die: {_dice(d['dice'])} — {result}."
    if k == "recruit":
        return f"{who} recruits {_confidant(g, d['confidant'])}; the ability is active now."
    if k == "recruit_failed":
        return f"{who} fails to recruit {_confidant(g, d['confidant'])}."
    if k == "discover":
        where, conf = _location(g, d["location"]), _confidant(g, d["confidant"])
        return f"{who} discovers {where}, with {conf}."
    if k == "enter_palace":
        return f"{who} enters the palace at {d['alert']}% alert."
    if k == "enter_effect":
        return f"On Palace Enter: {_source(g, d['source'])}."
    if k == "use":
        target = f" on {shadow_name(g, d['target'])}" if d.get("target") else ""
        return f"{who} uses {ability_name(g, d['skill'])}{target}."
    if k == "damage":
        return _damage(g, d)
    if k == "miss":
        return f"{shadow_name(g, d['target'])} is not hit: the die failed."
    if k == "defeat":
        return f"{who} defeats {shadow_name(g, d['shadow'])} and takes the card."
    if k == "reveal":
        return f"{shadow_name(g, d['shadow'])} is revealed."
    if k == "alert":
        return f"The alert rises to {d['alert']}%."
    if k == "boss":
        return f"The palace flips: the boss {d['name']} appears."
    if k == "boss_defeated":
        return f"{who} defeats the boss: everyone wins (P5-END-1)."
    if k == "game_over":
        return f"Day {g.days} has passed and the boss still stands: everyone loses (P5-END-2)."
    if k == "day":
        return f"Day {d['day']} begins."
    if k == "end_turn":
        return f"{who} ends the turn."
    if k == "draft":
        verb = "puts" if d["joins"] else "takes"
        where = "into" if d["joins"] else "out of"
        return f"{who} {verb} {shadow_name(g, d['shadow'])} {where} the draft party."
    if k == "party":
        names = ", ".join(shadow_name(g, x) for x in d["party"]) or "nobody"
        text = f"{who}'s party is now {names}"
        if d["spent_gained"]:
            text += f"; gets {tokens(d['spent_gained'])} spent"
        if d["lost"]:
            text += f"; loses {tokens(d['lost'])}"
        return text + "."
    if k == "draw_persona":
        return f"{who} draws {shadow_name(g, d['shadow'])} as a persona."
    return str(event)


# --- card descriptions ---------------------------------------------------------------------


def _ability_data(a: Ability) -> dict[str, Any]:
    return a.model_dump(mode="json", by_alias=True, exclude_defaults=True)


def describe(g: P5Game, card_id: str) -> CardInfo:
    """Any card by id, or by ``kind:id`` when two kinds share an id (``palace:futaba``)."""
    if not isinstance(card_id, str):
        raise ConfigError(f"card id must be a text, not {card_id!r}")
    kind, sep, ident = card_id.partition(":")
    if not sep:
        kind, ident = "", card_id
    elif kind not in KINDS:
        raise ConfigError(f"unknown card kind '{kind}' in '{card_id}'; kinds: {', '.join(KINDS)}")
    kinds = [kind] if kind else [k for k in KINDS if k != "boss"]  # a boss is "boss:PALACE"
    found = [k for k in kinds if _has(g, k, ident)]
    if not found:
        raise ConfigError(f"no card '{card_id}' in this card set")
    if len(found) > 1:
        choices = ", ".join(f"{k}:{ident}" for k in found)
        raise ConfigError(f"card id '{ident}' is ambiguous: write one of {choices}")
    return _describe(g, found[0], ident)


def _has(g: P5Game, kind: str, ident: str) -> bool:
    if kind == "boss":
        return ident in g.palace_index
    table = {
        "thief": g.thief_index,
        "persona": g.persona_index,
        "confidant": g.conf_index,
        "shadow": g.shadow_index,
        "palace": g.palace_index,
        "location": g.loc_index,
    }[kind]
    return ident in table


def card_ids(g: P5Game) -> list[str]:
    """Every card of the set as ``kind:id`` (a palace's boss is ``boss:PALACE``)."""
    cs = g.cards
    out = [f"thief:{x.id}" for x in cs.thieves]
    out += [f"persona:{x.id}" for x in cs.personas]
    out += [f"confidant:{x.id}" for x in cs.confidants]
    out += [f"shadow:{x.id}" for x in cs.shadows]
    out += [f"boss:{x.id}" for x in cs.palaces]
    out += [f"palace:{x.id}" for x in cs.palaces]
    out += [f"location:{x.id}" for x in cs.locations]
    return out


def _describe(g: P5Game, kind: str, ident: str) -> CardInfo:
    cs = g.cards
    lines: list[str] = []
    if kind == "thief":
        t = cs.thieves[g.thief_index[ident]]
        stats = ", ".join(f"{_stat(s)} {t.stats.get(s, 0)}" for s in STATS)  # type: ignore[call-overload]
        lines = [f"Social stats: {stats}", f"Passive — {ability_text(t.passive)}"]
        data = t.model_dump(mode="json", by_alias=True, exclude_defaults=True)
        return CardInfo(t.id, t.name, "thief", tuple(lines), data)
    if kind == "persona":
        p = cs.personas[g.persona_index[ident]]
        if p.party:
            lines.append("Persona party: uses the persona abilities of the shadows you hold")
        lines += [f"Skill — {ability_text(a)}" for a in p.skills]
        keys = [g.ab_key[a] for a in g.persona_abils[g.persona_index[ident]]]
        skills = [{"key": k, **_ability_data(a)} for k, a in zip(keys, p.skills, strict=True)]
        data = {"party": p.party, "skills": skills}
        return CardInfo(p.id, p.name, "persona", tuple(lines), data)
    if kind == "confidant":
        c = cs.confidants[g.conf_index[ident]]
        if c.arcana:
            lines.append(f"Arcana: {c.arcana}")
        lines.append(f"Recruit: pass a {_stat(c.checks[0])} and a {_stat(c.checks[1])} check")
        lines.append(f"Ability — {ability_text(c.ability)}")
        if c.thief:
            owner = cs.thieves[g.thief_index[c.thief]].name
            lines.append(f"Leaves the game when {owner} is played")
        if c.arsene_only:
            lines.append("Leaves the game when nobody plays a persona-party persona")
        if not c.counts_as_recruited:
            lines.append("Does not count as a recruited confidant")
        data = c.model_dump(mode="json", by_alias=True, exclude_defaults=True)
        return CardInfo(c.id, c.name, "confidant", tuple(lines), data)
    if kind == "shadow":
        s = cs.shadows[g.shadow_index[ident]]
        lines.append(f"Weak to: {', '.join(_stat(w) for w in s.weak) or 'nothing'}")
        lines.append(f"Health: {tokens(s.health)}")
        if s.on_enter:
            lines.append(f"On Palace Enter: {effect_text(s.on_enter)}")
        if s.on_death:
            lines.append(f"On Death: {effect_text(s.on_death)}")
        lines.append(f"Persona ability (Arsene) — {ability_text(s.persona)}")
        if s.text:
            lines.append(s.text)
        data = s.model_dump(mode="json", by_alias=True, exclude_defaults=True)
        return CardInfo(s.id, s.name, "shadow", tuple(lines), data)
    if kind == "location":
        loc = cs.locations[g.loc_index[ident]]
        if loc.start:
            lines.append("Starting location")
        lines.append(f"Visit: {effect_text(loc.effects)}")
        if loc.text:
            lines.append(loc.text)
        data = loc.model_dump(mode="json", by_alias=True, exclude_defaults=True)
        return CardInfo(loc.id, loc.name, "location", tuple(lines), data)
    pal = cs.palaces[g.palace_index[ident]]
    if kind == "boss":
        b = pal.boss
        lines.append(f"Boss of {pal.name}, at 100% alert")
        lines.append(f"Weak to: {', '.join(_stat(w) for w in b.weak) or 'nothing'}")
        lines.append(f"Health: {tokens(b.health)}")
        if b.on_enter:
            lines.append(f"On Palace Enter: {effect_text(b.on_enter)}")
        if b.reveal:
            lines.append(f"Reveals {b.reveal} shadow(s) per player")
        if b.text:
            lines.append(b.text)
        data = b.model_dump(mode="json", by_alias=True, exclude_defaults=True)
        return CardInfo(pal.id, b.name, "boss", tuple(lines), {"palace": pal.id, **data})
    for r in pal.rows:
        text = effect_text(r.on_enter) or r.text or "no effect"
        more = f" Reveals {r.reveal} shadow(s) per player." if r.reveal is not None else ""
        lines.append(f"{r.alert}% alert — On Palace Enter: {text.rstrip('.')}.{more}")
    lines.append(f"100% alert — the boss {pal.boss.name}")
    data = pal.model_dump(mode="json", by_alias=True, exclude_defaults=True)
    return CardInfo(pal.id, pal.name, "palace", tuple(lines), data)


# --- what an action acts on, and its chance (for boards that are clicked) ------------------
#
# A board marks each thing an action may act on with a reference ("ref"); the refs are
# listed in docs/web.md ("The P5 board"). ``view_refs`` is every ref a view's board shows,
# ``action_targets`` the refs of one legal action, most specific first.


def _player_refs(g: P5Game, i: int, p: Mapping[str, Any]) -> set[str]:
    """The refs of one thief's board: stats, tokens, abilities, held shadows."""
    refs = {f"player:{i}"}
    refs |= {f"stat:{i}:{stat}" for stat in STATS}
    refs |= {f"token:{i}:{res}" for res in RESOURCES}
    keys = [g.ab_key[a] for a in g.persona_abils[g.persona_index[p["persona"]]]]
    keys += [p["thief"], *p["confidants"], *p["party"]]
    refs |= {f"skill:{i}:{key}" for key in keys}
    refs |= {f"held:{i}:{x}" for x in p["held"]}
    return refs


def _need_refs(target: str, full: Mapping[Any, int], left: Mapping[str, int]) -> set[str]:
    """A shadow's (or the boss's) requirement chips: every resource its health names."""
    return {f"need:{target}:{res}" for res in RESOURCES if full.get(res, 0) or left.get(res, 0)}


def view_refs(g: P5Game, view: Mapping[str, Any]) -> set[str]:
    """Every ref the board of ``view`` shows (see docs/web.md, "The P5 board")."""
    refs = {"palace", "deck:locations"}
    for i, p in enumerate(view["players"]):
        refs |= _player_refs(g, i, p)
    for loc in view["locations"]:
        refs.add(f"location:{loc['id']}")
        if loc["confidant"]:
            refs.add(f"confidant:{loc['confidant']}")
    pal = view["palace"]
    palace = g.cards.palaces[g.palace_index[pal["id"]]]
    refs |= {f"row:{r}" for r in range(len(palace.rows))}
    for sh in pal["shadows"]:
        card = g.cards.shadows[g.shadow_index[sh["id"]]]
        refs.add(f"shadow:{sh['id']}")
        refs |= _need_refs(sh["id"], card.health, sh["remaining"])
    if pal["boss"] is not None:
        refs.add("boss")
        refs |= _need_refs("boss", palace.boss.health, pal["boss"])
    return refs


def _target_ref(target: str) -> str:
    return "boss" if target == "boss" else f"shadow:{target}"


def action_targets(s: P5State, action: A.P5Action) -> tuple[str, ...]:
    """The refs of the things ``action`` (a legal action of ``s``) acts on, most specific
    first; an action that acts on nothing on the board (end, done) has none."""
    from velvet.p5.state import D_ALLOC, D_MIX, Split

    g = s.game
    p = s.current_player
    d = s.dec[-1] if s.dec else None
    if isinstance(action, A.Go):
        return (f"player:{action.player}",)
    if isinstance(action, A.Visit):
        return (f"location:{action.loc}",)
    if isinstance(action, A.Recruit):
        li = g.loc_index[action.loc]
        c = s.loc_conf[s.locs.index(li)] if li in s.locs else -1
        conf = (f"confidant:{g.cards.confidants[c].id}",) if c >= 0 else ()
        return (*conf, f"location:{action.loc}")
    if isinstance(action, A.Discover):
        return ("deck:locations",)
    if isinstance(action, A.Palace):
        return ("palace",)
    if isinstance(action, A.Use):
        skill = f"skill:{p}:{action.skill}"
        return (skill, _target_ref(action.target)) if action.target else (skill,)
    if isinstance(action, A.Hit):
        return (f"need:{action.target}:{action.res}", f"token:{p}:{action.res}")
    if isinstance(action, A.First):
        kind, _, ident = action.source.partition(":")
        if kind == "row":
            return (f"row:{ident}",)
        if kind == "shadow":
            return (f"shadow:{ident}",)
        if kind == "ability":
            return (f"skill:{p}:{ident}",)
        return ("boss",)
    if isinstance(action, A.StatUp):
        return (f"stat:{p}:{action.stat}",)
    if isinstance(action, A.Assign):
        if type(d) is Split and d.kind == D_ALLOC and isinstance(d.of, int):
            return (f"need:{g.target_id(d.of)}:{action.res}",)
        if type(d) is Split and d.kind == D_MIX:
            return (f"token:{p}:{action.res}",)
        return ()
    if isinstance(action, A.Equip | A.Unequip):
        return (f"held:{p}:{action.shadow}",)
    return ()


def action_note(s: P5State, action: A.P5Action) -> str | None:
    """The exact chance of each check or Dice roll ``action`` makes (``odds.action_odds``),
    e.g. "Chance: Guts 3: 70 %", or that it does nothing (:func:`idle_note`, e.g. "does
    nothing: cannot pay 1 Cash"); None for an action that rolls nothing and does something."""
    from velvet.p5.odds import action_odds

    odds = action_odds(s, action)
    return "Chance: " + "; ".join(odds) if odds else idle_note(s, action)


_BOOKKEEPING = frozenset({"visit", "use", "spend", "end_turn", "turn", "day"})
"""Events that say what was done, not what it changed: moving to a location, using a
skill, paying for it, the turn ending (with no ability left to use) and the next one."""


def idle_note(s: P5State, action: A.P5Action) -> str | None:
    """ "does nothing: REASON" when the legal ``action`` would change nothing but the
    player's place and what it pays (a Weapons Shop visit with no Cash to pay, a skill
    whose damage meets no requirement that is left), else None.

    The engine itself answers: the action is applied to a copy of ``s`` and its events
    are read. Any event that changes the game (a gain, damage that meets something, a
    check, a die, a draw, a reveal, a new decision) means it does something; only an
    action whose every event is bookkeeping or an effect that came to nothing is idle.
    No die is rolled and no hidden card is met on that path, so the note tells nothing
    the player cannot see."""
    if not isinstance(action, A.Visit | A.Use):
        return None
    g = s.game
    trial = s.clone()
    events = trial.apply(action)
    if len(trial.dec) > len(s.dec):
        return None  # a choice to make (a stat, a split): that is something
    boss = g.cards.palaces[s.palace].boss.name
    reasons: list[str] = []
    for event in events:
        d = event.data
        k = event.kind
        if k in _BOOKKEEPING:
            continue
        if k == "ignored":
            reasons.append(f"cannot pay {tokens(d['cannot_pay'])}")
        elif k == "gain" and not d["tokens"]:
            reasons.append(f"the supply has no {tokens(d['asked'])}")
        elif k == "restore" and not d["tokens"]:
            reasons.append("nothing spent to restore")
        elif k == "stat" and trial.stats[d["player"]] == s.stats[d["player"]]:
            reasons.append(f"{_stat(d['stat'])} is already at its highest")
        elif k == "damage" and "skill" in d and not d.get("typed") and not d.get("any"):
            target = shadow_name(g, str(d["target"]), boss)
            met = " + ".join(RES_NAME.get(r, r) for r in d.get("base", {})) or "nothing"
            reasons.append(f"{target} has no {met} requirement left")
        else:
            return None
    return "does nothing: " + "; ".join(dict.fromkeys(reasons)) if reasons else None
