// Optional accounts in the header (sign in, sign up, sign out), a player's profile page
// (players/NAME) and the leaderboard (leaderboard). The session is an HttpOnly cookie:
// this module never sees it; it asks api/account who is signed in.

import { el } from "./dom.js";
import { t } from "./i18n.js";

const who = { name: null };

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  };
  const answer = await fetch(path, options);
  let data = {};
  try {
    data = await answer.json();
  } catch {
    data = { message: `the server answered ${answer.status}` };
  }
  return { ok: answer.ok, status: answer.status, data };
}

function header() {
  let box = document.getElementById("account");
  if (!box) {
    box = el("nav", { id: "account", class: "account", "aria-label": t("Account") });
    document.querySelector("header.top")?.append(box);
  }
  return box;
}

function showHeader() {
  const box = header();
  const board = el("a", { href: "leaderboard" }, t("Leaderboard"));
  if (who.name) {
    box.replaceChildren(
      board,
      el("a", { href: `players/${encodeURIComponent(who.name)}`, class: "me" }, who.name),
      el("button", { type: "button", class: "sign-out", onclick: signOut }, t("Sign out")),
    );
  } else {
    box.replaceChildren(
      board,
      el("button", { type: "button", class: "sign-in", "aria-expanded": "false", onclick: (e) => openForm(e.currentTarget) }, t("Sign in")),
    );
  }
}

function openForm(button) {
  const box = header();
  const open = box.querySelector("form.account-form");
  if (open) {
    open.remove();
    button.setAttribute("aria-expanded", "false");
    return;
  }
  button.setAttribute("aria-expanded", "true");
  const name = el("input", { id: "account-name", name: "name", autocomplete: "username", required: true, minlength: 3, maxlength: 24 });
  const password = el("input", { id: "account-password", name: "password", type: "password", autocomplete: "current-password", required: true });
  const message = el("p", { class: "account-message", role: "alert" });
  const form = el("form", { class: "account-form" },
    el("label", { for: "account-name" }, t("Name")), name,
    el("label", { for: "account-password" }, t("Password")), password,
    el("div", { class: "account-buttons" },
      el("button", { type: "submit", value: "signin" }, t("Sign in")),
      el("button", { type: "submit", value: "signup", class: "secondary" }, t("Sign up"))),
    el("p", { class: "account-hint" }, t("Sign up: a name of 3–24 letters, digits, _ or -, a password of 10 characters or more. Playing without an account works as before.")),
    message);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const kind = event.submitter?.value === "signup" ? "signup" : "signin";
    if (kind === "signup") password.setAttribute("autocomplete", "new-password");
    const answer = await api(`api/account/${kind}`, { name: name.value, password: password.value });
    if (answer.ok) {
      who.name = answer.data.name;
      showHeader();
      document.dispatchEvent(new CustomEvent("velvet-account", { detail: { name: who.name } }));
      return;
    }
    message.textContent = answer.data.message || t("refused ({status})", { status: answer.status });
  });
  box.append(form);
  name.focus();
}

async function signOut() {
  await api("api/account/signout", {});
  who.name = null;
  showHeader();
  document.dispatchEvent(new CustomEvent("velvet-account", { detail: { name: null } }));
}

export async function installAccount() {
  showHeader();
  const answer = await api("api/account");
  who.name = answer.ok ? answer.data.name : null;
  showHeader();
}

function ratingText(r) {
  return `${r.rating}${r.provisional ? "?" : ""}`;
}

function ratingCell(r) {
  return el("td", { title: r.provisional ? `provisional: rating deviation ${r.rd}` : `rating deviation ${r.rd}` }, ratingText(r));
}

async function renderProfile(main, name) {
  document.title = `Velvet · ${name}`;
  main.replaceChildren(el("p", { class: "loading" }, "Loading…"));
  const answer = await api(`api/players/${encodeURIComponent(name)}`);
  if (!answer.ok) {
    main.replaceChildren(el("section", { class: "players" }, el("h1", {}, "No such player"), el("p", { role: "alert" }, answer.data.message || ""), el("p", {}, el("a", { href: "./" }, "Back to the lobby"))));
    return;
  }
  const p = answer.data;
  const ratings = p.ratings.length
    ? el("table", { class: "ratings" },
      el("caption", {}, "Ratings (Glicko-2; ? marks a provisional rating)"),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Game"), el("th", { scope: "col" }, "Rating"), el("th", { scope: "col" }, "Rated games"))),
      el("tbody", {}, p.ratings.map((r) => el("tr", {}, el("td", {}, r.game), ratingCell(r), el("td", {}, String(r.games))))))
    : el("p", {}, "No rated games yet.");
  const games = p.games.length
    ? el("table", { class: "games" },
      el("caption", {}, "Finished games"),
      el("thead", {}, el("tr", {}, ["Game", "Against", "Result", "Deck", "Rating"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, p.games.map((g) => el("tr", {},
        el("td", {}, g.game),
        el("td", {}, g.opponents.map((o, i) => [i ? ", " : "", o.name ? el("a", { href: `players/${encodeURIComponent(o.name)}` }, o.name) : o.who === "human" ? "a guest" : `bot: ${o.who}`])),
        el("td", {}, g.result),
        el("td", {}, g.deck || "—"),
        el("td", {}, g.rated && g.rating_after !== null ? `${Math.round(g.rating_before)} → ${Math.round(g.rating_after)}` : "unrated")))))
    : el("p", {}, "No finished games yet.");
  const playing = p.playing.length
    ? el("ul", { class: "playing" }, p.playing.map((r) => el("li", {}, el("a", { href: `join/${encodeURIComponent(r.room)}?seat=${r.seat}` }, `${r.game} room ${r.room}`))))
    : el("p", {}, "No games being played.");
  main.replaceChildren(el("section", { class: "players" },
    el("h1", {}, p.name),
    el("p", { class: "muted" }, `Playing since ${new Date(p.created * 1000).toLocaleDateString()}`),
    el("h2", {}, "Ratings"), ratings,
    el("h2", {}, "Playing now"), playing,
    el("h2", {}, "Games"), games));
}

async function renderLeaderboard(main) {
  document.title = "Velvet · leaderboard";
  main.replaceChildren(el("p", { class: "loading" }, "Loading…"));
  const answer = await api("api/leaderboard");
  const players = answer.ok ? answer.data.players : [];
  const body = players.length
    ? el("table", { class: "leaderboard" },
      el("caption", {}, "Rated players (Glicko-2, rated games between two accounts; ? marks a provisional rating)"),
      el("thead", {}, el("tr", {}, ["#", "Player", "Game", "Rating", "Rated games"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, players.map((r, i) => el("tr", {},
        el("td", {}, String(i + 1)),
        el("td", {}, el("a", { href: `players/${encodeURIComponent(r.name)}` }, r.name)),
        el("td", {}, r.game), ratingCell(r), el("td", {}, String(r.games))))))
    : el("p", {}, "Nobody is rated yet: a rated game between two signed-in players puts both here.");
  main.replaceChildren(el("section", { class: "players" }, el("h1", {}, "Leaderboard"), body,
    el("p", { class: "muted" }, "Bots get a rating here once it is measured against rated players.")));
}

// The account pages: true when `rel` (the path after the base) is one of them.
export function renderAccountPage(main, rel) {
  const player = /^players\/([^/]+)\/?$/.exec(rel);
  if (player) {
    renderProfile(main, player[1]);
    return true;
  }
  if (/^leaderboard\/?$/.test(rel)) {
    renderLeaderboard(main);
    return true;
  }
  return false;
}
