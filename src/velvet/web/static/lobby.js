// The lobby: create a room (a form built from the server's games, their options and bots;
// custom decks and cards), invite links with copy buttons, the open rooms to watch, and
// your own seats to rejoin.

import { el } from "./dom.js";
import { toast } from "./table.js";
import { PROTOCOL_VERSION, socketUrl } from "./net.js";
import { loadGames } from "./catalog.js";
import { renderFinder } from "./seeks.js";
import { t, tn, cardName } from "./i18n.js";

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
  toast(t("Link copied."), "info");
}

// --- the page ------------------------------------------------------------------------------

export function renderLobby(main) {
  const form = createForm();
  const result = el("section", { class: "created", "aria-live": "polite" });
  const rooms = el("section", { class: "rooms" }, el("h2", {}, t("Open rooms")), el("p", {}, t("Loading…")));
  let mine = mySeats();
  main.replaceChildren(
    el(
      "div",
      { class: "lobby" },
      el(
        "section",
        { class: "create" },
        el("h2", {}, t("New game")),
        form.node,
        el("p", { class: "learn-link" }, t("New to the games? "), el("a", { href: "learn" }, t("Learn them")), t(" in short lessons."), " ", el("a", { href: "puzzles" }, t("Puzzles")), t(" test what you learned.")),
        el("p", { class: "daily-link" }, el("a", { class: "button", href: "daily" }, t("Daily challenge")), t(" — one set-up a day, the same for everyone, and its leaderboard.")),
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

/** "3 days per move" or "4 hours per move" of a correspondence room (its RoomInfo or
 * game entry), else null. */
export function perMoveWords(room) {
  if (room.days_per_move) return tn("{n} day per move", "{n} days per move", room.days_per_move);
  if (room.hours_per_move) return tn("{n} hour per move", "{n} hours per move", room.hours_per_move);
  return null;
}

const perMoveBadge = (room) => {
  const words = perMoveWords(room);
  return words ? el("span", { class: "badge correspondence" }, words) : null;
};

// --- the create-room form, built from GET api/games -----------------------------------------
// Every game the server plays, its seat counts, bots and set-up options (the ConfigOptions
// `velvet play` shows as --NAME) come from the server: nothing here names a game, an option
// or a bot. An option's value goes into the request's `options` by its name; an error the
// server gives names its option (and seat), which puts it on that field.

const ROOM_FIELDS = new Set(["game", "seats", "cards", "turn_timer", "hints", "listed", "hotseat", "undo", "emotes", "chat", "takeover", "grace", "players", "rated", "days_per_move", "hours_per_move"]);

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
  if (name === "hours_per_move") return "days_per_move"; // one field for both
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
  if (game.cooperative) return t("{game} (co-op, {seats})", { game: t(game.short_title), seats: seatCounts(game) });
  return t("{game} ({seats} players)", { game: t(game.short_title), seats: seatCounts(game) });
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// One option's control for one seat (seat null: an option that is not per seat).
function optionControl(option, seat, gameName) {
  if (option.kind === "path") return el("input", { type: "file", accept: ".toml,text/plain", dataset: { file: "1" } });
  const fallback = option.defaults[seat ?? 0];
  // a card's name from the game's names table, other words (levels) from the catalogue
  const shown = (c) => (cardName(gameName, c.name) !== c.name ? cardName(gameName, c.name) : t(c.name));
  const named = (id) => { const c = option.choices.find((x) => x.id === id); return c ? shown(c) : id; };
  if (!option.choices.length) return el("input", { placeholder: fallback ?? "", autocomplete: "off" });
  if (option.default !== null && !option.multiple) return select(option.choices.map((c) => [c.id, shown(c)]), option.default);
  return select([["", fallback ? t("Default: {name}", { name: named(fallback) }) : t("Default")], ...option.choices.map((c) => [c.id, shown(c)])], "");
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
        controls[id] = optionControl(option, seat, game.name);
        controls[id].title = t(option.help);
        controls[id].style.minWidth = "0"; // a long name is cut, not pushed past its column
        fields.push(field(t("Player {number}'s {option}", { number: seat + 1, option: t(option.label) }), controls[id], id));
      }
      // per-seat lists side by side; files one under the other (a file's name needs the width)
      if (seats > 1 && option.kind !== "path") parts.push(el("div", { class: "row" }, ...fields));
      else parts.push(...fields);
    } else {
      const id = optionId(option, null);
      controls[id] = optionControl(option, null, game.name);
      parts.push(field(capital(t(option.label)), controls[id], id, t(option.help)));
    }
  }
  const node = el("fieldset", { class: "options", dataset: { game: game.name } }, el("legend", {}, t(game.short_title)), ...parts);
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
  const people = [["human", t("A person")], ...bots.map((b) => [b, t("Bot: {bot}", { bot: b })])];
  const low = Math.min(...game.players);
  const selects = [];
  for (let seat = 0; seat < Math.max(...game.players); seat++) {
    const choices = seat < low ? people : [...people, ["none", low === 1 ? t("Nobody (solo)") : t("Nobody")]];
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
  const timer = el("input", { type: "number", min: "5", max: "86400", placeholder: t("none"), inputmode: "numeric" });
  const listed = el("input", { type: "checkbox", checked: true });
  const hotseat = el("input", { type: "checkbox" });
  const undo = el("input", { type: "checkbox", checked: true });
  const emotes = el("input", { type: "checkbox", checked: true });
  const chat = el("input", { type: "checkbox" });
  const rated = el("input", { type: "checkbox" });
  const ratedRow = el(
    "div",
    { class: "field check" },
    rated,
    el("label", { for: "rated" }, t("Rated: between two signed-in people; the result changes both ratings (Glicko-2, on the leaderboard)")),
    el("p", { class: "field-error", id: "rated-error", hidden: true }),
  );
  rated.setAttribute("aria-describedby", "rated-error");
  // a correspondence room's time per move: "d3" is days_per_move 3, "h4" hours_per_move 4
  const perMove = [["h1", t("1 hour")], ["h4", t("4 hours")], ["h12", t("12 hours")], ["d1", t("1 day")], ["d3", t("3 days")], ["d7", t("7 days")]];
  const days = select([["", t("No (played live)")], ...perMove], "");
  const hints = select([["auto", t("On, except between two people")], ["on", t("On")], ["off", t("Off")]], "auto");
  const general = el("p", { class: "form-error", role: "alert", hidden: true });
  const submit = el("button", { type: "submit", class: "primary" }, t("Create the room"));

  const node = el(
    "form",
    { class: "create-form", novalidate: true },
    field(t("Game"), game, "game"),
    seatRow,
    optionsBox,
    el(
      "details",
      { class: "more" },
      el("summary", {}, t("More options")),
      field(t("Custom card files (TOML, up to 2)"), cards, "cards", t("They extend or replace the built-in cards.")),
      field(t("Seconds per decision"), timer, "turn_timer", t("When they run out a bot makes that one move.")),
      field(t("Correspondence: time per move"), days, "days_per_move", t("Each move may take this long; past it, the player to move loses on time.")),
      el("div", { class: "field check" }, listed, el("label", { for: "listed" }, t("Show this room in the lobby"))),
      el("div", { class: "field check" }, hotseat, el("label", { for: "hotseat" }, t("One screen: every seat is played from this browser (everyone sees that the room is one-screen)"))),
      el("div", { class: "field check" }, undo, el("label", { for: "undo" }, t("Allow undo (with two people, only when both agree)"))),
      el("div", { class: "field check" }, emotes, el("label", { for: "emotes" }, t("Emotes: the players may send each other preset words, such as “Good luck!”"))),
      el("div", { class: "field check" }, chat, el("label", { for: "chat" }, t("Text chat: the players may also write to each other, a line of up to 200 characters at a time (each may mute it)"))),
      ratedRow,
      field(t("Hints"), hints, "hints", t("A Hint button shows the hard bot's three best choices, each with its chance to win if you play on like the easy bot, and why (and a Forecast where the game has one).")),
    ),
    general,
    submit,
  );
  listed.id = "listed";
  hotseat.id = "hotseat";
  undo.id = "undo";
  emotes.id = "emotes";
  chat.id = "chat";
  rated.id = "rated";
  // The form comes once the server has said which games it plays.
  const waiting = el("p", { class: "form-loading", role: "status" }, t("Loading the games…"));
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
    seatRow.replaceChildren(...seats.map((s, i) => field(t("Seat {number}", { number: i + 1 }), s, `seat_${i + 1}`)));
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
      if (rivals.length) hints.options[0].textContent = t("On, except {rivals} between two people", { rivals: rivals.join(t(" or ")) });
      showGame();
      waiting.replaceWith(node);
    })
    .catch((error) => {
      waiting.textContent = t("The games could not be loaded ({error}); reload the page to try again.", { error: error.message });
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
    if (!emotes.checked) body.emotes = false;
    if (chat.checked) body.chat = true;
    if (timer.value) body.turn_timer = Number(timer.value);
    if (days.value) body[days.value[0] === "h" ? "hours_per_move" : "days_per_move"] = Number(days.value.slice(1));
    if (hints.value !== "auto") body.hints = hints.value;
    try {
      if (cards.files.length > 2) return show(t("cards: at most 2 custom card files"), "cards");
      const files = [...cards.files];
      if (files.length) body.cards = await Promise.all(files.map((f) => f.text()));
      const picked = await options.read(who.length);
      if (Object.keys(picked).length) body.options = picked;
    } catch (error) {
      return show(t("a file could not be read: {error}", { error: error.message }), null);
    }
    submit.disabled = true;
    try {
      const answer = await fetch("api/rooms", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      const data = await answer.json().catch(() => ({ message: t("the server answered {status}", { status: answer.status }) }));
      if (!answer.ok) return show(data.message || t("the server answered {status}", { status: answer.status }), fieldOfError(data, chosen));
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
      show(t("the server could not be reached ({error})", { error: error.message }), null);
    } finally {
      submit.disabled = false;
    }
  });
  return api;
}

function showCreated(box, created, game, seats, oneScreen) {
  const rows = created.invites.map((invite, index) => {
    const input = el("input", { readonly: true, value: invite.url, "aria-label": t("{player}'s invite link", { player: invite.name }), class: "link" });
    if (oneScreen) {
      // Claimed by this browser already: the invite is spent, so it is not shown.
      return el("li", {}, el("strong", {}, invite.name),
        el("span", { class: "link-row" }, el("small", {}, t("This browser's seat")),
          el("a", { class: "button primary", href: seatHref(created.room, invite.seat) }, t("Play as {player}", { player: invite.name }))));
    }
    // One screen: every seat is this browser's already. Otherwise only the first person's
    // seat is opened here; another seat's invite goes to its player (opened here, it would
    // be this browser's, and the friend would be told it was already used).
    const play = index === 0
        ? el("a", { class: "button primary", href: joinHref(created.room, invite.token) }, t("Play as {player}", { player: invite.name }))
        : el("small", { class: "invite-note" }, t("Send it; do not open it yourself"));
    return el(
      "li",
      {},
      el("strong", {}, invite.name),
      el("span", { class: "link-row" }, input,
        el("button", { type: "button", onclick: () => copy(invite.url, input) }, t("Copy")),
        play),
    );
  });
  const watch = el("input", { readonly: true, value: created.spectate, "aria-label": t("Spectator link"), class: "link" });
  const bots = seats.map((s, i) => (s === "human" ? null : el("li", {}, el("strong", {}, t("Player {number}", { number: i + 1 })), t(" is played by the {bot} bot.", { bot: s }))));
  const say = oneScreen
    ? t("One screen: every seat is played from this browser (the lobby and the other players see that the room is one-screen).")
    : t("Each link opens one seat, once: the first browser (or velvet join) to open it keeps the seat. Keep yours, send the other to a friend; if someone else opened it first, your friend is told it was already used.");
  box.replaceChildren(
    el("h2", {}, t("Room {room} ({game}) is ready", { room: created.room, game: game.toUpperCase() })),
    el("p", {}, say),
    el("ul", { class: "invites" }, ...rows, ...bots,
      el("li", {}, el("strong", {}, t("Spectators")), el("span", { class: "link-row" }, watch,
        el("button", { type: "button", onclick: () => copy(created.spectate, watch) }, t("Copy")),
        el("a", { class: "button", href: joinHref(created.room, null) }, t("Watch"))))),
  );
  box.querySelector("a.primary")?.focus();
}

function mySeats() {
  const seats = savedSeats();
  const box = el("section", { class: "mine" }, el("h2", {}, t("Your games")));
  if (!seats.length) {
    box.append(el("p", {}, t("Rooms you create or join in this browser are listed here to rejoin.")));
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
      el("span", { class: "room-name" }, t("{game} room {room}", { game: (entries[0].game || "").toUpperCase(), room })),
      ...entries
        .sort((a, b) => a.seat - b.seat)
        .map((s) => el("a", { class: "button", href: seatHref(room, s.seat) }, t("Rejoin as Player {number}", { number: s.seat + 1 }))),
      el("button", { type: "button", class: "quiet", onclick: () => { forgetRoom(room); item.remove(); } }, t("Forget")),
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
    el("span", { class: "badge" }, t("finished")),
    el("a", { class: "button", href }, t("Watch the replay")),
  );
}

async function loadRooms(box) {
  let rooms = [];
  try {
    const answer = await fetch("api/rooms");
    rooms = answer.ok ? await answer.json() : [];
  } catch {
    box.replaceChildren(el("h2", {}, t("Open rooms")), el("p", {}, t("The server could not be reached.")));
    return;
  }
  const list = el("ul", { class: "room-list" });
  for (const room of rooms.slice(0, 30)) {
    const person = (s) => (s.connected ? t("a person (here)") : s.claimed ? t("a person (away)") : t("invite not used yet"));
    const seats = room.seats.map((s) => `${s.name}: ${s.who === "human" ? person(s) : t("bot {bot}", { bot: s.who })}`).join(" · ");
    list.append(
      el("li", {}, el("span", { class: "room-name" }, t("{game} room {room}", { game: room.game.toUpperCase(), room: room.room })),
        room.hotseat ? el("span", { class: "badge one-screen", title: t("Every seat is played from one browser") }, t("one screen")) : null,
        perMoveBadge(room),
        el("small", {}, ` ${t("move {number}", { number: room.version })} · ${seats} `),
        el("a", { class: "button", href: joinHref(room.room, null) }, t("Watch"))),
    );
  }
  box.replaceChildren(el("h2", {}, t("Open rooms")), rooms.length ? list : el("p", {}, t("No open rooms. Create one above.")));
}
