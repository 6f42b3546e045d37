"""One shared HTTP client for every model endpoint: httpx on the aiohttp transport, sized for our load.

httpx's own transport collapses under hundreds of concurrent requests (encode/httpx#3215); the
`httpx-aiohttp` transport keeps the httpx API on aiohttp's connection pool. That transport ignores
the client's `limits` and builds a 100-connection pool unless handed a session, so we hand it one
whose connector is sized for the sum of our endpoints' connection limits.

Hot path: requests go straight to the transport (`handle_async_request`) as `httpx.Request`s. The
client's `send` machinery (auth flows, redirects, cookies, event hooks) costs twice the CPU of the
rest of the call and we use none of it; `client` is still there for anyone who wants the full API.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import aiohttp
import httpx
import sniffio
from httpx_aiohttp import AiohttpTransport
from httpx_aiohttp.transport import AiohttpResponseStream

from repozero.agents.models.codec import BadResponse
from repozero.records import Record

__all__ = ["MAX_RESPONSE_BYTES", "MAX_STREAM_BYTES", "HttpPool", "HttpReply", "HttpStream", "check_size"]

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
        one; `b""` at its end). On aiohttp, its own buffer's `readany`: the layers between (httpx's
        byte stream, the transport's async generator and its exception mapping) cost more per read
        than our parse of the events read; aiohttp's errors are `aiohttp.ClientError`s then."""
        stream = self.response.stream
        if "content-encoding" not in self.response.headers and isinstance(stream, AiohttpResponseStream):
            return stream._aiohttp_response.content.readany
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


class HttpPool:
    """The process-wide connection pool; open it once (`async with`) and share it."""

    def __init__(self, max_connections: int, keepalive_s: float = 4.0) -> None:
        """`keepalive_s` stays under uvicorn's 5 s (vLLM, SGLang): reusing a connection the server has
        just closed would fail the request."""
        self.max_connections = max_connections
        self._keepalive_s = keepalive_s
        self._transport = self._new_transport()
        self._needs_host = not isinstance(self._transport, AiohttpTransport)
        self.client = httpx.AsyncClient(transport=self._transport)

    def _new_transport(self) -> httpx.AsyncBaseTransport:
        """aiohttp's pool on asyncio; elsewhere (trio) httpx's own transport, which runs on any anyio
        backend — at the cost of the throughput it loses under hundreds of requests."""
        try:
            library = sniffio.current_async_library()
        except sniffio.AsyncLibraryNotFoundError:  # built outside a loop: it will be used on asyncio
            library = "asyncio"
        if library == "asyncio":
            return AiohttpTransport(client=self._new_session)
        limits = httpx.Limits(
            max_connections=self.max_connections,
            max_keepalive_connections=self.max_connections,
            keepalive_expiry=self._keepalive_s,
        )
        return httpx.AsyncHTTPTransport(limits=limits)

    def _new_session(self) -> aiohttp.ClientSession:
        """Called by the transport on first use, inside the running event loop."""
        connector = aiohttp.TCPConnector(
            limit=self.max_connections,
            limit_per_host=0,
            keepalive_timeout=self._keepalive_s,
            ttl_dns_cache=300,
        )
        return aiohttp.ClientSession(connector=connector)

    def _request(
        self, url: httpx.URL, body: bytes, headers: httpx.Headers, connect_s: float, read_s: float | None
    ) -> httpx.Request:
        timeout = {"connect": connect_s, "read": read_s, "write": read_s, "pool": None}
        # `stream=` with our own Content-Length skips httpx's header auto-population (3x cheaper);
        # aiohttp adds Host, httpx's own transport needs it given
        raw = [*headers.raw, (b"content-length", str(len(body)).encode())]
        if self._needs_host:
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
        """POST `body`; raises `httpx.TransportError` (timeouts included) when no response arrives."""
        request = self._request(url, body, headers, connect_s, read_s)
        response = await self._transport.handle_async_request(request)
        try:
            return await _whole(response)
        finally:
            await response.aclose()

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
        request = self._request(url, body, headers, connect_s, None)
        response = await self._transport.handle_async_request(request)
        try:
            yield HttpStream(response)
        finally:
            await response.aclose()

    async def get(self, url: httpx.URL, headers: httpx.Headers, timeout_s: float) -> HttpReply:
        """GET `url` (model lists: rare, so the client's full API is fine); raises `httpx.TransportError`."""
        response = await self.client.get(url, headers=headers, timeout=timeout_s)
        return HttpReply(status=response.status_code, body=response.content)

    async def aclose(self) -> None:
        await self.client.aclose()

    async def __aenter__(self) -> HttpPool:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
