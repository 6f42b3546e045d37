"""The composition root: the one place that names concrete classes and wires them together."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from repozero.config import Config
from repozero.sandbox import SandboxBackend, create_backend

__all__ = ["open_backend"]


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
