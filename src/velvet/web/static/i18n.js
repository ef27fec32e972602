// The words the page shows, in the player's language: t(englishText, params) reads the
// catalogue the server serves (GET api/i18n/LANG: the terminal's gettext catalogue as JSON).
// The language is the one picked in the header's menu (kept in this browser), else the
// browser's own (navigator.language); English when the server has no catalogue for it.

const KEY = "velvet.lang";
const state = { lang: "en", messages: {}, plurals: {}, names: {}, languages: { en: "English" } };

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// The English message `message` in the page's language, its {placeholders} filled in.
export function t(message, params) {
  const found = state.messages[message];
  return fill(typeof found === "string" && found ? found : message, params);
}

// The singular or plural of a message for n (n is a placeholder too).
export function tn(singular, plural, n, params) {
  const forms = state.plurals[singular];
  const text = forms ? forms[Math.min(forms.length - 1, n === 1 ? 0 : 1)] : n === 1 ? singular : plural;
  return fill(text, { n, ...(params || {}) });
}

// A card's name (English, as the server's cards give it) in the page's language.
export function cardName(game, name) {
  const table = state.names[game] || {};
  return table[name] || name;
}

const patterns = {};
// `text` (the server's English words) with the game's card names in the page's language.
export function localizeNames(game, text) {
  const table = state.names[game];
  if (!text || !table || !Object.keys(table).length) return text;
  if (!patterns[game]) {
    const names = Object.keys(table).sort((a, b) => b.length - a.length);
    const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    patterns[game] = new RegExp(`(?<![A-Za-z0-9])(${escaped.join("|")})(?![A-Za-z0-9])`, "g");
  }
  return text.replace(patterns[game], (name) => table[name]);
}

// A seat's name ("Player 2", as the server names seats) in the page's language.
export function seatName(name) {
  const m = /^Player (\d+)$/.exec(name || "");
  return m ? t("Player {number}", { number: m[1] }) : name;
}

export function language() {
  return state.lang;
}

// The language this browser asked for: the menu's choice, else navigator.language.
export function wantedLanguage() {
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
    saved = null;
  }
  return (saved || navigator.language || "en").toLowerCase().split(/[-_]/)[0];
}

// Load the catalogue of the wanted language; any failure leaves English (no error shown).
export async function loadLanguage(lang = wantedLanguage()) {
  try {
    const answer = await fetch(`api/i18n/${encodeURIComponent(lang)}`);
    if (answer.ok) {
      const data = await answer.json();
      Object.assign(state, {
        lang: data.lang,
        messages: data.messages || {},
        plurals: data.plurals || {},
        names: data.names || {},
        languages: data.languages || state.languages,
      });
    }
  } catch {
    // offline or an old server: English
  }
  document.documentElement.lang = state.lang;
  translatePage(document);
  return state.lang;
}

// Elements of the page's HTML marked data-i18n get their text from the catalogue.
export function translatePage(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    if (!node.dataset.i18nSource) node.dataset.i18nSource = node.textContent.trim();
    node.textContent = t(node.dataset.i18nSource);
  }
}

// The header's language menu: picking one keeps it in this browser and reloads the page.
export function installLanguageMenu(slot) {
  if (!slot) return;
  const menu = document.createElement("select");
  menu.id = "language";
  menu.setAttribute("aria-label", t("Language"));
  for (const [code, name] of Object.entries(state.languages)) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.selected = code === state.lang;
    menu.append(option);
  }
  menu.addEventListener("change", () => {
    try {
      localStorage.setItem(KEY, menu.value);
    } catch {
      // private mode: the choice lasts for this page only
    }
    location.reload();
  });
  slot.replaceChildren(menu);
}
