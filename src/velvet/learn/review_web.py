"""Review over HTTP, for the browser's Review page: ``POST /api/review`` (docs/learn.md).

The body is a game record as ``velvet review`` reads it: a bare record, a save, or the
answer of ``GET /api/rooms/{room}/record`` (``{"record": {...}}``). The answer streams
one JSON object a line (NDJSON) as the decisions are judged: ``start`` (the game, its
moves, how many decisions), a ``decision`` a line (:meth:`velvet.learn.review.Decision.to_json`)
and ``done`` (the mistakes). A record that does not replay is a 422 naming what is wrong,
before any line. The search runs in one worker process with a budget of
:data:`SERVER_SECONDS` a decision; one review runs at a time (another is a 503), and the
last :data:`CACHED` reviews are kept, so a shared link opens at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, StreamingResponse

from velvet.engine.core import canonical_json
from velvet.engine.errors import RecordError, VelvetError
from velvet.engine.record import SAVE_FORMAT, GameRecord, unwrap_download
from velvet.engine.workers import stop_pool
from velvet.games import game_names
from velvet.learn.review import (
    SIMULATIONS,
    Position,
    budget_for,
    judge_position,
    new_pool,
    positions,
)
from velvet.server.games import room_game
from velvet.server.problems import problem
from velvet.server.protocol import MAX_CARD_FILES, MAX_CARD_TEXT, ErrorCode

SERVER_SECONDS = 0.3
"""Search time per decision on the server: a 100-decision game in about 30 s."""
MAX_MOVES = 600
"""Longest record the server reviews (a real game takes tens to a few hundred moves)."""
CACHED = 16
"""Reviews kept in memory, by the record's digest."""


class Reviewer:
    """The server's one review worker, its lock and its cache."""

    def __init__(self, workers: int = 1, seconds: float = SERVER_SECONDS) -> None:
        self.workers = workers
        self.budget = budget_for(seconds, SIMULATIONS)
        self.seconds = seconds
        self.lock = asyncio.Lock()
        self.cache: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()
        self._pool: Any = None

    async def judge(self, position: Position) -> dict[str, Any]:
        if self.workers == 0:
            decision = await asyncio.to_thread(judge_position, position, self.budget)
        else:
            if self._pool is None:
                self._pool = new_pool(self.workers)
            loop = asyncio.get_running_loop()
            decision = await loop.run_in_executor(self._pool, judge_position, position, self.budget)
        return {"type": "decision"} | decision.to_json()

    def close(self) -> None:
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None


def read_record(body: Any) -> GameRecord:
    """The record in a request body: a record, a save, or ``{"record": ...}``."""
    if isinstance(body, dict) and body.get("format") == SAVE_FORMAT:
        body = body.get("record")
    record = GameRecord.from_json(unwrap_download(body))
    if record.game not in game_names():
        raise RecordError(
            f"record: no game '{record.game[:40]}' here; games: {', '.join(game_names())}"
        )
    if len(record.actions) > MAX_MOVES:
        raise RecordError(f"record: over {MAX_MOVES} moves, more than this server reviews")
    return record


def card_texts(body: Any) -> tuple[str, ...]:
    """The custom card files a room download carries (``"cards"``: their texts), if any.

    Raises RecordError naming what is wrong with them."""
    cards = body.get("cards", []) if isinstance(body, dict) else []
    if not isinstance(cards, list) or len(cards) > MAX_CARD_FILES:
        raise RecordError(f"record: field 'cards' must list at most {MAX_CARD_FILES} card files")
    if not all(isinstance(t, str) and len(t) <= MAX_CARD_TEXT for t in cards):
        raise RecordError(
            f"record: field 'cards' must hold card files' texts of at most {MAX_CARD_TEXT} "
            "characters"
        )
    return tuple(cards)


def _problem(code: ErrorCode, message: str, status: int) -> JSONResponse:
    return problem(code, message, status)


def make_router(reviewer: Reviewer | None = None) -> APIRouter:
    """The review route (one :class:`Reviewer` for the app, made here if not given)."""
    router = APIRouter()
    worker = reviewer or Reviewer()  # its worker dies with the server (die_with_parent)

    @router.post("/api/review", responses={422: {}, 503: {}})
    async def review_record(request: Request) -> Any:
        """Judge every decision of the record in the body from its mover's view (NDJSON)."""
        raw = await request.body()
        try:
            body = json.loads(raw)
        except (ValueError, RecursionError):
            return _problem("bad_record", "the body is not JSON: send a game record", 422)
        try:
            record = read_record(body)
            cards = card_texts(body)
            game = await asyncio.to_thread(room_game, record.game, cards)
            found, final = await asyncio.to_thread(positions, game, record)
        except VelvetError as error:
            return _problem("bad_record", str(error)[:400], 422)
        key = hashlib.sha256(
            canonical_json({"record": record.to_json(), "cards": list(cards)}).encode()
        ).hexdigest()
        lines = worker.cache.get(key)
        if lines is not None:
            worker.cache.move_to_end(key)
            cached = lines
            return StreamingResponse(
                (json.dumps(line) + "\n" for line in cached), media_type="application/x-ndjson"
            )
        if worker.lock.locked():
            return _problem(
                "busy", "the server is reviewing another game; try again in a minute", 503
            )
        from velvet.bots.hints import assumed_bot, assumed_play

        players = len(final.returns())
        start: dict[str, Any] = {
            "type": "start",
            "game": record.game,
            "players": players,
            "moves": len(record.actions),
            "decisions": len(found),
            "outcome": final.outcome_text() if final.is_terminal() else "",
            "seconds": worker.seconds,
            "simulations": SIMULATIONS,
            "bot": assumed_bot(record.game),
            "assumes": assumed_play(assumed_bot(record.game), players, record.game),
        }

        async def stream() -> AsyncIterator[str]:
            async with worker.lock:
                out = [start]
                yield json.dumps(start) + "\n"
                for position in found:
                    try:
                        line = await worker.judge(position)
                    except VelvetError as error:
                        yield json.dumps({"type": "error", "message": str(error)[:400]}) + "\n"
                        return
                    out.append(line)
                    yield json.dumps(line) + "\n"
                done = {"type": "done", "mistakes": [d["index"] for d in out if d.get("mistake")]}
                out.append(done)
                yield json.dumps(done) + "\n"
                worker.cache[key] = out
                while len(worker.cache) > CACHED:
                    worker.cache.popitem(last=False)

        return StreamingResponse(stream(), media_type="application/x-ndjson")

    return router
