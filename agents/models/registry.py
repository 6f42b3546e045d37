"""The composition root for models: one connection pool, one client per configured endpoint."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from repozero.agents.config import EndpointConfig
from repozero.agents.models.client import EndpointClient, ModelSession
from repozero.agents.models.http import HttpPool
from repozero.agents.models.pricing import Ledger
from repozero.agents.models.records import Totals
from repozero.kernel.errors import ConfigError

__all__ = ["Models", "open_models"]


class Models:
    """The configured endpoints over one shared `HttpPool`; clients are built on first use."""

    def __init__(self, endpoints: dict[str, EndpointConfig], pool: HttpPool) -> None:
        self.endpoints = endpoints
        self.pool = pool
        self._clients: dict[str, EndpointClient] = {}

    def endpoint(self, name: str) -> EndpointClient:
        """The client of endpoint `name` (its config is checked and its API key read now)."""
        client = self._clients.get(name)
        if client is None:
            if name not in self.endpoints:
                known = ", ".join(sorted(self.endpoints)) or "none"
                raise ConfigError(f"unknown endpoint '{name}' (configured: {known}); add [endpoints.{name}]")
            client = self._clients[name] = EndpointClient(name, self.endpoints[name], self.pool)
        return client

    def session(self, endpoint: str, session_id: str | None = None) -> ModelSession:
        """A `Model` for one agent session on `endpoint` (a fresh session id when None)."""
        return self.endpoint(endpoint).session(session_id)

    def totals(self) -> Totals:
        """The run so far, over every endpoint used."""
        return Ledger.sum([c.totals() for c in self._clients.values()])

    def totals_by_endpoint(self) -> dict[str, Totals]:
        return {name: c.totals() for name, c in self._clients.items()}


def pool_size(endpoints: dict[str, EndpointConfig]) -> int:
    """Enough connections for every endpoint at its maximum concurrency."""
    return max(16, sum(e.max_connections for e in endpoints.values()))


@asynccontextmanager
async def open_models(endpoints: dict[str, EndpointConfig]) -> AsyncIterator[Models]:
    """`async with open_models(cfg.endpoints) as models:` — the pool closes on exit."""
    async with HttpPool(pool_size(endpoints)) as pool:
        yield Models(endpoints, pool)
