"""The host side of the batch driver (`drivers/batch.sh`), shared by every backend.

A backend runs a whole batch as one `exec`: argv from `driver_argv`, stdin from `pack_batch`, and turns
the driver's stdout into one `CaseRun` per case with `parse_records`. The driver text travels in argv
(`sh -c`), so an image needs only sh, coreutils and tar — nothing installed for us.
"""

from __future__ import annotations

import io
import math
import re
import tarfile
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from repozero.kernel.errors import SandboxError
from repozero.kernel.records import Record
from repozero.sandbox.base import CaseInput, CaseRun, ExecResult

__all__ = [
    "DRIVER_PATH",
    "OOM_MARKERS",
    "BatchStops",
    "backstop_s",
    "case_jobs",
    "case_memory_limit",
    "driver_argv",
    "driver_text",
    "looks_oom",
    "pack_batch",
    "parse_records",
    "rerun_oom_alone",
    "stdout_budget",
    "timeout_threshold_ns",
]

DRIVER_PATH = Path(__file__).parent / "drivers" / "batch.sh"
OOM_MARKERS = (
    b"JavaScript heap out of memory",
    b"Reached heap limit",
    b"Allocation failed - process out of memory",
    b"Array buffer allocation failed",
    b"std::bad_alloc",
    b"Cannot allocate memory",
    b"MemoryError",
    b"memory allocation of",
)
_HEADER = re.compile(rb"case (\d+) (-?\d+) (\d+) (\d+) (\d+)\n")
_SKIP = re.compile(rb"skip (\d+)\n")
_DONE = re.compile(rb"done (\d+)\n")
_driver_text: str | None = None
DRIVER_MEMORY = 16 << 20
"""What the driver's own processes (sh, its workers, `head`, `timeout`, `tar`) may hold beside the cases."""


class BatchStops(Record, kw_only=True):
    """When a batch gives up on its remaining cases (each 0: never)."""

    timeouts: int = 0
    """After this many consecutive timed-out cases, in case order."""
    crashes: int = 0
    """After this many consecutive deaths by the same signal (SIGKILL of the memory cap, SIGABRT, SIGSEGV,
    SIGBUS, SIGFPE, SIGILL), in case order, none of them a timeout."""


def driver_text() -> str:
    global _driver_text
    if _driver_text is None:
        _driver_text = DRIVER_PATH.read_text()
    return _driver_text


def _seconds(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def timeout_threshold_ns(timeout_s: float) -> int:
    """Wall time from which an exit of 124/137 is a timeout, not the program's own exit code.

    `timeout` exits 124 after TERM and 137 after KILL; a program exiting 124 by itself is told apart by
    time. The driver applies the same integer rule when it counts consecutive timeouts (`-w`).
    """
    return math.ceil(timeout_s * 0.98 * 1e9)


def driver_argv(
    *,
    timeout_s: float,
    output_cap: int,
    stderr_cap: int,
    kill_after_s: float,
    cwd: str,
    kill_strays: bool,
    jobs: int = 1,
    stops: BatchStops | None = None,
) -> list[str]:
    """`sh -c <driver> batch -t ...`: the argv of the one exec that runs a batch.

    `jobs`: cases run at once inside the sandbox. `stops`: after K consecutive timeouts (or crashes of one
    kind) in case order, the driver reports every later case as not run.
    """
    stops = stops or BatchStops()
    argv = [
        "sh",
        "-c",
        driver_text(),
        "repozero-batch",
        "-t",
        _seconds(timeout_s),
        "-k",
        _seconds(kill_after_s),
    ]
    argv += ["-o", str(output_cap), "-e", str(stderr_cap), "-C", cwd, "-j", str(max(1, jobs))]
    if stops.timeouts > 0:
        argv += ["-s", str(stops.timeouts)]
    if stops.crashes > 0:
        argv += ["-c", str(stops.crashes)]
    if stops.timeouts > 0 or stops.crashes > 0:
        argv += ["-w", str(timeout_threshold_ns(timeout_s))]
    return [*argv, "-K"] if kill_strays else argv


def case_jobs(configured: int, cpu_quota: float) -> int:
    """Cases a batch runs at once: the sandbox's CPU quota in whole cores (at least 1), or fewer if
    configured (`sandbox.case_parallelism`; 0 = the quota). Never more than the quota: a CPU-bound correct
    program must not be slowed into a timeout by its own batch."""
    quota = max(1, math.floor(cpu_quota))
    return quota if configured <= 0 else min(configured, quota)


def case_memory_limit(held: int, memory_mb: int, jobs: int, extra: int, ceiling: int) -> int:
    """The sandbox's memory limit while a batch runs: what it already holds (`held`, its tmpfs and resident
    processes), `memory_mb` for each case running at once, the driver's own share and `extra` bytes (the
    batch unpacked on the tmpfs, the outputs in flight) — never above the sandbox's own limit."""
    return min(ceiling, held + jobs * (memory_mb << 20) + DRIVER_MEMORY + extra)


RunBatch = Callable[[Sequence[CaseInput], int, BatchStops], Awaitable[list[CaseRun]]]
"""One batch through the driver: (cases, jobs, stops) -> one run per case."""


async def rerun_oom_alone(
    run_batch: RunBatch, cases: Sequence[CaseInput], *, jobs: int, stops: BatchStops
) -> list[CaseRun]:
    """Run a batch `jobs` at a time; a case that died of memory beside others runs again alone.

    Concurrent cases share the sandbox's memory cap, so an OOM death there may be the neighbours' doing;
    alone it gets a whole case's cap, as in a one-at-a-time run.
    """
    runs = await run_batch(cases, jobs, stops)
    again = [i for i, run in enumerate(runs) if run.oom] if jobs > 1 else []
    if again:
        alone = await run_batch([cases[i] for i in again], 1, BatchStops())
        for i, run in zip(again, alone, strict=True):
            runs[i] = run
    return runs


def _add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = len(data), 0o644, 0
    tar.addfile(info, io.BytesIO(data))


def _arg_bytes(arg: str) -> bytes:
    data = arg.encode("utf-8", "surrogateescape")
    if b"\0" in data:
        raise SandboxError("an argument cannot contain a NUL byte (argv strings are C strings)")
    return data


def pack_batch(entry: Sequence[str], cases: Sequence[CaseInput]) -> bytes:
    """The tar archive the driver reads on stdin (layout in drivers/batch.sh)."""
    if not entry:
        raise SandboxError("run_cases: empty entry point")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for j, arg in enumerate(entry):
            _add(tar, f"entry/{j}", _arg_bytes(arg))
        for i, case in enumerate(cases):
            _add(tar, f"cases/{i}/argv/.keep", b"")
            for j, arg in enumerate(case.argv):
                _add(tar, f"cases/{i}/argv/{j}", _arg_bytes(arg))
            if case.stdin is not None:
                _add(tar, f"cases/{i}/stdin", case.stdin)
    return buf.getvalue()


def stdout_budget(n_cases: int, output_cap: int, stderr_cap: int) -> int:
    """The most the driver can print for a batch (the exec's output cap must not cut records)."""
    return n_cases * (output_cap + stderr_cap + 128) + 64


def backstop_s(n_cases: int, timeout_s: float, kill_after_s: float) -> float:
    """Host deadline for a whole batch: every case may use its full time; generous slack on top."""
    return n_cases * (timeout_s + kill_after_s + 0.5) + 10.0


def looks_oom(exit_code: int, stderr: bytes, timed_out: bool) -> bool:
    """A memory death told by its trace: an allocator's message on stderr, and not a timeout."""
    if timed_out:
        return False
    return any(marker in stderr for marker in OOM_MARKERS)


def _timed_out(exit_code: int, wall_ns: int, timeout_s: float) -> bool:
    return exit_code in (124, 137) and wall_ns >= timeout_threshold_ns(timeout_s)


def parse_records(
    result: ExecResult,
    cases: Sequence[CaseInput],
    *,
    timeout_s: float,
    output_cap: int,
    stderr_cap: int,
    oom_killed: bool = False,
) -> list[CaseRun]:
    """One `CaseRun` per case from the driver's stdout; a broken batch is a `SandboxError`.

    `oom_killed`: the backend saw an OOM kill during the batch (cgroup counter); a case that died by
    SIGKILL before its time is then an OOM death. A case the driver skipped (it stopped after consecutive
    timeouts) comes back with `not_run` set and nothing else.
    """
    data, at, runs = result.stdout, 0, []
    for i, case in enumerate(cases):
        skip = _SKIP.match(data, at)
        if skip is not None and int(skip.group(1)) == i:
            at = skip.end()
            runs.append(CaseRun(id=case.id, stdout=b"", stderr=b"", exit_code=0, wall_s=0.0, not_run=True))
            continue
        head = _HEADER.match(data, at)
        if head is None or int(head.group(1)) != i:
            raise _broken(result, f"no record for case {i} ({case.id})")
        code, wall_ns, out_len, err_len = (int(g) for g in head.groups()[1:])
        if code < 0:
            raise _broken(result, f"case {i} ({case.id}) has no exit status")
        at = head.end()
        stdout, stderr = data[at : at + out_len], data[at + out_len : at + out_len + err_len]
        at += out_len + err_len
        wall_s = wall_ns / 1e9
        timed_out = _timed_out(code, wall_ns, timeout_s)
        oom = looks_oom(code, stderr, timed_out) or (oom_killed and code == 137 and not timed_out)
        run = CaseRun(
            id=case.id, stdout=stdout[:output_cap], stderr=stderr[:stderr_cap], exit_code=code, wall_s=wall_s,
            timed_out=timed_out, truncated=out_len > output_cap, oom=oom,
        )  # fmt: skip
        runs.append(run)
    if not _DONE.match(data, at):
        raise _broken(result, "no end-of-batch line")
    return runs


def _broken(result: ExecResult, what: str) -> SandboxError:
    tail = result.stderr[-400:].decode(errors="replace").strip()
    how = "timed out" if result.timed_out else f"exit {result.exit_code}"
    return SandboxError(f"batch driver failed ({what}; {how}): {tail or 'no stderr'}")
