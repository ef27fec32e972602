// Rematch offers between two people (docs/web.md, "Rematch"): the first "Rematch" offers
// a new game with the seats swapped; the other player accepts or declines here.

import { el } from "./dom.js";
import { toast } from "./table.js";

function box() {
  document.getElementById("rematch-offer")?.remove();
  const node = el("div", { class: "transfer rematch-offer", id: "rematch-offer", role: "dialog", "aria-label": "Rematch" });
  document.getElementById("room-tools")?.append(node);
  return node;
}

// `seat` (the offering seat) offered a rematch; `mine`: this page's seat (null: watching).
export function showOffer(msg, mine, seatName, connection) {
  if (mine === null || mine === undefined) return;
  const node = box();
  if (msg.seat === mine) {
    node.append(el("p", {}, "Rematch offered: waiting for the other player to answer. You will play the other seat."));
    return;
  }
  node.append(
    el("p", {}, `${seatName(msg.seat)} offers a rematch, seats swapped.`),
    el("button", { type: "button", class: "primary", onclick: () => { connection.rematch(); node.remove(); } }, "Accept"),
    el("button", { type: "button", class: "quiet", onclick: () => { connection.declineRematch(); node.remove(); } }, "Decline"),
  );
  node.querySelector("button")?.focus();
}

export function showDeclined(msg, mine, seatName) {
  document.getElementById("rematch-offer")?.remove();
  if (msg.seat !== mine) toast(`${seatName(msg.seat)} declined the rematch.`, "info");
}
