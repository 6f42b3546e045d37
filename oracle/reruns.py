"""A case that timed out while the machine was busy runs once more alone before it is scored `timeout`.

On a loaded machine (other episodes' sandboxes, a build, anything at the grader's priority) a correct case
can be starved past its time limit; scoring that `timeout` makes the model pay for the machine. So a batch
that ran under CPU pressure has its timed-out cases run again, one at a time, in case order, each in a batch
of its own: the lone run's verdict is kept and the case is marked a re-run. A re-run that times out again
means the load was not why — the target hangs — and the remaining timeouts stand without re-runs: a
hanging target costs one timeout more, not one more per case. When a re-run did finish in time and the
batch had stopped after consecutive timeouts, the cases it never ran are run after all (same stops).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import structlog

from repozero.sandbox import CaseInput, CaseRun, GradingSandbox

if TYPE_CHECKING:
    from repozero.oracle.grading import GradingPolicy

__all__ = ["LOADED_STALL_SHARE", "cpu_stall_s", "run_with_reruns"]

LOADED_STALL_SHARE = 0.05
"""A batch ran under load when, for at least this share of its wall time, some runnable task on the host
waited for a CPU (Linux's pressure stall information, `/proc/pressure/cpu`)."""
_PSI = "/proc/pressure/cpu"
log = structlog.get_logger()


def cpu_stall_s() -> float | None:
    """Seconds, since boot, during which some runnable task waited for a CPU (None: the kernel has no PSI)."""
    try:
        with open(_PSI) as psi:
            first = psi.readline()
    except OSError:
        return None
    total = first.rsplit("total=", 1)[-1]
    return int(total) / 1e6 if total.strip().isdigit() else None


def _loaded(stall_before: float | None, started: float) -> bool:
    """Whether the machine was busy while the batch ran: its CPU pressure, or without PSI its load average
    against its CPUs."""
    stall_after, wall = cpu_stall_s(), time.monotonic() - started
    if stall_before is None or stall_after is None:
        return os.getloadavg()[0] >= (os.cpu_count() or 1)
    return wall > 0 and (stall_after - stall_before) / wall >= LOADED_STALL_SHARE


async def run_with_reruns(
    sandbox: GradingSandbox,
    entry: Sequence[str],
    cases: Sequence[CaseInput],
    policy: GradingPolicy,
    memory_mb: int,
    *,
    sample: str = "",
) -> tuple[list[CaseRun], set[str]]:
    """Every case through `sandbox.run_cases` under `policy`; the runs in case order, and the ids of the
    cases whose run is a re-run alone (see the module docstring)."""

    async def batch(todo: Sequence[CaseInput], stops: bool) -> list[CaseRun]:
        return await sandbox.run_cases(
            entry, todo, timeout_s=policy.timeout_s, output_cap=policy.output_cap, memory_mb=memory_mb,
            stop_after_timeouts=policy.stop_after_timeouts if stops else 0,
            stop_after_crashes=policy.stop_after_crashes if stops else 0,
        )  # fmt: skip

    stall, started = cpu_stall_s(), time.monotonic()
    runs = await batch(cases, True)
    timed_out = [i for i, run in enumerate(runs) if run.timed_out]
    if not timed_out or not _loaded(stall, started):
        return runs, set()
    reran: set[str] = set()
    for i in timed_out:
        (alone,) = await batch([cases[i]], False)
        log.info("case_rerun_alone", sample=sample, case=cases[i].id, timed_out=alone.timed_out)
        runs[i] = alone
        reran.add(cases[i].id)
        if alone.timed_out:
            return runs, reran  # the target hangs: the other timeouts stand
    skipped = [i for i, run in enumerate(runs) if run.not_run]
    if skipped:  # the batch stopped after timeouts that the load caused: run what it left out
        for i, run in zip(skipped, await batch([cases[i] for i in skipped], True), strict=True):
            runs[i] = run
    return runs, reran
