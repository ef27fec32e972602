// The WebSocket protocol client (docs/protocol.md): hello, reconnect with backoff,
// a move resent when the server never saw it or refused it as stale.

import { language } from "./i18n.js";

export const PROTOCOL_VERSION = 1;
export const SERVER_TYPES = new Set(["welcome", "state", "over", "error", "rematch", "rematch_offer", "rematch_declined", "pong", "hint", "forecast", "hint_cancelled", "timer", "log", "transfer", "seats", "emote", "chat"]);

export function socketUrl(room) {
  const base = new URL(document.baseURI);
  const proto = base.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${base.host}${base.pathname.replace(/\/$/, "")}/ws/${encodeURIComponent(room)}`;
}

export class Connection {
  // handlers: {welcome, state, over, error, rematch, status(text, ok)}
  constructor(room, token, handlers) {
    this.room = room;
    this.token = token || null;
    this.handlers = handlers;
    this.ws = null;
    this.version = -1;
    this.pending = null; // {version, action, sent, resent, stale}
    this.last = null; // the newest state message
    this.delay = 500;
    this.closedByUs = false;
    this.fatal = false;
    this.pingTimer = null;
    this.retryTimer = null;
  }

  open() {
    this.closedByUs = false;
    this.handlers.status?.("Connecting…", false);
    let ws;
    try {
      ws = new WebSocket(socketUrl(this.room));
    } catch (error) {
      this.handlers.status?.(`Cannot connect: ${error.message}`, false);
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      // lang: the words the server writes (labels, the log) come in the page's language
      this.send({ type: "hello", token: this.token, lang: language() });
    };
    ws.onmessage = (event) => this.receive(event.data);
    ws.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closedByUs || this.fatal) return;
      this.handlers.status?.("Connection lost; reconnecting…", false);
      this.retry();
    };
  }

  retry() {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), this.delay);
    this.delay = Math.min(this.delay * 2, 10000);
  }

  close() {
    this.closedByUs = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    if (this.ws) this.ws.close();
    this.ws = null;
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ v: PROTOCOL_VERSION, ...message }));
    return true;
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (!msg || !SERVER_TYPES.has(msg.type)) return;
    if (msg.type === "welcome") {
      // A claimed invite is spent: this client's seat secret opens the seat from now on.
      if (typeof msg.secret === "string") this.token = msg.secret;
      this.delay = 500;
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
      this.handlers.status?.("", true);
      this.handlers.welcome?.(msg);
    } else if (msg.type === "state") {
      this.version = msg.version;
      this.last = msg;
      this.settle(msg);
      this.handlers.state?.(msg);
    } else if (msg.type === "error") {
      if (["bad_token", "no_room", "hello_first", "invite_used", "seat_moved"].includes(msg.code)) this.fatal = true;
      if (msg.code === "stale" && this.pending && !this.pending.resent) {
        // Resent against the newest state if the move is still legal there.
        const p = this.pending;
        p.stale = true;
        if (!this.last || this.last.version <= p.version) return; // wait for the newer state
        this.settle(this.last);
        return;
      }
      if (this.pending && ["illegal", "invalid", "not_your_turn", "game_over"].includes(msg.code)) {
        this.pending = null;
      }
      this.handlers.error?.(msg);
    } else {
      this.handlers[msg.type]?.(msg);
    }
  }

  // A state arrived: the pending move was taken, made moot, or must be sent again.
  settle(state) {
    const p = this.pending;
    if (!p) return;
    if (state.ack && state.acked === p.action) {
      this.pending = null;
      return;
    }
    const stillLegal = (state.legal || []).some((a) => a.text === p.action);
    // Same version after a reconnection: the server never took it. Stale: it was refused.
    if ((p.stale || state.version === p.version) && stillLegal && !p.resent) {
      p.resent = true;
      p.stale = false;
      p.version = state.version;
      p.sent = this.send({ type: "move", version: state.version, action: p.action });
      return;
    }
    if (p.stale && state.version > p.version) {
      this.pending = null;
      this.handlers.error?.({ code: "stale", message: "The game moved on before your move arrived; choose again." });
    } else if (state.version > p.version) {
      this.pending = null;
    }
  }

  move(action) {
    const sent = this.send({ type: "move", version: this.version, action });
    this.pending = { version: this.version, action, sent, resent: false, stale: false };
    return sent;
  }

  // Take back this seat's last move (where the room allows it: state.undo).
  undo() {
    return this.send({ type: "undo", version: this.version });
  }

  // Ask for a hint or (P5) the forecast for the decision at hand (where the room allows it).
  ask(kind) {
    return this.send({ type: kind, version: this.version });
  }

  // Stop the hint or forecast being worked out for this socket (its answer never comes).
  cancelHint() {
    return this.send({ type: "hint_cancel" });
  }

  resign() {
    return this.send({ type: "resign" });
  }

  rematch() {
    return this.send({ type: "rematch" });
  }

  declineRematch() {
    return this.send({ type: "rematch_decline" });
  }

  chat(text) {
    return this.send({ type: "chat", text });
  }

  emote(emote) {
    return this.send({ type: "emote", emote });
  }

  // Ask for a one-time code that moves this seat to another device (answered by "transfer").
  transfer() {
    return this.send({ type: "transfer" });
  }
}
