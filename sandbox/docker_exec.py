"""One attached `docker exec` as a `SandboxProcess`: bytes in on stdin, stdout out, stderr kept apart.

Every process starts through `drivers/docker_exec.sh`, which reports its pid and start time first, so the
container's supervisor can end the whole tree later — grandchildren in their own session included.
"""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import aiodocker
import anyio

from repozero.kernel.errors import SandboxError
from repozero.kernel.log import get_logger
from repozero.sandbox.base import DEFAULT_OUTPUT_CAP, ExecResult
from repozero.sandbox.capture import cut_marker
from repozero.sandbox.docker_client import DockerClient, docker_errors, transient_daemon_error

__all__ = ["WRAPPER", "DockerExecProcess", "effective_timeout", "run_command"]

_START_ATTEMPTS = 3
EXEC_START_ATTEMPTS = 4
"""An exec whose create or start the daemon refused for a passing reason of its own (`transient_daemon_error`:
its runtime or containerd busy) is tried this often, waiting `EXEC_BACKOFF_S` × 2^k between tries (0.5 + 1 +
2 s at most), as a container start is; then the SandboxError goes up (the episode's infra error)."""
EXEC_BACKOFF_S = 0.5


class WrapperDidNotStart(SandboxError):
    """The in-container wrapper ended before its header: usually transient (memory not yet released)."""


WRAPPER = (Path(__file__).parent / "drivers" / "docker_exec.sh").read_text()
HOST_GRACE_S = 0.25
"""Host-side backstop: past `timeout + kill_after` the host has the supervisor end the command's tree."""
BACKSTOP_S = 5.0
"""How long the host waits for a killed command's stream to end before giving up on it."""
KILLED_EXIT = 137
DRAIN_CAP = 64 << 20
_HEADER = b"RZPID "
_TRAILER = b"\nRZEXIT "

log = get_logger(__name__)

Killer = Callable[[int, int], Awaitable[None]]
"""Ends the tree of (pid, start ticks) inside the container (the supervisor's `kill`)."""


def _seconds(value: float) -> str:
    return f"{max(value, 0.001):.3f}"


def effective_timeout(timeout_s: float | None) -> float | None:
    """The tighter of `timeout_s` and the caller's cancel-scope deadline (None: no limit at all)."""
    deadline = anyio.current_effective_deadline()
    remaining = deadline - anyio.current_time() if math.isfinite(deadline) else None
    limits = [t for t in (timeout_s, remaining) if t is not None]
    return max(min(limits), 0.001) if limits else None


class DockerExecProcess:
    """A process inside a container over one attached exec (one connection held while it lives)."""

    def __init__(
        self, exec_: Any, stream: Any, *, killer: Killer | None, stderr_cap: int, report_exit: bool = False
    ) -> None:
        self._exec = exec_
        self._reports_exit = killer is not None and report_exit
        self._stream = stream
        self._killer = killer
        self._stderr_cap = stderr_cap
        self._pending = bytearray()
        self._header = bytearray() if killer is not None else None
        self._eof = False
        self._closed = False
        self._exit: int | None = None
        self.pid = 0
        self.start_ticks = 0
        self.stderr = bytearray()
        self.stderr_truncated = False
        self._stderr_tail = b""
        """The last bytes of stderr, kept past the cap: the wrapper's exit-status trailer is there."""

    @classmethod
    async def start(
        cls,
        client: DockerClient,
        container_id: str,
        argv: Sequence[str],
        *,
        user: str,
        cwd: str = "/",
        env: Mapping[str, str] | None = None,
        stdin: bool = True,
        timeout_s: float | None = None,
        kill_after_s: float = 2.0,
        killer: Killer | None,
        stderr_cap: int = DEFAULT_OUTPUT_CAP,
        report_exit: bool = False,
    ) -> DockerExecProcess:
        """Start `argv` (through the wrapper when a `killer` is given: it needs the pid it reports).

        `report_exit`: the wrapper stays the parent and says the exit status on stderr (a command run to
        completion); without it the wrapper becomes the process (long-lived ones: the reported pid is theirs)."""
        if killer is not None:
            limit = _seconds(timeout_s) if timeout_s is not None else "0"
            report = "1" if report_exit else "0"
            argv = ["/bin/sh", "-c", WRAPPER, "rz", cwd, limit, _seconds(kill_after_s), report, *argv]
        attempt = 1
        while True:
            try:
                exec_, stream = await _open_exec(client, container_id, argv, stdin, user, env)
                break
            except SandboxError as exc:
                if attempt >= EXEC_START_ATTEMPTS or not transient_daemon_error(str(exc)):
                    if attempt > 1:
                        raise SandboxError(f"{exc} (after {attempt} attempts)") from exc
                    raise
                wait_s = EXEC_BACKOFF_S * 2 ** (attempt - 1)
                log.warning(
                    "docker_exec_start_retry", container=container_id[:12], attempt=attempt, wait_s=wait_s,
                    error=str(exc),
                )  # fmt: skip
                await anyio.sleep(wait_s)
                attempt += 1
        proc = cls(exec_, stream, killer=killer, stderr_cap=stderr_cap, report_exit=report_exit)
        try:
            if killer is not None:
                await proc._read_header()
        except BaseException:
            with anyio.CancelScope(shield=True):
                await proc.aclose()
            raise
        return proc

    async def _read_message(self) -> None:
        with docker_errors("exec stream"):
            message = await self._stream.read_out()
        if message is None:
            self._eof = True
        elif message.stream == 2:
            self._on_stderr(message.data)
        elif len(self._pending) < DRAIN_CAP:
            self._pending += message.data

    def _on_stderr(self, data: bytes) -> None:
        if self._header is not None:
            self._header += data
            line, newline, rest = bytes(self._header).partition(b"\n")
            if not newline:
                return
            self._header = None
            fields = line.removeprefix(_HEADER).split()
            if not line.startswith(_HEADER) or len(fields) != 2:
                raise SandboxError(f"docker exec: bad wrapper header {line[:80]!r}")
            self.pid, self.start_ticks = int(fields[0]), int(fields[1])
            data = rest
        self._stderr_tail = (self._stderr_tail + data)[-64:]
        room = self._stderr_cap - len(self.stderr)
        if len(data) > room:
            self.stderr_truncated = True
        self.stderr += data[: max(room, 0)]

    async def _read_header(self) -> None:
        while self._header is not None and not self._eof:
            await self._read_message()
        if self._header is not None:
            detail = bytes(self._header + self.stderr).decode(errors="replace")[-500:]
            raise WrapperDidNotStart(f"docker exec: the process wrapper did not start: {detail}")

    def _transport(self) -> Any:
        """The attached connection's transport, or None once it is closed (aiodocker's Stream hides it)."""
        response = getattr(self._stream, "_resp", None)
        connection = response.connection if response is not None else None
        transport = connection.transport if connection is not None else None
        return None if transport is None or transport.is_closing() else transport

    async def send(self, data: bytes) -> None:
        if self._transport() is None:
            raise SandboxError("docker exec: cannot write to the process: it has exited")
        try:
            await self._stream.write_in(data)
        except (aiodocker.DockerError, OSError, RuntimeError) as exc:
            raise SandboxError(f"docker exec: cannot write to the process (it has exited?): {exc}") from exc

    async def close_stdin(self) -> None:
        """Send end-of-file on the process's stdin (the read side stays open)."""
        transport = self._transport()  # aiodocker's Stream has no half-close of its own
        if transport is not None and transport.can_write_eof():
            transport.write_eof()

    async def receive(self, max_bytes: int = 65536) -> bytes:
        while not self._pending and not self._eof:
            await self._read_message()
        chunk = bytes(self._pending[:max_bytes])
        del self._pending[:max_bytes]
        return chunk

    async def wait(self) -> int:
        """Wait for the exit (draining output, still readable with `receive`); 128+N for death by signal N."""
        while not self._eof:
            await self._read_message()
        return await self._exit_code()

    def _reported_exit(self) -> int | None:
        """The wrapper's "RZEXIT N" trailer when it is the last thing on stderr (removed from `stderr`)."""
        if not self._reports_exit:
            return None
        at = self._stderr_tail.rfind(_TRAILER)
        status = self._stderr_tail[at + len(_TRAILER) :] if at >= 0 else b""
        if not (status.endswith(b"\n") and status[:-1].isdigit()):
            return None  # killed before it could say, or something wrote after it: ask the daemon
        trailer = self._stderr_tail[at:]
        if not self.stderr_truncated and self.stderr.endswith(trailer):
            del self.stderr[-len(trailer) :]
        return int(status[:-1])

    async def _exit_code(self) -> int:
        if self._exit is None:
            self._exit = self._reported_exit()
        if self._exit is None:
            for _ in range(400):
                with docker_errors("exec inspect"):
                    info = await self._exec.inspect()
                if not info.get("Running") and info.get("ExitCode") is not None:
                    self._exit = int(info["ExitCode"])
                    break
                await anyio.sleep(0.005)
            else:
                raise SandboxError("docker exec: the process closed its output but did not exit")
        return self._exit

    async def kill(self) -> None:
        """End the process and everything it started (grandchildren in their own session too)."""
        if self._killer is None:
            raise SandboxError(
                "docker exec: this process was started without the wrapper; it cannot be killed"
            )
        await self._killer(self.pid, self.start_ticks)
        with anyio.move_on_after(BACKSTOP_S):
            while not self._eof:
                await self._read_message()

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        with anyio.CancelScope(shield=True):
            try:
                if not self._eof and self._killer is not None and self.pid:
                    with anyio.move_on_after(BACKSTOP_S):
                        await self._killer(self.pid, self.start_ticks)
            finally:
                await self._stream.close()


async def _open_exec(
    client: DockerClient,
    container_id: str,
    argv: Sequence[str],
    stdin: bool,
    user: str,
    env: Mapping[str, str] | None,
) -> tuple[Any, Any]:
    """Create an exec and attach to it (which starts its process): the two calls a busy daemon refuses."""
    container = client.docker.containers.container(container_id)
    async with client.api:
        with docker_errors("exec create"):
            exec_ = await container.exec(list(argv), stdin=stdin, user=user, environment=dict(env or {}))
    stream = exec_.start(detach=False)
    try:
        with docker_errors("exec start"):
            await stream.__aenter__()
    except BaseException:
        with anyio.CancelScope(shield=True):
            await stream.close()
        raise
    return exec_, stream


async def _feed(proc: DockerExecProcess, data: bytes) -> None:
    try:
        if data:
            await proc.send(data)
        await proc.close_stdin()
    except SandboxError:
        pass  # the command exited without reading all of its stdin: not an error


async def run_command(
    client: DockerClient,
    container_id: str,
    argv: Sequence[str],
    *,
    user: str,
    cwd: str,
    env: Mapping[str, str] | None,
    stdin: bytes | None,
    timeout_s: float | None,
    kill_after_s: float,
    output_cap: int,
    killer: Killer,
) -> ExecResult:
    """Run one command to completion: in-container `timeout -k`, host backstop, capped output, tree killed."""
    started = time.monotonic()
    timeout = effective_timeout(timeout_s)
    for attempt in range(_START_ATTEMPTS):
        try:
            proc = await DockerExecProcess.start(
                client, container_id, argv, user=user, cwd=cwd, env=env, stdin=stdin is not None,
                timeout_s=timeout, kill_after_s=kill_after_s, killer=killer, stderr_cap=output_cap,
                report_exit=True,
            )  # fmt: skip
            break
        except WrapperDidNotStart:
            # seen right after a memory bomb: the container's memory is not yet given back, the wrapper dies
            if attempt + 1 == _START_ATTEMPTS:
                raise
            log.warning("docker_exec_wrapper_retry", container=container_id[:12], attempt=attempt + 1)
            await anyio.sleep(0.5 * (attempt + 1))
    stdout = bytearray()
    truncated = backstopped = False
    try:
        # `timeout -k` inside has ended the command by then; a leftover holding its output is not waited for
        backstop = timeout + kill_after_s + HOST_GRACE_S if timeout is not None else math.inf
        with anyio.move_on_after(backstop) as scope:
            async with anyio.create_task_group() as tg:
                if stdin is not None:
                    tg.start_soon(_feed, proc, stdin)
                while chunk := await proc.receive():
                    stdout += chunk
                    if len(stdout) > output_cap:
                        truncated = True
                        tg.cancel_scope.cancel()
                        break
        backstopped = scope.cancelled_caught
        if truncated or backstopped:
            await proc.kill()
        exit_code = KILLED_EXIT
        with anyio.move_on_after(BACKSTOP_S) as waited:
            exit_code = await proc.wait()
        if waited.cancelled_caught:
            log.warning(
                "sandbox_exec_stream_stuck", container=container_id[:12], argv0=argv[0] if argv else ""
            )
            if not (truncated or backstopped):
                # the command ended on its own but a busy daemon never told us how: its exit status is
                # unknown, not a crash — the machine's failure (infra, retried), never the program's
                raise SandboxError(f"docker exec: no exit status from the daemon within {BACKSTOP_S:.0f} s")
        wall = time.monotonic() - started
        timed_out = backstopped or (
            timeout is not None and exit_code in (124, 137) and wall >= timeout - 0.01 and not truncated
        )
        if timed_out and not backstopped:
            await proc.kill()  # `timeout` ended its process group; orphans in their own session may remain
    finally:
        await proc.aclose()
    if truncated:
        stdout = stdout[:output_cap] + cut_marker(output_cap)
    stderr = bytes(proc.stderr) + (cut_marker(len(proc.stderr)) if proc.stderr_truncated else b"")
    return ExecResult(
        stdout=bytes(stdout), stderr=stderr, exit_code=exit_code, wall_s=time.monotonic() - started,
        timed_out=timed_out, truncated=truncated or proc.stderr_truncated,
    )  # fmt: skip
