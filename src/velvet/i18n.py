"""The words players see, in their language: ``_()`` and ``ngettext`` over gettext catalogues.

The active language comes from ``--lang`` (:func:`set_language`), else ``VELVET_LANG``,
else the locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); English by default,
and for any language Velvet has no catalogue of. Catalogues are
``velvet/locale/LANG/LC_MESSAGES/velvet.po`` with the compiled ``velvet.mo`` beside it
(``python -m velvet.i18n compile`` writes it: Babel's compiler when Babel is installed, else
the small one here, which writes the same GNU format the stdlib ``gettext`` reads). The same
catalogue goes to the browser as JSON (``GET /api/i18n/{lang}``, :func:`catalogue`).

Card names (characters, personas) are data of each game: a game's spec names a folder of
``LANG.toml`` tables (``GameSpec.names``), read by :func:`card_names`; :func:`localize`
puts them into the engine's English sentences for display only, so what a person types is
still matched against the English words.
"""

from __future__ import annotations

import ast
import gettext
import importlib
import json
import os
import re
import struct
import sys
import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

DOMAIN = "velvet"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DEFAULT = "en"
LANGUAGES = ("en", "ja")
"""Languages with a catalogue (English is the source text itself)."""
LANGUAGE_NAMES = {"en": "English", "ja": "日本語"}
"""Each language in its own words, for a language menu."""
ENV = "VELVET_LANG"

_active: str | None = None
_speaking: ContextVar[str | None] = ContextVar("velvet_speaking", default=None)
"""The language of :func:`speaking`, which outranks the active one in its block."""


def normalize(tag: str | None) -> str | None:
    """The catalogue language a locale or browser tag means (``ja_JP.UTF-8``, ``ja-JP``,
    ``JA``: ``ja``), or None when Velvet has none for it (``C``, ``fr``, empty)."""
    if not tag:
        return None
    base = re.split(r"[-_.@:]", tag.strip().lower(), maxsplit=1)[0]
    return base if base in LANGUAGES else None


def _from_locale() -> str | None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            for tag in value.split(":"):
                found = normalize(tag)
                if found is not None:
                    return found
            return None  # the first variable set decides, as gettext does
    return None


def choose_language(option: str | None = None) -> str:
    """``option`` (``--lang``), else ``VELVET_LANG``, else the locale, else English."""
    for tag in (option, os.environ.get(ENV)):
        if tag:
            return normalize(tag) or DEFAULT
    return _from_locale() or DEFAULT


def set_language(option: str | None = None) -> str:
    """Make :func:`choose_language` of ``option`` the active language; returns it."""
    global _active
    _active = choose_language(option)
    return _active


def language() -> str:
    """The active language: :func:`speaking`'s inside its block, else the process's
    (chosen from the environment on first use)."""
    spoken = _speaking.get()
    if spoken is not None:
        return spoken
    return _active if _active is not None else choose_language()


@contextmanager
def speaking(tag: str | None) -> Iterator[str]:
    """Within the block, ``_()``, ``ngettext`` and :func:`localize` speak ``tag``'s language
    (English for a tag Velvet has no catalogue of): the server writes each socket's words
    in the language its browser asked for. Yields the language chosen."""
    lang = normalize(tag) or DEFAULT
    token = _speaking.set(lang)
    try:
        yield lang
    finally:
        _speaking.reset(token)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (English, or a missing one: the source text)."""
    if lang == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, [lang], fallback=True)


def _(message: str) -> str:
    """``message`` in the active language."""
    return translations(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural of a message for ``n``, in the active language."""
    return translations(language()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue where it is defined; ``_()`` translates it where
    it is shown (``HELP = N_("...")``, then ``_(HELP)``)."""
    return message


def seat_name(seat: int) -> str:
    """How people number seats, in the active language: seat 0 is "Player 1"."""
    return _("Player {number}").format(number=seat + 1)


# -- .po files: read, and compile to .mo -----------------------------------------------------

Messages = dict[str, str | list[str]]
"""msgid -> msgstr, or -> every plural form (msgid key ``singular\\x00plural``)."""


def _unquote(line: str, where: str) -> str:
    try:
        value = ast.literal_eval(line)
    except (ValueError, SyntaxError) as error:
        raise ValueError(f"{where}: not a quoted string: {line[:60]}") from error
    if not isinstance(value, str):
        raise ValueError(f"{where}: not a quoted string: {line[:60]}")
    return value


def parse_po(text: str, name: str = "velvet.po") -> Messages:
    """The translated messages of a .po file (untranslated and fuzzy entries left out, the
    header ``""`` kept). Raises ValueError naming the line that is wrong (a message given
    twice, too)."""
    out: Messages = {}
    entry: dict[str, str] = {}
    fuzzy = False
    key = ""
    seen: dict[str, str] = {}  # each msgid and the line it was first on
    started = f"{name}:0"  # the line of the entry's msgid

    def finish() -> None:
        nonlocal entry, fuzzy
        if "msgid" in entry:
            msgid = entry["msgid"]
            if msgid in seen:  # msgfmt refuses it too: which translation would win is luck
                raise ValueError(
                    f"{started}: message {msgid[:40]!r} again (first on {seen[msgid]})"
                )
            seen[msgid] = started
        if "msgid" in entry and not fuzzy:
            msgid = entry["msgid"]
            if "msgid_plural" in entry:
                forms = [entry[k] for k in sorted(k for k in entry if k.startswith("msgstr["))]
                if all(forms):
                    out[f"{msgid}\x00{entry['msgid_plural']}"] = forms
            elif entry.get("msgstr"):
                out[msgid] = entry["msgstr"]
        entry, fuzzy = {}, False

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        where = f"{name}:{number}"
        if not line:
            finish()
        elif line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("#"):
            if "msgid" in entry and not any(k.startswith("msgstr") for k in entry):
                # msgfmt refuses it; Babel reads a new entry there and mismatches the rest
                raise ValueError(f"{where}: a comment inside an entry: put it before msgid")
            continue
        elif line.startswith('"'):
            if not key:
                raise ValueError(f"{where}: a string with no keyword before it")
            entry[key] += _unquote(line, where)
        else:
            keyword, _sep, rest = line.partition(" ")
            if not re.fullmatch(r"msgctxt|msgid|msgid_plural|msgstr(\[\d\])?", keyword):
                raise ValueError(f"{where}: unknown keyword '{keyword[:30]}'")
            if keyword == "msgid" and "msgid" in entry:
                finish()
            key = keyword
            entry[key] = _unquote(rest.strip(), where)
            if keyword == "msgid":
                started = where
    finish()
    return out


def compile_mo(messages: Mapping[str, str | list[str]]) -> bytes:
    """GNU .mo bytes for ``messages`` (as msgfmt writes them, without a hash table)."""
    keys = sorted(messages, key=lambda k: k.encode())
    ids = [k.encode() for k in keys]
    strs = []
    for k in keys:
        value = messages[k]
        strs.append(("\x00".join(value) if isinstance(value, list) else value).encode())
    header = 7 * 4
    table = header + 2 * 8 * len(keys)
    offsets: list[int] = []
    blob = b""
    for data in ids + strs:
        offsets += [len(data), table + len(blob)]
        blob += data + b"\x00"
    n = len(keys)
    out = struct.pack("<7I", 0x950412DE, 0, n, header, header + 8 * n, 0, table)
    out += struct.pack(f"<{2 * n}I", *offsets[: 2 * n])
    out += struct.pack(f"<{2 * n}I", *offsets[2 * n :])
    return out + blob


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def compile_catalogues() -> list[Path]:
    """Write each catalogue's .mo from its .po (Babel's compiler when it is installed)."""
    written = []
    for lang in LANGUAGES[1:]:
        po, mo = po_path(lang), po_path(lang).with_suffix(".mo")
        try:  # imported by name: Babel is optional, and typed or not
            mofile: Any = importlib.import_module("babel.messages.mofile")
            pofile: Any = importlib.import_module("babel.messages.pofile")
        except ImportError:
            mo.write_bytes(compile_mo(parse_po(po.read_text(encoding="utf-8"), po.name)))
        else:
            with po.open("rb") as source, mo.open("wb") as target:
                mofile.write_mo(target, pofile.read_po(source))
        written.append(mo)
    return written


# -- for the browser -------------------------------------------------------------------------


@cache
def catalogue(lang: str) -> dict[str, Any]:
    """The catalogue of ``lang`` as JSON for the browser: ``messages`` (msgid -> text),
    ``plurals`` (singular -> its forms) and each game's card ``names``; an unknown language
    gets English (empty tables), named in ``lang``."""
    found = normalize(lang) or DEFAULT
    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    if found != DEFAULT:
        for key, value in parse_po(po_path(found).read_text(encoding="utf-8")).items():
            if not key:
                continue
            if isinstance(value, list):
                plurals[key.split("\x00", 1)[0]] = value
            else:
                messages[key] = value
    from velvet.games import find_spec, game_names

    names = {}
    for game in game_names():
        spec = find_spec(game)
        if spec is not None:
            names[game] = card_names(game, found)
    return {
        "lang": found,
        "languages": LANGUAGE_NAMES,
        "messages": messages,
        "plurals": plurals,
        "names": names,
    }


# -- card names ------------------------------------------------------------------------------


def card_names(game: str, lang: str | None = None) -> dict[str, str]:
    """English card name -> its name in ``lang`` (the active language by default), from the
    ``LANG.toml`` table of the folder the game's spec names (``GameSpec.names``)."""
    return _card_names(game, lang or language())


@cache
def _card_names(game: str, lang: str) -> dict[str, str]:
    if lang == DEFAULT:
        return {}
    from velvet.games import find_spec

    spec = find_spec(game)
    folder = getattr(spec, "names", None)
    if folder is None:
        return {}
    path = Path(folder) / f"{lang}.toml"
    if not path.is_file():
        return {}
    table = tomllib.loads(path.read_text(encoding="utf-8")).get("names", {})
    return {str(k): str(v) for k, v in table.items()}


@cache
def _pattern(game: str, lang: str) -> re.Pattern[str] | None:
    names = card_names(game, lang)
    if not names:
        return None
    ordered = sorted(names, key=len, reverse=True)
    return re.compile(
        r"(?<![A-Za-z0-9])(" + "|".join(re.escape(n) for n in ordered) + r")(?![A-Za-z0-9])"
    )


def localize(text: str, game: str) -> str:
    """``text`` (the engine's English words) with the game's card names in the active
    language (unchanged in English)."""
    lang = language()
    pattern = _pattern(game, lang) if lang != DEFAULT else None
    if pattern is None:
        return text
    names = card_names(game, lang)
    return pattern.sub(lambda m: names[m.group(1)], text)


# -- the messages in the code ----------------------------------------------------------------

PACKAGE = Path(__file__).resolve().parent
STATIC = PACKAGE / "web" / "static"
BROWSER_FILES = (
    "index.html",
    "i18n.js",
    "lobby.js",
    "table.js",
    "mygames.js",
    "seeks.js",
    "look.js",
    "account.js",
    "cards.js",
    "app.js",
    "learn.js",
    "puzzles.js",
    "daily.js",
    "review.js",
)
"""The browser's files whose words go through ``t()`` (and ``data-i18n`` in the HTML); each
registered game's board module (its spec's ``board``) too: :func:`browser_files`."""
PYTHON_CALLS = {"_": 1, "N_": 1, "ngettext": 2}
"""Functions whose first string arguments (that many) are messages."""
_JS_CALL = re.compile(r'(?<![\w.$])(t|tn)\("((?:[^"\\]|\\.)*)"(?:,\s*"((?:[^"\\]|\\.)*)")?')
_HTML_TEXT = re.compile(r"<[^>]*\bdata-i18n\b[^>]*>([^<]+)<")


def python_files() -> list[Path]:
    """The modules whose words go through ``_()``: this one and every front-end module
    that imports it."""
    found = [Path(__file__).resolve()]
    for path in sorted(PACKAGE.rglob("*.py")):
        if path != found[0] and "from velvet.i18n import" in path.read_text(encoding="utf-8"):
            found.append(path)
    return found


def extract_python(path: Path) -> list[tuple[str, int]]:
    """``(message, line)`` for every literal message of ``_()``, ``N_()``, ``ngettext()``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            count = PYTHON_CALLS.get(node.func.id, 0)
            for arg in node.args[:count]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    out.append((arg.value, node.lineno))
    return out


def extract_browser(path: Path) -> list[tuple[str, int]]:
    """``(message, line)`` for every literal message of ``t("...")`` / ``tn("...", "...")``
    in a script, or every ``data-i18n`` element's text in a page."""
    text = path.read_text(encoding="utf-8")
    out = []
    if path.suffix == ".html":
        for m in _HTML_TEXT.finditer(text):
            out.append((m.group(1).strip(), text.count("\n", 0, m.start()) + 1))
        return out
    for m in _JS_CALL.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        for literal in (m.group(2), m.group(3)):
            if literal is not None:
                out.append((json.loads(f'"{literal}"'), line))
    return out


def browser_files() -> list[str]:
    """:data:`BROWSER_FILES` and every registered game's board module (``GameSpec.board``)."""
    from velvet.games import find_spec, game_names

    boards = [spec.board for name in game_names() if (spec := find_spec(name)) and spec.board]
    return [*BROWSER_FILES, *sorted(set(boards) - set(BROWSER_FILES))]


def extract() -> dict[str, list[str]]:
    """Every message of the code, with the ``file:line`` places it is used."""
    found: dict[str, list[str]] = {}
    places = [(p, extract_python(p)) for p in python_files()]
    places += [(STATIC / name, extract_browser(STATIC / name)) for name in browser_files()]
    for path, messages in places:
        where = path.relative_to(PACKAGE).as_posix()
        for message, line in messages:
            found.setdefault(message, []).append(f"{where}:{line}")
    return found


def missing(lang: str) -> list[str]:
    """The messages of the code that the catalogue of ``lang`` does not translate."""
    have = parse_po(po_path(lang).read_text(encoding="utf-8"))
    forms = {form for key in have for form in key.split("\x00")}
    return [m for m in extract() if m not in forms]


def main(argv: list[str]) -> int:
    """``python -m velvet.i18n compile`` writes the .mo files from the .po files;
    ``python -m velvet.i18n missing`` lists the code's messages a catalogue lacks."""
    if argv == ["compile"]:
        for path in compile_catalogues():
            print(path)
        return 0
    if argv == ["missing"]:
        gaps = [(lang, m) for lang in LANGUAGES[1:] for m in missing(lang)]
        for lang, message in gaps:
            print(f"{lang}: {message!r}")
        return 1 if gaps else 0
    print("usage: python -m velvet.i18n compile | missing", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
