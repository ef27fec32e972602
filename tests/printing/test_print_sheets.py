"""Print-and-play PDFs: page and card counts, every name and cost in the text, ink only in cards."""

from __future__ import annotations

import functools
import math
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics

from velvet.cli import main
from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.games import get_game
from velvet.printing.cardtext import Line, print_cards
from velvet.printing.sheets import (
    BOLD,
    CARD_H,
    CARD_W,
    COLS,
    GAP,
    PER_PAGE,
    ROWS,
    back_slot,
    cell_rect,
    fit_body,
    fit_name,
    grid_origin,
    paper_size,
    register_fonts,
    write_pdf,
)

LONG_NAME = "Ultramegalongshadowname " * 12 + "X" * 80
LONG_TEXT = ("An extraordinarily verbose designer's note about this shadow. " * 50).strip()

SCHEMA_NAME = ("Ultramegalongshadowname " * 4)[:80]
"""A name at the card schema's longest (80 characters)."""
SCHEMA_TEXT = LONG_TEXT[:500]
"""A text at the card schema's longest (500 characters)."""

P5_CUSTOM = f"""
[[shadow]]
id = "verbose"
name = "{SCHEMA_NAME}"
weak = ["fire", "ice", "elec", "wind", "psy", "nuke", "bless", "curse"]
health = {{ stamina = 3, sp = 3, bullet = 3, cash = 3 }}
text = "{SCHEMA_TEXT}"
persona = {{ name = "{"Garu" * 20}", cost = {{ sp = 9, stamina = 9, bullet = 9 }}, \
type = "wind", damage = {{ sp = 9, stamina = 9 }} }}

[[shadow]]
id = "tiny"
name = "Tiny"
health = {{ stamina = 1 }}
persona = {{ name = "Poke", cost = {{ sp = 3 }}, type = "phys", damage = {{ stamina = 1 }} }}
"""

VS_CUSTOM = f"""
[[persona]]
id = "900"
name = "{SCHEMA_NAME}"
cost = 9
weakness = "ice"
flavor = "{SCHEMA_TEXT}"
skills = [{{ name = "Agi", type = "fire", damage = 30 }}]
"""

needs_pdftoppm = pytest.mark.skipif(
    shutil.which("pdftoppm") is None,
    reason="pdftoppm is not installed; to run this test, install Debian's poppler-utils "
    "(sudo apt-get install poppler-utils; elsewhere the package is poppler)",
)


@functools.cache
def _game(name: str, *files: Path) -> Game[Any]:
    return get_game(name, files)


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _page_texts(path: Path) -> list[str]:
    return [_norm(page.extract_text() or "") for page in PdfReader(path).pages]


@pytest.fixture(scope="module")
def p5_custom(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cards") / "long.toml"
    path.write_text(P5_CUSTOM, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("game_name", "custom", "backs"),
    [("p5", "", False), ("vs", "", True), ("p5", "custom", True)],
)
def test_page_and_card_counts(
    tmp_path: Path, game_name: str, custom: str, backs: bool, p5_custom: Path
) -> None:
    files = [p5_custom] if custom else []
    game = _game(game_name, *files)
    cs = game.cards  # type: ignore[attr-defined]
    if game_name == "p5":
        expected = sum(
            len(x) for x in (cs.thieves, cs.personas, cs.confidants, cs.shadows, cs.locations)
        )
        extra_pages = 1 + 1 + len(cs.palaces) + 1  # rules, boards, palaces, day track
    else:
        expected = len(cs.players) + len(cs.personas) + len(cs.supports) + len(cs.reacts)
        extra_pages = 1
    if custom:
        assert expected == 97 + 2  # the two shadows are added to the built-in 97
    out = tmp_path / "sheet.pdf"
    result = write_pdf(game, out, backs=backs)
    sheets = math.ceil(expected / PER_PAGE)
    assert result.cards == expected
    pages = PdfReader(out).pages
    assert len(pages) == sheets * (2 if backs else 1) + extra_pages == result.page_count
    labels = " ".join(_norm(p.extract_text() or "") for p in pages)
    assert f"cards, sheet {sheets} of {sheets}" in labels
    assert ("backs of sheet" in labels) is backs


def test_vs_deck_prints_its_forty_cards(tmp_path: Path) -> None:
    game = _game("vs")
    deck = Path(__file__).resolve().parents[2] / "src/velvet/vs/data/decks/p4.toml"
    out = tmp_path / "deck.pdf"
    result = write_pdf(game, out, deck=deck, rules=False)
    assert result.cards == 40
    assert len(PdfReader(out).pages) == 5  # ceil(40 / 9)


def _cell_texts(path: Path, paper: str = "a4") -> list[list[str]]:
    """Per page, the text drawn inside each card slot (by its position on the page)."""
    pages: list[list[str]] = []
    for page in PdfReader(path).pages:
        cells = [""] * PER_PAGE

        def visit(text: str, cm: Any, tm: Any, *_: Any, cells: list[str] = cells) -> None:
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            for slot in range(PER_PAGE):
                cx, cy, w, h = cell_rect(paper, slot)
                if cx <= x <= cx + w and cy <= y <= cy + h:
                    cells[slot] += " " + text

        page.extract_text(visitor_text=visit)
        pages.append([_norm(cell) for cell in cells])
    return pages


@pytest.mark.parametrize("game_name", ["p5", "vs"])
def test_every_name_and_cost_is_on_its_card(tmp_path: Path, game_name: str) -> None:
    game = _game(game_name)
    out = tmp_path / "cards.pdf"
    write_pdf(game, out, rules=False, boards=False)
    cells = _cell_texts(out)
    cards = print_cards(game)
    assert cards and len(cells) == math.ceil(len(cards) / PER_PAGE)
    for i, card in enumerate(cards):
        text = cells[i // PER_PAGE][i % PER_PAGE]
        assert _norm(card.name) in text, (card.id, card.name, text[:60])
        for cost in card.costs:
            assert _norm(cost) in text, (card.id, cost, text)
        assert text.endswith(_norm(f"· {card.id}"))  # the footer names the card id
    assert sum(1 for c in cards if c.costs) > len(cards) // 2


def test_the_schemas_longest_name_and_text_fit_whole(tmp_path: Path, p5_custom: Path) -> None:
    """At every length the card schema allows, a card's name and text shrink and wrap."""
    out = tmp_path / "long.pdf"
    result = write_pdf(_game("p5", p5_custom), out, rules=False, boards=False)
    assert not [n for n in result.notes if "cut" in n], result.notes
    text = _norm("".join(_page_texts(out)))
    assert "…" not in text
    assert _norm(SCHEMA_TEXT[-40:]) in text  # the text's end reached the page


def test_text_longer_than_the_schema_allows_is_cut_and_reported() -> None:
    register_fonts()
    notes: list[str] = []
    fitted = fit_name("Q" * 400, 40 * mm, 8 * mm, notes, "shadow 'x'")
    assert len(fitted.lines) <= 3 and len(notes) == 1
    assert notes[0].startswith("shadow 'x': name cut to fit")
    body = fit_body([Line("W" * 3000)], 50 * mm, 60 * mm, notes, "shadow 'x'")
    assert any("text cut" in n for n in notes) and "…" in "".join(body.lines[0].text)


def test_fitting_never_exceeds_its_box() -> None:
    register_fonts()
    notes: list[str] = []
    width, height = 50 * mm, 60 * mm
    for text in ("Short.", "Medium text " * 20, LONG_TEXT, "W" * 3000):
        body = fit_body(
            [Line(text, (("sp", "20"), ("stamina", "20"), ("fire", "")), dark=True), Line(text)],
            width,
            height,
            notes,
            "t",
        )
        used = sum(body.heights) + body.size * 0.4 * (len(body.heights) - 1)
        assert used <= height + 0.01
    for name in ("Pixie", "A much longer persona name than usual", LONG_NAME, "Q" * 400):
        fitted = fit_name(name, 40 * mm, 8 * mm, notes, "t")
        assert len(fitted.lines) <= 3
        assert fitted.size * 1.15 * len(fitted.lines) <= 8 * mm + 0.01
        for line in fitted.lines:
            assert pdfmetrics.stringWidth(line, BOLD, fitted.size) <= 40 * mm + 0.01


def _render(pdf: Path, page: int, dpi: int, tmp_path: Path) -> Image.Image:
    prefix = tmp_path / f"page{page}-"
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            str(dpi),
            "-gray",
            "-png",
            "-f",
            str(page),
            "-l",
            str(page),
            str(pdf),
            str(prefix),
        ],
        check=True,
        capture_output=True,
    )
    (png,) = tmp_path.glob(f"page{page}-*.png")
    return Image.open(png).convert("L")


def _ink(image: Image.Image, box: tuple[float, float, float, float], paper: str, dpi: int) -> int:
    """Dark pixels inside ``box`` (x, y, w, h in PDF points, origin bottom-left)."""
    _, height = paper_size(paper)
    scale = dpi / 72
    x, y, w, h = box
    left, top = math.ceil(x * scale), math.ceil((height - y - h) * scale)
    right, bottom = math.floor((x + w) * scale), math.floor((height - y) * scale)
    crop = image.crop((left, top, right, bottom)).point(lambda v: 255 if v < 200 else 0)
    return int(sum(crop.histogram()[255:]))


@needs_pdftoppm
@pytest.mark.parametrize(("game_name", "paper"), [("p5", "a4"), ("vs", "letter")])
def test_ink_in_every_card_cell_and_none_in_the_gutters(
    tmp_path: Path, game_name: str, paper: str, p5_custom: Path
) -> None:
    files = [p5_custom] if game_name == "p5" else []
    game = _game(game_name, *files)
    out = tmp_path / "cards.pdf"
    result = write_pdf(game, out, paper=paper, backs=True, rules=False, boards=False)
    sheets = math.ceil(result.cards / PER_PAGE)
    dpi = 100
    x0, y0 = grid_origin(paper)
    grid_w = COLS * CARD_W + (COLS - 1) * GAP
    grid_h = ROWS * CARD_H + (ROWS - 1) * GAP
    pad = 0.4 * mm
    gutters = [
        (x0 + (k + 1) * CARD_W + k * GAP + pad, y0, GAP - 2 * pad, grid_h) for k in range(COLS - 1)
    ] + [
        (x0, y0 + (k + 1) * CARD_H + k * GAP + pad, grid_w, GAP - 2 * pad) for k in range(ROWS - 1)
    ]
    # the sheet with the longest custom card (P5), where an overflow would show, and the last
    ids = [card.id for card in print_cards(game)]
    to_check = {ids.index("verbose") // PER_PAGE + 1 if "verbose" in ids else 1, sheets}
    for sheet in sorted(to_check):
        on_sheet = min(PER_PAGE, result.cards - (sheet - 1) * PER_PAGE)
        for page, face in ((2 * sheet - 1, True), (2 * sheet, False)):
            image = _render(out, page, dpi, tmp_path)
            filled = range(on_sheet) if face else [back_slot(s) for s in range(on_sheet)]
            for slot in range(PER_PAGE):
                x, y, w, h = cell_rect(paper, slot)
                inner = (x + 3 * mm, y + 3 * mm, w - 6 * mm, h - 6 * mm)
                ink = _ink(image, inner, paper, dpi)
                assert (ink > 0) is (slot in filled), (page, slot, ink)
            for gutter in gutters:
                assert _ink(image, gutter, paper, dpi) == 0, (page, gutter)


def test_bad_input_is_one_clear_error_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "x.pdf"
    with pytest.raises(ConfigError, match="unknown paper 'a5'"):
        write_pdf(_game("p5"), out, paper="a5")
    with pytest.raises(ConfigError, match="--deck is for Persona VS"):
        write_pdf(_game("p5"), out, deck=tmp_path / "deck.toml")
    with pytest.raises(ConfigError, match="is a folder"):
        write_pdf(_game("vs"), tmp_path)
    assert not out.exists()
    assert not list(tmp_path.iterdir())


def test_cli_print(tmp_path: Path, p5_custom: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "custom.pdf"
    result = runner.invoke(
        main, ["print", "p5", "--cards", str(p5_custom), "--paper", "letter", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert re.search(r"wrote .*custom\.pdf: \d+ pages .* 99 cards", result.output)
    assert "cut to fit" not in result.output  # the schema's longest name and text fit whole
    assert PdfReader(out).pages[0].mediabox.width == pytest.approx(612, abs=0.5)
    bad = runner.invoke(
        main,
        ["print", "vs", "--deck", str(tmp_path / "none.toml"), "--out", str(tmp_path / "d.pdf")],
    )
    assert bad.exit_code == 2
    assert bad.output.strip().endswith("no such deck file")
    assert not (tmp_path / "d.pdf").exists()
    broken = tmp_path / "broken.toml"
    broken.write_text(
        '[[shadow]]\nid = "slime"\nname = "Slime"\nhealth = { stamina = 1 }\n'
        'persona = { name = "Goo", trigger = "auto", amp = "ice" }\ncolour = "green"\n'
    )
    bad = runner.invoke(
        main, ["print", "p5", "--cards", str(broken), "--out", str(tmp_path / "b.pdf")]
    )
    assert bad.exit_code == 2 and len(bad.output.strip().splitlines()) == 1
    assert "slime" in bad.output and "colour" in bad.output
    assert not (tmp_path / "b.pdf").exists()


def test_the_sheets_are_english_in_any_language(tmp_path: Path) -> None:
    """The card texts come from the catalogue (Japanese at a Japanese table), but the PDF's
    fonts have no Japanese glyphs: ``write_pdf`` prints in English whatever the language."""
    from velvet.i18n import speaking
    from velvet.p5.cards import effect_text

    game = get_game("p5")
    effects = game.cards.locations[0].effects  # type: ignore[attr-defined]
    with speaking("ja"):
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", effect_text(effects))
        write_pdf(game, tmp_path / "p5.pdf", rules=False, boards=False)
    text = " ".join(page.extract_text() for page in PdfReader(tmp_path / "p5.pdf").pages)
    assert effect_text(effects).split(".")[0] in " ".join(text.split())
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text)
