// Small DOM helpers shared by the client's modules (no framework, no innerHTML of data).

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style") node.style.cssText = value; // CSSOM: allowed by the page's CSP
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// Damage types and weaknesses: an icon AND the word, never colour alone.
const ICONS = {
  fire: '<path d="M8 1c1 3 4.5 4.2 4.5 8.3a4.5 4.5 0 0 1-9 0C3.5 7 5 5.8 6 4.8c0 2 .8 3.2 2 3.5C7.2 6.3 7.4 3.4 8 1z"/>',
  ice: '<path d="M8 1v14M2 4.5l12 7M2 11.5l12-7M6 2.5l2 1.5 2-1.5M6 13.5l2-1.5 2 1.5" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/>',
  electric: '<path d="M9.5 1L3 9.2h4.2L6 15l7-8.6H8.8z"/>',
  wind: '<path d="M1.5 6h8.5a2.2 2.2 0 1 0-2.2-2.2M1.5 10h10.5a2.2 2.2 0 1 1-2.2 2.2M1.5 8h6" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/>',
  physical: '<path d="M13.5 1.2l1.3 1.3-7.6 7.6-1.3-1.3zM4.2 8.6l3.2 3.2-1.1 1.1-1-1-2.3 2.3-1.2-1.2 2.3-2.3-1-1z"/>',
  hp: '<path d="M8 14.5S1.5 10.4 1.5 5.8A3.3 3.3 0 0 1 8 4.3a3.3 3.3 0 0 1 6.5 1.5C14.5 10.4 8 14.5 8 14.5z"/>',
  deck: '<rect x="3" y="2" width="9" height="12" rx="1.5" fill="none" stroke="currentColor" stroke-width="1.5"/><path d="M5 1h8.5a1 1 0 0 1 1 1v11" fill="none" stroke="currentColor" stroke-width="1.2"/>',
  discard: '<path d="M3 4h10l-1 10.5H4zM2 3h12M6 1.5h4" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round"/>',
  hand: '<rect x="1.5" y="4" width="6" height="9" rx="1" transform="rotate(-12 4.5 8.5)" fill="none" stroke="currentColor" stroke-width="1.4"/><rect x="7.5" y="3" width="6" height="9" rx="1" transform="rotate(10 10.5 7.5)" fill="none" stroke="currentColor" stroke-width="1.4"/>',
};

export function icon(name, extraClass = "") {
  const span = document.createElement("span");
  span.className = `icon icon-${name} ${extraClass}`.trim();
  span.setAttribute("aria-hidden", "true");
  const body = ICONS[name] || '<circle cx="8" cy="8" r="5"/>';
  span.innerHTML = `<svg viewBox="0 0 16 16" width="16" height="16" fill="currentColor">${body}</svg>`;
  return span;
}

// "fire" → [icon, "fire"] in one inline element; `word`: the type in the page's language.
export function typeTag(type, prefix = "", word = type) {
  return el("span", { class: `type type-${type}` }, icon(type), `${prefix}${word}`);
}
