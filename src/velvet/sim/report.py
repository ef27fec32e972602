"""A self-contained HTML report of a simulation run, plots embedded as PNG.

It works from whatever columns the results hold. Generic sections: win rates
per seat (95% Wilson), game length, days/turns by result, and win rate by
every categorical column. Columns ending in ``_<seat>`` (``deck_0``,
``thief_1``) are read per seat and pooled; ``;``-joined list columns
(confidants met, shadows defeated, cards played) give win rate with and
without each item; ``deck_0``/``deck_1`` give a matchup matrix and
``first_player`` the first-player advantage. A per-seat list column beside a
per-seat ``deck`` column (VS: ``cards_played_<seat>``, ``deck_<seat>``) also gets
each item's effect within its own deck (:func:`effects_within_deck`), so a card is
not credited with its deck's strength.
"""

from __future__ import annotations

import base64
import html
import io
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from velvet.engine.errors import ConfigError
from velvet.engine.files import check_target
from velvet.sim.results import Row, atomic_write_bytes, load_results
from velvet.sim.stats import Rate, difference, wilson

SKIP = {"index", "seed", "seconds", "error", "outcome", "length", "turns", "winner"}
MAX_CATEGORIES = 40
MAX_INT_CATEGORIES = 12
"""Integer columns with more values than this (counts, lengths) are not categories."""
MIN_ITEM_GAMES = 5
_SEAT_COLUMN = re.compile(r"^(?P<base>.+)_(?P<seat>\d+)$")


def write_report(
    results_dir: Path | str | Sequence[Path | str],
    out_html: Path | str,
    combine: bool = False,
    *,
    force: bool = True,
) -> Path:
    """Write the HTML report for one results directory, several shards of one run, or
    (``combine=True``) several runs of one game pooled (see ``load_results``).

    ``force=False`` refuses to replace an existing file (checked before any work);
    a device, pipe or folder is never replaced.
    """
    dirs = [results_dir] if isinstance(results_dir, str | Path) else list(results_dir)
    if not dirs:
        raise ConfigError("give at least one results directory")
    out = Path(out_html)
    check_target(out, ConfigError, overwrite=force)
    meta, rows = load_results(*(Path(d) for d in dirs), combine=combine)
    if not rows:
        raise ConfigError(f"{', '.join(map(str, dirs))}: no finished games to report on")
    page = build_report(meta, rows)
    atomic_write_bytes(out, page.encode(), overwrite=force)
    return out


def build_report(meta: dict[str, Any], rows: list[Row]) -> str:
    """The report's HTML text for ``rows`` of a run described by ``meta``."""
    try:
        import matplotlib  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise ConfigError("the report needs matplotlib: pip install 'velvet[lab]'") from None
    matplotlib.use("Agg")
    good = [r for r in rows if not r.get("error")]
    seats = _seats(good)
    parts: list[str] = [_header(meta, rows, good), *_no_information(good, seats)]
    parts.append(_section("Win rate by seat", _seat_table(good, seats, meta)))
    if good:
        parts.append(_length_section(good))
        turns = _turns_section(good)
        if turns:
            parts.append(turns)
        parts.extend(_first_player_section(good))
        parts.extend(_matchup_sections(good))
        parts.extend(_category_sections(good, seats))
        parts.extend(_item_sections(good, seats))
        parts.extend(_within_deck_sections(good, seats))
    parts.append(_outcomes_section(rows))
    body = "\n".join(parts)
    title = html.escape(f"Velvet simulation report: {meta.get('game', '?')}")
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>{title}</title><style>{_CSS}</style></head><body>"
        f"<h1>{title}</h1>{body}</body></html>\n"
    )


_CSS = (
    "body{font-family:system-ui,sans-serif;max-width:1000px;margin:2em auto;color:#222}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 8px;"
    "text-align:right}th{background:#eee}td:first-child,th:first-child{text-align:left}"
    "img{max-width:100%}h2{border-bottom:2px solid #c00;margin-top:2em}.note{color:#666}"
    ".warning{background:#fee;border:1px solid #c00;padding:.5em}"
)


# ------------------------------------------------------------------ helpers


def _seats(rows: list[Row]) -> list[int]:
    found = {
        int(m.group("seat"))
        for r in rows
        for k in r
        if (m := _SEAT_COLUMN.match(k)) and m.group("base") == "return" and r[k] is not None
    }
    return sorted(found)


def _won(row: Row, seat: int = 0) -> bool:
    value = row.get(f"return_{seat}")
    return value is not None and float(value) >= 1.0


def _section(title: str, content: str) -> str:
    return f"<h2>{html.escape(title)}</h2>\n{content}"


def _table(head: Sequence[str], body: Sequence[Sequence[Any]]) -> str:
    th = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
    trs = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in body
    )
    return f"<table><tr>{th}</tr>{trs}</table>"


def _pct(rate: Rate) -> list[str]:
    return [f"{rate.rate:.1%}", f"{rate.low:.1%} – {rate.high:.1%}", str(rate.n)]


def _png(fig: Any) -> str:
    import matplotlib.pyplot as plt  # type: ignore[import-not-found,unused-ignore]

    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=80)
    plt.close(fig)
    data = base64.b64encode(buffer.getvalue()).decode()
    return f"<img alt='plot' src='data:image/png;base64,{data}'>"


def _figure(width: float = 8, height: float = 3.5) -> tuple[Any, Any]:
    import matplotlib.pyplot as plt  # type: ignore[import-not-found,unused-ignore]

    return plt.subplots(figsize=(width, height))


def _rate_bars(
    title: str, labels: list[str], rates: list[Rate], overall: float | None = None
) -> str:
    """Horizontal bars of win rate with 95% CI whiskers."""
    fig, ax = _figure(8, max(1.6, 0.32 * len(labels) + 1))
    values = [r.rate for r in rates]
    lows = [max(0.0, r.rate - r.low) for r in rates]
    highs = [max(0.0, r.high - r.rate) for r in rates]
    ax.barh(range(len(labels)), values, xerr=[lows, highs], color="#c33", capsize=3)
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    if overall is not None:
        ax.axvline(overall, color="#333", linestyle="--", linewidth=1)
    ax.set_xlabel("win rate (95% Wilson CI)" + ("; dashed: overall" if overall is not None else ""))
    ax.set_title(title)
    return _png(fig)


# ------------------------------------------------------------------ sections


def _config_fact(meta: dict[str, Any]) -> Any:
    """The run's config, or for combined runs that differ a note (the list is long)."""
    config = meta.get("config", {})
    if meta.get("runs") and isinstance(config, list):
        return f"differs between the {meta['runs']} runs combined (see 'run' below)"
    return config


def _header(meta: dict[str, Any], rows: list[Row], good: list[Row]) -> str:
    errors = len(rows) - len(good)
    facts = [
        ("game", meta.get("game", "?")),
        ("seats", ", ".join(meta.get("seats", []))),
        ("games finished", f"{len(rows)} of {meta.get('n_games', '?')}"),
        ("games failed", errors),
        ("base seed", meta.get("base_seed", "?")),
        ("config", _config_fact(meta)),
        ("rules version", meta.get("rules_version", "?")),
        ("written", datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")),
    ]
    return _table(["", ""], [(k, v) for k, v in facts])


def _no_information(good: list[Row], seats: list[int]) -> list[str]:
    """A plain warning when every finished game had the same result for every seat."""
    if not good or not seats:
        return []
    results = {tuple(_won(r, s) for s in seats) for r in good}
    if len(results) > 1:
        return []
    (result,) = results
    who = [f"seat {s}" for s, won in zip(seats, result, strict=True) if won]
    what = f"{' and '.join(who)} won every game" if who else "no seat won any game"
    return [
        "<p class='warning'><b>This run carries no balance information</b>: "
        f"{what} of the {len(good)} finished. Every win rate below is 0 % or 100 %; "
        "comparisons between seats, decks or cards cannot be read from it.</p>"
    ]


def _seat_table(good: list[Row], seats: list[int], meta: dict[str, Any]) -> str:
    names = meta.get("seats", [])
    body = []
    for seat in seats:
        rate = wilson(sum(_won(r, seat) for r in good), len(good))
        bot = names[seat] if seat < len(names) else (names[0] if names else "")
        body.append([f"seat {seat}", bot, *_pct(rate)])
    return _table(["seat", "bot", "win rate", "95% CI", "games"], body)


def _length_section(good: list[Row]) -> str:
    lengths = [int(r["length"]) for r in good if r.get("length") is not None]
    fig, ax = _figure()
    ax.hist(lengths, bins=min(40, max(5, len(set(lengths)))), color="#468")
    ax.set_xlabel("game length (actions)")
    ax.set_ylabel("games")
    mean = sum(lengths) / len(lengths) if lengths else 0
    note = f"<p class='note'>mean {mean:.1f}, min {min(lengths, default=0)}, "
    note += f"max {max(lengths, default=0)} actions</p>"
    return _section("Game length", _png(fig) + note)


def _turns_section(good: list[Row]) -> str:
    wins = [int(r["turns"]) for r in good if isinstance(r.get("turns"), int) and _won(r)]
    losses = [int(r["turns"]) for r in good if isinstance(r.get("turns"), int) and not _won(r)]
    if not wins and not losses:
        return ""
    fig, ax = _figure()
    values = wins + losses
    low, high = min(values), max(values)
    bins: Any = list(range(low, high + 2)) if high - low <= 200 else 50
    ax.hist(
        [wins, losses],
        bins=bins,
        stacked=True,
        label=["win", "loss"],
        color=["#3a3", "#c33"],
        align="left",
    )
    ax.set_xlabel("day / turn the game ended (seat 0's result)")
    ax.set_ylabel("games")
    ax.legend()
    return _section("Day or turn of victory and defeat", _png(fig))


def _first_player_section(good: list[Row]) -> list[str]:
    rows = [r for r in good if isinstance(r.get("first_player"), int)]
    if not rows:
        return []
    rate = wilson(sum(_won(r, int(r["first_player"])) for r in rows), len(rows))
    text = _table(["", "win rate", "95% CI", "games"], [["first player", *_pct(rate)]])
    return [_section("First-player advantage", text)]


def _matchup_sections(good: list[Row]) -> list[str]:
    """Matrix of seat 0's win rate, for every base column with ``_0`` and ``_1`` values."""
    out = []
    bases = sorted({m.group("base") for k in good[0] if (m := _SEAT_COLUMN.match(k))})
    for base in bases:
        if base == "return" or f"{base}_0" not in good[0] or f"{base}_1" not in good[0]:
            continue
        a = [r.get(f"{base}_0") for r in good]
        b = [r.get(f"{base}_1") for r in good]
        if not all(isinstance(v, str) and ";" not in v for v in a + b):
            continue
        ra, rb = sorted({str(v) for v in a}), sorted({str(v) for v in b})
        if len(ra) * len(rb) < 2 or len(ra) > MAX_CATEGORIES or len(rb) > MAX_CATEGORIES:
            continue
        cells: dict[tuple[str, str], list[bool]] = defaultdict(list)
        for r in good:
            cells[(str(r[f"{base}_0"]), str(r[f"{base}_1"]))].append(_won(r, 0))
        body = []
        for x in ra:
            line: list[Any] = [x]
            for y in rb:
                got = cells.get((x, y), [])
                line.append(f"{sum(got) / len(got):.0%} (n={len(got)})" if got else "–")
            body.append(line)
        head = [f"{base} seat 0 \\ seat 1", *rb]
        out.append(_section(f"Matchup: seat 0 win rate by {base}", _table(head, body)))
    return out


def _categories(good: list[Row], seats: list[int]) -> dict[str, list[tuple[Any, bool]]]:
    """Per categorical column (pooled over seats for ``x_<seat>``): (value, that seat won)."""
    found: dict[str, list[tuple[Any, bool]]] = defaultdict(list)
    columns: dict[str, None] = {}
    for r in good:
        for k in r:
            columns.setdefault(k, None)
    for column in columns:
        if column in SKIP or column.startswith(("return_", "bot_")):
            continue
        values = [r.get(column) for r in good]
        if any(isinstance(v, float) for v in values):
            continue
        if any(isinstance(v, str) and ";" in v for v in values):
            continue
        distinct = {v for v in values if v is not None}
        numeric = all(isinstance(v, int) and not isinstance(v, bool) for v in distinct)
        if not 2 <= len(distinct) <= (MAX_INT_CATEGORIES if numeric else MAX_CATEGORIES):
            continue
        m = _SEAT_COLUMN.match(column)
        seat = int(m.group("seat")) if m and int(m.group("seat")) in seats else None
        key = m.group("base") if seat is not None and m else column
        for r in good:
            v = r.get(column)
            if v is not None:
                found[key].append((v, _won(r, seat or 0)))
    return found


def _order(value: Any) -> tuple[bool, float, str]:
    """Numbers in numeric order first, then text in text order."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return (not number, float(value) if number else 0.0, str(value))


def _category_sections(good: list[Row], seats: list[int]) -> list[str]:
    out = []
    for key, pairs in sorted(_categories(good, seats).items()):
        groups: dict[Any, list[bool]] = defaultdict(list)
        for value, won in pairs:
            groups[value].append(won)
        labels = sorted(groups, key=_order)
        rates = [wilson(sum(groups[v]), len(groups[v])) for v in labels]
        table = _table(
            [key, "win rate", "95% CI", "games"],
            [[str(v), *_pct(r)] for v, r in zip(labels, rates, strict=True)],
        )
        plot = _rate_bars(f"win rate by {key}", [str(v) for v in labels], rates)
        out.append(_section(f"Win rate by {key}", plot + table))
    return out


def _item_sections(good: list[Row], seats: list[int]) -> list[str]:
    """For ';'-joined list columns: each item's win rate when present vs absent."""
    out = []
    columns = sorted({k for r in good for k, v in r.items() if isinstance(v, str) and ";" in v})
    by_base: dict[str, list[tuple[set[str], bool]]] = defaultdict(list)
    for column in columns:
        m = _SEAT_COLUMN.match(column)
        seat = int(m.group("seat")) if m and int(m.group("seat")) in seats else None
        key = m.group("base") if seat is not None and m else column
        for r in good:
            v = r.get(column)
            items = {x for x in v.split(";") if x} if isinstance(v, str) else set()
            by_base[key].append((items, _won(r, seat or 0)))
    for key, pairs in sorted(by_base.items()):
        counts = Counter(x for items, _ in pairs for x in items)
        base_rate = wilson(sum(w for _, w in pairs), len(pairs))
        body = []
        for item, n in counts.most_common():
            if n < MIN_ITEM_GAMES:
                continue
            with_ = [w for items, w in pairs if item in items]
            without = [w for items, w in pairs if item not in items]
            rw = wilson(sum(with_), len(with_))
            ro = wilson(sum(without), len(without))
            body.append((rw.rate - ro.rate, item, rw, ro))
        if not body:
            continue
        body.sort(key=lambda t: -t[0])
        table = _table(
            ["item", "win rate with", "95% CI", "games", "win rate without", "impact"],
            [
                [
                    item,
                    f"{rw.rate:.1%}",
                    f"{rw.low:.1%} – {rw.high:.1%}",
                    rw.n,
                    f"{ro.rate:.1%}",
                    f"{d:+.1%}",
                ]
                for d, item, rw, ro in body
            ],
        )
        top = body[:15] + [b for b in body[15:][-10:] if b not in body[:15]]
        plot = _rate_bars(
            f"win rate with each {key} item (overall {base_rate.rate:.0%})",
            [t[1] for t in top],
            [t[2] for t in top],
            overall=base_rate.rate,
        )
        out.append(_section(f"Impact of {key}", plot + table))
    return out


@dataclass(frozen=True, slots=True)
class ItemEffect:
    """One item (a card played) of one deck: its deck's win rate with it and without it."""

    deck: str
    item: str
    with_: Rate
    without: Rate
    diff: float
    low: float
    high: float
    """``diff`` = with - without, and its 95% interval (Newcombe)."""

    @property
    def verdict(self) -> str:
        """``higher`` / ``lower`` when the interval excludes 0, else ``unclear``."""
        if self.low > 0:
            return "higher"
        if self.high < 0:
            return "lower"
        return "unclear"


def effects_within_deck(
    rows: list[Row], column: str = "cards_played", deck: str = "deck", min_games: int = 0
) -> dict[str, list[ItemEffect]]:
    """Per deck, each item of ``<column>_<seat>``: that seat's win rate in games where it
    was present vs games of the same deck where it was not (a draw is not a win).

    Every (game, seat) whose ``<deck>_<seat>`` is a deck counts once, in either seat.
    Items present, or absent, in fewer than ``min_games`` of the deck's games are left
    out (their comparison has no contrast). Sorted by difference, highest first.
    """
    seats = sorted(
        int(m.group("seat"))
        for k in {k for r in rows for k in r}
        if (m := _SEAT_COLUMN.match(k)) and m.group("base") == column
    )
    by_deck: dict[str, list[tuple[set[str], bool]]] = defaultdict(list)
    for r in rows:
        if r.get("error"):
            continue
        for seat in seats:
            name, value = r.get(f"{deck}_{seat}"), r.get(f"{column}_{seat}")
            if not isinstance(name, str) or r.get(f"return_{seat}") is None:
                continue
            items = {x for x in value.split(";") if x} if isinstance(value, str) else set()
            by_deck[name].append((items, _won(r, seat)))
    out: dict[str, list[ItemEffect]] = {}
    for name, pairs in sorted(by_deck.items()):
        effects = []
        for item in sorted({x for items, _ in pairs for x in items}):
            with_ = [w for items, w in pairs if item in items]
            without = [w for items, w in pairs if item not in items]
            if min(len(with_), len(without)) < max(1, min_games):
                continue
            rw, ro = wilson(sum(with_), len(with_)), wilson(sum(without), len(without))
            d, low, high = difference(rw, ro)
            effects.append(ItemEffect(name, item, rw, ro, d, low, high))
        effects.sort(key=lambda e: (-e.diff, e.item))
        out[name] = effects
    return out


def _within_deck_sections(good: list[Row], seats: list[int]) -> list[str]:
    """Each card's effect within its own deck, for runs with ``cards_played`` and ``deck``."""
    if not any(f"cards_played_{s}" in r and f"deck_{s}" in r for r in good for s in seats):
        return []
    effects = effects_within_deck(good, min_games=MIN_ITEM_GAMES)
    note = (
        "<p class='note'>For each deck, the deck's win rate in its games where it played "
        "the card (summoned, fused, supported or reacted with it) against its games where "
        "it did not, with 95% Wilson intervals, and the difference with its 95% interval "
        "(Newcombe). <b>higher</b> / <b>lower</b>: the interval excludes 0; "
        "<b>unclear</b>: it does not, so the run cannot tell. This is a correlation, not a cause: "
        f"a card is played more in longer games and when drawn. Cards played, or not played, in "
        f"fewer than {MIN_ITEM_GAMES} of the deck's games are left out.</p>"
    )
    out = []
    for deck, rows in effects.items():
        if not rows:
            continue
        rates = {e.with_.rate for e in rows} | {e.without.rate for e in rows}
        if rates <= {0.0} or rates <= {1.0}:
            won = "every game" if rates == {1.0} else "none of its games"
            text = f"<p class='note'>No balance information: deck {deck} won {won}.</p>"
            out.append(_section(f"Card effect within deck {deck}", text))
            continue
        body = [
            [
                e.item,
                f"{e.with_.rate:.1%}",
                f"{e.with_.low:.1%} – {e.with_.high:.1%}",
                e.with_.n,
                f"{e.without.rate:.1%}",
                f"{e.without.low:.1%} – {e.without.high:.1%}",
                e.without.n,
                f"{e.diff:+.1%}",
                f"{e.low:+.1%} – {e.high:+.1%}",
                e.verdict,
            ]
            for e in rows
        ]
        table = _table(
            [
                "card",
                "won when played",
                "95% CI",
                "games",
                "won when not",
                "95% CI",
                "games",
                "effect",
                "95% CI",
                "",
            ],
            body,
        )
        out.append(_section(f"Card effect within deck {deck}", note + table))
    return out


def _outcomes_section(rows: list[Row]) -> str:
    counts = Counter(
        (f"error: {r['error']}" if r.get("error") else str(r.get("outcome") or "?")) for r in rows
    )
    body = [[text, n] for text, n in counts.most_common(15)]
    return _section("How games ended (most common)", _table(["outcome", "games"], body))
