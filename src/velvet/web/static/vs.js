// The Persona VS board: both fields with their stacks, HP, piles, your hand, the step
// and the skill being answered. Everything an action can name carries data-ref
// (docs/web.md): hand:<i>, field:<seat>:<slot>, stack:<seat>:<slot>:<depth>,
// deck:<seat>, discard:<seat>, player:<seat>.
//
// The table: the rival's rail (name, HP gauge, piles) at the far edge and their field
// facing yours across the middle line, where the skill in play and the last damage sit;
// your field, your rail and your hand fanned at the near edge (vs.css). The engine's
// events of a new state animate in order through motion.js (docs/web.md, "The VS table").

import { cardBack, cardFace } from "./cards.js";
import { el, icon, typeTag } from "./dom.js";
import { t, tn, cardName as localName } from "./i18n.js";
import { cancel as cancelMotion, play as playMotion } from "./motion.js";

const SLOT_CODES = ["m", "s1", "s2"];
// the words are looked up when drawn (the page's catalogue comes after this module)
const slotTitle = (slot) => [t("Main"), t("Sub 1"), t("Sub 2")][slot];
const slotWord = (slot) => [t("main"), t("sub 1"), t("sub 2")][slot];
function stepWord(step) {
  const words = {
    planning: t("Planning Step"),
    declare: t("Skill Step: declare a skill"),
    "react-declaration": t("React window (skill declared)"),
    resolve: t("Skill Step: resolving"),
    order: t("Skill Step: order the damage modifiers"),
    "react-resolution": t("React window (skill resolved)"),
    "end-skill": t("End of the Skill Step"),
    over: t("Game over"),
  };
  return words[step] || step;
}
const MAX_HP = 30;

export function stepText(ctx) {
  const v = ctx.view;
  if (v.step === "over") return t("Turn {n}", { n: v.turn_no }); // the header says "Game over" itself
  return t("Turn {n} · {player}'s turn · {step}", { n: v.turn_no, player: ctx.names(v.turn), step: stepWord(v.step) });
}

// A card's data, its name in the page's language (the server's cards are in English).
function info(ctx, id) {
  const card = ctx.cards[id];
  if (!card) return { id, name: id, kind: "card", lines: [], data: {} };
  const name = localName("vs", card.name);
  return name === card.name ? card : { ...card, name };
}

function cardName(ctx, id) {
  return info(ctx, id).name;
}

// One card, drawn by cards.js; data-card keeps its words a hover, tap or focus away.
function personaCard(ctx, id, attrs, size = "full") {
  return cardFace(info(ctx, id), { game: "vs", size, attrs: { "data-card": id, ...attrs } });
}

function slotView(ctx, seat, slot) {
  const stack = ctx.view.field[seat][slot];
  const ref = `field:${seat}:${slot}`;
  const label = t("{player}'s {slot}", { player: ctx.names(seat), slot: slotWord(slot) });
  if (!stack.length) {
    return el(
      "div",
      { class: `slot slot-${SLOT_CODES[slot]}` },
      el("span", { class: "slot-name" }, slotTitle(slot)),
      el("div", { class: "empty", "data-ref": ref, "aria-label": t("{place}: empty", { place: label }) }, el("span", { class: "empty-text" }, ctx.compact ? t("{slot} empty", { slot: slotTitle(slot) }) : t("empty"))),
    );
  }
  const top = stack[stack.length - 1];
  const node = el("div", { class: `slot slot-${SLOT_CODES[slot]}` }, el("span", { class: "slot-name" }, slotTitle(slot)));
  const size = ctx.compact ? (slot === 0 ? "compact" : "mini") : slot === 0 ? "full" : "compact";
  node.append(personaCard(ctx, top, { "data-ref": ref, "aria-label": `${label}: ${cardName(ctx, top)}` }, size));
  if (stack.length > 1) node.append(el("span", { class: "stack-n", "aria-hidden": "true" }, `×${stack.length}`));
  if (stack.length > 1) {
    const under = stack.slice(0, -1);
    node.append(
      el(
        "details",
        { class: "under" },
        el("summary", {}, tn("{n} fused card under it", "{n} fused cards under it", under.length)),
        el(
          "ul",
          {},
          ...under
            .map((id, depth) => el("li", { class: "chip", "data-card": id, "data-ref": `stack:${seat}:${slot}:${depth}`, "aria-label": t("{card}, fused under {top}", { card: cardName(ctx, id), top: cardName(ctx, top) }) }, cardName(ctx, id)))
            .reverse(),
        ),
      ),
    );
  }
  return node;
}

function playerBar(ctx, seat) {
  const v = ctx.view;
  const hp = v.hp[seat];
  const you = ctx.seat === seat;
  const pc = v.player_cards?.[seat];
  const discard = v.discard[seat];
  const player = ctx.names(seat);
  const share = Math.max(0, Math.min(100, (hp / MAX_HP) * 100));
  const low = hp <= 10 ? " low" : "";
  // HP as a large gauge: the number, "of 30", and a slanted bar in ten-point steps.
  const gauge = el(
    "div",
    { class: `hp-gauge${low}` },
    el("span", { class: "hp-word" }, icon("hp"), t("HP")),
    el("span", { class: "hp-n" }, String(hp)),
    el("span", { class: "hp-of" }, t("of {max}", { max: MAX_HP })),
    el("span", { class: "hpbar", role: "meter", "aria-valuemin": "0", "aria-valuemax": String(MAX_HP), "aria-valuenow": String(hp), "aria-label": t("{player}'s HP", { player }) }, el("span", { class: "hpfill", style: `width:${share}%` })),
  );
  const top = discard.length ? discard[discard.length - 1] : null;
  const discardPile = el(
    "div",
    { class: "pile pile-discard", "data-ref": `discard:${seat}`, "aria-label": tn("{player}'s discard pile: {n} card", "{player}'s discard pile: {n} cards", discard.length, { player }) },
    top
      ? personaCard(ctx, top, { "aria-label": t("Top of the discard pile: {card}", { card: cardName(ctx, top) }) }, "mini")
      : el("span", { class: "pile-empty", "aria-hidden": "true" }),
    el("span", { class: "pile-count" }, el("span", { class: "vc-pile-n" }, String(discard.length)), el("span", { class: "vc-pile-word" }, t("Discard"))),
  );
  const bar = el(
    "div",
    { class: `pbar${v.turn === seat && v.step !== "over" ? " active" : ""}` },
    el("span", { class: "pname", "data-ref": `player:${seat}`, "data-card": pc || null, "data-turn": t("turn") }, ctx.compact && you ? t("You") : `${ctx.names(seat)}${you ? t(" (you)") : ""}`, pc ? el("small", {}, ` ${cardName(ctx, pc)}`) : null),
    gauge,
  );
  const piles = el(
      "div",
      { class: "piles" },
      cardBack(t("Deck"), v.deck_sizes[seat], { class: "pile pile-deck vc-pile vc-deck", "data-ref": `deck:${seat}`, "aria-label": tn("{player}'s deck: {n} card", "{player}'s deck: {n} cards", v.deck_sizes[seat], { player }) }),
      discardPile,
      el("span", { class: "pile pile-hand", "data-seat": String(seat) }, icon("hand"), el("span", { class: "vc-pile-n" }, String(v.hand_sizes[seat])), el("span", { class: "vc-pile-word" }, t(" in hand"))),
  );
  return [bar, piles];
}

function discardList(ctx, seat) {
  const pile = ctx.view.discard[seat];
  if (!pile.length) return null;
  return el(
    "details",
    { class: "discard-list" },
    el("summary", {}, t("{player}'s discard pile ({n})", { player: ctx.names(seat), n: pile.length })),
    el("ul", {}, ...[...pile].reverse().map((id) => el("li", { class: "chip", "data-card": id }, cardName(ctx, id)))),
  );
}

// One player's half of the table. The rival's rail is at the far edge and yours at the
// near one, so that the two fields face each other across the middle line.
function side(ctx, seat, where) {
  const rail = el("div", { class: "rail" }, ...playerBar(ctx, seat));
  const field = el("div", { class: "vs-field" }, ...[1, 0, 2].map((slot) => slotView(ctx, seat, slot)));
  return el(
    "section",
    { class: `side-p side-${where}${ctx.view.turn === seat && ctx.view.step !== "over" ? " is-turn" : ""}${ctx.view.hp[seat] <= 0 ? " is-out" : ""}`, "aria-label": `${ctx.names(seat)}${ctx.seat === seat ? t(" (you)") : ""}` },
    ...(where === "top" ? [rail, field] : [field, rail]),
  );
}

// a skill's damage type in running text, in the page's language ("electric")
function skillType(type) {
  const words = { physical: t("physical"), fire: t("fire"), ice: t("ice"), electric: t("electric"), wind: t("wind") };
  return words[type] || type;
}

function skillInPlay(ctx) {
  const v = ctx.view;
  if (!v.skill) return null;
  const [slot, id, k] = v.skill;
  const skill = info(ctx, id).data?.skills?.[k];
  const words = skill ? [el("strong", {}, skill.name), " (", typeTag(skill.type, "", skillType(skill.type)), t(", {n} damage)", { n: skill.damage })] : [t("a skill")];
  const where = SLOT_CODES.indexOf(slot) >= 0 ? slotWord(SLOT_CODES.indexOf(slot)) : slot;
  const card = cardName(ctx, id);
  const uses = v.turn === ctx.seat ? t("Your {slot} {card} uses ", { slot: where, card }) : t("{player}'s {slot} {card} uses ", { player: ctx.names(v.turn), slot: where, card });
  return el("span", {}, uses, ...words);
}

function centre(ctx) {
  const v = ctx.view;
  const rows = [];
  const inReact = v.step === "react-declaration" || v.step === "react-resolution";
  const skill = skillInPlay(ctx);
  if (inReact) {
    const answering = ctx.toMove === null ? t("Nobody") : ctx.toMove === ctx.seat ? t("You") : ctx.names(ctx.toMove);
    const when = v.step === "react-declaration" ? t("just declared") : t("resolved");
    rows.push(
      el(
        "p",
        { class: "react-window", role: "status" },
        el("strong", {}, t("React window: ")),
        t("{who} may answer with a React or play none. ", { who: answering }),
        skill || t("A skill"),
        t(" ({when}). ", { when }),
        el("span", { class: "countdown", "data-countdown": "" }),
      ),
    );
  } else if (skill) {
    rows.push(el("p", { class: "skill-now" }, skill, v.dmg ? t(" · damage so far {n}", { n: v.dmg }) : ""));
  }
  const frame = v.frames?.[v.frames.length - 1];
  if (frame && frame[0] === "pay") {
    // ["pay", player, card, fusion mask (-1: a summon), units left, named card owed]
    const [, payer, id, mask, left, named] = frame;
    const who = payer === ctx.seat ? t("You are paying for ") : t("{player} is paying for ", { player: ctx.names(payer) });
    const owed = named ? t(" and a persona named {name}", { name: localName("vs", named) }) : "";
    const kind = mask >= 0 ? t("fusion") : t("summon");
    rows.push(
      el("p", { class: "paying" }, who, el("strong", { "data-card": id }, cardName(ctx, id)), t(" ({kind}): {left} left to pay{owed}.", { kind, left, owed })),
    );
  }
  if (v.negated) rows.push(el("p", {}, t("The skill's damage is negated.")));
  const damage = (ctx.events || []).filter((e) => ["damage", "no_damage", "heal", "weakness", "one_more"].includes(e.kind));
  for (const e of damage.slice(-3)) rows.push(el("p", { class: `last ev-${e.kind}` }, e.text));
  if (v.winner >= 0 && v.winner <= 1) rows.push(el("p", { class: "winner" }, t("{player} wins.", { player: ctx.names(v.winner) })));
  // the middle line stays when there is nothing to say (the step is in the table's header)
  return el("div", { class: `centre${rows.length ? "" : " is-quiet"}` }, ...rows);
}

// Your hand, fanned: each card overlaps the next by a little over a third, so every
// card's cost, name and damage stay in sight; hovering or focusing one lifts it whole.
function handView(ctx) {
  const v = ctx.view;
  if (ctx.seat === null) return null; // spectators see no hand
  const n = v.hand.length;
  const cards = v.hand.map((id, i) => {
    const node = personaCard(ctx, id, { "data-ref": `hand:${i}`, "aria-label": cardName(ctx, id) }, ctx.compact ? "compact" : "full");
    const tilt = n > 1 ? ((i - (n - 1) / 2) * 6) / Math.max(1, n - 1) : 0; // -3° … 3°
    node.style.setProperty("--tilt", `${tilt.toFixed(2)}deg`);
    node.style.setProperty("--i", String(i));
    return node;
  });
  return el(
    "section",
    { class: "hand", "aria-label": t("Your hand") },
    el("h2", {}, t("Your hand ({n})", { n })),
    el("div", { class: "hand-cards", style: `--n:${Math.max(1, n)}` }, ...(cards.length ? cards : [el("p", {}, t("No cards."))])),
  );
}

function discards(ctx, me, rival) {
  const lists = [discardList(ctx, me), discardList(ctx, rival)].filter(Boolean);
  return lists.length ? el("div", { class: "discards" }, ...lists) : null;
}

export function renderBoard(root, ctx) {
  cancelMotion(); // the elements it moved are about to go
  const me = ctx.seat ?? 0;
  const rival = 1 - me;
  ctx.compact = window.innerWidth < 700;
  root.classList.add("vs-board", "vs-table");
  root.dataset.motion = "own"; // this board animates its own events (motion.js)
  root.append(...[side(ctx, rival, "top"), centre(ctx), side(ctx, me, "bottom"), handView(ctx), discards(ctx, me, rival)].filter(Boolean));
  const fresh = typeof ctx.version === "number" && seen.version !== null && ctx.version > seen.version && seen.room === location.pathname;
  const events = fresh ? ctx.events || [] : [];
  seen.version = typeof ctx.version === "number" ? ctx.version : null;
  seen.room = location.pathname;
  const before = seen.rects;
  requestAnimationFrame(() => {
    if (!root.isConnected) return;
    if (events.length) animate(root, ctx, events, before);
    seen.rects = rects(root);
  });
}

// --- motion: the events of a new state, in order ------------------------------------------
// Where things were at the last drawing (page coordinates), so that a card played from the
// hand flies from where it was; and the version last drawn, so that a redraw of the same
// state (a hint, a resize) moves nothing.
const seen = { version: null, room: null, rects: { hand: new Map(), refs: new Map() } };

function pageRect(node) {
  const r = node.getBoundingClientRect();
  return { left: r.left + window.scrollX, top: r.top + window.scrollY, width: r.width, height: r.height };
}

function rects(root) {
  const hand = new Map();
  for (const node of root.querySelectorAll(".hand-cards > [data-card]")) {
    const id = node.dataset.card;
    if (!hand.has(id)) hand.set(id, []);
    hand.get(id).push(pageRect(node));
  }
  const refs = new Map();
  for (const node of root.querySelectorAll(".pile-hand, [data-ref^='deck:'], [data-ref^='discard:']")) {
    refs.set(node.dataset.ref || `hand-pile:${node.dataset.seat}`, pageRect(node));
  }
  return { hand, refs };
}

const toViewport = (r) => (r ? { left: r.left - window.scrollX, top: r.top - window.scrollY, width: r.width, height: r.height } : null);

/** The motion steps for a state's events (exported for the board's own tests). */
export function motionSteps(root, ctx, events, before = { hand: new Map(), refs: new Map() }) {
  const q = (sel) => root.querySelector(sel);
  const slotNode = (p, code) => q(`[data-ref="field:${p}:${Math.max(0, SLOT_CODES.indexOf(code))}"]`);
  const gauge = (p) => q(`.side-${p === (ctx.seat ?? 0) ? "bottom" : "top"} .hp-gauge`);
  const handPile = (p) => q(`.pile-hand[data-seat="${p}"]`);
  const from = (p, card) => {
    const mine = before.hand.get(card);
    if (p === ctx.seat && mine?.length) return toViewport(mine.shift());
    return toViewport(before.refs.get(`hand-pile:${p}`)) || handPile(p)?.getBoundingClientRect() || null;
  };
  const steps = [];
  for (const e of events) {
    const d = e.data || {};
    const p = d.player;
    switch (e.kind) {
      case "summon":
      case "fuse": {
        const node = slotNode(p, d.slot);
        steps.push({ kind: "fly", node, from: from(p, d.card) });
        if (e.kind === "fuse") steps.push({ kind: "glow", node });
        break;
      }
      case "skill":
        steps.push({ kind: "pulse", node: slotNode(p, d.slot) });
        break;
      case "damage":
        steps.push({ kind: "hit", node: gauge(p) }, { kind: "pop", node: gauge(p), text: `−${d.amount}`, tone: "damage" });
        if (d.hp === 0) steps.push({ kind: "fall", node: q(`.side-${p === (ctx.seat ?? 0) ? "bottom" : "top"} .vs-field`) });
        break;
      case "heal":
        steps.push({ kind: "glow", node: gauge(p) }, { kind: "pop", node: gauge(p), text: `+${d.amount}`, tone: "heal" });
        break;
      case "weakness":
        steps.push({ kind: "pop", node: slotNode(p, "m"), text: t("Weak!"), tone: "weak" });
        break;
      case "one_more":
        steps.push({ kind: "pop", node: slotNode(p, "m"), text: "1 more!", tone: "weak" });
        break;
      case "negate":
      case "no_damage":
        steps.push({ kind: "pop", node: gauge(p), text: e.kind === "negate" ? t("Negated") : t("No damage"), tone: "none" });
        break;
      case "draw": {
        const deck = q(`[data-ref="deck:${p}"]`);
        steps.push({ kind: "pulse", node: deck });
        if (p === ctx.seat) {
          const cards = [...root.querySelectorAll(".hand-cards > [data-card]")].slice(-Math.max(1, d.count || 1));
          for (const node of cards) steps.push({ kind: "fly", node, from: deck?.getBoundingClientRect() || null });
        } else steps.push({ kind: "pulse", node: handPile(p) });
        break;
      }
      case "destroy":
      case "bounce":
      case "discard":
        steps.push({ kind: "pulse", node: q(e.kind === "bounce" ? `.pile-hand[data-seat="${p}"]` : `[data-ref="discard:${p}"]`) });
        break;
      case "game_over":
        if (d.winner === 0 || d.winner === 1) steps.push({ kind: "pop", node: gauge(d.winner), text: t("Victory"), tone: "heal" });
        break;
      default:
        break;
    }
  }
  return steps.filter((s) => s.node);
}

function animate(root, ctx, events, before) {
  const steps = motionSteps(root, ctx, events, { hand: new Map([...before.hand].map(([k, v]) => [k, [...v]])), refs: before.refs });
  root.dataset.moved = String(playMotion(steps));
}
