"""The one `Sandbox` contract every backend implements and every caller depends on (docs/sandbox.md).

Time limits are the caller's: wrap a call in `anyio.fail_after(...)` (or any cancel scope with a deadline);
the backend reads `anyio.current_effective_deadline()` and enforces the same deadline inside the sandbox,
so a command that outlives it is killed there with everything it started — and the call returns an
`ExecResult` with `timed_out=True` instead of raising, when the deadline was the sandbox's own
`timeout_s` argument. Cancellation from outside still cancels.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol, Self, runtime_checkable

from repozero.kernel.records import Record

__all__ = [
    "DEFAULT_OUTPUT_CAP",
    "AgentSandbox",
    "BackendDefaults",
    "CaseInput",
    "CaseRun",
    "ExecResult",
    "GradingSandbox",
    "ProcessSandbox",
    "Sandbox",
    "SandboxBackend",
    "SandboxProcess",
    "SandboxSpec",
]

DEFAULT_OUTPUT_CAP = 1 << 20


class ExecResult(Record, kw_only=True):
    """What one command did. Outcomes are data: a failing command is not an exception."""

    stdout: bytes
    stderr: bytes
    exit_code: int
    """The command's exit status; death by signal N is 128+N (as a shell reports it). For a command that
    ran out of time it is whatever the kill left (124 from `timeout`, 137 for SIGKILL): read `timed_out`."""
    wall_s: float
    timed_out: bool = False
    truncated: bool = False
    """stdout or stderr went past the output cap and was cut (the cut is marked in the bytes)."""
    oom: bool = False
    """Killed for memory, where the backend can tell."""
    restarted: bool = False
    """The persistent shell had to be restarted (its cwd and env are back to the defaults)."""


class CaseInput(Record, kw_only=True):
    """One case as the batch driver runs it: argv appended to the entry point, stdin bytes or /dev/null."""

    id: str
    argv: list[str]
    stdin: bytes | None = None


class CaseRun(Record, kw_only=True):
    """One case's run inside the sandbox under the case-execution contract (docs/oracle.md)."""

    id: str
    stdout: bytes
    stderr: bytes
    exit_code: int
    wall_s: float
    timed_out: bool = False
    truncated: bool = False
    oom: bool = False
    not_run: bool = False
    """The driver never ran it, or dropped its record: the batch stopped after consecutive timeouts."""


class SandboxSpec(Record, kw_only=True):
    """What to open: which toolchain image, limits, and labels for reaping.

    `toolchain` names an image/toolchain set: "node" (JavaScript targets), "rust", "python-source" (the
    Oracle's source side). Target sandboxes never hold a source interpreter.
    """

    toolchain: str = "node"
    run_id: str = "adhoc"
    sample: str = ""
    role: str = "agent"
    network: bool = False
    memory_mb: int = 2048
    pids: int = 256
    cpu_time_s: int = 600
    file_size_mb: int = 256
    open_files: int = 1024
    tmpfs_mb: int = 512
    path_dirs: list[str] = []
    """Host dirs put first on PATH and exposed read-only at the same path (e.g. a venv's `bin` for the
    Oracle's `python-source` sandboxes). Never used for target sandboxes. Like `ro_paths`, they keep
    their modes: the sandbox's unprivileged user must be able to read them (o+rx)."""
    ro_paths: list[str] = []
    """More host paths exposed read-only at the same path (a venv, a dataset's program folder)."""


@runtime_checkable
class SandboxProcess(Protocol):
    """A long-running process inside a sandbox with byte pipes (fork servers, the persistent shell)."""

    async def send(self, data: bytes) -> None:
        """Write to stdin; a process that is gone raises `anyio.BrokenResourceError` (or `SandboxError`)."""
        ...

    async def receive(self, max_bytes: int = 65536) -> bytes:
        """Next chunk of stdout; b"" at end of stream."""
        ...

    async def kill(self) -> None: ...

    async def wait(self) -> int: ...

    async def aclose(self) -> None: ...


class _Opened(Protocol):
    """What every sandbox is: a place opened with `async with`, closed under a shielded scope."""

    @property
    def id(self) -> str: ...

    @property
    def workdir(self) -> str:
        """Absolute path, inside the sandbox, of the work directory (the target repository root)."""
        ...

    async def close(self) -> None: ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(self, *exc: object) -> None: ...


class _Runs(Protocol):
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
        """Run one command (argv list, or a string for `sh -c`) in a fresh process."""
        ...

    async def put_tree(self, src: Path, dest: str) -> None:
        """Copy a host folder into the sandbox at `dest` (relative paths are under `workdir`)."""
        ...


class _Writes(Protocol):
    async def write_file(self, path: str, data: bytes, *, mode: int = 0o644) -> None: ...


class _Reads(Protocol):
    async def read_file(self, path: str, *, max_bytes: int | None = None) -> bytes: ...


class AgentSandbox(_Opened, _Writes, _Reads, Protocol):
    """What an agent uses: its shell and its files."""

    async def shell(
        self, command: str, *, timeout_s: float | None = None, output_cap: int = DEFAULT_OUTPUT_CAP
    ) -> ExecResult:
        """Run a command in the persistent shell session: cwd and env persist between calls."""
        ...


class GradingSandbox(_Opened, _Runs, _Reads, Protocol):
    """What the grader uses: a target tree put in (built with `exec`, the binary read back), then its cases
    run in one batch."""

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
        """Run every case through the in-sandbox batch driver: one round trip for the whole batch.

        Cases may run concurrently (up to the sandbox's CPU quota); the runs are those of a one-at-a-time
        run in case order. `stop_after_timeouts` K > 0: once K consecutive cases (in case order) timed
        out, every later case comes back `not_run`; `stop_after_crashes` the same after K consecutive
        deaths by one signal. `memory_mb` > 0: while the batch runs, the sandbox's memory cap is what it
        holds plus this much per running case (a runaway case dies of `oom` at once, not at the sandbox's
        whole cap); where the backend has no memory group to lower, only the sandbox's own cap applies.
        """
        ...


class ProcessSandbox(_Opened, _Runs, _Writes, _Reads, Protocol):
    """What the Oracle uses: its program put in (a compiled one read back), and long-running fork servers."""

    async def open_process(
        self, argv: Sequence[str], *, cwd: str | None = None, env: Mapping[str, str] | None = None
    ) -> SandboxProcess:
        """A long-running process (a fork server) with stdin/stdout pipes; it dies with the sandbox.

        Its stderr is not a pipe of the protocol: the local backend keeps it in a log on the sandbox's
        tmpfs (`LocalProcess.stderr_tail()`).
        """
        ...


@runtime_checkable
class Sandbox(AgentSandbox, GradingSandbox, ProcessSandbox, Protocol):
    """An isolated place to run code: every role's calls, what a backend opens. Callers that play one role
    depend on that role's contract (`AgentSandbox`, `GradingSandbox`, `ProcessSandbox`)."""

    async def get_tree(self, src: str, dest: Path) -> None:
        """Copy a sandbox folder out to the host."""
        ...


class SandboxBackend(Protocol):
    """Opens sandboxes of one kind ("local", "docker"); `sandbox/backends.py` picks one by name."""

    name: str

    def open(self, spec: SandboxSpec) -> Sandbox:
        """A sandbox to enter with `async with` (starting happens in `__aenter__`)."""
        ...

    def toolchain_versions(self) -> dict[str, str]:
        """Pinned toolchain versions, recorded wherever results are recorded."""
        ...

    # -- capabilities: every backend has them (`BackendDefaults` does nothing); callers never probe ------------
    @property
    def leaked(self) -> Sequence[object]:
        """Sandboxes found still running when the backend closed (reaped then)."""
        ...

    @property
    def warm_pool(self) -> bool:
        """`prewarm` fills a pool worth filling before a run (Docker's warm containers)."""
        ...

    async def planned_workdir(self, spec: SandboxSpec) -> str | None:
        """The work dir a sandbox of `spec` will have, when known before it opens (None: only once open)."""
        ...

    async def prewarm(self, spec: SandboxSpec) -> None:
        """Make sandboxes of `spec` ready before the first is asked for (a warm pool)."""
        ...

    def gauges(self) -> Mapping[str, object]:
        """Limiters the backend owns, by name, for the progress display (borrowed/total)."""
        ...


class BackendDefaults:
    """The capabilities of `SandboxBackend` for a backend that has none of them: no-ops."""

    leaked: Sequence[object] = ()
    warm_pool: bool = False

    async def planned_workdir(self, spec: SandboxSpec) -> str | None:
        return None

    async def prewarm(self, spec: SandboxSpec) -> None:
        return None

    def gauges(self) -> Mapping[str, object]:
        return {}
