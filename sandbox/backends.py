"""Backend by name: the one place that maps `sandbox.backend` to a class (imported lazily, so the local
backend never pulls in aiodocker)."""

from __future__ import annotations

from repozero.errors import ConfigError
from repozero.sandbox.base import SandboxBackend
from repozero.sandbox.config import SandboxConfig

__all__ = ["BACKENDS", "create_backend"]

BACKENDS = ("local", "docker")


def create_backend(config: SandboxConfig, name: str | None = None) -> SandboxBackend:
    """The backend `name` (default: `config.backend`), built from the `[sandbox]` config section."""
    name = name or config.backend
    if name == "local":
        from repozero.sandbox.local import LocalBackend

        return LocalBackend(config)
    if name == "docker":
        from repozero.sandbox.docker import DockerBackend  # type: ignore[import-not-found,unused-ignore]

        return DockerBackend(config)  # type: ignore[no-any-return,unused-ignore]
    raise ConfigError(f"sandbox.backend: unknown backend {name!r} (known: {', '.join(BACKENDS)})")
