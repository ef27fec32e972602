// Used by tests/web/test_look.py (page.evaluate): every visible text of the page outside
// the card faces (tests/web/test_cards.py checks those on their own paper) and its
// contrast ratio (WCAG 2) against the first flat background colour under it.
(() => {
  const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const opaque = (c) => { const v = rgb(c); return v.length === 3 || (v[3] ?? 0) >= 0.9; };
  const page = getComputedStyle(document.body).backgroundColor;
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const node = t.parentElement;
    if (!t.textContent.trim() || !node || node.closest(".vc, noscript, [hidden], .skip, option, .toasts")) continue;
    if (node.closest("button:disabled")) continue; // inactive controls: no requirement
    if (node.closest("details:not([open]) > :not(summary)")) continue; // folded away
    const box = node.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(node).visibility === "hidden") continue;
    let back = null;
    for (let e = node; e; e = e.parentElement) {
      const c = getComputedStyle(e).backgroundColor;
      if (opaque(c)) { back = c; break; }
    }
    const fg = rgb(getComputedStyle(node).color).slice(0, 3);
    out.push({ text: t.textContent.trim().slice(0, 40), cls: node.className && String(node.className).slice(0, 40), ratio: Math.round(ratio(fg, rgb(back || page).slice(0, 3)) * 100) / 100 });
  }
  return out;
})
