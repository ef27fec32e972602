// The lobby: create a room (game, options, bots, custom decks and cards), invite links
// with copy buttons, the open rooms to watch, and your own seats to rejoin.

import { el } from "./dom.js";
import { toast } from "./table.js";
import { PROTOCOL_VERSION, socketUrl } from "./net.js";

const STORE = "velvet.seats";
const BOTS = [
  ["human", "A person"],
  ["easy", "Bot: easy"],
  ["normal", "Bot: normal"],
  ["hard", "Bot: hard"],
  ["greedy", "Bot: greedy"],
  ["random", "Bot: random"],
];

// --- remembered seats (localStorage) ---------------------------------------------------
// Each entry is a seat this browser holds: {room, seat, secret, game}. The secret is the one
// the server gave when this browser claimed the seat's invite (the invite opens nothing
// after that); it never goes into an address. Entries of earlier versions hold the invite
// as `token`: it is sent once, and claims the seat if nobody has.

export function savedSeats() {
  try {
    const list = JSON.parse(localStorage.getItem(STORE) || "[]");
    return Array.isArray(list) ? list.filter((s) => s && s.room && (s.secret || s.token)) : [];
  } catch {
    return [];
  }
}

export function seatKey(entry) {
  return entry.secret || entry.token;
}

export function saveSeat(entry) {
  const list = savedSeats().filter((s) => !(s.room === entry.room && s.seat === entry.seat));
  list.unshift({ ...entry, saved: Date.now() });
  try {
    localStorage.setItem(STORE, JSON.stringify(list.slice(0, 60)));
  } catch {
    /* storage off: nothing remembered */
  }
}

export function forgetSeat(room, seat) {
  try {
    localStorage.setItem(STORE, JSON.stringify(savedSeats().filter((s) => !(s.room === room && s.seat === seat))));
  } catch {
    /* storage off */
  }
}

// Claim an invite from this browser (a "one screen" room: every seat is played here):
// the server answers with this browser's secret for the seat.
export function claimInvite(room, token) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(socketUrl(room));
    const done = setTimeout(() => { ws.close(); reject(new Error("no answer from the server")); }, 10000);
    ws.onopen = () => ws.send(JSON.stringify({ v: PROTOCOL_VERSION, type: "hello", token }));
    ws.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type !== "welcome" && msg.type !== "error") return;
      clearTimeout(done);
      ws.close();
      if (msg.type === "error") reject(new Error(msg.message));
      else resolve({ seat: msg.seat, secret: msg.secret });
    };
    ws.onerror = () => { clearTimeout(done); reject(new Error("the server could not be reached")); };
  });
}

function forgetRoom(room) {
  localStorage.setItem(STORE, JSON.stringify(savedSeats().filter((s) => s.room !== room)));
}

export function joinHref(room, token) {
  return `join/${encodeURIComponent(room)}${token ? `#${token}` : ""}`;
}

// A seat this browser holds: the room's page finds the secret in localStorage.
export function seatHref(room, seat) {
  return `join/${encodeURIComponent(room)}?seat=${seat}`;
}

async function copy(text, input) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    input?.select();
    document.execCommand?.("copy");
  }
  toast("Link copied.", "info");
}

// --- the page ------------------------------------------------------------------------------

export function renderLobby(main) {
  const form = createForm();
  const result = el("section", { class: "created", "aria-live": "polite" });
  const rooms = el("section", { class: "rooms" }, el("h2", {}, "Open rooms"), el("p", {}, "Loading…"));
  let mine = mySeats();
  main.replaceChildren(
    el(
      "div",
      { class: "lobby" },
      el(
        "section",
        { class: "create" },
        el("h2", {}, "New game"),
        form.node,
        el("p", { class: "learn-link" }, "New to the games? ", el("a", { href: "learn" }, "Learn them"), " in short lessons."),
      ),
      el("div", { class: "lobby-right" }, result, mine, rooms),
    ),
  );
  form.onCreated = (created, game, seats, oneScreen) => {
    showCreated(result, created, game, seats, oneScreen);
    const fresh = mySeats();
    mine.replaceWith(fresh);
    mine = fresh;
    loadRooms(rooms);
  };
  loadRooms(rooms);
}

function field(label, control, id, help) {
  control.id = id;
  const error = el("p", { class: "field-error", id: `${id}-error`, hidden: true });
  control.setAttribute("aria-describedby", `${id}-error`);
  return el("div", { class: "field", dataset: { field: id } }, el("label", { for: id }, label), control, help ? el("small", {}, help) : null, error);
}

function select(options, value) {
  return el("select", {}, ...options.map(([v, text]) => el("option", { value: v, selected: v === value }, text)));
}

// Fill the P5 set-up lists from the server: {kind: [select, ...]}; defaults gets the
// default card of each seat (the game's default set-up: the n-th of each list).
async function loadChoices(controls, defaults) {
  let choices = {};
  try {
    const answer = await fetch("api/games/p5/choices");
    if (!answer.ok) throw new Error(`the server answered ${answer.status}`);
    choices = (await answer.json()).choices || {};
  } catch (error) {
    for (const list of Object.values(controls)) for (const c of list) c.title = `The choices could not be loaded (${error.message}): the default is used.`;
    return;
  }
  for (const [kind, list] of Object.entries(controls)) {
    const items = choices[kind] || [];
    if (kind in defaults) defaults[kind] = list.map((_, i) => (items.length ? items[i % items.length].id : ""));
    list.forEach((control, i) => {
      const first = items.length ? items[kind in defaults ? i % items.length : 0] : null;
      control.replaceChildren(
        el("option", { value: "" }, first ? `Default: ${first.name}` : "Default"),
        ...items.map((item) => el("option", { value: item.id }, item.name)),
      );
    });
  }
}

function createForm() {
  const game = select([["vs", "Persona VS (2 players)"], ["p5", "Persona 5 board game (co-op, 1–2)"]], "vs");
  const seat1 = select(BOTS, "human");
  const seat2 = select([...BOTS, ["none", "Nobody (P5 solo)"]], "normal");
  const pc1 = el("input", { list: "player-cards", placeholder: "p5", autocomplete: "off" });
  const pc2 = el("input", { list: "player-cards", placeholder: "p4", autocomplete: "off" });
  const first = select([["random", "Random"], ["1", "Player 1"], ["2", "Player 2"]], "random");
  const secondDraws = select([["0", "No (the rulebook)"], ["1", "1 more card"], ["2", "2 more cards"]], "0");
  const deck1 = el("input", { type: "file", accept: ".toml,text/plain" });
  const deck2 = el("input", { type: "file", accept: ".toml,text/plain" });
  // P5 set-up: lists of the server's own choices (GET api/games/p5/choices), "Default"
  // first: the seat's card in the game's default set-up.
  const thief1 = select([["", "Default"]], "");
  const thief2 = select([["", "Default"]], "");
  const persona1 = select([["", "Default"]], "");
  const persona2 = select([["", "Default"]], "");
  const palace = select([["", "Default"]], "");
  const p5Defaults = { thieves: [], personas: [] };
  loadChoices({ thieves: [thief1, thief2], personas: [persona1, persona2], palaces: [palace] }, p5Defaults);
  const cards = el("input", { type: "file", accept: ".toml,text/plain", multiple: true });
  const timer = el("input", { type: "number", min: "5", max: "86400", placeholder: "none", inputmode: "numeric" });
  const listed = el("input", { type: "checkbox", checked: true });
  const hotseat = el("input", { type: "checkbox" });
  const undo = el("input", { type: "checkbox", checked: true });
  const hints = select([["auto", "On, except Persona VS between two people"], ["on", "On"], ["off", "Off"]], "auto");
  const general = el("p", { class: "form-error", role: "alert", hidden: true });
  const submit = el("button", { type: "submit", class: "primary" }, "Create the room");

  const vsBox = el(
    "fieldset",
    { class: "options-vs" },
    el("legend", {}, "Persona VS"),
    field("Player 1's player card", pc1, "player_card_1"),
    field("Player 2's player card", pc2, "player_card_2"),
    field("Who goes first", first, "first"),
    field("Second player draws extra", secondDraws, "second_draws", "A Velvet option against the first player's edge (docs/lab.md)."),
    field("Player 1's deck (TOML file)", deck1, "deck_1", "Empty: the player card's built-in deck."),
    field("Player 2's deck (TOML file)", deck2, "deck_2"),
  );
  const p5Box = el(
    "fieldset",
    { class: "options-p5", hidden: true },
    el("legend", {}, "Persona 5 board game"),
    el("div", { class: "row" }, field("Player 1's thief", thief1, "thief_1"), field("Player 1's persona", persona1, "persona_1")),
    el("div", { class: "row" }, field("Player 2's thief", thief2, "thief_2"), field("Player 2's persona", persona2, "persona_2")),
    field("Palace", palace, "palace"),
  );
  const node = el(
    "form",
    { class: "create-form", novalidate: true },
    el("datalist", { id: "player-cards" }, ...["p5", "p4", "p3"].map((v) => el("option", { value: v }))),
    field("Game", game, "game"),
    el("div", { class: "row" }, field("Seat 1", seat1, "seat_1"), field("Seat 2", seat2, "seat_2")),
    vsBox,
    p5Box,
    el(
      "details",
      { class: "more" },
      el("summary", {}, "More options"),
      field("Custom card files (TOML, up to 2)", cards, "cards", "They extend or replace the built-in cards."),
      field("Seconds per decision", timer, "turn_timer", "When they run out a bot makes that one move."),
      el("div", { class: "field check" }, listed, el("label", { for: "listed" }, "Show this room in the lobby")),
      el("div", { class: "field check" }, hotseat, el("label", { for: "hotseat" }, "One screen: every seat is played from this browser (everyone sees that the room is one-screen)")),
      el("div", { class: "field check" }, undo, el("label", { for: "undo" }, "Allow undo (with two people, only when both agree)")),
      field("Hints", hints, "hints", "A Hint button shows the hard bot's three best choices with their chance to win and why (and in P5 a Forecast)."),
    ),
    general,
    submit,
  );
  listed.id = "listed";
  hotseat.id = "hotseat";
  undo.id = "undo";
  const api = { node, onCreated: null };

  game.addEventListener("change", () => {
    const p5 = game.value === "p5";
    vsBox.hidden = p5;
    p5Box.hidden = !p5;
    if (!p5 && seat2.value === "none") seat2.value = "normal";
  });

  const fields = { game, seat_1: seat1, seat_2: seat2, player_card_1: pc1, player_card_2: pc2, first, second_draws: secondDraws, deck_1: deck1, deck_2: deck2, thief_1: thief1, thief_2: thief2, persona_1: persona1, persona_2: persona2, palace, cards, turn_timer: timer, hints };
  const clear = () => {
    general.hidden = true;
    for (const node of document.querySelectorAll(".field-error")) node.hidden = true;
    for (const control of Object.values(fields)) control.removeAttribute("aria-invalid");
  };
  const show = (message) => {
    const id = fieldOf(message, game.value);
    const control = id && fields[id];
    if (control) {
      const box = document.getElementById(`${id}-error`);
      box.textContent = message;
      box.hidden = false;
      control.setAttribute("aria-invalid", "true");
      control.closest("details")?.setAttribute("open", "");
      control.focus();
    } else {
      general.textContent = message;
      general.hidden = false;
    }
  };

  node.addEventListener("submit", async (event) => {
    event.preventDefault();
    clear();
    const isP5 = game.value === "p5";
    const seats = [seat1.value];
    if (seat2.value !== "none") seats.push(seat2.value);
    if (!isP5 && seats.length < 2) return show("seats: Persona VS needs two seats");
    const body = { game: game.value, seats, listed: listed.checked, undo: undo.checked ? "solo" : "off" };
    if (hotseat.checked) body.hotseat = true;
    if (timer.value) body.turn_timer = Number(timer.value);
    if (hints.value !== "auto") body.hints = hints.value;
    try {
      const files = [...cards.files].slice(0, 2);
      if (cards.files.length > 2) return show("cards: at most 2 custom card files");
      if (files.length) body.cards = await Promise.all(files.map((f) => f.text()));
      if (isP5) {
        body.players = seats.length;
        // A seat left at "Default" gets its default card when the other seat picks one.
        const picked = (controls, defaults) => {
          const values = controls.slice(0, seats.length).map((c, i) => c.value || defaults[i] || "");
          return controls.slice(0, seats.length).some((c) => c.value) ? values : null;
        };
        const thieves = picked([thief1, thief2], p5Defaults.thieves);
        if (thieves) body.thieves = thieves;
        const personas = picked([persona1, persona2], p5Defaults.personas);
        if (personas) body.personas = personas;
        if (palace.value) body.palace = palace.value;
      } else {
        const pcs = [pc1.value.trim(), pc2.value.trim()];
        if (pcs.some(Boolean)) body.player_cards = [pcs[0] || "p5", pcs[1] || "p4"];
        body.first = first.value;
        if (secondDraws.value !== "0") body.second_draws = secondDraws.value;
        const decks = [deck1.files[0], deck2.files[0]];
        if (decks.some(Boolean)) body.decks = await Promise.all(decks.map((f) => (f ? f.text() : null)));
      }
    } catch (error) {
      return show(`a file could not be read: ${error.message}`);
    }
    submit.disabled = true;
    try {
      const answer = await fetch("api/rooms", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      const data = await answer.json().catch(() => ({ message: `the server answered ${answer.status}` }));
      if (!answer.ok) return show(data.message || `the server answered ${answer.status}`);
      // One screen: this browser claims every seat now. Otherwise it claims none here: its
      // own seat is claimed when "Play as" opens it; the others' invites are to be sent.
      if (body.hotseat) {
        for (const invite of data.invites) {
          const got = await claimInvite(data.room, invite.token);
          saveSeat({ room: data.room, seat: got.seat, secret: got.secret, game: body.game });
        }
      }
      api.onCreated?.(data, body.game, seats, Boolean(body.hotseat));
    } catch (error) {
      show(`the server could not be reached (${error.message})`);
    } finally {
      submit.disabled = false;
    }
  });
  return api;
}

// Which form field a server error names (its messages say "deck of seat 2", "seats.1", …).
export function fieldOf(message, game) {
  const m = message.toLowerCase();
  let found;
  if ((found = /deck of seat (\d)/.exec(m)) || (found = /^decks\.(\d)/.exec(m))) return `deck_${Math.min(2, Number(found[1]) + (m.startsWith("decks.") ? 1 : 0))}`;
  if (/^hints/.test(m)) return "hints";
  if (/card file|^cards/.test(m)) return "cards";
  if ((found = /^seats\.(\d)/.exec(m))) return `seat_${Number(found[1]) + 1}`;
  if (/^seats|bot|seat/.test(m)) return "seat_1";
  if (/turn_timer/.test(m)) return "turn_timer";
  if (/^first/.test(m)) return "first";
  if (/second_draws/.test(m)) return "second_draws";
  if (/palace/.test(m)) return "palace";
  if (game === "p5" && /persona/.test(m)) return `persona_${(/player (\d)/.exec(m) || [0, 1])[1]}`;
  if (game === "p5" && (found = /player (\d)/.exec(m))) return `thief_${found[1]}`;
  if (/thie/.test(m)) return "thief_1";
  if ((found = /player_cards\.(\d)/.exec(m))) return `player_card_${Number(found[1]) + 1}`;
  if (/player card|player_card/.test(m)) {
    const which = /'([^']+)'/.exec(message);
    const pc2 = document.getElementById("player_card_2");
    return which && pc2 && pc2.value.trim() === which[1] ? "player_card_2" : "player_card_1";
  }
  if (/^game/.test(m)) return "game";
  return null;
}

function showCreated(box, created, game, seats, oneScreen) {
  const rows = created.invites.map((invite, index) => {
    const input = el("input", { readonly: true, value: invite.url, "aria-label": `${invite.name}'s invite link`, class: "link" });
    if (oneScreen) {
      // Claimed by this browser already: the invite is spent, so it is not shown.
      return el("li", {}, el("strong", {}, invite.name),
        el("span", { class: "link-row" }, el("small", {}, "This browser's seat"),
          el("a", { class: "button primary", href: seatHref(created.room, invite.seat) }, `Play as ${invite.name}`)));
    }
    // One screen: every seat is this browser's already. Otherwise only the first person's
    // seat is opened here; another seat's invite goes to its player (opened here, it would
    // be this browser's, and the friend would be told it was already used).
    const play = index === 0
        ? el("a", { class: "button primary", href: joinHref(created.room, invite.token) }, `Play as ${invite.name}`)
        : el("small", { class: "invite-note" }, "Send it; do not open it yourself");
    return el(
      "li",
      {},
      el("strong", {}, invite.name),
      el("span", { class: "link-row" }, input,
        el("button", { type: "button", onclick: () => copy(invite.url, input) }, "Copy"),
        play),
    );
  });
  const watch = el("input", { readonly: true, value: created.spectate, "aria-label": "Spectator link", class: "link" });
  const bots = seats.map((s, i) => (s === "human" ? null : el("li", {}, el("strong", {}, `Player ${i + 1}`), ` is played by the ${s} bot.`)));
  const say = oneScreen
    ? "One screen: every seat is played from this browser (the lobby and the other players see that the room is one-screen)."
    : "Each link opens one seat, once: the first browser (or velvet join) to open it keeps the seat. Keep yours, send the other to a friend; if someone else opened it first, your friend is told it was already used.";
  box.replaceChildren(
    el("h2", {}, `Room ${created.room} (${game.toUpperCase()}) is ready`),
    el("p", {}, say),
    el("ul", { class: "invites" }, ...rows, ...bots,
      el("li", {}, el("strong", {}, "Spectators"), el("span", { class: "link-row" }, watch,
        el("button", { type: "button", onclick: () => copy(created.spectate, watch) }, "Copy"),
        el("a", { class: "button", href: joinHref(created.room, null) }, "Watch")))),
  );
  box.querySelector("a.primary")?.focus();
}

function mySeats() {
  const seats = savedSeats();
  const box = el("section", { class: "mine" }, el("h2", {}, "Your games"));
  if (!seats.length) {
    box.append(el("p", {}, "Rooms you create or join in this browser are listed here to rejoin."));
    return box;
  }
  const byRoom = new Map();
  for (const s of seats) {
    if (!byRoom.has(s.room)) byRoom.set(s.room, []);
    byRoom.get(s.room).push(s);
  }
  const list = el("ul", { class: "room-list" });
  for (const [room, entries] of byRoom) {
    const item = el(
      "li",
      {},
      el("span", { class: "room-name" }, `${(entries[0].game || "").toUpperCase()} room ${room}`),
      ...entries
        .sort((a, b) => a.seat - b.seat)
        .map((s) => el("a", { class: "button", href: seatHref(room, s.seat) }, `Rejoin as Player ${s.seat + 1}`)),
      el("button", { type: "button", class: "quiet", onclick: () => { forgetRoom(room); item.remove(); } }, "Forget"),
    );
    list.append(item);
    if (list.children.length <= 12) markFinished(item, room, entries[0].seat);
  }
  box.append(list);
  return box;
}

// A finished game says so and offers its replay (the room opens on it: ?replay).
async function markFinished(item, room, seat) {
  try {
    const answer = await fetch(`api/rooms/${encodeURIComponent(room)}`);
    if (!answer.ok || (await answer.json()).status !== "over") return;
  } catch {
    return;
  }
  const href = `join/${encodeURIComponent(room)}?replay&seat=${seat}`;
  item.querySelector(".room-name")?.after(
    el("span", { class: "badge" }, "finished"),
    el("a", { class: "button", href }, "Watch the replay"),
  );
}

async function loadRooms(box) {
  let rooms = [];
  try {
    const answer = await fetch("api/rooms");
    rooms = answer.ok ? await answer.json() : [];
  } catch {
    box.replaceChildren(el("h2", {}, "Open rooms"), el("p", {}, "The server could not be reached."));
    return;
  }
  const list = el("ul", { class: "room-list" });
  for (const room of rooms.slice(0, 30)) {
    const person = (s) => (s.connected ? "a person (here)" : s.claimed ? "a person (away)" : "invite not used yet");
    const seats = room.seats.map((s) => `${s.name}: ${s.who === "human" ? person(s) : `bot ${s.who}`}`).join(" · ");
    list.append(
      el("li", {}, el("span", { class: "room-name" }, `${room.game.toUpperCase()} room ${room.room}`),
        room.hotseat ? el("span", { class: "badge one-screen", title: "Every seat is played from one browser" }, "one screen") : null,
        el("small", {}, ` move ${room.version} · ${seats} `),
        el("a", { class: "button", href: joinHref(room.room, null) }, "Watch")),
    );
  }
  box.replaceChildren(el("h2", {}, "Open rooms"), rooms.length ? list : el("p", {}, "No open rooms. Create one above."));
}
