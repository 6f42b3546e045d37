"""One sandbox container: its locked-down config, starting it (with its supervisor), and its labels.

The container's own process is `sleep infinity` under Docker's init (`Init: true`, so orphans are reaped),
run as root with every capability dropped except KILL — only the supervisor uses it; every command runs as
the unprivileged sandbox user. The root filesystem is read-only; `/work` and `/tmp` are tmpfs of
`spec.tmpfs_mb` each (`--storage-opt size` is refused on overlay2 without xfs quotas, the usual host).
"""

from __future__ import annotations

import re
import secrets
from typing import Any

import anyio

from repozero.kernel.errors import SandboxError
from repozero.kernel.log import get_logger
from repozero.sandbox.base import SandboxSpec
from repozero.sandbox.docker_client import (
    LABEL_OWNER,
    LABEL_POOL,
    LABEL_ROLE,
    LABEL_RUN,
    LABEL_SAMPLE,
    LABEL_TOOLCHAIN,
    DockerClient,
    docker_errors,
    transient_daemon_error,
)
from repozero.sandbox.docker_supervisor import Supervisor
from repozero.sandbox.images import BASE_ENV, SANDBOX_GID, SANDBOX_UID
from repozero.sandbox.owner import owner_token

__all__ = [
    "SANDBOX_USER",
    "WORKDIR",
    "ContainerLimits",
    "DockerContainer",
    "container_name",
    "start_container",
]

WORKDIR = "/work"
START_ATTEMPTS = 2
"""Any failed start is tried once more (a second attempt is a new container)."""
TRANSIENT_START_ATTEMPTS = 4
"""A start the daemon failed for a passing reason of its own (`transient_daemon_error`) is tried this often,
waiting `START_BACKOFF_S` × 2^k between tries (0.5 + 1 + 2 s at most): room for a loaded host to recover."""
START_BACKOFF_S = 0.5
SANDBOX_USER = f"{SANDBOX_UID}:{SANDBOX_GID}"

log = get_logger(__name__)

ContainerLimits = tuple[str, int, int, int, int, int, int, bool, float]
"""What makes two containers interchangeable (the warm pool's key): image and every limit."""


def limits_key(image: str, spec: SandboxSpec, cpus: float) -> ContainerLimits:
    return (
        image, spec.memory_mb, spec.pids, spec.cpu_time_s, spec.file_size_mb, spec.open_files, spec.tmpfs_mb,
        spec.network, cpus,
    )  # fmt: skip


def _safe(text: str, size: int) -> str:
    return re.sub(r"[^a-zA-Z0-9_.-]+", "-", text).strip("-.")[:size] or "x"


def container_name(run_id: str, sample: str = "") -> str:
    """Unique and readable: `repozero-<run>-<sample>-<random>` (concurrent runs never collide)."""
    parts = ["repozero", _safe(run_id, 40), *([_safe(sample, 60)] if sample else []), secrets.token_hex(6)]
    return "-".join(parts)


def container_config(
    image: str, spec: SandboxSpec, *, run_id: str, cpus: float, pooled: bool
) -> dict[str, Any]:
    """The Engine API create body: no network, limits, non-root commands, init, tmpfs work dir, labels."""
    ulimits = [
        {"Name": "nofile", "Soft": spec.open_files, "Hard": spec.open_files},
        {"Name": "fsize", "Soft": spec.file_size_mb << 20, "Hard": spec.file_size_mb << 20},
        {"Name": "cpu", "Soft": spec.cpu_time_s, "Hard": spec.cpu_time_s + 5},
        {"Name": "core", "Soft": 0, "Hard": 0},
    ]
    owner = f"uid={SANDBOX_UID},gid={SANDBOX_GID}"
    return {
        "Image": image,
        "Cmd": ["sleep", "infinity"],
        "User": "0:0",
        "Env": [f"{key}={value}" for key, value in BASE_ENV.items()],
        "WorkingDir": WORKDIR,
        "Labels": {
            LABEL_RUN: run_id,
            LABEL_SAMPLE: "" if pooled else spec.sample,
            LABEL_ROLE: "" if pooled else spec.role,
            LABEL_TOOLCHAIN: spec.toolchain,
            LABEL_POOL: "1" if pooled else "0",
            LABEL_OWNER: owner_token(),
        },
        "StopTimeout": 1,
        "HostConfig": {
            "NetworkMode": "bridge" if spec.network else "none",
            "Init": True,
            "ReadonlyRootfs": True,
            "Memory": spec.memory_mb << 20,
            "MemorySwap": spec.memory_mb << 20,
            "PidsLimit": spec.pids,
            "NanoCpus": int(cpus * 1e9),
            "CapDrop": ["ALL"],
            "CapAdd": ["KILL"],
            "SecurityOpt": ["no-new-privileges"],
            "Ulimits": ulimits,
            "ShmSize": 64 << 20,
            "Tmpfs": {
                WORKDIR: f"rw,exec,nosuid,nodev,size={spec.tmpfs_mb}m,mode=0755,{owner}",
                "/tmp": f"rw,exec,nosuid,nodev,size={spec.tmpfs_mb}m,mode=1777",
            },
        },
    }


class DockerContainer:
    """A started container and its supervisor; owned by one sandbox (or waiting in the warm pool)."""

    def __init__(self, id: str, name: str, toolchain: str, supervisor: Supervisor) -> None:
        self.id = id
        self.name = name
        self.toolchain = toolchain
        self.supervisor = supervisor

    async def remove(self, client: DockerClient) -> None:
        """Close the supervisor stream and force-remove the container (shielded: cleanup must finish)."""
        with anyio.CancelScope(shield=True):
            try:
                await self.supervisor.aclose()
            finally:
                await client.delete(self.id)


async def start_container(
    client: DockerClient, image: str, spec: SandboxSpec, *, run_id: str, cpus: float, pooled: bool
) -> DockerContainer:
    """Create and start a container and its supervisor; a failed start is removed and tried again.

    The daemon occasionally fails a start for reasons of its own (seen here: "failed to create shim task:
    ttrpc: closed" when the new shim process dies at once, under load). Such a start is an infrastructure
    fault: tried up to `TRANSIENT_START_ATTEMPTS` times with backoff, then the SandboxError goes up (an
    episode's infra error). Any other failed start is tried once more; a failed create is not repeated.
    """
    attempt = 1
    while True:
        try:
            return await _start_once(client, image, spec, run_id=run_id, cpus=cpus, pooled=pooled)
        except SandboxError as exc:
            transient = transient_daemon_error(str(exc))
            limit = TRANSIENT_START_ATTEMPTS if transient else START_ATTEMPTS
            if attempt >= limit or (not transient and "create container" in str(exc)):
                if attempt > 1:
                    raise SandboxError(f"{exc} (after {attempt} attempts)") from exc
                raise
            wait_s = START_BACKOFF_S * 2 ** (attempt - 1) if transient else 0.0
            log.warning(
                "sandbox_container_start_retry",
                image=image, attempt=attempt, transient=transient, wait_s=wait_s, error=str(exc),
            )  # fmt: skip
            await anyio.sleep(wait_s)
            attempt += 1


async def _start_once(
    client: DockerClient, image: str, spec: SandboxSpec, *, run_id: str, cpus: float, pooled: bool
) -> DockerContainer:
    name = container_name(run_id, "" if pooled else spec.sample)
    config = container_config(image, spec, run_id=run_id, cpus=cpus, pooled=pooled)
    async with client.api:
        # shielded: a create cancelled in flight would leave a container whose id we never learn
        with anyio.CancelScope(shield=True), docker_errors(f"create container from {image}"):
            created = await client.docker.containers.create(config, name=name)
    try:
        async with client.api:
            with docker_errors(f"start container {name}"):
                await created.start()
        supervisor = await Supervisor.start(client, created.id)
    except BaseException:
        with anyio.CancelScope(shield=True):
            await client.delete(created.id)
        raise
    log.debug("sandbox_container_started", container=name, image=image, pooled=pooled)
    return DockerContainer(created.id, name, spec.toolchain, supervisor)
