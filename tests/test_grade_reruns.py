"""A case that timed out because the machine was busy runs once more alone before it is scored `timeout`.

The load is real: CPU hogs at the highest priority spin beside the grader while its first batch runs, so
its cases cannot even start Node within their time; the hogs end with that batch, as load does, and the lone
re-runs finish. Each hog is a session of its own at autogroup nice -20: with the kernel's autogroups
(on here) the scheduler shares CPUs between sessions first, so a hog's own nice would not reach the
sandbox's processes, which run in sessions of their own. A target that really hangs is re-run once, times out
again, and keeps its timeouts. Runs on both backends.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

from repozero.datasets import load_dataset
from repozero.oracle.grading import GradingPolicy, SampleGrade, grade_in_sandbox
from repozero.oracle.reruns import cpu_stall_s
from repozero.sandbox import CaseInput, CaseRun, Sandbox, SandboxBackend, SandboxSpec

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

FIXTURE = Path(__file__).parent / "fixtures" / "grader"
POLICY = GradingPolicy(timeout_s=3.0, output_cap=64 * 1024, stop_after_timeouts=3)
HOG_S = 120.0
"""A bound on the hogs' life: the batch they starve ends them long before."""
WORK = "{ let s = 0; for (let i = 0; i < 5e7; i++) s += i; }"
"""About 0.1 s of CPU a case: nothing on a busy machine, far past 3 s at a starved share of it."""
HOG = (
    "import os, sys, time\nos.nice(-20)\n"
    "try:\n    open('/proc/self/autogroup', 'w').write('-20')\nexcept OSError:\n    pass\n"
    "sys.stdout.write('x'); sys.stdout.flush()\n"
    "end = time.monotonic() + float(sys.argv[1])\nwhile time.monotonic() < end: pass\n"
)


@contextmanager
def cpu_hogs(seconds: float) -> Iterator[None]:
    """One spinning process per core, each its own session at nice -20, for `seconds` (they end by
    themselves; killed on exit)."""
    if os.geteuid() != 0:
        pytest.skip("needs root to spin hogs at nice -20")
    hogs = [
        subprocess.Popen(
            [sys.executable, "-c", HOG, str(seconds)], stdout=subprocess.PIPE, start_new_session=True
        )
        for _ in range(len(os.sched_getaffinity(0)))
    ]
    try:
        for hog in hogs:
            assert hog.stdout is not None and hog.stdout.read(1) == b"x"  # spinning at its priority
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
            assert hog.stdout is not None
            hog.stdout.close()


class HoggedFirstBatch:
    """A sandbox whose first batch of cases runs beside the CPU hogs (they start with it and end with it)."""

    def __init__(self, box: Sandbox) -> None:
        self._box = box
        self.batches: list[list[str]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._box, name)

    async def run_cases(
        self, entry: Sequence[str], cases: Sequence[CaseInput], **kwargs: Any
    ) -> list[CaseRun]:
        self.batches.append([c.id for c in cases])
        if len(self.batches) > 1:
            return await self._box.run_cases(entry, cases, **kwargs)
        with cpu_hogs(HOG_S):
            return await self._box.run_cases(entry, cases, **kwargs)


async def _grade(backend: SandboxBackend, target: Path, *, hogs: bool) -> tuple[SampleGrade, list[list[str]]]:
    sample = load_dataset(FIXTURE / "dataset").sample("wordstat")
    spec = SandboxSpec(toolchain="node", run_id="reruns", sample=sample.id, role="grader")
    with anyio.fail_after(300):
        async with backend.open(spec) as box:
            graded = HoggedFirstBatch(box) if hogs else box
            grade = await grade_in_sandbox(graded, sample, sample.kept_cases, target, POLICY)  # type: ignore[arg-type]
    return grade, graded.batches if isinstance(graded, HoggedFirstBatch) else []


def _target(tmp_path: Path, edit: str, new: str) -> Path:
    root = tmp_path / "target"
    root.mkdir()
    (root / "wordstat.mjs").write_text((FIXTURE / "good" / "wordstat.mjs").read_text().replace(edit, new, 1))
    return root


async def test_cases_starved_by_a_cpu_hog_are_rerun_alone_and_pass(
    sandbox_backend: SandboxBackend, tmp_path: Path
) -> None:
    """The first three cases time out under the hogs, which stops the batch (K = 3); alone, after the hogs,
    they pass, and the nine cases the stop left out then run too."""
    if cpu_stall_s() is None:
        pytest.skip("needs the kernel's CPU pressure information (/proc/pressure/cpu)")
    g, batches = await _grade(
        sandbox_backend, _target(tmp_path, "const args", WORK + "\nconst args"), hogs=True
    )
    got = [(c.id, c.status, c.rerun) for c in g.cases]
    assert g.passed and {c.status for c in g.cases} == {"pass"}, (got, g.infra_detail, batches)
    assert [c.id for c in g.cases if c.rerun] == ["c00", "c01", "c02"], got
    ids = [c.id for c in g.cases]
    assert batches == [ids, ["c00"], ["c01"], ["c02"], ids[3:]], batches


async def test_a_hanging_case_is_rerun_once_and_its_timeouts_stand(
    sandbox_backend: SandboxBackend, tmp_path: Path
) -> None:
    """`reverse` loops forever (c02, c05, c07): on a busy machine the first timeout is re-run alone, times
    out again, and the others are not re-run; on a quiet one none is."""
    reverse = '} else if (mode === "reverse") {'
    g, _ = await _grade(sandbox_backend, _target(tmp_path, reverse, reverse + " for(;;){}"), hogs=False)
    got = {c.id: (c.status, c.rerun) for c in g.cases}
    assert {i for i, (s, _) in got.items() if s == "timeout"} == {"c02", "c05", "c07"}, got
    assert [i for i, (_, rerun) in got.items() if rerun] in ([], ["c02"]), got
