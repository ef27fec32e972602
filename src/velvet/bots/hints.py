"""Hints that explain: the hard bot's top choices for a seat, from that seat's view only.

:func:`hints` runs the same tree search as the ``hard`` level (MCTS for P5,
ISMCTS for VS, the game's tuning) on states sampled from ``state.view(seat)``
and returns the three actions it visited most, each with the search's mean
value (its estimate of the chance to win after that action), a rough margin of
error, and a one-line reason built from the search: what the action does on a
sampled state (the game's event sentences), the follow-up the search expects,
and how far ahead of the next choice it is. Every random number is seeded from
the view itself, so two positions a seat cannot tell apart get the same hints.

The search's mean value is a heuristic score (short playouts scored by the game's
evaluator), not a chance: each game's spec ``hint_calibration`` maps it to the measured
chance to win if every seat then plays on like the :data:`ASSUMED_BOT` bot (a logistic map
per game fitted on held-out positions by ``benchmarks/calibration.py``; docs/lab.md, "Honest
chances").

:func:`forecast` (P5) plays whole games from sampled states of a view with a bot
in every seat and reports the chance of beating the boss before the days run
out, with its 95 % Wilson interval.
"""

from __future__ import annotations

import bisect
import hashlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from velvet.bots.budget import Budget
from velvet.bots.evaluators import determinize, get_evaluator
from velvet.bots.mcts import ISMCTSBot, MCTSBot, _Node
from velvet.bots.registry import LEVEL_DEFAULTS
from velvet.engine.core import Game, State, canonical_json, player_name
from velvet.engine.errors import ConfigError, VelvetError
from velvet.engine.rng import Rng
from velvet.engine.spec import CalibrationMap
from velvet.games import find_spec

_SEED_RANGE = 1 << 62
TOP = 3
REASON_CHARS = 160

ASSUMED_BOT = "easy"
"""Whose play a hint's chance and the P5 forecast assume from the position on: every seat
playing like this level (the outcomes ``benchmarks/calibration.py`` measured them against)."""
CALIBRATION_BUDGET = 800
"""The search budget (simulations) at which the games' ``hint_calibration`` was fitted.

Each game's GameSpec ``hint_calibration`` maps the search's mean value to the chance to win:
(a, b) of chance = 1 / (1 + exp(-(a · logit(value) + b))) (Platt scaling), or (value,
chance) points joined by straight lines (isotonic regression); fitted by
``benchmarks/calibration.py --fit`` on the even-numbered positions of its seed-23 run
(``benchmarks/data/calibration-rows-seed23.json``) and measured on the odd ones (docs/lab.md,
"Honest chances"). A game without one gets the value itself."""
_CLIP = 0.005


def _logit(p: float) -> float:
    p = min(max(p, _CLIP), 1 - _CLIP)
    return math.log(p / (1 - p))


def calibrated(
    game_name: str, value: float, table: Mapping[str, CalibrationMap] | None = None
) -> float:
    """The chance to win that a search value ``value`` stands for in ``game_name`` (through
    ``table``'s map for it, else its spec's ``hint_calibration``)."""
    if table is not None:
        found: CalibrationMap | None = table.get(game_name)
    else:
        spec = find_spec(game_name)
        found = spec.hint_calibration if spec else None
    return apply_map(found, value)


def apply_map(mapping: CalibrationMap | None, value: float) -> float:
    """``value`` through a calibration map (:data:`velvet.engine.spec.CalibrationMap`); None:
    the value itself (kept off 0 and 1 as Platt's (1, 0) keeps it)."""
    if mapping is None:
        mapping = (1.0, 0.0)
    first = mapping[0]
    if isinstance(first, tuple):  # isotonic points: straight lines between, flat outside
        points = cast("tuple[tuple[float, float], ...]", mapping)
        xs = [x for x, _ in points]
        at = bisect.bisect_right(xs, value)
        if at == 0:
            return points[0][1]
        if at == len(points):
            return points[-1][1]
        (x0, c0), (x1, c1) = points[at - 1], points[at]
        return c0 + (c1 - c0) * (value - x0) / (x1 - x0) if x1 > x0 else c1
    a, b = cast("tuple[float, float]", mapping)
    z = a * _logit(value) + b
    return 1 / (1 + math.exp(-z)) if z > -700 else 0.0


def assumed_bot(game_name: str) -> str:
    """The level whose play every chance shown in ``game_name`` assumes from the position on
    (the hint's calibrated chance, the forecast's games): the GameSpec's ``chance_bot``,
    else :data:`ASSUMED_BOT`."""
    spec = find_spec(game_name)
    return spec.chance_bot if spec is not None else ASSUMED_BOT


def level_words(bot: str, game_name: str) -> str:
    """What the bot ``bot`` is in ``game_name``, in words, from the game's level table
    (``GameSpec.levels``): 'greedy, 5 samples a move', 'MCTS, 30 simulations a move'; a spec
    that is not a bare level (``mcts:200``) is said as given."""
    from velvet.bots.registry import LEVELS, level_default

    if bot not in LEVELS:
        return bot
    kind, budget = level_default(bot, game_name)
    if kind in ("search", "expert"):
        from velvet.bots.expert import get_expert

        spec = find_spec(game_name)
        search = (spec.search if spec is not None else "ismcts").upper()
        expert = kind == "expert" and get_expert(game_name) is not None
        kind = f"{search} with the game's expert helpers" if expert else search
    else:
        kind = kind.upper() if kind in ("mcts", "ismcts") else kind
    unit = "samples" if kind == "greedy" else "simulations"
    if budget.count is not None:
        amount = f"{budget.count} {unit if budget.count != 1 else unit[:-1]} a move"
    else:
        amount = f"{budget.seconds:g} s a move"
    return f"{kind}, {amount}"


def level_spec(bot: str, game_name: str) -> str:
    """The bot ``bot`` stands for in ``game_name`` as a spec of kind and budget: ``easy`` in
    VS is ``greedy:5`` (what ``benchmarks/calibration.py`` records beside its rows)."""
    from velvet.bots.registry import LEVELS, level_default

    if bot not in LEVELS:
        return bot
    kind, budget = level_default(bot, game_name)
    if kind == "search":
        spec = find_spec(game_name)
        kind = spec.search if spec is not None else "ismcts"
    return f"{kind}:{budget}"


def assumed_play(bot: str, players: int, game_name: str | None = None) -> str:
    """Whose play a chance assumes, in words: 'if you play on like the easy bot'; given
    ``game_name``, with what that level is in the game: 'if you play on like the easy bot
    (greedy, 5 samples a move)'."""
    who = {1: "you play", 2: "both players play"}.get(players, f"all {players} players play")
    what = f" ({level_words(bot, game_name)})" if game_name is not None else ""
    if what == f" ({bot})":
        what = ""
    return f"if {who} on like the {bot} bot{what}"


@dataclass(frozen=True, slots=True)
class Hint:
    """One suggested action with the search's estimate and why."""

    action: Any
    label: str
    win: float
    """The chance to win after this action if every seat then plays like ``bot``: the
    search's mean value through the game's ``hint_calibration`` map."""
    margin: float
    """Half-width of a rough 95 % interval on ``win`` (the visits behind the value, mapped)."""
    visits: int
    reason: str
    value: float = math.nan
    """The search's own mean value (a heuristic score, before calibration)."""
    bot: str = ASSUMED_BOT
    """Whose play ``win`` assumes from here on (a level: the game's ``chance_bot``)."""
    game: str = ""
    """The game's name (``assumes`` says what ``bot`` is in it); empty: unknown."""
    spread: float = 0.0
    """Half-width of a 95 % range of the real chance among positions the search values
    alike (1.96 × the game's measured ``hint_spread``): how far ``win`` may be from this
    position's own chance, beyond ``margin``. 0: not measured."""

    @property
    def chance_margin(self) -> float:
        """Half-width of a rough 95 % interval on this position's chance to win (``margin``
        and ``spread`` together): what a forecast of the same play is compared against.
        ``margin`` alone compares the moves of one position (they share the spread)."""
        return min(math.hypot(self.margin, self.spread), 1.0)

    def assumes(self, players: int = 1) -> str:
        """Whose play ``win`` assumes, in words: 'if you play on like the easy bot (…)'."""
        return assumed_play(self.bot, players, self.game or None)

    def line(self, players: int = 1) -> str:
        return (
            f"{self.label}: {self.win:.0%} ± {self.margin:.0%} to win "
            f"{self.assumes(players)} ({self.visits} simulations) — {self.reason}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "action": str(self.action),
            "label": self.label,
            "win": round(self.win, 4),
            "margin": round(self.margin, 4),
            "value": round(self.value, 4),
            "bot": self.bot,
            "bot_is": level_words(self.bot, self.game) if self.game else self.bot,
            "spread": round(self.spread, 4),
            "chance_margin": round(self.chance_margin, 4),
            "visits": self.visits,
            "reason": self.reason,
        }


def view_seed(view: dict[str, Any], salt: int = 0) -> int:
    """A seed drawn from the view alone (and ``salt``): equal views, equal seeds."""
    digest = hashlib.sha256(f"{salt}:{canonical_json(view)}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def _search_bot(game: Game[Any], budget: Budget) -> MCTSBot:
    spec = find_spec(game.name)
    kind = spec.search if spec is not None else "ismcts"
    tuning = spec.search_tuning if spec is not None else {}
    cls = MCTSBot if kind == "mcts" else ISMCTSBot
    return cls(
        budget,
        exploration=float(tuning.get("exploration", 1.4)),
        max_playout=int(tuning.get("max_playout", 300)),
    )


def _label(state: State[Any], action: Any) -> str:
    try:
        return state.action_label(action)
    except Exception:  # a game's labels must never break a hint
        return str(action)


def hints(
    state: State[Any],
    seat: int,
    budget: Budget | int | None = None,
    top: int = TOP,
    stop: Callable[[], bool] | None = None,
) -> list[Hint]:
    """The ``top`` best actions for ``seat`` (who must be deciding), from its view only.

    ``budget`` is a number of simulations or a :class:`Budget` (default: the
    ``hard`` level's, 800). ``stop`` (optional) is asked before each simulation after the
    first; once it returns True the search ends early (the answer is no longer wanted:
    the hints then rest on the simulations made). Raises ConfigError when the game is
    over or ``seat`` is not the one deciding.
    """
    return _hints(state, seat, budget, top, stop, None)[0]


PLAYED_VISITS = 48
""":func:`judge` searches on below the played action until it has this many visits (or as
many as the best action, if fewer), so a move the search neglects is still measured."""


def judge(
    state: State[Any],
    seat: int,
    played: Any,
    budget: Budget | int | None = None,
    top: int = 1,
    stop: Callable[[], bool] | None = None,
    more: Budget | None = None,
) -> tuple[list[Hint], Hint | None]:
    """The ``top`` hints for ``seat`` and the estimate of the action ``played``, both from
    one search of the view: the search of :func:`hints` (so its hints are the same), then
    up to ``more`` simulations (default: :data:`PLAYED_VISITS`) below ``played`` alone,
    on samples of the same view, until it has :data:`PLAYED_VISITS` visits.

    The played action's :class:`Hint` is None when the search never tried it."""
    return _hints(state, seat, budget, top, stop, played, more or Budget(count=PLAYED_VISITS))


def _hints(
    state: State[Any],
    seat: int,
    budget: Budget | int | None,
    top: int,
    stop: Callable[[], bool] | None,
    played: Any,
    more: Budget | None = None,
) -> tuple[list[Hint], Hint | None]:
    if state.is_terminal():
        raise ConfigError("the game is over: there is nothing to hint")
    if seat != state.current_player:
        raise ConfigError(
            f"{player_name(seat)} is not deciding now ({player_name(state.current_player)} "
            "is): hints are for the player whose decision it is"
        )
    if isinstance(budget, int):
        budget = Budget(count=budget)
    budget = budget or LEVEL_DEFAULTS["hard"][1]
    game = state.game
    view = state.view(seat)
    legal = state.legal_actions()
    rng = Rng(view_seed(view))
    bot = _search_bot(game, budget)
    evaluate = get_evaluator(game.name)
    root = _Node(seat)
    meter = budget.meter()
    while meter.more():
        if stop is not None and meter.done > 1 and stop():
            break
        sample = determinize(game, view, seat, Rng(rng.randbelow(_SEED_RANGE)))
        bot._iterate(game, sample, root, seat, rng, evaluate)  # the bot's own search step
    ranked: list[tuple[float, float, int]] = []
    for i, action in enumerate(legal):
        child = root.children.get(action)
        if child is not None and child.visits:
            ranked.append((child.visits, child.total / child.visits, i))
    ranked.sort(key=lambda r: (r[0], r[1], -r[2]), reverse=True)
    sample_seed = rng.randbelow(_SEED_RANGE)
    shown = range(min(top, len(ranked)))
    out = [_hint_at(state, view, seat, legal, root, ranked, r, sample_seed) for r in shown]
    if played is None or played not in legal:
        return out, None
    child = root.children.get(played)
    want = min(PLAYED_VISITS, int(ranked[0][0]) if ranked else PLAYED_VISITS)
    if more is not None and (child is None or child.visits < want):
        extra = more.meter()
        while extra.more() and (child is None or child.visits < want):
            if stop is not None and stop():
                break
            sample = determinize(game, view, seat, Rng(rng.randbelow(_SEED_RANGE)))
            bot._iterate(game, sample, root, seat, rng, evaluate, root_moves=[played])
            child = root.children.get(played)
        ranked = [
            (c.visits, c.total / c.visits, i)
            if (c := root.children.get(legal[i])) is not None and c.visits
            else (v, m, i)
            for v, m, i in ranked
        ]
        if child is not None and child.visits and not any(legal[i] == played for *_, i in ranked):
            ranked.append((child.visits, child.total / child.visits, legal.index(played)))
    ranks = [rank for rank, (_, _, i) in enumerate(ranked) if legal[i] == played]
    if not ranks:
        return out, None
    if ranks[0] < len(out) and out[ranks[0]].visits == ranked[ranks[0]][0]:
        return out, out[ranks[0]]
    return out, _hint_at(state, view, seat, legal, root, ranked, ranks[0], sample_seed)


def _hint_at(
    state: State[Any],
    view: dict[str, Any],
    seat: int,
    legal: list[Any],
    root: _Node,
    ranked: list[tuple[float, float, int]],
    rank: int,
    sample_seed: int,
) -> Hint:
    """The hint of the ``rank``-th action of ``ranked`` (visits, mean, index in legal)."""
    game = state.game
    visits, mean, i = ranked[rank]
    action = legal[i]
    child = root.children.get(action)
    nxt = ranked[rank + 1] if rank + 1 < len(ranked) else None
    reason = _reason(game, view, seat, action, child, mean, nxt, sample_seed)
    chance, margin = _chance(game.name, mean, visits)
    bot = assumed_bot(game.name)
    spec = find_spec(game.name)
    spread = 1.96 * spec.hint_spread if spec is not None else 0.0
    return Hint(
        action,
        _label(state, action),
        chance,
        margin,
        int(visits),
        reason,
        mean,
        bot,
        game.name,
        spread,
    )


def _chance(game_name: str, mean: float, visits: float) -> tuple[float, float]:
    """The calibrated chance of a search value and its margin: the value's rough 95 %
    interval (values lie in [0, 1], so their variance is at most mean · (1 − mean)) carried
    through the map."""
    chance = calibrated(game_name, mean)
    if not visits:
        return chance, 1.0
    spread = 1.96 * math.sqrt(max(mean * (1 - mean), 0.0) / visits)
    low = calibrated(game_name, max(mean - spread, 0.0))
    high = calibrated(game_name, min(mean + spread, 1.0))
    return chance, min(max(high - chance, chance - low), 1.0)


def _reason(
    game: Game[Any],
    view: dict[str, Any],
    seat: int,
    action: Any,
    child: _Node | None,
    mean: float,
    nxt: tuple[float, float, int] | None,
    sample_seed: int,
) -> str:
    """What the action does (on one sampled state), what the search expects next, the gap."""
    parts: list[str] = []
    # what the action does on three samples; only sentences true in all of them are said, so
    # a sampled hidden card or a die roll never reaches the reason
    seeds = Rng(sample_seed)
    samples = [determinize(game, view, seat, Rng(seeds.randbelow(_SEED_RANGE))) for _ in "abc"]
    told: list[list[str]] = []
    for sample in samples:
        try:
            events = sample.apply(action)
        except VelvetError:  # a sample may disagree with the view's legal list
            events = []
        told.append([game.event_text(e).rstrip(".") for e in events])
    said = [s for s in told[0] if s and all(s in other for other in told[1:])]
    if said:
        parts.append(", ".join(said[:2]))
    sample = samples[0]
    if child is not None and child.children and not sample.is_terminal():
        follow = max(child.children.items(), key=lambda kv: kv[1].visits)
        if follow[0] in sample.legal_actions():
            who = "then" if follow[1].mover == seat else "expects the reply"
            parts.append(f"{who}: {_label(sample, follow[0])}")
    if sample.is_terminal():
        parts.append("ends the game")
    if nxt is not None and not math.isnan(mean):
        gap = mean - nxt[1]
        if abs(gap) >= 0.005:
            parts.append(f"{abs(gap):.0%} {'ahead of' if gap > 0 else 'behind'} the next choice")
    text = "; ".join(parts) or "the search's most visited choice"
    return text if len(text) <= REASON_CHARS else text[: REASON_CHARS - 1].rstrip() + "…"


# --- P5 forecast -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Forecast:
    """The chance to win from a position, over ``games`` sampled games of ``bot``."""

    wins: int
    games: int
    low: float
    high: float
    bot: str
    days: int
    game: str = ""
    """The game's name (``assumes`` says what ``bot`` is in it); empty: unknown."""

    def assumes(self, players: int = 1) -> str:
        """Whose play ``rate`` assumes, in words: 'if you play on like the easy bot (…)'."""
        return assumed_play(self.bot, players, self.game or None)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def margin(self) -> float:
        return (self.high - self.low) / 2

    def line(self, players: int = 1) -> str:
        return (
            f"chance to beat the boss by day {self.days} {self.assumes(players)}: "
            f"{self.rate:.0%} [95% CI {self.low:.0%}, {self.high:.0%}] over {self.games} "
            f"games played by {self.bot} from this position"
        )


def forecast(
    state: State[Any],
    seat: int,
    games: int = 40,
    bot: str | None = None,
    seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> Forecast:
    """P5: play ``games`` games from samples of ``seat``'s view with ``bot`` in every seat
    (default: the game's ``chance_bot``, the play the hints' chances assume too).

    ``seconds`` (optional) stops early once that much time has passed (after at least one
    game): the forecast then counts the games played, and its interval is wider. ``stop``
    (optional) ends it as soon as it returns True, in the middle of a game too (the answer
    is no longer wanted): the forecast then counts the games finished, at least one if
    stopped in the first.
    """
    import time

    from velvet.bots.registry import make_bot
    from velvet.sim.stats import wilson

    game = state.game
    if game.name != "p5":
        raise ConfigError(f"the forecast is for the P5 board game, not '{game.name}'")
    if games < 1:
        raise ConfigError(f"forecast games must be 1 or more, not {games}")
    from velvet.p5.game import P5Game

    if not isinstance(game, P5Game):
        raise ConfigError(f"the forecast is for the P5 board game, not '{game.name}'")
    days = game.days
    bot = bot or assumed_bot(game.name)
    make_bot(bot, game.name)  # a bad spec fails before any game
    view = state.view(seat)
    rng = Rng(view_seed(view, salt=1))
    if seconds is not None and not seconds > 0:
        raise ConfigError(f"forecast seconds must be more than 0, not {seconds}")
    deadline = None if seconds is None else time.perf_counter() + seconds
    wins = played = 0
    while played < games:
        sample = determinize(game, view, seat, Rng(rng.randbelow(_SEED_RANGE)))
        won = _play_out(sample, bot, rng.randbelow(_SEED_RANGE), stop=stop)
        if won is None:  # stopped in the middle of a game: it does not count
            break
        wins += won > 0.5
        played += 1
        if deadline is not None and time.perf_counter() >= deadline:
            break
        if stop is not None and stop():
            break
    if not played:  # stopped before a game was finished: nothing is known
        return Forecast(0, 0, 0.0, 1.0, bot, days, game.name)
    rate = wilson(wins, played)
    return Forecast(wins, played, rate.low, rate.high, bot, days, game.name)


STOP_EVERY = 64
"""A forecast game asks ``stop`` after this many actions."""


def _play_out(
    state: State[Any],
    spec: str,
    seed: int,
    limit: int = 20_000,
    stop: Callable[[], bool] | None = None,
) -> float | None:
    """Seat 0's return at the end of a game played by ``spec`` in every seat; None if
    ``stop`` said to end it first."""
    from velvet.bots.registry import make_bot

    bots: dict[int, Any] = {}
    rngs: dict[int, Rng] = {}
    steps = 0
    while not state.is_terminal():
        seat = state.current_player
        if seat not in bots:
            bots[seat] = make_bot(spec, state.game.name)
            if hasattr(bots[seat], "seat"):
                bots[seat].seat = seat
            rngs[seat] = Rng(seed + seat + 1)
        legal = state.legal_actions()
        action = bots[seat].choose(state.game, state.view(seat), legal, rngs[seat])
        state.apply_unchecked(action)
        steps += 1
        if stop is not None and steps % STOP_EVERY == 0 and stop():
            return None
        if steps >= limit:
            raise ConfigError(f"a forecast game did not end within {limit} actions")
    return state.returns()[0]


def hint_lines(found: Sequence[Hint], players: int = 1) -> list[str]:
    return [f"{i}. {h.line(players)}" for i, h in enumerate(found, start=1)]
