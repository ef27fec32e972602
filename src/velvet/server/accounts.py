"""Optional accounts: a display name and a password (argon2id), sessions, game records and
Glicko-2 ratings (velvet.server.ratings), in the server's database (docs/web.md).

* A password is kept only as an argon2id hash (argon2-cffi's ``PasswordHasher``).
* A session is a random token in an HttpOnly cookie; the database keeps its SHA-256 only.
* A seat claimed while signed in is bound to the account (``velvet_seats.account``).
* When a game with a bound seat ends, :meth:`Accounts.record_end` writes its record
  (``velvet_results``, one row per seat) and, for a rated room, both players' new ratings,
  in one transaction keyed by the room: a second call (a restart, another process) finds
  the room recorded and changes nothing.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    and_,
    delete,
    exists,
    func,
    insert,
    select,
    update,
)

from velvet.server.protocol import ErrorCode
from velvet.server.ratings import Rating, rate_game
from velvet.server.storage import Conflict, Storage, metadata, rooms, seats

NAME_MIN, NAME_MAX = 3, 24
PASSWORD_MIN, PASSWORD_MAX = 10, 256
SESSION_SECONDS = 30 * 86_400
"""A session lasts 30 days from sign-in."""
NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")

accounts = Table(
    "velvet_accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(NAME_MAX), nullable=False),
    Column("name_key", String(NAME_MAX), nullable=False, unique=True),
    Column("password_hash", String(200), nullable=False),
    Column("created", Float, nullable=False),
)

sessions = Table(
    "velvet_sessions",
    metadata,
    Column("token_sha256", String(64), primary_key=True),
    Column("account", Integer, ForeignKey("velvet_accounts.id"), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

ratings = Table(
    "velvet_ratings",
    metadata,
    Column("account", Integer, ForeignKey("velvet_accounts.id"), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("vol", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

results = Table(
    "velvet_results",
    metadata,
    Column("room", String(32), ForeignKey("velvet_rooms.id"), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("finished", Float, nullable=False),
)

result_seats = Table(
    "velvet_result_seats",
    metadata,
    Column("room", String(32), ForeignKey("velvet_results.room"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account", Integer, ForeignKey("velvet_accounts.id"), nullable=True, index=True),
    Column("who", String(40), nullable=False),
    Column("deck", String(64), nullable=True),
    Column("score", Float, nullable=False),
    Column("rating_before", Float, nullable=True),
    Column("rating_after", Float, nullable=True),
    Column("rd_after", Float, nullable=True),
)

_HASHER = PasswordHasher()
"""argon2id with argon2-cffi's defaults (RFC 9106's low-memory profile)."""
_DUMMY = _HASHER.hash("not a password of anyone")
"""Verified against when the name is unknown, so both refusals take as long."""


class AccountError(Exception):
    """A sign-up or sign-in refused; ``code`` names why, nothing was changed."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code


@dataclass(frozen=True)
class Account:
    id: int
    name: str


def check_name(name: str) -> str:
    """The display name, or AccountError saying what is wrong with it."""
    if not NAME_MIN <= len(name) <= NAME_MAX or not set(name) <= NAME_CHARS:
        raise AccountError(
            "bad_name",
            f"a name is {NAME_MIN}-{NAME_MAX} letters, digits, '_' or '-' (got {name[:40]!r})",
        )
    return name


def check_password(password: str) -> str:
    if len(password) < PASSWORD_MIN:
        raise AccountError("short_password", f"a password has at least {PASSWORD_MIN} characters")
    if len(password) > PASSWORD_MAX:
        raise AccountError("long_password", f"a password has at most {PASSWORD_MAX} characters")
    return password


def session_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def score_of(returns: list[float], seat: int) -> float:
    """A seat's score in a two-seat game's returns: 1 won, 0.5 drawn, 0 lost."""
    mine, theirs = returns[seat], returns[1 - seat]
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


class Accounts:
    """Accounts, sessions, records and ratings, through the server's :class:`Storage`
    (synchronous: the app calls it from worker threads)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # --- accounts and sessions ------------------------------------------------------------

    def sign_up(self, name: str, password: str) -> Account:
        """A new account; AccountError (``bad_name``, ``short_password``, ``name_taken``)."""
        check_name(name)
        hashed = _HASHER.hash(check_password(password))
        try:
            with self.storage._tx() as c:
                row = c.execute(
                    insert(accounts)
                    .values(
                        name=name,
                        name_key=name.casefold(),
                        password_hash=hashed,
                        created=time.time(),
                    )
                    .returning(accounts.c.id)
                ).scalar_one()
        except Conflict:
            raise AccountError(
                "name_taken", f"the name {name!r} is taken; choose another"
            ) from None
        return Account(int(row), name)

    def sign_in(self, name: str, password: str) -> Account:
        """The account if the password is right; else AccountError ``wrong_password`` (the
        same answer for an unknown name, so names cannot be probed through it)."""
        with self.storage._tx() as c:
            row = (
                c.execute(select(accounts).where(accounts.c.name_key == name.casefold()[:64]))
                .mappings()
                .first()
            )
        stored = str(row["password_hash"]) if row is not None else _DUMMY
        try:
            _HASHER.verify(stored, password[:PASSWORD_MAX])
        except (VerificationError, InvalidHashError):
            row = None
        if row is None:
            raise AccountError("wrong_password", "that name and password do not match")
        if _HASHER.check_needs_rehash(stored):
            with self.storage._tx() as c:
                c.execute(
                    update(accounts)
                    .where(accounts.c.id == row["id"])
                    .values(password_hash=_HASHER.hash(password))
                )
        return Account(int(row["id"]), str(row["name"]))

    def new_session(self, account: Account) -> str:
        """A new session's token (the cookie's value); the database keeps its digest."""
        token = secrets.token_urlsafe(32)
        now = time.time()
        with self.storage._tx() as c:
            c.execute(delete(sessions).where(sessions.c.expires < now))  # ended sessions go
            c.execute(
                insert(sessions).values(
                    token_sha256=session_digest(token),
                    account=account.id,
                    created=now,
                    expires=now + SESSION_SECONDS,
                )
            )
        return token

    def session(self, token: str | None) -> Account | None:
        """The account a session cookie signs in, or None (no cookie, unknown, expired)."""
        if not token or len(token) > 128:
            return None
        with self.storage._tx() as c:
            row = c.execute(
                select(accounts.c.id, accounts.c.name)
                .join(sessions, sessions.c.account == accounts.c.id)
                .where(
                    sessions.c.token_sha256 == session_digest(token),
                    sessions.c.expires > time.time(),
                )
            ).first()
        return Account(int(row[0]), str(row[1])) if row is not None else None

    def end_session(self, token: str | None) -> None:
        if token:
            with self.storage._tx() as c:
                c.execute(delete(sessions).where(sessions.c.token_sha256 == session_digest(token)))

    def names(self, ids: list[int]) -> dict[int, str]:
        if not ids:
            return {}
        with self.storage._tx() as c:
            rows = c.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids)))
            return {int(i): str(n) for i, n in rows}

    def rating(self, account: int | None, game: str) -> Rating:
        """The account's rating in ``game``: the start rating (provisional) for an account
        never rated in it, and for anonymous play (``account`` None)."""
        if account is None:
            return Rating()
        with self.storage._tx() as c:
            row = (
                c.execute(
                    select(ratings).where(ratings.c.account == account, ratings.c.game == game)
                )
                .mappings()
                .first()
            )
        return Rating(row["rating"], row["rd"], row["vol"]) if row is not None else Rating()

    # --- game records and ratings ---------------------------------------------------------

    def record_end(self, room_id: str, decks: list[str | None], cooperative: bool = False) -> bool:
        """Record the ended room's result for its seats' accounts and, if the room is
        rated and two different accounts hold its two seats, their new ratings. Once per
        room: False (nothing changed) if it was recorded before, is not over, or has no
        seat bound to an account. ``cooperative``: the seats win or lose together (each
        seat's score is its own return, not a comparison with the other's)."""
        try:
            with self.storage._tx() as c:
                room = c.execute(select(rooms).where(rooms.c.id == room_id)).mappings().first()
                if room is None or room["status"] != "over":
                    return False
                seat_rows = list(
                    c.execute(
                        select(seats.c.seat, seats.c.who, seats.c.account)
                        .where(seats.c.room == room_id)
                        .order_by(seats.c.seat)
                    )
                )
                if all(s.account is None for s in seat_rows):
                    return False
                if c.execute(select(results.c.room).where(results.c.room == room_id)).first():
                    return False
                returns = [float(x) for x in (room["result"] or {}).get("returns", [])]
                bound = [s.account for s in seat_rows]
                rated = (
                    not cooperative
                    and bool(room["options"].get("rated"))
                    and len(seat_rows) == 2
                    and len(returns) == 2
                    and None not in bound
                    and bound[0] != bound[1]
                )
                game = str(room["game"])
                c.execute(
                    insert(results).values(
                        room=room_id, game=game, rated=rated, finished=time.time()
                    )
                )
                before: dict[int, Rating] = {}
                after: dict[int, Rating] = {}
                if rated:
                    a, b = int(bound[0] or 0), int(bound[1] or 0)
                    before, known = _ratings_for_update(c, [a, b], game)
                    after[a], after[b] = rate_game(before[a], before[b], score_of(returns, 0))
                    for who in (a, b):
                        _save_rating(c, who, game, after[who], who in known)
                for s in seat_rows:
                    who = s.account
                    c.execute(
                        insert(result_seats).values(
                            room=room_id,
                            seat=s.seat,
                            account=who,
                            who=s.who,
                            deck=(decks[s.seat] if s.seat < len(decks) else None),
                            score=_seat_score(returns, s.seat, cooperative),
                            rating_before=before[who].rating if who in before else None,
                            rating_after=after[who].rating if who in after else None,
                            rd_after=after[who].rd if who in after else None,
                        )
                    )
        except Conflict:  # another process recorded it between our look and our insert
            return False
        return True

    def pending_ends(self, limit: int = 500) -> list[str]:
        """Rooms that are over, have a seat bound to an account and no record yet (the
        process that ended them stopped before recording)."""
        with self.storage._tx() as c:
            return list(
                c.execute(
                    select(rooms.c.id)
                    .where(
                        rooms.c.status == "over",
                        exists().where(
                            and_(seats.c.room == rooms.c.id, seats.c.account.is_not(None))
                        ),
                        ~exists().where(results.c.room == rooms.c.id),
                    )
                    .limit(limit)
                ).scalars()
            )

    # --- profiles and the leaderboard -----------------------------------------------------

    def profile(self, name: str, limit: int = 50) -> dict[str, Any] | None:
        """An account's public page: its ratings per game, its finished games (newest
        first: opponent, result, deck, rating change) and the rooms it is playing in."""
        with self.storage._tx() as c:
            row = (
                c.execute(select(accounts).where(accounts.c.name_key == name.casefold()[:64]))
                .mappings()
                .first()
            )
            if row is None:
                return None
            me = int(row["id"])
            rated = [
                _rating_json(r)
                for r in c.execute(
                    select(ratings).where(ratings.c.account == me).order_by(ratings.c.game)
                ).mappings()
            ]
            mine = (
                c.execute(
                    select(result_seats, results.c.game, results.c.rated, results.c.finished)
                    .join(results, results.c.room == result_seats.c.room)
                    .where(result_seats.c.account == me)
                    .order_by(results.c.finished.desc())
                    .limit(limit)
                )
                .mappings()
                .all()
            )
            rooms_of = [m["room"] for m in mine]
            others = (
                c.execute(
                    select(result_seats, accounts.c.name)
                    .outerjoin(accounts, accounts.c.id == result_seats.c.account)
                    .where(result_seats.c.room.in_(rooms_of))
                )
                .mappings()
                .all()
                if rooms_of
                else []
            )
            playing = list(
                c.execute(
                    select(rooms.c.id, rooms.c.game, seats.c.seat)
                    .join(seats, seats.c.room == rooms.c.id)
                    .where(seats.c.account == me, rooms.c.status != "over")
                    .order_by(rooms.c.created.desc())
                    .limit(limit)
                )
            )
        games = []
        for m in mine:
            opponents = [
                {"seat": o["seat"], "name": o["name"], "who": o["who"], "deck": o["deck"]}
                for o in others
                if o["room"] == m["room"] and o["seat"] != m["seat"]
            ]
            games.append(
                {
                    "room": m["room"],
                    "game": m["game"],
                    "seat": m["seat"],
                    "finished": m["finished"],
                    "result": _result_word(m["score"]),
                    "score": m["score"],
                    "deck": m["deck"],
                    "rated": bool(m["rated"]),
                    "rating_before": m["rating_before"],
                    "rating_after": m["rating_after"],
                    "opponents": opponents,
                }
            )
        return {
            "name": row["name"],
            "created": row["created"],
            "ratings": rated,
            "games": games,
            "playing": [{"room": r[0], "game": r[1], "seat": r[2]} for r in playing],
        }

    def leaderboard(self, game: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """Rated players by rating, highest first (provisional ones included, marked)."""
        with self.storage._tx() as c:
            query = select(ratings, accounts.c.name).join(
                accounts, accounts.c.id == ratings.c.account
            )
            if game is not None:
                query = query.where(ratings.c.game == game)
            rows = c.execute(
                query.order_by(ratings.c.rating.desc(), func.lower(accounts.c.name)).limit(limit)
            ).mappings()
            return [{"name": r["name"], **_rating_json(r)} for r in rows]


def _ratings_for_update(c: Any, ids: list[int], game: str) -> tuple[dict[int, Rating], set[int]]:
    """The players' ratings in ``game`` and which of them have one, rows locked until the
    commit (PostgreSQL; SQLite's write transaction holds the whole database already); a
    newcomer starts at 1500, RD 350."""
    rows = c.execute(
        select(ratings).where(ratings.c.account.in_(ids), ratings.c.game == game).with_for_update()
    ).mappings()
    found = {int(r["account"]): Rating(r["rating"], r["rd"], r["vol"]) for r in rows}
    return {i: found.get(i, Rating()) for i in ids}, set(found)


def _save_rating(c: Any, who: int, game: str, rating: Rating, known: bool) -> None:
    values = {"rating": rating.rating, "rd": rating.rd, "vol": rating.vol}
    if known:
        c.execute(
            update(ratings)
            .where(ratings.c.account == who, ratings.c.game == game)
            .values(**values, games=ratings.c.games + 1, updated=time.time())
        )
    else:
        c.execute(
            insert(ratings).values(account=who, game=game, **values, games=1, updated=time.time())
        )


def _seat_score(returns: list[float], seat: int, cooperative: bool) -> float:
    """A two-seat game's score (score_of); in a co-op game, or a seat alone, the seat's own
    return (1 won, 0 lost)."""
    if len(returns) == 2 and not cooperative:
        return score_of(returns, seat)
    return max(0.0, min(1.0, float(returns[seat]))) if seat < len(returns) else 0.0


def _rating_json(r: Any) -> dict[str, Any]:
    rating = Rating(float(r["rating"]), float(r["rd"]), float(r["vol"]))
    return {
        "game": r["game"],
        "rating": round(rating.rating),
        "rd": round(rating.rd),
        "provisional": rating.provisional,
        "games": int(r["games"]),
    }


def _result_word(score: float) -> str:
    return "won" if score >= 1.0 else "drew" if score == 0.5 else "lost"
