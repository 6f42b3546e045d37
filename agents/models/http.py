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

import aiohttp
import httpx
from httpx_aiohttp import AiohttpTransport

from repozero.records import Record

__all__ = ["HttpPool", "HttpReply"]


class HttpReply(Record, kw_only=True):
    """A whole HTTP response: status, the headers we read, and the body."""

    status: int
    body: bytes
    retry_after: str | None = None
    retry_after_ms: str | None = None


class HttpPool:
    """The process-wide connection pool; open it once (`async with`) and share it."""

    def __init__(self, max_connections: int, keepalive_s: float = 30.0) -> None:
        self.max_connections = max_connections
        self._keepalive_s = keepalive_s
        self._transport = AiohttpTransport(client=self._new_session)
        self.client = httpx.AsyncClient(transport=self._transport)

    def _new_session(self) -> aiohttp.ClientSession:
        """Called by the transport on first use, inside the running event loop."""
        connector = aiohttp.TCPConnector(
            limit=self.max_connections,
            limit_per_host=0,
            keepalive_timeout=self._keepalive_s,
            ttl_dns_cache=300,
        )
        return aiohttp.ClientSession(connector=connector)

    async def post(
        self, url: httpx.URL, body: bytes, headers: httpx.Headers, connect_s: float, read_s: float
    ) -> HttpReply:
        """POST `body`; raises `httpx.TransportError` (timeouts included) when no response arrives."""
        timeout = {"connect": connect_s, "read": read_s, "write": read_s, "pool": None}
        request = httpx.Request("POST", url, content=body, headers=headers, extensions={"timeout": timeout})
        response = await self._transport.handle_async_request(request)
        try:
            data = await response.aread()
        finally:
            await response.aclose()
        return HttpReply(
            status=response.status_code,
            body=data,
            retry_after=response.headers.get("retry-after"),
            retry_after_ms=response.headers.get("retry-after-ms"),
        )

    async def aclose(self) -> None:
        await self.client.aclose()

    async def __aenter__(self) -> HttpPool:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
