"""The one shared aiodocker client: sized connection pool, API-call limiter, errors translated at the boundary.

Everything Docker-specific that is not a sandbox lives here: opening the client, reaping containers by
label, and listing what a run leaked — so the CLI, the backend and the run report share one implementation.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import aiodocker
import aiohttp
import anyio

from repozero.kernel.errors import SandboxError
from repozero.kernel.log import get_logger
from repozero.kernel.records import Record
from repozero.sandbox.images import RECIPES, image_ref
from repozero.sandbox.owner import token_alive

__all__ = [
    "LABEL_OWNER",
    "LABEL_POOL",
    "LABEL_ROLE",
    "LABEL_RUN",
    "LABEL_SAMPLE",
    "LABEL_TOOLCHAIN",
    "DockerClient",
    "LeakedContainer",
    "daemon_reachable",
    "docker_errors",
    "docker_unavailable",
    "open_client",
    "transient_daemon_error",
]

LABEL_RUN = "repozero.run_id"
LABEL_SAMPLE = "repozero.sample"
LABEL_ROLE = "repozero.role"
LABEL_TOOLCHAIN = "repozero.toolchain"
LABEL_POOL = "repozero.pool"
LABEL_OWNER = "repozero.owner"
"""The process that made the container (`sandbox/owner.py` token): a dead owner's containers are reaped."""

log = get_logger(__name__)

_TRANSIENT_MARKERS = (
    "ttrpc: closed",  # containerd's new shim died as it started (seen under load)
    "failed to start shim",
    "read init-p: connection reset by peer",  # runc's init died before reporting back
    "resource temporarily unavailable",  # EAGAIN from a clone or fork while the host is short
    "context deadline exceeded",  # containerd did not answer the daemon in time
)
_SHIM = "failed to create shim task"
_RUNTIME = ("oci runtime create failed", "oci runtime exec failed")
"""dockerd wraps runc's own verdict in the shim's words too ("failed to create shim task: OCI runtime create
failed: ... executable file not found"): the shim failing is passing trouble, runc refusing the container or
the exec is not (unless for one of the reasons above)."""


def transient_daemon_error(message: str) -> bool:
    """Whether a failed container start or exec start is the daemon's passing trouble (its shim or runtime
    dying as a container or process starts, containerd not answering in time, on a loaded host) rather than
    ours (a bad image, config or command), by dockerd's words."""
    text = message.lower()
    if any(marker in text for marker in _TRANSIENT_MARKERS):
        return True
    return _SHIM in text and not any(runtime in text for runtime in _RUNTIME)


class LeakedContainer(Record, kw_only=True):
    """A container still present for a run after its sandboxes were closed: listed in the run report."""

    id: str
    name: str
    run_id: str
    sample: str
    toolchain: str
    state: str


@contextmanager
def docker_errors(what: str) -> Iterator[None]:
    """Translate aiodocker/aiohttp/socket failures into SandboxError naming the operation."""
    try:
        yield
    except aiodocker.DockerError as exc:
        if exc.status == 900:  # aiodocker's code for a connection failure
            raise SandboxError(f"docker {what}: cannot reach the daemon: {exc.message}") from exc
        raise SandboxError(f"docker {what}: {exc.message} (HTTP {exc.status})") from exc
    except (aiohttp.ClientError, OSError) as exc:
        raise SandboxError(f"docker {what}: cannot reach the daemon: {exc}") from exc


class DockerClient:
    """One aiodocker client for the whole process; API calls share a limiter (docs/scale.md: `docker_api`).

    Attached streams (persistent shells, processes) hold a connection each for their lifetime, so the
    connection pool is sized apart from the API limiter: `connections` ≥ sandboxes × (2 + processes) + calls.
    """

    def __init__(self, docker: aiodocker.Docker, api_concurrency: int) -> None:
        self.docker = docker
        self.api = anyio.CapacityLimiter(api_concurrency)

    async def list_containers(self, run_id: str | None = None) -> list[dict[str, Any]]:
        """Every container (running or not) carrying our run label; only `run_id`'s when given."""
        label = f"{LABEL_RUN}={run_id}" if run_id is not None else LABEL_RUN
        filters = json.dumps({"label": [label]})
        async with self.api:
            with docker_errors("list containers"):
                found = await self.docker.containers.list(all="true", filters=filters)
        return [dict(c._container) for c in found]

    async def delete(self, container_id: str) -> bool:
        """Force-remove a container; False when it was already gone."""
        async with self.api:
            try:
                await self.docker.containers.container(container_id).delete(force=True)
            except aiodocker.DockerError as exc:
                if exc.status in (404, 409):  # gone, or removal already in progress
                    return False
                raise SandboxError(f"docker remove {container_id[:12]}: {exc.message}") from exc
            except (aiohttp.ClientError, OSError) as exc:
                raise SandboxError(f"docker remove {container_id[:12]}: {exc}") from exc
        return True

    async def set_memory(self, container_id: str, limit: int) -> None:
        """Move a running container's memory (and memory+swap) limit, in bytes (`docker update`)."""
        body = json.dumps({"Memory": limit, "MemorySwap": limit})
        async with self.api:
            with docker_errors(f"update container {container_id[:12]}"):
                await self.docker._query_json(f"containers/{container_id}/update", method="POST", data=body)

    async def reap(self, run_id: str | None = None) -> int:
        """Remove every container of `run_id` (of every run when None); returns how many went."""
        removed = await self._delete_all([info["Id"] for info in await self.list_containers(run_id)])
        if removed:
            log.info("sandbox_containers_reaped", run_id=run_id or "*", count=removed)
        return removed

    async def reap_orphans(self) -> int:
        """Remove every container whose owner process on this host is gone (a SIGKILLed run's, of any run
        id); containers of live processes, of other hosts and without an owner label are left alone."""
        orphans = [
            info["Id"]
            for info in await self.list_containers()
            if token_alive((info.get("Labels") or {}).get(LABEL_OWNER, "")) is False
        ]
        removed = await self._delete_all(orphans)
        if removed:
            log.info("sandbox_orphans_reaped", count=removed)
        return removed

    async def _delete_all(self, container_ids: list[str]) -> int:
        """Force-remove these containers at once; how many were still there to remove."""
        removed = 0

        async def one(cid: str) -> None:
            nonlocal removed
            gone = await self.delete(cid)  # not `removed += await ...`: that reads before awaiting
            removed += int(gone)

        async with anyio.create_task_group() as tg:
            for cid in container_ids:
                tg.start_soon(one, cid)
        return removed

    async def leaked(self, run_id: str) -> list[LeakedContainer]:
        """Containers of `run_id` still present (call after the run closed its sandboxes)."""
        return [_leaked(info) for info in await self.list_containers(run_id)]

    async def image_exists(self, ref: str) -> bool:
        async with self.api:
            try:
                await self.docker.images.inspect(ref)
            except aiodocker.DockerError as exc:
                if exc.status == 404:
                    return False
                raise SandboxError(f"docker image inspect {ref}: {exc.message}") from exc
            except (aiohttp.ClientError, OSError) as exc:
                raise SandboxError(f"docker image inspect {ref}: cannot reach the daemon: {exc}") from exc
        return True


def _leaked(info: dict[str, Any]) -> LeakedContainer:
    labels = info.get("Labels") or {}
    names = info.get("Names") or ["?"]
    return LeakedContainer(
        id=info["Id"][:12],
        name=names[0].lstrip("/"),
        run_id=labels.get(LABEL_RUN, ""),
        sample=labels.get(LABEL_SAMPLE, ""),
        toolchain=labels.get(LABEL_TOOLCHAIN, ""),
        state=info.get("State", ""),
    )


@asynccontextmanager
async def open_client(
    host: str = "", *, connections: int = 0, api_concurrency: int = 16
) -> AsyncIterator[DockerClient]:
    """Open the shared client (`host` "" = $DOCKER_HOST or the default socket) and check the daemon answers.

    `connections` caps the pool (0: no cap). Attached streams hold a connection each for their lifetime,
    and aiohttp counts the wait for a free one against the connect timeout: a cap sized below the open
    sandboxes' streams fails calls with "Connection timeout" instead of making them wait."""
    url = host or None
    try:
        connector = _connector(url, connections)
        docker = aiodocker.Docker(
            url="unix://localhost" if connector is not None else url,  # host part only names the URL
            connector=connector,
            timeout=aiohttp.ClientTimeout(total=120, connect=10),
        )
    except ValueError as exc:
        raise SandboxError(f"docker: no daemon address: {exc}") from exc
    try:
        with docker_errors("version"):
            await docker.version()
        yield DockerClient(docker, api_concurrency)
    finally:
        with anyio.CancelScope(shield=True):
            await docker.close()
            if connector is not None:
                await connector.close()


def _connector(url: str | None, connections: int) -> aiohttp.BaseConnector | None:
    """A Unix-socket connector with our pool size; None lets aiodocker pick (TCP/TLS/ssh hosts)."""
    target = url or os.environ.get("DOCKER_HOST") or "unix:///var/run/docker.sock"
    if not target.startswith("unix://"):
        return None
    return aiohttp.UnixConnector(
        path=target.removeprefix("unix://"), limit=max(connections, 0), limit_per_host=0
    )


async def daemon_reachable(host: str = "") -> bool:
    """True when a Docker daemon answers."""
    try:
        with anyio.fail_after(5):
            async with open_client(host, connections=2):
                return True
    except (SandboxError, TimeoutError):
        return False


async def _missing_images(refs: list[str]) -> list[str]:
    with anyio.fail_after(10):
        async with open_client(connections=2) as client:
            return [ref for ref in refs if not await client.image_exists(ref)]


@functools.cache
def docker_unavailable() -> str | None:
    """Why Docker sandboxes cannot run here, or None. Call only outside an event loop (test collection).

    Under CI (`CI` set) this is always None: Docker tests are never skipped there, they fail loudly.
    """
    if os.environ.get("CI"):
        return None
    try:
        missing = anyio.run(_missing_images, [image_ref(name) for name in RECIPES])
    except (SandboxError, TimeoutError) as exc:
        return f"no Docker daemon reachable ({exc}); CI always runs these"
    return f"images not built ({', '.join(missing)}): run `repozero images build`" if missing else None
