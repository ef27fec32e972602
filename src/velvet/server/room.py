"""A live room's data: its state, the moves that stand and the undo ledger, its sockets.

``Room`` holds what one room in memory owns: the state rebuilt from its committed entries
(velvet.server.notices), the moves that stand with who made each, the undo ledger (the
barrier no undo crosses, the snapshots an undo goes back to, the moves taken back), the
sockets (``Conn``) connected to it and the tasks and deadlines that the clock
(velvet.server.clock), the bots and the seats' grace periods keep on it. It checks
nothing against the network or the database: velvet.server.rooms.Hub does that.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from velvet.engine.core import TERMINAL, Event, Game, State, choose_by_text
from velvet.engine.errors import ConfigError, VelvetError
from velvet.engine.record import GameRecord
from velvet.engine.undo import UndoLedger
from velvet.games import find_spec, has_forecast
from velvet.i18n import DEFAULT, normalize
from velvet.server import games
from velvet.server.notices import Entry, UndoEntry, read_entry
from velvet.server.storage import RoomRow

OUTBOX_LIMIT = 512
"""Messages queued for one socket before it is judged too slow and closed."""
EMOTE_SECONDS = 3.0
"""A socket says at most one emote in this many seconds."""
CHAT_SECONDS = 2.0
"""A socket writes at most one chat line in this many seconds."""
LOG_LIMIT = 400
"""Versions of events kept per room for the log a joining socket is sent."""


class Conn:
    """One socket: its seat (None for a spectator) and its queue of outgoing messages."""

    def __init__(self, seat: int | None, address: str = "", lang: str | None = None) -> None:
        self.seat = seat
        self.lang = normalize(lang) or DEFAULT
        """The language of the words written for this socket (``Hello.lang``)."""
        self.address = address
        """The client's address (hint slots are shared out per address, and its rematches
        count against its room limit)."""
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.hinting: str | None = None
        """``hint`` or ``forecast`` while one is being worked out for this socket."""
        self.hint_task: asyncio.Task[None] | None = None
        self.hint_version = -1
        """The version the pending ``hinting`` was asked at."""
        self.emoted_at = -EMOTE_SECONDS
        """When this socket last said an emote (``time.monotonic()``)."""
        self.chatted_at = -CHAT_SECONDS
        """When this socket last wrote a chat line (``time.monotonic()``)."""

    def send(self, message: BaseModel | str) -> None:
        """Queue ``message`` (a model, or its JSON already made) for the socket."""
        if self.closed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.close()
            return
        self.outbox.put_nowait(message if isinstance(message, str) else message.model_dump_json())

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)


def undo_entry(keep: int) -> str:
    """The stored text of an undo back to ``keep`` moves (``UndoEntry``)."""
    return UndoEntry(keep).text()


@dataclass
class Room:
    row: RoomRow
    game: Game[Any]
    state: State[Any]
    actions: list[str]
    """The moves that stand (the record's actions), in order."""
    entries: int = -1
    """Committed entries: moves and undos (the version); -1: as many as ``actions``."""
    ledger: UndoLedger = field(default_factory=UndoLedger)
    """Who made each move of ``actions``, the barrier no undo crosses and the states an
    undo goes back to (velvet.engine.undo, the terminal's rule too)."""
    taken_back: list[dict[str, Any]] = field(default_factory=list)
    """Undos so far, as the record keeps them: ``{"after": n, "actions": [...]}``."""
    undo_asked: tuple[int, int] | None = None
    """(seat, version): a seat asked the other people to agree to its undo at that version
    (kept in memory only; any move ends the request)."""
    rematch_offer: int | None = None
    """The seat that offered a rematch the other has not answered (in memory; the other
    processes holding the room hear it on the bus)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Conn] = field(default_factory=set)
    taken_over: set[int] = field(default_factory=set)
    players: dict[int, str] = field(default_factory=dict)
    """Account names of the seats claimed by signed-in people (velvet.server.accounts)."""
    bot_task: asyncio.Task[None] | None = None
    timer: asyncio.Task[None] | None = None
    timer_for: tuple[int, int] = (-1, -1)
    deadline: float = 0.0
    """When the decision of ``timer_for`` runs out (``time.monotonic()``)."""
    extended: float = 0.0
    """Seconds that decision's deadline was extended for its seat's hints."""
    grace: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    legal: tuple[int, dict[str, Any]] = (-1, {})
    """The legal actions by text at a version, kept from when they were last listed."""
    emoted: deque[str] = field(default_factory=lambda: deque(maxlen=64))
    """The nonces of the emotes this process sent for the room (the bus brings them back)."""
    moved_at: float | None = None
    """When the last entry (a move or an undo) was committed (Unix time, as near as this
    process knows; None: no move yet): a correspondence decision's time starts there."""
    used: float = field(default_factory=time.monotonic)
    """When a request or a socket last used the room (idle rooms leave memory)."""
    history: list[tuple[int, list[Event]]] = field(default_factory=list)
    """The events of each version (the newest LOG_LIMIT), for the log a late joiner,
    a reconnecting seat or a spectator is sent (filtered as that socket may see them)."""

    def remember(self, events: Sequence[Event]) -> None:
        """Keep the events that made the current version for the log."""
        if events:
            self.history.append((self.version, list(events)))
            if len(self.history) > LOG_LIMIT:
                del self.history[: len(self.history) - LOG_LIMIT]

    def known_legal(self, text: str) -> Any | None:
        """The legal action whose text is ``text`` at this version, if already listed."""
        version, by_text = self.legal
        if version != self.version or text.isdigit():  # a number picks from the list
            return None
        return by_text.get(text)

    def __post_init__(self) -> None:
        if self.entries < 0:
            self.entries = len(self.actions)

    @property
    def version(self) -> int:
        return self.entries

    @property
    def movers(self) -> list[int | None]:
        """The seat that made each move of ``actions`` (the ledger's)."""
        return self.ledger.movers

    @property
    def barrier(self) -> int:
        """Moves before this index cannot be taken back (the ledger's)."""
        return self.ledger.barrier

    @property
    def snapshots(self) -> dict[int, State[Any]]:
        """The states an undo may go back to, by moves made (the ledger's)."""
        return self.ledger.snapshots

    def undo_allowed(self) -> bool:
        """The room's rules allow undo: ``solo`` (the default; with other people only when
        they agree), not ``off``."""
        return (self.row.options.get("undo") or "solo") == "solo"

    def hints_allowed(self) -> bool:
        """The room's ``hints`` option; unset (rooms made before it): on, except in a
        Persona VS game between two people."""
        return hints_default(self.row.game, self.row.seats, self.row.options.get("hints"))

    def chat_allowed(self) -> bool:
        """The room's ``chat`` option (text chat between the seats); unset: off."""
        return self.row.options.get("chat") is True

    def emotes_allowed(self) -> bool:
        """The room's ``emotes`` option; unset (rooms made before it): on."""
        return self.row.options.get("emotes", True) is not False

    def forecasts(self) -> bool:
        """The room's game offers a forecast (its spec's ``forecast`` hook: P5's)."""
        return has_forecast(self.game.name)

    def alone(self) -> bool:
        """One person plays (alone, or against bots): an undo needs nobody's consent."""
        return sum(s.who == "human" for s in self.row.seats) == 1

    def asker(self) -> int | None:
        """The seat whose undo waits for the other people's consent at this version."""
        asked = self.undo_asked
        return asked[0] if asked is not None and asked[1] == self.version else None

    def may_undo(self, seat: int) -> bool:
        """Whether ``seat``'s ``undo`` would do something now: take back its move (alone),
        ask for it, or agree to another's."""
        asker = self.asker()
        if asker is not None and not self.over:
            return asker != seat
        return self.undo_target(seat) is not None

    def undo_target(self, seat: int) -> int | None:
        """How many moves stand after ``seat`` undoes: back to its last decision, if no
        secret or chance came out since and the room allows it; else None."""
        if self.over or not self.undo_allowed():
            return None
        return self.ledger.target(seat)

    def push(self, text: str, before: State[Any]) -> None:
        """Count move ``text``, made from ``before`` (kept, never changed again) to the
        current state."""
        self.ledger.push(before, self.state)
        self.actions.append(text)
        self.entries += 1

    def take_back(self, keep: int, state: State[Any]) -> Event:
        """Drop the moves after the first ``keep``; ``state`` is the state they lead to.

        Returns the event that tells it (``undo``: who, how many moves, back to which).
        """
        taken = self.actions[keep:]
        seat = self.ledger.take_back(keep)
        self.taken_back.append({"after": keep, "actions": taken})
        del self.actions[keep:]
        self.state = state
        self.entries += 1
        return Event("undo", {"player": seat, "count": len(taken), "after": keep})

    def apply_entry(self, entry: Entry) -> list[Event]:
        """Apply a committed entry read back (a move, or an undo) to the room."""
        if isinstance(entry, UndoEntry):
            keep = entry.keep
            if not self.barrier <= keep < len(self.actions):
                raise ConfigError(f"room {self.row.id}: an undo to move {keep} cannot be made")
            return [self.take_back(keep, self.state_after(keep))]
        before = self.state.clone()  # kept as the snapshot before this move
        events = self.state.apply_unchecked(choose_by_text(self.state, entry.action))
        self.push(entry.action, before)
        return events

    @property
    def over(self) -> bool:
        return self.row.status == "over"

    def bot_for(self, seat: int) -> str | None:
        """The bot playing ``seat`` now, or None if a person does."""
        who = self.row.seats[seat].who
        if who != "human":
            return who
        if seat in self.taken_over:
            return str(self.row.options.get("takeover") or "random")
        return None

    def to_move(self) -> int | None:
        if self.over:
            return None
        player = self.state.current_player
        return None if player == TERMINAL else player

    def record(self) -> GameRecord:
        record = GameRecord.start(self.game, self.row.config, self.row.seed)
        record.actions = list(self.actions)
        record.taken_back = [dict(t, actions=list(t["actions"])) for t in self.taken_back]
        return record

    def state_after(self, keep: int) -> State[Any]:
        """The state after the first ``keep`` moves: a copy of its snapshot, else the
        nearest one before it played on, else replayed from the seed."""
        record = GameRecord.start(self.game, self.row.config, self.row.seed)
        record.actions = self.actions  # read only: replayed up to ``keep``
        return self.ledger.state_after(keep, self.actions, lambda n: record.replay(self.game, n))

    def unattended(self) -> bool:
        """Every seat is played by a bot now (none has a person, or all were handed over):
        such a room plays only while someone watches it."""
        return all(self.bot_for(s.seat) is not None for s in self.row.seats)

    def hint_pending(self, seat: int, version: int) -> bool:
        """A hint of ``seat`` for decision ``version`` is being worked out on a socket."""
        return any(c.seat == seat and c.hint_version == version and c.hinting for c in self.conns)

    def idle(self) -> bool:
        """Nobody is connected, no bot is thinking, no grace period or move is running."""
        busy = self.bot_task is not None and not self.bot_task.done()
        return not self.conns and not busy and not self.grace and not self.lock.locked()


def hints_default(game: str, seats: Sequence[Any], option: str | None) -> bool:
    """Whether hints are on: the room's option, else on unless two people play each other
    (a game whose spec is not ``cooperative``, such as VS)."""
    if option is not None:
        return option == "on"
    people = sum(getattr(s, "who", s) == "human" for s in seats)
    spec = find_spec(game)
    return people <= 1 or (spec is not None and spec.cooperative)


def end_rule(room: Room) -> str:
    """The clause a refusal after the end cites: the one that ended the game (VS-END-2 for
    a deck-out or the turn-cap draw), or the game's end rule for a resigned game."""
    if room.state.is_terminal():
        return room.state.game_over_error().rule_id
    return room.game.game_over_rule


def replay_room(row: RoomRow, entries: list[str]) -> Room:
    """The room its committed entries (moves and undos) lead to."""
    game = games.room_game(row.game, row.cards)
    try:
        room = Room(row=row, game=game, state=game.new_state(row.config, row.seed), actions=[])
        for text in entries:
            room.remember(room.apply_entry(read_entry(text)))
    except (VelvetError, ValueError) as error:
        raise ConfigError(f"room {row.id} cannot be replayed: {error}") from error
    return room
