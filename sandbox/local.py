"""The local backend, the embedded default: sandboxes as host subprocesses under bubblewrap namespaces,
a fresh unprivileged uid, rlimits and cgroups, in a size-limited tmpfs (docs/sandbox.md says which layer
needs what, and what is lost when the host does not allow it)."""

from __future__ import annotations

import contextlib
import os
import posixpath
import secrets
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import anyio
import msgspec

from repozero.kernel import spawn
from repozero.kernel.errors import SandboxError
from repozero.kernel.log import get_logger
from repozero.sandbox import batch
from repozero.sandbox.base import (
    DEFAULT_OUTPUT_CAP,
    BackendDefaults,
    CaseInput,
    CaseRun,
    ExecResult,
    SandboxProcess,
    SandboxSpec,
)
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.exec_chain import IN_WORK, base_env, launch_argv, launch_plan
from repozero.sandbox.isolation import Isolation, detect_isolation
from repozero.sandbox.launcher_client import LauncherGone, launcher
from repozero.sandbox.preload import preload_programs
from repozero.sandbox.process import LocalProcess, collect, deadline_after, kill_namespace_strays
from repozero.sandbox.shell import ShellSession
from repozero.sandbox.toolchains import (
    build_toolchain,
    default_toolchain_root,
    toolchain_problem,
    toolchain_versions,
)
from repozero.sandbox.workspace import Workspace, default_root, reap_stale

__all__ = ["LocalBackend", "LocalSandbox"]

log = get_logger(__name__)


class LocalBackend(BackendDefaults):
    """Opens local sandboxes; one per process is enough (it only holds settings and caches)."""

    name = "local"

    def __init__(self, config: SandboxConfig | None = None) -> None:
        self.config = config or SandboxConfig()
        self._reaped = False
        self._toolchains: dict[str, Path] = {}

    def open(self, spec: SandboxSpec) -> LocalSandbox:
        return LocalSandbox(self, spec)

    def toolchain_versions(self) -> dict[str, str]:
        return toolchain_versions()

    async def planned_workdir(self, spec: SandboxSpec) -> str | None:
        """The work dir a sandbox of `spec` will have, known before it opens (None: only once open — without
        namespaces it is the sandbox's own host dir)."""
        return IN_WORK if (await self.isolation()).namespaces else None

    async def isolation(self) -> Isolation:
        """What this host allows (probed once per process; a degraded result is logged once)."""
        return await detect_isolation(self.config.local_isolation)

    async def prewarm(self, spec: SandboxSpec) -> None:
        """The first open's one-time work — probing the host's isolation, reaping a crashed run's leftovers,
        resolving the toolchain (tens of milliseconds each, spawns included) — done before episodes start,
        where every episode's first step would otherwise wait for it."""
        await self._prepare(spec)

    async def _prepare(self, spec: SandboxSpec) -> tuple[Isolation, Path]:
        iso = await self.isolation()
        if self.config.local_isolation == "bwrap" and not iso.namespaces:
            raise SandboxError(f"sandbox.local_isolation = 'bwrap' but {'; '.join(iso.missing)}")
        if iso.namespaces and self.config.local_launcher:
            launcher()  # started now, not at the first sandbox's first process
        if not self._reaped:
            self._reaped = True
            await reap_stale(Path(self.config.local_root) if self.config.local_root else default_root(), iso)
        known = self._toolchains.get(spec.toolchain)
        if known is None or toolchain_problem(known):  # first use, or it went under us: build it again
            if known is not None:
                log.warning("toolchain_rebuilt", toolchain=spec.toolchain, problem=toolchain_problem(known))
            root = Path(self.config.toolchain_dir) if self.config.toolchain_dir else default_toolchain_root()
            self._toolchains[spec.toolchain] = build_toolchain(spec.toolchain, root)
            if iso.cgroup_memory:  # its pages charged to us, not to the first sandbox to run it
                preload_programs(self._toolchains[spec.toolchain])
        return iso, self._toolchains[spec.toolchain]


class LocalSandbox:
    """One local sandbox: a work dir at `workdir`, a persistent shell, and processes it may start."""

    def __init__(self, backend: LocalBackend, spec: SandboxSpec) -> None:
        self.backend, self.spec, self.config = backend, spec, backend.config
        self.id = ""
        self.workdir = ""
        self._ws: Workspace | None = None
        self._iso: Isolation | None = None
        self._shell: ShellSession | None = None
        self._procs: set[LocalProcess] = set()
        self._oom_seen = 0
        """The memory group's OOM kills when last read (a new group has none)."""

    # --- lifecycle ------------------------------------------------------------------------------------
    async def __aenter__(self) -> LocalSandbox:
        iso, toolchain = await self.backend._prepare(self.spec)
        self._iso = iso
        self._ws = await Workspace.create(iso, self.config, self.spec, toolchain)
        self.id = self._ws.id
        self.workdir = self._ws.view.workdir if self._ws.view else ""
        kill = self._kill_strays if iso.namespaces else None
        self._shell = ShellSession(self._start_shell, kill_strays=kill)
        log.debug("sandbox_opened", sandbox=self.id, backend="local", toolchain=self.spec.toolchain)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Kill everything the sandbox started and remove its files (shielded from cancellation)."""
        with anyio.CancelScope(shield=True):
            if self._shell is not None:
                await self._shell.aclose()
            for proc in list(self._procs):
                await proc.aclose()
            self._procs.clear()
            if self._ws is not None:
                ws, self._ws = self._ws, None
                await ws.destroy()
                log.debug("sandbox_closed", sandbox=self.id)

    def _need(self) -> tuple[Workspace, Isolation]:
        if self._ws is None or self._iso is None or self._ws.view is None:
            raise SandboxError("the sandbox is not open (use `async with backend.open(spec) as sandbox`)")
        return self._ws, self._iso

    def cpu_s(self) -> float | None:
        """CPU seconds its processes used so far (its `cpuacct` group; None where the host has none)."""
        ws = self._ws
        return ws.cgroups.cpu_s() if ws is not None and ws.cgroups is not None else None

    # --- processes ------------------------------------------------------------------------------------
    def _cwd(self, cwd: str | None) -> str:
        return posixpath.normpath(posixpath.join(self.workdir, cwd)) if cwd else self.workdir

    async def _spawn(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None,
        env: Mapping[str, str] | None,
        stdin: int,
        stderr: int,
        stdout: int = subprocess.PIPE,
    ) -> anyio.abc.Process:
        ws, iso = self._need()
        if isinstance(argv, str) or not argv:
            raise SandboxError("argv must be a non-empty list of strings")
        full_env = {**base_env(iso, ws.layout), **(env or {})}
        where = self._cwd(cwd)
        host_cwd = str(ws.root) if iso.namespaces else where
        starter = launcher() if iso.namespaces and self.config.local_launcher else None
        if starter is not None:
            prelude, rest = launch_plan(iso, ws.layout, self.spec, list(argv), where)
            try:
                return await starter.spawn(
                    prelude, rest, stdin=stdin, stdout=stdout, stderr=stderr,
                    cwd=host_cwd, env=full_env, start_new_session=True,
                )  # fmt: skip
            except LauncherGone as exc:
                log.warning("sandbox_launcher_lost", error=str(exc))  # the exec chain below instead
            except OSError as exc:
                raise SandboxError(f"cannot start a sandboxed process: {exc.strerror or exc}") from exc
        chain = launch_argv(iso, ws.layout, self.spec, list(argv), where)
        try:
            return await spawn.open_process(
                chain, stdin=stdin, stdout=stdout, stderr=stderr,
                cwd=host_cwd, env=full_env, start_new_session=True,
            )  # fmt: skip
        except OSError as exc:
            raise SandboxError(f"cannot start a sandboxed process: {exc}") from exc

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
        _, iso = self._need()
        argv = ["sh", "-c", cmd] if isinstance(cmd, str) else list(cmd)
        oom_before = self._oom_count()
        stdin_mode = subprocess.PIPE if stdin is not None else subprocess.DEVNULL

        async def spawn(stdout: int, stderr: int) -> anyio.abc.Process:
            return await self._spawn(argv, cwd=cwd, env=env, stdin=stdin_mode, stdout=stdout, stderr=stderr)

        got = await collect(
            spawn, stdin=stdin, cap=output_cap, deadline=deadline_after(timeout_s), namespaced=iso.namespaces
        )
        stderr = got.stderr.value()
        if got.exit_code != 0:
            self._check_toolchain()
        oom = not got.timed_out and (
            self._oom_count() > oom_before or batch.looks_oom(got.exit_code, stderr, got.timed_out)
        )
        return ExecResult(
            stdout=got.stdout.value(), stderr=stderr, exit_code=got.exit_code, wall_s=got.wall_s,
            timed_out=got.timed_out, truncated=got.stdout.truncated or got.stderr.truncated, oom=oom,
        )  # fmt: skip

    async def open_process(
        self, argv: Sequence[str], *, cwd: str | None = None, env: Mapping[str, str] | None = None
    ) -> SandboxProcess:
        """A long-running process with stdin/stdout pipes; its stderr goes to a log (`stderr_tail()`)."""
        ws, _ = self._need()
        log_path = ws.logs / f"proc-{secrets.token_hex(4)}.stderr"
        stderr = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        try:
            proc = await self._spawn(argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stderr=stderr)
        finally:
            os.close(stderr)
        handle = LocalProcess(proc, log_path, namespaced=self._iso.namespaces if self._iso else False)
        self._procs = {p for p in self._procs if p.returncode is None}
        self._procs.add(handle)
        return handle

    async def _start_shell(self, argv: Sequence[str]) -> SandboxProcess:
        return await self.open_process(argv)

    async def _kill_strays(self, proc: SandboxProcess) -> None:
        if isinstance(proc, LocalProcess):
            kill_namespace_strays(proc.pid)

    async def shell(
        self, command: str, *, timeout_s: float | None = None, output_cap: int = DEFAULT_OUTPUT_CAP
    ) -> ExecResult:
        self._need()
        assert self._shell is not None
        result = await self._shell.run(command, timeout_s=timeout_s, output_cap=output_cap)
        if result.exit_code != 0:
            self._check_toolchain()
        if result.exit_code == 137 and not result.timed_out:
            seen = self._oom_seen
            if self._oom_count() > seen:  # the SIGKILL was the memory group's
                result = msgspec.structs.replace(result, oom=True)
        return result

    def _oom_count(self) -> int:
        """The memory group's OOM kills so far, remembered: a shell command read as SIGKILLed (137) was
        the group's doing when the count rose since the last read. Read around an exec and after a 137
        only — a few file reads, not on every step."""
        if self._ws is not None and self._ws.cgroups is not None:
            self._oom_seen = max(self._ws.cgroups.oom_kills(), self._oom_seen)
        return self._oom_seen

    def environment_problem(self) -> str:
        """What this sandbox's toolchain lacks ("" when whole): a long-lived holder (the Oracle's sandbox per
        environment) opens a new sandbox instead of failing in this one for the rest of the run."""
        return toolchain_problem(Path(self._ws.layout.toolchain)) if self._ws is not None else ""

    def _check_toolchain(self) -> None:
        """A SandboxError (infrastructure: retried, never scored) when the toolchain this sandbox runs went
        under it: a command that failed because `/usr/bin/node` or `wc` is missing did not fail on its own.
        Told on the host from the toolchain dir itself, so nothing a command prints can fake it."""
        problem = self.environment_problem()
        if problem:
            log.warning("sandbox_toolchain_gone", sandbox=self.id, problem=problem)
            raise SandboxError(f"the sandbox's toolchain went while it ran: {problem}")

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
        self._need()
        if not cases:
            return []
        jobs = batch.case_jobs(self.config.case_parallelism, len(os.sched_getaffinity(0)))

        async def run_batch(todo: Sequence[CaseInput], jobs: int, stops: batch.BatchStops) -> list[CaseRun]:
            packed = batch.pack_batch(entry, todo)
            extra = len(packed) + jobs * (output_cap + self.config.stderr_cap)
            with self._case_memory(memory_mb, jobs, extra):
                return await self._run_batch(packed, todo, timeout_s, output_cap, self._cwd(cwd), jobs, stops)

        stops = batch.BatchStops(timeouts=stop_after_timeouts, crashes=stop_after_crashes)
        return await batch.rerun_oom_alone(run_batch, cases, jobs=jobs, stops=stops)

    @contextlib.contextmanager
    def _case_memory(self, memory_mb: int, jobs: int, extra: int) -> Iterator[None]:
        """The sandbox's memory group lowered to what it holds plus `memory_mb` per running case while a
        batch runs (`batch.case_memory_limit`), its own limit back after. Without a memory group (plain
        processes) there is no cap to lower: the cases run under the sandbox's rlimits only."""
        groups = self._ws.cgroups if self._ws is not None else None
        if memory_mb <= 0 or groups is None:
            yield
            return
        ceiling = groups.memory_limit()
        limit = batch.case_memory_limit(groups.held_bytes(), memory_mb, jobs, extra, ceiling)
        try:
            groups.set_memory_limit(limit)
        except OSError as exc:  # it held more than it could give back: grade under the sandbox's own cap
            log.warning("case_memory_not_set", sandbox=self.id, limit=limit, error=str(exc))
        try:
            yield
        finally:
            groups.set_memory_limit(ceiling)

    async def _run_batch(
        self, packed: bytes, cases: Sequence[CaseInput], timeout_s: float, output_cap: int, cwd: str,
        jobs: int, stops: batch.BatchStops,
    ) -> list[CaseRun]:  # fmt: skip
        """One exec of the batch driver; a local sandbox has no CPU quota of its own (the host's CPUs are)."""
        _, iso = self._need()
        cfg = self.config
        argv = batch.driver_argv(
            timeout_s=timeout_s, output_cap=output_cap, stderr_cap=cfg.stderr_cap,
            kill_after_s=cfg.case_kill_after_s, cwd=cwd, kill_strays=iso.namespaces or iso.privileged,
            jobs=jobs, stops=stops,
        )  # fmt: skip
        oom_before = self._oom_count()
        result = await self.exec(
            argv, stdin=packed,
            timeout_s=batch.backstop_s(len(cases), timeout_s, cfg.case_kill_after_s),
            output_cap=batch.stdout_budget(len(cases), output_cap, cfg.stderr_cap),
        )  # fmt: skip
        oom_killed = self._oom_count() > oom_before
        self._check_toolchain()  # a case that could not start for want of its tools is no case at all
        return batch.parse_records(
            result, cases, timeout_s=timeout_s, output_cap=output_cap, stderr_cap=cfg.stderr_cap,
            oom_killed=oom_killed,
        )  # fmt: skip

    # --- files ----------------------------------------------------------------------------------------
    async def write_file(self, path: str, data: bytes, *, mode: int = 0o644) -> None:
        ws, _ = self._need()
        assert ws.view is not None
        ws.view.write_file(path, data, mode=mode)

    async def read_file(self, path: str, *, max_bytes: int | None = None) -> bytes:
        ws, _ = self._need()
        assert ws.view is not None
        return ws.view.read_file(path, max_bytes=max_bytes)

    async def put_tree(self, src: Path, dest: str) -> None:
        """Copy a host folder in, in a worker thread: a big tree would hold the event loop."""
        ws, _ = self._need()
        assert ws.view is not None
        await anyio.to_thread.run_sync(ws.view.put_tree, Path(src), dest)

    async def get_tree(self, src: str, dest: Path) -> None:
        """Copy a sandbox folder out, in a worker thread: a big tree would hold the event loop."""
        ws, _ = self._need()
        assert ws.view is not None
        await anyio.to_thread.run_sync(ws.view.get_tree, src, Path(dest))

    async def copy_workspace_to(self, dests: Sequence[LocalSandbox]) -> None:
        """Fork: copy this work dir into each of `dests`' (sandbox/fork.py), tmpfs to tmpfs on the host, no
        folder between; each copy owned by its sandbox's uid, symlinks copied as symlinks. Called at a
        round boundary, while this sandbox's agent is idle."""
        ws, _ = self._need()
        assert ws.view is not None
        src = ws.view.host_path(self.workdir)
        for dest in dests:
            theirs, _ = dest._need()
            assert theirs.view is not None
            await anyio.to_thread.run_sync(theirs.view.put_tree, src, dest.workdir)
