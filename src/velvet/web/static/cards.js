// Velvet's card faces, drawn from the card data alone (docs/web.md, "Card faces").
//
// cardFace(info, {game, size, attrs}) returns one element for a CardInfo JSON
// ({id, name, kind, lines, data}): a Persona VS persona, support or react card, or a
// P5 thief, persona, confidant, shadow, boss, location or palace card. Every fact on
// the face is real text (a screen reader and the tap menu read it; the icons and shapes
// are aria-hidden decoration), so nothing is said by colour or shape alone. The look is
// Velvet's own: red, black and white, slanted heavy type, a torn-paper edge and a
// halftone corner; no art or logo of the games is used.
//
// size: "full" (every skill and ability in words), "compact" (name, cost, weakness,
// skills with damage) or "mini" (name and cost: a pile's top card, a fused card).
// attrs: attributes for the outer element (data-ref, data-card, aria-label...).

import { el } from "./dom.js";
import { t } from "./i18n.js";

// --- icons (16×16, currentColor; the same set for both games) ----------------------------
const STROKE = 'fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"';
export const ICONS = {
  phys: '<path d="M2.5 13.5 11 5l1-3.5L15.5 1 14 4.5 5 13l1.5 1.5-1 1L.5 10.5l1-1z"/>',
  gun: '<path d="M1 4h13v3.5H8.5L7.5 13h-3l1-5.5H1z"/>',
  fire: '<path d="M8 .5c.8 3 4.5 4.6 4.5 8.6a4.5 4.5 0 0 1-9 0c0-2.2 1.2-3.6 2.2-4.5 0 2 .9 3.2 2 3.4C7.2 5.6 6.8 3 8 .5z"/>',
  ice: `<path ${STROKE} d="M8 1v14M2 4.5l12 7M2 11.5l12-7M6 2l2 2 2-2M6 14l2-2 2 2"/>`,
  elec: '<path d="M9.5.5 2.5 9h4.2L5.5 15.5 13.5 6.5H9z"/>',
  wind: `<path ${STROKE} d="M1 5.5h9.5a2.2 2.2 0 1 0-2.2-2.2M1 8.5h12a2 2 0 1 1-2 2M1 11.5h6"/>`,
  psy: `<circle ${STROKE} cx="8" cy="8" r="6.5"/><circle ${STROKE} cx="8" cy="8" r="3.6"/><circle cx="8" cy="8" r="1.3"/>`,
  nuke: `<circle cx="8" cy="8" r="1.8"/><ellipse ${STROKE} cx="8" cy="8" rx="7" ry="2.6"/><ellipse ${STROKE} cx="8" cy="8" rx="7" ry="2.6" transform="rotate(60 8 8)"/><ellipse ${STROKE} cx="8" cy="8" rx="7" ry="2.6" transform="rotate(-60 8 8)"/>`,
  bless: '<path d="M6.8.5h2.4v5h5v2.4h-5v7.6H6.8V7.9h-5V5.5h5z"/>',
  curse: '<path d="M10.5.8A7.3 7.3 0 1 0 15.2 12 6 6 0 0 1 10.5.8z"/>',
  stamina: '<path d="M8 14.5S.8 10 .8 5.2A3.6 3.6 0 0 1 8 3.7a3.6 3.6 0 0 1 7.2 1.5C15.2 10 8 14.5 8 14.5z"/>',
  sp: '<path d="M8 .8S2.8 7 2.8 10.2a5.2 5.2 0 0 0 10.4 0C13.2 7 8 .8 8 .8z"/>',
  bullet: '<path d="M5.5 5.5C5.5 2 8 .6 8 .6s2.5 1.4 2.5 4.9V12h-5zM5 13h6v2.4H5z"/>',
  cash: `<circle ${STROKE} cx="8" cy="8" r="6.6"/><path ${STROKE} d="M5 4.5 8 8l3-3.5M8 8v4.5M5.5 8.5h5M5.5 10.5h5"/>`,
  any: '<path d="m8 .6 2.1 5H15l-4 3.2 1.6 5.6L8 11.2l-4.6 3.2L5 8.8 1 5.6h4.9z"/>',
  star: '<path d="m8 .6 2.1 5H15l-4 3.2 1.6 5.6L8 11.2l-4.6 3.2L5 8.8 1 5.6h4.9z"/>',
  pawn: '<circle cx="8" cy="4.2" r="3.2"/><path d="M2.5 15c0-4 2.4-6.3 5.5-6.3s5.5 2.3 5.5 6.3z"/>',
  shield: '<path d="M8 .8 14 3v4.6c0 3.7-2.6 6.4-6 7.6-3.4-1.2-6-3.9-6-7.6V3z"/>',
  bolt: '<path d="M9.5.5 2.5 9h4.2L5.5 15.5 13.5 6.5H9z"/>',
  map: `<path ${STROKE} d="M1.5 3.5 5.5 2l5 2 4-1.5v10l-4 1.5-5-2-4 1.5zM5.5 2v10M10.5 4v10"/>`,
  crown: '<path d="M1.5 4.5 5 8l3-5.5L11 8l3.5-3.5-1.5 9h-10z"/>',
};
// Persona VS names its types in full.
const ALIAS = { physical: "phys", electric: "elec" };
// a type's and a resource's word, looked up when drawn (the catalogue comes after this module)
export function typeWord(type) {
  const words = {
    phys: t("Phys"), physical: t("Physical"), gun: t("Gun"), fire: t("Fire"), ice: t("Ice"), elec: t("Elec"),
    electric: t("Electric"), wind: t("Wind"), psy: t("Psy"), nuke: t("Nuke"), bless: t("Bless"), curse: t("Curse"),
  };
  return words[type] || cap(type);
}
const RES = ["stamina", "sp", "bullet", "cash", "any"];
export const resWord = (res) => ({ stamina: t("Stamina"), sp: t("SP"), bullet: t("Bullet"), cash: t("Cash"), any: t("ANY") })[res] || res;

const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : "");

/** Parts with a space between each, so that the face reads as words, not "3 damageFire". */
const spaced = (...parts) => parts.flat().filter(Boolean).flatMap((p, i) => (i ? [" ", p] : [p]));

export function glyph(name, cls = "") {
  const span = document.createElement("span");
  span.className = `vc-icon ${cls}`.trim();
  span.setAttribute("aria-hidden", "true");
  const body = ICONS[ALIAS[name] || name] || ICONS.any;
  span.innerHTML = `<svg viewBox="0 0 16 16" width="16" height="16" fill="currentColor" focusable="false">${body}</svg>`;
  return span;
}

/** A damage type as its icon AND its word, coloured by type on top of both. */
export function typeChip(type, cls = "") {
  if (!type) return null;
  const key = ALIAS[type] || type;
  return el("span", { class: `vc-type vc-t-${key} ${cls}`.trim() }, glyph(type), el("span", { class: "vc-type-word" }, typeWord(type)));
}

function resourceChips(counts) {
  const out = [];
  for (const res of RES) {
    const n = (counts || {})[res];
    if (n) out.push(el("span", { class: `vc-res vc-res-${res}` }, glyph(res), `${n} ${resWord(res)}`));
  }
  return out;
}

const total = (counts) => Object.values(counts || {}).reduce((a, b) => a + (Number(b) || 0), 0);

// --- the shapes: a torn-paper backing and a halftone corner (decoration only) ------------
// The tear is drawn from the card's id, so every card has its own edge, and the same card
// always the same one.
function seed(text) {
  let h = 2166136261;
  for (const ch of String(text)) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h;
}

function tornEdge(id) {
  let s = seed(id) || 1;
  const rnd = () => ((s = Math.imul(s ^ (s >>> 15), 2246822507) >>> 0), (s % 1000) / 1000);
  const pts = [];
  for (let x = 0; x <= 100; x += 10) pts.push(`${x},${(2 + rnd() * 4).toFixed(1)}`);
  for (let y = 10; y <= 100; y += 15) pts.push(`${(97 - rnd() * 3).toFixed(1)},${y}`);
  for (let x = 100; x >= 0; x -= 12.5) pts.push(`${x},${(97 - rnd() * 4).toFixed(1)}`);
  for (let y = 90; y >= 10; y -= 15) pts.push(`${(1 + rnd() * 3).toFixed(1)},${y}`);
  return pts.join(" ");
}

function backing(id) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "vc-back");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const paper = document.createElementNS(svg.namespaceURI, "polygon");
  paper.setAttribute("class", "vc-paper");
  paper.setAttribute("points", tornEdge(id));
  const slash = document.createElementNS(svg.namespaceURI, "polygon");
  slash.setAttribute("class", "vc-slash");
  slash.setAttribute("points", "62,0 100,0 100,34 40,100 22,100");
  svg.append(slash, paper);
  return svg;
}

// --- one face -----------------------------------------------------------------------------

function face(info, kindClass, tone, attrs, size, head, body) {
  const id = info.id || info.name || "card";
  const node = el(
    "div",
    { class: `vc ${kindClass} vc-${size} ${tone}`.trim(), ...attrs },
    backing(`${info.kind}:${id}`),
    el("div", { class: "vc-face" }, ...head, ...(size === "mini" ? [] : body)),
  );
  return node;
}

function nameBar(name, cost, costWord) {
  return el(
    "div",
    { class: "vc-head" },
    cost !== null && cost !== undefined
      ? el("span", { class: "vc-cost", title: costWord }, el("span", { class: "vc-sr" }, `${costWord} `), el("span", { class: "vc-cost-n" }, String(cost)))
      : null,
    " ",
    el("span", { class: "vc-name" }, name),
  );
}

/** " vc-long" for a name whose longest word would break on a small face: set a size smaller. */
const longName = (name) => (Math.max(0, ...String(name || "").split(/\s+/).map((w) => w.length)) >= 8 ? " vc-long" : "");

const kindBar = (...parts) => el("div", { class: "vc-kind" }, ...spaced(parts));

function weakLine(types) {
  const list = (Array.isArray(types) ? types : types ? [types] : []).filter(Boolean);
  return el(
    "div",
    { class: "vc-weak" },
    ...spaced(el("span", { class: "vc-label" }, t("Weak")), list.length ? list.map((type) => typeChip(type)) : el("span", { class: "vc-none" }, t("nothing"))),
  );
}

/** The words after "Skill NAME: type, N damage" (a VS skill's extra effects), if any. */
function vsSkillWords(info, name) {
  const line = (info.lines || []).find((l) => l.startsWith(`Skill ${name}:`));
  if (!line) return "";
  const rest = line.split("; ").slice(1).join("; ");
  return rest.replace(/\.$/, "");
}

function lineAfter(info, prefix) {
  const line = (info.lines || []).find((l) => l.startsWith(prefix));
  return line ? line.slice(prefix.length) : "";
}

// Persona VS ------------------------------------------------------------------------------

function vsPersona(info, size, attrs) {
  const d = info.data || {};
  const skills = d.skills || [];
  const frame = ALIAS[skills[0]?.type] || skills[0]?.type || "phys";
  const rows = skills.map((s) => {
    const words = size === "full" ? vsSkillWords(info, s.name) : "";
    return el(
      "li",
      { class: "vc-skill" },
      ...spaced(
        el("span", { class: "vc-dmg" }, el("span", { class: "vc-dmg-n" }, String(s.damage)), el("span", { class: "vc-sr" }, t(" damage"))),
        typeChip(s.type, "vc-skill-type"),
        el("span", { class: "vc-skill-name" }, s.name),
        words ? el("span", { class: "vc-words" }, words) : null,
      ),
    );
  });
  const abilities = size === "full"
    ? (info.lines || []).filter((l) => l.startsWith("Ability ")).map((l) => {
        const [name, ...rest] = l.slice("Ability ".length).split(": ");
        return el("p", { class: "vc-ability" }, el("strong", {}, `${name}: `), rest.join(": "));
      })
    : [];
  const named = d.extra_cost_name ? el("p", { class: "vc-words" }, `Also costs a persona named ${d.extra_cost_name}`) : null;
  return face(
    info,
    `vc-vs-persona vc-frame-${frame}${longName(info.name)}`,
    "vc-dark",
    attrs,
    size,
    [nameBar(info.name, d.cost ?? 0, t("Cost"))],
    [
      kindBar(el("span", { class: "vc-kind-word" }, d.starter ? t("Persona · starter") : t("Persona")), weakLine(d.weakness)),
      rows.length ? el("ul", { class: "vc-skills" }, ...rows) : null,
      named,
      ...abilities,
    ],
  );
}

function vsSpell(info, size, attrs) {
  const d = info.data || {};
  const react = info.kind === "react";
  const rule = (info.lines || [])[0] || "";
  const effect = (info.lines || []).slice(1);
  const when = react
    ? el("span", { class: "vc-kind-word" }, glyph("shield"), d.timing === "declaration" ? t("React · on declaration") : t("React · on resolution"))
    : el("span", { class: "vc-kind-word" }, glyph("bolt"), t("Support · planning"));
  const against = react && d.vs_type ? el("div", { class: "vc-weak" }, el("span", { class: "vc-label" }, t("Against")), typeChip(d.vs_type)) : null;
  const condition = rule.includes(",") && !d.vs_type ? rule.slice(rule.indexOf(",") + 1).trim() : "";
  return face(
    info,
    `${react ? "vc-vs-react" : "vc-vs-support"}${longName(info.name)}`,
    react ? "vc-red" : "vc-light",
    attrs,
    size,
    [nameBar(info.name, null, "")],
    [
      kindBar(when, against),
      condition && size === "full" ? el("p", { class: "vc-words" }, cap(condition)) : null,
      ...(size === "compact" ? effect.slice(0, 1) : effect).map((l) => el("p", { class: "vc-effect" }, l)),
    ],
  );
}

function vsPlayer(info, size, attrs) {
  return face(info, "vc-vs-player", "vc-dark", attrs, size, [nameBar(info.name, null, "")], [
    kindBar(el("span", { class: "vc-kind-word" }, glyph("pawn"), t("Player card"))),
    ...(info.lines || []).map((l) => el("p", { class: "vc-effect" }, l)),
  ]);
}

// P5 --------------------------------------------------------------------------------------

// The 22 major arcana, each a frame colour of its own (a fixed order, not a hash).
const ARCANA = ["Fool", "Magician", "Priestess", "Empress", "Emperor", "Hierophant", "Lovers", "Chariot", "Justice", "Hermit", "Fortune", "Strength", "Hanged Man", "Death", "Temperance", "Devil", "Tower", "Star", "Moon", "Sun", "Judgement", "Faith"];
function arcanaWord(name) {
  const words = {
    Fool: t("Fool"), Magician: t("Magician"), Priestess: t("Priestess"), Empress: t("Empress"), Emperor: t("Emperor"),
    Hierophant: t("Hierophant"), Lovers: t("Lovers"), Chariot: t("Chariot"), Justice: t("Justice"), Hermit: t("Hermit"),
    Fortune: t("Fortune"), Strength: t("Strength"), "Hanged Man": t("Hanged Man"), Death: t("Death"),
    Temperance: t("Temperance"), Devil: t("Devil"), Tower: t("Tower"), Star: t("Star"), Moon: t("Moon"), Sun: t("Sun"),
    Judgement: t("Judgement"), Faith: t("Faith"),
  };
  return words[name] || name;
}
// a P5 social stat's word
export const statWord = (stat) => ({ knowledge: t("Knowledge"), guts: t("Guts"), proficiency: t("Proficiency"), compassion: t("Compassion"), kindness: t("Kindness"), charm: t("Charm") })[stat] || cap(stat);
const arcanaIndex = (name) => {
  const i = ARCANA.findIndex((a) => String(name || "").toLowerCase().startsWith(a.toLowerCase()));
  return i < 0 ? 0 : i;
};

// A P5 skill: its damage first (a skill without damage says what it does in words).
function p5Skill(a, words, size) {
  const damage = total(a.damage);
  return el(
    "li",
    { class: `vc-skill${damage ? "" : " vc-skill-nodmg"}` },
    ...spaced(
      damage ? el("span", { class: "vc-dmg" }, el("span", { class: "vc-dmg-n" }, String(damage)), el("span", { class: "vc-sr" }, t(" damage"))) : null,
      typeChip(a.type, "vc-skill-type"),
      el("span", { class: "vc-skill-name" }, a.name),
      a.dice ? el("span", { class: "vc-tag" }, glyph("star"), t("Dice")) : null,
      el("span", { class: "vc-costline" }, ...spaced(a.cost && total(a.cost) ? [t("cost"), ...resourceChips(a.cost)] : [], damage ? [t("deals"), ...resourceChips(a.damage)] : [])),
      (size === "full" || !damage) && words ? el("span", { class: "vc-words" }, words) : null,
    ),
  );
}

/** The words of a skill's line ("PREFIX Name: words"), for a skill that deals no damage. */
function skillWords(info, prefix, name) {
  const line = lineAfter(info, `${prefix}${name}: `);
  return line.replace(/^cost [^,]*, /, "");
}

function p5Thief(info, size, attrs) {
  const d = info.data || {};
  const stats = Object.entries(d.stats || {}).map(([s, n]) => el("li", {}, el("span", { class: "vc-stat-n" }, String(n)), ` ${statWord(s)}`));
  const passive = lineAfter(info, "Passive — ");
  return face(info, "vc-p5-thief", "vc-red", attrs, size, [nameBar(info.name, null, "")], [
    kindBar(el("span", { class: "vc-kind-word" }, glyph("pawn"), t("Phantom Thief"))),
    el("ul", { class: "vc-stats", "aria-label": t("Social stats") }, ...stats),
    passive ? el("p", { class: "vc-ability" }, el("strong", {}, t("Passive ")), passive) : null,
  ]);
}

function p5Persona(info, size, attrs) {
  const d = info.data || {};
  const skills = d.skills || [];
  const frame = skills[0]?.type || "phys";
  return face(info, `vc-p5-persona vc-frame-${frame}`, "vc-dark", attrs, size, [nameBar(info.name, null, "")], [
    kindBar(el("span", { class: "vc-kind-word" }, d.party ? t("Persona · party") : t("Persona"))),
    el("ul", { class: "vc-skills" }, ...skills.map((a) => p5Skill(a, total(a.damage) ? "" : skillWords(info, "Skill — ", a.name), size))),
    d.party && size === "full" ? el("p", { class: "vc-words" }, "Uses the persona abilities of the shadows you hold.") : null,
  ]);
}

function p5Confidant(info, size, attrs) {
  const d = info.data || {};
  const ability = lineAfter(info, "Ability — ");
  const checks = (d.checks || []).map(statWord).join(" + ");
  return face(info, `vc-p5-confidant vc-arcana-${arcanaIndex(d.arcana)}`, "vc-light", attrs, size, [nameBar(info.name, null, "")], [
    kindBar(el("span", { class: "vc-kind-word" }, d.arcana ? t("Confidant · {arcana}", { arcana: arcanaWord(d.arcana) }) : t("Confidant"))),
    checks ? el("p", { class: "vc-checks" }, el("span", { class: "vc-label" }, t("Recruit")), t("{checks} checks", { checks })) : null,
    ability ? el("p", { class: "vc-ability" }, el("strong", {}, `${ability.split(": ")[0]}: `), ability.split(": ").slice(1).join(": ")) : null,
  ]);
}

function p5Enemy(info, size, attrs, boss) {
  const d = info.data || {};
  const health = d.health || {};
  const extra = [["On Palace Enter: ", t("On Palace Enter: ")], ["On Death: ", t("On Death: ")]].map(([p, word]) => (lineAfter(info, p) ? el("p", { class: "vc-ability" }, el("strong", {}, word), lineAfter(info, p)) : null));
  const ability = d.persona
    ? el("ul", { class: "vc-skills" }, p5Skill(d.persona, total(d.persona.damage) ? "" : skillWords(info, "Persona ability (Arsene) — ", d.persona.name), size))
    : null;
  return face(
    info,
    boss ? "vc-p5-boss" : `vc-p5-shadow vc-frame-${(d.weak || [])[0] || "phys"}`,
    boss ? "vc-red" : "vc-dark",
    attrs,
    size,
    [nameBar(info.name, total(health), t("Health"))],
    [
      kindBar(el("span", { class: "vc-kind-word" }, boss ? [glyph("crown"), t("Boss · 100% alert")] : t("Shadow")), weakLine(d.weak)),
      el("div", { class: "vc-health" }, ...spaced(el("span", { class: "vc-label" }, t("Health")), resourceChips(health))),
      ...(size === "full" ? extra : []),
      ability && size !== "mini" ? el("p", { class: "vc-label vc-sub" }, t("As a persona")) : null,
      ability,
    ],
  );
}

function p5Location(info, size, attrs) {
  const d = info.data || {};
  const visit = lineAfter(info, "Visit: ") || (info.lines || []).join(" ");
  return face(info, "vc-p5-location", "vc-light", attrs, size, [nameBar(info.name, null, "")], [
    kindBar(el("span", { class: "vc-kind-word" }, glyph("map"), d.start ? t("Location · start") : t("Location"))),
    el("p", { class: "vc-effect" }, el("strong", {}, t("Visit: ")), visit),
  ]);
}

function p5Palace(info, size, attrs) {
  const rows = (info.lines || []).map((l) => {
    const [alert, ...rest] = l.split(" — ");
    return el("li", {}, el("span", { class: "vc-stat-n" }, alert.replace(" alert", "")), ` ${rest.join(" — ")}`);
  });
  return face(info, "vc-p5-palace", "vc-dark", attrs, size, [nameBar(info.name, null, "")], [
    kindBar(el("span", { class: "vc-kind-word" }, t("Palace · alert track"))),
    el("ol", { class: "vc-rows" }, ...rows),
  ]);
}

const RENDER = {
  "vs:persona": vsPersona,
  "vs:support": vsSpell,
  "vs:react": vsSpell,
  "vs:player": vsPlayer,
  "p5:thief": p5Thief,
  "p5:persona": p5Persona,
  "p5:confidant": p5Confidant,
  "p5:shadow": (i, s, a) => p5Enemy(i, s, a, false),
  "p5:boss": (i, s, a) => p5Enemy(i, s, a, true),
  "p5:location": p5Location,
  "p5:palace": p5Palace,
};

/** One card's face; an unknown kind gets a plain face with its lines in words. */
export function cardFace(info, { game = "vs", size = "full", attrs = {} } = {}) {
  const card = info || { id: "?", name: "?", kind: "card", lines: [], data: {} };
  const draw = RENDER[`${game}:${card.kind}`];
  if (draw) return draw(card, size, attrs);
  return face(card, "vc-other", "vc-dark", attrs, size, [nameBar(card.name, null, "")], [
    kindBar(el("span", { class: "vc-kind-word" }, cap(card.kind || "card"))),
    ...(card.lines || []).map((l) => el("p", { class: "vc-effect" }, l)),
  ]);
}

/** The back of a card (a deck), with how many there are in words. */
export function cardBack(label, count, attrs = {}) {
  return el(
    "div",
    { class: "vc-pile vc-deck", ...attrs },
    el("span", { class: "vc-pile-cards", "aria-hidden": "true" }, el("span", {}), el("span", {}), el("span", { class: "vc-back-face" }, "V")),
    el("span", { class: "vc-pile-n" }, String(count)),
    el("span", { class: "vc-pile-word" }, label),
  );
}
