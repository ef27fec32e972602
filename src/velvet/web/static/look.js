// The table's look and feel, set by the player in the header's "Look" menu and kept in
// localStorage (velvet.look): the theme, sound (off until turned on), turn notifications
// (off until turned on, which asks the browser) and motion.
//
//   installLook(node)        draws the menu into node and applies the saved settings
//   lookAtState(msg, seat)   after the table drew a state: its sounds and motions
//   lookAtOver(msg, seat)    the game's end: the victory sound for a seat that won
//
// Motion only shows what the log already says (the log stays the record); sound is
// synthesised with WebAudio, no audio files. Neither runs under prefers-reduced-motion
// (motion) or until the player turns it on (sound).

import { el } from "./dom.js";
import { t } from "./i18n.js";

const STORE = "velvet.look";
export const THEMES = new Set(["velvet", "phantom", "midnight", "contrast"]);
export const SPEEDS = new Set(["normal", "fast", "slow", "off"]);
// the themes' and speeds' names in the page's language (the catalogue sees each literal)
const themeWords = () => ({
  velvet: t("Velvet (dark)"),
  phantom: t("Phantom (red and black)"),
  midnight: t("Midnight TV (yellow)"),
  contrast: t("High contrast"),
});
const speedWords = () => ({ normal: t("Normal"), fast: t("Fast"), slow: t("Slow"), off: t("Off") });
const DEFAULTS = { theme: "velvet", sound: false, motion: "normal", notify: false };

export function settings() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || "{}");
    const out = { ...DEFAULTS, ...saved };
    if (!THEMES.has(out.theme)) out.theme = DEFAULTS.theme;
    if (!SPEEDS.has(out.motion)) out.motion = DEFAULTS.motion;
    out.sound = out.sound === true;
    out.notify = out.notify === true;
    return out;
  } catch {
    return { ...DEFAULTS };
  }
}

function save(change) {
  const next = { ...settings(), ...change };
  try {
    localStorage.setItem(STORE, JSON.stringify(next));
  } catch {
    // a private window may refuse: the choice holds for this page
  }
  apply(next);
  return next;
}

function apply(s) {
  const root = document.documentElement;
  root.dataset.theme = s.theme;
  root.dataset.motion = s.motion;
  root.dataset.sound = s.sound ? "on" : "off";
}

const reduced = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
const moving = () => settings().motion !== "off" && !reduced();

// --- the menu --------------------------------------------------------------------------
export function installLook(node) {
  const s = settings();
  apply(s);
  if (!node) return;
  const theme = el(
    "select",
    { id: "look-theme", onchange: (e) => save({ theme: e.target.value }) },
    ...Object.entries(themeWords()).map(([id, name]) => el("option", { value: id, selected: id === s.theme }, name)),
  );
  const speed = el(
    "select",
    { id: "look-motion", onchange: (e) => save({ motion: e.target.value }) },
    ...Object.entries(speedWords()).map(([id, name]) => el("option", { value: id, selected: id === s.motion }, name)),
  );
  const sound = el("input", {
    type: "checkbox",
    id: "look-sound",
    checked: s.sound,
    onchange: (e) => {
      save({ sound: e.target.checked });
      if (e.target.checked) play("turn"); // the click allows the audio; the player hears it is on
    },
  });
  const note = el("small", { class: "notify-note", role: "status" });
  const notify = el("input", {
    type: "checkbox",
    id: "look-notify",
    checked: s.notify && notifyPermission() === "granted",
    // The browser is asked only here, from the player's own click, never on its own.
    onchange: async (e) => {
      const box = e.target;
      note.textContent = "";
      if (!box.checked) {
        save({ notify: false });
        return;
      }
      if (!("Notification" in window)) {
        box.checked = false;
        note.textContent = t("This browser has no notifications.");
        return;
      }
      let answer = notifyPermission();
      if (answer !== "granted") {
        try {
          answer = await window.Notification.requestPermission();
        } catch {
          answer = "denied";
        }
      }
      box.checked = answer === "granted";
      save({ notify: box.checked });
      if (!box.checked) note.textContent = t("Notifications are blocked for this site: allow them in the browser's site settings.");
    },
  });
  node.replaceChildren(
    el(
      "details",
      { class: "look-menu" },
      el("summary", { class: "button quiet", "aria-label": t("Look: theme, sound, notifications and motion") }, t("Look")),
      el(
        "div",
        { class: "look-panel" },
        el("label", { for: "look-theme" }, t("Theme")),
        theme,
        el("label", { class: "look-check", for: "look-sound" }, sound, " ", t("Sound")),
        el("label", { class: "look-check", for: "look-notify" }, notify, " ", t("Notify me of my turn")),
        note,
        el("label", { for: "look-motion" }, t("Motion")),
        speed,
        reduced() ? el("small", {}, t("Your system asks for reduced motion: nothing moves.")) : null,
      ),
    ),
  );
}

// --- sound: WebAudio, made on the spot -------------------------------------------------
let audio = null;
function context() {
  if (!audio) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    audio = new Ctx();
  }
  if (audio.state === "suspended") audio.resume();
  return audio;
}

function tone(ctx, { freq, to, type = "sine", at = 0, length = 0.15, gain = 0.18 }) {
  const t = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, t + length);
  amp.gain.setValueAtTime(0.0001, t);
  amp.gain.exponentialRampToValueAtTime(gain, t + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

function noise(ctx, { at = 0, length = 0.05, gain = 0.25, band = 2500 }) {
  const t = ctx.currentTime + at;
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
  const src = ctx.createBufferSource();
  src.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = band;
  const amp = ctx.createGain();
  amp.gain.value = gain;
  src.connect(filter).connect(amp).connect(ctx.destination);
  src.start(t);
}

export const SOUNDS = {
  turn: (ctx) => {
    tone(ctx, { freq: 660, at: 0, length: 0.12 });
    tone(ctx, { freq: 990, at: 0.1, length: 0.2 });
  },
  dice: (ctx) => {
    for (let i = 0; i < 4; i++) noise(ctx, { at: i * 0.07 + Math.random() * 0.02, length: 0.04, band: 1800 + i * 500 });
  },
  damage: (ctx) => {
    tone(ctx, { freq: 220, to: 55, type: "square", length: 0.25, gain: 0.12 });
    noise(ctx, { length: 0.12, gain: 0.2, band: 400 });
  },
  victory: (ctx) => {
    [523, 659, 784, 1047].forEach((freq, i) => tone(ctx, { freq, type: "triangle", at: i * 0.12, length: i === 3 ? 0.5 : 0.14, gain: 0.2 }));
  },
};

/** Play a sound by name when the player turned sound on; returns whether it played. */
export function play(name) {
  if (!settings().sound || !SOUNDS[name]) return false;
  const ctx = context();
  if (!ctx) return false;
  SOUNDS[name](ctx);
  window.velvetSounds = [...(window.velvetSounds || []), name]; // what played, for tests
  return true;
}

// --- notifications: your turn, while the tab is in the background -----------------------
function notifyPermission() {
  return "Notification" in window ? window.Notification.permission : "unsupported";
}

/** Show "your turn" as a browser notification: only when the player turned it on in the
 *  Look menu (which asked the browser), the browser allowed it and the tab is hidden. */
export function notifyTurn(title, body, tag) {
  if (!settings().notify || !document.hidden || notifyPermission() !== "granted") return false;
  try {
    const shown = new window.Notification(title, { body, tag: `velvet-${tag}`, icon: "static/icon.svg" });
    shown.onclick = () => {
      window.focus();
      shown.close();
    };
  } catch {
    return false; // a browser that shows them only from a service worker
  }
  return true;
}

// --- motion: what moved, one event after another ---------------------------------------
// Each event kind names the element that moved; it gets the class "mv mv-KIND" and a
// delay by its place in the move's events. The classes go when the animation ends.
const STEP_MS = 140;

function shadowEl(board, id) {
  return board.querySelector(`[data-ref="shadow:${CSS.escape(String(id))}"]`) || (id === "boss" ? board.querySelector('[data-ref="boss"]') : null);
}

const MOVES = {
  summon: (board, d) => board.querySelector(`.vs-field [data-card="${CSS.escape(String(d.card))}"]`),
  draw: (board, d, events, seat) => {
    if (d.player !== seat) return null; // only this seat's hand is on the table
    const hand = [...board.querySelectorAll(".hand-cards > .vc")];
    return hand.slice(-Math.max(1, d.count || 1));
  },
  draw_persona: (board, d) => board.querySelector(`[data-ref="held:${d.player}:${CSS.escape(String(d.shadow))}"]`),
  damage: (board, d) => (d.target !== undefined ? shadowEl(board, d.target) : null),
  reveal: (board, d) => shadowEl(board, d.shadow),
  alert: (board) => board.querySelector(".p5-meter"),
  check: (board) => board.querySelector(".p5-tray"),
  dice: (board) => board.querySelector(".p5-tray"),
  defeat: (board, d, events) => stamp(board, ".p5-palace-wrap", t("Defeated: {name}", { name: nameIn(events, d) })),
  boss_defeated: (board) => stamp(board, ".p5-palace-wrap", t("The boss falls")),
};

function nameIn(events, d) {
  const text = (events.find((e) => e.kind === "defeat" && e.data === d) || {}).text || "";
  return /defeats? (.+?)[.!]?$/.exec(text)?.[1] || String(d.shadow || "a shadow");
}

// A word stamped over the part where something left the board (it is gone from the
// view already): aria-hidden, the log says it.
function stamp(board, where, words) {
  const host = board.querySelector(where);
  if (!host) return null;
  const node = el("div", { class: "mv-stamp", "aria-hidden": "true" }, words);
  host.append(node);
  node.addEventListener("animationend", () => node.remove());
  setTimeout(() => node.remove(), 6000);
  return node;
}

let hpBefore = new Map();
let lastVersion = null;
let lastToMove = null;
let sawPlay = false;

function hpNow(board) {
  const out = new Map();
  board.querySelectorAll(".hp-gauge").forEach((g, i) => out.set(i, g.querySelector(".hp-n")?.textContent));
  return out;
}

/** Sounds and motion for a state the table has just drawn. */
export function lookAtState(msg, seat) {
  const board = document.querySelector(".layout .board") || document.querySelector(".board");
  const fresh = msg.version !== lastVersion;
  // another room, or a game taken back: nothing to compare the gauges with
  if (lastVersion === null || msg.version < lastVersion) hpBefore = new Map();
  lastVersion = msg.version;
  const events = fresh ? msg.events || [] : [];
  if (msg.status !== "over") sawPlay = true;
  // sounds: a turn that becomes mine, dice, damage
  const mine = seat !== null && seat !== undefined && msg.to_move === seat && (msg.legal || []).length > 0;
  if (fresh && mine && lastToMove !== seat) play("turn");
  lastToMove = mine ? seat : msg.to_move;
  if (events.some((e) => e.kind === "dice" || e.kind === "check")) play("dice");
  else if (events.some((e) => e.kind === "damage")) play("damage");
  if (!board) return;
  const hp = hpNow(board);
  const moved = [];
  // a board that animates its own events (data-motion="own", through motion.js) is left alone
  if (fresh && moving() && board.dataset.motion !== "own") {
    events.forEach((e, i) => {
      const how = MOVES[e.kind];
      const target = how ? how(board, e.data || {}, events, seat) : null;
      for (const node of [target].flat().filter(Boolean)) moved.push([node, e.kind, i]);
    });
    // VS damage: the gauges whose number changed
    hp.forEach((n, i) => {
      if (hpBefore.has(i) && hpBefore.get(i) !== n) {
        const gauge = board.querySelectorAll(".hp-gauge")[i];
        const at = Math.max(0, events.findIndex((e) => e.kind === "damage"));
        if (gauge) moved.push([gauge, Number(n) < Number(hpBefore.get(i)) ? "damage" : "heal", at]);
      }
    });
  }
  hpBefore = hp;
  for (const [node, kind, i] of moved) {
    node.style.setProperty("--mv-delay", `${i * STEP_MS}ms`); // CSSOM: allowed by the CSP
    node.classList.add("mv", `mv-${kind}`);
    node.addEventListener("animationend", () => node.classList.remove("mv", `mv-${kind}`), { once: true });
  }
  board.dataset.moved = String(moved.length);
}

/** The end of a game: the victory sound for a seat that won (not for an old game opened). */
export function lookAtOver(msg, seat) {
  const returns = (msg.result && msg.result.returns) || [];
  if (!sawPlay || seat === null || seat === undefined || returns.length <= seat) return;
  const mine = returns[seat];
  if (mine > 0 && returns.every((r) => r <= mine)) play("victory");
}
