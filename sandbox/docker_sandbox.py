"""A Docker sandbox: one locked-down container, every command an attached exec as the unprivileged user.

`exec` and the batch driver run under `timeout -k` inside the container (host backstop on top), the
persistent shell over one long-lived exec; the container's supervisor ends whatever a timed-out command
left behind. Files move through `tar`/`cat` execs (the work dir is a tmpfs, which `docker cp` cannot see).
"""

from __future__ import annotations

import io
import posixpath
import tarfile
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import msgspec

from repozero.kernel.errors import SandboxError
from repozero.kernel.log import get_logger
from repozero.sandbox.base import (
    DEFAULT_OUTPUT_CAP,
    CaseInput,
    CaseRun,
    ExecResult,
    SandboxProcess,
    SandboxSpec,
)
from repozero.sandbox.batch import (
    BatchStops,
    backstop_s,
    case_jobs,
    case_memory_limit,
    driver_argv,
    pack_batch,
    parse_records,
    rerun_oom_alone,
    stdout_budget,
)
from repozero.sandbox.cpu_usage import container_cpu_s
from repozero.sandbox.docker_client import DockerClient
from repozero.sandbox.docker_container import SANDBOX_USER, WORKDIR, DockerContainer
from repozero.sandbox.docker_exec import DockerExecProcess, run_command
from repozero.sandbox.shell import ShellSession

if TYPE_CHECKING:
    from repozero.sandbox.docker import DockerBackend

__all__ = ["DockerSandbox"]

TREE_CAP = 1 << 30
"""Largest tree `get_tree` copies out (bytes of tar)."""
BATCH_STDERR_CAP = 64 << 10
log = get_logger(__name__)


class DockerSandbox:
    """One container for one sandbox; opened with `async with`, removed (in the background) on close."""

    def __init__(self, backend: DockerBackend, spec: SandboxSpec) -> None:
        self._backend = backend
        self.spec = spec
        self.workdir = WORKDIR
        self.id = ""
        self._container: DockerContainer | None = None
        self._session: ShellSession | None = None
        self._oom_seen = 0
        self._processes: set[DockerExecProcess] = set()
        self._client: DockerClient | None = None
        self._own_client: AsyncExitStack | None = None

    async def __aenter__(self) -> DockerSandbox:
        if self._backend.is_open:
            self._client = self._backend.client
            self._container = await self._backend.acquire(self.spec)
        else:
            stack = AsyncExitStack()
            try:
                self._client = await stack.enter_async_context(self._backend.new_client())
                self._container = await self._backend.start_standalone(self._client, self.spec)
            except BaseException:
                with anyio.CancelScope(shield=True):
                    await stack.aclose()
                raise
            self._own_client = stack
        self.id = self.container.name
        self._oom_seen = max(await self.container.supervisor.oom_kills(), 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def cpu_s(self) -> float | None:
        """CPU seconds its container used so far (a warm container's earlier use included: callers take
        differences), read from the daemon's cgroup on this host; None where it cannot be read."""
        return container_cpu_s(self._container.id) if self._container is not None else None

    @property
    def container(self) -> DockerContainer:
        if self._container is None:
            raise SandboxError("docker sandbox is not open (use `async with backend.open(spec) as sandbox`)")
        return self._container

    @property
    def client(self) -> DockerClient:
        if self._client is None:
            raise SandboxError("docker sandbox is not open")
        return self._client

    def _path(self, path: str) -> str:
        return posixpath.normpath(posixpath.join(self.workdir, path))

    # --- commands -----------------------------------------------------------------------------------
    async def exec(
        self,
        cmd: Sequence[str] | str,
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        stdin: bytes | None = None,
        timeout_s: float | None = None,
        output_cap: int = DEFAULT_OUTPUT_CAP,
    ) -> ExecResult:
        """Run one command in a fresh process (a `docker exec`), under `timeout -k` inside the container."""
        argv = ["/bin/sh", "-c", cmd] if isinstance(cmd, str) else list(cmd)
        if not argv:
            raise SandboxError("exec: empty argv")
        result = await run_command(
            self.client, self.container.id, argv, user=SANDBOX_USER, cwd=self._path(cwd or "."),
            env=env, stdin=stdin, timeout_s=timeout_s, kill_after_s=self._backend.cfg.docker_kill_after_s,
            output_cap=output_cap, killer=self.container.supervisor.kill_tree,
        )  # fmt: skip
        if (
            result.exit_code == 137
            and not result.timed_out
            and not result.truncated
            and await self._oom_since()
        ):
            result = msgspec.structs.replace(result, oom=True)
        return result

    async def _oom_since(self) -> bool:
        """Whether the container's memory cgroup killed something since we last asked."""
        count = await self.container.supervisor.oom_kills()
        seen, self._oom_seen = self._oom_seen, max(count, self._oom_seen)
        return count > seen

    async def shell(
        self, command: str, *, timeout_s: float | None = None, output_cap: int = DEFAULT_OUTPUT_CAP
    ) -> ExecResult:
        """Run a command in the persistent shell (one attached exec per sandbox; cwd and env persist)."""
        if self._session is None:
            self._session = ShellSession(self._start_shell, kill_strays=self._kill_strays)
        result = await self._session.run(command, timeout_s=timeout_s, output_cap=output_cap)
        if result.exit_code == 137 and not result.timed_out and await self._oom_since():
            result = msgspec.structs.replace(result, oom=True)  # the memory group's SIGKILL, as in exec
        return result

    async def _start_shell(self, argv: Sequence[str]) -> SandboxProcess:
        return await self.open_process(argv)

    async def _kill_strays(self, proc: SandboxProcess) -> None:
        if not isinstance(proc, DockerExecProcess):
            raise SandboxError("docker sandbox: the shell is not one of this sandbox's processes")
        await self.container.supervisor.kill_strays(proc.pid, proc.start_ticks)

    async def run_cases(
        self,
        entry: Sequence[str],
        cases: Sequence[CaseInput],
        *,
        timeout_s: float,
        output_cap: int = DEFAULT_OUTPUT_CAP,
        cwd: str | None = None,
        stop_after_timeouts: int = 0,
        stop_after_crashes: int = 0,
        memory_mb: int = 0,
    ) -> list[CaseRun]:
        """Every case through the batch driver in one exec (per-case `timeout -k` inside the container),
        as many at once as the container's CPU quota (`docker_cpus`) allows."""
        if not cases:
            return []
        cfg = self._backend.cfg
        jobs = case_jobs(cfg.case_parallelism, cfg.docker_cpus)

        async def run_batch(todo: Sequence[CaseInput], jobs: int, stops: BatchStops) -> list[CaseRun]:
            packed = pack_batch(entry, todo)
            extra = len(packed) + jobs * (output_cap + BATCH_STDERR_CAP)
            async with self._case_memory(memory_mb, jobs, extra):
                return await self._run_batch(
                    packed, todo, timeout_s, output_cap, self._path(cwd or "."), jobs, stops
                )

        stops = BatchStops(timeouts=stop_after_timeouts, crashes=stop_after_crashes)
        return await rerun_oom_alone(run_batch, cases, jobs=jobs, stops=stops)

    @asynccontextmanager
    async def _case_memory(self, memory_mb: int, jobs: int, extra: int) -> AsyncIterator[None]:
        """The container's memory limit lowered to what it holds plus `memory_mb` per running case while a
        batch runs (`case_memory_limit`), its own limit back after (two `docker update` calls)."""
        held = await self.container.supervisor.held_bytes() if memory_mb > 0 else -1
        if held < 0:
            yield
            return
        ceiling = self.spec.memory_mb << 20
        limit = case_memory_limit(held, memory_mb, jobs, extra, ceiling)
        try:
            await self.client.set_memory(self.container.id, limit)
        except SandboxError as exc:  # it held more than it could give back: grade under its own cap
            log.warning("case_memory_not_set", sandbox=self.id, limit=limit, error=str(exc))
            limit = ceiling
        try:
            yield
        finally:
            if limit != ceiling:
                await self._restore_memory(ceiling)

    async def _restore_memory(self, ceiling: int) -> None:
        """The container's own limit back; a daemon refusing leaves it lowered (logged), not the batch lost."""
        with anyio.CancelScope(shield=True):
            try:
                await self.client.set_memory(self.container.id, ceiling)
            except SandboxError as exc:
                log.warning("case_memory_not_restored", sandbox=self.id, error=str(exc))

    async def _run_batch(
        self, packed: bytes, cases: Sequence[CaseInput], timeout_s: float, output_cap: int, cwd: str,
        jobs: int, stops: BatchStops,
    ) -> list[CaseRun]:  # fmt: skip
        kill_after = self._backend.cfg.docker_kill_after_s
        argv = driver_argv(
            timeout_s=timeout_s, output_cap=output_cap, stderr_cap=BATCH_STDERR_CAP, kill_after_s=kill_after,
            cwd=cwd, kill_strays=True, jobs=jobs, stops=stops,
        )  # fmt: skip
        oom_before = self._oom_seen
        result = await self.exec(
            argv, stdin=packed, timeout_s=backstop_s(len(cases), timeout_s, kill_after),
            output_cap=stdout_budget(len(cases), output_cap, BATCH_STDERR_CAP),
        )  # fmt: skip
        oom_killed = await self._oom_since() or self._oom_seen > oom_before
        return parse_records(
            result, cases, timeout_s=timeout_s, output_cap=output_cap, stderr_cap=BATCH_STDERR_CAP,
            oom_killed=oom_killed,
        )  # fmt: skip

    async def open_process(
        self, argv: Sequence[str], *, cwd: str | None = None, env: Mapping[str, str] | None = None
    ) -> SandboxProcess:
        """A long-running process over one attached exec (fork servers, the shell); closed with the sandbox."""
        proc = await DockerExecProcess.start(
            self.client, self.container.id, list(argv), user=SANDBOX_USER, cwd=self._path(cwd or "."),
            env=env, killer=self.container.supervisor.kill_tree,
        )  # fmt: skip
        self._processes.add(proc)
        return proc

    # --- files --------------------------------------------------------------------------------------
    async def _checked(self, what: str, argv: list[str], **kwargs: Any) -> ExecResult:
        result = await self.exec(argv, timeout_s=kwargs.pop("timeout_s", 120.0), **kwargs)
        if result.exit_code != 0:
            detail = result.stderr.decode(errors="replace").strip()[-500:]
            raise SandboxError(f"{what}: exit {result.exit_code}: {detail}")
        return result

    async def write_file(self, path: str, data: bytes, *, mode: int = 0o644) -> None:
        script = 'mkdir -p -- "$(dirname -- "$1")" && cat >"$1" && chmod "$2" "$1"'
        target = self._path(path)
        await self._checked(
            f"write_file {target}", ["sh", "-c", script, "write", target, f"{mode:o}"], stdin=data
        )

    async def read_file(self, path: str, *, max_bytes: int | None = None) -> bytes:
        target = self._path(path)
        cap = max_bytes if max_bytes is not None else TREE_CAP
        result = await self._checked(
            f"read_file {target}", ["head", "-c", str(cap), "--", target], output_cap=cap + 1
        )
        return result.stdout[:cap]

    async def put_tree(self, src: Path, dest: str) -> None:
        target = self._path(dest)
        script = 'mkdir -p -- "$1" && tar -x -f - -C "$1" --no-same-owner'
        await self._checked(f"put_tree {target}", ["sh", "-c", script, "put", target], stdin=_pack_tree(src))

    async def get_tree(self, src: str, dest: Path) -> None:
        target = self._path(src)
        result = await self._checked(
            f"get_tree {target}", ["tar", "-c", "-f", "-", "-C", target, "."], output_cap=TREE_CAP
        )
        if result.truncated:
            raise SandboxError(f"get_tree {target}: more than {TREE_CAP} bytes")
        _unpack_tree(result.stdout, dest)

    async def copy_workspace_to(self, dests: Sequence[DockerSandbox]) -> None:
        """Fork: this container's work dir as one tar stream, unpacked in each of `dests`' (sandbox/fork.py) —
        container to container through memory, no image commit (a commit per fork costs a layer and seconds).
        Called at a round boundary, while this sandbox's agent is idle."""
        result = await self._checked(
            f"fork {self.workdir}", ["tar", "-c", "-f", "-", "-C", self.workdir, "."], output_cap=TREE_CAP
        )
        if result.truncated:
            raise SandboxError(f"fork {self.workdir}: more than {TREE_CAP} bytes")
        script = 'mkdir -p -- "$1" && tar -x -f - -C "$1" --no-same-owner'
        for dest in dests:
            await dest._checked(
                f"fork into {dest.workdir}", ["sh", "-c", script, "put", dest.workdir], stdin=result.stdout
            )

    # --- lifecycle ----------------------------------------------------------------------------------
    async def close(self) -> None:
        container, self._container = self._container, None
        if container is None:
            return
        with anyio.CancelScope(shield=True):
            try:
                if self._session is not None:
                    await self._session.aclose()
                for proc in list(self._processes):
                    await proc.aclose()
            finally:
                await self._release(container)

    async def _release(self, container: DockerContainer) -> None:
        stack, self._own_client = self._own_client, None
        if stack is None:
            self._backend.release(container)
            return
        try:
            await container.remove(self.client)
        finally:
            await stack.aclose()


def _pack_tree(src: Path) -> bytes:
    if not src.is_dir():
        raise SandboxError(f"put_tree: {src} is not a directory")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        tar.add(src, arcname=".")
    return buf.getvalue()


def _host_safe(member: tarfile.TarInfo, dest: str) -> tarfile.TarInfo | None:
    """As the local backend copies: symlinks stay symlinks (verbatim), specials are skipped; nothing is
    written outside `dest` or through a link (tarfile's "data" rules for everything but the link text)."""
    if member.issym():
        placed = tarfile.data_filter(member.replace(linkname=".", deep=False), dest)
        return placed.replace(linkname=member.linkname, deep=False)
    if member.isfile() or member.isdir() or member.islnk():
        return tarfile.data_filter(member, dest)
    return None


def _unpack_tree(data: bytes, dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
        try:
            tar.extractall(dest, filter=_host_safe)
        except tarfile.FilterError as exc:
            raise SandboxError(f"get_tree: refused an entry that would land outside {dest}: {exc}") from exc
