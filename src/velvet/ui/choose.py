"""Words a person types, matched to one legal choice: the parser of every terminal front end.

``velvet play`` (``velvet.ui.terminal``) and ``velvet join`` (``velvet.server.client``)
both read a move through :func:`pick`, over the legal list as ``(text form, label)``
pairs: the local session has the engine's actions, the client the server's ``legal``
list. As python-chess's ``parse_san`` does, the words are only ever matched against
that list, so no illegal move can come out of it; words that fit several choices are
refused with the candidates, and words that fit none are left to the caller (the local
session asks the engine why, the client sends them so that the server says why).

Matched, in order (the first step that finds something decides):

1. the text form itself (``use arsene.cleave @inugami``);
2. a whole label, or the label up to its colon, up to its first bracket, without its
   brackets, or without its brackets up to its first comma (``Use Cleave on Inugami``
   for "Use Cleave (Arsene) on Inugami, paying 1 Stamina");
3. the text form word by word, where a word may leave out what comes before a dot of
   the text's word (``use cleave @inugami`` for ``use arsene.cleave @inugami``) and the
   last words may be left out (``use cleave`` fits every target of Cleave);
4. the start of a label (three characters at least).

Case, accents, dashes and runs of spaces are ignored everywhere (:func:`norm`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from velvet.engine.errors import VelvetError
from velvet.engine.files import one_line
from velvet.engine.names import did_you_mean, fold, norm
from velvet.i18n import N_, _

WHATS = (N_("choice"), N_("card"))
"""What the refusals below may name (``what``), in the catalogue."""
SHOWN_CANDIDATES = 6
"""At most this many candidates are named when words fit several choices."""


class InvalidAction(VelvetError):
    """Words at the prompt that name no single legal choice."""


def number_problem(text: str, choices: int) -> str | None:
    """Why ``text`` (digits of any script) is no number of the list, or None if it is fine.

    ``str.isdigit`` accepts '²' and '③', which ``int`` rejects; and ``int`` refuses
    more than 4,300 digits. Only ASCII digits of a sensible length reach the engine.
    """
    word = text.strip()
    if not word or not any(ch.isdigit() for ch in word):
        return None
    if word.isascii():
        if word.isdigit() and len(word) > 6:
            return _("no action number {number}…: choose 1 to {choices}").format(
                number=word[:12], choices=choices
            )
        return None
    if all(ch.isdigit() or ch.isspace() for ch in word):
        return _("type the number with the digits 0-9")
    return None


_BRACKETS = re.compile(r"\s*[(\[][^()\[\]]*[)\]]")


def label_forms(label: str) -> set[str]:
    """The ways a label may be typed whole (step 2 above), normalised."""
    bare = _BRACKETS.sub("", label)
    return {
        norm(label),
        norm(label.split(":", 1)[0]),
        norm(label.split(" (", 1)[0]),
        norm(bare),
        norm(bare.split(",", 1)[0]),
    } - {""}


def _word_fits(typed: str, word: str) -> bool:
    """A typed word for a word of a text form: the same, or what follows one of its dots."""
    if typed == word:
        return True
    parts = word.split(".")
    return any(typed == ".".join(parts[i:]) for i in range(1, len(parts)))


def _text_fits(typed: list[str], text: str) -> bool:
    words = fold(text).split()
    if not typed or len(typed) > len(words):
        return False
    return all(_word_fits(t, w) for t, w in zip(typed, words, strict=False))


def pick(word: str, choices: Sequence[tuple[str, str]]) -> int | None:
    """The index in ``choices`` (``(text form, label)`` pairs) that ``word`` names, or None
    when it names none; raise InvalidAction listing the candidates when it fits several."""
    key = norm(word)
    if not key:
        return None
    typed = fold(word).split()
    folded = " ".join(typed)
    for i, (text, _label) in enumerate(choices):
        if fold(text) == folded or norm(text) == key:
            return i
    steps = (
        [i for i, (_text, label) in enumerate(choices) if key in label_forms(label)],
        [i for i, (text, _) in enumerate(choices) if _text_fits(typed, text)],
        [
            i
            for i, (_text, label) in enumerate(choices)
            if len(key) >= 3 and any(form.startswith(key) for form in label_forms(label))
        ],
    )
    for found in steps:
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise InvalidAction(ambiguous(word, [choices[i][1] for i in found]))
    return None


def ambiguous(word: str, labels: Sequence[str], what: str = "choice") -> str:
    """The refusal of words that fit several choices (or cards), naming them."""
    shown = "; ".join(labels[:SHOWN_CANDIDATES])
    extra = len(labels) - SHOWN_CANDIDATES
    more = _("; and {count} more").format(count=extra) if extra > 0 else ""
    said = _("'{word}' could be more than one {what} ({count}): {shown}{more}. Type more of it")
    return said.format(
        word=one_line(word.strip(), 60), what=_(what), count=len(labels), shown=shown, more=more
    ) + (_(", or its number") if what == "choice" else "")


def pick_name(word: str, entries: Sequence[Sequence[str]], what: str = "card") -> int:
    """The index of the entry ``word`` names; each entry is the names one thing may be
    called, its display name first. A whole display name (case and accents aside) first,
    then any whole name, then the start of a name, each when it fits one entry only;
    otherwise InvalidAction naming the candidates, or the nearest names ("did you mean")."""
    key = norm(word)
    shown = one_line(word.strip(), 60)
    if not key:
        raise InvalidAction(_("no {what} named '{name}'").format(what=_(what), name=shown))
    keys = [{norm(name) for name in names} - {""} for names in entries]
    named = [i for i, names in enumerate(entries) if names and norm(names[0]) == key]
    whole = [i for i, forms in enumerate(keys) if key in forms]
    start = [i for i, forms in enumerate(keys) if any(f.startswith(key) for f in forms)]
    for found in (named, whole, start):
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise InvalidAction(ambiguous(word, [entries[i][0] for i in found], what))
    hint = did_you_mean(word, [name for names in entries for name in names[:1]])
    said = _("no {what} named '{name}'").format(what=_(what), name=shown)
    raise InvalidAction(said + (hint or _(" (Tab completes names)")))
