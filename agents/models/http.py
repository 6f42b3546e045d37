"""One shared HTTP pool for every model endpoint: our own connections on asyncio, httpx elsewhere.

For the rare calls that want httpx's full API (model lists), `client` is an `httpx.AsyncClient` on the
`httpx-aiohttp` transport: httpx's own transport collapses under hundreds of concurrent requests
(encode/httpx#3215). That transport ignores the client's `limits` and builds a 100-connection pool
unless handed a session, so we hand it one whose connector is sized for our endpoints' limits.

Hot path: on asyncio, model calls (`post`, `exchange`) go through neither httpx nor aiohttp but
over our own keep-alive connections (`conn.LeanPool`): at thousands of concurrent calls, and for
streams of one event per token, their layers cost more CPU than the rest of the call (measured in
docs/models.md). Elsewhere (trio), requests go straight to httpx's transport (`handle_async_request`),
skipping the client's `send` machinery (auth flows, redirects, cookies, event hooks) that we do not use.
`client` is there for the rare calls that want the full API (model lists).

A server the environment puts behind a proxy (`HTTPS_PROXY`, `NO_PROXY`: `netenv.proxy_for`) is reached
through httpx's own transport with that proxy, on any loop: our connections speak to servers directly.
Every path trusts the same certificates (`netenv.ssl_context`: `SSL_CERT_FILE`/`SSL_CERT_DIR` when set).
"""

from __future__ import annotations

import asyncio
import math
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

import httpx
import sniffio

from repozero.agents.models.codec import BadResponse
from repozero.agents.models.conn import Exchange, LeanPool
from repozero.agents.models.netenv import proxy_for, ssl_context
from repozero.agents.models.netenv import route as route_of
from repozero.kernel.records import Record

if TYPE_CHECKING:  # aiohttp is imported when a pool is built (~0.2 s): not by every CLI start
    import aiohttp

__all__ = [
    "MAX_RESPONSE_BYTES",
    "MAX_STREAM_BYTES",
    "HttpPool",
    "HttpReply",
    "HttpStream",
    "check_size",
    "transport_errors",
]

MAX_RESPONSE_BYTES = 32 << 20
"""A response body larger than this is refused half-read (retried like a server error, then the episode's
infra failure): a broken or hostile server's 50 MB would otherwise be parsed, fed back to the agent and
traced. A real answer, token ids and logprobs included, is a few MB at most."""


MAX_STREAM_BYTES = 1 << 30
"""The same bound for a server-sent event stream, whose bytes are many times its answer's: one event per
token, each repeating the envelope with its id and logprobs (a 400 KB file written in one reply streams
past 32 MiB). A stream is parsed as it arrives; this only stops one that never ends."""


def check_size(size: int, limit: int = MAX_RESPONSE_BYTES) -> None:
    """Raise `BadResponse` once a body has grown past `limit`."""
    if size > limit:
        raise BadResponse(f"response larger than {limit >> 20} MiB; refused")


def transport_errors(*base: type[BaseException]) -> tuple[type[BaseException], ...]:
    """`base` plus aiohttp's `ClientError` once aiohttp is loaded, for an `except` clause (evaluated only
    when an exception passes): an error of a module never imported cannot have been raised, so start-up
    need not import aiohttp for it, nor the first failure wait for that import."""
    aiohttp = sys.modules.get("aiohttp")
    return (*base, aiohttp.ClientError) if aiohttp is not None else base


class HttpReply(Record, kw_only=True):
    """A whole HTTP response: status, the headers we read, and the body."""

    status: int
    body: bytes
    retry_after: str | None = None
    retry_after_ms: str | None = None


class HttpStream:
    """An open response: `events` says whether it is a server-sent event stream to read by `chunks`."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self.status = response.status_code
        kind = response.headers.get("content-type", "") if self.status < 400 else ""
        self.events = kind.startswith("text/event-stream")

    def reader(self) -> Callable[[], Awaitable[bytes]]:
        """A read of the body's next bytes as the network delivered them (several events, or part of
        one; `b""` at its end). Only on httpx's own transport (trio): on asyncio streams are read on
        our own connections (`HttpPool.exchange`)."""
        return _next_of(self.response.aiter_bytes())

    async def reply(self) -> HttpReply:
        """The whole response, as `HttpPool.post` returns it."""
        return await _whole(self.response)


def _next_of(chunks: AsyncIterator[bytes]) -> Callable[[], Awaitable[bytes]]:
    """`reader` over an async iterator of chunks."""

    async def read() -> bytes:
        return await anext(chunks, b"")

    return read


async def _whole(response: httpx.Response) -> HttpReply:
    chunks = (
        response.aiter_bytes() if "content-encoding" in response.headers else response.stream.__aiter__()  # type: ignore[union-attr]  # identity: no httpx decoder chain
    )
    parts, size = [], 0
    async for chunk in chunks:
        size += len(chunk)
        check_size(size)
        parts.append(chunk)
    data = b"".join(parts)
    status = response.status_code
    if status < 400:  # header lookups cost; only failures need them
        return HttpReply(status=status, body=data)
    headers = response.headers
    return HttpReply(
        status=status,
        body=data,
        retry_after=headers.get("retry-after"),
        retry_after_ms=headers.get("retry-after-ms"),
    )


def _head(url: httpx.URL, headers: httpx.Headers, length: int) -> bytes:
    """The request line and headers of a POST (no Accept-Encoding: bodies come uncompressed)."""
    parts = [b"POST ", url.raw_path, b" HTTP/1.1\r\nHost: ", url.netloc, b"\r\n"]
    for name, value in headers.raw:
        if name.lower() not in (b"host", b"content-length"):
            parts += [name, b": ", value, b"\r\n"]
    if "user-agent" not in headers:
        parts.append(b"User-Agent: repozero\r\n")
    parts.append(b"Content-Length: %d\r\n\r\n" % length)
    return b"".join(parts)


def reply_of(conn: Exchange) -> HttpReply:
    """A whole response read on one of our connections."""
    status = conn.status
    if status < 400:
        return HttpReply(status=status, body=conn.body())
    headers = conn.headers
    return HttpReply(
        status=status,
        body=conn.body(),
        retry_after=headers.get("retry-after"),
        retry_after_ms=headers.get("retry-after-ms"),
    )


class _Borrowed(httpx.AsyncBaseTransport):
    """A transport lent to a short-lived client, which must not close it."""

    def __init__(self, transport: httpx.AsyncBaseTransport) -> None:
        self._transport = transport

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self._transport.handle_async_request(request)


class HttpPool:
    """The process-wide connection pool; open it once (`async with`) and share it."""

    def __init__(self, max_connections: int, keepalive_s: float = 4.0) -> None:
        """`keepalive_s` stays under uvicorn's 5 s (vLLM, SGLang): reusing a connection the server has
        just closed would fail the request."""
        self.max_connections = max_connections
        self._keepalive_s = keepalive_s
        self._transport = self._new_transport()
        self._needs_host = isinstance(self._transport, httpx.AsyncHTTPTransport)
        self.client = httpx.AsyncClient(transport=self._transport)
        self.lean = LeanPool(keepalive_s) if not self._needs_host else None
        """Our own connections for model calls, on asyncio; None elsewhere."""
        self._proxied: dict[str, httpx.AsyncHTTPTransport] = {}
        """httpx's transport through each proxy the environment names, made on first use."""
        self._proxies: dict[tuple[str, str, int | None], str | None] = {}
        """The environment's proxy per server, asked once (a dict lookup on every call's path after)."""

    def _proxy(self, url: httpx.URL) -> str | None:
        key = (url.scheme, url.host, url.port)
        try:
            return self._proxies[key]
        except KeyError:
            proxy = self._proxies[key] = proxy_for(url)
            return proxy

    def own(self, url: httpx.URL) -> bool:
        """Whether calls to `url` go over our own connections: on asyncio, and with no proxy to cross."""
        return self.lean is not None and self._proxy(url) is None

    def route(self, url: httpx.URL) -> str:
        """The path calls to `url` take, in words (`repozero endpoints check`)."""
        return route_of(self._proxy(url), self.lean is not None)

    def _transport_for(self, url: httpx.URL) -> tuple[httpx.AsyncBaseTransport, bool]:
        """The httpx transport for `url` (its proxy's, or the pool's), and whether it needs a Host header."""
        proxy = self._proxy(url)
        if proxy is None:
            return self._transport, self._needs_host
        if proxy not in self._proxied:
            limits = httpx.Limits(
                max_connections=self.max_connections,
                max_keepalive_connections=self.max_connections,
                keepalive_expiry=self._keepalive_s,
            )
            self._proxied[proxy] = httpx.AsyncHTTPTransport(proxy=proxy, verify=ssl_context(), limits=limits)
        return self._proxied[proxy], True

    def _new_transport(self) -> httpx.AsyncBaseTransport:
        """aiohttp's pool on asyncio; elsewhere (trio) httpx's own transport, which runs on any anyio
        backend — at the cost of the throughput it loses under hundreds of requests."""
        try:
            library = sniffio.current_async_library()
        except sniffio.AsyncLibraryNotFoundError:  # built outside a loop: it will be used on asyncio
            library = "asyncio"
        if library == "asyncio":
            from httpx_aiohttp import AiohttpTransport

            return AiohttpTransport(client=self._new_session)
        limits = httpx.Limits(
            max_connections=self.max_connections,
            max_keepalive_connections=self.max_connections,
            keepalive_expiry=self._keepalive_s,
        )
        return httpx.AsyncHTTPTransport(limits=limits, verify=ssl_context())

    def _new_session(self) -> aiohttp.ClientSession:
        """Called by the transport on first use, inside the running event loop."""
        import aiohttp

        connector = aiohttp.TCPConnector(
            limit=self.max_connections,
            limit_per_host=0,
            keepalive_timeout=self._keepalive_s,
            ttl_dns_cache=300,
            ssl=ssl_context(),
        )
        return aiohttp.ClientSession(connector=connector)

    def _request(
        self,
        url: httpx.URL,
        body: bytes,
        headers: httpx.Headers,
        connect_s: float,
        read_s: float | None,
        needs_host: bool,
    ) -> httpx.Request:
        timeout = {"connect": connect_s, "read": read_s, "write": read_s, "pool": None}
        # `stream=` with our own Content-Length skips httpx's header auto-population (3x cheaper);
        # aiohttp adds Host, httpx's own transport needs it given
        raw = [*headers.raw, (b"content-length", str(len(body)).encode())]
        if needs_host:
            raw.append((b"host", url.netloc))
        request = httpx.Request(
            "POST",
            url,
            headers=raw,
            stream=httpx.ByteStream(body),
            extensions={"timeout": timeout},
        )
        request.read()
        return request

    async def post(
        self, url: httpx.URL, body: bytes, headers: httpx.Headers, connect_s: float, read_s: float
    ) -> HttpReply:
        """POST `body`; raises `httpx.TransportError` or an `OSError` (timeouts included: `TimeoutError`)
        when no response arrives. `read_s` bounds each silence."""
        if self.own(url):
            assert self.lean is not None
            due = asyncio.get_running_loop().time() + read_s
            conn = await self.exchange(url, body, headers, connect_s, due, math.inf, MAX_RESPONSE_BYTES)
            try:
                if await conn.wait(False, due, read_s, math.inf) is not None:
                    raise TimeoutError(f"no response read within {read_s} s")
                return reply_of(conn)
            finally:
                self.lean.release(conn)
        transport, needs_host = self._transport_for(url)
        request = self._request(url, body, headers, connect_s, read_s, needs_host)
        response = await transport.handle_async_request(request)
        try:
            return await _whole(response)
        finally:
            await response.aclose()

    async def exchange(
        self,
        url: httpx.URL,
        body: bytes,
        headers: httpx.Headers,
        connect_s: float,
        first_due: float,
        end: float,
        limit: int | None,
    ) -> Exchange:
        """POST `body` on one of our own connections and wait for the response's headers (until the
        loop time `first_due`, or `end`); the caller reads the body and hands the connection back
        (`lean.release`). Raises `TimeoutError`, or `ConnectionError` when the connection fails.

        A kept-alive connection the server closed just as the request went out fails the call (a
        `connection` fault, retried by the client), as on aiohttp: idle connections are dropped after
        `keepalive_s`, under the servers' own keep-alive, so this is rare."""
        assert self.lean is not None
        conn = await self.lean.open(url, _head(url, headers, len(body)), body, connect_s, limit)
        try:
            why = await conn.wait(True, first_due, math.inf, end)
        except BaseException:
            self.lean.release(conn)
            raise
        if why is not None:
            self.lean.release(conn)
            clock = "the call's deadline" if why == "end" else "the request timeout"
            raise TimeoutError(f"no response within {clock}")
        return conn

    @asynccontextmanager
    async def stream(
        self, url: httpx.URL, body: bytes, headers: httpx.Headers, connect_s: float, read_s: float
    ) -> AsyncIterator[HttpStream]:
        """POST `body` and hold the response open: its events as they arrive, or (an error, a server
        that does not stream) the whole reply. `read_s` bounds each silence, as in `post`.

        The response is closed on the way out, also when cancelled (an idle stream cut by the caller):
        closing releases the connection before its first await (no shield needed, and a shield's cancel
        scope is as costly as the rest of the close), and a half-read connection is dropped, not reused.

        `read_s` is the caller's to enforce (`fetch_stream`'s clocks): handed to aiohttp, it would rearm
        a timer at every packet of the stream."""
        transport, needs_host = self._transport_for(url)
        request = self._request(url, body, headers, connect_s, None, needs_host)
        response = await transport.handle_async_request(request)
        try:
            yield HttpStream(response)
        finally:
            await response.aclose()

    async def get(self, url: httpx.URL, headers: httpx.Headers, timeout_s: float) -> HttpReply:
        """GET `url` (model lists: rare, so the client's full API is fine); raises `httpx.TransportError`."""
        transport, _ = self._transport_for(url)
        if transport is self._transport:
            response = await self.client.get(url, headers=headers, timeout=timeout_s)
            return HttpReply(status=response.status_code, body=response.content)
        async with httpx.AsyncClient(transport=_Borrowed(transport)) as client:
            response = await client.get(url, headers=headers, timeout=timeout_s)
        return HttpReply(status=response.status_code, body=response.content)

    async def aclose(self) -> None:
        if self.lean is not None:
            self.lean.close()
        for transport in self._proxied.values():
            await transport.aclose()
        await self.client.aclose()

    async def __aenter__(self) -> HttpPool:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
