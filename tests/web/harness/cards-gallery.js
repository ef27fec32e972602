// A gallery of card faces (cards.js): ?game=vs|p5&ids=key,key,... draws each card of
// /fixture/cards-GAME.json at full size, and ?size=compact|mini at that size too.
import { cardFace } from "/static/cards.js";

const params = new URLSearchParams(location.search);
const root = document.getElementById("root");

async function main() {
  const game = params.get("game") || "vs";
  const answer = await fetch(`/fixture/cards-${game}.json`);
  if (!answer.ok) throw new Error(`no fixture cards-${game}`);
  const cards = await answer.json();
  const sizes = (params.get("sizes") || "full").split(",");
  const heading = document.createElement("h1");
  heading.textContent = `${game === "vs" ? "Persona VS" : "P5"} card faces`;
  const list = document.createElement("div");
  list.className = "gallery";
  for (const key of (params.get("ids") || "").split(",").filter(Boolean)) {
    const info = cards[key];
    if (!info) throw new Error(`no card ${key}`);
    for (const size of sizes) {
      const figure = document.createElement("figure");
      const caption = document.createElement("figcaption");
      caption.textContent = `${info.kind} · ${size}`;
      figure.append(cardFace(info, { game, size, attrs: { "data-card": key, "data-size": size } }), caption);
      list.append(figure);
    }
  }
  if (params.get("context") === "vs-hand") {
    // the faces as a VS hand shows them (vs.css: a phone's small hand cards)
    const sheet = document.createElement("link");
    sheet.rel = "stylesheet";
    sheet.href = "/static/vs.css";
    await new Promise((resolve) => { sheet.onload = sheet.onerror = resolve; document.head.append(sheet); });
    const table = document.createElement("section");
    table.className = "vs-table";
    const hand = document.createElement("div");
    hand.className = "hand-cards";
    hand.append(...[...list.querySelectorAll(".vc")]);
    table.append(hand);
    root.replaceChildren(heading, table);
  } else {
    root.replaceChildren(heading, list);
  }
  document.body.dataset.ready = "true";
}

main().catch((error) => {
  document.body.dataset.error = String(error);
  document.body.dataset.ready = "true";
});
