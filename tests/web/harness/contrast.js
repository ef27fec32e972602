// Used by tests/web/test_cards.py (page.evaluate): every text on a card face and its
// contrast ratio (WCAG 2) against the flat colour under it.
(() => {
  // Every piece of text on a face, against the flat colour under it: its own nearest
  // background inside the card, else the card's paper (the SVG polygon's fill).
  const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const out = [];
  for (const card of document.querySelectorAll(".vc")) {
    const paper = getComputedStyle(card.querySelector(".vc-paper")).fill;
    const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const node = t.parentElement;
      if (!t.textContent.trim() || node.closest(".vc-sr")) continue;
      let back = null;
      for (let e = node; e && e !== card; e = e.parentElement) {
        const c = getComputedStyle(e).backgroundColor;
        if (rgb(c).length === 3 || (rgb(c)[3] ?? 0) > 0) { back = c; break; }
      }
      const fg = rgb(getComputedStyle(node).color).slice(0, 3);
      out.push({ text: t.textContent.trim(), ratio: ratio(fg, rgb(back || paper).slice(0, 3)) });
    }
  }
  return out;
})
