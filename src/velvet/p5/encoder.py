"""The observation encoder of the P5 board game for the RL adapters (``GameSpec.encoder``).

As :mod:`velvet.vs.encoder`: ``encode(view, seat)`` is defined on the seat's view and
``encode_state(state, seat)`` reads the same from the state's fields
(:data:`P5_STATE_FIELDS`), element for element. docs/rl.md lists every block.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from mypy_extensions import mypyc_attr

from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.p5.game import P5Game
from velvet.p5.state import PHASES
from velvet.p5.view import describe_decision

Vector = npt.NDArray[np.float32]
"""An observation (``velvet.adapters.encoding.Vector``)."""

P5_PHASES = ("order", "main", "discover", "fight", "ending", "over", "after")
P5_DECISIONS = (
    *P5_PHASES,
    "enter_order",
    "stat",
    "allocate_any",
    "restore_mix",
    "party",
)
P5_RESOURCES = ("stamina", "sp", "bullet", "cash")
P5_STATS = ("knowledge", "guts", "proficiency", "compassion", "charm")
P5_STATE_FIELDS = (
    "n",
    "day",
    "phase",
    "turn",
    "result",
    "party_set",
    "dec",
    "thief",
    "persona",
    "stats",
    "fresh",
    "spent",
    "loc",
    "conf",
    "held",
    "drawn",
    "party",
    "taken",
    "grants",
    "used_day",
    "used_pal",
    "went",
    "supply",
    "locs",
    "loc_conf",
    "disc",
    "palace",
    "alert",
    "rev",
    "rem",
    "boss_rem",
    "loc_deck",  # sizes only, as the deck orders are hidden
    "conf_deck",
    "shadow_deck",
)
"""The P5 state fields ``encode_state`` reads (read-only), beside ``current_player``."""
P5_REVEALED = 4
"""Revealed palace shadows encoded one by one (more are summed into the last slot)."""


class _P5Track:
    """What :meth:`P5Encoder.encode_state` keeps for one seat (and number of players).

    ``memo`` holds, per player slot, eight entries (thief/persona/place, confidants,
    the held, drawn, party and taken shadows, the stats and tokens, the four counts)
    and, last, the board's seven (phase/decision/discovered/palace, locations, their
    confidants, revealed shadows, needs, flags, supply); each entry is ``[the part as
    last seen, the entries it wrote]`` (for the scalar parts and the needs, the second
    item is unused or what the boss still needs).
    """

    __slots__ = ("buf", "memo", "vector")

    def __init__(self, players: int, size: int) -> None:
        self.buf = array("f", bytes(4 * size))
        self.vector: Vector = np.frombuffer(self.buf, dtype=np.float32)
        self.memo: list[list[list[Any]]] = [[[None, []] for _ in range(8)] for _ in range(players)]
        self.memo.append([[None, []] for _ in range(4)] + [[None, None] for _ in range(3)])


def _ones(buf: array[float], entry: list[Any], part: Any, ones: list[int]) -> None:
    """Rewrite one part that is a set of ones: clear the old entries, set the new."""
    for i in entry[1]:
        buf[i] = 0.0
    for i in ones:
        buf[i] = 1.0
    entry[0] = part
    entry[1] = ones


def _write(buf: array[float], at: int, values: list[float]) -> None:
    """Write ``values`` into ``buf`` from ``at`` on."""
    for i, v in enumerate(values, at):
        buf[i] = v


def _counts(buf: array[float], entry: list[Any], part: Any, ones: list[int]) -> None:
    """Rewrite one part that counts (a shadow zone may hold a shadow twice)."""
    for i in entry[1]:
        buf[i] = 0.0
    for i in ones:
        buf[i] += 1.0
    entry[0] = part
    entry[1] = ones


@mypyc_attr(native_class=False)  # compiled build: a __dict__, which __getstate__ copies
class P5Encoder:
    """The P5 board game (co-operative, open): every seat's thief, the board and the palace."""

    def __init__(self, game: Game[Any], players: int) -> None:
        ids = _card_ids(game)
        self.players = players
        self.ix = {kind: {c: i for i, c in enumerate(xs)} for kind, xs in ids.items()}
        self.counts = {kind: len(xs) for kind, xs in ids.items()}
        c = self.counts
        self.player_width = (
            c["thieves"]
            + c["personas"]
            + len(P5_STATS)
            + len(P5_RESOURCES)
            + 3
            + c["locations"]
            + 1
            + c["confidants"]
            + 4 * c["shadows"]
            + 4
        )
        self.board_width = (
            6
            + len(P5_PHASES)
            + len(P5_DECISIONS)
            + 1
            + len(P5_RESOURCES)
            + c["locations"]
            + c["confidants"]
            + c["locations"]
            + c["palaces"]
            + 1
            + c["shadows"]
            + P5_REVEALED * len(P5_RESOURCES)
            + 1
            + len(P5_RESOURCES)
            + 3
        )
        self.size = players * self.player_width + self.board_width
        self._phase_name = tuple(PHASES)
        self._tokens = len(P5_STATS) + len(P5_RESOURCES) + 3
        """Per player slot: stats, fresh tokens and spent ones, after thief and persona."""
        at = self.players * self.player_width + 6 + len(P5_PHASES) + len(P5_DECISIONS) + 1
        self._board_places = at + len(P5_RESOURCES)
        """Where the board's location block starts (then its confidants, the discovered
        place and the palace)."""
        self._board_shadows = (
            self._board_places + 2 * c["locations"] + c["confidants"] + c["palaces"] + 1
        )
        """Where the revealed shadows' block starts (then what they need, then the boss)."""
        self._tracks: dict[tuple[int, int], _P5Track] = {}
        if set(self._phase_name) != set(P5_PHASES):
            raise ValueError("the P5 phase names changed: the observation layout needs a look")

    def __getstate__(self) -> dict[str, Any]:
        """Copies and pickles start without the kept vectors (as :class:`VsEncoder`)."""
        state = self.__dict__.copy()
        state["_tracks"] = {}
        return state

    def _player(self, out: Vector, at: int, p: Mapping[str, Any]) -> None:
        ix, c = self.ix, self.counts
        out[at + ix["thieves"][p["thief"]]] = 1.0
        at += c["thieves"]
        out[at + ix["personas"][p["persona"]]] = 1.0
        at += c["personas"]
        for k, stat in enumerate(P5_STATS):
            out[at + k] = p["stats"][stat] / 10.0
        at += len(P5_STATS)
        for k, res in enumerate(P5_RESOURCES):
            out[at + k] = p["fresh"][res] / 10.0
        at += len(P5_RESOURCES)
        for k, res in enumerate(P5_RESOURCES[:3]):
            out[at + k] = p["spent"][res] / 10.0
        at += 3
        loc = ix["locations"].get(p["location"])
        out[at + (loc if loc is not None else c["locations"])] = 1.0
        at += c["locations"] + 1
        for conf in p["confidants"]:
            out[at + ix["confidants"][conf]] = 1.0
        at += c["confidants"]
        for zone in ("held", "drawn", "party", "taken"):
            for sh in p[zone]:
                out[at + ix["shadows"][sh]] += 1.0
            at += c["shadows"]
        out[at] = len(p["grants"]) / 4.0
        out[at + 1] = len(p["used_day"]) / 4.0
        out[at + 2] = len(p["used_palace"]) / 4.0
        out[at + 3] = 1.0 if p["went"] else 0.0

    def encode(self, view: Mapping[str, Any], seat: int) -> Vector:
        out = np.zeros(self.size, dtype=np.float32)
        players: Sequence[Mapping[str, Any]] = view["players"]
        order = [seat, *(p for p in range(len(players)) if p != seat)]
        for slot, p in enumerate(order[: self.players]):
            self._player(out, slot * self.player_width, players[p])
        ix, c = self.ix, self.counts
        at = self.players * self.player_width
        decision = view["decision"]
        out[at : at + 6] = [
            view["day"] / max(1, view["days"]),
            1.0 if view["turn"] == seat else 0.0,
            1.0 if decision.get("player") == seat else 0.0,
            float(view["result"] > 0),
            float(view["result"] < 0),
            1.0 if view["party_set"] else 0.0,
        ]
        at += 6
        out[at + P5_PHASES.index(view["phase"])] = 1.0
        at += len(P5_PHASES)
        kind = decision["kind"]
        out[at + (P5_DECISIONS.index(kind) if kind in P5_DECISIONS else len(P5_DECISIONS))] = 1.0
        at += len(P5_DECISIONS) + 1
        for k, res in enumerate(P5_RESOURCES):
            out[at + k] = view["supply"][res] / 20.0
        at += len(P5_RESOURCES)
        for place in view["locations"]:
            out[at + ix["locations"][place["id"]]] = 1.0
            if place["confidant"] is not None:
                out[at + c["locations"] + ix["confidants"][place["confidant"]]] = 1.0
        at += c["locations"] + c["confidants"]
        if view["discovered"] is not None:
            out[at + ix["locations"][view["discovered"]]] = 1.0
        at += c["locations"]
        palace = view["palace"]
        out[at + ix["palaces"][palace["id"]]] = 1.0
        at += c["palaces"]
        out[at] = palace["alert"] / 100.0
        at += 1
        for k, shadow in enumerate(palace["shadows"]):
            out[at + ix["shadows"][shadow["id"]]] = 1.0
            slot = at + c["shadows"] + min(k, P5_REVEALED - 1) * len(P5_RESOURCES)
            for r, res in enumerate(P5_RESOURCES):
                out[slot + r] += shadow["remaining"][res] / 10.0
        at += c["shadows"] + P5_REVEALED * len(P5_RESOURCES)
        boss = palace["boss"]
        if boss is not None:
            out[at] = 1.0
            for r, res in enumerate(P5_RESOURCES):
                out[at + 1 + r] = boss[res] / 10.0
        at += 1 + len(P5_RESOURCES)
        decks = view["decks"]
        out[at : at + 3] = [
            decks["locations"] / 20.0,
            decks["confidants"] / 20.0,
            decks["shadows"] / 40.0,
        ]
        return out

    def encode_state(self, state: Any, seat: int, into: Vector | None = None) -> Vector:
        """``encode(state.view(seat), seat)``, read straight from the state's fields
        (written into ``into`` and returned, if given: the vector env's batch row).

        The same vector (tests/adapters/test_encoding.py checks it over many random
        positions, in play order and out of it) without building the view first; it
        reads :data:`P5_STATE_FIELDS`, none of them hidden (the view hides only deck
        orders, and reads their sizes).

        How: incrementally, as the VS encoder does. For each seat the encoder keeps the
        last vector it gave and the parts of the state it was made from: each player's
        thief, persona and place, confidants and four shadow zones; the phase and
        decision; the board's locations, confidants, discovered place and palace; the
        revealed shadows with what they and the boss still need; the scalars (stats,
        tokens, counts, flags, supply). A part that differs is rewritten (the one-hot
        and count entries are small integers, exact in float32; a scalar is written as
        numpy would write it); the alert and deck sizes are written each time; then
        the vector is copied.
        """
        s = state
        n = s.n
        if not 0 <= seat < n:
            raise ConfigError(f"no player {seat}: players are 0..{n - 1}")
        t = self._tracks.get((seat, n))
        if t is None:
            t = self._tracks[(seat, n)] = _P5Track(self.players, self.size)
        buf = t.buf
        memo = t.memo
        c = self.counts
        n_loc = c["locations"]
        n_sh = c["shadows"]
        pw = self.player_width
        order = [seat, *(p for p in range(n) if p != seat)]
        thief, persona, loc = s.thief, s.persona, s.loc
        stats, fresh, spent = s.stats, s.fresh, s.spent
        grants, used_day, used_pal, went = s.grants, s.used_day, s.used_pal, s.went
        for slot, p in enumerate(order[: self.players]):
            at = slot * pw
            m = memo[slot]
            where = loc[p]
            key = (thief[p], persona[p], where)
            e = m[0]
            if key != e[0]:
                at_loc = at + c["thieves"] + c["personas"] + self._tokens
                _ones(
                    buf,
                    e,
                    key,
                    [
                        at + key[0],
                        at + c["thieves"] + key[1],
                        at_loc
                        + (where if where >= 0 else n_loc),  # off the board, or in the palace
                    ],
                )
            at += c["thieves"] + c["personas"] + self._tokens + n_loc + 1
            conf = s.conf[p]
            e = m[1]
            if conf != e[0]:
                _ones(buf, e, conf[:], [at + x for x in conf])
            at += c["confidants"]
            for e, zone in zip(
                m[2:6], (s.held[p], s.drawn[p], s.party[p], s.taken[p]), strict=True
            ):  # the four shadow zones, one count per shadow each
                if zone != e[0]:
                    _counts(buf, e, zone[:], [at + x for x in zone])
                at += n_sh
            # The scalars: stats, fresh tokens, spent ones, then four counts.
            at = slot * pw + c["thieves"] + c["personas"]
            e = m[6]
            tokens = (stats[p], fresh[p], spent[p])
            if tokens != e[0]:
                sp = spent[p]
                _write(
                    buf,
                    at,
                    [
                        *(v / 10.0 for v in stats[p]),
                        *(v / 10.0 for v in fresh[p]),
                        sp[0] / 10.0,
                        sp[1] / 10.0,
                        sp[2] / 10.0,
                    ],
                )
                e[0] = (stats[p][:], fresh[p][:], sp[:])
            e = m[7]
            counts = (len(grants[p]), len(used_day[p]), len(used_pal[p]), went[p])
            if counts != e[0]:
                _write(
                    buf,
                    at + self._tokens + n_loc + 1 + c["confidants"] + 4 * n_sh,
                    [
                        counts[0] / 4.0,
                        counts[1] / 4.0,
                        counts[2] / 4.0,
                        1.0 if counts[3] else 0.0,
                    ],
                )
                e[0] = counts
        at = self.players * pw
        phase = self._phase_name[s.phase]
        if phase == "over":
            kind, decider = "over", None
        elif not s.dec:
            kind, decider = phase, s.current_player
        else:
            decision = describe_decision(s)
            kind, decider = decision["kind"], decision.get("player")
        result = s.result
        board = memo[-1]
        flags = (s.day, s.turn == seat, decider == seat, result, s.party_set)
        e = board[5]
        if flags != e[0]:
            _write(
                buf,
                at,
                [
                    s.day / max(1, s.game.days),
                    1.0 if flags[1] else 0.0,
                    1.0 if flags[2] else 0.0,
                    float(result > 0),
                    float(result < 0),
                    1.0 if s.party_set else 0.0,
                ],
            )
            e[0] = flags
        at += 6
        where_now = (phase, kind, s.disc, s.palace)
        e = board[0]
        if where_now != e[0]:
            phase_at = at
            kind_at = phase_at + len(P5_PHASES)
            disc_at = self._board_places + n_loc + c["confidants"]
            ones = [
                phase_at + P5_PHASES.index(phase),
                kind_at + (P5_DECISIONS.index(kind) if kind in P5_DECISIONS else len(P5_DECISIONS)),
                disc_at + n_loc + s.palace,
            ]
            if s.disc >= 0:
                ones.append(disc_at + s.disc)
            _ones(buf, e, where_now, ones)
        supply = s.supply
        e = board[6]
        if supply != e[0]:
            _write(buf, self._board_places - len(P5_RESOURCES), [v / 20.0 for v in supply])
            e[0] = supply[:]
        at = self._board_places
        locs = s.locs
        e = board[1]
        if locs != e[0]:
            _ones(buf, e, locs[:], [at + place for place in locs])
        loc_conf = s.loc_conf
        e = board[2]
        if loc_conf != e[0]:
            conf_at = at + n_loc
            _ones(buf, e, loc_conf[:], [conf_at + x for x in loc_conf if x >= 0])
        at = self._board_shadows
        buf[at - 1] = s.alert * 25 / 100.0
        rev = s.rev
        e = board[3]
        if rev != e[0]:
            _ones(buf, e, rev[:], [at + shadow for shadow in rev])
        rem, boss = s.rem, s.boss_rem
        e = board[4]
        if rem != e[0] or boss != e[1]:
            self._needs(t.vector, len(rev), rem, boss)
            e[0] = [need[:] for need in rem]
            e[1] = boss[:]
        at = self.size - 3
        buf[at] = len(s.loc_deck) / 20.0
        buf[at + 1] = len(s.conf_deck) / 20.0
        buf[at + 2] = len(s.shadow_deck) / 40.0
        if into is None:
            return t.vector.copy()
        into[:] = t.vector
        return into

    def _needs(self, out: Vector, revealed: int, rem: Any, boss: Any) -> None:
        """Write what the revealed shadows (``rem``) and the boss still need into ``out``."""
        res = len(P5_RESOURCES)
        need_at = self._board_shadows + self.counts["shadows"]
        boss_at = need_at + P5_REVEALED * res
        out[need_at : boss_at + 1 + res] = 0.0
        head = min(revealed, P5_REVEALED - 1)
        if head:
            out[need_at : need_at + head * res] = [v / 10.0 for need in rem[:head] for v in need]
        if revealed >= P5_REVEALED:  # the last slot sums the rest, in float32 as encode does
            slot = need_at + (P5_REVEALED - 1) * res
            acc = out[slot : slot + res]
            for need in rem[P5_REVEALED - 1 :]:
                acc += np.array([v / 10.0 for v in need], np.float32)
        if boss:
            out[boss_at : boss_at + 1 + res] = [1.0, *(v / 10.0 for v in boss)]


def _card_ids(game: Game[Any]) -> dict[str, tuple[str, ...]]:
    """The ids of each P5 card kind of the game's card set."""
    if not isinstance(game, P5Game):
        raise TypeError(f"the P5 encoder encodes the P5 board game, not game '{game.name}'")
    kinds = ("thieves", "personas", "confidants", "shadows", "palaces", "locations")
    return {kind: tuple(str(c.id) for c in getattr(game.cards, kind)) for kind in kinds}
