// The lobby: create a room (a form built from the server's games, their options and bots;
// custom decks and cards), invite links with copy buttons, the open rooms to watch, and
// your own seats to rejoin.

import { el } from "./dom.js";
import { toast } from "./table.js";
import { PROTOCOL_VERSION, socketUrl } from "./net.js";
import { loadGames } from "./catalog.js";
import { renderFinder } from "./seeks.js";

const STORE = "velvet.seats";
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
        el("p", { class: "learn-link" }, "New to the games? ", el("a", { href: "learn" }, "Learn them"), " in short lessons, then try the ", el("a", { href: "puzzles" }, "puzzles"), "."),
      ),
      el("div", { class: "lobby-right" }, renderFinder(el("section", { class: "finder" })), result, mine, rooms),
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

// --- the create-room form, built from GET api/games -----------------------------------------
// Every game the server plays, its seat counts, bots and set-up options (the ConfigOptions
// `velvet play` shows as --NAME) come from the server: nothing here names a game, an option
// or a bot. An option's value goes into the request's `options` by its name; an error the
// server gives names its option (and seat), which puts it on that field.

const ROOM_FIELDS = new Set(["game", "seats", "cards", "turn_timer", "hints", "listed", "hotseat", "undo", "takeover", "grace", "players", "rated"]);

// The form field id of an option (of seat `seat`, 0-based, when it is per seat).
export function optionId(option, seat) {
  const base = ROOM_FIELDS.has(option.name) ? `option_${option.name}` : option.name;
  return option.multiple ? `${base}_${(seat ?? 0) + 1}` : base;
}

// Which field an error of the server names: its `option` (a room field or a game option)
// and `seat`; null: the form's general error line.
export function fieldOfError(data, game) {
  const name = data.option;
  if (!name) return null;
  if (name === "seats") return `seat_${(data.seat ?? 0) + 1}`;
  if (ROOM_FIELDS.has(name)) return name;
  const option = (game?.options || []).find((o) => o.name === name);
  return option ? optionId(option, data.seat) : null;
}


function seatCounts(game) {
  const low = Math.min(...game.players);
  const high = Math.max(...game.players);
  return low === high ? `${low}` : `${low}–${high}`;
}

function gameLabel(game) {
  if (game.cooperative) return `${game.short_title} (co-op, ${seatCounts(game)})`;
  return `${game.short_title} (${seatCounts(game)} players)`;
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// One option's control for one seat (seat null: an option that is not per seat).
function optionControl(option, seat) {
  if (option.kind === "path") return el("input", { type: "file", accept: ".toml,text/plain", dataset: { file: "1" } });
  const fallback = option.defaults[seat ?? 0];
  const named = (id) => option.choices.find((c) => c.id === id)?.name ?? id;
  if (!option.choices.length) return el("input", { placeholder: fallback ?? "", autocomplete: "off" });
  if (option.default !== null && !option.multiple) return select(option.choices.map((c) => [c.id, c.name]), option.default);
  return select([["", fallback ? `Default: ${named(fallback)}` : "Default"], ...option.choices.map((c) => [c.id, c.name])], "");
}

// The fields of a game's options: {node, read(players) -> options, controls: {id: control}}.
function optionFields(game) {
  const controls = {};
  const parts = [];
  const seats = Math.max(...game.players);
  for (const option of game.options) {
    if (option.multiple) {
      const fields = [];
      for (let seat = 0; seat < seats; seat++) {
        const id = optionId(option, seat);
        controls[id] = optionControl(option, seat);
        controls[id].title = option.help;
        controls[id].style.minWidth = "0"; // a long name is cut, not pushed past its column
        fields.push(field(`Player ${seat + 1}'s ${option.label}`, controls[id], id));
      }
      // per-seat lists side by side; files one under the other (a file's name needs the width)
      if (seats > 1 && option.kind !== "path") parts.push(el("div", { class: "row" }, ...fields));
      else parts.push(...fields);
    } else {
      const id = optionId(option, null);
      controls[id] = optionControl(option, null);
      parts.push(field(capital(option.label), controls[id], id, option.help));
    }
  }
  const node = el("fieldset", { class: "options", dataset: { game: game.name } }, el("legend", {}, game.short_title), ...parts);
  if (!game.options.length) node.hidden = true;

  // The request's `options` for `players` seats: a control left at its default is null
  // (per seat) or left out; a file goes as its text.
  async function value(control, option) {
    if (control.dataset.file) return control.files[0] ? { text: await control.files[0].text() } : null;
    const text = control.value.trim();
    if (!text || (!option.multiple && text === option.default)) return null;
    return text;
  }
  async function read(players) {
    const options = {};
    for (const option of game.options) {
      if (option.multiple) {
        const values = [];
        for (let seat = 0; seat < players; seat++) values.push(await value(controls[optionId(option, seat)], option));
        if (values.some((v) => v !== null)) options[option.name] = values;
      } else {
        const v = await value(controls[optionId(option, null)], option);
        if (v !== null) options[option.name] = v;
      }
    }
    return options;
  }
  return { node, read, controls };
}

function seatSelects(game, bots, keep) {
  const people = [["human", "A person"], ...bots.map((b) => [b, `Bot: ${b}`])];
  const low = Math.min(...game.players);
  const selects = [];
  for (let seat = 0; seat < Math.max(...game.players); seat++) {
    const choices = seat < low ? people : [...people, ["none", low === 1 ? "Nobody (solo)" : "Nobody"]];
    const fallback = seat === 0 ? "human" : bots.includes("normal") ? "normal" : people[people.length - 1][0];
    const kept = keep[seat];
    selects.push(select(choices, choices.some(([v]) => v === kept) ? kept : fallback));
  }
  return selects;
}

function createForm() {
  const game = select([], "");
  const seatRow = el("div", { class: "row seats" });
  const optionsBox = el("div", { class: "game-options" });
  const cards = el("input", { type: "file", accept: ".toml,text/plain", multiple: true });
  const timer = el("input", { type: "number", min: "5", max: "86400", placeholder: "none", inputmode: "numeric" });
  const listed = el("input", { type: "checkbox", checked: true });
  const hotseat = el("input", { type: "checkbox" });
  const undo = el("input", { type: "checkbox", checked: true });
  const rated = el("input", { type: "checkbox" });
  const ratedRow = el(
    "div",
    { class: "field check" },
    rated,
    el("label", { for: "rated" }, "Rated: between two signed-in people; the result changes both ratings (Glicko-2, on the leaderboard)"),
    el("p", { class: "field-error", id: "rated-error", hidden: true }),
  );
  rated.setAttribute("aria-describedby", "rated-error");
  const hints = select([["auto", "On, except between two people"], ["on", "On"], ["off", "Off"]], "auto");
  const general = el("p", { class: "form-error", role: "alert", hidden: true });
  const submit = el("button", { type: "submit", class: "primary" }, "Create the room");

  const node = el(
    "form",
    { class: "create-form", novalidate: true },
    field("Game", game, "game"),
    seatRow,
    optionsBox,
    el(
      "details",
      { class: "more" },
      el("summary", {}, "More options"),
      field("Custom card files (TOML, up to 2)", cards, "cards", "They extend or replace the built-in cards."),
      field("Seconds per decision", timer, "turn_timer", "When they run out a bot makes that one move."),
      el("div", { class: "field check" }, listed, el("label", { for: "listed" }, "Show this room in the lobby")),
      el("div", { class: "field check" }, hotseat, el("label", { for: "hotseat" }, "One screen: every seat is played from this browser (everyone sees that the room is one-screen)")),
      el("div", { class: "field check" }, undo, el("label", { for: "undo" }, "Allow undo (with two people, only when both agree)")),
      ratedRow,
      field("Hints", hints, "hints", "A Hint button shows the hard bot's three best choices, each with its chance to win if you play on like the easy bot, and why (and a Forecast where the game has one)."),
    ),
    general,
    submit,
  );
  listed.id = "listed";
  hotseat.id = "hotseat";
  undo.id = "undo";
  rated.id = "rated";
  // The form comes once the server has said which games it plays.
  const waiting = el("p", { class: "form-loading", role: "status" }, "Loading the games…");
  const api = { node: waiting, onCreated: null };

  let catalog = [];
  let chosen = null; // the chosen game's entry of GET api/games
  let seats = [];
  let options = null;
  const built = {}; // a game's option fields, kept while another game is chosen

  const current = () => catalog.find((g) => g.name === game.value);
  const showGame = () => {
    chosen = current();
    if (!chosen) return;
    clear(); // an error shown for the game left behind goes with it
    seats = seatSelects(chosen, chosen.bots, seats.map((s) => s.value));
    seatRow.replaceChildren(...seats.map((s, i) => field(`Seat ${i + 1}`, s, `seat_${i + 1}`)));
    options = built[chosen.name] ||= optionFields(chosen);
    optionsBox.replaceChildren(options.node);
    ratedRow.hidden = Boolean(chosen.cooperative) || Math.max(...chosen.players) < 2; // a rated game is between two people
    if (ratedRow.hidden) rated.checked = false;
    try {
      localStorage.setItem("velvet.game", chosen.name);
    } catch {
      /* storage off */
    }
  };
  game.addEventListener("change", showGame);

  loadGames()
    .then((games) => {
      catalog = games;
      let last = null;
      try {
        last = localStorage.getItem("velvet.game");
      } catch {
        /* storage off */
      }
      game.replaceChildren(...games.map((g) => el("option", { value: g.name, selected: g.name === last }, gameLabel(g))));
      const rivals = games.filter((g) => !g.cooperative && Math.max(...g.players) > 1).map((g) => g.short_title);
      if (rivals.length) hints.options[0].textContent = `On, except ${rivals.join(" or ")} between two people`;
      showGame();
      waiting.replaceWith(node);
    })
    .catch((error) => {
      waiting.textContent = `The games could not be loaded (${error.message}); reload the page to try again.`;
      waiting.setAttribute("role", "alert");
    });

  const clear = () => {
    general.hidden = true;
    for (const box of node.querySelectorAll(".field-error")) box.hidden = true;
    for (const control of node.querySelectorAll("[aria-invalid]")) control.removeAttribute("aria-invalid");
  };
  // Show `message` on the field `id` names (null, or a field not shown: the general line).
  const show = (message, id) => {
    const control = id && node.querySelector(`#${CSS.escape(id)}`);
    const box = control && document.getElementById(`${id}-error`);
    if (control && box) {
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
    if (!chosen) return;
    const who = seats.map((s) => s.value).filter((v) => v !== "none");
    const body = { game: chosen.name, seats: who, listed: listed.checked, undo: undo.checked ? "solo" : "off" };
    if (chosen.players.length > 1) body.players = who.length;
    if (hotseat.checked) body.hotseat = true;
    if (rated.checked) body.rated = true;
    if (timer.value) body.turn_timer = Number(timer.value);
    if (hints.value !== "auto") body.hints = hints.value;
    try {
      if (cards.files.length > 2) return show("cards: at most 2 custom card files", "cards");
      const files = [...cards.files];
      if (files.length) body.cards = await Promise.all(files.map((f) => f.text()));
      const picked = await options.read(who.length);
      if (Object.keys(picked).length) body.options = picked;
    } catch (error) {
      return show(`a file could not be read: ${error.message}`, null);
    }
    submit.disabled = true;
    try {
      const answer = await fetch("api/rooms", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      const data = await answer.json().catch(() => ({ message: `the server answered ${answer.status}` }));
      if (!answer.ok) return show(data.message || `the server answered ${answer.status}`, fieldOfError(data, chosen));
      // One screen: this browser claims every seat now. Otherwise it claims none here: its
      // own seat is claimed when "Play as" opens it; the others' invites are to be sent.
      if (body.hotseat) {
        for (const invite of data.invites) {
          const got = await claimInvite(data.room, invite.token);
          saveSeat({ room: data.room, seat: got.seat, secret: got.secret, game: body.game });
        }
      }
      api.onCreated?.(data, body.game, who, Boolean(body.hotseat));
    } catch (error) {
      show(`the server could not be reached (${error.message})`, null);
    } finally {
      submit.disabled = false;
    }
  });
  return api;
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
