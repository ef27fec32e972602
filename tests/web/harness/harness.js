// A test page for p5.js and replay.js alone (the shell does this in the real client):
// ?board=NAME renders /fixture/NAME.json; ?replay=NAME mounts the replay of its frames.
// A click on a data-ref element, or on an action's button, records the action's text.
import { renderBoard } from "/static/p5.js";
import { mountReplay } from "/static/replay.js";

const params = new URLSearchParams(location.search);
const root = document.getElementById("root");
window.__acted = [];

async function fixture(name) {
  const answer = await fetch(`/fixture/${name}.json`);
  if (!answer.ok) throw new Error(`no fixture ${name}`);
  return answer.json();
}

async function main() {
  if (params.get("board")) {
    const f = await fixture(params.get("board"));
    const act = (text) => window.__acted.push(text);
    renderBoard(root, { ...f, act });
    root.addEventListener("click", (event) => {
      const hit = event.target.closest("[data-ref]");
      if (!hit) return;
      const ref = hit.dataset.ref;
      // the first target is what a click means; the others are only touched by it
      const first = f.legal.filter((a) => a.targets[0] === ref);
      const any = f.legal.filter((a) => a.targets.includes(ref));
      const actions = first.length ? first : any;
      if (actions.length === 1) act(actions[0].text);
    });
    const list = document.getElementById("actions");
    for (const a of f.legal) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = a.note ? `${a.label} (${a.note})` : a.label;
      button.addEventListener("click", () => act(a.text));
      const li = document.createElement("li");
      li.append(button);
      list.append(li);
    }
  } else if (params.get("replay")) {
    const f = await fixture(params.get("replay"));
    const seats = (f.seats || []).map((s) => ({ seat: s, name: `Player ${s + 1}` }));
    window.__replay = mountReplay(root, {
      frames: f.frames[String(f.seat)],
      seat: f.seat,
      seats,
      game: f.game,
      cards: f.cards,
      renderBoard,
      loadFrames: async (seat) => f.frames[String(seat)],
    });
  }
  document.body.dataset.ready = "true";
}

main().catch((error) => {
  document.body.dataset.error = String(error);
  document.body.dataset.ready = "true";
});
