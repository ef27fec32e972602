"""What the server tells a room's sockets: the messages made from a room's data.

Each seat's ``state`` (its own view, its legal actions, the events as it may see them),
the ``log`` a socket that joins late is sent, the ``seats``, the room's public ``RoomInfo``
and, at the end, its ``over`` record. ``broadcast`` sends a change to every socket,
each seat's view built and serialised once. Nothing here changes a room.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from velvet.engine.core import Event, player_name
from velvet.i18n import DEFAULT, _, localize, ngettext, seat_name, speaking
from velvet.server import correspondence, games
from velvet.server.clock import time_left
from velvet.server.protocol import (
    ActionOut,
    EventOut,
    LogEntry,
    LogMsg,
    RecordMsg,
    RoomInfo,
    SeatInfo,
    SeatsMsg,
    StateMsg,
)
from velvet.server.room import Conn, Room
from velvet.server.storage import RoomRow


def undo_text(event: Event) -> str:
    """The log's words for an undo asked or made, in the language being spoken."""
    who = seat_name(int(event.data["player"]))
    if event.kind == "undo_ask":
        return _(
            "{who} asks to take back their last move; the other player may agree (Undo)."
        ).format(who=who)
    count = int(event.data["count"])
    moves = ngettext("{count} move", "{count} moves", count).format(count=count)
    return _("{who} takes back {moves}.").format(who=who, moves=moves)


def _said(room: Room, event: Event, seat: int | None) -> tuple[str, str, dict[str, Any]]:
    """(kind, sentence, data) of one event of the log as ``seat`` may see it, the sentence
    in the language being spoken (its card names too)."""
    if event.kind in ("undo", "undo_ask"):
        return event.kind, undo_text(event), dict(event.data)
    kind, text, data = games.event_for(room.game, event, seat)
    return kind, localize(text, room.game.name), data


def seat_display(who: str, claimed: bool, player: str | None, bot: str | None = None) -> str:
    """Who plays a seat, in words (``SeatInfo.display_name``): the account's name, else
    "Guest" (or "Open seat" before its invite is used), or "Bot (LEVEL)" for a bot's seat;
    ``bot``: the bot playing a person's seat for now (takeover)."""
    if who != "human":
        return f"Bot ({who})"
    person = player or ("Guest" if claimed else "Open seat")
    return f"{person} (a bot plays for now)" if bot is not None else person


def row_seat_infos(row: RoomRow, names: dict[int, str]) -> list[SeatInfo]:
    """The seats' public facts of a room not in memory, from its row; ``names``: account
    names by id (nobody is counted as connected but the bots)."""
    infos = []
    for s in row.seats:
        claimed = s.who == "human" and s.secret_sha256 is not None
        player = names.get(s.account) if s.account is not None else None
        infos.append(
            SeatInfo(
                seat=s.seat,
                name=player_name(s.seat),
                who=s.who,
                connected=s.who != "human",
                claimed=claimed,
                player=player,
                display_name=seat_display(s.who, claimed, player),
            )
        )
    return infos


def room_info(room: Room) -> RoomInfo:
    return RoomInfo(
        room=room.row.id,
        game=room.row.game,
        status=room.row.status,
        version=room.version,
        seats=seat_infos(room),
        seed_sha256=room.row.seed_sha256,
        created=room.row.created,
        hotseat=bool(room.row.options.get("hotseat")),
        rated=bool(room.row.options.get("rated")),
        days_per_move=room.row.options.get("days_per_move"),
        hours_per_move=room.row.options.get("hours_per_move"),
    )


def seat_infos(room: Room) -> list[SeatInfo]:
    present = {c.seat for c in room.conns}
    infos = []
    for s in room.row.seats:
        claimed = s.who == "human" and s.secret_sha256 is not None
        player = room.players.get(s.seat)
        bot = room.bot_for(s.seat)
        infos.append(
            SeatInfo(
                seat=s.seat,
                name=player_name(s.seat),
                who=bot or "human",
                connected=s.who != "human" or s.seat in present,
                claimed=claimed,
                player=player,
                display_name=seat_display(s.who, claimed, player, bot),
            )
        )
    return infos


def send_seats(room: Room, skip: Conn | None = None) -> None:
    """Tell the room's sockets (but ``skip``) who plays each seat now (``seats``)."""
    text = SeatsMsg(seats=seat_infos(room)).model_dump_json()
    for c in list(room.conns):
        if c is not skip:
            c.send(text)


def log_msg(room: Room, seat: int | None, lang: str = DEFAULT) -> LogMsg:
    """The log so far, each event as ``seat`` (None: a spectator) may see it, in ``lang``."""
    entries = []
    with speaking(lang):
        for version, events in room.history:
            for event in events:
                kind, text, _data = _said(room, event, seat)
                entries.append(LogEntry(version=version, kind=kind, text=text))
    return LogMsg(version=room.version, entries=entries)


def broadcast(
    room: Room, events: Sequence[Event], mover: Conn | None, action: str | None = None
) -> None:
    """Send each socket of ``room`` its seat's state after ``events`` (``mover``'s with
    ``ack`` and the ``action`` it made), and the record if the game is over."""
    room.remember(events)
    # each seat's view is built and serialised once per language, however many sockets
    cache: dict[tuple[int | None, str], tuple[StateMsg, str]] = {}
    record = record_msg(room).model_dump_json() if room.over else None
    for c in list(room.conns):
        made = cache.get((c.seat, c.lang))
        if made is None:
            msg = state_msg(room, c.seat, events, ack=False, lang=c.lang)
            made = cache[c.seat, c.lang] = (msg, msg.model_dump_json())
        if c is mover:
            c.send(made[0].model_copy(update={"ack": True, "acked": action}))
        else:
            c.send(made[1])
        if record is not None:
            c.send(record)


def state_msg(
    room: Room, seat: int | None, events: Sequence[Event], ack: bool, lang: str = DEFAULT
) -> StateMsg:
    """``seat``'s state message (None: a spectator's) after ``events``, its words (action
    labels, events) in ``lang``; an action's ``text``, what a client sends back, stays the
    engine's."""
    state = room.state
    view = state.view(seat) if seat is not None else games.public_view(state)
    to_move = room.to_move()
    legal: list[ActionOut] = []
    with speaking(lang):
        if to_move is not None and to_move == seat and room.bot_for(seat) is None:
            game = room.game
            listed = games.legal_labels(state)
            room.legal = (room.version, {t: a for a, t, _label in listed})
            legal = [
                ActionOut(
                    text=t,
                    label=localize(label, game.name),
                    targets=list(game.action_targets(state, a)),
                    note=game.action_note(state, a),
                )
                for a, t, label in listed
            ]
        out = []
        for event in events:
            kind, text, data = _said(room, event, seat)
            out.append(EventOut(kind=kind, text=text, data=data))
    return StateMsg(
        version=room.version,
        view=view,
        to_move=to_move,
        legal=legal,
        events=out,
        status=room.row.status,
        result=room.row.result,
        ack=ack,
        undo=seat is not None and room.may_undo(seat),
        undo_asked=room.asker(),
        time_left=time_left(room, to_move),
        deadline=correspondence.deadline(room.row, room.moved_at),
    )


def record_msg(room: Room) -> RecordMsg:
    return RecordMsg(
        result=room.row.result or {},
        record=room.record().to_json(),
        seed=room.row.seed,
        nonce=room.row.nonce,
    )
