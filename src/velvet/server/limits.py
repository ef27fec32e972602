"""Limits of a public server: who may create rooms how fast, and how uvicorn is run.

* :class:`RoomLimiter`: room creations (and rematches) per client address, a burst and a
  quota per hour; an IPv6 client counts by its /64 network (one host holds a whole one).
* :class:`GuardedH11`: uvicorn's h11 protocol with a deadline for a request's headers and
  one for its body, a cap on connections from one address and on all connections (kept
  under the process's descriptor limit: when it is reached, the oldest connection still
  waiting for its headers makes room, else the newcomer is told 503).
* :func:`uvicorn_options`: the options ``velvet serve`` runs uvicorn with (forwarded
  headers trusted only from the configured proxies).

docs/reliability.md ("Limits of a public server") lists the defaults.
"""

from __future__ import annotations

import asyncio
import ipaddress
import time
from collections import OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

DESCRIPTOR_RESERVE = 128
"""Descriptors kept free of client connections: the database, workers' pipes, logs."""
MAX_KEYS = 20_000
"""Client addresses remembered by a limiter (the least recently seen are forgotten)."""


@dataclass(frozen=True)
class ServeLimits:
    """Connection limits of the HTTP server (uvicorn), with their defaults."""

    header_timeout: float = 10.0
    """Seconds a connection may take to send a request's headers (slowloris)."""
    body_timeout: float = 30.0
    """Seconds a request may take to send its body once its headers are in."""
    keep_alive: int = 5
    """Seconds an idle keep-alive connection is kept."""
    max_connections: int | None = None
    """Open connections (HTTP and WebSocket); None: the descriptor limit less a reserve."""
    connections_per_address: int = 64
    """Open connections from one address (not counted for a trusted proxy)."""
    max_header_bytes: int = 16_384
    """Most bytes of a request's line and headers (h11); more is answered 400."""

    def connection_cap(self) -> int:
        """``max_connections``, or what the process's descriptor limit leaves for clients."""
        if self.max_connections is not None:
            return self.max_connections
        try:
            import resource

            soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        except (ImportError, OSError, ValueError):
            return 1000
        if soft == resource.RLIM_INFINITY or soft <= 0:
            return 4096
        return max(16, min(4096, soft - DESCRIPTOR_RESERVE))


def address_key(host: str | None) -> str:
    """The key limits count ``host`` under: itself, or its /64 network for IPv6."""
    if not host:
        return "?"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class Bucket:
    """A token bucket: ``allow()`` is False when the sender goes too fast."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.tokens = 2 * rate
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(2 * self.rate, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class RoomLimiter:
    """Rooms one client address may open: ``rate`` a second (a burst of twice that) and
    ``per_hour`` in any hour. Rematches count as rooms."""

    def __init__(self, rate: float, per_hour: int) -> None:
        self.rate = rate
        self.per_hour = per_hour
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()
        self._hours: OrderedDict[str, deque[float]] = OrderedDict()

    def refusal(self, host: str | None) -> str | None:
        """Why a room from ``host`` is refused now, or None (it is then counted)."""
        key = address_key(host)
        bucket = _touch(self._buckets, key, lambda: Bucket(self.rate))
        stamps = _touch(self._hours, key, deque)
        now = time.monotonic()
        while stamps and stamps[0] <= now - 3600:
            stamps.popleft()
        if len(stamps) >= self.per_hour:
            return f"too many rooms from this address ({self.per_hour} an hour); try again later"
        if not bucket.allow():
            return "too many rooms; slow down"
        stamps.append(now)
        return None


def _touch(table: OrderedDict[str, Any], key: str, make: Any) -> Any:
    """``table[key]`` (made if missing) as the most recent; the oldest beyond MAX_KEYS go."""
    found = table.get(key)
    if found is None:
        found = table[key] = make()
        while len(table) > MAX_KEYS:
            table.popitem(last=False)
    else:
        table.move_to_end(key)
    return found


def forwarded_hosts(values: Iterable[str]) -> tuple[str, ...]:
    """``--forwarded-allow-ips`` values (each may be a comma-separated list), checked."""
    hosts: list[str] = []
    for value in values:
        for item in value.split(","):
            item = item.strip()
            if not item:
                continue
            if item != "*":
                try:
                    ipaddress.ip_network(item, strict=False)
                except ValueError:
                    if not item.startswith("unix:"):
                        from velvet.engine.errors import ConfigError

                        raise ConfigError(
                            f"--forwarded-allow-ips {item!r}: give proxy addresses or "
                            "networks (127.0.0.1, 10.0.0.0/8), or '*'"
                        ) from None
            hosts.append(item)
    return tuple(hosts)


def _trusted(host: str | None, trusted: tuple[str, ...]) -> bool:
    if host is None or not trusted:
        return False
    if "*" in trusted:
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host in trusted
    for item in trusted:
        try:
            if address in ipaddress.ip_network(item, strict=False):
                return True
        except ValueError:
            continue
    return False


def _answer(status: bytes, text: str) -> bytes:
    """A whole HTTP answer that closes the connection."""
    body = f"{text}\n".encode()
    head = b"HTTP/1.1 %s\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
    return head % status + b"content-length: %d\r\n\r\n" % len(body) + body


def guarded_protocol(limits: ServeLimits, trusted: tuple[str, ...] = ()) -> type[Any]:
    """uvicorn's h11 protocol held to ``limits`` (``trusted``: proxies, not capped per address)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    cap = limits.connection_cap()
    busy = _answer(b"503 Service Unavailable", "the server is too busy")
    too_long = _answer(b"431 Request Header Fields Too Large", "the request's headers are too long")
    late = _answer(b"408 Request Timeout", "the request came too slowly")

    class GuardedH11(H11Protocol):
        """A connection with deadlines for its request's headers and body, and caps."""

        _timer: asyncio.TimerHandle | None = None
        _phase: str | None = None
        """``headers`` or ``body`` while a request is being received under a deadline."""
        _since = 0.0
        _refused = False
        _head = 0
        """Bytes of the request's line and headers received so far."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._since = self.loop.time()
            host = self.client[0] if self.client else None
            if limits.connections_per_address and not _trusted(host, trusted):
                same = sum(
                    1 for c in self.connections if (getattr(c, "client", None) or ("",))[0] == host
                )
                if same > limits.connections_per_address:
                    self._refuse()
                    return
            if len(self.connections) > cap and not self._push_out_one():
                self._refuse()
                return
            self._phase = "headers"
            self._arm(limits.header_timeout)

        def _refuse(self) -> None:
            self._refused = True
            self.transport.write(busy)
            self.transport.close()

        def _push_out_one(self) -> bool:
            """Close the oldest other connection still waiting for its headers."""
            waiting = [
                c
                for c in self.connections
                if isinstance(c, GuardedH11) and c is not self and c._waiting()
            ]
            if not waiting:
                return False
            oldest = min(waiting, key=lambda c: c._since)
            oldest._cancel()
            oldest._refused = True
            oldest.transport.close()
            return True

        def _waiting(self) -> bool:
            idle = self.cycle is None or self.cycle.response_complete
            return not self.transport.is_closing() and idle and self.conn.their_state is h11.IDLE

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            if self._phase is None and self._waiting():  # a request begins (kept alive)
                self._phase, self._head, self._since = "headers", 0, self.loop.time()
                self._arm(limits.header_timeout)
            if self._phase == "headers" and self._too_long(data):
                self._refused = True
                self.transport.write(too_long)
                self.transport.close()
                return
            super().data_received(data)
            self._track()

        def _too_long(self, data: bytes) -> bool:
            """Whether the request's line and headers run past ``max_header_bytes`` (h11
            checks only a part still incomplete, not one that came in one piece)."""
            end = data.find(b"\r\n\r\n")
            seen = self._head + (len(data) if end < 0 else end)
            self._head = seen if end < 0 else 0
            return seen > limits.max_header_bytes

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._track()

        def _track(self) -> None:
            """Arm the deadline of what the connection is receiving now, if anything."""
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                self._cancel()
                return
            state = self.conn.their_state
            idle = self.cycle is None or self.cycle.response_complete
            if state is h11.SEND_BODY:
                if self._phase != "body":
                    self._phase = "body"
                    self._arm(limits.body_timeout)
            elif state is h11.IDLE and idle and self.timeout_keep_alive_task is None:
                if self._phase != "headers":  # a request has begun on a kept-alive connection
                    self._phase = "headers"
                    self._since = self.loop.time()
                    self._arm(limits.header_timeout)
            else:  # the request is in (the app answers it), or kept alive by uvicorn
                self._cancel()

        def _arm(self, seconds: float) -> None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = self.loop.call_later(seconds, self._timed_out)

        def _cancel(self) -> None:
            self._phase = None
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _timed_out(self) -> None:
            self._timer = None
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return
            if self._phase == "headers":
                self.transport.write(late)
            self._phase = None
            self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            self._cancel()
            super().connection_lost(exc)

    return GuardedH11


def uvicorn_options(
    host: str,
    port: int,
    trusted: tuple[str, ...] = (),
    limits: ServeLimits | None = None,
) -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.run``/``uvicorn.Config`` for ``velvet serve``.

    ``X-Forwarded-For``/``-Proto`` are read only from ``trusted`` proxies (none by
    default: uvicorn's own default trusts 127.0.0.1, which any local proxy or tunnel
    would make everyone)."""
    from velvet.server.protocol import MAX_MESSAGE_BYTES

    limits = limits or ServeLimits()
    cap = limits.connection_cap()
    return {
        "host": host,
        "port": port,
        "http": guarded_protocol(limits, trusted),
        "ws_max_size": MAX_MESSAGE_BYTES,
        "proxy_headers": bool(trusted),
        "forwarded_allow_ips": list(trusted),
        "timeout_keep_alive": limits.keep_alive,
        "limit_concurrency": cap + 1,  # the protocol's own cap comes first
        "h11_max_incomplete_event_size": limits.max_header_bytes,
        "log_level": "warning",
        "timeout_graceful_shutdown": 2,
    }
