"""HTTP refusals: every error body the server answers is made here, its code an ``ErrorCode``.

A body is ``{"error": CODE, "message": WORDS}`` (``protocol.Problem``), with ``option`` and
``seat`` when a room's options are refused. WebSocket refusals are ``protocol.ErrorMsg``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from starlette.responses import JSONResponse

from velvet.server.protocol import ErrorCode


def problem_body(code: ErrorCode, message: str, **extra: object) -> dict[str, object]:
    """The JSON object of an HTTP refusal (``extra``: ``option``, ``seat``)."""
    return {"error": code, "message": message, **extra}


def problem(
    code: ErrorCode,
    message: str,
    status: int,
    headers: Mapping[str, str] | None = None,
    **extra: object,
) -> JSONResponse:
    """An HTTP refusal with ``status``: its code, its message in words (and ``extra``)."""
    return JSONResponse(problem_body(code, message, **extra), status_code=status, headers=headers)


def problem_bytes(code: ErrorCode, message: str) -> bytes:
    """The body of a refusal sent before a route runs (the raw ASGI answer)."""
    return json.dumps(problem_body(code, message)).encode()


class Refused(Exception):
    """A request refused with an ``ErrorCode``: raised in a route's helpers, answered by
    the route as ``refused.response()``."""

    def __init__(self, code: ErrorCode, status: int, message: str) -> None:
        super().__init__(message)
        self.code, self.status = code, status

    def response(self) -> JSONResponse:
        return problem(self.code, str(self), self.status)
