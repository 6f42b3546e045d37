"""Backend by name: the one place that maps `sandbox.backend` to a class (imported lazily, so the local
backend never pulls in aiodocker). `open_backend` is the same choice for a caller that wants the backend's
resources (the Docker backend's client and pools) opened and closed around it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from repozero.kernel.errors import ConfigError
from repozero.sandbox.base import SandboxBackend
from repozero.sandbox.config import SandboxConfig

__all__ = ["BACKENDS", "create_backend", "open_backend"]

BACKENDS = ("local", "docker")


def create_backend(
    config: SandboxConfig, name: str | None = None, *, run_id: str | None = None
) -> SandboxBackend:
    """The backend `name` (default: `config.backend`), built from the `[sandbox]` config section; `run_id`
    labels the Docker backend's containers (so a run reaps only its own)."""
    name = name or config.backend
    if name == "local":
        from repozero.sandbox.local import LocalBackend

        return LocalBackend(config)
    if name == "docker":
        from repozero.sandbox.docker import DockerBackend  # type: ignore[import-not-found,unused-ignore]

        return DockerBackend(config, run_id=run_id)  # type: ignore[no-any-return,unused-ignore]
    raise ConfigError(f"sandbox.backend: unknown backend {name!r} (known: {', '.join(BACKENDS)})")


@asynccontextmanager
async def open_backend(
    config: SandboxConfig, name: str | None = None, *, run_id: str | None = None
) -> AsyncIterator[SandboxBackend]:
    """`create_backend`, entered if it owns resources (the Docker backend's client and pools)."""
    backend = create_backend(config, name, run_id=run_id)
    if isinstance(backend, AbstractAsyncContextManager):
        async with backend:
            yield backend
    else:
        yield backend
