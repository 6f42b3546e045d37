"""Our own HTTP/1.1 client connections for the model calls' hot path (asyncio only).

Why not aiohttp here: a model call is one POST and one answer, and at thousands of concurrent calls
the layers between the socket and our parser cost more CPU than our work — for a streamed answer
(vLLM flushes one event per token) aiohttp handles every packet in its protocol, its chunk parser and
its stream buffer, then wakes the reading task. Here a connection is an `asyncio.Protocol` that cuts
the response out of the bytes itself and, for a stream, hands each packet's body to a sink *inside the
callback* (which cuts and decodes the events): the waiting task wakes twice per call (headers, end),
not once per packet, and the sink stamps each packet's arrival time, so time to first token is exact.

Clocks: a waiting task sleeps until the end of the response or until a deadline computed from the time
of the last bytes received, so a silence is measured without rearming a timer at every packet.

Errors are `OSError`s (`ConnectionError`, `TimeoutError`), as the client's retry path expects. Only
plain `http://` and `https://` are spoken, straight to the server: TLS trusts the system's store or the
`SSL_CERT_FILE`/`SSL_CERT_DIR` certificates (`netenv.ssl_context`); a server the environment puts behind a
proxy is reached through httpx instead (`HttpPool.own` decides, per URL).
"""

from __future__ import annotations

import asyncio
import zlib
from collections import deque
from collections.abc import Callable

import httpx

from repozero.agents.models.codec import BadResponse
from repozero.agents.models.netenv import ssl_context

__all__ = ["Exchange", "LeanPool", "Sink"]

Sink = Callable[[bytes, float], None]
"""Takes a piece of a response body and the loop time it arrived; may raise to fail the response."""

_HEAD_LIMIT = 64 << 10


class Exchange(asyncio.Protocol):
    """One connection; one request and its response at a time (HTTP/1.1 keep-alive, no pipelining)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, key: tuple[str, str, int]) -> None:
        self.loop, self.key = loop, key
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.idle_since = 0.0
        self._waiter: asyncio.Future[None] | None = None
        self._reset(None)

    def _reset(self, limit: int | None) -> None:
        self.status = 0
        self.headers: dict[str, str] = {}
        self.head_done = self.done = False
        self.error: BaseException | None = None
        self.received = 0
        self.last = self._now = 0.0
        self.reusable = False
        self._limit = limit
        self._buf = b""
        self._parts: list[bytes] = []
        self._sink: Sink | None = None
        self._chunked = False
        self._left = -1  # body bytes left (content-length, or of the current chunk); -1: until close
        self._trailer = False

    # -- asyncio.Protocol -------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's is not an asyncio.Transport subclass

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.done:
            return
        if self.head_done and self._left == -1 and not self._chunked:  # body until close: ended
            self._finish()
            return
        self._fail(exc or ConnectionResetError("the server closed the connection before the response ended"))

    def data_received(self, data: bytes) -> None:
        if self.done:  # bytes after the response (or unasked): the connection cannot be trusted
            self.reusable = False
            if self.transport is not None:
                self.transport.abort()
            return
        self._now = self.loop.time()
        try:
            if not self.head_done:
                data = self._head(self._buf + data if self._buf else data)
            if data:
                self._body(data)
        except Exception as exc:  # a sink's error, or an unreadable response
            self._fail(exc)

    def eof_received(self) -> bool | None:
        return None  # close; connection_lost decides whether the response had ended

    # -- parsing --------------------------------------------------------------------------------

    def _head(self, data: bytes) -> bytes:
        """Parse the status line and headers once whole; the bytes after them are the body's."""
        end = data.find(b"\r\n\r\n")
        if end < 0:
            if len(data) > _HEAD_LIMIT:
                raise ConnectionError("response headers larger than 64 KiB")
            self._buf = data
            return b""
        self._buf = b""
        lines = data[:end].decode("latin-1").split("\r\n")
        parts = lines[0].split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
            raise ConnectionError(f"not an HTTP response: {lines[0][:80]!r}")
        status = int(parts[1])
        rest = data[end + 4 :]
        if 100 <= status < 200:  # an interim response (100 Continue): the real one follows
            return self._head(rest) if rest else b""
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        self.status, self.headers = status, headers
        connection = headers.get("connection", "").lower()
        self.reusable = "close" not in connection and (parts[0] != "HTTP/1.0" or "keep-alive" in connection)
        if "chunked" in headers.get("transfer-encoding", "").lower():
            self._chunked, self._left = True, 0
        elif (length := headers.get("content-length")) is not None:
            if not length.isdigit():
                raise ConnectionError(f"bad Content-Length {length!r}")
            self._left = int(length)
        elif status in (204, 304):
            self._left = 0
        else:
            self.reusable = False  # a body ended by closing the connection
        self.head_done = True
        self._wake()
        if self._left == 0 and not self._chunked:
            self._finish()
        return rest

    def _body(self, data: bytes) -> None:
        if not self._chunked:
            if self._left >= 0:
                if len(data) > self._left:  # bytes past the response: it is whole, the connection spoilt
                    data, self.reusable = data[: self._left], False
                self._left -= len(data)
            self._take(data)
            if self._left == 0:
                self._finish()
            return
        self._dechunk(self._buf + data if self._buf else data)

    def _dechunk(self, data: bytes) -> None:
        """Chunked transfer coding: `size CRLF bytes CRLF`..., `0 CRLF`, trailers, `CRLF`."""
        if self._left == 0 and not self._buf and not self._trailer:  # one whole chunk per packet
            eol = data.find(b"\r\n")
            if 0 < eol <= 8 and data.endswith(b"\r\n"):
                try:
                    length = int(data[:eol], 16)
                except ValueError:
                    length = -1
                if length > 0 and len(data) == eol + length + 4:
                    self._take(data[eol + 2 : -2])
                    return
        self._buf = b""
        pos, n = 0, len(data)
        while pos < n:
            if self._left > 0:  # inside a chunk's data
                take = data[pos : pos + self._left]
                self._left -= len(take)
                pos += len(take)
                if self._left == 0:
                    self._left = -2  # its CRLF is next
                self._take(take)
                continue
            eol = data.find(b"\r\n", pos)
            if eol < 0:
                self._buf = data[pos:]
                if len(self._buf) > _HEAD_LIMIT:
                    raise ConnectionError("chunk header larger than 64 KiB")
                return
            line = data[pos:eol]
            pos = eol + 2
            if self._left == -2:  # the CRLF after a chunk's data
                if line:
                    raise ConnectionError("bad chunked body: no CRLF after a chunk")
                self._left = 0
            elif self._trailer:
                if not line:  # the blank line after the trailers: the end
                    if pos < n:
                        self.reusable = False
                    self._finish()
                    return
            else:
                size = line.split(b";", 1)[0].strip()
                try:
                    self._left = int(size, 16)
                except ValueError:
                    raise ConnectionError(f"bad chunk size {size[:20]!r}") from None
                if self._left == 0:
                    self._trailer = True

    def _take(self, data: bytes) -> None:
        if not data:
            return
        self.received += len(data)
        self.last = self._now
        if self._sink is not None:
            self._sink(data, self.last)
            return
        if self._limit is not None and self.received > self._limit:
            raise BadResponse(f"response larger than {self._limit >> 20} MiB; refused")
        self._parts.append(data)

    def _finish(self) -> None:
        self.done = True
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _fail(self, exc: BaseException) -> None:
        self.error, self.done, self.reusable = exc, True, False
        self._wake()
        if self.transport is not None and not self.closed:
            self.transport.abort()

    # -- for the waiting task -------------------------------------------------------------------

    def send(self, data: bytes, limit: int | None) -> None:
        self._reset(limit)
        assert self.transport is not None
        self.transport.write(data)

    def attach(self, sink: Sink) -> None:
        """From now on, body bytes go to `sink` as they arrive (those already here, at once)."""
        parts, self._parts = self._parts, []
        for part in parts:
            sink(part, self.last)
        self._sink = sink

    def body(self) -> bytes:
        data = b"".join(self._parts)
        encoding = self.headers.get("content-encoding", "identity").lower()
        if encoding in ("gzip", "deflate"):
            try:
                data = zlib.decompress(data, 47)  # 32 + 15: a gzip or zlib header, detected
            except zlib.error as exc:
                raise ConnectionError(f"unreadable {encoding} body: {exc}") from None
        elif encoding != "identity":
            raise ConnectionError(f"unsupported Content-Encoding {encoding!r}")
        return data

    async def wait(self, head: bool, first_due: float, idle_s: float, end: float) -> str | None:
        """Sleep until the headers (`head`) or the end have arrived; None then, else which clock ran
        out: "first" (no body byte by the loop time `first_due`), "idle" (a silence of `idle_s` after
        body bytes), "end" (the loop time `end`). Raises the connection's error."""
        loop = self.loop
        while not self.done and not (head and self.head_done):
            mark = self.last
            due = first_due if mark == 0.0 else mark + idle_s
            why = "first" if mark == 0.0 else "idle"
            if end <= due:
                due, why = end, "end"
            if due <= loop.time():
                return why
            waiter = self._waiter = loop.create_future()
            timer = loop.call_at(due, _expire, waiter)
            try:
                await waiter
            finally:
                timer.cancel()
                self._waiter = None
        if self.error is not None:
            raise self.error
        return None

    def close(self) -> None:
        if self.transport is not None and not self.closed:
            self.closed = True
            self.transport.abort()


def _expire(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class LeanPool:
    """Keep-alive connections per (scheme, host, port), the most recently used first; idle ones older
    than `keepalive_s` are closed when next looked at. How many are open at once is bounded by the
    endpoints' own concurrency limits, whose slot every call holds."""

    def __init__(self, keepalive_s: float) -> None:
        self.keepalive_s = keepalive_s
        self._idle: dict[tuple[str, str, int], deque[Exchange]] = {}

    async def open(
        self, url: httpx.URL, head: bytes, body: bytes, connect_s: float, limit: int | None
    ) -> Exchange:
        """A connection with the request sent on it (a reused one when one is idle and fresh)."""
        loop = asyncio.get_running_loop()
        key = (url.scheme, url.host, url.port or (443 if url.scheme == "https" else 80))
        idle = self._idle.get(key)
        now = loop.time()
        while idle:
            conn = idle.pop()
            if conn.closed or now - conn.idle_since > self.keepalive_s:
                conn.close()
                continue
            conn.send(head + body, limit)
            return conn
        conn = await self._connect(loop, key, connect_s)
        conn.send(head + body, limit)
        return conn

    async def _connect(
        self, loop: asyncio.AbstractEventLoop, key: tuple[str, str, int], connect_s: float
    ) -> Exchange:
        scheme, host, port = key
        context = None
        if scheme == "https":
            context = ssl_context()
        elif scheme != "http":
            raise ConnectionError(f"unsupported URL scheme {scheme!r}")
        try:
            _, conn = await asyncio.wait_for(
                loop.create_connection(
                    lambda: Exchange(loop, key),
                    host,
                    port,
                    ssl=context,
                    server_hostname=host if context else None,
                ),
                connect_s,
            )
        except TimeoutError:
            raise TimeoutError(f"no connection to {host}:{port} within {connect_s} s") from None
        return conn

    def release(self, conn: Exchange) -> None:
        """Back to the pool when its response ended cleanly and the server keeps it open; else closed."""
        if conn.done and conn.error is None and conn.reusable and not conn.closed:
            conn.idle_since = conn.loop.time()
            self._idle.setdefault(conn.key, deque()).append(conn)
        else:
            conn.close()

    def close(self) -> None:
        for idle in self._idle.values():
            for conn in idle:
                conn.close()
        self._idle.clear()
