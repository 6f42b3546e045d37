"""A persistent bash session over any `SandboxProcess`: agent commands in milliseconds, cwd and env kept.

Protocol: bash runs a small loop (`SHELL_LOOP`) that reads one command terminated by a NUL byte (commands
never contain NUL), evals it with stdin from /dev/null and stderr merged into stdout, then prints
`\\n<sentinel> <exit code>\\n`. The sentinel is random per session. A command that outlives its deadline is
killed with everything it started: the backend's `kill_strays` hook kills the session's other processes
(the local backend: every process in the shell's PID namespace but the shell); if the shell itself does not
answer (a builtin loop, a `exec >file`), or there is no hook, the session is restarted and the result says
`restarted=True` (cwd and env are back to the defaults then). Background jobs are disowned after every
command, so bash's "Killed" notice for one killed at a deadline never lands in a later command's output
(the price: `wait %1` / `jobs` do not reach across commands).
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence

import anyio
import msgspec

from repozero.kernel.errors import SandboxError
from repozero.sandbox.base import DEFAULT_OUTPUT_CAP, ExecResult, SandboxProcess
from repozero.sandbox.capture import HeadTailCapture

__all__ = ["SHELL_LOOP", "ShellSession", "shell_argv"]

SHELL_LOOP = r"""
__rz_s=$1
shift
exec 2>&1
while IFS= read -r -d '' __rz_c; do
  eval "$__rz_c" </dev/null
  __rz_rc=$?
  disown -a 2>/dev/null
  printf '\n%s %d\n' "$__rz_s" "$__rz_rc"
done
"""

KILLED_EXIT = 137
"""Exit code reported for a command killed at its deadline when the shell could not say (128 + SIGKILL)."""

_GONE = (anyio.BrokenResourceError, anyio.ClosedResourceError, BrokenPipeError, SandboxError)
StartFn = Callable[[Sequence[str]], Awaitable[SandboxProcess]]
KillStraysFn = Callable[[SandboxProcess], Awaitable[None]]


def shell_argv(sentinel: str, shell: str = "bash") -> list[str]:
    """The argv that starts a session (bash from the sandbox's PATH, no rc files)."""
    return [shell, "--noprofile", "--norc", "-c", SHELL_LOOP, "repozero-shell", sentinel]


class _Framer:
    """Splits the session's stdout into the command's output and the sentinel line with its exit code."""

    def __init__(self, sentinel: str, capture: HeadTailCapture) -> None:
        self.marker = b"\n" + sentinel.encode() + b" "
        self.capture = capture
        self._pending = b""
        self.exit_code: int | None = None

    def feed(self, chunk: bytes) -> bool:
        """Take a chunk; True once the sentinel line is complete."""
        buf = self._pending + chunk
        at = buf.find(self.marker)
        if at < 0:
            keep = len(self.marker) - 1
            self.capture.feed(buf[: len(buf) - keep] if len(buf) > keep else b"")
            self._pending = buf[-keep:] if len(buf) > keep else buf
            return False
        self.capture.feed(buf[:at])
        rest = buf[at + len(self.marker) :]
        end = rest.find(b"\n")
        if end < 0:
            self._pending = buf[at:]
            return False
        self.exit_code = int(rest[:end] or b"0")
        return True

    def flush(self) -> None:
        """End of stream without a sentinel: what was held back is output too."""
        self.capture.feed(self._pending)
        self._pending = b""


class ShellSession:
    """One persistent shell; `run` one command at a time (an internal lock orders callers)."""

    def __init__(
        self, start: StartFn, *, kill_strays: KillStraysFn | None = None, grace_s: float = 0.5
    ) -> None:
        self._start = start
        self._kill_strays = kill_strays
        self.grace_s = grace_s
        self._proc: SandboxProcess | None = None
        self._sentinel = ""
        self._lost = False
        """The previous session died (or was killed) outside `run`: the next result says restarted."""
        self._lock = anyio.Lock(fast_acquire=True)  # uncontended (the usual case): no extra loop turn

    async def _ensure(self) -> SandboxProcess:
        if self._proc is None:
            self._sentinel = "__RZ_" + secrets.token_hex(12) + "__"
            self._proc = await self._start(shell_argv(self._sentinel))
        return self._proc

    async def _discard(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            with anyio.CancelScope(shield=True):
                await proc.aclose()

    async def run(
        self, command: str, *, timeout_s: float | None = None, output_cap: int = DEFAULT_OUTPUT_CAP
    ) -> ExecResult:
        """Run `command` in the session; the deadline is `timeout_s` (a result) or the caller's (raises)."""
        if "\0" in command:
            raise ValueError("a shell command cannot contain a NUL byte")
        async with self._lock:
            restarted, self._lost = self._lost, False
            started = time.monotonic()
            try:
                result = await self._run(command, timeout_s, output_cap, started)
            except BaseException:
                await self._discard()
                self._lost = True
                raise
            restarted, self._lost = restarted or self._lost, False  # `_run` may have found the shell dead
            return result if not restarted else _with(result, restarted=True)

    async def _run(self, command: str, timeout_s: float | None, cap: int, started: float) -> ExecResult:
        proc = await self._ensure()
        framer = _Framer(self._sentinel, HeadTailCapture(cap))
        # the deadline is on anyio's clock (trio's is not `time.monotonic`); `started` only times the result
        deadline = anyio.current_time() + timeout_s if timeout_s is not None else math.inf
        with anyio.CancelScope(deadline=deadline) as scope:
            try:
                await proc.send(command.encode() + b"\0")
            except _GONE:  # the shell died since the last command (killed, or `exit` from a background job)
                await self._discard()
                self._lost = True
                proc = await self._ensure()
                framer = _Framer(self._sentinel, HeadTailCapture(cap))  # the new shell's sentinel
                await proc.send(command.encode() + b"\0")
            done = await _read_frame(proc, framer)
        if scope.cancelled_caught:
            return await self._recover(proc, framer, started)
        if not done:
            framer.flush()
            code = await proc.wait()
            await self._discard()
            return _result(framer, code, started, restarted=await self._restart())
        return _result(framer, framer.exit_code if framer.exit_code is not None else 0, started)

    async def _recover(self, proc: SandboxProcess, framer: _Framer, started: float) -> ExecResult:
        """The command is past its deadline: kill what it started, or the whole session."""
        if self._kill_strays is not None:
            with anyio.move_on_after(self.grace_s):
                await self._kill_strays(proc)
                if await _read_frame(proc, framer):
                    code = KILLED_EXIT if framer.exit_code is None else framer.exit_code
                    return _result(framer, code, started, timed_out=True)
        framer.flush()
        await self._discard()
        return _result(framer, KILLED_EXIT, started, timed_out=True, restarted=await self._restart())

    async def _restart(self) -> bool:
        await self._ensure()
        return True

    async def aclose(self) -> None:
        await self._discard()


async def _read_frame(proc: SandboxProcess, framer: _Framer) -> bool:
    """Read until the sentinel line (True) or end of stream (False)."""
    while True:
        chunk = await proc.receive()
        if not chunk:
            return False
        if framer.feed(chunk):
            return True


def _result(
    framer: _Framer, code: int, started: float, *, timed_out: bool = False, restarted: bool = False
) -> ExecResult:
    capture = framer.capture
    return ExecResult(
        stdout=capture.value(), stderr=b"", exit_code=code, wall_s=time.monotonic() - started,
        timed_out=timed_out, truncated=capture.truncated, restarted=restarted,
    )  # fmt: skip


def _with(result: ExecResult, *, restarted: bool) -> ExecResult:
    return msgspec.structs.replace(result, restarted=restarted)
