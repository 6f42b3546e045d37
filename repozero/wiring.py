"""The composition root: the one place that names concrete classes and wires them together."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import msgspec

from repozero.agents.fakellm import DEFAULT_DATASET, fake_endpoint, fake_policy
from repozero.agents.models import Model, Models, Totals, open_models
from repozero.config import Config
from repozero.datasets import Dataset
from repozero.errors import ConfigError
from repozero.sandbox import SandboxBackend, create_backend

__all__ = ["FAKE_ENDPOINT", "ModelProvider", "model_endpoint", "open_backend", "open_model", "open_provider"]

FAKE_ENDPOINT = "fake"
"""The endpoint name a `fake:POLICY` model becomes (its limiter is `model:fake`)."""


@asynccontextmanager
async def open_backend(
    config: Config, name: str | None = None, *, run_id: str | None = None
) -> AsyncIterator[SandboxBackend]:
    """A sandbox backend for the run, entered if it owns resources (the Docker backend's client and pools)."""
    backend_name = name or config.sandbox.backend
    if backend_name == "docker":
        from repozero.sandbox.docker import DockerBackend

        async with DockerBackend(config.sandbox, run_id=run_id) as docker:
            yield docker
        return
    yield create_backend(config.sandbox, backend_name)


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


def model_endpoint(config: Config, name: str) -> tuple[Config, str]:
    """`--model NAME` as (the config holding its endpoint, the endpoint's name).

    A configured endpoint is itself; `fake:POLICY` becomes the ordinary endpoint `fake`, whose base URL is
    filled in once its loopback server is up — so limits and sizes treat it like any other endpoint.
    """
    policy = fake_policy(name)
    if policy is None:
        if name not in config.endpoints:
            known = ", ".join(sorted(config.endpoints)) or "none configured"
            raise ConfigError(
                f"--model {name!r}: no endpoint of that name (known: {known}; or use fake:POLICY)"
            )
        return config, name
    endpoints = {**config.endpoints, FAKE_ENDPOINT: fake_endpoint("", policy)}
    return msgspec.structs.replace(config, endpoints=endpoints), FAKE_ENDPOINT


@asynccontextmanager
async def open_model(
    config: Config, name: str, dataset: Dataset | None = None, **fake_settings: Any
) -> AsyncIterator[ModelProvider]:
    """`--model NAME` opened: a configured endpoint, or a `fake:POLICY` loopback server started here."""
    config, endpoint = model_endpoint(config, name)
    async with open_provider(config, endpoint, name, dataset, **fake_settings) as provider:
        yield provider


@asynccontextmanager
async def open_provider(
    config: Config, endpoint: str, label: str, dataset: Dataset | None = None, **fake_settings: Any
) -> AsyncIterator[ModelProvider]:
    """The endpoints of a resolved `config` (`model_endpoint`), sessions on `endpoint`; a `fake:POLICY`
    label also starts its loopback server and points the endpoint at it."""
    policy = fake_policy(label)
    if policy is None:
        async with open_models(config.endpoints) as models:
            yield ModelProvider(models, endpoint, label)
        return
    from repozero.agents.fakellm import start_fake_server  # aiohttp's server: imported when one starts

    async with start_fake_server(
        policy, dataset if dataset is not None else DEFAULT_DATASET, **fake_settings
    ) as url:
        fake = config.endpoints[endpoint]
        live = msgspec.structs.replace(fake, base_urls=fake_endpoint(url, policy, fake.api).base_urls)
        async with open_models({**config.endpoints, endpoint: live}) as models:
            yield ModelProvider(models, endpoint, label)
