// The Learn page: the lessons of a game (GET /api/learn/GAME), one lesson at a time
// (GET /api/learn/GAME/ID?played=...&try=...). The server answers every move with the
// same words as `velvet learn` in the terminal; this page keeps the moves made so far
// and the done marks (localStorage), nothing else.

import { el } from "./dom.js";
import { t } from "./i18n.js";
import { loadGames } from "./catalog.js";

const DONE_KEY = "velvet.learn.done";

function doneMarks() {
  try {
    const marks = JSON.parse(localStorage.getItem(DONE_KEY) || "{}");
    return marks && typeof marks === "object" ? marks : {};
  } catch {
    return {};
  }
}

function markDone(game, id) {
  const marks = doneMarks();
  const ids = Array.isArray(marks[game]) ? marks[game] : [];
  if (!ids.includes(id)) ids.push(id);
  marks[game] = ids;
  try {
    localStorage.setItem(DONE_KEY, JSON.stringify(marks));
  } catch {
    // storage refused (private mode): the marks last for this page only
  }
}

async function getJson(path) {
  const answer = await fetch(path, { headers: { accept: "application/json" } });
  const body = await answer.json();
  if (!answer.ok) throw new Error(body.message || `HTTP ${answer.status}`);
  return body;
}

export async function renderLearn(main, game) {
  document.title = t("Velvet · learn");
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
      el("a", { class: name === game ? "button primary" : "button", href: `learn/${name}` }, title),
    ),
  );
  const body = el("section", { class: "learn-body", "aria-live": "polite" }, el("p", {}, t("Loading…")));
  main.replaceChildren(el("div", { class: "learn" }, el("h1", {}, t("Learn")), tabs, body));
  if (!game) {
    body.replaceChildren(el("p", {}, t("Short lessons: a position, a goal, and feedback that names the rule. Pick a game.")));
    return;
  }
  try {
    showList(body, game, await getJson(`api/learn/${encodeURIComponent(game)}`));
  } catch (error) {
    body.replaceChildren(el("p", { class: "field-error" }, String(error.message)));
  }
}

function showList(body, game, data) {
  const done = doneMarks()[game] || [];
  const next = data.lessons.findIndex((lesson) => !done.includes(lesson.id));
  const items = data.lessons.map((lesson, index) =>
    el(
      "li",
      {},
      el(
        "button",
        {
          class: index === next ? "lesson-pick primary" : "lesson-pick",
          dataset: { lesson: lesson.id },
          onclick: () => openLesson(body, game, data, lesson.id, [], null),
        },
        `${done.includes(lesson.id) ? "✓" : index === next ? "▶" : "·"} ${index + 1}. ${lesson.title}`,
      ),
      el("small", {}, ` ${lesson.rules.join(" ")}`),
    ),
  );
  body.replaceChildren(
    el("h2", {}, t("{title}: {done} of {all} done", { title: data.title, done: done.length, all: data.lessons.length })),
    el("ol", { class: "lesson-list" }, items),
  );
}

async function openLesson(body, game, data, id, played, attempt) {
  const query = new URLSearchParams({ played: played.join("|") });
  if (attempt !== null) query.set("try", attempt);
  let lesson;
  try {
    lesson = await getJson(`api/learn/${encodeURIComponent(game)}/${encodeURIComponent(id)}?${query}`);
  } catch (error) {
    body.replaceChildren(el("p", { class: "field-error" }, String(error.message)));
    return;
  }
  if (lesson.solved) markDone(game, id);
  const message = lesson.message.map((line) =>
    el("p", { class: /^(Not |error:)/.test(line) ? "learn-feedback" : /^Rule /.test(line) ? "learn-rule" : "learn-event" }, line),
  );
  const choices = lesson.choices.map((choice) =>
    el(
      "button",
      {
        class: "action",
        dataset: { action: choice.text },
        onclick: () => openLesson(body, game, data, id, lesson.played, choice.text),
      },
      choice.label,
    ),
  );
  const index = data.lessons.findIndex((item) => item.id === id);
  const after = data.lessons[index + 1];
  const ending = lesson.solved
    ? el(
        "div",
        { class: "learn-solved" },
        el("p", { class: "learn-success" }, `${t("✓ Solved.")} ${lesson.success}`),
        after ? el("button", { class: "primary", onclick: () => openLesson(body, game, data, after.id, [], null) }, t("Next: {title}", { title: after.title })) : null,
      )
    : null;
  const hint = el("p", { class: "learn-hint", hidden: true }, t("Hint: {hint}", { hint: lesson.hint }));
  const parts = [
    el("h2", {}, t("Lesson {n} of {count}: {title}", { n: lesson.number, count: lesson.count, title: lesson.title })),
    el("p", { class: "learn-goal" }, el("strong", {}, t("Goal: ")), lesson.goal),
    el("p", { class: "learn-coach" }, lesson.coach),
    el("pre", { class: "learn-board", "aria-label": t("The board") }, lesson.board),
    ...message,
    ending,
    el("div", { class: "learn-choices", role: "group", "aria-label": t("Your moves") }, choices),
    el(
      "div",
      { class: "learn-tools" },
      lesson.solved ? null : el("button", { class: "quiet", onclick: () => (hint.hidden = false) }, t("Hint")),
      el("button", { class: "quiet", onclick: () => showList(body, game, data) }, t("All lessons")),
    ),
    hint,
    el("details", {}, el("summary", {}, t("The rules of this lesson")), lesson.rules.map((rule) => el("p", {}, `${rule.id}: ${rule.words}`))),
  ];
  body.replaceChildren(...parts.filter(Boolean)); // DOM's own: a null would show as "null"
}
