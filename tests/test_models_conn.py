"""Our own HTTP/1.1 connections (agents/models/conn.py): responses read whole however the network cuts
them, kept-alive connections reused only when the response ended cleanly (real loopback sockets)."""

from __future__ import annotations

import asyncio
import gzip
import math
from typing import Any

import httpx
import pytest

from repozero.agents.models.conn import Exchange
from repozero.agents.models.http import HttpPool

EVENTS = b'data: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n'
CHUNKED = (
    b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
    b'f\r\ndata: {"a":1}\n\n\r\n'
    b'F;ext=1\r\ndata: {"b":2}\n\n\r\n'  # upper-case hex and a chunk extension
    b"e\r\ndata: [DONE]\n\n\r\n"
    b"0\r\nX-Trailer: t\r\n\r\n"
)
LENGTH = b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (
    len(EVENTS),
    EVENTS,
)
UNTIL_CLOSE = b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n" + EVENTS


class _Transport:
    def __init__(self) -> None:
        self.aborted = False

    def write(self, data: bytes) -> None:
        pass

    def abort(self) -> None:
        self.aborted = True


_LOOP = asyncio.new_event_loop()  # only its clock is read


def _read(response: bytes, size: int, close: bool) -> tuple[Exchange, bytes]:
    """Feed `response` to a connection `size` bytes at a time; its body as the sink got it."""
    conn = Exchange(_LOOP, ("http", "x", 80))
    conn.connection_made(_Transport())  # type: ignore[arg-type]
    conn.send(b"", None)
    got: list[bytes] = []
    for i in range(0, len(response), size):
        conn.data_received(response[i : i + size])
        if conn.head_done and not got:
            conn.attach(lambda data, _: got.append(data))
            got.append(b"")
    if close:
        conn.connection_lost(None)
    return conn, b"".join(got)


@pytest.mark.parametrize(
    ("response", "close"),
    [(CHUNKED, False), (LENGTH, False), (UNTIL_CLOSE, True)],
    ids=["chunked", "content_length", "until_close"],
)
def test_a_body_is_read_exactly_however_the_packets_cut_it(response: bytes, close: bool) -> None:
    for size in range(1, len(response) + 1):
        conn, body = _read(response, size, close)
        assert (conn.done, conn.error, conn.status, body) == (True, None, 200, EVENTS), size
        assert conn.reusable is (not close)


def test_a_response_cut_short_is_an_error_not_an_answer() -> None:
    for cut in (len(CHUNKED) - 3, len(CHUNKED) - 20, 90):
        conn, _ = _read(CHUNKED[:cut], 7, close=True)
        assert conn.done and isinstance(conn.error, ConnectionError) and not conn.reusable


def test_bytes_past_the_response_drop_the_connection() -> None:
    conn, body = _read(LENGTH + b"HTTP/1.1 200 OK\r\n", len(LENGTH) + 18, close=False)
    assert conn.done and body == EVENTS and not conn.reusable


async def _server(answers: list[bytes], seen: list[int]) -> tuple[asyncio.Server, str]:
    """A raw HTTP server: reads one request (headers + Content-Length body), writes the next answer."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen.append(id(writer))
        while answers:
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
            await reader.readexactly(length)
            writer.write(answers.pop(0))
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    return server, f"http://127.0.0.1:{port}/v1/chat/completions"


@pytest.mark.anyio
async def test_a_connection_is_reused_after_a_clean_response_and_gzip_bodies_are_read() -> None:
    packed = gzip.compress(b'{"ok": true}')
    answers = [
        CHUNKED,
        b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n%s" % (len(packed), packed),
        b"HTTP/1.1 503 Busy\r\nRetry-After: 2\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}",
    ]
    seen: list[Any] = []
    server, url = await _server(answers, seen)
    async with server, HttpPool(4) as pool:
        assert pool.lean is not None
        target, headers = httpx.URL(url), httpx.Headers({"content-type": "application/json"})
        due = asyncio.get_running_loop().time() + 5
        conn = await pool.exchange(target, b"{}", headers, 5, due, math.inf, None)
        got: list[bytes] = []
        conn.attach(lambda data, _: got.append(data))
        assert await conn.wait(False, due, 5, math.inf) is None
        pool.lean.release(conn)
        whole = await pool.post(target, b"{}", headers, 5, 5)
        busy = await pool.post(target, b"{}", headers, 5, 5)
    assert b"".join(got) == EVENTS
    assert (whole.status, whole.body) == (200, b'{"ok": true}')
    assert (busy.status, busy.retry_after) == (503, "2")
    assert len(seen) == 1  # all three on one connection
