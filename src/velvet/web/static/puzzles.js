// The Puzzles page: a game's puzzles (GET /api/puzzles/GAME), one at a time
// (GET /api/puzzles/GAME/ID), each move answered by the server (POST the same path) with
// the terminal's words and, on a first try, both Glicko-2 ratings after it. This page keeps
// the solved and failed marks and the ratings (localStorage), nothing else.

import { el } from "./dom.js";
import { t } from "./i18n.js";
import { loadGames } from "./catalog.js";

const KEY = "velvet.puzzles";
const START = [1500, 350, 0.06];

function store() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

function progressOf(game) {
  const mine = store()[game] || {};
  return {
    solved: Array.isArray(mine.solved) ? mine.solved : [],
    failed: Array.isArray(mine.failed) ? mine.failed : [],
    solver: Array.isArray(mine.solver) && mine.solver.length === 3 ? mine.solver : START,
    puzzles: mine.puzzles && typeof mine.puzzles === "object" ? mine.puzzles : {},
  };
}

function save(game, progress) {
  const data = store();
  data[game] = progress;
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    // storage refused (private mode): progress lasts for this page only
  }
}

async function getJson(path, options = {}) {
  const answer = await fetch(path, { headers: { accept: "application/json", "content-type": "application/json" }, ...options });
  const body = await answer.json();
  if (!answer.ok) throw new Error(body.message || `HTTP ${answer.status}`);
  return body;
}

export async function renderPuzzles(main, game) {
  document.title = t("Velvet · puzzles");
  let games = [];
  try {
    games = await loadGames();
  } catch (error) {
    console.warn(error);
  }
  const tabs = el(
    "nav",
    { class: "learn-games", "aria-label": t("Games") },
    games.map(({ name, short_title: title }) =>
      el("a", { class: name === game ? "button primary" : "button", href: `puzzles/${name}` }, title),
    ),
  );
  const body = el("section", { class: "learn-body", "aria-live": "polite" }, el("p", {}, t("Loading…")));
  main.replaceChildren(el("div", { class: "learn puzzles" }, el("h1", {}, t("Puzzles")), tabs, body));
  if (!game) {
    body.replaceChildren(el("p", {}, t("Positions from bot games where one move is clearly the best from what the mover can see. Pick a game.")));
    return;
  }
  try {
    const data = await getJson(`api/puzzles/${encodeURIComponent(game)}`);
    const progress = progressOf(game);
    const next = data.puzzles.find((p) => !progress.solved.includes(p.id)) || data.puzzles[0];
    if (next) openPuzzle(body, game, data, next.id);
    else body.replaceChildren(el("p", {}, t("No puzzles for this game yet.")));
  } catch (error) {
    body.replaceChildren(el("p", { class: "field-error" }, String(error.message)));
  }
}

function nextAfter(data, game, id) {
  const progress = progressOf(game);
  const at = data.puzzles.findIndex((p) => p.id === id);
  for (let step = 1; step <= data.puzzles.length; step += 1) {
    const candidate = data.puzzles[(at + step) % data.puzzles.length];
    if (!progress.solved.includes(candidate.id)) return candidate;
  }
  return data.puzzles[(at + 1) % data.puzzles.length];
}

function header(game, puzzle) {
  const progress = progressOf(game);
  const rating = (progress.puzzles[puzzle.id] || START)[0];
  return el(
    "p",
    { class: "puzzle-ratings" },
    t("Puzzle rating {rating} · your rating {yours} · {solved} of {count} solved", { rating: Math.round(rating), yours: Math.round(progress.solver[0]), solved: progress.solved.length, count: puzzle.count }),
  );
}

async function openPuzzle(body, game, data, id) {
  let puzzle;
  try {
    puzzle = await getJson(`api/puzzles/${encodeURIComponent(game)}/${encodeURIComponent(id)}`);
  } catch (error) {
    body.replaceChildren(el("p", { class: "field-error" }, String(error.message)));
    return;
  }
  const message = el("div", { class: "puzzle-message", "aria-live": "polite" });
  const choices = el(
    "div",
    { class: "learn-choices", role: "group", "aria-label": t("Your moves") },
    puzzle.choices.map((choice) =>
      el("button", { class: "action", dataset: { action: choice.text }, onclick: () => tryMove(choice.text) }, choice.label),
    ),
  );
  const next = nextAfter(data, game, id);
  const tools = el(
    "div",
    { class: "learn-tools" },
    el("button", { class: "quiet", onclick: () => openPuzzle(body, game, data, next.id) }, t("Skip")),
  );
  const top = header(game, puzzle);
  body.replaceChildren(
    el("h2", {}, t("{title} ({n} of {count})", { title: puzzle.title, n: puzzle.number, count: puzzle.count })),
    top,
    el("p", { class: "learn-goal" }, puzzle.task),
    el("pre", { class: "learn-board", "aria-label": t("The board") }, puzzle.board),
    message,
    choices,
    tools,
  );

  async function tryMove(move) {
    const progress = progressOf(game);
    const rated = !progress.solved.includes(id) && !progress.failed.includes(id);
    let answer;
    try {
      answer = await getJson(`api/puzzles/${encodeURIComponent(game)}/${encodeURIComponent(id)}`, {
        method: "POST",
        body: JSON.stringify({ move, rated, solver: progress.solver, puzzle: progress.puzzles[id] || START }),
      });
    } catch (error) {
      message.replaceChildren(el("p", { class: "field-error" }, String(error.message)));
      return;
    }
    if (answer.right === null) {
      message.replaceChildren(...answer.lines.map((line) => el("p", { class: "learn-feedback" }, line)));
      return;
    }
    if (rated && answer.solver) {
      progress.solver = answer.solver;
      progress.puzzles[id] = answer.puzzle;
    }
    if (answer.right) {
      if (!progress.solved.includes(id)) progress.solved.push(id);
      progress.failed = progress.failed.filter((x) => x !== id);
    } else if (rated) {
      progress.failed.push(id);
    }
    save(game, progress);
    top.replaceWith(header(game, puzzle));
    choices.replaceChildren();
    tools.remove();
    const after = nextAfter(data, game, id);
    message.replaceChildren(
      el("p", { class: answer.right ? "learn-success" : "learn-feedback" }, answer.right ? t("✓ Solved") : t("✗ Not solved")),
      ...answer.lines.map((line) => el("p", { class: "learn-event" }, line)),
      el("p", { class: "learn-rule" }, rated ? t("Your rating: {rating} (± {margin})", { rating: Math.round(progress.solver[0]), margin: Math.round(progress.solver[1]) }) : t("Tried before: not rated again.")),
      el("button", { class: "primary", onclick: () => openPuzzle(body, game, data, after.id) }, t("Next: {title}", { title: after.title })),
    );
  }
}
