"""The composition root: the one place that names concrete classes and wires them together."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from repozero.agents.fakellm import DEFAULT_DATASET, fake_endpoint, fake_policy, start_fake_server
from repozero.agents.models import Model, Models, Totals, open_models
from repozero.config import Config
from repozero.datasets import Dataset
from repozero.errors import ConfigError
from repozero.sandbox import SandboxBackend, create_backend

__all__ = ["ModelProvider", "open_backend", "open_model"]


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


@asynccontextmanager
async def open_model(
    config: Config, name: str, dataset: Dataset | None = None, **fake_settings: object
) -> AsyncIterator[ModelProvider]:
    """`--model NAME`: a configured endpoint, or `fake:POLICY` (a scripted loopback server, started here)."""
    policy = fake_policy(name)
    if policy is None:
        if name not in config.endpoints:
            known = ", ".join(sorted(config.endpoints)) or "none configured"
            raise ConfigError(
                f"--model {name!r}: no endpoint of that name (known: {known}; or use fake:POLICY)"
            )
        async with open_models(config.endpoints) as models:
            yield ModelProvider(models, name, name)
        return
    async with start_fake_server(
        policy, dataset if dataset is not None else DEFAULT_DATASET, **fake_settings
    ) as url:
        endpoints = {**config.endpoints, "fake": fake_endpoint(url, policy)}
        async with open_models(endpoints) as models:
            yield ModelProvider(models, "fake", name)
