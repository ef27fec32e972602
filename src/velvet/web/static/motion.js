// Motion that explains: a queue of small Web Animations, one step after another, each
// showing what one engine event moved (a card flying in, a gauge taking a hit, a number
// popping). The log stays the source of truth: nothing here is the only place a fact is
// said, and every added node is aria-hidden.
//
//   play(steps)   queue steps [{kind, node, from?, text?, tone?}] after what is running
//   cancel()      stop everything at once (the board is about to be drawn again)
//   idle()        a promise for the end of what is queued
//   scale()       the duration factor from the Look menu's Motion setting; 0: none
//
// Kinds: "fly" (node comes from the rect `from`), "hit" (a shake and a flash), "pop"
// (text rises over node and fades), "pulse", "glow", "fall" (node sinks and greys).
// Under prefers-reduced-motion or with Motion "Off" nothing is animated at all.
// Only transform and opacity are animated, so the compositor does the work, not the page.

const SCALES = { slow: 1.7, normal: 1, fast: 0.5, off: 0 };
const BASE_MS = { fly: 420, hit: 360, pop: 700, pulse: 320, glow: 420, fall: 600 };
const OVERLAP = 0.55; // the next step starts when this share of the one before has run

let running = [];
let clock = 0; // ms from now at which the next step starts
let clockAt = 0;
let played = 0;
let layered = [];

// The queue is over: its movers go back to the page's layer, once, all together.
function settle() {
  for (const node of layered) node.style.willChange = "";
  layered = [];
}

const reduced = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

/** How long the motion takes relative to normal: 0 when nothing may move. */
export function scale() {
  if (reduced()) return 0;
  let word = document.documentElement.dataset.motion;
  if (!word) {
    try {
      word = JSON.parse(localStorage.getItem("velvet.look") || "{}").motion;
    } catch {
      word = "normal";
    }
  }
  return SCALES[word] ?? 1;
}

function centreShift(from, to) {
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const s = to.width ? Math.max(0.3, Math.min(1.5, from.width / to.width)) : 1;
  return `translate(${dx.toFixed(1)}px, ${dy.toFixed(1)}px) scale(${s.toFixed(2)})`;
}

function popNode(at, text, tone) {
  const tag = document.createElement("span");
  tag.className = `mo-pop${tone ? ` mo-${tone}` : ""}`;
  tag.setAttribute("aria-hidden", "true");
  tag.textContent = text;
  // CSSOM, not a style attribute: allowed by the page's CSP
  Object.assign(tag.style, { position: "absolute", zIndex: "40", pointerEvents: "none", fontWeight: "900", fontStyle: "italic", fontSize: "1.6rem", textShadow: "0 2px 0 #000, 0 0 6px #000" });
  tag.style.left = `${(at.left + at.width / 2 + window.scrollX).toFixed(1)}px`;
  tag.style.top = `${(at.top + at.height / 3 + window.scrollY).toFixed(1)}px`;
  return tag;
}

// The keyframes of a step; `box` is its node's rect (null: only asking whether the kind exists).
function frames(step, box) {
  switch (step.kind) {
    case "fly":
      return step.from && box
        ? [{ transform: centreShift(step.from, box), opacity: 0.4 }, { transform: "translate(0, 0) scale(1.06)", opacity: 1, offset: 0.8 }, { transform: "none", opacity: 1 }]
        : [{ transform: "translateY(40px) scale(.7)", opacity: 0 }, { transform: "none", opacity: 1 }];
    case "hit":
      return [
        { transform: "none", opacity: 1 },
        { transform: "translateX(-7px) scale(1.04)", opacity: 0.55, offset: 0.2 },
        { transform: "translateX(6px)", opacity: 1, offset: 0.45 },
        { transform: "translateX(-3px)", offset: 0.7 },
        { transform: "none", opacity: 1 },
      ];
    case "pop":
      return [
        { transform: "translate(-50%, 0) scale(.6)", opacity: 0 },
        { transform: "translate(-50%, -14px) scale(1.15)", opacity: 1, offset: 0.25 },
        { transform: "translate(-50%, -44px) scale(1)", opacity: 0 },
      ];
    case "pulse":
      return [{ transform: "none" }, { transform: "scale(1.12)", offset: 0.4 }, { transform: "none" }];
    case "glow":
      return [{ transform: "none", opacity: 1 }, { transform: "scale(1.05)", opacity: 0.7, offset: 0.3 }, { transform: "scale(1.02)", opacity: 1, offset: 0.6 }, { transform: "none", opacity: 1 }];
    case "fall":
      return [{ transform: "none", opacity: 1 }, { transform: "translateY(10px) rotate(-1.5deg)", opacity: 0.45 }];
    default:
      return null;
  }
}

/** Queue steps after those running; returns how many were animated. */
export function play(steps) {
  const k = scale();
  if (!k || typeof Element.prototype.animate !== "function") return 0;
  const now = performance.now();
  clock = Math.max(0, clock - (now - clockAt)); // what is left of the queue
  clockAt = now;
  // Read every rect first, then write: one layout for the whole queue, not one a step.
  const live = steps.filter((step) => step && step.node && step.node.isConnected && frames(step, null) !== null);
  const boxes = live.map((step) => step.node.getBoundingClientRect());
  const pops = document.createDocumentFragment();
  const plans = live.map((step, i) => {
    const target = step.kind === "pop" ? popNode(boxes[i], step.text || "", step.tone) : step.node;
    if (step.kind === "pop") pops.append(target);
    return [step, target, frames(step, boxes[i])];
  });
  document.body.append(pops);
  // every mover on its own layer from the start: no repaint of the page when one begins
  for (const [, target] of plans) {
    target.style.willChange = "transform, opacity";
    layered.push(target);
  }
  for (const [step, target, keys] of plans) {
    const duration = (BASE_MS[step.kind] || 400) * k;
    // A fly or a pop holds its start while it waits its turn (the card is not yet there,
    // the number not yet shown); the others start from the board as drawn, so they hold
    // nothing (a later step on the same node must not override an earlier one while it
    // waits). None leaves a fill behind, but a fall stays where it fell.
    const fill = { fly: "backwards", pop: "backwards", fall: "both" }[step.kind] || "none";
    // the id names the step's kind (document.getAnimations() shows what moves, for tests)
    const anim = target.animate(keys, { id: step.kind, duration, delay: clock, easing: step.kind === "fly" ? "cubic-bezier(.2,.8,.2,1)" : "ease-out", fill });
    const done = () => {
      if (step.kind === "pop") target.remove();
      running = running.filter((a) => a !== anim);
      if (!running.length) settle();
    };
    anim.finished.then(done, done);
    running.push(anim);
    clock += duration * OVERLAP;
    played += 1;
  }
  return plans.length;
}

/** Stop everything: the elements go back to the board as it is drawn. */
export function cancel() {
  for (const anim of running) anim.cancel();
  running = [];
  clock = 0;
  settle();
  for (const tag of document.querySelectorAll(".mo-pop")) tag.remove();
}

/** A promise for the end of everything queued so far. */
export function idle() {
  return Promise.allSettled(running.map((a) => a.finished)).then(() => undefined);
}

/** What has been animated since the page opened, and what still runs (for tests). */
export function stats() {
  return { played, running: running.length };
}
