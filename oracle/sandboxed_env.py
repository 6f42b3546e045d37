"""Source environments whose fork servers run in a local sandbox: the source in its own (docs/oracle.md).

The venv is built and cached on the host exactly as `LocalVenvEnvironment` builds it; only running the
source moves: one local sandbox per environment (toolchain `python-source`: no network, its own PID and
mount namespaces, a fresh uid, cgroup limits) sees the venv, its base interpreter, the staged programs and
the fork-server scripts read-only at their host paths, and each server's scratch lives on the sandbox's
tmpfs. The testing agent chooses the inputs the Oracle runs; without this they ran as the orchestrator's
own user on the host. Fork servers, the protocol and what a case prints are unchanged.
"""

from __future__ import annotations

import json
import os
import secrets
from contextlib import AsyncExitStack
from pathlib import Path
from types import TracebackType
from typing import Self

import anyio

from repozero.kernel.errors import OracleError, SandboxError
from repozero.kernel.log import get_logger
from repozero.oracle.contract import case_env
from repozero.oracle.native_env import SandboxedNativeEnvironment
from repozero.oracle.records import EnvSpec
from repozero.oracle.source_env import FORKSERVER, LocalVenvEnvironment, SourceEnvironment, reopen_if_broken
from repozero.sandbox import ProcessSandbox, SandboxBackend, SandboxProcess, SandboxSpec

__all__ = ["SandboxHolder", "SandboxedVenvEnvironment", "SandboxedVenvProvider"]

log = get_logger(__name__)

_SCRATCH = "/tmp"
"""Where servers keep their scratch inside the sandbox (its own tmpfs)."""
_DAY_S = 86_400
"""CPU-time limit of a server process: it lives for the whole run (each case's child starts from zero)."""


class SandboxHolder:
    """A provider that keeps one sandbox per environment open until it is closed itself (`async with`)."""

    backend: SandboxBackend

    def __init__(self) -> None:
        self._stack = AsyncExitStack()

    async def _hold(self, spec: SandboxSpec) -> ProcessSandbox:
        """Open a sandbox that stays open until this provider closes."""
        return await self._stack.enter_async_context(self.backend.open(spec))

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self._stack.__aexit__(exc_type, exc, tb)


class SandboxedVenvProvider(SandboxHolder):
    """A cached host venv per package set, run in one local sandbox each; enter it to close them all."""

    name = "local-sandboxed"

    def __init__(
        self, backend: SandboxBackend, cache_dir: Path, faketime_lib: str = "", *, memory_mb: int = 8192
    ) -> None:
        """`memory_mb`: the environment's sandbox as a whole (every server and run) may use this much."""
        super().__init__()
        self.backend = backend
        self.cache_dir = cache_dir
        self.faketime_lib = faketime_lib
        self.memory_mb = memory_mb
        self._envs: dict[str, SourceEnvironment] = {}
        self._namespaces: bool | None = None
        self._probing = anyio.Lock()

    async def sandboxed(self) -> bool:
        """Whether servers can run in a sandbox with a filesystem of its own. Without namespaces
        (`sandbox.local_isolation = "plain"`, or a host that forbids them) the venv under the caller's home
        is not even readable by a sandbox's uid, so the source runs on the host (said once, as a warning)."""
        async with self._probing:
            if self._namespaces is None:
                probe = getattr(self.backend, "isolation", None)
                self._namespaces = bool((await probe()).namespaces) if probe is not None else True
                if not self._namespaces:
                    log.warning("oracle_unsandboxed", reason="no namespaces for local sandboxes")
        return self._namespaces

    def environment(self, spec: EnvSpec) -> SourceEnvironment:
        """A sandboxed venv for Python sources; host-compiled programs run in a sandbox for C/C++ ones."""
        if spec.key not in self._envs:
            if spec.native:
                self._envs[spec.key] = SandboxedNativeEnvironment(
                    spec, self.cache_dir, self.faketime_lib, self
                )
            else:
                self._envs[spec.key] = SandboxedVenvEnvironment(spec, self)
        return self._envs[spec.key]

    async def _open(self, env: SandboxedVenvEnvironment) -> ProcessSandbox:
        env.programs.mkdir(parents=True, exist_ok=True)
        visible = [env.root, env.programs, FORKSERVER.parent, env.base_prefix()]
        spec = SandboxSpec(
            toolchain="python-source", sample=f"oracle-{env.spec.key}", role="oracle",
            memory_mb=self.memory_mb or _machine_mib(), pids=1024, tmpfs_mb=2048, cpu_time_s=_DAY_S,
            open_files=4096, ro_paths=[str(p) for p in dict.fromkeys(visible)],
        )  # fmt: skip
        return await self._hold(spec)


class SandboxedVenvEnvironment(LocalVenvEnvironment):
    """`LocalVenvEnvironment` whose fork servers start inside the environment's sandbox."""

    def __init__(self, spec: EnvSpec, provider: SandboxedVenvProvider) -> None:
        super().__init__(spec, provider.cache_dir, provider.faketime_lib)
        self._provider = provider
        self._box: ProcessSandbox | None = None
        self._opening = anyio.Lock()

    def base_prefix(self) -> Path:
        """The base installation the venv's interpreter comes from (its `home` in pyvenv.cfg, one up)."""
        for line in (self.root / "pyvenv.cfg").read_text().splitlines():
            key, _, value = line.partition("=")
            if key.strip() == "home":
                return Path(value.strip()).resolve().parent
        raise OracleError(f"{self.root}/pyvenv.cfg names no home interpreter")

    async def _sandbox(self) -> ProcessSandbox:
        async with self._opening:
            self._box = await reopen_if_broken(self._box, self.spec.key)
            if self._box is None:
                self._box = await self._provider._open(self)
        return self._box

    async def open_server(self, seed: int, clock_shift: str) -> SandboxProcess:
        if not await self._provider.sandboxed():
            return await super().open_server(seed, clock_shift)
        await self.prepare()  # the venv must exist before the sandbox binds it
        scratch = f"{_SCRATCH}/repozero-fs-{seed}-{secrets.token_hex(4)}"
        child_env = case_env([str(self.python.parent)], scratch)
        env = {**child_env, "PYTHONHASHSEED": str(seed)}
        opts = {"scratch": scratch, "child_env": {k: v for k, v in child_env.items() if k != "HOME"}}
        argv = [str(self.python), str(FORKSERVER), json.dumps(opts)]
        if clock_shift:  # preloaded into the server alone: the launcher chain before it must not share its
            # semaphore (libfaketime puts it in /dev/shm, which differs inside and outside the sandbox)
            argv = ["env", *(f"{k}={v}" for k, v in self.faketime_env(clock_shift).items()), *argv]
        try:
            return await (await self._sandbox()).open_process(argv, env=env)
        except SandboxError as exc:
            raise OracleError(f"{self.python}: cannot start the fork server in its sandbox: {exc}") from None


def _machine_mib() -> int:
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") >> 20
