// The game-agnostic table: header (step, whose decision, timer), the board module's
// drawing with clickable refs, the legal actions as buttons with shortcuts, the game log,
// error toasts with the rule, card popovers on hover, tap or focus, and (where the room
// allows) the Hint and Forecast buttons with their answers.

import { el } from "./dom.js";
import { t, localizeNames, seatName, language } from "./i18n.js";

const KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"];

export function toast(text, kind = "error") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = el("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  item.append(el("button", { class: "toast-close", "aria-label": "Dismiss", onclick: () => item.remove() }, "×"));
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 9000 : 4000);
}

/** The preset emotes (protocol.EMOTES) in words. */
const emoteWords = () => ({
  hello: t("Hello!"),
  good_luck: t("Good luck!"),
  nice: t("Nice move!"),
  well_played: t("Well played!"),
  oops: t("Oops!"),
  thinking: t("Thinking…"),
  good_game: t("Good game!"),
});
const MUTE_KEY = "velvet.muteEmotes";

function muted() {
  try {
    return localStorage.getItem(MUTE_KEY) === "1";
  } catch {
    return false;
  }
}

/** ``seconds`` in words: days and hours, hours and minutes, or minutes:seconds. */
export function timeWords(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days) return t("{d} d {h} h", { d: days, h: hours });
  if (hours) return t("{h} h {m} min", { h: hours, m: minutes });
  return `${minutes}:${String(s % 60).padStart(2, "0")}`;
}

export class Table {
  constructor(root, options) {
    this.root = root;
    this.options = options; // {room, onAct(text), onUndo(), onResign(), onRematch(), onHint(kind), seats: [{seat}] (the seats this browser holds), replayOnOver}
    this.welcome = null;
    this.state = null;
    this.over = null;
    this.cards = {};
    this.board = null; // the module
    this.boardError = null;
    this.deadline = null;
    this.log = [];
    this.loggedVersion = -1;
    this.menu = null;
    this.hint = null; // {kind, version, status: "thinking" | "done" | "error" | "moved", data}
    this.build();
    this.tick = setInterval(() => this.countdown(), 1000);
    this.onKey = (event) => this.key(event);
    document.addEventListener("keydown", this.onKey);
    // Where the keyboard is in the table, so a redraw after a move keeps it there.
    this.place = null;
    this.onFocus = (event) => this.noteFocus(event.target);
    document.addEventListener("focusin", this.onFocus);
  }

  destroy() {
    this.replayer?.pause();
    clearInterval(this.tick);
    document.removeEventListener("keydown", this.onKey);
    document.removeEventListener("focusin", this.onFocus);
    this.closeMenu();
  }

  build() {
    this.title = el("h1", { class: "title" }, "Room");
    // Who plays each seat, in the server's words (an account's name, Guest, Bot (hard)).
    this.players = el("ul", { class: "players", "aria-label": t("Players") });
    this.turn = el("span", { class: "turn" });
    this.who = el("button", { type: "button", class: "who", "aria-live": "polite", onclick: () => this.actions.querySelector("button")?.focus() });
    this.timer = el("span", { class: "timer", "aria-label": t("time left for this decision") });
    this.seatBox = el("span", { class: "seats" });
    this.tools = el("span", { class: "tools" });
    this.banner = el("div", { class: "banner", hidden: true, role: "status" });
    this.boardRoot = el("div", { class: "board", id: "board", "aria-label": t("Board") });
    this.actions = el("ol", { class: "action-list" });
    this.hintBar = el("div", { class: "hint-bar", hidden: true });
    // One live region, kept across redraws, so a screen reader hears "thinking" and the answer.
    this.hintPanel = el("div", { class: "hint-panel", "aria-live": "polite", hidden: true });
    this.actionsTitle = el("h2", {}, t("Actions"));
    this.emoteMenu = null; // built for the room's welcome (its emotes and chat options)
    this.logList = el("ol", { class: "log-list", "aria-live": "polite", "aria-relevant": "additions", tabindex: "0", "aria-label": t("Game log") }); // focusable: it scrolls
    this.root.replaceChildren(
      el(
        "section",
        // hidden until the first state and the board are both here: drawn in one go, the
        // table does not jump as its parts arrive (a phone's layout shift)
        { class: "table pending", "data-loading": t("Loading the board…") },
        el("div", { class: "bar" }, this.title, this.players, this.turn, this.who, this.timer, this.seatBox, this.tools),
        this.banner,
        el(
          "div",
          { class: "layout" },
          this.boardRoot,
          el(
            "aside",
            { class: "side" },
            el("section", { class: "actions", "aria-labelledby": "actions-title" }, this.actionsTitle, this.hintBar, this.hintPanel, this.actions),
            el("section", { class: "log" }, el("h2", {}, t("Game log")), this.logList),
          ),
        ),
      ),
    );
    this.actionsTitle.id = "actions-title";
    this.actionsTitle.tabIndex = -1; // the keyboard's place while waiting for the other side
    this.layout = this.root.querySelector(".layout");
    this.replayRoot = el("section", { class: "replay-panel", hidden: true, "aria-label": t("Replay of this game") });
    this.layout.after(this.replayRoot);
  }

  // --- the replay of a finished game ------------------------------------------------------

  async frames(seat) {
    const query = `?lang=${encodeURIComponent(language())}${seat === null ? "" : `&seat=${seat}`}`;
    const answer = await fetch(`api/rooms/${encodeURIComponent(this.welcome.room)}/replay${query}`);
    const data = await answer.json().catch(() => ({}));
    if (!answer.ok) throw new Error(data.message || t("the server answered {status}", { status: answer.status }));
    return data.frames;
  }

  // The game's frames as this seat saw them (a spectator: the public view), on the
  // replay viewer with the game's own board; the table comes back with "Back to the table".
  async openReplay() {
    if (!this.board || this.replaying) return;
    this.replaying = true;
    const close = el("button", { type: "button", class: "close-replay", onclick: () => this.closeReplay() }, t("Back to the table"));
    const holder = el("div", { class: "replay-holder" }, el("p", { class: "loading" }, "Loading the replay…"));
    this.replayRoot.replaceChildren(el("div", { class: "replay-head" }, el("h2", {}, "Replay"), close), holder);
    this.replayRoot.hidden = false;
    this.layout.hidden = true;
    if (!document.querySelector('link[data-replay-css]')) {
      document.head.append(el("link", { rel: "stylesheet", href: "static/replay.css", "data-replay-css": "" }));
    }
    try {
      const [{ mountReplay }, frames] = await Promise.all([import("./replay.js"), this.frames(this.seat())]);
      if (!this.replaying) return;
      const seats = (this.welcome.seats || []).map((s) => ({ seat: s.seat, name: s.name }));
      this.replayOptions = {
        frames,
        renderBoard: this.board.renderBoard,
        game: this.welcome.game,
        cards: this.cards,
        seat: this.seat(),
        seats,
        loadFrames: (seat) => this.frames(seat),
        names: (seat) => this.name(seat),
      };
      this.replayer = mountReplay(holder, this.replayOptions);
      this.replayer.go(frames.length - 1);
      this.replayRoot.scrollIntoView({ block: "start" });
      holder.querySelector(".replay")?.focus({ preventScroll: true });
    } catch (error) {
      holder.replaceChildren(el("p", { class: "board-missing", role: "alert" }, t("The replay could not be loaded: {error}", { error: error.message })));
    }
  }

  closeReplay() {
    this.replayer?.pause();
    this.replayer = null;
    this.replayOptions = null;
    this.replaying = false;
    this.replayRoot.hidden = true;
    this.replayRoot.replaceChildren();
    this.layout.hidden = false;
    this.banner.querySelector(".watch-replay")?.focus();
  }

  // --- inputs -------------------------------------------------------------------------

  setWelcome(welcome) {
    this.welcome = welcome;
    this.emoteMenu = null;
    this.hint = null; // a new connection: an answer asked on the old one never comes
    const key = `velvet.log.${welcome.room}.${welcome.seat ?? "watch"}`;
    this.logKey = key;
    try {
      const saved = JSON.parse(sessionStorage.getItem(key) || "null");
      if (saved && Array.isArray(saved.log)) {
        this.log = saved.log;
        this.loggedVersion = saved.version;
      }
    } catch {
      /* a broken saved log is dropped */
    }
    this.renderLog();
  }

  // The server's `seats` message: a seat changed hands (an invite claimed, a bot standing in).
  setSeats(seats) {
    if (!this.welcome) return;
    this.welcome = { ...this.welcome, seats };
    this.render();
  }

  setCards(cards) {
    this.cards = cards || {};
    if (this.replayOptions) this.replayOptions.cards = this.cards; // read at each frame
    this.render();
  }

  setBoard(module, error) {
    this.board = module;
    this.boardError = error || null;
    this.render();
  }

  setState(state) {
    const previous = this.state;
    this.state = state;
    if (!previous || previous.version !== state.version || previous.to_move !== state.to_move) {
      // A decision already under way (this seat joined or reconnected) has only what is left.
      const seconds = state.time_left ?? this.welcome?.turn_timer;
      if (state.deadline) this.deadline = state.deadline * 1000; // a correspondence room's
      else this.deadline = seconds != null && state.to_move !== null ? Date.now() + seconds * 1000 : null;
    }
    if (state.version > this.loggedVersion && state.events.length) {
      for (const event of state.events) this.log.push({ v: state.version, text: event.text, kind: event.kind });
      this.log = this.log.slice(-400);
      this.loggedVersion = state.version;
      this.saveLog();
    } else if (state.version > this.loggedVersion) {
      this.loggedVersion = state.version;
    }
    const ask = state.events.find((e) => e.kind === "undo_ask");
    if (ask && state.undo_asked !== null && state.undo_asked !== this.seat() && this.askToasted !== state.version) {
      this.askToasted = state.version; // once, not at every redraw of this state
      toast(ask.text, "info");
    }
    this.render();
  }

  setOver(over) {
    this.over = over;
    this.render();
  }

  // The server's log so far (sent on joining), filtered as this seat may see it.
  setHistory(msg) {
    this.log = msg.entries.map((e) => ({ v: e.version, text: e.text, kind: e.kind })).slice(-400);
    this.loggedVersion = msg.version;
    this.saveLog();
    this.renderLog();
  }

  saveLog() {
    try {
      sessionStorage.setItem(this.logKey, JSON.stringify({ version: this.loggedVersion, log: this.log }));
    } catch {
      /* storage full or off: the log lives in the page only */
    }
  }

  error(msg) {
    const rule = msg.rule ? ` (rule ${msg.rule})` : "";
    toast(`${msg.message}${rule}`);
  }

  // --- drawing ------------------------------------------------------------------------

  seat() {
    return this.welcome ? this.welcome.seat : null;
  }

  name(seat) {
    const info = this.welcome?.seats?.find((s) => s.seat === seat);
    return info ? seatName(info.name) : t("Player {number}", { number: seat + 1 });
  }

  render() {
    if (!this.welcome || !this.state) return;
    this.root.firstElementChild?.classList.toggle("pending", !this.board && !this.boardError);
    const { state, welcome } = this;
    const seat = this.seat();
    const game = welcome.game.toUpperCase();
    this.title.textContent = t("{game} · room {room}", { game, room: welcome.room });
    this.turn.textContent = this.stepText();
    if (state.status === "over" || state.to_move === null) {
      this.who.textContent = t("Game over");
    } else if (state.to_move === seat) {
      this.who.textContent = state.legal.length ? t("Your decision") : t("Your seat is played by a bot");
    } else {
      const info = welcome.seats.find((s) => s.seat === state.to_move);
      const bot = info && info.who !== "human" ? ` (${info.who})` : "";
      const person = info?.player ? `${info.player} (${this.name(state.to_move)})` : this.name(state.to_move);
      this.who.textContent = t("{player} decides", { player: `${person}${bot}` });
    }
    this.renderPlayers();
    this.who.classList.toggle("mine", state.to_move === seat && state.legal.length > 0);
    this.root.firstElementChild?.classList.toggle("is-over", state.status === "over");
    if (this.root.firstElementChild) this.root.firstElementChild.dataset.game = welcome.game;
    this.renderTools();
    this.renderBanner();
    if (this.options.replayOnOver && !this.replayAsked && this.board && state.status === "over") {
      this.replayAsked = true; // opened as "Watch the replay" from the lobby
      this.openReplay();
    }
    this.renderBoard();
    this.renderActions();
    this.renderHints();
    this.renderLog();
    this.countdown();
    this.keepPlace();
  }

  renderPlayers() {
    const seat = this.seat();
    const deciding = this.state.status === "over" ? null : this.state.to_move;
    this.players.replaceChildren(
      ...(this.welcome.seats || []).map((s) =>
        el(
          "li",
          { class: s.seat === deciding ? "player deciding" : "player", dataset: { seat: String(s.seat) } },
          el("span", { class: "seat-name" }, `${seatName(s.name)}:`),
          " ",
          el("strong", { class: "player-name" }, s.display_name || s.name),
          s.seat === seat ? el("span", { class: "you" }, t(" (you)")) : null,
          s.seat === deciding ? el("span", { class: "visually-hidden" }, t(" — deciding")) : null,
        ),
      ),
    );
  }

  // The keyboard's place: an action button, a board element, or the actions' heading
  // (waiting for the other side). A menu keeps the place of the element it opened from.
  noteFocus(node) {
    if (this.restoring || !node || !node.closest) return;
    const ref = node.closest("[data-ref].actable");
    if (node.closest(".action-list button.action")) this.place = { kind: "action" };
    else if (ref && this.boardRoot.contains(ref)) this.place = { kind: "ref", ref: ref.dataset.ref };
    else if (node === this.actionsTitle || this.menu?.contains(node)) return;
    else this.place = null;
  }

  // After a redraw the old control may be gone (a move replaces the buttons): put the
  // focus back where it was, else on the next decision's first action, else on the
  // actions' heading, instead of letting it fall to the top of the page.
  keepPlace() {
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected || active.disabled;
    if (!this.place || !lost || this.menu || this.replaying) return;
    let target = null;
    if (this.place.kind === "ref") {
      target = this.boardRoot.querySelector(`[data-ref="${CSS.escape(this.place.ref)}"].actable`);
    }
    target = target || this.actions.querySelector("button.action:not([disabled])") || this.actionsTitle;
    this.restoring = true;
    popoverQuiet = true;
    target.focus();
    popoverQuiet = false;
    this.restoring = false;
  }

  stepText() {
    const ctx = this.context();
    if (this.board?.stepText) {
      try {
        return this.board.stepText(ctx);
      } catch {
        /* fall back to the view's own words */
      }
    }
    const view = this.state.view || {};
    return [view.turn_no ? t("Turn {number}", { number: view.turn_no }) : "", view.step || ""].filter(Boolean).join(" · ");
  }

  renderTools() {
    const seat = this.seat();
    const tools = [];
    const asker = this.state.undo_asked ?? null;
    if (this.state.status !== "over" && seat !== null && asker === seat) {
      tools.push(el("span", { class: "badge undo-wait", role: "status" }, t("Undo asked: waiting for the other player")));
    } else if (this.state.undo && this.state.status !== "over" && seat !== null) {
      // Alone (or against bots) it takes back at once; with another person it asks them,
      // and when they asked, it agrees.
      const people = (this.welcome.seats || []).filter((s) => s.who === "human").length;
      const label = asker !== null ? t("↶ Allow {player}'s undo", { player: this.name(asker) }) : people > 1 ? t("↶ Ask to undo") : t("↶ Undo");
      const title = asker !== null ? t("{player} asks to take back their last move (Ctrl+Z or U agrees)", { player: this.name(asker) }) : t("Take back your last move (Ctrl+Z or U)");
      tools.push(el("button", { class: "quiet undo", type: "button", "aria-keyshortcuts": "Control+Z U", title, onclick: () => this.undo() }, label));
    }
    // Emotes go between people: only once another person holds a seat (not while it is
    // open), never one screen, and not where the room turned them off.
    const others = (this.welcome.seats || []).filter((s) => s.who === "human" && s.seat !== seat && (s.claimed || s.connected));
    if (seat !== null && others.length && !this.welcome.hotseat && (this.welcome.emotes !== false || this.welcome.chat)) {
      this.emoteMenu ??= this.buildEmotes();
      tools.push(this.emoteMenu); // kept open across redraws
    }
    if (this.state.status !== "over" && seat !== null) {
      tools.push(
        el("button", { class: "quiet", type: "button", onclick: () => this.confirmResign() }, t("Resign")),
      );
    }
    this.tools.replaceChildren(...tools);
    const seats = this.options.seats || [];
    if (seats.length > 1 || (seats.length === 1 && seat === null)) {
      const select = el("select", { "aria-label": t("Play as"), class: "seat-picker" });
      for (const s of seats) {
        select.append(el("option", { value: String(s.seat), selected: s.seat === seat }, t("Play as {player}", { player: this.name(s.seat) })));
      }
      select.append(el("option", { value: "", selected: seat === null }, t("Watch")));
      select.addEventListener("change", () => this.options.onSeat?.(select.value));
      this.seatBox.replaceChildren(select);
    } else {
      this.seatBox.replaceChildren(...(seat === null ? [el("span", { class: "badge" }, t("Spectator"))] : []));
    }
  }

  confirmResign() {
    if (window.confirm(t("Resign this game? The other side wins."))) this.options.onResign();
  }

  renderBanner() {
    const over = this.over || (this.state.status === "over" ? { result: this.state.result || {} } : null);
    if (!over) {
      this.banner.hidden = true;
      return;
    }
    const seat = this.seat();
    const returns = over.result?.returns || [];
    let headline = t("The game is over");
    if (seat !== null && returns.length > seat) {
      // Shared results (P5 is played together; a VS draw) say so; otherwise the best wins.
      const mine = returns[seat];
      const others = returns.filter((_, i) => i !== seat);
      // A shared loss or win with others is a co-op one (P5: one resigns, all lose).
      const together = others.length === 1 ? "both" : "all";
      if (others.every((r) => r === mine)) {
        if (mine <= 0) headline = others.length ? (together === "both" ? t("You both lose (co-op)") : t("You all lose (co-op)")) : t("You lose");
        else if (others.length && mine < 1) headline = t("A draw");
        else headline = others.length ? (together === "both" ? t("You both win (co-op)!") : t("You all win (co-op)!")) : t("You win!");
      }
      else headline = mine > Math.max(...others) ? t("You win!") : t("You lose");
    }
    const buttons = [el("a", { class: "button", href: "./" }, t("Back to the lobby"))];
    if (this.board) {
      buttons.unshift(el("button", { type: "button", class: "watch-replay", onclick: () => this.openReplay() }, t("Watch the replay")));
    }
    if (seat !== null) buttons.unshift(el("button", { type: "button", onclick: () => this.options.onRematch() }, t("Rematch")));
    if (this.over?.record) {
      const blob = new Blob([JSON.stringify(this.over.record, null, 1)], { type: "application/json" });
      buttons.push(el("a", { class: "button quiet", href: URL.createObjectURL(blob), download: `velvet-${this.welcome.room}.json` }, t("Download the record")));
      buttons.push(el("a", { class: "button quiet review-game", href: `review?room=${encodeURIComponent(this.welcome.room)}` }, t("Review this game")));
    }
    this.banner.replaceChildren(
      el("strong", {}, headline),
      " ",
      el("span", {}, capitalised(over.result?.text || "")),
      el("span", { class: "banner-buttons" }, ...buttons),
    );
    if (this.banner.hidden) {
      // The end is news: bring it into view (a phone may be scrolled down to its hand).
      this.banner.hidden = false;
      this.banner.tabIndex = -1;
      requestAnimationFrame(() => {
        this.banner.scrollIntoView({ block: "center" });
        this.banner.focus({ preventScroll: true });
      });
    }
  }

  context() {
    return {
      game: this.welcome.game,
      view: this.state.view,
      seat: this.seat(),
      toMove: this.state.to_move,
      legal: this.state.legal,
      cards: this.cards,
      events: this.state.events,
      version: this.state.version,
      deadline: this.deadline,
      names: (seat) => this.name(seat),
      act: (text) => this.act(text),
    };
  }

  renderBoard() {
    this.closeMenu();
    hidePopover();
    const keepFocus = document.activeElement?.dataset?.ref;
    if (!this.board) {
      const text = this.boardError || t("Loading the board…");
      this.boardRoot.replaceChildren(el("p", { class: "board-missing", role: "note" }, text));
      return;
    }
    try {
      this.boardRoot.replaceChildren();
      this.board.renderBoard(this.boardRoot, this.context());
      // the board's own headings (h3 and below in P5) come under one of the page's h2s
      this.boardRoot.prepend(el("h2", { class: "visually-hidden" }, t("Board")));
    } catch (error) {
      console.error(error);
      this.boardRoot.replaceChildren(
        el("p", { class: "board-missing", role: "alert" }, `The board could not be drawn (${error.message}); the actions still work.`),
      );
    }
    this.wireRefs();
    this.wireCards(this.boardRoot);
    if (keepFocus) {
      // Keep the keyboard's place across redraws, without popping the card open again.
      popoverQuiet = true;
      this.boardRoot.querySelector(`[data-ref="${CSS.escape(keepFocus)}"]`)?.focus();
      popoverQuiet = false;
    }
  }

  // Every element whose ref some legal action names becomes a control. An action's first
  // target is the thing whose click means it; the others are only touched by it, so a
  // click offers the actions an element is first for, or, if none, those touching it
  // (P5: a location's click visits it; its confidant's click recruits).
  wireRefs() {
    const first = new Map();
    const touched = new Map();
    for (const action of this.state.legal) {
      (action.targets || []).forEach((ref, i) => {
        const by = i === 0 ? first : touched;
        if (!by.has(ref)) by.set(ref, []);
        by.get(ref).push(action);
      });
    }
    for (const node of this.boardRoot.querySelectorAll("[data-ref]")) {
      const actions = first.get(node.dataset.ref) || touched.get(node.dataset.ref);
      if (!actions) continue;
      // An element only touched by its actions (the first target of none) offers them in
      // the menu, never at once: what its click means is not the element itself.
      const indirect = !first.has(node.dataset.ref);
      node.classList.add("actable");
      node.dataset.act = t("act"); // the "▸ act" corner mark (style.css) in the page's language
      node.tabIndex = 0;
      node.setAttribute("role", "button");
      const what = node.getAttribute("aria-label") || node.textContent.trim().slice(0, 60);
      const hint = actions.length === 1 ? actions[0].label : `${actions.length} actions`;
      node.setAttribute("aria-label", `${what}: ${hint}`);
      node.title = actions.map((a) => (a.note ? `${a.label} — ${a.note}` : a.label)).join("\n");
      const open = node.closest("details");
      if (open) open.open = true;
      // A mouse click or a key makes the one action at once; on a touch or narrow screen
      // a tap only selects the thing and shows its full text with its actions, and a
      // second, deliberate tap on an action plays it (a tap meant to read a card must
      // not play it).
      const go = (event, careful) => {
        event.preventDefault();
        event.stopPropagation();
        if (actions.length === 1 && !careful) this.act(actions[0].text);
        else this.openMenu(node, actions);
      };
      node.addEventListener("click", (event) => go(event, indirect || carefulTaps()));
      node.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") go(event, indirect);
      });
    }
  }

  wireCards(root) {
    for (const node of root.querySelectorAll("[data-card]")) {
      if (!node.hasAttribute("tabindex")) node.tabIndex = 0;
    }
  }

  openMenu(anchor, actions) {
    this.closeMenu();
    // The card's text sits beside the menu proper (a role="menu" holds menu items only).
    const menu = el("div", { class: "menu" });
    const items = el("div", { class: "menu-items", role: "menu", "aria-label": "Choose an action" });
    // A card's whole text (its skills and abilities too) above its actions.
    const info = anchor.dataset.card ? this.cards[anchor.dataset.card] : null;
    if (info) {
      menu.append(
        el(
          "div",
          { class: "menu-card", id: "menu-card" },
          el("strong", { class: "pop-name" }, info.name),
          el("span", { class: "pop-kind" }, ` · ${info.kind}`),
          el("ul", {}, ...info.lines.map((line) => el("li", {}, line))),
        ),
      );
    }
    anchor.classList.add("selected");
    hidePopover();
    if (info) items.setAttribute("aria-describedby", "menu-card");
    menu.append(items);
    actions.forEach((action) => {
      items.append(
        el(
          "button",
          { type: "button", role: "menuitem", dataset: { action: action.text }, onclick: () => { this.closeMenu(); this.act(action.text); } },
          action.label,
          action.note ? el("small", { class: "note" }, action.note) : null,
        ),
      );
    });
    items.append(el("button", { type: "button", role: "menuitem", class: "quiet", onclick: () => this.closeMenu(anchor) }, "Cancel"));
    menu.addEventListener("keydown", (event) => {
      const items = [...menu.querySelectorAll("button")];
      const i = items.indexOf(document.activeElement);
      if (event.key === "Escape") { event.preventDefault(); this.closeMenu(anchor); }
      else if (event.key === "ArrowDown") { event.preventDefault(); items[(i + 1) % items.length].focus(); }
      else if (event.key === "ArrowUp") { event.preventDefault(); items[(i - 1 + items.length) % items.length].focus(); }
    });
    document.body.append(menu);
    const box = anchor.getBoundingClientRect();
    const width = Math.min(360, window.innerWidth - 16);
    menu.style.width = `${width}px`;
    menu.style.left = `${Math.max(8, Math.min(box.left + window.scrollX, window.scrollX + window.innerWidth - width - 8))}px`;
    menu.style.top = `${box.bottom + window.scrollY + 4}px`;
    this.menu = menu;
    this.menuOutside = (event) => { if (!menu.contains(event.target)) this.closeMenu(); };
    setTimeout(() => document.addEventListener("pointerdown", this.menuOutside), 0);
    menu.querySelector("button").focus();
  }

  closeMenu(returnTo) {
    if (!this.menu) return;
    this.menu.remove();
    this.menu = null;
    for (const node of this.boardRoot.querySelectorAll(".selected")) node.classList.remove("selected");
    document.removeEventListener("pointerdown", this.menuOutside);
    returnTo?.focus?.();
  }

  renderActions() {
    const legal = this.state.legal;
    const seat = this.seat();
    this.actionsTitle.textContent = legal.length ? t("Your actions ({count})", { count: legal.length }) : t("Actions");
    if (!legal.length) {
      let text = t("Waiting for the other side.");
      if (seat === null) text = t("You are watching: spectators see no hand and make no moves.");
      else if (this.state.status === "over") text = t("No more moves.");
      this.actions.replaceChildren(el("li", { class: "idle" }, text));
      return;
    }
    this.actions.replaceChildren(
      ...legal.map((action, i) =>
        el(
          "li",
          {},
          el(
            "button",
            {
              type: "button",
              class: this.hinted?.text === action.text && this.hinted.version === this.state.version ? "action hinted" : "action",
              dataset: { action: action.text },
              "aria-keyshortcuts": KEYS[i] || null,
              onclick: () => this.act(action.text),
            },
            KEYS[i] ? el("kbd", { "aria-hidden": "true" }, KEYS[i]) : el("span", { class: "nokey" }),
            el("span", { class: "label" }, localizeNames(this.welcome.game, action.label)),
            action.note ? el("small", { class: "note" }, action.note) : null,
          ),
        ),
      ),
    );
  }

  // --- hints ---------------------------------------------------------------------------

  canAsk(kind) {
    const flag = kind === "forecast" ? this.welcome?.forecast : this.welcome?.hints;
    return Boolean(flag && this.state && this.state.status !== "over" && this.state.legal.length > 0 && !this.replaying);
  }

  askHint(kind) {
    if (this.hint?.status === "thinking") {
      if (this.hint.kind === kind) this.cancelHint(); // pressed again: cancel it
      return;
    }
    if (!this.canAsk(kind)) return;
    if (!this.options.onHint?.(kind)) {
      toast(t("Not connected: ask again when the connection is back."), "info");
      return;
    }
    this.hint = { kind, version: this.state.version, status: "thinking", data: null };
    this.renderHints();
  }

  // Stop the hint or forecast being worked out: the server drops its answer and frees the
  // slot at once, so another may be asked straight away.
  cancelHint() {
    if (this.hint?.status !== "thinking") return;
    const kind = this.hint.kind;
    this.options.onCancelHint?.();
    this.hint = null;
    this.renderHints();
    this.hintBar.querySelector(kind === "forecast" ? ".forecast-button" : ".hint-button")?.focus();
  }

  // The server's answer: shown if it is the one asked for the decision on the table now
  // (an answer that crossed a cancel is dropped).
  setHint(kind, msg) {
    if (!this.state || msg.version !== this.state.version) return;
    if (this.hint?.status !== "thinking" || this.hint.kind !== kind) return;
    this.hint = { kind, version: msg.version, status: "done", data: msg };
    this.renderHints();
  }

  hintError(msg) {
    const kind = this.hint?.kind || "hint";
    const version = this.state?.version ?? -1;
    if (this.hint?.status === "moved" && msg.code === "hint_stale") {
      // The answer for the old decision was dropped by the server: a new one may be asked.
      this.hint = { kind, version, status: "error", data: { message: t("the game moved on before the {what} came; ask again", { what: t(kind) }) } };
    } else {
      this.hint = { kind, version, status: "error", data: msg };
    }
    this.renderHints();
  }

  renderHints() {
    if (!this.welcome || !this.state) return;
    const hint = this.hint;
    if (hint && hint.version !== this.state.version) {
      // The game moved on: an answer for the old decision is of no use any more.
      this.hint = hint.status === "thinking" ? { ...hint, version: this.state.version, status: "moved" } : null;
    }
    const buttons = [];
    const busy = this.hint?.status === "thinking" || this.hint?.status === "moved";
    // While one is worked out its own button cancels it (pressed again, or Esc); the other waits.
    const pending = this.hint?.status === "thinking" ? this.hint.kind : null;
    if (this.canAsk("hint")) {
      const cancels = pending === "hint";
      buttons.push(
        el("button", { type: "button", class: "hint-button", "aria-keyshortcuts": cancels ? "H Escape" : "H", "aria-pressed": cancels ? "true" : "false", title: cancels ? t("Cancel the hint being worked out (H or Esc)") : t("The hard bot's three best choices for you, with their chance to win and why (H)"), disabled: busy && !cancels, onclick: () => this.askHint("hint") },
          el("kbd", { "aria-hidden": "true" }, "H"), t("Hint")),
      );
    }
    if (this.canAsk("forecast")) {
      const cancels = pending === "forecast";
      buttons.push(
        el("button", { type: "button", class: "forecast-button", "aria-keyshortcuts": cancels ? "F Escape" : "F", "aria-pressed": cancels ? "true" : "false", title: cancels ? t("Cancel the forecast being worked out (F or Esc)") : t("Your chance to beat the boss in time, from games played from here (F)"), disabled: busy && !cancels, onclick: () => this.askHint("forecast") },
          el("kbd", { "aria-hidden": "true" }, "F"), t("Forecast")),
      );
    }
    const hadFocus = this.hintBar.contains(document.activeElement) ? document.activeElement.className : null;
    this.hintBar.replaceChildren(...buttons);
    this.hintBar.hidden = buttons.length === 0;
    if (hadFocus) this.hintBar.querySelector(`.${hadFocus.split(" ")[0]}`)?.focus();
    const shown = this.hint && (buttons.length || this.hint.status === "moved") ? this.hint : null;
    this.hintPanel.hidden = !shown;
    if (!shown) {
      this.hintPanel.replaceChildren();
      return;
    }
    this.hintPanel.replaceChildren(...this.hintBody(shown));
  }

  hintBody(hint) {
    const what = hint.kind === "forecast" ? "forecast" : "hint";
    if (hint.status === "thinking") {
      const doing = hint.kind === "forecast" ? t("Playing games from your view…") : t("Thinking… (the hard bot's search, from your view only)");
      const cancel = el("button", { type: "button", class: "quiet hint-cancel", "aria-keyshortcuts": "Escape", onclick: () => this.cancelHint() }, t("Cancel "), el("kbd", { "aria-hidden": "true" }, "Esc"));
      return [el("p", { class: "hint-thinking" }, el("span", { class: "spinner", "aria-hidden": "true" }), doing, " ", cancel)];
    }
    if (hint.status === "moved") return [el("p", { class: "hint-note" }, t("The game moved on before the {what} came; you can ask again in a moment.", { what: t(what) }))];
    if (hint.status === "error") return [el("p", { class: "hint-note", role: "alert" }, t("No {what}: {error}", { what: t(what), error: hint.data.message }))];
    const close = el("button", { type: "button", class: "quiet hint-close", "aria-label": t("Close the {what}", { what: t(what) }), onclick: () => { this.hint = null; this.renderHints(); this.hintBar.querySelector("button")?.focus(); } }, "×");
    if (hint.kind === "forecast") {
      const f = hint.data;
      return [
        el("div", { class: "hint-head" }, el("strong", {}, t("Forecast")), close),
        el("p", { class: "forecast" },
          el("strong", { class: "forecast-rate" }, percent(f.rate)),
          ` chance to beat the boss by day ${f.days} if every seat plays like the ${f.bot} bot${f.bot_is ? ` (${f.bot_is})` : ""}`,
          el("span", { class: "hint-margin" }, ` (95% interval ${percent(f.low)}–${percent(f.high)}, ± ${percent(f.margin)})`)),
        el("p", { class: "hint-meta" }, `${f.games} game${f.games === 1 ? "" : "s"} played from your view by the ${f.bot} bot in ${f.seconds.toFixed(1)} s. ${f.bot === (f.hints_bot || "easy") ? "The hints assume the same play, after their move." : `The hints assume the ${f.hints_bot || "easy"} bot's play, so the two may differ.`}${f.hints_spread ? ` As this game's own chance a hint's is good to ± ${percent(f.hints_spread)} only, so where the two differ this forecast, which plays the games out, is the sharper one.` : ""}`),
      ];
    }
    const list = el("ol", { class: "hint-list" });
    hint.data.hints.forEach((h, i) => {
      const known = this.state.legal.some((a) => a.text === h.action);
      list.append(
        el("li", {},
          el("button", { type: "button", class: "hint-choice", dataset: { action: h.action }, disabled: !known, title: t("Show this choice among your actions (it is not played)"), onclick: () => this.showChoice(h.action) },
            el("span", { class: "hint-rank", "aria-hidden": "true" }, `${i + 1}`),
            el("span", { class: "hint-label" }, h.label),
            el("span", { class: "hint-win" }, `${percent(h.win)} ± ${percent(h.margin)}`),
            el("small", { class: "hint-reason" }, `${h.reason} (${h.visits} simulations)`)),
        ),
      );
    });
    return [
      el("div", { class: "hint-head" }, el("strong", {}, `Hint: best first, with the chance to win if every seat plays on like the ${hint.data.bot || "easy"} bot${hint.data.bot_is ? ` (${hint.data.bot_is})` : ""}`), close),
      hint.data.hints.length ? list : el("p", { class: "hint-note" }, t("The search found no choice to suggest.")),
      ...(hint.data.hints[0]?.spread ? [el("p", { class: "hint-meta" }, `These chances rank the moves within their margins; as this game's own chance each is good to ± ${percent(hint.data.hints[0].spread)} only (positions the search values alike are won that differently, measured).${this.canAsk("forecast") ? " The forecast plays the games out: where it differs, it is the sharper one." : ""}`)] : []),
    ];
  }

  // A hinted choice: point at its action button (focused and marked), never play it.
  showChoice(text) {
    for (const b of this.actions.querySelectorAll(".action.hinted")) b.classList.remove("hinted");
    const button = this.actions.querySelector(`.action[data-action="${CSS.escape(text)}"]`);
    if (!button) return;
    button.classList.add("hinted");
    this.hinted = { text, version: this.state.version };
    button.scrollIntoView({ block: "nearest" });
    button.focus();
  }

  // --- emotes: a few preset words to the other players; text chat where the room has it --

  buildEmotes() {
    const menu = el("details", { class: "emote-menu" });
    const mute = el("input", { type: "checkbox", id: "emote-mute", checked: muted() });
    mute.addEventListener("change", () => {
      try {
        localStorage.setItem(MUTE_KEY, mute.checked ? "1" : "0");
      } catch {
        // private browsing: the choice lasts this page
      }
      this.muteEmotes = mute.checked;
    });
    this.muteEmotes = muted();
    const buttons = this.welcome.emotes === false ? [] : Object.entries(emoteWords()).map(([id, words]) =>
      el("button", { type: "button", class: "quiet", dataset: { emote: id }, onclick: () => {
        menu.open = false;
        this.options.onEmote?.(id);
      } }, words));
    // a room with text chat: one line at a time, sent as text (the server makes it plain)
    let chat = null;
    if (this.welcome.chat) {
      const line = el("input", { type: "text", id: "chat-line", maxlength: "200", autocomplete: "off", "aria-label": t("Message to the other players") });
      chat = el("form", { class: "chat-form", onsubmit: (event) => {
        event.preventDefault();
        const text = line.value.trim();
        if (!text) return;
        this.options.onChat?.(text);
        line.value = "";
      } }, line, el("button", { type: "submit", class: "quiet" }, t("Send")));
    }
    const muteWords = this.welcome.chat ? t("Mute the other players' emotes and chat") : t("Mute the other players' emotes");
    menu.append(
      el("summary", { class: "button quiet" }, t("Say…")),
      el("div", { class: "emote-list", role: "group", "aria-label": t("Emotes") }, ...buttons, chat,
        el("label", { class: "emote-mute", for: "emote-mute" }, mute, " ", muteWords)),
    );
    return menu;
  }

  // A chat line (another player's, or this seat's own as the room heard it): in a toast
  // and in the game log, as text; never when this browser muted the others'.
  showChat(msg) {
    if (this.muteEmotes && msg.seat !== this.seat()) return;
    const words = t("{player}: {words}", { player: this.name(msg.seat), words: msg.text });
    toast(words, "info");
    this.log.push({ kind: "chat", text: words, chat: true });
    this.renderLog();
  }

  // Another player's emote (or this seat's own, as the room heard it): said in a toast,
  // unless this browser muted the others'.
  showEmote(msg) {
    if (this.muteEmotes && msg.seat !== this.seat()) return;
    const words = emoteWords()[msg.emote];
    if (words) toast(t("{player}: {words}", { player: this.name(msg.seat), words }), "info");
  }

  // The deciding seat's deadline moved by the time its hint took (the server's turn timer
  // does not run a seat's turn out while its own hint is worked out).
  setTimer(msg) {
    if (!this.state || msg.version !== this.state.version || this.state.to_move !== msg.seat) return;
    this.deadline = Date.now() + msg.left * 1000;
    this.countdown();
  }

  renderLog() {
    // a chat line is a person's own words: shown as written, card names untouched
    const items = this.log.slice(-150).map((entry) => el("li", { class: `ev ev-${entry.kind}` }, entry.chat ? entry.text : localizeNames(this.welcome.game, entry.text)));
    this.logList.replaceChildren(...items);
    this.logList.scrollTop = this.logList.scrollHeight;
  }

  countdown() {
    if (!this.deadline || !this.state || this.state.to_move === null) {
      this.timer.textContent = "";
      for (const node of this.boardRoot.querySelectorAll("[data-countdown]")) node.textContent = "";
      return;
    }
    const left = Math.max(0, Math.ceil((this.deadline - Date.now()) / 1000));
    const text = t("{left} left", { left: timeWords(left) });
    this.timer.textContent = text;
    this.timer.classList.toggle("urgent", left <= 10);
    for (const node of this.boardRoot.querySelectorAll("[data-countdown]")) node.textContent = text;
  }

  act(text) {
    if (!this.state.legal.some((a) => a.text === text)) return;
    this.options.onAct(text);
    // Nothing more to choose until the server answers.
    for (const b of this.actions.querySelectorAll("button")) b.disabled = true;
  }

  undo() {
    if (!this.state?.undo || this.replaying) return;
    this.options.onUndo?.();
    for (const b of this.actions.querySelectorAll("button")) b.disabled = true;
    const button = this.tools.querySelector(".undo");
    if (button) button.disabled = true;
  }

  key(event) {
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (this.menu) return;
    const ctrlZ = (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "z";
    const plainU = !event.ctrlKey && !event.metaKey && !event.altKey && event.key === "u";
    if ((ctrlZ || plainU) && this.state?.undo) {
      event.preventDefault();
      this.undo();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape" && this.hint?.status === "thinking") {
      event.preventDefault();
      this.cancelHint();
      return;
    }
    if ((event.key === "h" || event.key === "f") && !event.repeat) {
      const kind = event.key === "h" ? "hint" : "forecast";
      if (this.canAsk(kind) || this.hint?.status === "thinking") {
        event.preventDefault();
        this.askHint(kind);
      }
      return;
    }
    const i = KEYS.indexOf(event.key);
    if (i >= 0 && this.state && i < this.state.legal.length) {
      event.preventDefault();
      this.act(this.state.legal[i].text);
    }
  }
}

// Touch screens (no hover) and narrow ones: a tap selects, a second tap plays.
const carefulTaps = () =>
  typeof matchMedia === "function" && matchMedia("(hover: none), (pointer: coarse), (max-width: 600px)").matches;

const percent = (x) => `${Math.round(x * 100)}%`;

const capitalised = (text) => text.charAt(0).toUpperCase() + text.slice(1);

let popoverQuiet = false;

export function hidePopover() {
  const pop = document.getElementById("popover");
  if (pop) pop.hidden = true;
}

// Card popovers: any element with data-card="<id>" explains the card on hover, tap or focus.
export function installPopovers(getCards) {
  const pop = document.getElementById("popover");
  if (!pop) return;
  let current = null;
  const show = (node) => {
    if (popoverQuiet) return;
    const info = getCards()[node.dataset.card];
    if (!info) return;
    current = node;
    pop.replaceChildren(
      el("strong", { class: "pop-name" }, info.name),
      el("span", { class: "pop-kind" }, ` · ${info.kind}`),
      el("ul", {}, ...info.lines.map((line) => el("li", {}, line))),
    );
    pop.hidden = false;
    const box = node.getBoundingClientRect();
    const width = Math.min(320, window.innerWidth - 16);
    pop.style.width = `${width}px`;
    const left = Math.max(8, Math.min(box.left, window.innerWidth - width - 8));
    pop.style.left = `${left + window.scrollX}px`;
    const below = box.bottom + 6;
    const height = pop.offsetHeight;
    const top = below + height > window.innerHeight && box.top - height - 6 > 0 ? box.top - height - 6 : below;
    pop.style.top = `${top + window.scrollY}px`;
    node.setAttribute("aria-describedby", "popover");
  };
  const hide = (node) => {
    if (node && node !== current) return;
    pop.hidden = true;
    current?.removeAttribute("aria-describedby");
    current = null;
  };
  document.addEventListener("mouseover", (e) => { const n = e.target.closest?.("[data-card]"); if (n) show(n); });
  document.addEventListener("mouseout", (e) => { const n = e.target.closest?.("[data-card]"); if (n) hide(n); });
  document.addEventListener("focusin", (e) => { const n = e.target.closest?.("[data-card]"); if (n) show(n); else hide(); });
  document.addEventListener("focusout", (e) => { const n = e.target.closest?.("[data-card]"); if (n) hide(n); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hide(); });
  // A scroll hides a hovered card's text; a focused card (the keyboard's, which the
  // browser may have just scrolled into view) keeps it, placed again.
  window.addEventListener("scroll", () => (current && current === document.activeElement ? show(current) : hide()), { passive: true });
}
