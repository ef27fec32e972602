"""Print-and-play PDF sheets with reportlab: cards to cut, backs, rules summary, P5 boards.

Cards are real size (63 × 88 mm), 3 × 3 to a page with a 2 mm gutter between
them and crop marks in the page margin only, so the gutters stay blank. Text is
fitted: the name shrinks (then wraps) to its band and the body shrinks to its
box; only text longer than fits at the smallest size is cut, with "…", and
each cut is reported in :attr:`PrintResult.notes`. Fonts are DejaVu Sans
Condensed (shipped in ``velvet/printing/fonts``, Bitstream Vera licence),
embedded in the PDF so a custom card prints its own characters.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Frame, Paragraph, Spacer

from velvet.engine.core import Game
from velvet.engine.errors import ConfigError
from velvet.engine.spec import GameSpec
from velvet.games import get_spec
from velvet.i18n import speaking
from velvet.printing.cardtext import Icon, Line, PrintCard, print_cards
from velvet.printing.summary import Section, summary

if TYPE_CHECKING:
    from velvet.p5.cards import Res
    from velvet.p5.game import P5Game

PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": letter}
CARD_W = 63 * mm
CARD_H = 88 * mm
GAP = 2 * mm
COLS = ROWS = 3
PER_PAGE = COLS * ROWS
FONT = "VelvetSans"
BOLD = "VelvetSans-Bold"
FONT_DIR = Path(__file__).parent / "fonts"
MIN_TEXT = 4.5
"""Smallest body text size (points) before text is cut."""
MAX_TEXT = 9.5
ELLIPSIS = "…"

KIND_COLORS = {
    "thief": "#b3122e",
    "persona": "#1d3f8f",
    "confidant": "#7a4a12",
    "shadow": "#3b1f5c",
    "location": "#2f6b3a",
    "player": "#222222",
    "support": "#1f6fb5",
    "react": "#c99a06",
}
ICONS: dict[str, tuple[str, str, str]] = {
    # name: (colour, letters, shape) — circles are resources, diamonds damage types
    "stamina": ("#d0312d", "St", "circle"),
    "sp": ("#2a6fdb", "SP", "circle"),
    "bullet": ("#5a5a5a", "Bu", "circle"),
    "cash": ("#c9a227", "¥", "circle"),
    "any": ("#8e44ad", "★", "circle"),
    "phys": ("#8d6e63", "Ph", "diamond"),
    "physical": ("#8d6e63", "Ph", "diamond"),
    "gun": ("#455a64", "Gn", "diamond"),
    "fire": ("#e65100", "Fi", "diamond"),
    "ice": ("#0288d1", "Ic", "diamond"),
    "elec": ("#c8a600", "El", "diamond"),
    "electric": ("#c8a600", "El", "diamond"),
    "wind": ("#2e7d32", "Wi", "diamond"),
    "psy": ("#c2185b", "Ps", "diamond"),
    "nuke": ("#00838f", "Nu", "diamond"),
    "bless": ("#b08900", "Bl", "diamond"),
    "curse": ("#6a1b9a", "Cu", "diamond"),
}
ICON = 3.4 * mm


@dataclass
class PrintResult:
    """What was written: pages by section, cards printed, and any text that had to be cut."""

    path: Path
    pages: list[tuple[str, int]] = field(default_factory=list)
    cards: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def page_count(self) -> int:
        return sum(n for _, n in self.pages)

    def summary(self) -> str:
        parts = ", ".join(f"{n} {name}" for name, n in self.pages)
        return f"wrote {self.path}: {self.page_count} pages ({parts}); {self.cards} cards"


# --- geometry -------------------------------------------------------------------------------


def paper_size(paper: str) -> tuple[float, float]:
    size = PAPERS.get(paper.lower())
    if size is None:
        raise ConfigError(f"unknown paper '{paper}': choose {' or '.join(PAPERS)}")
    return size


def grid_origin(paper: str) -> tuple[float, float]:
    """Bottom-left corner of the 3 × 3 card grid, in points."""
    width, height = paper_size(paper)
    grid_w = COLS * CARD_W + (COLS - 1) * GAP
    grid_h = ROWS * CARD_H + (ROWS - 1) * GAP
    return (width - grid_w) / 2, (height - grid_h) / 2


def cell_rect(paper: str, slot: int) -> tuple[float, float, float, float]:
    """(x, y, w, h) in points of card slot 0..8 (row by row from the top left)."""
    x0, y0 = grid_origin(paper)
    row, col = divmod(slot, COLS)
    x = x0 + col * (CARD_W + GAP)
    y = y0 + (ROWS - 1 - row) * (CARD_H + GAP)
    return x, y, CARD_W, CARD_H


def back_slot(slot: int) -> int:
    """Where a card's back goes on the back page: columns mirrored (long-edge duplex)."""
    row, col = divmod(slot, COLS)
    return row * COLS + (COLS - 1 - col)


# --- fonts and text fitting ----------------------------------------------------------------


_registered = False


def register_fonts() -> None:
    global _registered
    if _registered:
        return
    pdfmetrics.registerFont(TTFont(FONT, str(FONT_DIR / "DejaVuSansCondensed.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(FONT_DIR / "DejaVuSansCondensed-Bold.ttf")))
    _registered = True


def printable(text: str, notes: list[str], where: str) -> str:
    """``text`` with characters the font lacks replaced by "?" (and noted)."""
    face = pdfmetrics.getFont(FONT).face  # type: ignore[attr-defined]
    known = face.charToGlyph
    missing = sorted({ch for ch in text if ord(ch) not in known and ch not in "\n\t"})
    if not missing:
        return text
    notes.append(f"{where}: the font has no {''.join(missing)!r}; printed as '?'")
    return "".join("?" if ch in missing else ch for ch in text)


def _style(size: float, bold: bool = False, color: Any = colors.black) -> ParagraphStyle:
    return ParagraphStyle(
        "v",
        fontName=BOLD if bold else FONT,
        fontSize=size,
        leading=size * 1.18,
        textColor=color,
        splitLongWords=True,
    )


def _para(text: str, size: float, bold: bool = False, color: Any = colors.black) -> Paragraph:
    return Paragraph(escape(text), _style(size, bold, color))


def _height(text: str, size: float, width: float, bold: bool = False) -> float:
    _, h = _para(text, size, bold).wrap(width, 10_000)
    return float(h)


def _cut(text: str, fits: Callable[[str], bool]) -> str:
    """The longest prefix of ``text`` (+ "…") for which ``fits`` holds (binary search)."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(text[:mid].rstrip() + ELLIPSIS):
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS


@dataclass(frozen=True)
class FittedName:
    size: float
    lines: tuple[str, ...]


NAME_MIN_SIZE = 3.5
"""The smallest name size (points) before a name is cut; 80 characters fit above it."""


def fit_name(
    name: str, width: float, height: float, notes: list[str], where: str, big: float = 10.0
) -> FittedName:
    """A name on one line, shrunk to ``width``; then two or three lines; cut only past that."""
    size = big
    while size >= 5.0:
        if pdfmetrics.stringWidth(name, BOLD, size) <= width and size * 1.2 <= height:
            return FittedName(size, (name,))
        size -= 0.25
    size = min(5.0, height / 2.4)
    while True:  # 2-3 lines, shrinking to NAME_MIN_SIZE: a schema-long name still fits whole
        lines = _wrap_words(name, width, size)
        if len(lines) <= min(3, int(height // (size * 1.2))):
            return FittedName(size, tuple(lines))
        if size - 0.25 < NAME_MIN_SIZE:
            break
        size -= 0.25
    first = lines[0]
    rest = name[len(first) :].strip()
    second = _cut(rest, lambda t: pdfmetrics.stringWidth(t, BOLD, size) <= width)
    notes.append(f"{where}: name cut to fit ({len(first) + len(second) - 1} of {len(name)} chars)")
    return FittedName(size, (first, second))


def _wrap_words(text: str, width: float, size: float) -> list[str]:
    """Greedy word wrap; a word wider than the line is broken by characters."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if pdfmetrics.stringWidth(trial, BOLD, size) <= width:
            current = trial
            continue
        if current:
            lines.append(current)
        current = ""
        for ch in word:
            if pdfmetrics.stringWidth(current + ch, BOLD, size) > width and current:
                lines.append(current)
                current = ""
            current += ch
    if current:
        lines.append(current)
    return lines or [""]


@dataclass(frozen=True)
class FittedBody:
    size: float
    lines: tuple[Line, ...]
    heights: tuple[float, ...]
    icon_space: float


def _icon_rows(icons: Sequence[Icon], size: float, width: float) -> list[list[Icon]]:
    rows: list[list[Icon]] = [[]]
    used = 0.0
    for icon in icons:
        w = _icon_width(icon, size)
        if rows[-1] and used + w > width:
            rows.append([])
            used = 0.0
        rows[-1].append(icon)
        used += w
    return rows if icons else []


def _icon_width(icon: Icon, size: float) -> float:
    label = icon[1]
    return ICON + (pdfmetrics.stringWidth(label, BOLD, size) + 0.6 * mm if label else 0) + 0.8 * mm


def fit_body(
    lines: Sequence[Line],
    width: float,
    height: float,
    notes: list[str],
    where: str,
    largest: float = MAX_TEXT,
) -> FittedBody:
    """Shrink the body text until it fits ``height``; at the smallest size, cut with "…"."""
    icon_space = 0.0
    if any(line.icons for line in lines):
        icon_space = min(
            max(sum(_icon_width(i, MAX_TEXT) for i in line.icons) for line in lines),
            width * 0.3,
        )

    def line_height(line: Line, size: float) -> float:
        text_w = width - icon_space - (2 * mm if line.dark else 0)
        h = _height(line.text, size, text_w) + (1.2 * mm if line.dark else 0)
        rows = len(_icon_rows(line.icons, size, icon_space))
        return max(h, rows * (ICON + 0.4 * mm))

    def total(seq: Sequence[Line], size: float) -> tuple[float, list[float]]:
        hs = [line_height(line, size) for line in seq]
        return sum(hs) + size * 0.4 * max(0, len(hs) - 1), hs

    size = largest
    while size >= MIN_TEXT:
        full, hs = total(lines, size)
        if full <= height:
            return FittedBody(size, tuple(lines), tuple(hs), icon_space)
        size -= 0.25
    size = MIN_TEXT
    kept: list[Line] = []
    for line in lines:
        if total([*kept, line], size)[0] <= height:
            kept.append(line)
            continue
        head = kept

        def fits(text: str, line: Line = line, head: list[Line] = head) -> bool:
            return total([*head, Line(text, line.icons, line.dark)], size)[0] <= height

        if fits(ELLIPSIS):
            kept.append(Line(_cut(line.text, fits), line.icons, line.dark))
        shown = sum(len(x.text) for x in kept)
        whole = sum(len(x.text) for x in lines)
        notes.append(f"{where}: text cut to fit ({shown} of {whole} chars)")
        break
    _, hs = total(kept, size)
    return FittedBody(size, tuple(kept), tuple(hs), icon_space)


# --- drawing ---------------------------------------------------------------------------------


def draw_icon(c: Canvas, icon: Icon, x: float, y: float, size: float) -> float:
    """Draw an icon with its label at (x, y) bottom-left; returns the width used."""
    name, label = icon
    color, letters, shape = ICONS.get(name, ("#777777", name[:2].capitalize(), "diamond"))
    r = ICON / 2
    cx, cy = x + r, y + r
    c.saveState()
    c.setFillColor(colors.HexColor(color))
    c.setStrokeColor(colors.white)
    if shape == "circle":
        c.circle(cx, cy, r, stroke=0, fill=1)
    else:
        path = c.beginPath()
        path.moveTo(cx, cy + r)
        path.lineTo(cx + r, cy)
        path.lineTo(cx, cy - r)
        path.lineTo(cx - r, cy)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
    c.setFillColor(colors.white)
    c.setFont(BOLD, 4.6 if len(letters) > 1 else 5.5)
    c.drawCentredString(cx, cy - 1.6, letters)
    width = ICON + 0.8 * mm
    if label:
        c.setFillColor(colors.black)
        c.setFont(BOLD, size)
        c.drawString(x + ICON + 0.4 * mm, cy - size * 0.35, label)
        width = _icon_width(icon, size)
    c.restoreState()
    return width


def draw_card(c: Canvas, card: PrintCard, x: float, y: float, notes: list[str]) -> None:
    """One card face in the 63 × 88 mm box whose bottom-left corner is (x, y)."""
    where = f"{card.kind} '{card.id}'"
    kind_color = colors.HexColor(KIND_COLORS.get(card.kind, "#444444"))
    inset = 2 * mm
    c.saveState()
    c.setStrokeColor(colors.HexColor("#bbbbbb"))
    c.setLineWidth(0.3)
    c.rect(x, y, CARD_W, CARD_H, stroke=1, fill=0)
    c.setStrokeColor(kind_color)
    c.setLineWidth(1.2)
    c.roundRect(x + inset, y + inset, CARD_W - 2 * inset, CARD_H - 2 * inset, 2 * mm)
    # header band: cost badge, name, corner icons
    band_h = 10 * mm
    top = y + CARD_H - inset
    c.setFillColor(kind_color)
    c.roundRect(x + inset, top - band_h, CARD_W - 2 * inset, band_h, 2 * mm, stroke=0, fill=1)
    left = x + inset + 1.5 * mm
    right = x + CARD_W - inset - 1.5 * mm
    if card.cost:
        c.setFillColor(colors.white)
        c.circle(left + 3 * mm, top - band_h / 2, 3 * mm, stroke=0, fill=1)
        c.setFillColor(kind_color)
        c.setFont(BOLD, 11)
        c.drawCentredString(left + 3 * mm, top - band_h / 2 - 3.8, card.cost)
        left += 7 * mm
    corner_w = sum(ICON + 0.8 * mm for _ in card.corner)
    corner_w = min(corner_w, (right - left) * 0.45)
    per_row = max(1, int(corner_w // (ICON + 0.8 * mm)))
    for i, icon in enumerate(card.corner):
        row, col = divmod(i, per_row)
        ix = right - (per_row - col) * (ICON + 0.8 * mm)
        iy = top - 1.3 * mm - ICON - row * (ICON + 0.3 * mm)
        if iy < top - band_h:
            notes.append(f"{where}: {len(card.corner) - i} corner icon(s) left off")
            break
        draw_icon(c, (icon[0], ""), ix, iy, 6)
    name_w = right - left - corner_w - 1 * mm
    name = printable(card.name, notes, where)
    fitted = fit_name(name, name_w, band_h - 1.5 * mm, notes, where)
    c.setFillColor(colors.white)
    c.setFont(BOLD, fitted.size)
    lead = fitted.size * 1.15
    first_y = top - band_h / 2 + (len(fitted.lines) - 1) * lead / 2 - fitted.size * 0.35
    for i, text in enumerate(fitted.lines):
        c.drawString(left, first_y - i * lead, text)
    # kind line
    c.setFillColor(kind_color)
    c.setFont(BOLD, 6)
    kind_line = card.kind.upper() + (f" · Cost {card.cost}" if card.cost else "")
    c.drawString(x + inset + 1.5 * mm, top - band_h - 3 * mm, kind_line)
    # body
    body_top = top - band_h - 4.5 * mm
    body_bottom = y + inset + 4.5 * mm
    body_x = x + inset + 1.5 * mm
    body_w = CARD_W - 2 * inset - 3 * mm
    lines = [Line(printable(line.text, notes, where), line.icons, line.dark) for line in card.lines]
    body = fit_body(lines, body_w, body_top - body_bottom, notes, where)
    cursor = body_top
    for line, h in zip(body.lines, body.heights, strict=True):
        text_x = body_x + body.icon_space
        text_w = body_w - body.icon_space
        if line.dark:
            c.setFillColor(colors.HexColor("#1a1a1a"))
            c.roundRect(text_x, cursor - h, text_w, h, 1 * mm, stroke=0, fill=1)
            para = _para(line.text, body.size, color=colors.white)
            _, ph = para.wrap(text_w - 2 * mm, 10_000)
            para.drawOn(c, text_x + 1 * mm, cursor - 0.6 * mm - ph)
        else:
            para = _para(line.text, body.size)
            _, ph = para.wrap(text_w, 10_000)
            para.drawOn(c, text_x, cursor - ph)
        icon_y = cursor - ICON
        for icon_row in _icon_rows(line.icons, body.size, body.icon_space):
            ix = body_x
            for icon in icon_row:
                ix += draw_icon(c, icon, ix, icon_y, body.size)
            icon_y -= ICON + 0.4 * mm
        cursor -= h + body.size * 0.4
    # footer
    c.setFillColor(colors.HexColor("#666666"))
    c.setFont(FONT, 5)
    footer = printable(f"Velvet · {card.game.upper()} · {card.id}", notes, where)
    if pdfmetrics.stringWidth(footer, FONT, 5) > body_w:
        footer = _cut(footer, lambda t: pdfmetrics.stringWidth(t, FONT, 5) <= body_w)
    c.drawString(body_x, y + inset + 1.5 * mm, footer)
    c.restoreState()


def draw_back(c: Canvas, card: PrintCard, x: float, y: float, title: str) -> None:
    """A card back: the game's ``title`` and the card's kind, in its colour."""
    kind_color = colors.HexColor(KIND_COLORS.get(card.kind, "#444444"))
    inset = 2 * mm
    c.saveState()
    c.setFillColor(kind_color)
    c.roundRect(x + inset, y + inset, CARD_W - 2 * inset, CARD_H - 2 * inset, 2 * mm, 0, 1)
    c.setStrokeColor(colors.white)
    c.setLineWidth(0.6)
    c.roundRect(x + 4 * mm, y + 4 * mm, CARD_W - 8 * mm, CARD_H - 8 * mm, 1.5 * mm, 1, 0)
    c.setFillColor(colors.white)
    c.setFont(BOLD, 16)
    c.drawCentredString(x + CARD_W / 2, y + CARD_H / 2 + 4 * mm, "VELVET")
    c.setFont(FONT, 7)
    c.drawCentredString(x + CARD_W / 2, y + CARD_H / 2 - 2 * mm, title)
    c.setFont(BOLD, 8)
    c.drawCentredString(x + CARD_W / 2, y + CARD_H / 2 - 8 * mm, card.kind.upper())
    c.restoreState()


def draw_crop_marks(c: Canvas, paper: str) -> None:
    """Cut lines of every card edge, extended into the page margin (never into a gutter)."""
    width, height = paper_size(paper)
    x0, y0 = grid_origin(paper)
    x1 = x0 + COLS * CARD_W + (COLS - 1) * GAP
    y1 = y0 + ROWS * CARD_H + (ROWS - 1) * GAP
    xs = [x0 + col * (CARD_W + GAP) + dx for col in range(COLS) for dx in (0, CARD_W)]
    ys = [y0 + row * (CARD_H + GAP) + dy for row in range(ROWS) for dy in (0, CARD_H)]
    c.saveState()
    c.setLineWidth(0.3)
    c.setStrokeColor(colors.black)
    for x in xs:
        c.line(x, y1 + 1 * mm, x, min(y1 + 5 * mm, height - 0.5 * mm))
        c.line(x, y0 - 1 * mm, x, max(y0 - 5 * mm, 0.5 * mm))
    for y in ys:
        c.line(x0 - 1 * mm, y, max(x0 - 5 * mm, 0.5 * mm), y)
        c.line(x1 + 1 * mm, y, min(x1 + 5 * mm, width - 0.5 * mm), y)
    c.restoreState()


def page_label(c: Canvas, paper: str, text: str) -> None:
    """A small label turned along the left margin, beside the middle row of cards."""
    x0, _ = grid_origin(paper)
    _, y, _, h = cell_rect(paper, 3)
    c.saveState()
    c.translate(x0 / 2 + 1.5, y + h / 2)
    c.rotate(90)
    c.setFont(FONT, 5.5)
    c.setFillColor(colors.HexColor("#555555"))
    c.drawCentredString(0, 0, text)
    c.restoreState()


# --- sheets ---------------------------------------------------------------------------------


def card_pages(
    c: Canvas, cards: Sequence[PrintCard], paper: str, backs: bool, title: str, notes: list[str]
) -> int:
    """Faces 9 to a page (and after each, its backs mirrored); returns the pages drawn."""
    sheets = math.ceil(len(cards) / PER_PAGE)
    pages = 0
    for sheet in range(sheets):
        chunk = cards[sheet * PER_PAGE : (sheet + 1) * PER_PAGE]
        for slot, card in enumerate(chunk):
            x, y, _, _ = cell_rect(paper, slot)
            draw_card(c, card, x, y, notes)
        draw_crop_marks(c, paper)
        page_label(c, paper, f"Velvet · {title} · cards, sheet {sheet + 1} of {sheets}")
        c.showPage()
        pages += 1
        if backs:
            for slot, card in enumerate(chunk):
                x, y, _, _ = cell_rect(paper, back_slot(slot))
                draw_back(c, card, x, y, title)
            draw_crop_marks(c, paper)
            page_label(c, paper, f"Velvet · {title} · backs of sheet {sheet + 1} of {sheets}")
            c.showPage()
            pages += 1
    return pages


def _flow(c: Canvas, paper: str, story: list[Any], heading: str, top_space: float = 0) -> int:
    """Lay ``story`` out over as many pages as it needs; returns the pages drawn."""
    width, height = paper_size(paper)
    margin = 15 * mm
    pages = 0
    story = list(story)
    while story:
        c.setFont(BOLD, 14)
        c.drawString(margin, height - margin - 10, heading + (" (continued)" if pages else ""))
        frame_h = height - 2 * margin - 20 - (top_space if not pages else 0)
        frame = Frame(margin, margin, width - 2 * margin, frame_h, showBoundary=0)
        before = len(story)
        frame.addFromList(story, c)
        c.showPage()
        pages += 1
        if len(story) == before:  # a single flowable taller than a page: give up on it
            story.pop(0)
    return pages


def rules_pages(
    c: Canvas,
    game: Game[Any],
    paper: str,
    icons: Sequence[str],
    sections: Sequence[Section],
    title: str,
) -> int:
    """The rules summary (``sections``, with rule IDs) and a legend of the icons used on
    the cards."""
    width, height = paper_size(paper)
    margin = 15 * mm
    legend_y = height - margin - 30
    c.setFont(BOLD, 8)
    c.drawString(margin, legend_y + 2, "Icons")
    x, y = margin, legend_y - ICON - 2 * mm
    c.setFont(FONT, 7)
    for name in icons:
        if x > width - margin - 30 * mm:
            x, y = margin, y - ICON - 2 * mm
        draw_icon(c, (name, ""), x, y, 7)
        c.setFont(FONT, 7)
        c.setFillColor(colors.black)
        c.drawString(x + ICON + 1 * mm, y + 1.2, name.capitalize())
        x += 30 * mm
    used = legend_y - y + 6 * mm
    story: list[Any] = []
    for heading, lines in sections:
        story.append(_para(heading, 10, bold=True))
        story.append(Spacer(1, 2))
        for line in lines:
            story.append(_para(line, 8))
            story.append(Spacer(1, 1.5))
        story.append(Spacer(1, 6))
    return _flow(c, paper, story, f"{title}: rules summary", top_space=used)


def _box(c: Canvas, x: float, y: float, w: float, h: float, label: str = "") -> None:
    c.rect(x, y, w, h, stroke=1, fill=0)
    if label:
        c.setFont(FONT, 6)
        c.drawString(x + 1 * mm, y + h - 2.8 * mm, label)


def player_board_pages(c: Canvas, game: P5Game, paper: str) -> int:
    """P5 player boards, two to a page: resource areas, stat tracks and party slots."""
    rules = game.cards.rules
    width, height = paper_size(paper)
    margin = 12 * mm
    board_h = (height - 3 * margin) / 2
    for slot in range(2):
        by = height - margin - (slot + 1) * board_h - slot * margin
        c.setLineWidth(0.8)
        c.rect(margin, by, width - 2 * margin, board_h)
        c.setFont(BOLD, 12)
        c.drawString(margin + 4 * mm, by + board_h - 8 * mm, f"Player {slot + 1} board")
        c.setFont(FONT, 8)
        c.drawString(
            margin + 60 * mm, by + board_h - 8 * mm, "Thief: ____________   Persona: ____________"
        )
        c.setLineWidth(0.4)
        # resources: fresh and spent areas (cash has one side: P5-COMP-2)
        col_w = (width - 2 * margin - 8 * mm) / 4
        top = by + board_h - 14 * mm
        resources: tuple[Res, ...] = ("stamina", "sp", "bullet", "cash")
        for i, res in enumerate(resources):
            x = margin + 4 * mm + i * col_w
            draw_icon(c, (res, ""), x, top - ICON, 8)
            c.setFont(BOLD, 8)
            label = "SP" if res == "sp" else res.capitalize()
            c.drawString(x + ICON + 1.5 * mm, top - ICON + 1, label)
            c.setFont(FONT, 6)
            c.drawString(x, top - ICON - 3.5 * mm, f"supply {rules.supply[res]}")
            if res == "cash":
                _box(c, x, top - 43 * mm, col_w - 3 * mm, 34 * mm, "Cash (one side)")
            else:
                _box(c, x, top - 25 * mm, col_w - 3 * mm, 16 * mm, "Fresh")
                _box(c, x, top - 43 * mm, col_w - 3 * mm, 16 * mm, "Spent")
        # social stats: one track per stat
        sy = top - 50 * mm
        c.setFont(BOLD, 8)
        c.drawString(margin + 4 * mm, sy, "Social stats")
        cell = min(8 * mm, (width - 2 * margin - 40 * mm) / (rules.stat_cap + 1))
        for j, stat in enumerate(("knowledge", "guts", "proficiency", "compassion", "charm")):
            ry = sy - (j + 1) * (cell * 0.75 + 1 * mm)
            c.setFont(FONT, 7)
            c.drawString(margin + 4 * mm, ry + 1.5, stat.capitalize())
            for v in range(rules.stat_cap + 1):
                bx = margin + 30 * mm + v * cell
                c.rect(bx, ry, cell, cell * 0.75)
                c.drawCentredString(bx + cell / 2, ry + 1.5, str(v))
        # active persona party (P5-ARSENE-3)
        py = by + 6 * mm
        c.setFont(BOLD, 8)
        c.drawString(margin + 4 * mm, py + 14 * mm, f"Active party ({rules.party_size})")
        slot_w = min(30 * mm, (width - 2 * margin - 8 * mm) / rules.party_size - 2 * mm)
        for k in range(rules.party_size):
            _box(c, margin + 4 * mm + k * (slot_w + 2 * mm), py, slot_w, 12 * mm)
    c.showPage()
    return 1


def palace_pages(c: Canvas, game: P5Game, paper: str, notes: list[str]) -> int:
    """One page per palace: its four alert rows, then the boss on its back."""
    from velvet.p5.cards import effect_text

    width, height = paper_size(paper)
    margin = 15 * mm
    pages = 0
    for palace in game.cards.palaces:
        where = f"palace '{palace.id}'"
        c.setFont(BOLD, 14)
        title = printable(palace.name, notes, where)
        fitted = fit_name(title, width - 2 * margin, 10 * mm, notes, where, big=14)
        c.setFont(BOLD, fitted.size)
        for k, text in enumerate(fitted.lines):
            c.drawString(margin, height - margin - 5 * mm - k * fitted.size * 1.15, text)
        row_h = (height - 2 * margin - 15 * mm) / 5 - 3 * mm
        y = height - margin - 15 * mm
        for row in palace.rows:
            y -= row_h
            c.setLineWidth(0.6)
            c.rect(margin, y, width - 2 * margin, row_h)
            c.setFont(BOLD, 18)
            c.drawString(margin + 3 * mm, y + row_h - 10 * mm, f"{row.alert}%")
            parts = []
            if row.text:
                parts.append(Line(row.text))
            if row.on_enter:
                parts.append(Line(f"On Palace Enter: {effect_text(row.on_enter)}"))
            if row.reveal is not None:
                parts.append(Line(f"Reveals {row.reveal} shadows per player"))
            _draw_body(
                c,
                parts,
                margin + 25 * mm,
                y + 3 * mm,
                width - 2 * margin - 28 * mm,
                row_h - 6 * mm,
                notes,
                f"{where} row {row.alert}%",
            )
            y -= 3 * mm
        boss = palace.boss
        y -= row_h
        c.setLineWidth(1.2)
        c.rect(margin, y, width - 2 * margin, row_h)
        c.setFont(BOLD, 12)
        c.drawString(margin + 3 * mm, y + row_h - 7 * mm, "100% — Boss (back of the card)")
        lines = [
            Line(printable(f"{boss.name}", notes, where)),
            Line(
                "Health: " + " + ".join(f"{n} {k}" for k, n in boss.health.items() if n),
                tuple((k, str(n)) for k, n in boss.health.items() if n),
            ),
        ]
        if boss.weak:
            lines.append(Line("Weak: " + ", ".join(boss.weak), tuple((w, "") for w in boss.weak)))
        if boss.text:
            lines.append(Line(printable(boss.text, notes, where)))
        if boss.on_enter:
            lines.append(Line(f"On Palace Enter: {effect_text(boss.on_enter)}"))
        if boss.reveal:
            lines.append(Line(f"Reveals {boss.reveal} shadow(s) per player"))
        _draw_body(
            c,
            lines,
            margin + 3 * mm,
            y + 3 * mm,
            width - 2 * margin - 6 * mm,
            row_h - 12 * mm,
            notes,
            f"{where} boss",
        )
        c.showPage()
        pages += 1
    return pages


def _draw_body(
    c: Canvas,
    lines: Sequence[Line],
    x: float,
    y: float,
    w: float,
    h: float,
    notes: list[str],
    where: str,
) -> None:
    body = fit_body(lines, w, h, notes, where, largest=12)
    cursor = y + h
    for line, lh in zip(body.lines, body.heights, strict=True):
        para = _para(line.text, body.size)
        _, ph = para.wrap(w - body.icon_space, 10_000)
        para.drawOn(c, x + body.icon_space, cursor - ph)
        ix = x
        for icon in line.icons:
            ix += draw_icon(c, icon, ix, cursor - ICON, body.size)
        cursor -= lh + body.size * 0.4


def day_track_pages(c: Canvas, game: P5Game, paper: str) -> int:
    """The calendar: one box per day; the boss must fall by the last one (P5-END-2)."""
    days = game.cards.rules.days
    width, height = paper_size(paper)
    margin = 15 * mm
    cols = 7
    cell = (width - 2 * margin) / cols
    c.setFont(BOLD, 14)
    c.drawString(margin, height - margin - 8 * mm, "Day track")
    c.setFont(FONT, 8)
    c.drawString(
        margin,
        height - margin - 13 * mm,
        f"Move the tracker up one day when every player has taken a turn. The boss must be "
        f"defeated by day {days}.",
    )
    top = height - margin - 18 * mm
    rows = math.ceil(days / cols)
    cell_h = min(cell, (top - margin) / max(rows, 1))
    for d in range(days):
        row, col = divmod(d, cols)
        x = margin + col * cell
        y = top - (row + 1) * cell_h
        c.setLineWidth(1.5 if d == days - 1 else 0.5)
        c.rect(x, y, cell, cell_h)
        c.setFont(BOLD, 12)
        c.drawCentredString(x + cell / 2, y + cell_h / 2 - 4, str(d + 1))
        c.setFont(FONT, 6)
        c.drawCentredString(x + cell / 2, y + 2 * mm, "last day" if d == days - 1 else "day")
    c.showPage()
    return 1


def p5_boards(c: Canvas, game: Game[Any], paper: str, notes: list[str]) -> list[tuple[str, int]]:
    """The P5 board game's sheets beside its cards: player boards, palace rows, day track."""
    from velvet.p5.game import P5Game

    if not isinstance(game, P5Game):
        raise ConfigError(f"the P5 boards are for the P5 board game, not '{game.name}'")
    return [
        ("board", player_board_pages(c, game, paper)),
        ("palace", palace_pages(c, game, paper, notes)),
        ("day track", day_track_pages(c, game, paper)),
    ]


def used_icons(cards: Sequence[PrintCard], first: Sequence[str] = ()) -> list[str]:
    """Every icon that appears on ``cards``, after ``first`` (the spec's ``print_legend``),
    for the legend."""
    seen: dict[str, None] = dict.fromkeys(first)
    for card in cards:
        for name, _ in card.corner:
            seen[name] = None
        for line in card.lines:
            for name, _ in line.icons:
                seen[name] = None
    return list(seen)


def write_pdf(
    game: Game[Any],
    out: Path | str,
    *,
    paper: str = "a4",
    backs: bool = False,
    deck: Path | str | None = None,
    rules: bool = True,
    boards: bool = True,
    spec: GameSpec | None = None,
) -> PrintResult:
    """Write the print-and-play PDF of ``game``'s card set (or a VS ``deck``) to ``out``;
    ``spec`` is the game's (by default the one registered under its name). The sheets
    are in English whatever the language (``--lang``): their fonts have no Japanese."""
    with speaking("en"):
        return _write_pdf(game, out, paper, backs, deck, rules, boards, spec)


def _write_pdf(
    game: Game[Any],
    out: Path | str,
    paper: str,
    backs: bool,
    deck: Path | str | None,
    rules: bool,
    boards: bool,
    spec: GameSpec | None,
) -> PrintResult:
    paper_size(paper)
    register_fonts()
    spec = spec or get_spec(game.name)
    cards = print_cards(game, deck, spec)
    if not cards:
        raise ConfigError("the card set has no cards to print")
    sections = summary(spec, game) if rules else ()
    print_boards = spec.plugin("print_boards", "boards") if boards and spec.print_boards else None
    legend = spec.plugin("print_legend", "icons")(game) if spec.print_legend else ()
    title = spec.short_title or spec.name
    path = Path(out)
    if path.is_dir():
        raise ConfigError(f"{path} is a folder; give a file name such as cards.pdf")
    if not path.parent.exists():
        raise ConfigError(f"cannot write {path}: folder {path.parent} does not exist")
    result = PrintResult(path, cards=len(cards))
    tmp = path.with_name(path.name + ".part")
    c = Canvas(str(tmp), pagesize=paper_size(paper), invariant=1)
    c.setTitle(f"Velvet print and play: {title}")
    result.pages.append(("card", card_pages(c, cards, paper, backs, title, result.notes)))
    if rules:
        result.pages.append(
            ("rules", rules_pages(c, game, paper, used_icons(cards, legend), sections, title))
        )
    if print_boards is not None:
        result.pages += print_boards(c, game, paper, result.notes)
    try:
        c.save()
        tmp.replace(path)
    except OSError as error:
        tmp.unlink(missing_ok=True)
        raise ConfigError(f"cannot write {path}: {error.strerror or error}") from None
    return result
