"""Grade many targets at once: one fresh target-only sandbox per sample, samples concurrently up to the cores.

`repozero eval` and the ACE supervisor both grade through here.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path

import anyio
import msgspec
import structlog

from repozero.datasets import Case, Dataset, Sample
from repozero.kernel.errors import SandboxError
from repozero.kernel.records import Record
from repozero.oracle.envcheck import environment_problem
from repozero.oracle.grading import (
    GRADER_VERSION,
    CaseOutput,
    GradingPolicy,
    SampleGrade,
    count_oracle_errors,
    grade_in_sandbox,
    infra_grade,
    inspect_target,
    no_executable_grade,
)
from repozero.oracle.targets import build_target, policy_for, runnable, toolchain_for
from repozero.sandbox import SandboxBackend, SandboxSpec

__all__ = ["EvalSummary", "GradeJob", "grade_many", "grade_one", "summarise", "toolchain_for"]

BUILD_FAILED = 101
"""The exit status a failed build's feedback shows (cargo's own for a compile error)."""

log = structlog.get_logger()


class GradeJob(Record, kw_only=True):
    sample: Sample
    cases: list[Case]
    target_dir: str
    visible_ids: frozenset[str] = frozenset()
    scoring: bool = True
    """A scoring grade (the hidden cases, `eval`): the policy's oracle-error rule applies to it."""


class EvalSummary(Record, kw_only=True):
    samples: list[SampleGrade]
    pass_rate: float
    success_rate: float
    infra_errors: int
    grader_version: str = GRADER_VERSION


async def grade_one(
    backend: SandboxBackend,
    job: GradeJob,
    policy: GradingPolicy,
    *,
    run_id: str = "eval",
    limiter: anyio.CapacityLimiter | None = None,
) -> SampleGrade:
    """Grade one target in a fresh sandbox; a broken sandbox is an infra error, never the model's failure.

    A target with no entry point is graded without opening a sandbox at all; one that needs a build (Rust)
    is built there first (cached by content) and a build failure is `no_executable`. `limiter` bounds the
    grading sandboxes (CPU-bound) only: looking at the tree is not queued behind them — 1,000 episodes
    ending at once, most without an entry point, waited seconds each for a slot they never used. Cases
    that could not start (exit 126/127) in a sandbox lacking the interpreter or a driver tool make the
    grade an infra error (`oracle/envcheck.py`).
    """
    grade = await _grade_one(backend, job, policy, run_id, limiter)
    return count_oracle_errors(grade, job.sample, policy) if job.scoring else grade


async def _grade_one(
    backend: SandboxBackend,
    job: GradeJob,
    policy: GradingPolicy,
    run_id: str,
    limiter: anyio.CapacityLimiter | None,
) -> SampleGrade:
    target_dir = Path(job.target_dir)
    flags, found = await anyio.to_thread.run_sync(inspect_target, target_dir, job.sample.target.entry)
    if not runnable(job.sample, target_dir, found):
        return no_executable_grade(job.sample, job.cases, flags)
    spec = SandboxSpec(
        toolchain=toolchain_for(job.sample), run_id=run_id, sample=job.sample.id, role="grader"
    )
    try:
        async with limiter or contextlib.nullcontext(), backend.open(spec) as sandbox:
            async with build_target(sandbox, job.sample, target_dir) as built:
                if built.error is not None:
                    return build_failed_grade(job, flags, built.error)
                grade = await grade_in_sandbox(
                    sandbox, job.sample, job.cases, Path(built.dir), policy_for(job.sample, policy),
                    visible_ids=job.visible_ids,
                )  # fmt: skip
            problem = await environment_problem(sandbox, grade, job.sample.target.entry)
        if problem:  # the environment could not run the target: not the model's failure
            log.warning("grade_environment_broken", sample=job.sample.id, problem=problem)
            return infra_grade(job.sample, job.cases, problem)
        return grade
    except SandboxError as exc:
        log.warning("grade_sandbox_failed", sample=job.sample.id, error=str(exc))
        return infra_grade(job.sample, job.cases, str(exc))


async def grade_many(
    backend: SandboxBackend,
    jobs: Sequence[GradeJob],
    policy: GradingPolicy,
    *,
    limiter: anyio.CapacityLimiter | None = None,
    run_id: str = "eval",
) -> list[SampleGrade]:
    """Grade every job, at most `limiter` at once (default: one per core), results in job order."""
    limiter = limiter or anyio.CapacityLimiter(os.cpu_count() or 2)
    grades: list[SampleGrade | None] = [None] * len(jobs)

    async def worker(index: int, job: GradeJob) -> None:
        grades[index] = await grade_one(backend, job, policy, run_id=run_id, limiter=limiter)

    async with anyio.create_task_group() as tg:
        for index, job in enumerate(jobs):
            tg.start_soon(worker, index, job)
    return [g for g in grades if g is not None]


def build_failed_grade(job: GradeJob, flags: list[str], error: str) -> SampleGrade:
    """`no_executable`, with the compiler's errors as the stderr of every visible case (the coder's feedback)."""
    grade = no_executable_grade(job.sample, job.cases, flags)
    outputs = [
        CaseOutput(id=c.id, stdout=b"", stderr=error.encode(), exit_code=BUILD_FAILED)
        for c in job.cases
        if c.id in job.visible_ids
    ]
    return msgspec.structs.replace(grade, outputs=outputs)


def summarise(grades: Sequence[SampleGrade]) -> EvalSummary:
    """Pass rate and success rate over samples without infra errors (those are reported apart)."""
    scored = [g for g in grades if not g.infra_error]
    n = len(scored)
    return EvalSummary(
        samples=list(grades),
        pass_rate=sum(g.passed for g in scored) / n if n else 0.0,
        success_rate=sum(g.success_rate for g in scored) / n if n else 0.0,
        infra_errors=len(grades) - n,
    )


def graded_cases(sample: Sample) -> list[Case]:
    """What a sample is graded on: its whitebox and hidden cases with ground truth."""
    return sample.kept_cases


def gold_jobs(dataset: Dataset, sample_ids: Sequence[str] | None = None) -> list[GradeJob]:
    samples = [dataset.sample(i) for i in sample_ids] if sample_ids else dataset.samples
    return [
        GradeJob(sample=s, cases=graded_cases(s), target_dir=str(dataset.gold_dir(s.id)))
        for s in samples
        if s.status == "live" and (dataset.gold_dir(s.id)).is_dir()
    ]


def target_job(dataset: Dataset, sample_id: str, target_dir: Path) -> GradeJob:
    sample = dataset.sample(sample_id)
    return GradeJob(sample=sample, cases=graded_cases(sample), target_dir=str(target_dir))


def cpu_count() -> int:
    return os.cpu_count() or 2
