"""One fresh interpreter per run, under the same contract: the baseline the fork servers are measured against.

Slow (a Python start-up and every import per run) but obviously faithful, so the benchmark and the tests
use it to check that fork-server runs print the very same bytes.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import anyio
from anyio.abc import ByteReceiveStream

from repozero.oracle.contract import case_env, exit_status
from repozero.oracle.records import ProgramRef, RunResult
from repozero.oracle.source_env import LocalVenvEnvironment
from repozero.sandbox import CaseInput

__all__ = ["run_fresh"]

_DRAIN_GRACE_S = 1.0


async def run_fresh(
    env: LocalVenvEnvironment,
    program: ProgramRef,
    case: CaseInput,
    *,
    timeout_s: float,
    output_cap: int,
    stderr_cap: int,
    clock_shift: str = "",
) -> RunResult:
    """Run one case as `python SCRIPT ARGV...` in a scratch copy of the program folder."""
    scratch = Path(tempfile.mkdtemp(prefix="repozero-exec-"))
    try:
        shutil.copytree(
            program.dir, scratch / "work", symlinks=True, ignore=shutil.ignore_patterns("__pycache__")
        )
        (scratch / "home").mkdir()
        environ = case_env([str(env.python.parent)], str(scratch / "home"))
        if clock_shift:
            environ.update(env.faketime_env(clock_shift))
        return await _run(env, program, case, scratch / "work", environ, timeout_s, output_cap, stderr_cap)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


async def _run(
    env: LocalVenvEnvironment,
    program: ProgramRef,
    case: CaseInput,
    cwd: Path,
    environ: dict[str, str],
    timeout_s: float,
    cap: int,
    stderr_cap: int,
) -> RunResult:
    started = time.monotonic()
    stdin = subprocess.PIPE if case.stdin is not None else subprocess.DEVNULL
    argv = [str(env.python), program.path, *case.argv]
    process = await anyio.open_process(argv, cwd=cwd, env=environ, stdin=stdin, start_new_session=True)
    out, err = bytearray(), bytearray()
    state = {"truncated": False, "exited": False}

    async def read_stdout() -> None:
        assert process.stdout is not None
        if await _drain(process.stdout, out, cap, True):
            state["truncated"] = True
            _kill_group(process.pid)

    try:
        with anyio.move_on_after(timeout_s) as scope:
            async with anyio.create_task_group() as tg:
                if process.stdin is not None:
                    tg.start_soon(_feed, process, case.stdin or b"")
                assert process.stderr is not None
                tg.start_soon(_drain, process.stderr, err, stderr_cap, False)
                tg.start_soon(read_stdout)
                await process.wait()
                state["exited"] = True
                _kill_group(process.pid)  # its own child processes die with it, as in the fork server
                tg.cancel_scope.deadline = min(
                    tg.cancel_scope.deadline, anyio.current_time() + _DRAIN_GRACE_S
                )
        timed_out = scope.cancelled_caught and not state["exited"]
    finally:
        _kill_group(process.pid)
        with anyio.CancelScope(shield=True):
            await process.wait()
            await process.aclose()
    truncated = state["truncated"]
    return RunResult(
        id=case.id,
        stdout=bytes(out[:cap]),
        stderr=bytes(err),
        exit_code=exit_status(process.returncode if process.returncode is not None else -signal.SIGKILL),
        wall_s=time.monotonic() - started,
        timed_out=timed_out,
        truncated=truncated,
    )


async def _feed(process: anyio.abc.Process, data: bytes) -> None:
    assert process.stdin is not None
    try:
        await process.stdin.send(data)
    except (anyio.BrokenResourceError, anyio.ClosedResourceError):
        pass  # the program stopped reading: as with a shell pipe, that is its business
    finally:
        await process.stdin.aclose()


async def _drain(stream: ByteReceiveStream, buffer: bytearray, cap: int, stop_at_cap: bool) -> bool:
    """Read to EOF keeping at most cap (+1) bytes; True if the cap was passed (and reading stopped)."""
    try:
        async for chunk in stream:
            if stop_at_cap:
                buffer += chunk
                if len(buffer) > cap:
                    return True
            elif len(buffer) < cap:
                buffer += chunk[: cap - len(buffer)]
    except (anyio.BrokenResourceError, anyio.ClosedResourceError):
        pass
    return False


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
