"""Rooms, seats and moves in a SQL database (SQLAlchemy 2, schema by Alembic).

Every accepted move is one row, committed before anyone is told of it; a room's
state is rebuilt by replaying its moves. ``(room, number)`` is the primary key
of a move, so two processes can never both accept move *n* of a room: the
second commit fails and that process reloads the room.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError

metadata = MetaData()

rooms = Table(
    "velvet_rooms",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("cards", JSON, nullable=False),
    Column("config", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("nonce", String(64), nullable=False),
    Column("seed_sha256", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("result", JSON, nullable=True),
    Column("version", Integer, nullable=False, default=0),
    Column("options", JSON, nullable=False),
    Column("listed", Boolean, nullable=False, default=True),
    Column("rematch_of", String(32), nullable=True),
    Column("rematch", String(32), nullable=True),
    Column("created", Float, nullable=False),
)

seats = Table(
    "velvet_seats",
    metadata,
    Column("room", String(32), ForeignKey("velvet_rooms.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("who", String(40), nullable=False),
    Column("token_sha256", String(64), nullable=False),
    Column("taken_over", Boolean, nullable=False, default=False),
    Column("dropped_at", Float, nullable=True),
    Column("secret_sha256", String(64), nullable=True),
    Column("claimed_at", Float, nullable=True),
    Column("move_sha256", String(64), nullable=True),
    Column("move_until", Float, nullable=True),
    Column("account", Integer, nullable=True, index=True),
)

moves = Table(
    "velvet_moves",
    metadata,
    Column("room", String(32), ForeignKey("velvet_rooms.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("at", Float, nullable=False),
)


# Built once: a statement made anew for every move costs more than running it.
_ADVANCE = (
    update(rooms)
    .where(
        rooms.c.id == bindparam("room_id"),
        rooms.c.version == bindparam("before"),
        rooms.c.status != "over",
    )
    .values(version=bindparam("after"))
)
_ADVANCE_TO_END = _ADVANCE.values(status="over", result=bindparam("finished", type_=JSON))
_INSERT_MOVES = insert(moves)
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


class StorageError(Exception):
    """The database refused or failed (locked, gone, disk full): nothing was changed."""


class Conflict(Exception):
    """Another writer got there first (move number taken, room already over)."""


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, digest: str) -> bool:
    """Constant-time comparison of a presented token with a stored digest."""
    return hmac.compare_digest(token_digest(token).encode(), digest.encode())


@dataclass
class SeatRow:
    seat: int
    who: str
    token_sha256: str
    taken_over: bool = False
    """A person's seat handed to the room's takeover bot (until the person comes back)."""
    dropped_at: float | None = None
    """When the person left the seat, while its grace period runs (Unix time)."""
    secret_sha256: str | None = None
    """SHA-256 of the secret of the client that claimed the seat's invite (None: unclaimed;
    the invite, ``token_sha256``, then opens it once)."""
    claimed_at: float | None = None
    move_sha256: str | None = None
    """SHA-256 of a one-time code that moves the seat to another client, while it lasts."""
    move_until: float | None = None
    account: int | None = None
    """The account signed in on the client that claimed the seat (velvet.server.accounts)."""


@dataclass
class RoomRow:
    id: str
    game: str
    cards: list[str]
    config: dict[str, Any]
    seed: int
    nonce: str
    seed_sha256: str
    status: str
    result: dict[str, Any] | None
    version: int
    options: dict[str, Any]
    listed: bool
    rematch_of: str | None
    rematch: str | None
    created: float
    seats: list[SeatRow] = field(default_factory=list)


def default_db_url() -> str:
    """SQLite in the user's data folder: ``VELVET_DATA_DIR`` (as for the terminal's
    autosaves), else $XDG_DATA_HOME/velvet or ~/.local/share/velvet."""
    override = os.environ.get("VELVET_DATA_DIR")
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    folder = Path(override) if override else Path(base) / "velvet"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'server.sqlite3'}"


def _sqlite_pragmas(busy_ms: int) -> Callable[[Any, Any], None]:
    def connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN IMMEDIATE
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return connect


def _sqlite_begin(connection: Connection) -> None:
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def make_engine(url: str, busy_ms: int = 5000) -> Engine:
    """An engine for ``url``; PostgreSQL URLs use psycopg 3.

    ``busy_ms``: how long SQLite waits for a lock before the write fails as "locked".
    """
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    if url.startswith("sqlite"):
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": busy_ms / 1000}
        )
        event.listen(engine, "connect", _sqlite_pragmas(busy_ms))
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=8, max_overflow=8)


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest Alembic revision."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@dataclass
class _MoveWrite:
    room: str
    number: int
    seat: int
    action: str
    finished: dict[str, Any] | None
    done: Future[None] = field(default_factory=Future)

    def settle(self, failure: Exception | None) -> None:
        """Tell the waiter how it went; a waiter that gave up (cancelled) is not told."""
        if not self.done.set_running_or_notify_cancel():
            return
        if failure is None:
            self.done.set_result(None)
        else:
            self.done.set_exception(failure)


class Storage:
    """Synchronous data access; the app calls it from worker threads.

    Moves go through one writer thread that commits every move waiting at that
    moment in one transaction (group commit: the disk is synced once per batch).
    If any move of a batch conflicts, the batch is rolled back and each move is
    tried again alone, so a conflicting move fails alone.
    """

    def __init__(
        self, url: str, busy_ms: int = 5000, clock: Callable[[], float] = time.time
    ) -> None:
        self.url = url
        self.clock = clock
        """The wall clock that stamps moves and claims (the app's, so tests can set it)."""
        self.engine = make_engine(url, busy_ms)
        self._write_lock = threading.Lock() if url.startswith("sqlite") else None
        self.notify_channel: str | None = None
        """PostgreSQL: the channel each committed move is announced on, by the commit itself."""
        self._queue: queue.SimpleQueue[_MoveWrite | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None

    def close(self) -> None:
        if self._writer is not None:
            self._queue.put(None)
            self._writer.join(10)
            self._writer = None
        self.engine.dispose()

    def submit_move(
        self, room: str, number: int, seat: int, action: str, finished: dict[str, Any] | None
    ) -> Future[None]:
        """Queue move ``number`` for the writer; the future fails with Conflict or StorageError."""
        if self._writer is None:
            self._writer = threading.Thread(target=self._write_loop, daemon=True)
            self._writer.start()
        write = _MoveWrite(room, number, seat, action, finished)
        self._queue.put(write)
        return write.done

    def _write_loop(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < 500:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                batch.append(more)
            self._write_batch(batch)

    def _write_batch(self, batch: list[_MoveWrite], tries: int = 3) -> None:
        """All moves in one transaction; if any conflicts, each again in its own.

        Rooms are locked in the order of their ids, so two processes writing batches
        never wait on each other in a circle; a failed batch is tried again a few
        times (a deadlock or a dropped connection) before its moves are refused.
        """
        try:
            with self._tx() as c:
                self._advance(c, sorted(batch, key=lambda w: (w.room, w.number)))
                c.execute(_INSERT_MOVES, [_move_values(w, self.clock()) for w in batch])
                if self.notify_channel is not None:  # sent by PostgreSQL if, and when, it commits
                    c.execute(_NOTIFY, [self._notice(w) for w in batch])
        except Conflict:
            if len(batch) > 1:
                for w in batch:
                    self._write_batch([w])
                return
            batch[0].settle(Conflict(f"move {batch[0].number} of {batch[0].room}"))
            return
        except StorageError as failure:
            if tries > 1:
                time.sleep(0.05)
                self._write_batch(batch, tries - 1)
                return
            for w in batch:
                w.settle(failure)
            return
        except Exception as bug:  # the writer must outlive anything: fail these moves only
            for w in batch:
                w.settle(StorageError(f"the move could not be saved ({bug!r})"))
            return
        for w in batch:
            w.settle(None)

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        """One transaction; database failures become :class:`StorageError`."""
        lock = self._write_lock
        if lock is not None:
            lock.acquire()
        try:
            with self.engine.begin() as connection:
                yield connection
        except IntegrityError as error:
            raise Conflict(str(error.orig)) from error
        except OperationalError as error:
            raise StorageError(_reason(error)) from error
        except SQLAlchemyError as error:
            raise StorageError(f"database error: {type(error).__name__}") from error
        finally:
            if lock is not None:
                lock.release()

    def _notice(self, w: _MoveWrite) -> dict[str, Any]:
        from velvet.server.bus import notice

        payload = notice(w.room, w.number, w.finished is not None, w.action)
        return {"channel": self.notify_channel, "payload": payload}

    def create_room(self, row: RoomRow) -> None:
        with self._tx() as c:
            insert_room(c, row)

    def load_room(self, room_id: str) -> tuple[RoomRow, list[str]] | None:
        """The room and its moves' action texts in order, or None."""
        with self._tx() as c:
            r = c.execute(select(rooms).where(rooms.c.id == room_id)).mappings().first()
            if r is None:
                return None
            seat_rows = c.execute(
                select(seats).where(seats.c.room == room_id).order_by(seats.c.seat)
            ).mappings()
            actions = (
                c.execute(
                    select(moves.c.action).where(moves.c.room == room_id).order_by(moves.c.number)
                )
                .scalars()
                .all()
            )
            room = _room(r)
            room.seats = [_seat(s) for s in seat_rows]
            return room, list(actions)

    def seats_of(self, room_id: str) -> list[SeatRow]:
        """The room's seats as the database has them now (claims made by any process)."""
        with self._tx() as c:
            rows = c.execute(
                select(seats).where(seats.c.room == room_id).order_by(seats.c.seat)
            ).mappings()
            return [_seat(s) for s in rows]

    def claim_seat(
        self, room_id: str, seat: int, secret_sha256: str, account: int | None = None
    ) -> bool:
        """Bind an unclaimed seat to the client whose secret has this digest (and to the
        account signed in there, if any); False if another client claimed it first (the
        invite was already used)."""
        with self._tx() as c:
            done = c.execute(
                update(seats)
                .where(
                    seats.c.room == room_id, seats.c.seat == seat, seats.c.secret_sha256.is_(None)
                )
                .values(secret_sha256=secret_sha256, claimed_at=self.clock(), account=account)
            )
            return bool(done.rowcount == 1)

    def offer_move(self, room_id: str, seat: int, code_sha256: str, until: float) -> None:
        """Arm a one-time code (its digest) that moves ``seat`` to another client until
        ``until`` (Unix time); it replaces any earlier code of the seat."""
        with self._tx() as c:
            c.execute(
                update(seats)
                .where(seats.c.room == room_id, seats.c.seat == seat)
                .values(move_sha256=code_sha256, move_until=until)
            )

    def take_move(self, room_id: str, seat: int, code_sha256: str, secret_sha256: str) -> bool:
        """Spend the seat's move code: the seat now opens with the new secret only (the old
        client's secret stops working). False if the code was spent or ran out."""
        now = self.clock()
        with self._tx() as c:
            done = c.execute(
                update(seats)
                .where(
                    seats.c.room == room_id,
                    seats.c.seat == seat,
                    seats.c.move_sha256 == code_sha256,
                    seats.c.move_until > now,
                )
                .values(
                    secret_sha256=secret_sha256, claimed_at=now, move_sha256=None, move_until=None
                )
            )
            return bool(done.rowcount == 1)

    def changes(self, room_id: str, number: int) -> tuple[RoomRow, list[str]] | None:
        """The room's row (without seats) and the action texts of moves after ``number``."""
        with self._tx() as c:
            r = c.execute(select(rooms).where(rooms.c.id == room_id)).mappings().first()
            if r is None:
                return None
            actions = c.execute(
                select(moves.c.action)
                .where(moves.c.room == room_id, moves.c.number > number)
                .order_by(moves.c.number)
            ).scalars()
            return _room(r), list(actions)

    @staticmethod
    def _advance(c: Connection, batch: list[_MoveWrite]) -> None:
        """Move each room of ``batch`` from version ``number - 1`` to ``number``.

        One statement run for all the moves (the driver sends them together); if
        fewer rooms than moves were where the moves expect them, Conflict.
        """
        going_on = [w for w in batch if w.finished is None]
        ending = [w for w in batch if w.finished is not None]
        changed = 0
        if going_on:
            params = [
                {"room_id": w.room, "before": w.number - 1, "after": w.number} for w in going_on
            ]
            changed += c.execute(_ADVANCE, params).rowcount
        if ending:
            params = [
                {
                    "room_id": w.room,
                    "before": w.number - 1,
                    "after": w.number,
                    "finished": w.finished,
                }
                for w in ending
            ]
            changed += c.execute(_ADVANCE_TO_END, params).rowcount
        if changed != len(batch):
            raise Conflict(
                f"{len(batch) - changed} of {len(batch)} rooms were not where the moves expect"
            )

    def mark_seat(
        self, room_id: str, seat: int, taken_over: bool, dropped_at: float | None
    ) -> None:
        """Remember whether ``seat`` is played by the takeover bot and since when it is empty."""
        with self._tx() as c:
            c.execute(
                update(seats)
                .where(seats.c.room == room_id, seats.c.seat == seat)
                .values(taken_over=taken_over, dropped_at=dropped_at)
            )

    def finish(self, room_id: str, version: int, result: dict[str, Any]) -> None:
        """End a room that is not over (a resignation): Conflict if it moved on."""
        with self._tx() as c:
            done = c.execute(
                update(rooms)
                .where(rooms.c.id == room_id, rooms.c.version == version, rooms.c.status != "over")
                .values(status="over", result=result)
            )
            if done.rowcount != 1:
                raise Conflict(f"room {room_id} changed")

    def lobby(self, limit: int = 100) -> list[RoomRow]:
        """Listed rooms not over, newest first."""
        with self._tx() as c:
            rows = (
                c.execute(
                    select(rooms)
                    .where(rooms.c.listed.is_(True), rooms.c.status != "over")
                    .order_by(rooms.c.created.desc())
                    .limit(limit)
                )
                .mappings()
                .all()
            )
            out = [_room(r) for r in rows]
            if out:
                by_id = {r.id: r for r in out}
                for s in c.execute(
                    select(seats).where(seats.c.room.in_(list(by_id))).order_by(seats.c.seat)
                ).mappings():
                    claimed = s["secret_sha256"] is not None
                    by_id[s["room"]].seats.append(
                        SeatRow(
                            s["seat"],
                            s["who"],
                            "",
                            secret_sha256="" if claimed else None,
                            account=s["account"],
                        )
                    )
            return out

    def rooms_of(self, room_ids: list[str]) -> dict[str, RoomRow]:
        """These rooms' rows with their seats (secrets' digests too), by id; unknown ids
        are left out."""
        if not room_ids:
            return {}
        with self._tx() as c:
            found = {
                r["id"]: _room(r)
                for r in c.execute(select(rooms).where(rooms.c.id.in_(room_ids))).mappings()
            }
            if found:
                for s in c.execute(
                    select(seats).where(seats.c.room.in_(list(found))).order_by(seats.c.seat)
                ).mappings():
                    found[s["room"]].seats.append(_seat(s))
            return found

    def last_moves(self, room_ids: list[str]) -> dict[str, float]:
        """When each of these rooms' last move was committed (Unix time); a room with no
        move yet is left out (its clock runs from its creation)."""
        if not room_ids:
            return {}
        with self._tx() as c:
            found = c.execute(
                select(moves.c.room, func.max(moves.c.at))
                .where(moves.c.room.in_(room_ids))
                .group_by(moves.c.room)
            ).all()
            return {room: float(at) for room, at in found}

    def playing(self, limit: int = 1000) -> list[str]:
        """Rooms not over (oldest first): the correspondence sweep reads their options."""
        with self._tx() as c:
            return list(
                c.execute(
                    select(rooms.c.id)
                    .where(rooms.c.status != "over")
                    .order_by(rooms.c.created)
                    .limit(limit)
                ).scalars()
            )

    def rooms_of_account(self, account: int, limit: int = 50) -> list[str]:
        """The rooms where ``account`` holds a seat, games going on first, newest first."""
        with self._tx() as c:
            rows = c.execute(
                select(rooms.c.id)
                .join(seats, seats.c.room == rooms.c.id)
                .where(seats.c.account == account)
                .order_by((rooms.c.status == "over").asc(), rooms.c.created.desc())
                .limit(limit)
            ).scalars()
            return list(dict.fromkeys(rows))


def insert_room(c: Connection, row: RoomRow) -> None:
    """Insert ``row`` and its seats in the transaction of ``c`` (a rematch marks its first room)."""
    c.execute(
        insert(rooms).values(
            id=row.id,
            game=row.game,
            cards=row.cards,
            config=row.config,
            seed=row.seed,
            nonce=row.nonce,
            seed_sha256=row.seed_sha256,
            status=row.status,
            result=row.result,
            version=0,
            options=row.options,
            listed=row.listed,
            rematch_of=row.rematch_of,
            rematch=None,
            created=row.created,
        )
    )
    for s in row.seats:
        c.execute(
            insert(seats).values(
                room=row.id,
                seat=s.seat,
                who=s.who,
                token_sha256=s.token_sha256,
                secret_sha256=s.secret_sha256,
                claimed_at=s.claimed_at,
                account=s.account,
            )
        )
    if row.rematch_of is not None:
        c.execute(update(rooms).where(rooms.c.id == row.rematch_of).values(rematch=row.id))


def _move_values(w: _MoveWrite, at: float) -> dict[str, Any]:
    return {
        "room": w.room,
        "number": w.number,
        "seat": w.seat,
        "action": w.action,
        "at": at,
    }


def _seat(s: Any) -> SeatRow:
    return SeatRow(
        s["seat"],
        s["who"],
        s["token_sha256"],
        bool(s["taken_over"]),
        s["dropped_at"],
        s["secret_sha256"],
        s["claimed_at"],
        s["move_sha256"],
        s["move_until"],
        s["account"],
    )


def _room(r: Any) -> RoomRow:
    return RoomRow(
        id=r["id"],
        game=r["game"],
        cards=list(r["cards"]),
        config=dict(r["config"]),
        seed=int(r["seed"]),
        nonce=r["nonce"],
        seed_sha256=r["seed_sha256"],
        status=r["status"],
        result=r["result"],
        version=int(r["version"]),
        options=dict(r["options"]),
        listed=bool(r["listed"]),
        rematch_of=r["rematch_of"],
        rematch=r["rematch"],
        created=float(r["created"]),
    )


def _reason(error: OperationalError) -> str:
    text = str(error.orig).lower()
    if "locked" in text or "busy" in text:
        return "the database is locked; try again"
    if "disk" in text or "full" in text or "no space" in text:
        return "the database disk is full; nothing was saved"
    return "the database is unavailable; nothing was saved"
