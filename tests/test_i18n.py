"""The words players see in Japanese: the catalogue covers the code, the terminal speaks it,
the browser gets the same catalogue, and an unknown language is English without an error."""

from __future__ import annotations

import gettext
import io
import re
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from rich.console import Console

from velvet import i18n
from velvet.engine import GameRecord
from velvet.games import game_names, get_game, get_spec
from velvet.server.app import Settings, create_app
from velvet.ui.terminal import Session

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
"""Kana or kanji."""


@pytest.fixture
def japanese(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(i18n.ENV, "ja")
    i18n.set_language("ja")
    yield
    i18n.set_language("en")


def scripted(lines: list[str]) -> Callable[[str], str]:
    feed: Iterator[str] = iter(lines)

    def ask(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return ask


def play(game_name: str, lines: list[str], seats: int = 1) -> str:
    game = get_game(game_name)
    config = game.default_config()
    console = Console(record=True, width=80, height=40, force_terminal=False)
    Session(
        game,
        GameRecord.start(game, config, 1),
        game.new_state(config, 1),
        [None] * seats,
        console,
        scripted(lines),
    ).run()
    return console.export_text()


def test_every_message_shown_in_the_converted_files_is_in_the_japanese_catalogue() -> None:
    found = i18n.extract()
    assert len(found) > 250  # the extraction sees the terminal, renderers, lobby and table
    places = {place.split(":")[0] for spots in found.values() for place in spots}
    converted = {
        "ui/terminal.py",
        "ui/choose.py",
        "web/static/lobby.js",
        "web/static/table.js",
        "web/static/vs.js",
        "web/static/cards.js",
    }
    assert converted <= places
    assert i18n.missing("ja") == []


def test_the_check_fails_for_a_message_missing_from_the_catalogue(tmp_path: Path) -> None:
    source = tmp_path / "new.py"
    source.write_text('from velvet.i18n import _\nprint(_("A sentence nobody translated"))\n')
    found = dict(i18n.extract_python(source))
    have = i18n.parse_po(i18n.po_path("ja").read_text(encoding="utf-8"))
    assert "A sentence nobody translated" in found
    assert "A sentence nobody translated" not in have
    script = tmp_path / "new.js"
    script.write_text('el("p", {}, t("Seen {n} times", { n }));\ntoast("plain");\n')
    assert [m for m, _line in i18n.extract_browser(script)] == ["Seen {n} times"]


def test_a_comment_between_msgid_and_msgstr_is_refused_naming_its_line() -> None:
    """msgfmt refuses such a file; Babel compiled one into a catalogue where a message got
    another's translation (a card face failed with a KeyError on a placeholder)."""
    text = 'msgid "Deck"\n# a note in the wrong place\nmsgstr "山札"\n'
    with pytest.raises(ValueError, match=r"ja\.po:2: a comment inside an entry"):
        i18n.parse_po(text, "ja.po")
    assert i18n.parse_po('# before\nmsgid "Deck"\nmsgstr "山札"\n# after\n') == {"Deck": "山札"}


def test_a_catalogue_that_gives_a_message_twice_is_refused_naming_both_lines() -> None:
    text = (
        'msgid "Deck"\nmsgstr "山札"\n\n'
        'msgid "Hand"\nmsgstr "手札"\n\n'
        'msgid "Deck"\nmsgstr "デッキ"\n'
    )
    with pytest.raises(ValueError, match=r"ja\.po:7: message 'Deck' again \(first on ja\.po:1\)"):
        i18n.parse_po(text, "ja.po")
    i18n.parse_po(i18n.po_path("ja").read_text(encoding="utf-8"))  # the shipped one: once each


def test_the_shipped_mo_matches_the_po() -> None:
    po = i18n.po_path("ja")
    messages = i18n.parse_po(po.read_text(encoding="utf-8"))
    with po.with_suffix(".mo").open("rb") as shipped:
        compiled = gettext.GNUTranslations(shipped)
    fresh = gettext.GNUTranslations(io.BytesIO(i18n.compile_mo(messages)))
    # the same messages; the header ("") is each compiler's own (Babel writes its name in it)
    shipped_messages = {k: v for k, v in compiled._catalog.items() if k != ""}  # type: ignore[attr-defined]
    fresh_messages = {k: v for k, v in fresh._catalog.items() if k != ""}  # type: ignore[attr-defined]
    assert shipped_messages == fresh_messages
    assert compiled.gettext("Game over") == "ゲーム終了"
    assert compiled.ngettext("{n} card", "{n} cards", 3) == "{n}枚"


def test_the_language_comes_from_the_option_then_velvet_lang_then_the_locale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv(i18n.ENV)
    assert i18n.choose_language() == "en"
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert i18n.choose_language() == "ja"
    monkeypatch.setenv(i18n.ENV, "en")
    assert i18n.choose_language() == "en"
    assert i18n.choose_language("ja-JP") == "ja"
    assert i18n.choose_language("fr") == "en"  # no catalogue: English, no error
    assert i18n.choose_language("") == "en"


def test_an_unknown_language_falls_back_to_english_with_no_error() -> None:
    i18n.set_language("xx-YY")
    try:
        assert i18n.language() == "en"
        assert i18n._("Game over") == "Game over"
        assert i18n.ngettext("{n} card", "{n} cards", 2) == "{n} cards"
        assert i18n.localize("Recruit Ann Takamaki at Home", "p5") == "Recruit Ann Takamaki at Home"
    finally:
        i18n.set_language("en")


@pytest.mark.usefixtures("japanese")
def test_the_terminal_in_japanese_shows_japanese_words_and_card_names() -> None:
    out = play("p5", ["help", "quit"])
    assert "あなたの選択肢" in out  # "your choices"
    assert "28日中1日目" in out  # "Day 1 of 28"
    assert "ジョーカー（雨宮蓮）" in out  # the thief's Japanese name
    assert "アルセーヌ" in out  # the persona's
    assert "行動の番号" in out  # help
    assert "your choices" not in out and "Day 1 of 28" not in out
    # what the player types is still matched in English: a move is made and taken back
    out = play("p5", ["visit Weapons Shop", "undo", "quit"])
    assert "1手取り消しました。" in out


@pytest.mark.usefixtures("japanese")
def test_the_second_game_speaks_japanese_too() -> None:
    name = next(n for n in game_names() if get_spec(n).hides_hands)
    out = play(name, ["quit"], seats=2)
    assert "あなたの手札" in out  # "Your hand"
    assert "ターン1" in out  # "Turn 1"
    assert JAPANESE.search(out)


def width(text: str) -> int:
    """Terminal cells of ``text``: East Asian wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


@pytest.mark.usefixtures("japanese")
def test_japanese_lines_keep_to_the_width_and_the_choices_stay_aligned() -> None:
    out = play("p5", ["quit"])
    lines = out.splitlines()
    assert max(width(line.rstrip()) for line in lines) <= 80
    heading = next(i for i, line in enumerate(lines) if "あなたの選択肢" in line)
    rows = [line for line in lines[heading + 1 :] if re.match(r"^\S*\s+\d+\s", line)]
    assert len(rows) >= 3
    starts = {width(row[: re.search(r"\d+\s+", row).end()]) for row in rows}  # type: ignore[union-attr]
    assert len(starts) == 1, rows  # every label starts in the same column


def test_every_game_s_japanese_names_are_its_own_card_names() -> None:
    for name in game_names():
        table = i18n.card_names(name, "ja")
        assert table, f"{name} has no Japanese names"
        game = get_game(name)
        known = {game.describe_card(ident).name for ident in game.card_ids()}
        parts = {p.strip("()") for n in known for p in re.split(r" \(|\)$", n) if p}
        stray = [english for english in table if english not in known | parts]
        assert not stray, f"{name}: names of no card: {stray}"
        assert all(JAPANESE.search(local) for local in table.values())


def test_the_api_serves_the_catalogue_and_english_for_an_unknown_language(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'velvet.sqlite3'}"
    app = create_app(Settings(db=db, bot_workers=0, rate=1000, http_rate=1000))
    with TestClient(app) as client:
        ja = client.get("/api/i18n/ja")
        assert ja.status_code == 200
        data = ja.json()
        assert data["lang"] == "ja"
        po = i18n.parse_po(i18n.po_path("ja").read_text(encoding="utf-8"))
        assert data["messages"]["Create the room"] == po["Create the room"] == "ルームを作成"
        assert data["plurals"]["{n} card"] == ["{n}枚"]
        assert all(data["names"][name] for name in game_names())
        unknown = client.get("/api/i18n/xx")
        assert unknown.status_code == 200
        assert unknown.json()["lang"] == "en"
        assert unknown.json()["messages"] == {}
        page = client.get("/").text
        assert 'id="lang"' in page


def test_the_games_set_up_words_the_lobby_shows_are_in_the_japanese_catalogue() -> None:
    from velvet.server import games

    have = i18n.parse_po(i18n.po_path("ja").read_text(encoding="utf-8"))
    gaps = []
    for entry in games.catalog(lambda *_: True):
        names = i18n.card_names(entry["name"], "ja")
        words = [entry["short_title"]]
        for option in entry["options"]:
            words += [option["label"], option["help"]]
            words += [c["name"] for c in option["choices"] if c["name"] not in names]
        gaps += [f"{entry['name']}: {word!r}" for word in words if word not in have]
    assert not gaps, gaps


def test_every_translation_keeps_the_placeholders_of_its_english() -> None:
    """A translation that drops ``{player}`` says the wrong thing, one that adds a name
    makes ``str.format`` fail at the moment it is shown."""
    placeholder = re.compile(r"\{(\w*)\}")
    wrong = []
    for key, value in i18n.parse_po(i18n.po_path("ja").read_text(encoding="utf-8")).items():
        english = set(placeholder.findall(key))
        for text in value if isinstance(value, list) else [value]:
            if key and set(placeholder.findall(text)) != english:
                wrong.append(key)
    assert not wrong, wrong


def test_vs_event_sentences_follow_the_language(japanese: None) -> None:
    """The VS engine's sentences (turn, 1 MORE, draw, the field's and the hand's) come from
    the catalogue, with the seat and card in the places Japanese word order puts them, and
    the English ones are as they were."""
    from velvet.engine import Event

    game = get_game("vs")
    texts = [
        game.event_text(Event("turn", {"player": 1, "turn": 3})),
        game.event_text(Event("one_more", {"player": 0})),
        game.event_text(Event("draw", {"player": 0, "count": 2})),
    ]
    assert texts == [
        "ターン3：プレイヤー2のターン開始。",
        "1 MORE！ プレイヤー1は弱点を突いたので、もう一度スキルを宣言できる。",
        "プレイヤー1はカード2枚を引く。",
    ]
    # the field's and the hand's sentences too, their fragments (a count, a list) with them
    said = {
        "fuse": Event("fuse", {"player": 0, "card": "002", "stack": ["001", "005", "002"]}),
        "bounce": Event("bounce", {"player": 1, "card": "001", "slot": "m", "under": ["5"]}),
        "heal": Event("heal", {"player": 0, "amount": 3, "hp": 20, "card": "017"}),
        "discard": Event("discard", {"player": 1, "card": "001", "random": True}),
        "damage": Event(
            "damage",
            {
                "player": 1,
                "amount": 4,
                "source": "skill",
                "skill": "Agi",
                "card": "001",
                "base": 2,
                "steps": [["add", 2, "017", "support", 4]],
                "hp": 26,
            },
        ),
        "game_over": Event("game_over", {"winner": 0, "reason": "hp"}),
    }
    ja = {kind: game.event_text(event) for kind, event in said.items()}
    for kind, text in ja.items():
        assert JAPANESE.search(text) and " the " not in text and " and " not in text, (kind, text)
    assert ja["fuse"].startswith("プレイヤー1は") and "と" in ja["fuse"]  # "A と B"
    assert "下にあった1枚は捨て札へ" in ja["bounce"]
    i18n.set_language("en")
    assert game.event_text(Event("one_more", {"player": 0})) == (
        "1 MORE! Player 1 hit a weakness and may declare another skill."
    )
    assert game.event_text(Event("draw", {"player": 0, "count": 1})) == "Player 1 draws 1 card."
    english = {kind: game.event_text(event) for kind, event in said.items()}
    assert english["bounce"] == (
        "Player 2's main Arsène returns to their hand; the 1 card under it goes to the "
        "discard pile."
    )
    assert english["discard"] == "Player 2 discards Arsène at random."
    assert english["damage"] == (
        "Player 2 takes 4 damage from Agi of Arsène (base 2, +2 the Support Desperado → 4) (HP 26)."
    )
    assert english["game_over"] == "Player 1 wins: Player 2's HP reached 0."
    assert " and " in english["fuse"] and english["fuse"].endswith("it is their main persona.")
