"""A reference client: ``velvet join URL`` plays a seat (or watches) from a terminal.

:class:`Client` is the part without a terminal, used by the tests and the load
benchmark too: it reconnects by itself when the socket or the server goes away
(with the seat secret the server gave it when it claimed the invite: an invite opens
its seat once), and resends nothing — a move is either acknowledged or
made again against the state the server sends after reconnecting.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import sys
import textwrap
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import websockets
from websockets.asyncio.client import ClientConnection, connect

from velvet.engine.errors import VelvetError
from velvet.engine.files import one_line
from velvet.i18n import language
from velvet.server.protocol import PROTOCOL_VERSION
from velvet.ui.choose import InvalidAction, number_problem, pick


@dataclass(frozen=True)
class Invite:
    websocket: str
    room: str
    token: str | None


def checked_invite(url: str) -> Invite:
    """``parse_invite`` for a command line: a bad link is a one-line ConfigError."""
    from velvet.engine.errors import ConfigError

    try:
        return parse_invite(url)
    except ValueError as error:
        raise ConfigError(str(error)) from None


def parse_invite(url: str) -> Invite:
    """``http(s)://HOST/join/ROOM#TOKEN`` (or a ``ws://HOST/ws/ROOM`` URL) → where to connect."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc:
        raise ValueError(f"not an invite link: {url!r} (expected http://HOST/join/ROOM#TOKEN)")
    path = parts.path.rstrip("/").split("/")
    if len(path) < 3 or path[-2] not in ("join", "ws") or not path[-1]:
        raise ValueError(f"not an invite link: {url!r} (expected http://HOST/join/ROOM#TOKEN)")
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    prefix = "/".join(path[:-2])
    room = path[-1]
    return Invite(f"{scheme}://{parts.netloc}{prefix}/ws/{room}", room, parts.fragment or None)


FATAL = ("bad_token", "no_room", "invite_used", "seat_moved")
"""Refusals after which reconnecting would be refused again."""


def _seats_file() -> Path:
    from velvet.ui.terminal import data_dir

    return data_dir() / "joined-seats.json"


def _seat_key(invite: Invite) -> str:
    token = invite.token or ""
    return f"{invite.websocket} {hashlib.sha256(token.encode()).hexdigest()}"


def remembered_secret(invite: Invite) -> str | None:
    """The seat secret this user's ``velvet join`` got for ``invite`` (kept in the data
    folder, readable by the user only), or None."""
    try:
        saved = json.loads(_seats_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    found = saved.get(_seat_key(invite)) if isinstance(saved, dict) else None
    return found if isinstance(found, str) else None


def remember_secret(invite: Invite, secret: str) -> None:
    """Keep ``secret`` for ``invite`` so that joining with the same link again opens the
    seat (the invite alone no longer does). Failing to save is not fatal."""
    path = _seats_file()
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        saved = {}
    if not isinstance(saved, dict):
        saved = {}
    saved[_seat_key(invite)] = secret
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump(dict(list(saved.items())[-200:]), file)


class Client:
    """One seat's (or a spectator's) connection, reconnecting until ``close()``.

    ``token`` is the invite (the first time), a seat secret, or a one-time move code;
    when the server answers a claim with a ``secret``, that is sent from then on (and
    handed to ``on_secret``)."""

    def __init__(
        self,
        websocket: str,
        token: str | None,
        on_message: Callable[[dict[str, Any]], None] | None = None,
        retry: float = 0.2,
        max_retry: float = 5.0,
        on_secret: Callable[[str], None] | None = None,
        cookie: str | None = None,
        lang: str | None = None,
    ) -> None:
        self.url = websocket
        self.cookie = cookie
        self.lang = lang
        """The language the server writes this client's words in (``hello``'s ``lang``)."""
        """A ``Cookie`` header sent with every connection (a signed-in account's session)."""
        self.token = token
        self.on_secret = on_secret
        self.on_message = on_message
        self.retry = retry
        self.max_retry = max_retry
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.last_state: dict[str, Any] | None = None
        self.reconnects = 0
        self.welcomes = 0
        self.welcome: dict[str, Any] | None = None
        """The last ``welcome``: the seat, and whether it may ask for hints and a forecast."""
        self.transfers = 0
        """``transfer`` answers so far (a one-time code to move the seat)."""
        self.hint_answers = 0
        """Answers to ``hint`` and ``forecast`` so far (a hint, a forecast or a refusal)."""
        self._ws: ClientConnection | None = None
        self._connected = asyncio.Event()
        self._closing = False
        self._task: asyncio.Task[None] | None = None
        self.fatal: str | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run())
        await self._connected.wait()

    async def settle(self, version: int, timeout: float = 3.0) -> None:
        """Wait until a state newer than ``version`` has come (or ``timeout`` passes)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while asyncio.get_running_loop().time() < deadline and not self.fatal:
            state = self.last_state
            if state is not None and state["version"] > version:
                return
            await asyncio.sleep(0.02)

    async def _run(self) -> None:
        delay = self.retry
        while not self._closing:
            try:
                headers = {"Cookie": self.cookie} if self.cookie else None
                async with connect(
                    self.url, max_size=2**24, open_timeout=5, additional_headers=headers
                ) as ws:
                    hello = {"type": "hello", "token": self.token}
                    if self.lang is not None:
                        hello["lang"] = self.lang
                    await ws.send(_dump(hello))
                    self._ws = ws
                    delay = self.retry
                    async for raw in ws:
                        message = json.loads(raw)
                        if message.get("type") == "welcome":
                            self.welcomes += 1
                            self.welcome = message
                            if isinstance(message.get("secret"), str):
                                self.token = message["secret"]  # the invite is spent
                                if self.on_secret is not None:
                                    self.on_secret(self.token)
                            self._connected.set()
                        if message.get("type") == "state":
                            self.last_state = message
                        if message.get("type") == "transfer":
                            self.transfers += 1
                        if message.get("type") in ("hint", "forecast", "hint_cancelled") or str(
                            message.get("code", "")
                        ).startswith("hint_"):
                            self.hint_answers += 1
                        if message.get("type") == "error" and message.get("code") in FATAL:
                            self.fatal = message.get("message", "refused")
                        self.inbox.put_nowait(message)
                        if self.on_message is not None:
                            self.on_message(message)
            except (OSError, websockets.exceptions.WebSocketException, TimeoutError):
                pass
            self._ws = None
            self._connected.clear()
            if self._closing or self.fatal:
                self._connected.set()
                break
            self.reconnects += 1
            await asyncio.sleep(delay)
            delay = min(self.max_retry, delay * 2)

    async def send(self, message: dict[str, Any]) -> bool:
        """Send one message if connected; False if the socket is down (it will come back)."""
        await self._connected.wait()
        ws = self._ws
        if ws is None:
            return False
        try:
            await ws.send(_dump(message))
            return True
        except websockets.exceptions.WebSocketException:
            return False

    async def ask(self, kind: str, version: int, timeout: float = 120.0) -> bool:
        """Ask for a ``hint`` or a ``forecast`` at ``version`` and wait for the answer (or
        the refusal) to come; False if it was not sent or did not come in time."""
        before = self.hint_answers
        if not await self.send({"type": kind, "version": version}):
            return False
        return await self.answered(before, timeout)

    async def answered(self, before: int, timeout: float = 120.0) -> bool:
        """Wait until an answer to a hint comes after ``before`` answers; False if none came
        in time."""
        deadline = asyncio.get_running_loop().time() + timeout
        while self.hint_answers == before and not self.fatal:
            if asyncio.get_running_loop().time() > deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    async def move(self, version: int, action: str) -> bool:
        return await self.send({"type": "move", "version": version, "action": action})

    async def close(self) -> None:
        self._closing = True
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._task, 5)


def _dump(message: dict[str, Any]) -> str:
    return json.dumps({"v": PROTOCOL_VERSION, **message})


# --- the terminal ---------------------------------------------------------------------------


def _size() -> tuple[int, int]:
    """The terminal's width and height, as ``velvet play`` draws at (80 x 25 when it is
    not a terminal: rich's default, or COLUMNS and LINES)."""
    from rich.console import Console

    console = Console()
    return console.width, console.height


def _width() -> int:
    return _size()[0]


@dataclass
class Screen:
    """What the terminal shows of the decision under way: its choices cut into pages
    that fit under the board (``more`` shows the next one), as ``velvet play`` does."""

    width: int = 0
    height: int = 0
    legal: list[dict[str, Any]] = field(default_factory=list)
    pages: list[list[int]] = field(default_factory=list)
    page: int = 0

    def __post_init__(self) -> None:
        if not self.width or not self.height:
            width, height = _size()
            self.width = self.width or width
            self.height = self.height or height

    def cut(self, legal: list[dict[str, Any]], above: int) -> None:
        """Pages of ``legal`` for a screen whose first ``above`` lines are taken."""
        room = max(6, self.height - above - 3)  # the page line, the undo line, the prompt
        self.legal, self.pages, self.page = legal, [[]], 0
        used = 0
        for i, action in enumerate(legal):
            height = _choice(i + 1, action, self.width).count("\n") + 1
            if self.pages[-1] and used + height > room:
                self.pages.append([])
                used = 0
            self.pages[-1].append(i)
            used += height

    def show(self, out: Callable[[str], None], page: int | None = None) -> None:
        """The choices of one page (the current one by default), numbered as in the
        whole list, and which page it is when there are several."""
        if not self.legal:
            out("error: no choices to show: it is not your move")
            return
        if page is not None:
            self.page = page % len(self.pages)
        shown = self.pages[self.page]
        for i in shown:
            out(_choice(i + 1, self.legal[i], self.width))
        if len(self.pages) > 1:
            out(
                f"Choices {shown[0] + 1}-{shown[-1] + 1} of {len(self.legal)}: "
                "'more' shows the next page."
            )


def _board(game_name: str, view: dict[str, Any], width: int | None = None) -> str:
    """The view drawn by the game's terminal renderer at the terminal's width, compact as
    ``velvet play`` draws it between moves (so it fits 80 x 24), or as JSON if it cannot be."""
    try:
        from rich.console import Console

        from velvet.games import get_game
        from velvet.ui.renderers import renderer_for

        game = get_game(game_name)
        renderer = renderer_for(game)
        draw = renderer.compact or renderer.render
        console = Console(highlight=False, width=width or _width())
        with console.capture() as capture:
            console.print(draw(view, game))
        return capture.get().rstrip()
    except Exception:  # a custom card set or a renderer change: show the data itself
        return json.dumps(view, ensure_ascii=False)


def _choice(number: int, action: dict[str, Any], width: int) -> str:
    """One numbered choice, its note (a chance, or that it does nothing) in brackets,
    wrapped to ``width``."""
    note = action.get("note")
    label = f"{action['label']} ({note})" if note else str(action["label"])
    return textwrap.fill(label, width, initial_indent=f"  {number:>3}. ", subsequent_indent=" " * 7)


def _show(
    message: dict[str, Any],
    out: Callable[[str], None],
    game: list[str],
    screen: Screen | None = None,
) -> None:
    """Print one server message; boards and choices are drawn to fit ``screen`` (the
    terminal's size by default), the choices a page at a time."""
    screen = screen or Screen()
    width = screen.width
    kind = message.get("type")
    if kind == "welcome":
        game[:] = [str(message["game"])]
        seat = message.get("seat")
        who = "watching" if seat is None else f"playing as Player {seat + 1}"
        out(f"Joined room {message['room']} ({message['game']}), {who}.")
        out(f"Seed SHA-256: {message['seed_sha256']}")  # 77 columns: fits 80
        out(_players(message.get("seats") or []))
        if message.get("hints"):
            ask = "'hint'" + (" or 'forecast'" if message.get("forecast") else "")
            out(f"Type {ask} when it is your move for the hard bot's advice.")
    elif kind == "state":
        for event in message.get("events", []):
            out(f"  {event['text']}")
        board = _board(game[0] if game else "", message["view"], width)
        out(board)
        left = message.get("time_left")
        clock = "" if left is None else f", {int(left) // 60}:{int(left) % 60:02d} left"
        screen.cut(list(message.get("legal") or []), board.count("\n") + 2)
        if message.get("legal"):
            out(f"Your move (version {message['version']}{clock}):")
            screen.show(out)
            if message.get("undo"):
                out("  (or 'undo': take back your last move)")
        elif message.get("to_move") is not None:
            out(f"Waiting for Player {message['to_move'] + 1}{clock} …")
    elif kind == "hint":
        out(f"Hints (best first; {message['budget']} simulations, from your view):")
        for n, hint in enumerate(message.get("hints", []), start=1):
            out(
                f"  {n}. {hint['label']} — {hint['win']:.0%} ± {hint['margin']:.0%} to win "
                f"if every player plays on like the {hint.get('bot', 'easy')} bot"
                + (f" ({hint['bot_is']})" if hint.get("bot_is") else "")
                + f"; {hint['visits']} simulations"
            )
            out(f"     why: {hint['reason']}")
    elif kind == "forecast":
        out(
            f"Forecast: {message['rate']:.0%} to beat the boss by day {message['days']} "
            f"if every player plays like the {message['bot']} bot"
            + (f" ({message['bot_is']})" if message.get("bot_is") else "")
            + f": 95 % interval {message['low']:.0%}–{message['high']:.0%}, margin ± "
            f"{message['margin']:.0%}; {message['games']} games from your view. The hints "
            "assume the "
            + (
                "same play, after their move"
                if message["bot"] == message.get("hints_bot", "easy")
                else f"{message.get('hints_bot', 'easy')} bot's play, so the two may differ"
            )
            + "."
        )
    elif kind == "timer":
        left = int(message["left"])
        out(
            f"Player {message['seat'] + 1}'s clock: +{message['added']:.1f} s for the hint "
            f"({left // 60}:{left % 60:02d} left)."
        )
    elif kind == "hint_cancelled":
        out(f"The {message['kind']} was cancelled.")
    elif kind == "over":
        out(f"Game over: {message['result'].get('text', '')}")
        out(f"Seed {message['seed']} (nonce {message['nonce']}); the record follows.")
        out(json.dumps(message["record"], ensure_ascii=False))
    elif kind == "error":
        rule = f" [{message['rule']}]" if message.get("rule") else ""
        out(f"error: {message['message']}{rule}")
    elif kind == "rematch":
        seat = message.get("seat")
        where = f"you play seat {seat + 1} there" if isinstance(seat, int) else "you watch"
        out(f"Rematch in room {message['room']}: {where} (your secret opens it).")
    elif kind == "rematch_offer":
        offering = int(message["seat"]) + 1
        out(f"Player {offering} offers a rematch, seats swapped: 'rematch' accepts, 'decline' not.")
    elif kind == "rematch_declined":
        out(f"Player {int(message['seat']) + 1} declined the rematch.")
    elif kind == "log":
        entries = message.get("entries") or []
        if entries:
            out(f"The game so far ({len(entries)} events, the last 8):")
            for entry in entries[-8:]:
                out(f"  {entry['text']}")
    elif kind == "seats":
        out(_players(message.get("seats") or []))
    elif kind == "transfer":
        minutes = int(message["seconds"]) // 60
        out(
            f"To move this seat to another device, join there within {minutes} minutes with "
            f"the one-time code {message['code']} (velvet join URL#CODE, or the room's link "
            "with #CODE in a browser); this session then only watches."
        )


CANCEL_WORDS = ("hint cancel", "cancel")
"""Typed while a hint or forecast is being worked out: stop it (``hint_cancel``)."""


async def _ask_or_cancel(
    client: Client, kind: str, version: int, lines: asyncio.Queue[str], held: list[str]
) -> bool:
    """Ask for a ``hint`` or ``forecast`` and wait for its answer; a line typed meanwhile
    that is one of CANCEL_WORDS sends ``hint_cancel`` (the answer is then the server's
    ``hint_cancelled``), any other is kept in ``held`` for afterwards. False if nothing
    came in time."""
    before = client.hint_answers
    if not await client.send({"type": kind, "version": version}):
        return False
    asking = asyncio.ensure_future(client.answered(before))  # sent first: a cancel follows it
    while True:
        getting = asyncio.ensure_future(lines.get())
        done, _ = await asyncio.wait({asking, getting}, return_when=asyncio.FIRST_COMPLETED)
        if getting not in done:
            getting.cancel()  # a cancelled Queue.get takes no line
            return asking.result()
        line = getting.result()
        if line.strip() in CANCEL_WORDS:
            await client.send({"type": "hint_cancel"})
        else:
            held.append(line)
            if not line:  # the input ended: wait for the answer alone
                return await asking


def move_text(typed: str, legal: Sequence[dict[str, Any]]) -> str:
    """The text form to send for what was typed: a number of the list, or words matched
    through the legal list by the parser ``velvet play`` uses (``velvet.ui.choose.pick``).
    Words that fit no choice are sent as typed, so that the server says why (its legal
    list is the only judge); words that fit several raise InvalidAction naming them."""
    word = typed.strip()
    if not legal:  # not this seat's move: the server says so
        return word
    problem = number_problem(word, len(legal))
    if problem is not None:
        raise InvalidAction(problem)
    if word.isascii() and word.isdigit():
        if 1 <= int(word) <= len(legal):
            return str(legal[int(word) - 1]["text"])
        raise InvalidAction(f"no action number {word}: choose 1 to {len(legal)}")
    found = pick(word, [(str(a["text"]), str(a["label"])) for a in legal])
    return word if found is None else str(legal[found]["text"])


async def play_terminal(url: str, out: Callable[[str], None] = print) -> int:
    """Join from a terminal: type a number from the list or a choice's words (as in
    ``velvet play``), 'more' (the next page of choices), 'undo' (where the room allows
    it), 'hint' or 'forecast' (where the room allows hints and its game has a forecast, as
    P5 does; 'hint cancel' stops one), 'move seat' (a one-time code to play this seat
    from another device), 'resign', 'rematch' (offers one, or accepts the other player's),
    'decline' (a rematch offer) or 'quit'."""
    invite = parse_invite(url)
    game: list[str] = []
    screen = Screen()
    token = (remembered_secret(invite) if invite.token else None) or invite.token
    client = Client(
        invite.websocket,
        token,
        on_message=lambda m: _show(m, out, game, screen),
        on_secret=lambda secret: remember_secret(invite, secret),
        lang=language(),  # the labels and the log in this terminal's language (--lang)
    )
    await client.start()
    if client.fatal:
        out(f"error: {client.fatal}")
        await client.close()
        return 2
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str] = asyncio.Queue()
    held: list[str] = []

    def read() -> None:  # a daemon thread: a read under way never holds up the exit
        while True:
            line = sys.stdin.readline()
            try:
                loop.call_soon_threadsafe(lines.put_nowait, line)
            except RuntimeError:  # the session is over
                return
            if not line:
                return

    threading.Thread(target=read, name="velvet-join-input", daemon=True).start()
    await client.settle(-1)
    sent = -1
    try:
        while True:
            line = held.pop(0) if held else await lines.get()
            if not line:
                break
            text = line.strip()
            if text in ("quit", "exit"):
                break
            if text == "more":
                screen.show(out, screen.page + 1)
                continue
            if text in ("resign", "rematch"):
                await client.send({"type": text})
                continue
            if text == "decline":
                await client.send({"type": "rematch_decline"})
                continue
            if text == "move seat":
                before = client.transfers
                if await client.send({"type": "transfer"}):
                    for _ in range(250):  # the code is printed when it comes (5 s at most)
                        if client.transfers > before or client.fatal:
                            break
                        await asyncio.sleep(0.02)
                continue
            if text == "undo":
                await client.settle(sent)  # against the state the last move made
                if client.last_state is not None:
                    sent = client.last_state["version"]
                    await client.send({"type": "undo", "version": sent})
                continue
            state = client.last_state
            if state is None or not text:
                continue
            if text == "forecast" and not (client.welcome or {}).get("forecast"):
                out("error: this room offers no forecast (its game has none, or hints are off)")
                continue
            if text in ("hint", "forecast"):
                out("Thinking… (the hard bot's search)" if text == "hint" else "Playing games…")
                out("('hint cancel' stops it.)")
                if not await _ask_or_cancel(client, text, state["version"], lines, held):
                    out(f"error: no answer to '{text}' came; try again")
                continue
            if text in CANCEL_WORDS:  # nothing pending: the server says so
                await client.send({"type": "hint_cancel"})
                continue
            try:
                text = move_text(text, state.get("legal", []))
            except VelvetError as error:
                out(f"error: {one_line(str(error))}")
                continue
            await client.move(state["version"], text)
            sent = state["version"]
        await client.settle(sent)  # let the last move's answer arrive before leaving
    finally:
        await client.close()
    return 0


def _players(seats: list[dict[str, Any]]) -> str:
    """Who plays each seat, in the server's words (``SeatInfo.display_name``)."""
    named = [f"{s.get('name')}: {s.get('display_name') or s.get('who')}" for s in seats]
    return "Players: " + " · ".join(named)
