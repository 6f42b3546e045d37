"""Sandbox fixtures: `sandbox_backend` runs a test once per backend, `sandbox` opens one sandbox on it.

Loaded by `tests/conftest.py` (pytest's importlib mode keeps `tests/` off `sys.path`). A new backend is
one line in `BACKEND_PARAMS`, named as `repozero.sandbox.create_backend` knows it, with the `docker` mark
when it needs a daemon:

    pytest.param("docker", id="docker", marks=pytest.mark.docker),

A backend that owns tasks or connections is entered with `async with` for the test's duration.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager

import pytest

from repozero.sandbox import Sandbox, SandboxBackend, SandboxSpec, create_backend
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.docker_client import docker_unavailable

__all__ = ["BACKEND_PARAMS", "LOCAL_PLAIN", "SMALL_SPEC", "open_backend", "sandbox", "sandbox_backend"]

BACKEND_PARAMS = [
    pytest.param("local", id="local"),
    pytest.param(
        "docker",
        id="docker",
        marks=[
            pytest.mark.docker,
            pytest.mark.skipif(docker_unavailable() is not None, reason=str(docker_unavailable())),
        ],
    ),
]

SMALL_SPEC = SandboxSpec(
    run_id="pytest",
    sample="sandbox-tests",
    memory_mb=256,
    pids=64,
    file_size_mb=16,
    tmpfs_mb=32,
    cpu_time_s=30,
)
"""Tight limits so attacks hit them fast."""


LOCAL_PLAIN = pytest.param("local-plain", id="local-plain")
"""The local backend without namespaces (what a host without bubblewrap gets): the attack suite runs it
too, to document what it cannot contain."""


@asynccontextmanager
async def open_backend(name: str) -> AsyncIterator[SandboxBackend]:
    """A backend by test name ("local", "local-plain", "docker"), entered for the duration if it needs it."""
    if name == "local-plain":
        backend = create_backend(SandboxConfig(backend="local", local_isolation="plain"), "local")
    else:
        backend = create_backend(SandboxConfig(backend=name), name)
    if isinstance(backend, AbstractAsyncContextManager):
        async with backend:
            yield backend
    else:
        yield backend


@pytest.fixture(params=BACKEND_PARAMS)
async def sandbox_backend(request: pytest.FixtureRequest) -> AsyncIterator[SandboxBackend]:
    async with open_backend(request.param) as backend:
        yield backend


@pytest.fixture
async def sandbox(sandbox_backend: SandboxBackend) -> AsyncIterator[Sandbox]:
    """A node sandbox with small limits, closed after the test."""
    async with sandbox_backend.open(SMALL_SPEC) as box:
        yield box
