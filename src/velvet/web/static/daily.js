// The daily challenge (/daily): for every game whose spec declares one (GET api/daily),
// today's set-up — the same for everyone, one a UTC day — a button that starts it (POST
// api/daily/{game}: a room whose seats this browser holds, saved as a claimed seat) and
// the day's leaderboard (GET api/daily/{game}/leaderboard?day=): wins by the day they were
// won on, then actions, then finish time; losses after. Until the day ends the server
// names no room; after it, each entry links its replay (join/ROOM?replay).

import { el } from "./dom.js";
import { t, tn } from "./i18n.js";
import { saveSeat, seatHref } from "./lobby.js";

async function api(path, method = "GET") {
  const answer = await fetch(path, { method });
  let data = {};
  try {
    data = await answer.json();
  } catch {
    data = { message: t("the server answered {status}", { status: answer.status }) };
  }
  return { ok: answer.ok, data };
}

function left(seconds) {
  const minutes = Math.max(1, Math.floor(seconds / 60));
  const hours = Math.floor(minutes / 60);
  return hours ? t("{h} h {m} min", { h: hours, m: minutes % 60 }) : t("{m} min", { m: minutes });
}

function capital(word) {
  return word ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

// what a game's leaderboard ranks by ("day" for P5): its column's title and its plural
const rankColumn = (unit) => ({ day: t("Day"), turn: t("Turn") })[unit] || capital(unit);
const rankPlural = (unit) => ({ day: t("days"), turn: t("turns") })[unit] || `${unit}s`;

function clock(unix) {
  return new Date(unix * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function boardTable(info, board) {
  if (!board.entries.length) {
    const none = board.over ? t("Nobody finished a game of this day.") : t("No finished game yet today: be the first.");
    return el("p", {}, none);
  }
  const head = ["#", t("Player"), t("Result"), rankColumn(info.rank_by), t("Actions"), t("Finished (your time)"), t("Replay")];
  // data-label: a phone's narrow rows name each number (daily.css)
  const cell = (i, text) => el("td", { "data-label": head[i] }, text);
  const rows = board.entries.map((e) => el("tr", { class: e.result },
    el("td", {}, e.rank === null ? "" : String(e.rank)),
    el("td", {}, e.player ? el("a", { href: `players/${encodeURIComponent(e.player)}` }, e.player) : t("Anonymous")),
    el("td", {}, e.result === "won" ? t("Won") : t("Lost")),
    e.turns === null ? el("td", {}) : cell(3, String(e.turns)),
    cell(4, String(e.actions)),
    cell(5, clock(e.finished)),
    el("td", {}, e.room
      ? el("a", { href: `join/${encodeURIComponent(e.room)}?replay` }, t("Watch"))
      : el("small", {}, t("after the day")))));
  return el("table", { class: "daily-board" },
    el("caption", {}, board.over
      ? t("Day {day} is over: every game's replay is open.", { day: board.day })
      : t("Fewest {unit} first, then fewest actions, then who finished first; replays open when the day ends (00:00 UTC).", { unit: rankPlural(info.rank_by) })),
    el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows));
}

async function showBoard(box, info, day) {
  box.replaceChildren(el("p", { class: "loading" }, t("Loading the leaderboard…")));
  const got = await api(`api/daily/${encodeURIComponent(info.game)}/leaderboard?day=${encodeURIComponent(day)}`);
  if (!got.ok) {
    box.replaceChildren(el("p", { role: "alert" }, t("The leaderboard could not be loaded: {why}", { why: got.data.message })));
    return;
  }
  const playing = got.data.playing ? el("p", { class: "muted" }, tn("{n} game of this day still being played.", "{n} games of this day still being played.", got.data.playing)) : null;
  box.replaceChildren(boardTable(info, got.data), playing || "");
}

async function start(info, button, message) {
  button.disabled = true;
  message.textContent = "";
  const got = await api(`api/daily/${encodeURIComponent(info.game)}`, "POST");
  if (!got.ok) {
    button.disabled = false;
    message.textContent = t("The game could not be started: {why}", { why: got.data.message });
    return;
  }
  for (const seat of got.data.seats) saveSeat({ room: got.data.room, seat, secret: got.data.secret, game: info.game });
  location.href = seatHref(got.data.room, got.data.seat);
}

function gameSection(info) {
  const message = el("p", { role: "alert" });
  const play = el("button", { type: "button", class: "primary" }, t("Play today's challenge"));
  play.addEventListener("click", () => start(info, play, message));
  const board = el("div", { class: "daily-board-box" });
  const picker = el("input", { type: "date", value: info.day, max: info.day, "aria-label": t("Day (UTC)") });
  picker.addEventListener("change", () => { if (picker.value) showBoard(board, info, picker.value); });
  showBoard(board, info, info.day);
  return el("section", { class: "daily-game", dataset: { game: info.game } },
    el("h2", {}, info.title),
    el("p", {}, t("Today (UTC) is {day}: this challenge ends in {left}.", { day: info.day, left: left(info.seconds_left) })),
    el("ul", { class: "daily-setup", "aria-label": t("Today's set-up") }, info.setup.map((s) => el("li", {}, s))),
    el("div", { class: "daily-play" }, play,
      el("small", {}, t("Undo and hints are off. In a terminal: "), el("code", {}, `velvet daily ${info.game}`), t(" (the same game, not on this board)."))),
    message,
    el("div", { class: "daily-day" }, el("h3", {}, t("Leaderboard")), el("label", {}, t("Day "), picker)),
    board);
}

export async function renderDaily(main) {
  document.title = t("Velvet · daily challenge");
  if (!document.querySelector("link[data-daily-css]")) {
    document.head.append(el("link", { rel: "stylesheet", href: "static/daily.css", "data-daily-css": "" }));
  }
  const box = el("section", { class: "daily" }, el("h1", {}, t("Daily challenge")), el("p", { class: "loading" }, t("Loading…")));
  main.replaceChildren(box);
  const got = await api("api/daily");
  const intro = el("p", { class: "muted" }, t("One set-up a day, the same for everyone. Win in the fewest days, then the fewest actions; the best games' replays open when the day ends."));
  if (!got.ok) {
    box.replaceChildren(box.firstChild, el("p", { role: "alert" }, t("The daily challenge could not be loaded: {why}", { why: got.data.message })));
    return;
  }
  const games = got.data.length ? got.data.map(gameSection) : [el("p", {}, t("No game here has a daily challenge."))];
  box.replaceChildren(box.firstChild, intro, ...games);
}
