"""The hidden-information side: what a seat sees (view), what a spectator sees, and a
full state sampled back from a view (determinize); also the words for actions.

P5 is co-operative and open: every seat sees the same, minus deck orders and the RNG.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng
from velvet.p5 import actions as A
from velvet.p5.cards import RESOURCES, STATS
from velvet.p5.difficulty import STANDARD
from velvet.p5.state import (
    AFTER,
    D_ALLOC,
    D_ENTER,
    D_MIX,
    D_PARTY,
    D_STAT,
    DISCOVER,
    FIGHT,
    IN_PALACE,
    MAIN,
    OFF,
    ORDER,
    OVER,
    PHASES,
    P5State,
    PartyDraft,
    Split,
    decisions_from_json,
    listify,
    work_from_json,
)
from velvet.p5.words import action_labels, label

if TYPE_CHECKING:
    from velvet.p5.game import P5Game
    from velvet.p5.views import P5DecisionView, P5PlayerView, P5View


def action_label(s: P5State, action: A.P5Action) -> str:
    """Words for ``action`` with card names, distinct among the legal actions."""
    text = action_labels(s).get(action)
    if text is not None:
        return text
    try:  # not legal now: words if its cards exist, else its text form
        return label(s, action)
    except (KeyError, ValueError, IndexError):
        return str(action)


def decision_labels(s: P5State) -> dict[A.P5Action, str]:
    """A label for every legal action of ``s``, made once for the whole decision."""
    return action_labels(s)


def public_view(s: P5State) -> P5View:
    """What a spectator may see: the co-operative game hides the same from every seat."""
    view = make_view(s, 0)
    view["me"] = None
    return view


def describe_decision(s: P5State) -> P5DecisionView:
    """What is being decided now and by whom (for views and UIs)."""
    g = s.game
    if s.phase == OVER:
        return {"kind": "over", "player": None, "text": s.outcome_text()}
    if s.dec:
        d = s.dec[-1]
        names = {
            D_ENTER: "enter_order",
            D_STAT: "stat",
            D_ALLOC: "allocate_any",
            D_MIX: "restore_mix",
            D_PARTY: "party",
        }
        texts = {
            D_ENTER: "choose the next On Palace Enter effect to resolve",
            D_STAT: "choose which social stat gets +1",
            D_ALLOC: "choose how many of the ANY damage meet the {res} requirement",
            D_MIX: "choose how many of the restored tokens are {res}",
            D_PARTY: "change the draft party, then confirm it with done",
        }
        text = texts[d.kind].format(res=RESOURCES[d.res]) if type(d) is Split else texts[d.kind]
        out: P5DecisionView = {"kind": names[d.kind], "player": d.player, "text": text}
        if type(d) is Split:
            out["resource"] = RESOURCES[d.res]
            out["left"] = d.left
            if d.kind == D_ALLOC and isinstance(d.of, int):
                out["target"] = g.target_id(d.of)
        if type(d) is PartyDraft:
            out["draft"] = [g.cards.shadows[x].id for x in d.draft]
        return out
    texts = {
        ORDER: "choose who takes the next turn today",
        MAIN: "take one action: visit, recruit, discover or palace",
        DISCOVER: "visit the discovered location or try to recruit its confidant",
        FIGHT: "fight in the palace, or end the turn",
        AFTER: "use abilities after your action, or end the turn",
    }
    return {"kind": PHASES[s.phase], "player": s.current_player, "text": texts.get(s.phase, "")}


def _loc_name(g: P5Game, li: int) -> str:
    if li == OFF:
        return "off"
    if li == IN_PALACE:
        return "palace"
    return g.cards.locations[li].id


def make_view(s: P5State, player: int) -> P5View:
    """Everything public (P5 is co-operative and open) minus deck orders and the RNG."""
    g = s.game
    if not 0 <= player < s.n:
        raise ConfigError(f"no player {player}: players are 0..{s.n - 1}")
    cs = g.cards
    sh = cs.shadows
    players: list[P5PlayerView] = []
    for p in range(s.n):
        players.append(
            {
                "thief": cs.thieves[s.thief[p]].id,
                "persona": cs.personas[s.persona[p]].id,
                "stats": dict(zip(STATS, s.stats[p], strict=True)),
                "fresh": dict(zip(RESOURCES, s.fresh[p], strict=True)),
                "spent": dict(zip(RESOURCES[:3], s.spent[p][:3], strict=True)),
                "location": _loc_name(g, s.loc[p]),
                "confidants": [cs.confidants[c].id for c in s.conf[p]],
                "held": [sh[x].id for x in s.held[p]],
                "drawn": [sh[x].id for x in s.drawn[p]],
                "party": [sh[x].id for x in s.party[p]],
                "grants": [dict(zip(RESOURCES[:3], x[:3], strict=True)) for x in s.grants[p]],
                "taken": [sh[x].id for x in s.taken[p]],
                "used_day": sorted(g.ab_key[a] for a in s.used_day[p]),
                "used_palace": sorted(g.ab_key[a] for a in s.used_pal[p]),
                "went": s.went[p],
            }
        )
    view: P5View = {
        "game": "p5",
        "me": player,
        "day": s.day,
        "days": g.days,
        "phase": PHASES[s.phase],
        "turn": s.turn,
        "result": s.result,
        "players": players,
        "supply": dict(zip(RESOURCES, s.supply, strict=True)),
        "locations": [
            {"id": cs.locations[li].id, "confidant": cs.confidants[c].id if c >= 0 else None}
            for li, c in zip(s.locs, s.loc_conf, strict=True)
        ],
        "discovered": cs.locations[s.disc].id if s.disc >= 0 else None,
        "party_set": s.party_set,
        "palace": {
            "id": cs.palaces[s.palace].id,
            "alert": s.alert * 25,
            "shadows": [
                {"id": sh[x].id, "remaining": dict(zip(RESOURCES, r, strict=True))}
                for x, r in zip(s.rev, s.rem, strict=True)
            ],
            "boss": dict(zip(RESOURCES, s.boss_rem, strict=True)) if s.boss_rem else None,
        },
        "decks": {
            "locations": len(s.loc_deck),
            "confidants": len(s.conf_deck),
            "shadows": len(s.shadow_deck),
        },
        "decision": describe_decision(s),
        "dec": [listify(x) for x in s.dec],
        "work": [listify(x) for x in s.work],
    }
    if g.level != STANDARD:  # a Velvet difficulty level; the rulebook's game names none
        view["difficulty"] = g.level
        # what the boss needs at this level (its card prints the rulebook's health)
        view["palace"]["boss_health"] = dict(zip(RESOURCES, g.boss_health[s.palace], strict=True))
    return view


def determinize(g: P5Game, view: P5View, player: int, rng: Rng) -> P5State:
    """A full state consistent with ``view``; deck orders and the RNG are sampled."""
    g = g.at(view.get("difficulty", "standard"))
    cs = g.cards
    sidx, cidx, lidx = g.shadow_index, g.conf_index, g.loc_index
    s = P5State()
    s._game = g
    s.rng = Rng(rng.randbelow(1 << 62))
    ps = view["players"]
    s.n = len(ps)
    s.day = view["day"]
    s.phase = PHASES.index(view["phase"])
    s.turn = view["turn"]
    s.result = view["result"]
    s.went = [p["went"] for p in ps]
    s.thief = [g.thief_index[p["thief"]] for p in ps]
    s.persona = [g.persona_index[p["persona"]] for p in ps]
    s.stats = [[p["stats"][k] for k in STATS] for p in ps]
    s.fresh = [[p["fresh"][k] for k in RESOURCES] for p in ps]
    s.spent = [[*(p["spent"][k] for k in RESOURCES[:3]), 0] for p in ps]
    s.loc = [
        OFF
        if p["location"] == "off"
        else IN_PALACE
        if p["location"] == "palace"
        else lidx[p["location"]]
        for p in ps
    ]
    s.conf = [[cidx[c] for c in p["confidants"]] for p in ps]
    s.held = [[sidx[x] for x in p["held"]] for p in ps]
    s.drawn = [[sidx[x] for x in p["drawn"]] for p in ps]
    s.party = [[sidx[x] for x in p["party"]] for p in ps]
    s.grants = [[[x["stamina"], x["sp"], x["bullet"], 0] for x in p["grants"]] for p in ps]
    s.taken = [[sidx[x] for x in p["taken"]] for p in ps]
    s.used_day = [[g.ab_index[k] for k in p["used_day"]] for p in ps]
    s.used_pal = [[g.ab_index[k] for k in p["used_palace"]] for p in ps]
    s.supply = [view["supply"][k] for k in RESOURCES]
    s.locs = [lidx[x["id"]] for x in view["locations"]]
    s.loc_conf = [cidx[x["confidant"]] if x["confidant"] else -1 for x in view["locations"]]
    s.disc = lidx[view["discovered"]] if view["discovered"] else -1
    s.party_set = bool(view["party_set"])
    pal = view["palace"]
    s.palace = g.palace_index[pal["id"]]
    s.alert = pal["alert"] // 25
    s.rev = [sidx[x["id"]] for x in pal["shadows"]]
    s.rem = [[x["remaining"][k] for k in RESOURCES] for x in pal["shadows"]]
    s.boss_rem = [pal["boss"][k] for k in RESOURCES] if pal["boss"] else []
    s.dec = decisions_from_json(view["dec"])
    s.work = work_from_json(view["work"])
    # hidden: the decks. Locations not in play; confidants not seen and not removed at set-up;
    # shadows not seen anywhere.
    in_play = set(s.locs)
    s.loc_deck = [i for i in g.loc_other if i not in in_play]
    arsene = any(g.persona_party[x] for x in s.persona)
    seen_c = {c for c in s.loc_conf if c >= 0} | {c for cl in s.conf for c in cl}
    s.conf_deck = [
        c
        for c in range(len(cs.confidants))
        if c not in seen_c
        and g.conf_thief[c] not in s.thief
        and (arsene or not g.conf_arsene_only[c])
    ]
    seen_s = set(s.rev) | {x for h in s.held for x in h} | {x for h in s.taken for x in h}
    s.shadow_deck = [i for i in range(len(cs.shadows)) if i not in seen_s]
    for deck in (s.loc_deck, s.conf_deck, s.shadow_deck):
        s.rng.shuffle(deck)
    del s.conf_deck[view["decks"]["confidants"] :]
    del s.shadow_deck[view["decks"]["shadows"] :]
    return s
