// The Persona VS board: both fields with their stacks, HP, piles, your hand, the step
// and the skill being answered. Everything an action can name carries data-ref
// (docs/web.md): hand:<i>, field:<seat>:<slot>, stack:<seat>:<slot>:<depth>,
// deck:<seat>, discard:<seat>, player:<seat>.

import { el, icon, typeTag } from "./dom.js";

const SLOTS = ["Main", "Sub 1", "Sub 2"];
const SLOT_CODES = ["m", "s1", "s2"];
const STEPS = {
  planning: "Planning Step",
  declare: "Skill Step: declare a skill",
  "react-declaration": "React window (skill declared)",
  resolve: "Skill Step: resolving",
  order: "Skill Step: order the damage modifiers",
  "react-resolution": "React window (skill resolved)",
  "end-skill": "End of the Skill Step",
  over: "Game over",
};
const MAX_HP = 30;

export function stepText(ctx) {
  const v = ctx.view;
  if (v.step === "over") return `Turn ${v.turn_no}`; // the header says "Game over" itself
  return `Turn ${v.turn_no} · ${ctx.names(v.turn)}'s turn · ${STEPS[v.step] || v.step}`;
}

function info(ctx, id) {
  return ctx.cards[id] || { id, name: id, kind: "card", lines: [], data: {} };
}

function cardName(ctx, id) {
  return info(ctx, id).name;
}

function skillLine(skill) {
  return el("li", { class: "skill" }, el("span", { class: "skill-name" }, skill.name), typeTag(skill.type), el("span", { class: "dmg" }, `${skill.damage} dmg`));
}

function personaCard(ctx, id, attrs, compact = false) {
  const card = info(ctx, id);
  const d = card.data || {};
  const kind = card.kind;
  const parts = [el("span", { class: "cname" }, card.name)];
  if (kind === "persona") {
    const meta = [el("span", { class: "cost" }, d.cost ? `Cost ${d.cost}` : "Free")];
    if (d.weakness) meta.push(el("span", { class: "weak" }, "Weak: ", typeTag(d.weakness)));
    else meta.push(el("span", { class: "weak none" }, "No weakness"));
    parts.push(el("span", { class: "cmeta" }, ...meta));
    if (!compact && d.skills?.length) parts.push(el("ul", { class: "skills" }, ...d.skills.map(skillLine)));
    if (!compact && d.abilities?.length) {
      parts.push(el("span", { class: "abilities" }, `Ability: ${d.abilities.map((a) => a.name).join(", ")}`));
    }
  } else {
    const when = kind === "react" ? (d.timing === "declaration" ? " · on declaration" : " · on resolution") : "";
    parts.push(el("span", { class: "cmeta" }, `${kind === "support" ? "Support" : kind === "react" ? "React" : kind}${when}`));
    if (card.lines[1]) parts.push(el("span", { class: "effect" }, card.lines[1]));
  }
  return el("div", { class: `card kind-${kind}`, "data-card": id, ...attrs }, ...parts);
}

function slotView(ctx, seat, slot) {
  const stack = ctx.view.field[seat][slot];
  const ref = `field:${seat}:${slot}`;
  const label = `${ctx.names(seat)}'s ${SLOTS[slot].toLowerCase()}`;
  if (!stack.length) {
    return el(
      "div",
      { class: `slot slot-${SLOT_CODES[slot]}` },
      el("span", { class: "slot-name" }, SLOTS[slot]),
      el("div", { class: "empty", "data-ref": ref, "aria-label": `${label}: empty` }, el("span", { class: "empty-text" }, "empty")),
    );
  }
  const top = stack[stack.length - 1];
  const node = el("div", { class: `slot slot-${SLOT_CODES[slot]}` }, el("span", { class: "slot-name" }, SLOTS[slot]));
  node.append(personaCard(ctx, top, { "data-ref": ref, "aria-label": `${label}: ${cardName(ctx, top)}` }, slot !== 0 && ctx.compact));
  if (stack.length > 1) {
    const under = stack.slice(0, -1);
    node.append(
      el(
        "details",
        { class: "under" },
        el("summary", {}, `${under.length} fused card${under.length > 1 ? "s" : ""} under it`),
        el(
          "ul",
          {},
          ...under
            .map((id, depth) => el("li", { class: "chip", "data-card": id, "data-ref": `stack:${seat}:${slot}:${depth}`, "aria-label": `${cardName(ctx, id)}, fused under ${cardName(ctx, top)}` }, cardName(ctx, id)))
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
  const meter = el("span", { class: "hpbar", role: "meter", "aria-valuemin": "0", "aria-valuemax": String(MAX_HP), "aria-valuenow": String(hp), "aria-label": "HP" }, el("span", { class: "hpfill", style: `width:${Math.max(0, Math.min(100, (hp / MAX_HP) * 100))}%` }));
  return el(
    "div",
    { class: `pbar${v.turn === seat ? " active" : ""}` },
    el("span", { class: "pname", "data-ref": `player:${seat}`, "data-card": pc || null }, `${ctx.names(seat)}${you ? " (you)" : ""}`, pc ? el("small", {}, ` ${cardName(ctx, pc)}`) : null),
    el("span", { class: "hp" }, icon("hp"), ` HP ${hp}`, meter),
    el("span", { class: "pile", "data-ref": `deck:${seat}`, "aria-label": `${ctx.names(seat)}'s deck: ${v.deck_sizes[seat]} cards` }, icon("deck"), ` Deck ${v.deck_sizes[seat]}`),
    el("span", { class: "pile", "data-ref": `discard:${seat}`, "aria-label": `${ctx.names(seat)}'s discard pile: ${discard.length} cards` }, icon("discard"), ` Discard ${discard.length}`),
    el("span", { class: "pile" }, icon("hand"), ` Hand ${v.hand_sizes[seat]}`),
  );
}

function discardList(ctx, seat) {
  const pile = ctx.view.discard[seat];
  if (!pile.length) return null;
  return el(
    "details",
    { class: "discard-list" },
    el("summary", {}, `${ctx.names(seat)}'s discard pile (${pile.length})`),
    el("ul", {}, ...[...pile].reverse().map((id) => el("li", { class: "chip", "data-card": id }, cardName(ctx, id)))),
  );
}

function side(ctx, seat, where) {
  return el(
    "section",
    { class: `side-p side-${where}`, "aria-label": `${ctx.names(seat)}${ctx.seat === seat ? " (you)" : ""}` },
    playerBar(ctx, seat),
    el("div", { class: "vs-field" }, ...[0, 1, 2].map((slot) => slotView(ctx, seat, slot))),
    discardList(ctx, seat),
  );
}

function skillInPlay(ctx) {
  const v = ctx.view;
  if (!v.skill) return null;
  const [slot, id, k] = v.skill;
  const skill = info(ctx, id).data?.skills?.[k];
  const who = ctx.names(v.turn);
  const words = skill ? [el("strong", {}, skill.name), " (", typeTag(skill.type), `, ${skill.damage} damage)`] : ["a skill"];
  const slotWord = SLOTS[SLOT_CODES.indexOf(slot)]?.toLowerCase() || slot;
  const whose = v.turn === ctx.seat ? "Your" : `${who}'s`;
  return el("span", {}, `${whose} ${slotWord} ${cardName(ctx, id)} uses `, ...words);
}

function centre(ctx) {
  const v = ctx.view;
  const rows = [];
  const inReact = v.step === "react-declaration" || v.step === "react-resolution";
  const skill = skillInPlay(ctx);
  if (inReact) {
    const answering = ctx.toMove === null ? "Nobody" : ctx.toMove === ctx.seat ? "You" : ctx.names(ctx.toMove);
    const when = v.step === "react-declaration" ? "just declared" : "resolved";
    rows.push(
      el(
        "p",
        { class: "react-window", role: "status" },
        el("strong", {}, "React window: "),
        `${answering} may answer with a React or play none. `,
        skill || "A skill",
        ` (${when}). `,
        el("span", { class: "countdown", "data-countdown": "" }),
      ),
    );
  } else if (skill) {
    rows.push(el("p", { class: "skill-now" }, skill, v.dmg ? ` · damage so far ${v.dmg}` : ""));
  }
  const frame = v.frames?.[v.frames.length - 1];
  if (frame && frame[0] === "pay") {
    // ["pay", player, card, fusion mask (-1: a summon), units left, named card owed]
    const [, payer, id, mask, left, named] = frame;
    const who = payer === ctx.seat ? "You are" : `${ctx.names(payer)} is`;
    const owed = named ? ` and a persona named ${named}` : "";
    rows.push(
      el("p", { class: "paying" }, `${who} paying for `, el("strong", { "data-card": id }, cardName(ctx, id)), ` (${mask >= 0 ? "fusion" : "summon"}): ${left} left to pay${owed}.`),
    );
  }
  if (v.negated) rows.push(el("p", {}, "The skill's damage is negated."));
  const damage = (ctx.events || []).filter((e) => ["damage", "no_damage", "heal", "weakness", "one_more"].includes(e.kind));
  for (const e of damage.slice(-3)) rows.push(el("p", { class: `last ev-${e.kind}` }, e.text));
  if (v.winner >= 0 && v.winner <= 1) rows.push(el("p", { class: "winner" }, `${ctx.names(v.winner)} wins.`));
  if (!rows.length) return null; // the step is in the table's header
  return el("div", { class: "centre" }, ...rows);
}

function handView(ctx) {
  const v = ctx.view;
  if (ctx.seat === null) return null; // spectators see no hand
  const cards = v.hand.map((id, i) => personaCard(ctx, id, { "data-ref": `hand:${i}`, "aria-label": cardName(ctx, id) }));
  return el(
    "section",
    { class: "hand", "aria-label": "Your hand" },
    el("h2", {}, `Your hand (${v.hand.length})`),
    el("div", { class: "hand-cards" }, ...(cards.length ? cards : [el("p", {}, "No cards.")])),
  );
}

export function renderBoard(root, ctx) {
  const me = ctx.seat ?? 0;
  const rival = 1 - me;
  ctx.compact = window.innerWidth < 700;
  root.classList.add("vs-board");
  root.append(...[side(ctx, rival, "top"), centre(ctx), side(ctx, me, "bottom"), handView(ctx)].filter(Boolean));
}
