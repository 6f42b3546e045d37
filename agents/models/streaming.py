"""One streamed attempt: events read as they arrive, under three clocks, into one whole answer.

The clocks: until the first byte of the body, `request_timeout_s` (the server's queue and prefill);
after it, `stream_idle_timeout_s` between two reads (a stalled stream); over everything,
`call_timeout_s` (a reasoning model may generate for many minutes — but not for ever). One cancel scope
holds the nearest of them. Moving its deadline costs a timer, so a read moves it only once it has fallen
an eighth of the idle timeout behind: a silence longer than `stream_idle_timeout_s` is always cut, one
shorter than seven eighths of it never is.

A stream that ends before its API's last event (`[DONE]`, `message_stop`), a transport error mid-way,
or an error event is a `StreamBroken`: retried by the client as an infrastructure fault, never taken as
an answer. A server that answers a streamed request with a whole JSON body (or an error status) is
handed back as an `HttpReply`, judged like any other.
"""

from __future__ import annotations

import asyncio
import zlib
from bisect import bisect_right
from collections.abc import Callable

import anyio
import httpx
import sniffio

from repozero.agents.config import EndpointConfig
from repozero.agents.models.codec import Codec, Parsed, StreamBroken
from repozero.agents.models.http import (
    MAX_RESPONSE_BYTES,
    MAX_STREAM_BYTES,
    HttpPool,
    HttpReply,
    check_size,
    reply_of,
    transport_errors,
)
from repozero.agents.models.sse import EventReader
from repozero.kernel.records import Record

__all__ = ["Streamed", "fetch_stream"]

_BROKEN = (httpx.TransportError, OSError)
"""The connection failed (aiohttp's `ClientError` joins these through `transport_errors`)."""


class Streamed(Record, kw_only=True):
    """A stream read to its end: the answer, and when its tokens came (seconds since the attempt began)."""

    parsed: Parsed
    first_token_s: float | None = None
    """The first event carrying generated tokens: the time to first token."""
    last_token_s: float | None = None
    events: int = 0


async def fetch_stream(
    pool: HttpPool, url: httpx.URL, payload: bytes, codec: Codec, config: EndpointConfig
) -> Streamed | HttpReply:
    """POST a streamed request and read it whole; raises `StreamBroken` or a transport error."""
    if pool.own(url):
        return await _fetch_lean(pool, url, payload, codec, config)
    return await _fetch_httpx(pool, url, payload, codec, config)


class _Sink:
    """Takes the body's bytes inside the connection's callback, as each packet arrives, so that the
    waiting task is not woken per packet. Per packet it only cuts the events out and notes when they
    came; they are decoded and assembled in runs (at the end, or every `RUN` events): one decode call
    for many events, and each event's arrival time is still known exactly (from its packet)."""

    RUN = 256

    def __init__(self, codec: Codec, encoding: str) -> None:
        self.reader, self.assembler = EventReader(), codec.assembler()
        self.size = 0
        self.first: float | None = None
        self.last: float | None = None
        self._pending: list[bytes] = []
        self._ends: list[int] = []  # per packet that completed events: how many were pending after it
        self._times: list[float] = []  # ... and when it came
        self._inflate = zlib.decompressobj(47) if encoding in ("gzip", "deflate") else None

    def __call__(self, data: bytes, now: float) -> None:
        self.size += len(data)
        if self.size > MAX_STREAM_BYTES:
            check_size(self.size, MAX_STREAM_BYTES)
        if self._inflate is not None:
            data = self._inflate.decompress(data)
        if events := self.reader.feed(data):
            pending = self._pending
            pending += events
            self._ends.append(len(pending))
            self._times.append(now)
            if len(pending) >= self.RUN:
                self.flush()

    def flush(self) -> None:
        """Decode and assemble the pending events; raises `BadResponse` or `StreamBroken`."""
        if not self._pending:
            return
        pending, ends, times = self._pending, self._ends, self._times
        self._pending, self._ends, self._times = [], [], []
        if (span := self.assembler.feed(pending)) is not None:
            if self.first is None:
                self.first = times[bisect_right(ends, span[0])]
            self.last = times[bisect_right(ends, span[1])]


async def _fetch_lean(
    pool: HttpPool, url: httpx.URL, payload: bytes, codec: Codec, config: EndpointConfig
) -> Streamed | HttpReply:
    """On our own connections (asyncio): one wake-up for the headers, one for the end."""
    assert pool.lean is not None
    began = asyncio.get_running_loop().time()
    end = began + config.call_timeout_s
    first_due = min(end, began + config.request_timeout_s)
    try:
        conn = await pool.exchange(
            url, payload, codec.headers, config.connect_timeout_s, first_due, end, MAX_RESPONSE_BYTES
        )
    except TimeoutError:
        waited = "call_timeout_s" if first_due >= end else "request_timeout_s"
        raise StreamBroken("timeout", _cut(0, f"nothing read within {waited}")) from None
    sink = None
    try:
        kind = conn.headers.get("content-type", "") if conn.status < 400 else ""
        if not kind.startswith("text/event-stream"):  # an error, or a server that does not stream
            if await conn.wait(False, first_due, config.request_timeout_s, end) is not None:
                raise StreamBroken("timeout", _cut(0, "nothing read within request_timeout_s"))
            return reply_of(conn)
        sink = _Sink(codec, conn.headers.get("content-encoding", "identity").lower())
        conn.attach(sink)
        why = await conn.wait(False, first_due, config.stream_idle_timeout_s, end)
        sink.flush()
    except OSError as exc:  # the connection failed mid-way
        if sink is not None:
            sink.flush()
        if sink is None or not sink.assembler.done:
            why = f"{type(exc).__name__}: {exc}".strip(": ")
            raise StreamBroken("connection", _cut(sink.reader.events if sink else 0, why)) from None
        why = None
    finally:
        pool.lean.release(conn)
    assert sink is not None
    if not sink.assembler.done:
        if why is not None:
            setting = {
                "first": "request_timeout_s",
                "idle": "stream_idle_timeout_s",
                "end": "call_timeout_s",
            }[why]
            raise StreamBroken("timeout", _cut(sink.reader.events, f"nothing read within {setting}"))
        raise StreamBroken(
            "connection", _cut(sink.reader.events, "the server ended it before its last event")
        )
    return Streamed(
        parsed=sink.assembler.result(),
        first_token_s=None if sink.first is None else sink.first - began,
        last_token_s=None if sink.last is None else sink.last - began,
        events=sink.reader.events,
    )


async def _fetch_httpx(
    pool: HttpPool, url: httpx.URL, payload: bytes, codec: Codec, config: EndpointConfig
) -> Streamed | HttpReply:
    """Through httpx (trio, or a proxy): reads as the network delivers them, under one moving cancel
    scope."""
    clock = _clock()
    began = clock()
    end = began + config.call_timeout_s
    idle = config.stream_idle_timeout_s
    slack = idle / 8
    reader, assembler = EventReader(), codec.assembler()
    first: float | None = None
    last: float | None = None
    started = False
    with anyio.CancelScope(deadline=min(end, began + config.request_timeout_s)) as scope:
        async with pool.stream(
            url, payload, codec.headers, config.connect_timeout_s, config.request_timeout_s
        ) as response:
            if not response.events:
                return await response.reply()
            try:
                # read to the end of the body, past the last event: a connection left half-read
                # could not go back to the pool
                size = 0
                read = response.reader()
                while chunk := await read():
                    size += len(chunk)
                    check_size(size, MAX_STREAM_BYTES)
                    now = clock()
                    target = now + idle
                    if target >= end:  # the call's deadline is nearer: exactly that
                        if scope.deadline != end:
                            scope.deadline = end
                    # earlier at once (the first read); later only once it has fallen behind, since
                    # moving a deadline costs a timer
                    elif target < scope.deadline or target - scope.deadline > slack:
                        scope.deadline = target
                    started = True
                    if (events := reader.feed(chunk)) and assembler.feed(events) is not None:
                        first = now if first is None else first
                        last = now
            except transport_errors(*_BROKEN) as exc:  # the connection failed mid-way
                if not assembler.done:
                    cause = exc.__cause__ or exc
                    why = f"{type(cause).__name__}: {cause}".strip(": ")
                    raise StreamBroken("connection", _cut(reader.events, why)) from None
    if not assembler.done:
        if scope.cancelled_caught:
            setting = "request_timeout_s" if not started else "stream_idle_timeout_s"
            waited = "call_timeout_s" if scope.deadline >= end else setting
            raise StreamBroken("timeout", _cut(reader.events, f"nothing read within {waited}"))
        raise StreamBroken("connection", _cut(reader.events, "the server ended it before its last event"))
    return Streamed(
        parsed=assembler.result(),
        first_token_s=None if first is None else first - began,
        last_token_s=None if last is None else last - began,
        events=reader.events,
    )


def _clock() -> Callable[[], float]:
    """The event loop's clock, looked up once: `anyio.current_time` finds the backend on every call,
    and a stream reads it at every read. Cancel-scope deadlines are on this clock."""
    if sniffio.current_async_library() == "asyncio":
        return asyncio.get_running_loop().time
    return anyio.current_time


def _cut(events: int, why: str) -> str:
    return f"stream cut after {events} events: {why}"
