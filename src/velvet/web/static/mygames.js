// "Your games" (/games): the rooms where this browser holds a seat (the secrets its claims
// gave it, lobby.js's velvet.seats) and, signed in, the account's seats; your move first,
// then the games waiting for the other side, then the finished ones. The server answers
// POST api/seats (docs/protocol.md) with what anyone may see of those rooms: no hand, no
// token. The header's "Your games" link counts the games waiting for your move.

import { el } from "./dom.js";
import { t, tn } from "./i18n.js";
import { savedSeats, seatKey, forgetSeat, seatHref, perMoveWords } from "./lobby.js";
import { timeWords } from "./table.js";

const REFRESH_MS = 30000;
const drawn = new WeakMap(); // the page: what it shows now (to redraw only on a change)

async function fetchGames() {
  const held = savedSeats().map((s) => ({ room: s.room, secret: seatKey(s), seat: s.seat }));
  const answer = await fetch("api/seats", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seats: held.map(({ room, secret }) => ({ room, secret })) }),
  });
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(data.message || `the server answered ${answer.status}`);
  return { ...data, held };
}

// --- the header's link ---------------------------------------------------------------------

function link() {
  let a = document.getElementById("games-link");
  if (!a) {
    a = el("a", { id: "games-link", class: "games-link", href: "games" }, "Your games");
    const look = document.getElementById("look");
    if (look) look.before(a);
    else document.querySelector("header.top")?.append(a);
  }
  return a;
}

function showCount(n) {
  const a = link();
  a.replaceChildren(t("Your games"), ...(n ? [el("span", { class: "count", "aria-hidden": "true" }, String(n))] : []));
  a.setAttribute("aria-label", n ? t("Your games: {n} waiting for your move", { n }) : t("Your games"));
}

// Drawn on every page, counted again when a turn of this page's seat begins or ends.
export async function installGamesLink() {
  if (!document.getElementById("games-link")) showCount(0);
  try {
    const data = await fetchGames();
    showCount(data.games.filter((g) => g.your_move).length);
  } catch {
    /* the link still leads to the page, which says what went wrong */
  }
}

// --- the page ------------------------------------------------------------------------------

function others(game) {
  const names = game.players.filter((p) => !game.seats.includes(p.seat)).map((p) => p.display_name || p.name);
  if (!names.length) return game.hotseat ? t("one screen, every seat yours") : t("alone");
  const list = names.join(", ");
  return game.cooperative ? t("with {players}", { players: list }) : t("against {players}", { players: list });
}

function whoseMove(game) {
  if (game.status === "over") return t("Finished");
  if (game.your_move) return t("Your move");
  if (game.to_move === null || game.to_move === undefined) return t("Waiting");
  const p = game.players.find((x) => x.seat === game.to_move);
  return p ? t("Waiting for {player}", { player: p.display_name || p.name }) : t("Waiting for the other side");
}

function entry(game) {
  const seat = game.here.includes(game.to_move) ? game.to_move : game.here[0];
  const here = seat !== undefined;
  const names = game.seats.map((s) => game.players.find((p) => p.seat === s)?.name || t("Player {n}", { n: s + 1 })).join(", ");
  const facts = { seats: names, version: game.version, room: game.room };
  let href;
  let label;
  if (game.status === "over") {
    href = here ? `join/${encodeURIComponent(game.room)}?replay&seat=${seat}` : `join/${encodeURIComponent(game.room)}?replay`;
    label = t("Watch the replay");
  } else if (here) {
    href = seatHref(game.room, seat);
    label = game.your_move ? t("Play your move") : t("Open the table");
  } else {
    href = `join/${encodeURIComponent(game.room)}?seat=watch`;
    label = t("Watch");
  }
  return el(
    "li",
    { class: game.your_move ? "your-move" : game.status === "over" ? "finished" : "waiting", dataset: { room: game.room } },
    el("span", { class: "turn-word" }, whoseMove(game)),
    el("span", { class: "game-title" }, game.title),
    el("span", { class: "opponents" }, others(game)),
    game.result ? el("span", { class: "result" }, game.result.charAt(0).toUpperCase() + game.result.slice(1)) : null,
    el("small", {}, game.rated ? t("you play {seats} · move {version} · room {room} · rated", facts) : t("you play {seats} · move {version} · room {room}", facts)),
    game.deadline ? el("small", { class: "deadline" }, t("{per_move} · {left} left", { per_move: perMoveWords(game), left: timeLeft(game.deadline) })) : null,
    here ? null : el("small", { class: "elsewhere" }, t("your account's seat, held on another device: move it here from there")),
    el("a", { class: game.your_move && here ? "button primary" : "button", href }, label),
  );
}

/** The time left until ``deadline`` (Unix seconds), in words. */
const timeLeft = (deadline) => timeWords(deadline - Date.now() / 1000);

function section(title, games) {
  if (!games.length) return null;
  return [el("h2", {}, t("{title} ({n})", { title, n: games.length })), el("ul", { class: "game-list" }, ...games.map(entry))];
}

function draw(box, data) {
  const mine = data.games.filter((g) => g.your_move);
  const waiting = data.games.filter((g) => !g.your_move && g.status !== "over");
  const over = data.games.filter((g) => g.status === "over");
  const lost = data.unknown.map((i) => data.held[i]).filter(Boolean);
  const intro = data.player
    ? t("Games where this browser or your account {player} holds a seat, your move first.", { player: data.player })
    : t("Games where this browser holds a seat, your move first.");
  const parts = [el("h1", {}, t("Your games")), el("p", { class: "muted" }, intro)];
  if (!data.games.length) {
    parts.push(el("p", {}, t("No games yet."), " ", el("a", { href: "./" }, t("Start one in the lobby")), " ", t("or open an invite link.")));
  }
  parts.push(...(section(t("Your move"), mine) || []), ...(section(t("Waiting for the other side"), waiting) || []), ...(section(t("Finished"), over) || []));
  if (lost.length) {
    const forget = el("button", { type: "button", class: "quiet", onclick: () => { for (const s of lost) forgetSeat(s.room, s.seat); refresh(box); } }, t("Forget them"));
    const said = tn("{n} seat this browser kept opens nothing now (moved to another device, or the room is gone).", "{n} seats this browser kept open nothing now (moved to another device, or the room is gone).", lost.length);
    parts.push(el("p", { class: "muted lost" }, `${said} `, forget));
  }
  box.replaceChildren(...parts);
  showCount(mine.length);
}

async function refresh(box) {
  try {
    const data = await fetchGames();
    const seen = JSON.stringify([data.games, data.unknown, data.player]);
    if (drawn.get(box) === seen) return; // unchanged: the keyboard's place stays
    drawn.set(box, seen);
    draw(box, data);
  } catch (error) {
    drawn.delete(box);
    box.replaceChildren(el("h1", {}, t("Your games")), el("p", { role: "alert" }, t("Your games could not be loaded: {error}.", { error: error.message })));
  }
}

export function renderYourGames(main) {
  document.title = t("Velvet · your games");
  const box = el("section", { class: "your-games" }, el("h1", {}, t("Your games")), el("p", { class: "loading" }, t("Loading…")));
  main.replaceChildren(box);
  refresh(box);
  // Kept up to date while the page is open and seen (another tab may have moved).
  const timer = setInterval(() => {
    if (!box.isConnected) clearInterval(timer);
    else if (!document.hidden) refresh(box);
  }, REFRESH_MS);
  const seen = () => {
    if (!box.isConnected) document.removeEventListener("visibilitychange", seen);
    else if (!document.hidden) refresh(box);
  };
  document.addEventListener("visibilitychange", seen);
}
