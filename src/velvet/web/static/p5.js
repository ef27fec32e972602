// The Persona 5 board game's table, drawn from a P5 view (docs/web.md, "The P5 board").
//
// renderBoard(root, ctx) replaces root's content with the board. ctx:
//   game      "p5"
//   view      the engine's P5View (state message `view`, or a replay frame's)
//   seat      this client's seat (0-based), or null for a spectator
//   toMove    the seat to decide, or null
//   legal     [{text, label, targets, note}] — this seat's legal actions (may be empty)
//   cards     {"kind:id" or "id": CardInfo JSON} — names and card text
//   events    optional [{kind, text, data}] — the events of the move that made this view;
//             check and dice events roll in the dice tray
//   version   optional: the state's version; the dice roll only when it is new
//   act(text) makes a move (unused here: the shell makes data-ref elements clickable)
//
// Every element an action acts on carries data-ref="<ref>" (the refs of
// velvet.p5.words.view_refs); those some legal action targets also get the class
// "p5-live" and show the action's note (its exact chance) before the choice.
// Text from the server is set with textContent only; the SVG icons are constants.

import { ICONS, cardFace, resWord, statWord, typeWord } from "./cards.js";
import { t, tn, cardName, language } from "./i18n.js";

const RES = ["stamina", "sp", "bullet", "cash"];
const STATS = ["knowledge", "guts", "proficiency", "compassion", "charm"];
const TYPES = ["phys", "gun", "fire", "ice", "elec", "wind", "psy", "nuke", "bless", "curse"];
const REDUCED = () =>
  typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

// --- icons (inline SVG, 16×16, currentColor: the set of cards.js) ---------------------
function icon(name, cls = "") {
  const span = document.createElement("span");
  span.className = `p5-icon p5-icon-${name} ${cls}`.trim();
  span.setAttribute("aria-hidden", "true");
  span.innerHTML = `<svg viewBox="0 0 16 16" width="16" height="16" fill="currentColor" focusable="false">${ICONS[name] || ICONS.any}</svg>`;
  return span;
}

// --- DOM helper -------------------------------------------------------------------------
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "style") el.style.cssText = value; // CSSOM: allowed by the page's CSP
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : "");
const difficultyWord = (level) => ({ story: t("story"), standard: t("standard"), hard: t("hard"), merciless: t("merciless") })[level] || level;
const playerName = (i) => t("Player {number}", { number: i + 1 });

// A card's data, its name in the page's language (the server's cards are in English).
function card(cards, kind, id) {
  if (!cards || !id) return null;
  const plain = cards[id];
  const found = cards[`${kind}:${id}`] || (plain && (!plain.kind || plain.kind === kind) ? plain : null);
  if (!found) return null;
  const name = cardName("p5", found.name);
  return name === found.name ? found : { ...found, name };
}
const nameOf = (cards, kind, id) => (card(cards, kind, id) || {}).name || id;
function lineOf(info, prefix) {
  const line = ((info && info.lines) || []).find((l) => l.startsWith(prefix));
  return line ? line.slice(prefix.length) : "";
}

/** "1 Stamina" chips for {stamina: 1, ...}; each chip an icon and the words. */
function chips(counts, cls = "") {
  const out = [];
  for (const res of [...RES, "any"]) {
    const n = (counts || {})[res];
    if (n) out.push(h("span", { class: `p5-chip p5-res-${res} ${cls}`.trim() }, icon(res), `${n} ${resWord(res)}`));
  }
  return out;
}

function typeBadge(type) {
  if (!type) return null;
  return h("span", { class: `p5-type p5-type-${type}` }, icon(type), typeWord(type));
}

function weakness(list) {
  const weak = list || [];
  return h(
    "div",
    { class: "p5-weak" },
    h("span", { class: "p5-label" }, t("Weak to:")),
    weak.length ? weak.map(typeBadge) : h("span", { class: "p5-none" }, t("nothing")),
  );
}

// --- what legal actions act on ----------------------------------------------------------
function actionsByRef(legal) {
  const by = new Map();
  for (const a of legal || []) {
    for (const ref of a.targets || []) {
      if (!by.has(ref)) by.set(ref, []);
      by.get(ref).push(a);
    }
  }
  return by;
}

/** An element for `ref`: data-ref, and when actions target it, p5-live and their chances. */
function refEl(tag, ref, attrs, by, ...children) {
  const el = h(tag, { ...attrs, "data-ref": ref }, ...children);
  const actions = by.get(ref);
  if (actions && actions.length) {
    el.classList.add("p5-live");
    el.tabIndex = 0; // reachable by keyboard; the shell decides what Enter does
    el.title = actions.map((a) => (a.note ? `${a.label} — ${a.note}` : a.label)).join("\n");
    const noted = actions.filter((a) => a.note && a.targets[0] === ref);
    if (noted.length) {
      const same = noted.every((a) => a.note === noted[0].note);
      const lines = same ? [noted[0]] : noted;
      el.append(h("ul", { class: "p5-chances" }, lines.map((a) => chanceLine(a, !same))));
    }
  }
  return el;
}

/** One action's note: "Recruit — chance · Charm 4: 80 % · …", or "Visit — does nothing · cannot pay 1 Cash". */
function chanceLine(action, withTarget) {
  // the verb from the action's text (the engine's, in every language), not from its label
  const verbs = { visit: t("Visit"), recruit: t("Recruit"), use: t("Use"), hit: t("Spend"), discover: t("Discover"), palace: t("Enter") };
  const verb = verbs[action.text.split(" ")[0]] || action.label.split(" ")[0];
  // what it acts on, read from an English label; in another language the whole label
  const english = language() === "en";
  const on = withTarget && english ? (/ on (.+?)(?:,|$)/.exec(action.label) || [])[1] : "";
  // a note is a chance ("Chance: …") or the engine's word that the move does nothing
  // ("does nothing: cannot pay 1 Cash"), whose reasons may wrap; the server writes it in
  // the page's language, so its head and joins are the catalogue's words
  const idleHead = t("does nothing: {reasons}", { reasons: "" });
  const chanceHead = t("Chance: {odds}", { odds: "" });
  const idle = action.note.startsWith(idleHead);
  const what = idle ? t("does nothing") : t("chance");
  const head0 = idle ? idleHead : action.note.startsWith(chanceHead) ? chanceHead : "";
  const parts = action.note.slice(head0.length).split(t("; "));
  const cls = idle ? "p5-odds p5-idle" : "p5-odds";
  const head = withTarget && !english ? `${action.label}${idle ? ` — ${what}` : ""}` : on ? `${verb} on ${on}${idle ? ` — ${what}` : ""}` : `${verb} — ${what}`;
  return h(
    "li",
    { class: "p5-chance", "data-note": action.note },
    h("span", { class: "p5-chance-what" }, head),
    parts.map((part) => h("span", { class: cls }, part.replace(/ %/g, "\u00a0%"))),
  );
}

// --- the calendar -----------------------------------------------------------------------
// One strip of the month: the days gone (struck), today (marked in words too), the days
// left, a gap after each week.
function calendar(view) {
  const days = view.days || 28;
  const day = Math.min(view.day, days);
  const strip = h("ol", { class: "p5-days", "aria-hidden": "true" });
  for (let d = 1; d <= days; d++) {
    const cls = d < view.day ? "past" : d === view.day ? "today" : "";
    const label = d === view.day ? String(d) : "";
    strip.append(h("li", { class: cls, "data-d": d }, label));
  }
  return h(
    "section",
    { class: "p5-calendar", "aria-label": t("Calendar") },
    h(
      "div",
      { class: "p5-day", "data-day": view.day },
      h("strong", {}, t("Day {n}", { n: day })),
      t(" of {days}", { days }),
      h("span", { class: "p5-days-left" }, t(" · {n} left", { n: Math.max(0, days - day) })),
      view.difficulty ? h("span", { class: "p5-days-left" }, t(" · {level} difficulty", { level: difficultyWord(view.difficulty) })) : null,
    ),
    strip,
  );
}

// What is being decided, in the page's language (the view's `text` is the engine's English).
function decisionText(d) {
  if (language() === "en") return d.text || "";
  const res = d.resource ? resWord(d.resource) : "";
  const words = {
    order: t("choose who takes the next turn today"),
    main: t("take one action: visit, recruit, discover or palace"),
    discover: t("visit the discovered location or try to recruit its confidant"),
    fight: t("fight in the palace, or end the turn"),
    after: t("use abilities after your action, or end the turn"),
    enter_order: t("choose the next On Palace Enter effect to resolve"),
    stat: t("choose which social stat gets +1"),
    allocate_any: t("choose how many of the ANY damage meet the {res} requirement", { res }),
    restore_mix: t("choose how many of the restored tokens are {res}", { res }),
    party: t("change the draft party, then confirm it with done"),
  };
  return words[d.kind] ?? d.text ?? "";
}

function banner(view, ctx) {
  const d = view.decision || {};
  let who = "";
  if (d.player !== null && d.player !== undefined) {
    who = d.player === ctx.seat ? t("You ({player})", { player: playerName(d.player) }) : playerName(d.player);
  }
  const result =
    view.result === 1
      ? h("div", { class: "p5-result p5-win" }, t("Victory: the boss is defeated"))
      : view.result === -1
        ? h("div", { class: "p5-result p5-loss" }, t("Defeat: day {n} has passed", { n: view.days }))
        : null;
  const draft = d.draft
    ? h("div", { class: "p5-draft" }, t("Draft party: "), d.draft.map((x) => nameOf(ctx.cards, "shadow", x)).join(", ") || t("nobody"))
    : null;
  const left = d.left !== undefined ? t(" ({n} left to place)", { n: d.left }) : "";
  return h(
    "div",
    { class: "p5-now", role: "status" },
    result,
    d.kind !== "over" ? h("div", {}, h("strong", {}, who ? `${who}: ` : ""), `${decisionText(d)}${left}`) : null,
    draft,
  );
}

// --- the dice tray ----------------------------------------------------------------------
// The dice roll once per new state: the same state drawn again (after an error toast, a
// card file arriving) shows them landed. The key is the state's version (ctx.version),
// or, where there is none (a replay frame), the frame's events.
let rolledFor = null;

function diceTray(events, cards, key) {
  const rolls = (events || []).filter((e) => (e.kind === "check" || e.kind === "dice") && e.data);
  if (!rolls.length) return null;
  const tray = h("section", { class: "p5-tray", "aria-label": t("Dice"), "data-landed": "false" });
  const dice = [];
  for (const e of rolls) {
    const what = e.kind === "check" ? t("{stat} check", { stat: statWord(e.data.stat) }) : t("Phantom Thief die");
    const row = h("div", { class: `p5-roll ${e.data.success ? "p5-success" : "p5-failure"}` });
    // a Dice ability's roll follows its "use" event: say which skill rolled
    const before = events.slice(0, events.indexOf(e)).reverse();
    const use = e.kind === "dice" ? before.find((x) => x.kind === "use") : null;
    if (use && use.text) row.append(h("span", { class: "p5-roll-why" }, use.text));
    row.append(h("span", { class: "p5-roll-what" }, t("{player} — {what}:", { player: playerName(e.data.player ?? 0), what })));
    const faces = e.data.dice || [];
    if (!faces.length) row.append(h("span", { class: "p5-none" }, t("no dice")));
    faces.forEach((face, i) => {
      const hit = face >= 5;
      const die = h("span", {
        class: `p5-die ${hit ? "p5-hit" : ""}`,
        "data-face": face,
        role: "img",
        "aria-label": hit ? t("{face}, Phantom Thief symbol", { face }) : String(face),
      });
      die.style.setProperty("--i", String(i));
      die.append(hit ? icon("star") : h("span", { class: "p5-face" }, String(face)));
      row.append(die);
      dice.push(die);
    });
    row.append(
      h(
        "strong",
        { class: "p5-roll-result" },
        h("span", { "aria-hidden": "true" }, e.data.success ? "✓ " : "✗ "),
        e.data.success ? t("Success") : t("Failure"),
      ),
    );
    tray.append(row);
  }
  const land = () => {
    tray.dataset.landed = "true";
    for (const die of dice) die.classList.remove("p5-rolling");
  };
  const fresh = key === undefined || key === null || key !== rolledFor;
  if (dice.length) rolledFor = key;
  if (REDUCED() || !dice.length || !fresh) {
    land();
  } else {
    for (const die of dice) die.classList.add("p5-rolling");
    setTimeout(land, 900 + 80 * dice.length);
  }
  return tray;
}

// --- folds: on a phone, a part of the board no action acts on is folded -----------------
// Each part (the town, the palace, a thief's board) is a <details>: open on a wide screen;
// on a narrow one open only when a legal action acts on something in it, or when the
// player opened it (remembered while the page lives). Its summary says the gist.
const NARROW = "(max-width: 520px)";
const opened = new Map(); // fold key -> the player's own choice
const narrow = () => typeof matchMedia === "function" && matchMedia(NARROW).matches;

function foldOpen(details) {
  const key = details.dataset.fold;
  if (opened.has(key)) return opened.get(key);
  return !narrow() || details.dataset.live === "true";
}

let watching = false;
function watchWidth() {
  if (watching || typeof matchMedia !== "function") return;
  watching = true;
  const query = matchMedia(NARROW);
  const again = () => {
    for (const d of document.querySelectorAll("details.p5-fold")) d.open = foldOpen(d);
  };
  if (query.addEventListener) query.addEventListener("change", again);
}

function fold(key, cls, label, gist, by, ...content) {
  const body = h("div", { class: "p5-fold-body" }, ...content);
  const live = by.has(key) || [...by.keys()].some((ref) => body.querySelector(`[data-ref="${CSS.escape(ref)}"]`));
  const details = h(
    "details",
    { class: `p5-fold ${cls}`, "data-fold": key, "data-live": live ? "true" : "false" },
    h(
      "summary",
      { class: "p5-fold-head" },
      h(key.startsWith("player:") ? "span" : "h3", { class: "p5-fold-label" }, label),
      gist ? h("span", { class: "p5-gist" }, gist) : null,
      live ? h("span", { class: "p5-tag p5-acts" }, t("▸ your choice is here")) : null,
    ),
    body,
  );
  details.open = foldOpen(details);
  // a wide screen shows every part: its heading is only a heading there
  details.querySelector("summary").addEventListener("click", (event) => {
    if (!narrow()) event.preventDefault();
  });
  watchWidth();
  details.addEventListener("toggle", () => {
    if (details.open !== foldOpen(details)) opened.set(key, details.open);
  });
  return details;
}

// --- the town ---------------------------------------------------------------------------
function pawn(i, view, ctx) {
  const thief = nameOf(ctx.cards, "thief", view.players[i].thief).split(" (")[0];
  return h("span", { class: `p5-pawn p5-p${i + 1}` }, icon("pawn"), `${playerName(i)} ${thief}`);
}

function town(view, ctx, by) {
  const here = {};
  view.players.forEach((p, i) => (here[p.location] = [...(here[p.location] || []), i]));
  // The map: one tile a location, on the streets of the town; its confidant stands on
  // the tile's foot, the thieves there on its top.
  const list = h("div", { class: "p5-locations p5-map" });
  for (const loc of view.locations) {
    const info = card(ctx.cards, "location", loc.id);
    const conf = loc.confidant ? card(ctx.cards, "confidant", loc.confidant) : null;
    const confEl = loc.confidant
      ? refEl(
          "div",
          `confidant:${loc.confidant}`,
          { class: "p5-confidant p5-faced" },
          by,
          conf ? cardFace(conf, { game: "p5", size: "compact" }) : h("div", { class: "p5-name" }, loc.confidant),
        )
      : null;
    // The location and its confidant are two boxes side by side in one spot, never one
    // inside the other: a click on the location visits it, only a click on the
    // confidant recruits (a recruit rolls dice and cannot be taken back).
    const el = refEl(
      "div",
      `location:${loc.id}`,
      { class: `p5-location p5-faced${view.discovered === loc.id ? " p5-new" : ""}` },
      by,
      info ? cardFace(info, { game: "p5", size: "compact" }) : h("h4", {}, loc.id),
      (here[loc.id] || []).length ? h("div", { class: "p5-here" }, here[loc.id].map((i) => pawn(i, view, ctx))) : null,
    );
    const pawns = (here[loc.id] || []).length;
    list.append(h("div", { class: `p5-spot${pawns ? " p5-occupied" : ""}${conf ? "" : " p5-alone"}` }, el, confEl));
  }
  const decks = view.decks || {};
  const away = (here.off || []).map((i) => pawn(i, view, ctx));
  const where = view.players
    .map((p, i) => (p.location === "off" || p.location === "palace" ? null : t("{player} at {place}", { player: playerName(i), place: nameOf(ctx.cards, "location", p.location) })))
    .filter(Boolean);
  const gist = `${tn("{n} place", "{n} places", view.locations.length)}${where.length ? " · " + where.join(", ") : ""}`;
  return fold(
    "town",
    "p5-town",
    t("Town"),
    gist,
    by,
    list,
    h(
      "div",
      { class: "p5-decks" },
      refEl("span", "deck:locations", { class: "p5-deck" }, by, t("Location deck: {n}", { n: decks.locations ?? 0 })),
      h("span", { class: "p5-deck" }, t("Confidant deck: {n}", { n: decks.confidants ?? 0 })),
      h("span", { class: "p5-deck" }, t("Shadow deck: {n}", { n: decks.shadows ?? 0 })),
      h("span", { class: "p5-supply" }, t("Supply: "), chips(view.supply)),
    ),
    away.length ? h("div", { class: "p5-here" }, h("span", { class: "p5-label" }, t("Not yet out:")), away) : null,
  );
}

// --- the palace -------------------------------------------------------------------------
function needs(target, full, left, by) {
  const out = h("div", { class: "p5-needs" }, h("span", { class: "p5-label" }, t("Left to pay:")));
  for (const res of RES) {
    const total = (full || {})[res] || 0;
    const now = (left || {})[res] || 0;
    if (!total && !now) continue;
    out.append(
      refEl(
        "span",
        `need:${target}:${res}`,
        { class: `p5-chip p5-need p5-res-${res}${now ? "" : " p5-met"}` },
        by,
        icon(res),
        t("{now} of {total} {resource}", { now, total, resource: resWord(res) }),
      ),
    );
  }
  return out;
}

// A shadow (or the boss) is its card face, with what is left to pay on it below.
function shadowCard(sh, ctx, by) {
  const info = card(ctx.cards, "shadow", sh.id);
  const data = (info && info.data) || {};
  return refEl(
    "div",
    `shadow:${sh.id}`,
    { class: "p5-shadow p5-faced" },
    by,
    info ? cardFace(info, { game: "p5", size: "full" }) : h("h4", {}, sh.id),
    needs(sh.id, data.health, sh.remaining, by),
  );
}

// The palace is a path: its alert rows one after another up to the boss at 100 %; the
// rows reached are lit, the thieves and the shadows they face stand on the row of now.
function palace(view, ctx, by) {
  const pal = view.palace;
  const info = card(ctx.cards, "palace", pal.id);
  const rows = (info && info.data && info.data.rows) || [];
  const inside = view.players.map((p, i) => (p.location === "palace" ? i : -1)).filter((i) => i >= 0);
  const bossInfo = card(ctx.cards, "boss", pal.id);
  const bossData = (bossInfo && bossInfo.data) || {};
  const shadows = h("div", { class: "p5-shadows" });
  for (const sh of pal.shadows) shadows.append(shadowCard(sh, ctx, by));
  const party = inside.length ? h("div", { class: "p5-here" }, h("span", { class: "p5-label" }, t("Inside:")), inside.map((i) => pawn(i, view, ctx))) : null;
  const standing = pal.shadows.length
    ? h("li", { class: "p5-stop p5-standing" }, party, h("h4", { class: "p5-sub" }, t("Shadows in the way")), shadows)
    : h("li", { class: "p5-stop p5-standing" }, party, h("p", { class: "p5-none" }, t("No shadow revealed.")));
  const path = h("ol", { class: "p5-rows p5-path" });
  const last = rows.length ? rows[rows.length - 1].alert : 0;
  rows.forEach((row, r) => {
    const reached = row.alert <= pal.alert;
    const now = pal.boss === null && row.alert === Math.min(pal.alert, last);
    const text = ((info && info.lines[r]) || "").replace(/^\d+% alert — /, "");
    path.append(
      refEl(
        "li",
        `row:${r}`,
        { class: `p5-row${reached ? " p5-reached" : ""}${now ? " p5-current" : ""}` },
        by,
        h("span", { class: "p5-alert" }, `${row.alert}%`),
        h("span", { class: "p5-small" }, text),
        now ? h("span", { class: "p5-tag p5-now-tag" }, t("now")) : null,
      ),
    );
    if (now) path.append(standing);
  });
  path.append(
    h(
      "li",
      { class: `p5-row p5-boss-row${pal.boss ? " p5-reached p5-current" : ""}` },
      h("span", { class: "p5-alert" }, "100%"),
      h("span", { class: "p5-small" }, t("The boss {name} appears", { name: bossInfo ? bossInfo.name : "" })),
      pal.boss ? h("span", { class: "p5-tag p5-now-tag" }, t("now")) : null,
    ),
  );
  let boss = null;
  if (pal.boss) {
    boss = refEl(
      "div",
      "boss",
      { class: "p5-shadow p5-boss p5-faced" },
      by,
      bossInfo ? cardFace(bossInfo, { game: "p5", size: "full" }) : h("h4", {}, t("Boss")),
      needs("boss", pal.boss_health || bossData.health, pal.boss, by), // a level's health, else the card's
    );
    path.append(h("li", { class: "p5-stop p5-standing" }, party, boss, pal.shadows.length ? shadows : null));
  } else if (bossInfo) {
    path.append(
      h(
        "li",
        { class: "p5-stop p5-boss-preview" },
        h("span", { class: "p5-small" }, t("At 100% alert, the boss {name} appears.", { name: bossInfo.name })),
        weakness(bossData.weak),
      ),
    );
  }
  const meter = h(
    "div",
    { class: "p5-meter", role: "meter", "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": pal.alert, "aria-label": t("Alert") },
    h("span", { style: `width:${Math.max(2, pal.alert)}%` }),
  );
  const facing = pal.boss ? t("the boss") : tn("{n} shadow", "{n} shadows", pal.shadows.length);
  const within = inside.length ? " · " + t("{players} inside", { players: inside.map(playerName).join(", ") }) : "";
  const gist = `${t("Alert {n}%", { n: pal.alert })} · ${facing}${within}`;
  // The palace's own target (entering it) is its alert line, inside the fold: a control
  // never holds another (the fold's summary is one).
  return h(
    "section",
    { class: "p5-palace-wrap", "aria-label": t("Palace") },
    fold(
      "palace",
      "p5-palace",
      info ? info.name : pal.id,
      gist,
      by,
      refEl("div", "palace", { class: "p5-alert-line" }, by, h("strong", {}, t("Alert {n}%", { n: pal.alert })), meter),
      path,
    ),
  );
}

// --- a thief's board --------------------------------------------------------------------
function skillEl(i, key, name, ability, text, p, by) {
  const a = ability || {};
  const used = (p.used_day || []).includes(key) ? t("used today") : (p.used_palace || []).includes(key) ? t("used in this palace") : "";
  const limit = a.limit === "day" ? t("1/day") : a.limit === "palace" ? t("1/palace") : "";
  return refEl(
    "li",
    `skill:${i}:${key}`,
    { class: `p5-skill${used ? " p5-used" : ""}` },
    by,
    h("span", { class: "p5-name" }, name),
    typeBadge(a.type),
    a.cost && Object.keys(a.cost).length ? h("span", { class: "p5-cost" }, t("cost "), chips(a.cost)) : null,
    a.damage && Object.keys(a.damage).length ? h("span", { class: "p5-dmg" }, t("deals "), chips(a.damage)) : null,
    a.dice ? h("span", { class: "p5-tag" }, icon("star"), t("Dice")) : null,
    limit ? h("span", { class: "p5-tag" }, limit) : null,
    used ? h("span", { class: "p5-tag" }, used) : null,
    !a.damage && text ? h("span", { class: "p5-small" }, text) : null,
  );
}

function thief(view, i, ctx, by) {
  const p = view.players[i];
  const cards = ctx.cards;
  const tinfo = card(cards, "thief", p.thief);
  const pinfo = card(cards, "persona", p.persona);
  const me = ctx.seat === i;
  const turn = view.turn === i && view.result === 0 && view.phase !== "order";
  const where =
    p.location === "off" ? t("not yet out") : p.location === "palace" ? t("in the palace") : t("at {place}", { place: nameOf(cards, "location", p.location) });
  const stats = h("ul", { class: "p5-stats" });
  for (const s of STATS) {
    stats.append(refEl("li", `stat:${i}:${s}`, { class: "p5-stat" }, by, h("span", {}, statWord(s)), h("strong", {}, String(p.stats[s] ?? 0))));
  }
  // Tokens as counters: a disc a resource, its fresh count large, what is spent under it.
  const tokens = h("ul", { class: "p5-tokens" });
  for (const res of RES) {
    const fresh = p.fresh[res] ?? 0;
    const spent = res === "cash" ? null : (p.spent || {})[res] ?? 0;
    tokens.append(
      refEl(
        "li",
        `token:${i}:${res}`,
        { class: `p5-counter p5-res-${res}${fresh ? "" : " p5-empty"}` },
        by,
        h("span", { class: "p5-disc" }, icon(res), h("strong", { class: "p5-count" }, String(fresh))),
        h("span", { class: "p5-counter-name" }, resWord(res)),
        h("span", { class: "p5-spent" }, spent === null ? t("kept") : t("{n} spent", { n: spent })),
      ),
    );
  }
  const skills = h("ul", { class: "p5-skills" });
  const pskills = (pinfo && pinfo.data && pinfo.data.skills) || [];
  const plines = ((pinfo && pinfo.lines) || []).filter((l) => l.startsWith("Skill — "));
  pskills.forEach((a, k) => {
    const text = (plines[k] || "").replace(/^Skill — [^:]*: /, "");
    skills.append(skillEl(i, a.key, a.name, a, text, p, by));
  });
  const passive = tinfo && tinfo.data ? tinfo.data.passive : null;
  const abilities = h("ul", { class: "p5-skills" });
  abilities.append(
    skillEl(i, p.thief, t("Passive: {name}", { name: passive ? passive.name : "" }), passive, lineOf(tinfo, "Passive — ").replace(/^[^:]*: /, ""), p, by),
  );
  for (const c of p.confidants) {
    const cinfo = card(cards, "confidant", c);
    const ab = cinfo && cinfo.data ? cinfo.data.ability : null;
    abilities.append(
      skillEl(i, c, `${nameOf(cards, "confidant", c)}${ab ? ": " + ab.name : ""}`, ab, lineOf(cinfo, "Ability — ").replace(/^[^:]*: /, ""), p, by),
    );
  }
  let party = null;
  if (p.held && p.held.length) {
    const draft = view.decision && view.decision.player === i ? view.decision.draft : null;
    const inParty = draft || p.party;
    party = h("div", { class: "p5-held" });
    const order = [...p.held].sort((a, b) => Number(inParty.includes(b)) - Number(inParty.includes(a)));
    for (const x of order) {
      const sinfo = card(cards, "shadow", x);
      const ab = sinfo && sinfo.data ? sinfo.data.persona : null;
      const active = inParty.includes(x);
      const inner = p.party.includes(x)
        ? skillEl(i, x, ab ? ab.name : "", ab, lineOf(sinfo, "Persona ability (Arsene) — ").replace(/^[^:]*: /, ""), p, by)
        : null;
      party.append(
        refEl(
          "div",
          `held:${i}:${x}`,
          { class: `p5-heldcard${active ? " p5-active" : ""}` },
          by,
          h("span", { class: "p5-name" }, nameOf(cards, "shadow", x)),
          h("span", { class: "p5-tag" }, active ? (draft ? t("in the draft party") : t("in the party")) : t("held")),
          inner ? h("ul", { class: "p5-skills" }, inner) : null,
        ),
      );
    }
  }
  const gist = RES.map((res) => `${p.fresh[res] ?? 0} ${resWord(res)}`).join(" · ");
  // The thief's own target (choosing who goes next) is the name at the head of the board,
  // beside the fold, never around it.
  return h(
    "article",
    { class: `p5-thief p5-p${i + 1}${turn ? " p5-turn" : ""}${me ? " p5-me" : ""}` },
    refEl(
      "div",
      `player:${i}`,
      { class: "p5-thief-head" },
      by,
      h(
        "h4",
        { class: "p5-thief-name" },
        icon("pawn"),
        `${playerName(i)}${me ? t(" (you)") : ""}: ${nameOf(cards, "thief", p.thief)}`,
        turn ? h("span", { class: "p5-tag p5-turn-tag" }, me ? t("your turn") : t("their turn")) : null,
        p.went && !turn ? h("span", { class: "p5-tag" }, t("went today")) : null,
      ),
    ),
    fold(
      `player:${i}`,
      "p5-thief-fold",
      t("Board"),
      `${where} · ${gist}`,
      by,
      h("div", { class: "p5-small" }, where),
      h("div", { class: "p5-board-cols" }, h("div", {}, h("h5", {}, t("Tokens")), tokens), h("div", {}, h("h5", {}, t("Social stats")), stats)),
      h("h5", {}, t("Persona: {name}", { name: nameOf(cards, "persona", p.persona) })),
      skills,
      h("h5", {}, t("Abilities and confidants")),
      abilities,
      party ? h("h5", {}, t("Shadows held (persona party)")) : null,
      party,
    ),
  );
}

/** Whether the decision is about the palace (a narrow screen shows it above the town). */
function palaceFirst(view) {
  const kind = (view.decision || {}).kind;
  return ["fight", "enter_order", "allocate_any"].includes(kind) || view.phase === "fight";
}

// --- the header's words -----------------------------------------------------------------
const phaseWords = () => ({
  order: t("Order of turns"),
  main: t("Action"),
  discover: t("Discovery"),
  fight: t("Palace"),
  ending: t("End of the day"),
  after: t("After the action"),
  enter_order: t("On Palace Enter"),
  stat: t("Social stat"),
  allocate_any: t("ANY damage"),
  restore_mix: t("Restoring tokens"),
  party: t("Party draft"),
});

/** The table header's turn and step: "Day 3 of 28 · Palace". */
export function stepText(ctx) {
  const view = ctx.view;
  const days = view.days || 28;
  const day = t("Day {n} of {days}", { n: Math.min(view.day, days), days });
  const kind = (view.decision || {}).kind;
  const phases = phaseWords();
  const words = phases[kind] || phases[view.phase];
  return kind === "over" || !words ? day : `${day} · ${words}`;
}

// --- the whole board --------------------------------------------------------------------
export function renderBoard(root, ctx) {
  const view = ctx.view;
  const by = actionsByRef(ctx.legal);
  const kind = (view.decision || {}).kind;
  const teamFirst = ["order", "stat", "restore_mix", "party"].includes(kind);
  const board = h(
    "div",
    { class: `p5-board${teamFirst ? " p5-focus-team" : ""}` },
    h("header", { class: "p5-top" }, calendar(view), banner(view, ctx)),
    diceTray(ctx.events, ctx.cards, ctx.version ?? ctx.events),
    h(
      "div",
      { class: `p5-main${palaceFirst(view) ? " p5-focus-palace" : ""}` },
      town(view, ctx, by),
      palace(view, ctx, by),
    ),
    h(
      "section",
      { class: "p5-team", "aria-label": t("Phantom Thieves") },
      h("h3", {}, t("Phantom Thieves")),
      h("div", { class: "p5-thieves" }, view.players.map((_, i) => thief(view, i, ctx, by))),
    ),
  );
  root.replaceChildren(board);
  return board;
}

export const P5_TYPES = TYPES;
