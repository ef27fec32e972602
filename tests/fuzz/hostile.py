"""Hostile inputs for the fuzz tests: structure-aware mutations of real files.

Each strategy starts from a real file of Velvet (a card set, a deck, a save, a
results chunk) and breaks it the way a careless or hostile user would: a number
made huge, negative, fractional or a text; a text made empty, huge, markup or
odd unicode; a value nested thousands deep; lines dropped, doubled or cut;
bytes that are not UTF-8. Every file reader must answer each with a result or
a one-line VelvetError, never another exception.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("VELVET_FUZZ_EXAMPLES", "1000"))
"""Inputs per entry point (CI: 1000; a longer run: VELVET_FUZZ_EXAMPLES=5000)."""

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)

FUZZ_SESSIONS = settings(FUZZ, max_examples=max(1, EXAMPLES * 2 // 5))
"""Prompt sessions: each feeds 1 to 12 lines (about 6.5), so 400 sessions try ~2,600 lines."""

TALLY: Counter[tuple[str, str]] = Counter()
"""(entry point, outcome) counts: 'ok', 'clean error'; reported by conftest on request."""


def tally(entry: str, outcome: str) -> None:
    TALLY[entry, outcome] += 1


HOSTILE_NUMBERS = [
    "-1",
    "0",
    "-0",
    "21",
    "99",
    "100000",
    "2147483648",
    "18446744073709551616",
    "-9223372036854775809",
    "9" * 40,
    "9" * 5000,
    "1.5",
    "1e308",
    "1e999",
    "-1e999",
    "nan",
    "inf",
    "NaN",
    "Infinity",
    '"7"',
    "true",
    "null",
    "[]",
    "{}",
    "[1, 2]",
    "{ a = 1 }",
    '{"a": 1}',
]
HOSTILE_TEXTS = [
    "",
    " ",
    "x" * 10_000,
    "[/x]",
    "[bold]",
    "²",
    "③",
    "\u202eevil",
    "\u0000",
    "\\u0000",
    "\\ud800",
    "😈" * 50,
    "../../etc/passwd",
    "boss",
    "thief",
    "001",
    "a\nb",
    "Ⅻ",
    "\u200b",
]
_NUMBER = re.compile(r"(?<![\w.\"'])-?\d+(?:\.\d+)?(?![\w.\"'])")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_KEY = re.compile(r"^(\s*)([A-Za-z_][\w-]*)(\s*=)", re.MULTILINE)
_ODD = "aZ09 _-.:/\\\"'[]{}=#\t²③Ⅻ١٢\u200b\u202e\ufeff\u2028é漢😈\x00\x7f\x1b"
KEYS = ["id", "op", "zzz", "then", "else", "health", "mode", "set", "seed", "winner"]


def odd_text(rng: random.Random, size: int = 20) -> str:
    """A short text of odd characters: markup, control, wide, right-to-left, digits of
    other scripts (and sometimes a lone surrogate)."""
    chars = [rng.choice(_ODD) for _ in range(rng.randint(0, size))]
    if rng.random() < 0.05:
        chars.append("\ud800")
    return "".join(chars)


def _nest(depth: int, open_: str = "[", close: str = "]") -> str:
    return open_ * depth + close * depth


def mutate_text(rng: random.Random, text: str, json_like: bool = False) -> bytes:
    """``text`` with one to three hostile edits, as bytes (some not UTF-8)."""
    data = text
    for _ in range(rng.randint(1, 3)):
        op = rng.choice(
            ["number"] * 3 + ["string"] * 2 + ["key", "drop", "dup", "nest", "cut", "bytes", "swap"]
        )
        data = _apply(rng, op, data, json_like)
    raw = data.encode("utf-8", "surrogatepass")
    if rng.random() < 0.05:
        at = rng.randint(0, len(raw))
        raw = raw[:at] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"]) + raw[at:]
    return raw


def _pick(rng: random.Random, pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    found = list(pattern.finditer(text))
    return rng.choice(found) if found else None


def _apply(rng: random.Random, op: str, text: str, json_like: bool) -> str:
    lines = text.split("\n")
    if op == "number" and (m := _pick(rng, _NUMBER, text)):
        value = rng.choice(HOSTILE_NUMBERS) if rng.random() < 0.8 else str(rng.randint(-50, 50))
        return text[: m.start()] + value + text[m.end() :]
    if op == "string" and (m := _pick(rng, _STRING, text)):
        value = rng.choice(HOSTILE_TEXTS) if rng.random() < 0.6 else odd_text(rng)
        return text[: m.start()] + json.dumps(value) + text[m.end() :]
    if op == "key" and (m := _pick(rng, _KEY, text)):
        return text[: m.start(2)] + rng.choice(KEYS) + text[m.end(2) :]
    if op == "drop" and len(lines) > 1:
        i = rng.randrange(len(lines))
        return "\n".join(lines[:i] + lines[i + 1 :])
    if op == "dup" and lines:
        i = rng.randrange(len(lines))
        return "\n".join(lines[: i + 1] + lines[i:])
    if op == "swap" and len(lines) > 1:
        i = rng.randrange(len(lines) - 1)
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
        return "\n".join(lines)
    if op == "nest" and (m := _pick(rng, _NUMBER, text)):
        depth = rng.choice([3, 30, 70, 500, 3000, 50_000])
        opener = '{"a":' if json_like else "{a="
        inner = opener * depth + "1" + "}" * depth
        value = rng.choice([_nest(depth), inner])
        return text[: m.start()] + value + text[m.end() :]
    if op == "cut" and text:
        return text[: rng.randrange(len(text))]
    if op == "bytes":
        at = rng.randint(0, len(text))
        return text[:at] + rng.choice(["\ud800", "\x00", "\ufeff", "\u2028"]) + text[at:]
    return text


def json_value(rng: random.Random, depth: int = 0) -> Any:
    """A hostile JSON value: wrong types, huge or non-finite numbers, odd texts, nesting."""
    kind = rng.randrange(10 if depth < 3 else 8)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.choice([2**63, 2**64, -(2**63) - 1, 10**40, -1, 0, 1, 7, rng.randint(-99, 99)])
    if kind == 3:
        return rng.choice([float("nan"), float("inf"), -float("inf"), 1e308, -0.0, 0.5])
    if kind in (4, 5):
        return rng.choice(HOSTILE_TEXTS)
    if kind in (6, 7):
        return odd_text(rng)
    if kind == 8:
        return [json_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {odd_text(rng, 8): json_value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:50]):
            out += _paths(item, (*prefix, index))
    return out


def _set(root: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = root
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return root


def mutate_json(rng: random.Random, data: Any) -> bytes:
    """A real JSON document with values replaced, keys dropped or added, deep nesting,
    or (one time in four) a text mutation of its serialisation."""
    if rng.random() < 0.25:
        return mutate_text(rng, json.dumps(data, indent=1), json_like=True)
    doc = json.loads(json.dumps(data))
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(_paths(doc))
        op = rng.choice(["replace", "replace", "drop", "add", "nest"])
        if op == "replace":
            doc = _set(doc, path, json_value(rng))
        elif op == "drop" and path:
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            del parent[path[-1]]
        elif op == "add":
            target = doc
            for key in path:
                target = target[key]
            if isinstance(target, dict):
                target[rng.choice([*KEYS, odd_text(rng, 8)])] = json_value(rng)
            elif isinstance(target, list):
                target.append(json_value(rng))
        elif op == "nest":
            value: Any = 1
            for _ in range(rng.choice([10, 63, 65, 200, 900])):
                value = [value]
            doc = _set(doc, path, value)
    try:
        text = json.dumps(doc)
    except (ValueError, RecursionError):
        text = "[]"
    return text.encode("utf-8", "surrogatepass")


SEEDS = st.integers(0, 2**32 - 1)
"""Each example is one seed; the mutators draw from ``random.Random(seed)`` (fast, and a
failing seed reproduces the input exactly)."""


def mutated_text(text: str, json_like: bool = False) -> st.SearchStrategy[bytes]:
    return SEEDS.map(lambda seed: mutate_text(random.Random(seed), text, json_like))


def mutated_json(data: Any) -> st.SearchStrategy[bytes]:
    return SEEDS.map(lambda seed: mutate_json(random.Random(seed), data))
