"""An external agent plays a seat of a running ``velvet serve`` (``velvet bot play URL``).

The room is made on the server as for a person (``"seats": ["human", "greedy"]``); the
agent joins the human seat with its invite link, over the WebSocket protocol of
docs/protocol.md, through the reference client :class:`velvet.server.client.Client` (the
one ``velvet join`` uses: it claims the invite, keeps the seat secret and reconnects).
The agent runs here, on the machine of whoever joins: a server never runs external code.

What the agent is given comes only from its seat's messages: ``view`` is the ``state``
message's ``view`` (the server's ``view(seat)``) and ``legal`` its ``legal[].text``. The
agent is wrapped as in the arena (:func:`velvet.bots.external.make_entrant`), so a class
(``module:Class``) and a program (``cmd:'...'``) answer alike and misbehave alike: an
answer not in ``legal``, an exception, a crash or no answer in time is a forfeit, and the
client then resigns the game (the server's ``resign``) and says why.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from velvet.bots.base import Bot
from velvet.bots.external import Forfeit, close_bots, is_external, make_entrant
from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng
from velvet.games import get_game
from velvet.server.client import Client, parse_invite

REFUSALS = 3
"""Refused moves in a row (the server judged a move of ``legal`` stale or illegal) after
which the client stops: something is wrong between it and the server."""

PAUSE = 0.5
"""Seconds to wait before sending again a move the server's rate limit refused (20
messages a second, docs/protocol.md)."""

GAP = 0.06
"""Seconds at least between two moves sent: under the server's default rate limit (20
messages a second on one socket), however fast the agent answers."""


@dataclass
class Played:
    """What became of one seat's game."""

    game: str = ""
    seat: int | None = None
    moves: list[str] = field(default_factory=list)
    """The agent's moves, in order, as sent (a move lost to a reconnection is made again)."""
    result: dict[str, Any] | None = None
    """The ``over`` message's ``result`` (None if the game did not end)."""
    record: dict[str, Any] | None = None
    """The ``over`` message's game record (it replays with ``velvet replay``)."""
    forfeit: str | None = None
    """Why the agent forfeited (its seat resigned), or None."""
    error: str | None = None
    """Why the client stopped before the game's end, or None."""
    views: list[dict[str, Any]] = field(default_factory=list)
    """Every view the agent was given (kept when ``keep_views`` is set, for tests)."""


def check_agent(spec: str) -> None:
    """ConfigError unless ``spec`` names an external agent (a built-in bot plays on the
    server: seat it there, ``"seats": ["human", "greedy"]``)."""
    if not is_external(spec):
        raise ConfigError(
            f"agent '{spec}': give module.path:ClassName or cmd:'PROGRAM' (a built-in bot "
            'is seated on the server itself: "seats": ["human", "greedy"])'
        )


async def play_seat(
    url: str,
    agent: str,
    seed: int = 0,
    say: Callable[[str], None] = print,
    idle: float = 300.0,
    keep_views: bool = False,
) -> Played:
    """Play the seat of invite ``url`` with ``agent`` (a ``module:Class`` or ``cmd:...``
    spec) to the game's end. ``seed`` seeds the agent's own randomness (``start``);
    ``idle`` is how long to wait for the server's next message before giving up."""
    check_agent(agent)
    invite = parse_invite(url)
    if invite.token is None:
        raise ConfigError(f"not a seat's invite: {url!r} has no #TOKEN (that link only watches)")
    played = Played()
    client = Client(invite.websocket, invite.token)
    bot: Bot | None = None
    try:
        await asyncio.wait_for(client.start(), idle)
        if client.fatal or client.welcome is None:
            played.error = client.fatal or "the server sent no welcome"
            return played
        welcome = client.welcome
        played.game = str(welcome["game"])
        seat = welcome.get("seat")
        if not isinstance(seat, int):
            played.error = "the invite opened no seat (it only watches)"
            return played
        played.seat = seat
        say(f"Joined room {welcome['room']} ({played.game}) as Player {seat + 1}: {agent}")
        bot = make_entrant(agent, played.game)
        bot.seat = seat
        game = get_game(played.game)
        rng = Rng(seed)
        moved_at: int | None = None
        sent = ""
        refused = 0
        welcomes = client.welcomes
        loop = asyncio.get_running_loop()
        last = 0.0
        while True:
            try:
                message = await asyncio.wait_for(client.inbox.get(), idle)
            except TimeoutError:
                played.error = f"no message from the server for {idle:g} s"
                return played
            batch = [message]
            while not client.inbox.empty():
                batch.append(client.inbox.get_nowait())
            state: dict[str, Any] | None = None
            for each in batch:
                kind = each.get("type")
                if kind == "over":
                    played.result = each.get("result")
                    played.record = each.get("record")
                    say(f"Game over: {(played.result or {}).get('text', '')}")
                    return played
                if kind == "state":
                    state = each
                    refused = 0 if each.get("ack") else refused
                elif kind == "error" and client.fatal:
                    played.error = client.fatal
                    return played
                elif each.get("code") == "rate_limited" and moved_at is not None:
                    say(f"server: {each.get('message')} (rate_limited): again in {PAUSE:g} s")
                    await asyncio.sleep(PAUSE)  # the move was not taken: the same one, later
                    now = client.last_state
                    if now is not None and now["version"] == moved_at and sent:
                        await client.send(_move_or_resign(moved_at, sent))
                elif kind == "error":
                    say(f"server: {each.get('message')} ({each.get('code')})")
                    if moved_at is not None:  # our move was refused: decide again
                        refused += 1
                        moved_at = None
                        if refused >= REFUSALS:
                            played.error = f"the server refused {refused} moves in a row"
                            return played
                        state = state or client.last_state
            if client.welcomes != welcomes:  # reconnected: a move under way may be lost
                welcomes, moved_at = client.welcomes, None
            legal = [str(a["text"]) for a in (state or {}).get("legal") or []]
            if state is None or not legal or state["version"] == moved_at:
                continue
            if state["version"] != (client.last_state or state)["version"]:
                continue  # a newer state is already here: answer that one
            view = state["view"]
            if keep_views:
                played.views.append(view)
            try:
                sent = str(await asyncio.to_thread(bot.choose, game, view, legal, rng))
            except Forfeit as forfeit:
                played.forfeit = forfeit.reason
                say(f"forfeit ({agent}): {forfeit.reason}; resigning")
                sent = ""
            await asyncio.sleep(max(0.0, last + GAP - loop.time()))
            last = loop.time()
            if await client.send(_move_or_resign(state["version"], sent)):
                moved_at = state["version"]
                if sent:
                    played.moves.append(sent)
            # else the socket is down: the state sent after reconnecting is answered
    except TimeoutError:
        played.error = f"could not join within {idle:g} s"
        return played
    finally:
        if bot is not None:
            with contextlib.suppress(Exception):
                close_bots([bot])
        await client.close()


def _move_or_resign(version: int, action: str) -> dict[str, Any]:
    """The message that makes ``action`` at ``version``; no action: resign (a forfeit)."""
    if not action:
        return {"type": "resign"}
    return {"type": "move", "version": version, "action": action}
