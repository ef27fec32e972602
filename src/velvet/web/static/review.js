// The Review page (docs/learn.md, "Review"): every decision of a finished game judged from
// its mover's own view at the time, as `velvet review` does. The record comes from a room
// (review?room=ID: GET api/rooms/ID/record) or from a downloaded record file; the server
// judges it (POST api/review, one JSON line per decision as they are judged) and this page
// draws the chance to win of each player as an SVG chart, marks the mistakes, and tells
// the better move and why. #move=N selects a move: a link to it can be shared.
//
// renderReview(main) → {key, fromHash()}: app.js calls fromHash() when only the hash moved.

import { el } from "./dom.js";
import { t, tn } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const STORE = "velvet.review.record";
const W = 720;
const H = 240;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  node.append(...children);
  return node;
}

const pct = (x) => (x === null || x === undefined ? "—" : `${Math.round(x * 100)}%`);

function moveFromHash() {
  const found = /(?:^|[#&])move=(\d+)/.exec(location.hash);
  return found ? Number(found[1]) : null;
}

function ensureCss() {
  if (!document.querySelector("link[data-review-css]")) {
    document.head.append(el("link", { rel: "stylesheet", href: "static/review.css", "data-review-css": "" }));
  }
}

export function renderReview(main) {
  document.title = t("Velvet · review");
  ensureCss();
  const room = new URLSearchParams(location.search).get("room");
  const state = { start: null, decisions: [], done: false, selected: null };

  const file = el("input", { type: "file", accept: ".json,application/json", "aria-label": t("A downloaded game record (.json)"), "data-review": "file" });
  const source = el(
    "div",
    { class: "review-source" },
    room
      ? el("p", {}, t("The game of room {room}. ", { room }), el("a", { href: `join/${encodeURIComponent(room)}?seat=watch` }, t("Back to the room")))
      : el("label", {}, t("Open a downloaded game record: "), file),
  );
  const status = el("p", { class: "review-status", role: "status", "aria-live": "polite" });
  const bar = el("progress", { class: "review-progress", max: "1", value: "0", hidden: true, "aria-label": t("Decisions judged") });
  const chartBox = el("div", { class: "review-chart" });
  const details = el("section", { class: "review-details", "aria-live": "polite", "aria-label": t("The selected move") });
  const mistakes = el("section", { class: "review-mistakes", "aria-label": t("Mistakes") });
  main.replaceChildren(
    el(
      "div",
      { class: "review" },
      el("h1", {}, t("Review")),
      el("p", { class: "review-intro" }, t("Each decision judged from what its player could see at the time — no hidden cards, no later dice: the chance to win before and after the move, and the better move where the drop is beyond the estimate's margin.")),
      source,
      status,
      bar,
      chartBox,
      details,
      mistakes,
    ),
  );

  file.addEventListener("change", async () => {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    let record;
    try {
      record = JSON.parse(await chosen.text());
    } catch {
      status.textContent = t("{file} is not JSON: open a game record (the “Download the record” file).", { file: chosen.name });
      status.classList.add("bad");
      return;
    }
    try {
      sessionStorage.setItem(STORE, JSON.stringify(record));
    } catch {
      // storage refused: the review lasts for this page only
    }
    history.replaceState(null, "", location.pathname + location.search);
    run(record);
  });

  async function run(record) {
    Object.assign(state, { start: null, decisions: [], done: false, selected: null });
    status.classList.remove("bad");
    status.textContent = t("Judging the decisions…");
    bar.hidden = false;
    bar.value = 0;
    draw();
    let answer;
    try {
      answer = await fetch("api/review", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(record) });
    } catch (error) {
      return fail(t("The review could not be asked for: {why}", { why: error.message }));
    }
    if (!answer.ok) {
      const body = await answer.json().catch(() => ({}));
      return fail(body.message || t("The server said {status}.", { status: answer.status }));
    }
    const reader = answer.body.getReader();
    const decoder = new TextDecoder();
    let rest = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      rest += decoder.decode(value, { stream: true });
      const lines = rest.split("\n");
      rest = lines.pop();
      for (const line of lines) if (line.trim()) take(JSON.parse(line));
    }
    if (rest.trim()) take(JSON.parse(rest));
  }

  function fail(text) {
    bar.hidden = true;
    status.textContent = text;
    status.classList.add("bad");
  }

  function take(line) {
    if (line.type === "start") {
      state.start = line;
      bar.max = Math.max(1, line.decisions);
    } else if (line.type === "decision") {
      state.decisions.push(line);
      bar.value = state.decisions.length;
      status.textContent = t("Judged {n} of {all} moves…", { n: state.decisions.length, all: state.start?.decisions ?? "?" });
      const wanted = moveFromHash();
      if (wanted !== null && wanted === line.index) select(wanted, false);
    } else if (line.type === "done") {
      state.done = true;
      bar.hidden = true;
      const start = state.start || {};
      const judged = state.decisions.filter((d) => d.judged).length;
      status.textContent = `${tn("{moves} moves, {judged} decisions judged, {n} mistake.", "{moves} moves, {judged} decisions judged, {n} mistakes.", line.mistakes.length, { moves: start.moves, judged })} ${start.outcome || ""}`;
      main.querySelector(".review")?.setAttribute("data-done", "");
      const wanted = moveFromHash();
      const first = state.decisions.find((d) => d.mistake) || state.decisions.find((d) => d.judged);
      select(wanted ?? first?.index ?? null, false);
    } else if (line.type === "error") {
      fail(line.message);
    }
    draw();
  }

  function x(index) {
    const moves = Math.max(1, state.start?.moves || 1);
    return PAD.left + ((index - 0.5) / moves) * (W - PAD.left - PAD.right);
  }
  function y(chance) {
    return PAD.top + (1 - chance) * (H - PAD.top - PAD.bottom);
  }

  function draw() {
    if (!state.start) {
      chartBox.replaceChildren();
      return;
    }
    const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "review-svg", tabindex: "0", "aria-label": t("Chance to win after each decision, {assumes}", { assumes: state.start.assumes }) });
    for (const level of [0, 0.25, 0.5, 0.75, 1]) {
      chart.append(svg("line", { class: "grid", x1: PAD.left, x2: W - PAD.right, y1: y(level), y2: y(level) }));
      chart.append(svg("text", { class: "axis", x: PAD.left - 6, y: y(level) + 4, "text-anchor": "end" }, `${level * 100}%`));
    }
    chart.append(svg("text", { class: "axis", x: PAD.left, y: H - 8 }, t("move {n}", { n: 1 })));
    chart.append(svg("text", { class: "axis", x: W - PAD.right, y: H - 8, "text-anchor": "end" }, t("move {n}", { n: state.start.moves })));
    const judged = state.decisions.filter((d) => d.judged);
    for (let seat = 0; seat < state.start.players; seat++) {
      const mine = judged.filter((d) => d.mover === seat);
      if (!mine.length) continue;
      const points = mine.map((d) => `${x(d.index).toFixed(1)},${y(d.after).toFixed(1)}`).join(" ");
      chart.append(svg("polyline", { class: `line seat-${seat}`, points, "data-seat": seat }));
    }
    for (const d of judged.filter((d) => d.mistake)) {
      chart.append(svg("line", { class: "drop", x1: x(d.index), x2: x(d.index), y1: y(d.before), y2: y(d.after) }));
      chart.append(
        svg("circle", { class: "mistake", cx: x(d.index), cy: y(d.after), r: 5, "data-move": d.index },
          svg("title", {}, t("Move {n}: {player}, {before} → {after}", { n: d.index, player: t("Player {number}", { number: d.mover + 1 }), before: pct(d.before), after: pct(d.after) }))),
      );
    }
    if (state.selected !== null) {
      chart.append(svg("line", { class: "cursor", x1: x(state.selected), x2: x(state.selected), y1: PAD.top, y2: H - PAD.bottom }));
    }
    chart.addEventListener("click", (event) => {
      const box = chart.getBoundingClientRect();
      const at = ((event.clientX - box.left) / box.width) * W;
      let best = null;
      for (const d of judged) if (best === null || Math.abs(x(d.index) - at) < Math.abs(x(best.index) - at)) best = d;
      if (best) select(best.index, true);
    });
    chart.addEventListener("keydown", (event) => {
      const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      if (!step) return;
      event.preventDefault();
      const at = judged.findIndex((d) => d.index === state.selected);
      const next = judged[Math.max(0, Math.min(judged.length - 1, at + step))];
      if (next) select(next.index, true);
      chartBox.querySelector("svg")?.focus();
    });
    const legend = el(
      "p",
      { class: "review-legend" },
      ...Array.from({ length: state.start.players }, (_, seat) => el("span", { class: `key seat-${seat}` }, t("Player {number}", { number: seat + 1 }))),
      el("span", { class: "key mistake" }, t("a mistake")),
      el("span", { class: "assumes" }, t("Chances {assumes}.", { assumes: state.start.assumes })),
    );
    chartBox.replaceChildren(chart, legend);
    drawMistakes();
  }

  function drawMistakes() {
    const found = state.decisions.filter((d) => d.mistake);
    if (!state.done && !found.length) {
      mistakes.replaceChildren();
      return;
    }
    mistakes.replaceChildren(
      el("h2", {}, found.length ? t("Mistakes ({n})", { n: found.length }) : t("No mistakes beyond the estimates' margins")),
      el(
        "ol",
        {},
        ...found.map((d) =>
          el("li", {}, el("button", { type: "button", class: d.index === state.selected ? "pick selected" : "pick", "data-move": d.index, onclick: () => select(d.index, true) },
            t("Move {n} · {player} · {before} → {after}", { n: d.index, player: t("Player {number}", { number: d.mover + 1 }), before: pct(d.before), after: pct(d.after) }))),
        ),
      ),
    );
  }

  function select(index, push) {
    state.selected = index;
    if (push && index !== null) history.replaceState(null, "", `${location.pathname}${location.search}#move=${index}`);
    showDetails();
    draw();
  }

  function showDetails() {
    const d = state.decisions.find((one) => one.index === state.selected);
    if (!d) {
      details.replaceChildren(state.selected === null ? "" : el("p", {}, t("Move {n} is not judged yet.", { n: state.selected })));
      return;
    }
    const who = t("Player {number}", { number: d.mover + 1 });
    const parts = [el("h2", {}, t("Move {n} · {player} played “{move}”", { n: d.index, player: who, move: d.label }))];
    if (!d.judged) {
      parts.push(el("p", {}, t("A forced move: there was no other choice.")));
    } else {
      const verdict = d.mistake
        ? t("a mistake")
        : d.best.action === d.played.action
          ? t("the search's own choice")
          : t("within the estimates' margin");
      parts.push(
        el("p", { class: d.mistake ? "verdict bad" : "verdict" }, t("Chance to win: {before} before → {after} after (± {margin}): {verdict}.", { before: pct(d.before), after: pct(d.after), margin: pct(d.margin), verdict })),
      );
      if (d.best.action !== d.played.action) {
        parts.push(el("p", { class: "better" }, el("strong", {}, t("Better: ")), `${d.best.label} (${pct(d.best.win)}) — ${d.best.reason}`));
      }
      parts.push(el("p", { class: "note" }, t("From {player}'s own view at the time, {assumes}.", { player: who, assumes: state.start?.assumes || "" })));
    }
    const link = `${location.origin}${location.pathname}${location.search}#move=${d.index}`;
    const share = el("button", { type: "button", class: "quiet", "data-review": "share" }, t("Copy a link to this move"));
    share.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(link);
        share.textContent = t("Link copied");
      } catch {
        window.prompt(t("Copy this link:"), link);
      }
    });
    parts.push(el("p", {}, share, room ? "" : el("span", { class: "note" }, t(" (a record opened from a file: the link opens it in this browser only)"))));
    details.replaceChildren(...parts);
  }

  async function begin() {
    if (room) {
      try {
        const answer = await fetch(`api/rooms/${encodeURIComponent(room)}/record`);
        const body = await answer.json();
        if (!answer.ok) return fail(body.message || t("The server said {status}.", { status: answer.status }));
        run(body);
      } catch (error) {
        fail(t("The record could not be loaded: {why}", { why: error.message }));
      }
      return;
    }
    let kept = null;
    try {
      kept = JSON.parse(sessionStorage.getItem(STORE) || "null");
    } catch {
      kept = null;
    }
    if (kept) run(kept);
    else status.textContent = t("Open a record to review it (a finished game's “Download the record”).");
  }
  begin();

  return {
    key: location.pathname + location.search,
    fromHash() {
      const wanted = moveFromHash();
      if (wanted !== null) select(wanted, false);
    },
  };
}
