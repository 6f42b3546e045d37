"""A run's model: `--model NAME` resolved against the configured endpoints and opened, a configured endpoint
or a `fake:POLICY` loopback server started for it.

The orchestrator asks for sessions on one named model; this is the one place that knows a `fake:` name is a
server to start, so the run engine never names the loopback server's classes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

import msgspec

from repozero.agents.config import EndpointConfig
from repozero.agents.fakellm import DEFAULT_DATASET, fake_endpoint, fake_policy
from repozero.agents.models import Model, Models, Totals, open_models
from repozero.datasets import Dataset
from repozero.kernel.errors import ConfigError

__all__ = ["FAKE_ENDPOINT", "ModelProvider", "open_model", "open_provider", "resolve_model"]

FAKE_ENDPOINT = "fake"
"""The endpoint name a `fake:POLICY` model becomes (its limiter is `model:fake`)."""

Endpoints = Mapping[str, EndpointConfig]


class ModelProvider:
    """Sessions on one named model: an endpoint from config, or a `fake:POLICY` loopback server."""

    def __init__(self, models: Models, endpoint: str, label: str) -> None:
        self.models = models
        self.endpoint = endpoint
        self.label = label

    def session(self, session_id: str | None = None) -> Model:
        return self.models.session(self.endpoint, session_id)

    def totals(self) -> Totals:
        return self.models.totals()

    def on(self, endpoint: str, label: str | None = None) -> ModelProvider:
        """The same models, on another configured endpoint (a per-episode policy)."""
        self.models.endpoint(endpoint)  # unknown names fail here, before an episode starts
        return ModelProvider(self.models, endpoint, label or endpoint)


def resolve_model(endpoints: Endpoints, name: str) -> tuple[dict[str, EndpointConfig], str]:
    """`--model NAME` as (the endpoints holding it, its endpoint's name).

    A configured endpoint is itself; `fake:POLICY` becomes the ordinary endpoint `fake`, whose base URL is
    filled in once its loopback server is up — so limits and sizes treat it like any other endpoint.
    """
    policy = fake_policy(name)
    if policy is None:
        if name not in endpoints:
            known = ", ".join(sorted(endpoints)) or "none configured"
            raise ConfigError(
                f"--model {name!r}: no endpoint of that name (known: {known}; or use fake:POLICY)"
            )
        return dict(endpoints), name
    return {**endpoints, FAKE_ENDPOINT: fake_endpoint("", policy)}, FAKE_ENDPOINT


@asynccontextmanager
async def open_model(
    endpoints: Endpoints, name: str, dataset: Dataset | None = None, **fake_settings: Any
) -> AsyncIterator[ModelProvider]:
    """`--model NAME` opened: a configured endpoint, or a `fake:POLICY` loopback server started here."""
    resolved, endpoint = resolve_model(endpoints, name)
    async with open_provider(resolved, endpoint, name, dataset, **fake_settings) as provider:
        yield provider


@asynccontextmanager
async def open_provider(
    endpoints: Endpoints, endpoint: str, label: str, dataset: Dataset | None = None, **fake_settings: Any
) -> AsyncIterator[ModelProvider]:
    """Sessions on `endpoint` of resolved `endpoints` (`resolve_model`); a `fake:POLICY` label also starts
    its loopback server and points the endpoint at it."""
    policy = fake_policy(label)
    if policy is None:
        async with open_models(dict(endpoints)) as models:
            yield ModelProvider(models, endpoint, label)
        return
    from repozero.agents.fakellm import start_fake_server  # aiohttp's server: imported when one starts

    async with start_fake_server(
        policy, dataset if dataset is not None else DEFAULT_DATASET, **fake_settings
    ) as url:
        fake = endpoints[endpoint]
        live = msgspec.structs.replace(fake, base_urls=fake_endpoint(url, policy, fake.api).base_urls)
        async with open_models({**endpoints, endpoint: live}) as models:
            yield ModelProvider(models, endpoint, label)
