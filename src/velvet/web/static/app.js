// The client's entry: a router (lobby, or a room joined by invite link or watched),
// the connection to the server, the table and the game's board module.

import { Connection } from "./net.js";
import { renderLobby, savedSeats, saveSeat } from "./lobby.js";
import { Table, installPopovers, toast } from "./table.js";
import { el } from "./dom.js";
import { renderLearn } from "./learn.js";

const BOARDS = { vs: "./vs.js", p5: "./p5.js" };
const BOARD_CSS = { p5: "static/p5.css" };

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
  teardown();
  const join = /^join\/([^/]+)\/?$/.exec(rel);
  const learn = /^learn(?:\/([a-z0-9]+))?\/?$/.exec(rel);
  if (join) {
    openRoom(main, join[1], location.hash.slice(1) || null);
  } else if (learn) {
    renderLearn(main, learn[1] || null);
  } else {
    document.title = "Velvet · lobby";
    renderLobby(main);
  }
}

function teardown() {
  page.connection?.close();
  page.table?.destroy();
  Object.assign(page, { connection: null, table: null, welcome: null, state: null, over: null, cards: {} });
}

function status(text, ok) {
  const node = document.getElementById("status");
  node.textContent = text;
  node.classList.toggle("bad", !ok && Boolean(text));
}

async function loadBoard(game) {
  const path = BOARDS[game];
  if (!path) return [null, `No board for the game '${game}'; the actions below still work.`];
  if (BOARD_CSS[game] && !document.querySelector(`link[data-board="${game}"]`)) {
    document.head.append(el("link", { rel: "stylesheet", href: BOARD_CSS[game], "data-board": game }));
  }
  try {
    const module = await import(path);
    if (typeof module.renderBoard !== "function") throw new Error("it has no renderBoard");
    return [module, null];
  } catch (error) {
    console.warn(error);
    return [null, `The ${game.toUpperCase()} board is not part of this build yet (${path} did not load); play with the action buttons.`];
  }
}

async function loadCards(room) {
  try {
    const answer = await fetch(`api/rooms/${encodeURIComponent(room)}/cards`);
    if (!answer.ok) return {};
    return (await answer.json()).cards || {};
  } catch {
    return {};
  }
}

function openRoom(main, room, token) {
  document.title = `Velvet · room ${room}`;
  const seats = () => savedSeats().filter((s) => s.room === room);
  const table = new Table(main, {
    room,
    seats: seats(),
    replayOnOver: new URLSearchParams(location.search).has("replay"),
    onAct: (text) => {
      if (!page.connection.move(text)) toast("Not connected: the move is sent when the connection is back.", "info");
    },
    onUndo: () => {
      if (!page.connection.undo()) toast("Not connected: try again when the connection is back.", "info");
    },
    onHint: (kind) => page.connection.ask(kind),
    onCancelHint: () => page.connection.cancelHint(),
    onResign: () => page.connection.resign(),
    onRematch: () => page.connection.rematch(),
    onSeat: (newToken) => {
      if (newToken) {
        location.hash = newToken; // hashchange opens the room as that seat
      } else {
        history.replaceState(null, "", location.pathname);
        route();
      }
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
      if (token && msg.seat !== null) saveSeat({ room, seat: msg.seat, token, game: msg.game });
      table.options.seats = seats();
      table.setWelcome(msg);
      if (boardFor !== msg.game) {
        boardFor = msg.game;
        loadBoard(msg.game).then(([module, error]) => page.table === table && table.setBoard(module, error));
      }
    },
    state: (msg) => {
      page.state = msg;
      table.setState(msg);
    },
    over: (msg) => {
      page.over = msg;
      table.setOver(msg);
    },
    error: (msg) => {
      if (msg.code === "bad_token") {
        main.replaceChildren(el("p", { class: "board-missing", role: "alert" }, "This invite link opens no seat in this room (", msg.message, "). ", el("a", { href: "./" }, "Back to the lobby")));
        return;
      }
      if (msg.code === "no_room") {
        main.replaceChildren(el("p", { class: "board-missing", role: "alert" }, `There is no room '${room}'. `, el("a", { href: "./" }, "Back to the lobby")));
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
    rematch: (msg) => {
      const url = `join/${encodeURIComponent(msg.room)}${token ? `#${token}` : ""}`;
      toast("Rematch: a new game starts.", "info");
      history.pushState(null, "", url);
      route();
    },
  });
  page.connection = connection;
  connection.open();
}

installPopovers(() => page.cards);
window.addEventListener("popstate", route);
window.addEventListener("hashchange", route);
route();
