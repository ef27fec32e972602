// The client's entry: a router (lobby, or a room joined by invite link or watched),
// the connection to the server, the table and the game's board module.

import { Connection } from "./net.js";
import { renderLobby, savedSeats, saveSeat, seatKey, forgetSeat } from "./lobby.js";
import { Table, installPopovers, toast } from "./table.js";
import { el } from "./dom.js";
import { renderLearn } from "./learn.js";
import { renderPuzzles } from "./puzzles.js";
import { installLook, lookAtState, lookAtOver, notifyTurn } from "./look.js";
import { renderYourGames, installGamesLink } from "./mygames.js";
import { renderDaily } from "./daily.js";
import { renderReview } from "./review.js";
import { installAccount, renderAccountPage } from "./account.js";
import { gameEntry } from "./catalog.js";
import { showOffer, showDeclined } from "./rematch.js";
import { loadLanguage, installLanguageMenu, language, t, tn } from "./i18n.js";

const page = {
  connection: null,
  table: null,
  cards: {},
  welcome: null,
  state: null,
  over: null,
};
// What the page holds, for tests and the curious: the same data the server sent this seat.
window.velvet = page;

function route() {
  const base = new URL(document.baseURI).pathname;
  const rel = decodeURIComponent(location.pathname.slice(base.length));
  const main = document.getElementById("main");
  if (/^review\/?$/.test(rel)) {
    // #move=N on the open review only selects that move
    if (page.review?.key === location.pathname + location.search) return page.review.fromHash();
    teardown();
    page.review = renderReview(main);
    return;
  }
  teardown();
  const join = /^join\/([^/]+)\/?$/.exec(rel);
  const learn = /^learn(?:\/([a-z0-9]+))?\/?$/.exec(rel);
  const puzzles = /^puzzles(?:\/([a-z0-9]+))?\/?$/.exec(rel);
  if (join) {
    const invite = location.hash.slice(1) || null;
    // The invite (or move code) leaves the address bar at once: history, bookmarks and a
    // shared screen never show it; this browser keeps the secret the claim gives it.
    if (invite) history.replaceState(null, "", location.pathname + location.search);
    openRoom(main, join[1], invite);
  } else if (/^games\/?$/.test(rel)) {
    renderYourGames(main);
  } else if (/^daily\/?$/.test(rel)) {
    renderDaily(main);
  } else if (learn) {
    renderLearn(main, learn[1] || null);
  } else if (puzzles) {
    renderPuzzles(main, puzzles[1] || null);
  } else if (renderAccountPage(main, rel)) {
    // players/NAME, leaderboard (account.js)
  } else {
    document.title = t("Velvet · lobby");
    renderLobby(main);
  }
}

// "Your turn": while a decision of a seat this page plays waits, the tab's title and icon
// say so (seen in the tab strip and the task bar); both go back as soon as it is not.
// Becoming your turn also plays the Look menu's turn sound (look.js, off by default) and,
// in a tab in the background, shows a notification if the player turned them on there.
const titleMark = () => t("● Your turn — ");
const ICON = "static/icon.svg";
// icon.svg with a gold dot: a data: URL (the page's CSP allows data: images, no script).
const TURN_ICON = "data:image/svg+xml," + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1b1030"/><path d="M7 8h5l4 12 4-12h5l-7 17h-4z" fill="#e03a5a"/><circle cx="24.5" cy="7.5" r="7" fill="#ffcf5a" stroke="#1b1030" stroke-width="2"/></svg>');
let wasMine = null; // whether the last state drawn was this page's decision (null: none yet)

function setIcon(href) {
  const link = document.querySelector('link[rel="icon"]');
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

function markTurn(state) {
  const seat = page.welcome?.seat;
  const mine = seat !== null && seat !== undefined && state.status !== "over" && state.to_move === seat && (state.legal || []).length > 0;
  const mark = titleMark();
  const base = document.title.startsWith(mark) ? document.title.slice(mark.length) : document.title;
  document.title = mine ? mark + base : base;
  setIcon(mine ? TURN_ICON : ICON);
  if (mine && wasMine === false) {
    const n = state.legal.length;
    notifyTurn(t("Your turn — Velvet"), tn("{game} · room {room}: {n} choice to make", "{game} · room {room}: {n} choices to make", n, { game: page.welcome.game.toUpperCase(), room: page.welcome.room }), page.welcome.room);
  }
  if (wasMine !== null && mine !== wasMine) installGamesLink(); // the header's count of your moves
  wasMine = mine;
}

function unmarkTurn() {
  if (document.title.startsWith(titleMark())) document.title = document.title.slice(titleMark().length);
  setIcon(ICON);
  wasMine = null;
}

function roomTools(items) {
  document.getElementById("room-tools")?.replaceChildren(...items.filter(Boolean));
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t("Link copied."), "info");
  } catch {
    window.prompt(t("Copy this link:"), text);
  }
}

function teardown() {
  roomTools([]);
  document.querySelector("header.top")?.classList.remove("in-room");
  unmarkTurn();
  page.connection?.close();
  page.table?.destroy();
  Object.assign(page, { connection: null, table: null, welcome: null, state: null, over: null, cards: {}, review: null });
}

function status(text, ok) {
  const node = document.getElementById("status");
  node.textContent = text;
  node.classList.toggle("bad", !ok && Boolean(text));
}

// The board's style sheet, added once; resolves when it has loaded (or failed, or after
// five seconds: a board unstyled beats no board).
function boardSheet(game, href) {
  let link = document.querySelector(`link[data-board="${game}"]`);
  if (link?.dataset.ready || link?.sheet) return Promise.resolve(); // loaded (the server may link it)
  if (!link) {
    link = el("link", { rel: "stylesheet", href, "data-board": game });
    document.head.append(link);
  }
  return new Promise((resolve) => {
    const done = () => {
      link.dataset.ready = "1";
      resolve();
    };
    link.addEventListener("load", done, { once: true });
    link.addEventListener("error", done, { once: true });
    setTimeout(done, 5000);
  });
}

async function loadBoard(game) {
  // The game's board module and its style sheet, as its spec names them (GET api/games).
  let entry = null;
  try {
    entry = await gameEntry(game);
  } catch (error) {
    console.warn(error);
  }
  if (!entry?.board) return [null, t("No board for the game '{game}'; the actions below still work.", { game })];
  const path = `./${entry.board}`;
  const styled = entry.board_css ? boardSheet(game, `static/${entry.board_css}`) : null;
  try {
    const module = await import(path);
    await styled; // drawn before its style sheet, the board would jump when it comes
    if (typeof module.renderBoard !== "function") throw new Error("it has no renderBoard");
    return [module, null];
  } catch (error) {
    console.warn(error);
    return [null, t("The {game} board did not load ({module}); play with the action buttons.", { game: entry.short_title || game, module: entry.board })];
  }
}

async function loadCards(room) {
  try {
    const answer = await fetch(`api/rooms/${encodeURIComponent(room)}/cards?lang=${encodeURIComponent(language())}`);
    if (!answer.ok) return {};
    return (await answer.json()).cards || {};
  } catch {
    return {};
  }
}

function seatName(seat) {
  const info = page.welcome?.seats?.find((s) => s.seat === seat);
  return info?.player || info?.name || `Player ${seat + 1}`;
}

function openRoom(main, room, invite) {
  document.title = t("Velvet · room {room}", { room });
  // the header keeps a line for the room's tools from the start (they come with the welcome)
  document.querySelector("header.top")?.classList.add("in-room");
  const seats = () => savedSeats().filter((s) => s.room === room);
  // The seat this page plays: the invite (or move code) it was opened with, else a seat this
  // browser holds (?seat=N picks one of several), else none: it watches.
  const wanted = new URLSearchParams(location.search).get("seat");
  // An invite this browser claimed already is spent: its saved secret opens the seat.
  const claimed = invite ? seats().find((s) => s.invite === invite) : null;
  const held = claimed || (invite ? null : seats().find((s) => String(s.seat) === wanted) || (wanted === "watch" ? null : seats()[0]));
  const token = held ? seatKey(held) : invite;
  const table = new Table(main, {
    room,
    seats: seats(),
    replayOnOver: new URLSearchParams(location.search).has("replay"),
    onAct: (text) => {
      if (!page.connection.move(text)) toast(t("Not connected: the move is sent when the connection is back."), "info");
    },
    onUndo: () => {
      if (!page.connection.undo()) toast(t("Not connected: try again when the connection is back."), "info");
    },
    onHint: (kind) => page.connection.ask(kind),
    onCancelHint: () => page.connection.cancelHint(),
    onResign: () => page.connection.resign(),
    onRematch: () => page.connection.rematch(),
    onEmote: (emote) => page.connection.emote(emote) || toast(t("Not connected."), "info"),
    onChat: (text) => page.connection.chat(text) || toast(t("Not connected."), "info"),
    onSeat: (seat) => {
      history.replaceState(null, "", `${location.pathname}?seat=${seat === "" ? "watch" : seat}`);
      route();
    },
  });
  page.table = table;
  loadCards(room).then((cards) => {
    if (page.table !== table) return;
    page.cards = cards;
    table.setCards(cards);
  });
  let boardFor = null;
  const connection = new Connection(room, token, {
    status,
    welcome: (msg) => {
      page.welcome = msg;
      // The spent invite is kept beside the secret only to know the link again.
      if (msg.secret && msg.seat !== null) saveSeat({ room, seat: msg.seat, secret: msg.secret, game: msg.game, invite: invite || undefined });
      // Several seats on one screen only in a room made as one screen.
      const mine = seats();
      table.options.seats = msg.hotseat ? mine : mine.filter((s) => s.seat === msg.seat || msg.seat === null).slice(0, 1);
      table.setWelcome(msg);
      const spectate = new URL(`join/${encodeURIComponent(room)}`, document.baseURI).href;
      roomTools([
        msg.hotseat ? el("span", { class: "badge one-screen", title: t("Every seat of this room may be played from one browser") }, t("One screen")) : null,
        el("button", { type: "button", class: "quiet", onclick: () => copyText(spectate) }, t("Copy spectator link")),
        msg.seat !== null && !msg.hotseat
          ? el("button", { type: "button", class: "quiet", onclick: () => page.connection?.transfer() || toast(t("Not connected."), "info") }, t("Move this seat to another device"))
          : null,
      ]);
      if (boardFor !== msg.game) {
        boardFor = msg.game;
        loadBoard(msg.game).then(([module, error]) => page.table === table && table.setBoard(module, error));
      }
    },
    state: (msg) => {
      page.state = msg;
      table.setState(msg);
      markTurn(msg);
      lookAtState(msg, page.welcome?.seat);
    },
    log: (msg) => table.setHistory(msg),
    seats: (msg) => table.setSeats(msg.seats),
    transfer: (msg) => {
      const link = new URL(`join/${encodeURIComponent(room)}#${msg.code}`, document.baseURI).href;
      const box = el("div", { class: "transfer", role: "dialog", "aria-label": t("Move this seat") },
        el("p", {}, t("Open this link on the other device within {n} minutes; it works once. This page then only watches.", { n: Math.round(msg.seconds / 60) })),
        el("input", { readonly: true, value: link, class: "link", "aria-label": t("One-time link for the other device") }),
        el("p", {}, t("Code: "), el("code", {}, msg.code)),
        el("button", { type: "button", onclick: () => copyText(link) }, t("Copy")),
        el("button", { type: "button", class: "quiet", onclick: () => box.remove() }, t("Close")));
      document.getElementById("room-tools")?.append(box);
    },
    over: (msg) => {
      page.over = msg;
      table.setOver(msg);
      lookAtOver(msg, page.welcome?.seat);
    },
    error: (msg) => {
      if (msg.code === "bad_token" || msg.code === "invite_used" || msg.code === "seat_moved") {
        const lost = held ? held.seat : page.welcome?.seat;
        if (lost !== null && lost !== undefined) forgetSeat(room, lost); // its secret opens nothing now
        const say = {
          bad_token: t("This link opens no seat in this room"),
          invite_used: t("This invite was already used"),
          seat_moved: t("This seat moved to another device"),
        }[msg.code];
        status("", true); // no reconnecting: the answer stands
        const why = msg.message.charAt(0).toUpperCase() + msg.message.slice(1);
        main.replaceChildren(el("div", { class: "board-missing", role: "alert" }, el("h2", {}, `${say}.`), el("p", {}, `${why}.`),
          el("p", {}, el("a", { href: `join/${encodeURIComponent(room)}?seat=watch` }, t("Watch the room")), " · ", el("a", { href: "./" }, t("Back to the lobby")))));
        return;
      }
      if (msg.code === "no_room") {
        main.replaceChildren(el("p", { class: "board-missing", role: "alert" }, t("There is no room '{room}'. ", { room }), el("a", { href: "./" }, t("Back to the lobby"))));
        return;
      }
      if (msg.code === "hint_none") return; // a cancel that crossed the answer: nothing to say
      if (msg.code?.startsWith("hint_")) {
        table.hintError(msg); // said in the hint panel; the game is untouched
        return;
      }
      table.error(msg);
      if (page.state) table.setState(page.state); // re-enable the buttons
    },
    hint: (msg) => table.setHint("hint", msg),
    forecast: (msg) => table.setHint("forecast", msg),
    hint_cancelled: () => {}, // the table cleared its panel when it asked
    timer: (msg) => table.setTimer(msg),
    rematch_offer: (msg) => showOffer(msg, page.welcome?.seat, seatName, page.connection),
    rematch_declined: (msg) => showDeclined(msg, page.welcome?.seat, seatName),
    emote: (msg) => table.showEmote(msg),
    chat: (msg) => table.showChat(msg),
    rematch: (msg) => {
      // Each client keeps its own secret; the server says which seat it opens there
      // (between two people the seats are swapped).
      const mine = page.welcome?.seat;
      const seat = msg.seat !== undefined ? msg.seat : mine;
      for (const s of seats()) {
        if (page.welcome?.hotseat) saveSeat({ ...s, room: msg.room });
        else if (s.seat === mine && seat !== null) saveSeat({ ...s, room: msg.room, seat });
      }
      const url = `join/${encodeURIComponent(msg.room)}?seat=${seat ?? "watch"}`;
      toast(t("Rematch: a new game starts."), "info");
      history.pushState(null, "", url);
      route();
    },
  });
  page.connection = connection;
  connection.open();
}

await loadLanguage();
installLanguageMenu(document.getElementById("lang"));
installLook(document.getElementById("look"));
installPopovers(() => page.cards);
installAccount();
installGamesLink();
window.addEventListener("popstate", route);
window.addEventListener("hashchange", route);
route();
