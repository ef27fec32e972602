// GET api/games, fetched once a page: each game's options, bot levels, forecast and its
// browser board module (the spec's `board` facet). The lobby's form and the table's board
// are built from it, so no file of the client names a game.

let pending = null;

export function loadGames() {
  if (!pending) {
    pending = fetch("api/games").then((answer) => {
      if (!answer.ok) throw new Error(`the server answered ${answer.status}`);
      return answer.json();
    });
    pending.catch(() => {
      pending = null; // a failed fetch is tried again next time
    });
  }
  return pending;
}

export async function gameEntry(name) {
  return (await loadGames()).find((game) => game.name === name) || null;
}
