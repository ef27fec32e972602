"""Words for front ends: action labels, event sentences and card descriptions.

Everything a player reads about the Persona 5 board game comes from here, with card
names from the game's card set, so that every front end shows the same words
(``P5State.action_label``, ``P5Game.event_text``, ``P5Game.describe_card``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from velvet.engine.core import CardInfo, Event
from velvet.engine.errors import ConfigError
from velvet.i18n import _, seat_name
from velvet.p5 import actions as A
from velvet.p5.cards import (
    RESOURCES,
    STATS,
    Ability,
    ability_text,
    amount_text,
    effect_text,
    res_word,
)

if TYPE_CHECKING:
    from velvet.p5.game import P5Game
    from velvet.p5.state import P5State

KINDS = ("thief", "persona", "confidant", "shadow", "boss", "palace", "location")


_res = res_word


def tokens(counts: Mapping[Any, int] | Sequence[int]) -> str:
    """``{"stamina": 2, "cash": 1}`` (or a 4-vector) as "2 Stamina + 1 Cash"."""
    if not isinstance(counts, Mapping):
        counts = dict(zip(RESOURCES, counts, strict=False))
    return amount_text(counts) or _("nothing")


def _stat(stat: str) -> str:
    return _(stat.capitalize())


def _dice(faces: Sequence[int]) -> str:
    """Every face; the Phantom Thief symbol (5 and 6, P5-COMP-5) is marked with a star."""
    return ", ".join(f"{f}★" if f >= 5 else str(f) for f in faces) or _("no dice")


def _result(success: Any) -> str:
    return _("success") if success else _("failure")


# --- names ---------------------------------------------------------------------------------


def shadow_name(g: P5Game, ident: str, boss: str = "") -> str:
    """A shadow's name from its id; ``boss`` names the boss ("the boss" when not given)."""
    if ident == "boss":
        return _("the boss {name}").format(name=boss) if boss else _("the boss")
    i = g.shadow_index.get(ident)
    return g.cards.shadows[i].name if i is not None else ident


def ability_name(g: P5Game, key: str) -> str:
    """ "Eiha (Arsene)": the ability's name and the card it is printed on."""
    a = g.ab_index.get(key)
    if a is None:
        return key
    return _("{ability} ({card})").format(ability=g.abilities[a].name, card=g.ab_owner[a])


def _location(g: P5Game, ident: str) -> str:
    i = g.loc_index.get(ident)
    return g.cards.locations[i].name if i is not None else ident


def _confidant(g: P5Game, ident: str | None) -> str:
    if ident is None:
        return _("no confidant")
    i = g.conf_index.get(ident)
    return g.cards.confidants[i].name if i is not None else ident


def _source(g: P5Game, source: str, boss: str = "") -> str:
    """An On Palace Enter source (``row:N``, ``boss``, ``shadow:ID``, ``ability:KEY``)."""
    kind, _sep, ident = source.partition(":")
    if kind == "row" and ident.isdigit():
        return _("the {alert}% alert row").format(alert=int(ident) * 25)
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
        return _("{player} takes the next turn today").format(player=seat_name(action.player))
    if isinstance(action, A.Visit):
        li = g.loc_index[action.loc]
        place = g.cards.locations[li]
        return _("Visit {place}: {effects}").format(
            place=place.name, effects=effect_text(place.effects)
        )
    if isinstance(action, A.Recruit):
        li = g.loc_index[action.loc]
        where = g.cards.locations[li].name
        c = s.loc_conf[s.locs.index(li)] if li in s.locs else -1
        if c < 0:
            return _("Recruit at {place}").format(place=where)
        conf = g.cards.confidants[c]
        checks = _(" + ").join(_stat(x) for x in conf.checks)
        return _("Recruit {confidant} at {place} ({checks} checks)").format(
            confidant=conf.name, place=where, checks=checks
        )
    if isinstance(action, A.Discover):
        return _("Spend 1 Cash to discover a new location and its confidant")
    if isinstance(action, A.Palace):
        return _("Enter the palace, {palace} ({alert}% alert)").format(
            palace=g.cards.palaces[s.palace].name, alert=s.alert * 25
        )
    if isinstance(action, A.End):
        if s.phase == FIGHT:
            return _("End the turn (stop fighting)")
        return _("End the turn") if s.phase == AFTER else _("End")
    if isinstance(action, A.Use):
        name = ability_name(g, action.skill)
        cost = g.ab_cost[g.ab_index[action.skill]] if action.skill in g.ab_index else ()
        a = g.ab_index.get(action.skill)
        if action.target:
            target = shadow_name(g, action.target, boss)
            if any(cost):
                return _("Use {ability} on {target}, paying {cost}").format(
                    ability=name, target=target, cost=tokens(cost)
                )
            return _("Use {ability} on {target}").format(ability=name, target=target)
        if a is not None and g.ab_attack[a]:
            if any(cost):
                return _("Use {ability} on every shadow, paying {cost}").format(
                    ability=name, cost=tokens(cost)
                )
            return _("Use {ability} on every shadow").format(ability=name)
        if any(cost):
            return _("Use {ability}, paying {cost}").format(ability=name, cost=tokens(cost))
        return _("Use {ability}").format(ability=name)
    if isinstance(action, A.Hit):
        target = shadow_name(g, action.target, boss)
        if action.res == "cash":
            return _("Discard 1 {resource} against {target}'s {resource} requirement").format(
                resource=_res(action.res), target=target
            )
        return _("Spend 1 {resource} against {target}'s {resource} requirement").format(
            resource=_res(action.res), target=target
        )
    if isinstance(action, A.First):
        return _("Resolve the On Palace Enter effect of {source} next").format(
            source=_source(g, action.source, boss)
        )
    if isinstance(action, A.StatUp):
        return _("+1 {stat}").format(stat=_stat(action.stat))
    if isinstance(action, A.Assign):
        res = _res(action.res)
        if type(d) is Split and d.kind == D_ALLOC and isinstance(d.of, int):
            target = shadow_name(g, g.target_id(d.of), boss)
            return _("{n} of the {left} ANY damage meet {target}'s {resource} requirement").format(
                n=action.n, left=d.left, target=target, resource=res
            )
        if type(d) is Split and d.kind == D_MIX:
            return _("Restore {n} of the {left} tokens as {resource}").format(
                n=action.n, left=d.left, resource=res
            )
        return _("Put {n} on {resource}").format(n=action.n, resource=res)
    if isinstance(action, A.Equip | A.Unequip):
        name = shadow_name(g, action.shadow)
        joins = isinstance(action, A.Equip)
        if type(d) is PartyDraft:
            if joins:
                return _("{shadow} joins the draft party").format(shadow=name)
            return _("{shadow} leaves the draft party").format(shadow=name)
        if joins:
            return _("Change the party: {shadow} joins").format(shadow=name)
        return _("Change the party: {shadow} leaves").format(shadow=name)
    if isinstance(action, A.Done):
        if type(d) is PartyDraft:
            names = ", ".join(g.cards.shadows[x].name for x in d.draft) or _("nobody")
            if sorted(d.draft) == sorted(s.party[d.player]):
                return _("Confirm the party: {names} (unchanged)").format(names=names)
            return _("Confirm the party: {names}").format(names=names)
        return _("Confirm the party")
    return str(action)


# --- event sentences -----------------------------------------------------------------------


def _who(data: Mapping[str, Any]) -> str:
    p = data.get("player")
    return seat_name(p) if isinstance(p, int) else _("The player")


def _damage(g: P5Game, d: Mapping[str, Any]) -> str:
    target = shadow_name(g, str(d.get("target", "")))
    if "hit" in d:  # one token spent against a requirement (P5-COMBAT-2)
        res = _res(str(d["hit"]))
        return _("{who} meets 1 of {target}'s {resource} requirement with their own token.").format(
            who=_who(d), target=target, resource=res
        )
    if "any_as" in d and "skill" not in d:  # ANY damage meeting requirements (P5-COMBAT-4)
        met = tokens(d["any_as"])
        lost = int(d.get("any_lost", 0))
        if lost:
            return _(
                "ANY damage meets {met} of {target}'s requirements; {lost} ANY beyond them is lost."
            ).format(met=met, target=target, lost=lost)
        return _("ANY damage meets {met} of {target}'s requirements.").format(
            met=met, target=target
        )
    skill = ability_name(g, str(d.get("skill", "")))
    parts = []
    base = tokens(d.get("base", {}))
    if d.get("base_any"):
        if base == _("nothing"):
            base = _("{n} ANY").format(n=d["base_any"])
        else:
            base = _("{tokens} + {n} ANY").format(tokens=base, n=d["base_any"])
    parts.append(_("{skill} deals {damage}").format(skill=skill, damage=base))
    if d.get("amp"):
        parts.append(_("+{n} Bullet from Amp").format(n=d["amp"]))
    if d.get("weak"):
        parts.append(
            _("{target} is weak to it, so all {n} damage becomes ANY").format(
                target=target, n=d["any"]
            )
        )
    else:
        parts.append(
            _("it meets {met} of {target}'s requirements").format(
                met=tokens(d.get("typed", {})), target=target
            )
        )
        if d.get("lost"):
            parts.append(_("{lost} beyond them is lost").format(lost=tokens(d["lost"])))
        if d.get("any"):
            parts.append(_("{n} ANY damage to place").format(n=d["any"]))
    return _("; ").join(parts) + _(".")


def event_text(g: P5Game, event: Event) -> str:
    """A sentence for ``event`` with card names and seats as "Player 1"/"Player 2"."""
    d = event.data
    who = _who(d)
    k = event.kind
    if k == "turn":
        return _("{player} takes the turn (day {day}).").format(
            player=seat_name(d["player"]), day=d["day"]
        )
    if k == "visit":
        return _("{who} visits {place}.").format(who=who, place=_location(g, d["location"]))
    if k == "gain":
        if not d["tokens"]:
            return _("{who} gains nothing: the supply has none of {tokens}.").format(
                who=who, tokens=tokens(d["asked"])
            )
        if d["tokens"] == d["asked"]:
            return _("{who} gains {tokens}.").format(who=who, tokens=tokens(d["tokens"]))
        return _("{who} gains {tokens} (of {asked}: the supply ran out).").format(
            who=who, tokens=tokens(d["tokens"]), asked=tokens(d["asked"])
        )
    if k == "restore":
        if not d["tokens"]:
            return _("{who} has no spent token of that kind to restore.").format(who=who)
        return _("{who} restores {tokens} (spent to fresh).").format(
            who=who, tokens=tokens(d["tokens"])
        )
    if k == "spend":
        return _("{who} spends {tokens}.").format(who=who, tokens=tokens(d["tokens"]))
    if k == "ignored":
        return _("{who} cannot pay {tokens}, so that effect is ignored.").format(
            who=who, tokens=tokens(d["cannot_pay"])
        )
    if k == "stat":
        return _("{who}'s {stat} is now {value}.").format(
            who=who, stat=_stat(d["stat"]), value=d["value"]
        )
    if k == "check":
        return _("{who} makes a {stat} check: {dice} — {result}.").format(
            who=who, stat=_stat(d["stat"]), dice=_dice(d["dice"]), result=_result(d["success"])
        )
    if k == "dice":
        return _("{who} rolls the Phantom Thief die: {dice} — {result}.").format(
            who=who, dice=_dice(d["dice"]), result=_result(d["success"])
        )
    if k == "recruit":
        return _("{who} recruits {confidant}; the ability is active now.").format(
            who=who, confidant=_confidant(g, d["confidant"])
        )
    if k == "recruit_failed":
        return _("{who} fails to recruit {confidant}.").format(
            who=who, confidant=_confidant(g, d["confidant"])
        )
    if k == "discover":
        where, conf = _location(g, d["location"]), _confidant(g, d["confidant"])
        return _("{who} discovers {place}, with {confidant}.").format(
            who=who, place=where, confidant=conf
        )
    if k == "enter_palace":
        return _("{who} enters the palace at {alert}% alert.").format(who=who, alert=d["alert"])
    if k == "enter_effect":
        return _("On Palace Enter: {source}.").format(source=_source(g, d["source"]))
    if k == "use":
        skill = ability_name(g, d["skill"])
        if d.get("target"):
            return _("{who} uses {ability} on {target}.").format(
                who=who, ability=skill, target=shadow_name(g, d["target"])
            )
        return _("{who} uses {ability}.").format(who=who, ability=skill)
    if k == "damage":
        return _damage(g, d)
    if k == "miss":
        return _("{target} is not hit: the die failed.").format(target=shadow_name(g, d["target"]))
    if k == "defeat":
        return _("{who} defeats {shadow} and takes the card.").format(
            who=who, shadow=shadow_name(g, d["shadow"])
        )
    if k == "reveal":
        return _("{shadow} is revealed.").format(shadow=shadow_name(g, d["shadow"]))
    if k == "alert":
        return _("The alert rises to {alert}%.").format(alert=d["alert"])
    if k == "boss":
        return _("The palace flips: the boss {name} appears.").format(name=d["name"])
    if k == "boss_defeated":
        return _("{who} defeats the boss: everyone wins (P5-END-1).").format(who=who)
    if k == "game_over":
        return _(
            "Day {day} has passed and the boss still stands: everyone loses (P5-END-2)."
        ).format(day=g.days)
    if k == "day":
        return _("Day {day} begins.").format(day=d["day"])
    if k == "end_turn":
        return _("{who} ends the turn.").format(who=who)
    if k == "draft":
        shadow = shadow_name(g, d["shadow"])
        if d["joins"]:
            return _("{who} puts {shadow} into the draft party.").format(who=who, shadow=shadow)
        return _("{who} takes {shadow} out of the draft party.").format(who=who, shadow=shadow)
    if k == "party":
        names = ", ".join(shadow_name(g, x) for x in d["party"]) or _("nobody")
        text = _("{who}'s party is now {names}").format(who=who, names=names)
        if d["spent_gained"]:
            text += _("; gets {tokens} spent").format(tokens=tokens(d["spent_gained"]))
        if d["lost"]:
            text += _("; loses {tokens}").format(tokens=tokens(d["lost"]))
        return text + _(".")
    if k == "draw_persona":
        return _("{who} draws {shadow} as a persona.").format(
            who=who, shadow=shadow_name(g, d["shadow"])
        )
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
        text = effect_text(r.on_enter) or r.text or _("no effect")
        more = (
            _(" Reveals {n} shadow(s) per player.").format(n=r.reveal)
            if r.reveal is not None
            else ""
        )
        # the "N% alert — " head is what the board reads the row by (p5.js), in any language
        said = _("On Palace Enter: {effect}.").format(effect=text.rstrip(".。"))
        lines.append(f"{r.alert}% alert — {said}{more}")
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
    if odds:
        return _("Chance: {odds}").format(odds=_("; ").join(odds))
    return idle_note(s, action)


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
            reasons.append(_("cannot pay {tokens}").format(tokens=tokens(d["cannot_pay"])))
        elif k == "gain" and not d["tokens"]:
            reasons.append(_("the supply has no {tokens}").format(tokens=tokens(d["asked"])))
        elif k == "restore" and not d["tokens"]:
            reasons.append(_("nothing spent to restore"))
        elif k == "stat" and trial.stats[d["player"]] == s.stats[d["player"]]:
            reasons.append(_("{stat} is already at its highest").format(stat=_stat(d["stat"])))
        elif k == "damage" and "skill" in d and not d.get("typed") and not d.get("any"):
            target = shadow_name(g, str(d["target"]), boss)
            met = _(" + ").join(_res(r) for r in d.get("base", {})) or _("nothing")
            reasons.append(
                _("{target} has no {met} requirement left").format(target=target, met=met)
            )
        else:
            return None
    if not reasons:
        return None
    return _("does nothing: {reasons}").format(reasons=_("; ").join(dict.fromkeys(reasons)))
