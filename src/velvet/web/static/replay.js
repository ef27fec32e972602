// The replay viewer: a finished game's frames (GET /api/rooms/{room}/replay?seat=N)
// on a timeline — step back and forward, jump with the slider, play at a pace — with a
// choice of whose view to show. Keyboard: ← / → step, Home / End, Space plays or pauses
// (while the viewer has focus); the slider and the selects are native controls.
//
// mountReplay(root, options) → controller {go(i), step(d), play(), pause(), index, frames}
// options:
//   frames       [{index, view, events, to_move, move, label, mover, headline}] — as the server
//                sends them; the headline names who moved ("Player 1 summons …")
//   renderBoard  (root, ctx) — the game's board (p5.js or the VS board)
//   game, cards  passed on to renderBoard
//   seat         whose frames these are (null: a spectator)
//   seats        [{seat, name}] — the views to choose from (a spectator's is always offered)
//   loadFrames   async (seat) → frames, to switch whose view is shown (choice hidden without it)
//   names        optional (seat) → the seat's name, passed on to renderBoard (default "Player N")

const PACES = [
  ["0.5", "fast (½ s)"],
  ["1", "1 move a second"],
  ["2", "slow (2 s)"],
];

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, String(value));
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

export function mountReplay(root, options) {
  let frames = options.frames || [];
  let seat = options.seat ?? null;
  let index = 0;
  let timer = null;
  const names = options.names || ((s) => `Player ${s + 1}`);

  const board = el("div", { class: "replay-board" });
  const where = el("div", { class: "replay-where", role: "status", "aria-live": "polite" });
  const log = el("ol", { class: "replay-events", "aria-label": "What this move did", tabindex: "0" });
  const back = el("button", { type: "button", "aria-label": "Step back", "data-replay": "back" }, "◀ Back");
  const forward = el("button", { type: "button", "aria-label": "Step forward", "data-replay": "forward" }, "Forward ▶");
  const first = el("button", { type: "button", "aria-label": "First position", "data-replay": "first" }, "« First");
  const last = el("button", { type: "button", "aria-label": "Last position", "data-replay": "last" }, "Last »");
  const playButton = el("button", { type: "button", "data-replay": "play", "aria-pressed": "false" }, "Play");
  const slider = el("input", { type: "range", min: "0", value: "0", step: "1", "aria-label": "Move", "data-replay": "slider" });
  const pace = el("select", { "aria-label": "Pace", "data-replay": "pace" });
  for (const [value, text] of PACES) pace.append(el("option", { value, text }));
  pace.value = "1";

  let viewChoice = null;
  if (typeof options.loadFrames === "function") {
    viewChoice = el("select", { "aria-label": "Whose view", "data-replay": "view" });
    viewChoice.append(el("option", { value: "", text: "Spectator (public view)" }));
    for (const s of options.seats || []) {
      viewChoice.append(el("option", { value: String(s.seat), text: s.name || `Player ${s.seat + 1}` }));
    }
    viewChoice.value = seat === null ? "" : String(seat);
    viewChoice.addEventListener("change", async () => {
      const wanted = viewChoice.value === "" ? null : Number(viewChoice.value);
      viewChoice.disabled = true;
      try {
        const got = await options.loadFrames(wanted);
        frames = got;
        seat = wanted;
        go(Math.min(index, frames.length - 1));
      } catch (error) {
        where.textContent = `Could not load that view: ${error && error.message ? error.message : error}`;
      } finally {
        viewChoice.disabled = false;
      }
    });
  }

  const controls = el(
    "div",
    { class: "replay-controls", role: "toolbar", "aria-label": "Replay" },
    first,
    back,
    playButton,
    forward,
    last,
    slider,
    el("label", {}, "Pace ", pace),
    viewChoice ? el("label", {}, "View ", viewChoice) : null,
  );
  const wrap = el("div", { class: "replay", tabindex: "0", "aria-label": "Replay viewer" }, controls, where, log, board);
  root.replaceChildren(wrap);

  function show() {
    const frame = frames[index];
    if (!frame) {
      where.textContent = "This game has no moves to show.";
      board.replaceChildren();
      return;
    }
    slider.max = String(Math.max(0, frames.length - 1));
    slider.value = String(index);
    back.disabled = first.disabled = index === 0;
    forward.disabled = last.disabled = index >= frames.length - 1;
    const moves = frames.length - 1;
    where.textContent =
      index === 0 ? `Start — ${moves} moves in all` : `Move ${index} of ${moves}: ${frame.headline || frame.label || frame.move || ""}`;
    where.dataset.index = String(index);
    log.replaceChildren(...(frame.events || []).map((e) => el("li", { text: e.text || e.kind })));
    board.replaceChildren(); // a board module may add to its root rather than replace it
    options.renderBoard(board, {
      game: options.game,
      view: frame.view,
      seat,
      toMove: frame.to_move ?? null,
      legal: [],
      cards: options.cards || {},
      events: frame.events || [],
      deadline: null,
      names,
      act: () => {},
    });
  }

  function go(i) {
    index = Math.max(0, Math.min(frames.length - 1, i));
    show();
    if (index >= frames.length - 1) pause();
  }
  const step = (d) => go(index + d);

  function play() {
    if (timer !== null) return;
    if (index >= frames.length - 1) go(0);
    playButton.textContent = "Pause";
    playButton.setAttribute("aria-pressed", "true");
    timer = setInterval(() => step(1), Number(pace.value) * 1000);
  }
  function pause() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    playButton.textContent = "Play";
    playButton.setAttribute("aria-pressed", "false");
  }

  back.addEventListener("click", () => step(-1));
  forward.addEventListener("click", () => step(1));
  first.addEventListener("click", () => go(0));
  last.addEventListener("click", () => go(frames.length - 1));
  playButton.addEventListener("click", () => (timer === null ? play() : pause()));
  slider.addEventListener("input", () => go(Number(slider.value)));
  pace.addEventListener("change", () => {
    if (timer !== null) {
      pause();
      play();
    }
  });
  wrap.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target instanceof HTMLSelectElement || target === slider) return;
    const keys = {
      ArrowLeft: () => step(-1),
      ArrowRight: () => step(1),
      Home: () => go(0),
      End: () => go(frames.length - 1),
      " ": () => (timer === null ? play() : pause()),
    };
    if (target instanceof HTMLButtonElement && event.key === " ") return;
    const run = keys[event.key];
    if (run) {
      event.preventDefault();
      run();
    }
  });

  show();
  return {
    go,
    step,
    play,
    pause,
    get index() {
      return index;
    },
    get frames() {
      return frames;
    },
  };
}
