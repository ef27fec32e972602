// Finding a game in the lobby (docs/web.md, "Finding a game"): quick pair (a queue per
// game, paired by rating, a bot offered after the wait), the open seeks to join with one
// click, and posting a seek. Every game, option and bot comes from the server (api/games,
// api/seeks, api/queue); this module names none of them.

import { el } from "./dom.js";
import { t } from "./i18n.js";
import { toast } from "./table.js";
import { saveSeat, seatHref } from "./lobby.js";

const MINE = "velvet.myseeks"; // this tab's own open seeks: {room: secret}
const POLL_MS = 1000;
const LIST_MS = 5000;

async function call(method, url, body) {
  try {
    const answer = await fetch(url, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await answer.json().catch(() => ({ message: `the server answered ${answer.status}` }));
    return { ok: answer.ok, status: answer.status, data };
  } catch (error) {
    return { ok: false, status: 0, data: { message: `the server could not be reached (${error.message})` } };
  }
}

function mySeeks() {
  try {
    return JSON.parse(sessionStorage.getItem(MINE) || "{}");
  } catch {
    return {};
  }
}

function keepSeek(room, secret) {
  const all = mySeeks();
  if (secret) all[room] = secret;
  else delete all[room];
  try {
    sessionStorage.setItem(MINE, JSON.stringify(all));
  } catch {
    /* storage off: the seek is still listed while this page polls it */
  }
}

function rating(r, provisional) {
  return el("span", { class: "rating", title: provisional ? t("provisional: few or no rated games yet") : t("Glicko-2 rating") }, `${r}${provisional ? "?" : ""}`);
}

// Open the table of a seat this browser now holds (its secret saved like a claimed invite).
function sit(room, seat, secret, game) {
  saveSeat({ room, seat, secret, game });
  location.assign(seatHref(room, seat));
}

export function renderFinder(node) {
  const ui = {
    games: [],
    signedIn: false,
    game: el("select", { id: "finder-game", "aria-label": t("Game") }),
    rated: el("input", { type: "checkbox", id: "finder-rated" }),
    quick: el("button", { type: "button", class: "primary", id: "quick-pair" }, t("Quick pair")),
    post: el("button", { type: "button", id: "post-seek" }, t("Post a seek…")),
    wait: el("div", { class: "finder-wait", role: "status", "aria-live": "polite", hidden: true }),
    form: el("form", { class: "seek-form", hidden: true }),
    list: el("div", { class: "seek-list" }, el("p", {}, t("Loading…"))),
    ticket: null,
  };
  const ratedLabel = el("label", { class: "finder-rated", for: "finder-rated" }, ui.rated, " ", t("Rated"));
  node.replaceChildren(
    el("h2", {}, t("Find a game")),
    el("div", { class: "finder-row" }, el("label", { for: "finder-game" }, t("Game")), ui.game, ratedLabel, ui.quick, ui.post),
    ui.wait,
    ui.form,
    el("h3", {}, t("Seeks")),
    ui.list,
  );
  ui.quick.addEventListener("click", () => quickPair(ui));
  ui.post.addEventListener("click", () => toggleForm(ui));
  ui.game.addEventListener("change", () => {
    if (!ui.form.hidden) buildForm(ui);
    loadSeeks(ui);
  });
  document.addEventListener("velvet-account", (event) => setSignedIn(ui, Boolean(event.detail?.name)));
  window.addEventListener("pagehide", () => {
    if (ui.ticket) fetch(`api/queue/${encodeURIComponent(ui.ticket.ticket)}`, { method: "DELETE", keepalive: true });
  });
  start(ui);
  return node;
}

function setSignedIn(ui, signedIn) {
  ui.signedIn = signedIn;
  ui.rated.disabled = !signedIn;
  if (!signedIn) ui.rated.checked = false;
  ui.rated.parentElement.title = signedIn ? t("Rated: Glicko-2, against another signed-in player") : t("Sign in to play rated games");
}

async function start(ui) {
  const [games, account] = await Promise.all([call("GET", "api/games"), call("GET", "api/account")]);
  ui.games = games.ok ? games.data.filter((g) => g.players.includes(2)) : [];
  setSignedIn(ui, account.ok && Boolean(account.data.name));
  ui.game.replaceChildren(...ui.games.map((g) => el("option", { value: g.name, title: t(g.title) }, t(g.short_title || g.title))));
  const last = localStorage.getItem("velvet.game");
  if (ui.games.some((g) => g.name === last)) ui.game.value = last;
  const competitive = ui.games.find((g) => !g.cooperative);
  if (!ui.games.some((g) => g.name === last) && competitive) ui.game.value = competitive.name;
  for (const [room, secret] of Object.entries(mySeeks())) watchSeek(ui, room, secret);
  loadSeeks(ui);
  const timer = setInterval(() => (ui.list.isConnected ? loadSeeks(ui) : clearInterval(timer)), LIST_MS);
}

function chosen(ui) {
  return ui.games.find((g) => g.name === ui.game.value) || null;
}

// --- quick pair ------------------------------------------------------------------------------

async function quickPair(ui) {
  const game = chosen(ui);
  if (!game || ui.ticket) return;
  ui.quick.disabled = true;
  const joined = await call("POST", "api/queue", { game: game.name, rated: ui.rated.checked });
  if (!joined.ok) {
    ui.quick.disabled = false;
    toast(joined.data.message || t("could not join the queue"), "error");
    return;
  }
  ui.ticket = joined.data;
  const cancel = el("button", { type: "button", class: "quiet", id: "queue-leave" }, t("Cancel"));
  const line = el("p", { class: "wait-line" });
  const offer = el("p", { class: "bot-offer", hidden: true });
  ui.wait.replaceChildren(el("span", { class: "finder-spinner", "aria-hidden": "true" }), line, offer, cancel);
  ui.wait.hidden = false;
  cancel.addEventListener("click", async () => {
    const ticket = ui.ticket;
    stopQueue(ui);
    const left = await call("DELETE", `api/queue/${encodeURIComponent(ticket.ticket)}`);
    if (left.ok && left.data.state === "paired") sit(left.data.room, left.data.seat, ticket.secret, ticket.game); // paired just before
  });
  const mine = rating(ui.ticket.rating, ui.ticket.provisional);
  const title = t(game.short_title || game.title);
  const looking = game.cooperative
    ? ui.ticket.rated ? t("Looking for a rated partner in {game}", { game: title }) : t("Looking for a partner in {game}", { game: title })
    : ui.ticket.rated ? t("Looking for a rated opponent in {game}", { game: title }) : t("Looking for an opponent in {game}", { game: title });
  const show = (status) => {
    const seconds = Math.floor(status.waited);
    const clock = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    line.replaceChildren(
      el("strong", {}, looking), ` · ${clock}`,
      el("br"), t("Your rating"), " ", mine, " · ",
      game.cooperative ? t("partners rated within ±{window}", { window: status.window }) : t("opponents rated within ±{window}", { window: status.window }),
    );
    if (status.bot && offer.hidden) {
      offer.hidden = false;
      const play = el("button", { type: "button", class: "primary", id: "play-bot" }, t("Play the {bot} bot", { bot: status.bot.bot }));
      play.addEventListener("click", () => playBot(ui));
      const scale = el("small", {}, t(" (bots are rated against each other in the arena, {anchor} set at 1500)", { anchor: status.bot.anchor }));
      offer.replaceChildren(t("Nobody yet. Nearest your rating: the {bot} bot, rated {rating}", { bot: status.bot.bot, rating: status.bot.rating }), scale, ".", el("br"), play, t(" or keep waiting."));
    }
  };
  show({ waited: 0, window: 100 });
  const poll = async () => {
    const ticket = ui.ticket;
    if (!ticket) return;
    if (!ui.wait.isConnected) return stopQueue(ui);
    const got = await call("GET", `api/queue/${encodeURIComponent(ticket.ticket)}`);
    if (ui.ticket !== ticket) return;
    if (!got.ok) {
      stopQueue(ui);
      toast(got.data.message || t("the queue could not be reached"), "error");
      return;
    }
    if (got.data.state === "paired" || got.data.state === "bot") {
      stopQueue(ui, got.data.opponent ? t("Paired with {opponent}: opening the table…", { opponent: got.data.opponent }) : t("Paired: opening the table…"));
      sit(got.data.room, got.data.seat, ticket.secret, ticket.game);
      return;
    }
    if (got.data.state === "left") return stopQueue(ui);
    show(got.data);
    ui.pollTimer = setTimeout(poll, POLL_MS);
  };
  ui.pollTimer = setTimeout(poll, POLL_MS);
}

async function playBot(ui) {
  const ticket = ui.ticket;
  if (!ticket) return;
  const got = await call("POST", `api/queue/${encodeURIComponent(ticket.ticket)}/bot`);
  if (!got.ok) return toast(got.data.message || t("no bot game"), "error");
  if (got.data.room) {
    stopQueue(ui, t("Opening the table…"));
    sit(got.data.room, got.data.seat, ticket.secret, ticket.game);
  }
}

function stopQueue(ui, text) {
  clearTimeout(ui.pollTimer);
  ui.ticket = null;
  ui.quick.disabled = false;
  if (text) {
    ui.wait.replaceChildren(el("p", {}, text));
  } else {
    ui.wait.hidden = true;
    ui.wait.replaceChildren();
  }
}

// --- seeks ------------------------------------------------------------------------------------

async function loadSeeks(ui) {
  const got = await call("GET", "api/seeks");
  if (!got.ok) {
    ui.list.replaceChildren(el("p", {}, got.data.message || t("The seeks could not be loaded.")));
    return;
  }
  const mine = mySeeks();
  const seeks = got.data;
  if (!seeks.length) {
    ui.list.replaceChildren(el("p", {}, t("No open seeks. Quick pair, or post one: it waits here for an opponent.")));
    return;
  }
  const titles = Object.fromEntries(ui.games.map((g) => [g.name, t(g.short_title || g.title)]));
  const rows = seeks.map((s) => {
    const own = s.room in mine;
    const join = own
      ? el("span", { class: "badge yours" }, t("yours"))
      : el("button", { type: "button", class: "primary join-seek", dataset: { room: s.room } }, t("Join"));
    if (!own) join.addEventListener("click", () => takeSeek(ui, s, join));
    const range = s.min_rating !== null || s.max_rating !== null ? t(" · for {low}–{high}", { low: s.min_rating ?? 0, high: s.max_rating ?? t("any") }) : "";
    return el("tr", { class: own ? "own" : "" },
      el("td", {}, titles[s.game] || s.game),
      el("td", {}, s.player || el("span", { class: "muted" }, t("anonymous"))),
      el("td", {}, rating(s.rating, s.provisional)),
      el("td", { class: "setup" }, s.setup.length ? s.setup.join(" · ") : t("default set-up")),
      el("td", {}, s.rated ? el("span", { class: "badge rated" }, t("rated")) : t("casual"), range),
      el("td", {}, join));
  });
  ui.list.replaceChildren(el("table", { class: "seeks", "aria-label": t("Open seeks (? marks a provisional rating)") },
    el("thead", {}, el("tr", {}, ...[t("Game"), t("Player"), t("Rating"), t("Set-up (theirs, then yours)"), t("Mode"), ""].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...rows)));
}

async function takeSeek(ui, seek, button) {
  button.disabled = true;
  const got = await call("POST", `api/seeks/${encodeURIComponent(seek.room)}/take`);
  if (!got.ok) {
    button.disabled = false;
    toast(got.data.message || t("the seek could not be taken"), "error");
    loadSeeks(ui);
    return;
  }
  sit(got.data.room, got.data.seat, got.data.secret, seek.game);
}

function toggleForm(ui) {
  ui.form.hidden = !ui.form.hidden;
  if (!ui.form.hidden) buildForm(ui);
}

// The seek's set-up: each option of the game that has choices (per seat: yours and the
// opponent's), left at the game's default unless chosen; a rating range for the taker.
function buildForm(ui) {
  const game = chosen(ui);
  if (!game) return;
  const fields = [];
  const pickers = [];
  for (const option of game.options) {
    if (!option.choices.length) continue;
    const seats = option.multiple ? [0, 1] : [null];
    for (const seat of seats) {
      const id = `seek-${option.name}${seat === null ? "" : `-${seat}`}`;
      const label = seat === null ? t(option.label) : seat === 0 ? t("Your {option}", { option: t(option.label) }) : t("Opponent's {option}", { option: t(option.label) });
      const fallback = seat !== null ? option.defaults[seat] : option.default;
      const named = option.choices.find((c) => c.id === fallback);
      const control = el("select", { id },
        el("option", { value: "" }, named ? t("default ({name})", { name: named.name }) : t("default")),
        ...option.choices.map((c) => el("option", { value: c.id }, c.name)));
      pickers.push({ option, seat, control });
      fields.push(el("div", { class: "field" }, el("label", { for: id }, label.charAt(0).toUpperCase() + label.slice(1)), control));
    }
  }
  const low = el("input", { type: "number", id: "seek-min", min: 0, max: 4000, step: 50, placeholder: t("any") });
  const high = el("input", { type: "number", id: "seek-max", min: 0, max: 4000, step: 50, placeholder: t("any") });
  const submit = el("button", { type: "submit", class: "primary" }, t("Post the seek"));
  const error = el("p", { class: "field-error", role: "alert", hidden: true });
  ui.form.replaceChildren(
    el("div", { class: "seek-fields" }, ...fields,
      el("div", { class: "field" }, el("label", { for: "seek-min" }, t("Opponent rated from")), low),
      el("div", { class: "field" }, el("label", { for: "seek-max" }, t("to")), high)),
    error, submit);
  ui.form.onsubmit = async (event) => {
    event.preventDefault();
    const options = {};
    for (const { option, seat, control } of pickers) {
      if (seat === null) {
        if (control.value) options[option.name] = control.value;
      } else if (control.value) {
        options[option.name] = options[option.name] || [null, null];
        options[option.name][seat] = control.value;
      }
    }
    const body = { game: game.name, options, rated: ui.rated.checked };
    if (low.value) body.min_rating = Number(low.value);
    if (high.value) body.max_rating = Number(high.value);
    submit.disabled = true;
    const got = await call("POST", "api/seeks", body);
    submit.disabled = false;
    if (!got.ok) {
      error.hidden = false;
      error.textContent = got.data.message || t("the seek could not be posted");
      return;
    }
    ui.form.hidden = true;
    keepSeek(got.data.room, got.data.secret);
    watchSeek(ui, got.data.room, got.data.secret);
    loadSeeks(ui);
  };
}

// This tab's own seek: polled (which keeps it listed) until it is taken, then the table opens.
function watchSeek(ui, room, secret) {
  const cancel = el("button", { type: "button", class: "quiet", id: "seek-cancel" }, t("Cancel the seek"));
  const box = el("div", { class: "my-seek" }, el("span", { class: "finder-spinner", "aria-hidden": "true" }),
    el("p", {}, el("strong", {}, t("Your seek is listed")), el("br"), t("Waiting for someone to join; the table opens when they do. Leave this page and the seek goes after a minute.")),
    cancel);
  ui.wait.hidden = false;
  ui.wait.replaceChildren(box);
  let timer = null;
  const end = (text) => {
    clearTimeout(timer);
    keepSeek(room, null);
    ui.wait.replaceChildren(...(text ? [el("p", {}, text)] : []));
    ui.wait.hidden = !text;
    loadSeeks(ui);
  };
  cancel.addEventListener("click", async () => {
    const got = await call("DELETE", `api/seeks/${encodeURIComponent(room)}`, { secret });
    if (got.ok && got.data.state === "taken") return sit(room, 0, secret, "");
    end(got.ok ? "" : got.data.message);
  });
  const poll = async () => {
    if (!box.isConnected) return;
    const got = await call("POST", `api/seeks/${encodeURIComponent(room)}/status`, { secret });
    if (!got.ok) return end(got.status === 0 ? got.data.message : "");
    if (got.data.state === "taken") {
      end(t("{player} joined: opening the table…", { player: got.data.opponent || t("Someone") }));
      const game = mySeekGame(ui, room);
      return sit(room, 0, secret, game);
    }
    if (got.data.state !== "open") return end(t("Your seek is no longer listed."));
    timer = setTimeout(poll, 2 * POLL_MS);
  };
  poll();
}

function mySeekGame(ui) {
  return ui.game.value;
}
