"""Grading real targets with a batch's cases run at once, and with the stop after K consecutive timeouts.

A grade with cases run at once (up to the sandbox's CPU quota) equals the one-at-a-time grade — statuses,
outputs, exit codes — on the built-in gold targets and on a target that hangs on some inputs; under a
policy with `stop_after_timeouts`, the cases after the K-th consecutive timeout are `not_run` and fail.
Runs once per sandbox backend (local, and Docker where a daemon runs — always in CI).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import anyio
import pytest

from repozero.datasets import load_dataset
from repozero.oracle.evaluate import GradeJob, gold_jobs, grade_one, target_job
from repozero.oracle.grading import GradingPolicy, SampleGrade
from repozero.orchestrator.engine.protocols import PROTOCOLS, get_protocol
from repozero.sandbox import SandboxBackend, create_backend
from repozero.sandbox.config import SandboxConfig

from .sandbox_fixtures import BACKEND_PARAMS

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

FIXTURE = Path(__file__).parent / "fixtures" / "grader"
GOOD = (FIXTURE / "good" / "wordstat.mjs").read_text()
GOLD_SAMPLES = ["base58-check", "humanize-size", "semver-compare"]


@asynccontextmanager
async def _backend(name: str, parallelism: int) -> AsyncIterator[SandboxBackend]:
    """Two cores of quota (Docker's default is one: one case at a time); `parallelism` 1 or the quota."""
    config = SandboxConfig(backend=name, docker_cpus=2.0, case_parallelism=parallelism)  # type: ignore[arg-type]
    backend = create_backend(config, name)
    if isinstance(backend, AbstractAsyncContextManager):
        async with backend:
            yield backend
    else:
        yield backend


async def _grades(name: str, jobs: list[GradeJob], policy: GradingPolicy) -> tuple[list[SampleGrade], ...]:
    """The jobs graded one case at a time, then with cases at once."""
    out = []
    for parallelism in (1, 0):
        async with _backend(name, parallelism) as backend:
            out.append([await grade_one(backend, job, policy, run_id="pytest") for job in jobs])
    return tuple(out)


def _seen(grade: SampleGrade) -> tuple[object, ...]:
    statuses = [(c.id, c.status, c.exit_code, c.diagnosis) for c in grade.cases]
    outputs = [(o.id, o.stdout, o.stderr, o.exit_code, o.truncated) for o in grade.outputs]
    return grade.passed, grade.success_rate, grade.failure_category, statuses, outputs


def _visible(job: GradeJob) -> GradeJob:
    """Ask for every case's output, so outputs are compared too (not only statuses)."""
    return GradeJob(
        sample=job.sample,
        cases=job.cases,
        target_dir=job.target_dir,
        visible_ids=frozenset(c.id for c in job.cases),
    )


@pytest.mark.parametrize("name", BACKEND_PARAMS)
async def test_gold_targets_grade_the_same_with_cases_at_once(name: str) -> None:
    jobs = [_visible(j) for j in gold_jobs(load_dataset("builtin:py2js-lite"), GOLD_SAMPLES)]
    with anyio.fail_after(300):
        alone, together = await _grades(name, jobs, GradingPolicy(timeout_s=10.0))
    assert all(g.passed for g in alone), [(g.sample, g.infra_detail) for g in alone if not g.passed]
    assert [_seen(g) for g in together] == [_seen(g) for g in alone]


def _hanging(tmp_path: Path, modes: str) -> Path:
    """The fixture's reference, made to loop forever in the given modes."""
    root = tmp_path / "hangs"
    root.mkdir()
    guard = f"if (process.argv.some((a) => /^({modes})$/.test(a))) for (;;) {{}}\n"
    (root / "wordstat.mjs").write_text(guard + GOOD)
    return root


# The fixture's cases by mode: c00 count, c01 upper, c02 reverse, c03 count, c04 upper, c05 reverse,
# c06 upper, c07 reverse, c08 fail, c09 other, c10 count, c11 upper. Hanging in upper and reverse:
# c01-c02 time out (2 in a row), c03 passes, c04-c06 time out (3 in a row: stop), c07-c11 are not run.
STOPPED = {"c00": "pass", "c01": "timeout", "c02": "timeout", "c03": "pass"}
STOPPED |= {f"c{i:02}": "timeout" for i in (4, 5, 6)} | {f"c{i:02}": "not_run" for i in range(7, 12)}


@pytest.mark.parametrize("name", BACKEND_PARAMS)
async def test_a_hanging_target_stops_after_k_consecutive_timeouts(name: str, tmp_path: Path) -> None:
    job = _visible(
        target_job(load_dataset(FIXTURE / "dataset"), "wordstat", _hanging(tmp_path, "upper|reverse"))
    )
    policy = GradingPolicy(timeout_s=2.0, stop_after_timeouts=3)
    with anyio.fail_after(300):
        alone, together = await _grades(name, [job], policy)
    grade = alone[0]
    assert {c.id: c.status for c in grade.cases} == STOPPED
    assert grade.success_rate == 2 / 12 and not grade.passed
    assert grade.failure_category == "whitebox_fail"  # c01 and c02 are whitebox cases
    assert all(c.exit_code is None for c in grade.cases if c.status == "not_run")
    assert {o.id for o in grade.outputs} == {c for c, s in STOPPED.items() if s != "not_run"}
    assert [_seen(g) for g in together] == [_seen(g) for g in alone]


@pytest.mark.parametrize("name", BACKEND_PARAMS)
async def test_without_the_stop_every_case_runs(name: str, tmp_path: Path) -> None:
    job = target_job(load_dataset(FIXTURE / "dataset"), "wordstat", _hanging(tmp_path, "reverse"))
    with anyio.fail_after(300):
        async with _backend(name, 0) as backend:
            grade = await grade_one(backend, job, GradingPolicy(timeout_s=1.0), run_id="pytest")
    statuses = {c.id: c.status for c in grade.cases}
    assert {k for k, s in statuses.items() if s == "timeout"} == {"c02", "c05", "c07"}
    assert "not_run" not in statuses.values()


def test_the_protocols_set_the_stop() -> None:
    assert {name: p.stop_after_timeouts for name, p in PROTOCOLS.items()} == {
        "repozero-strict": 3,
        "paper-text": 0,
        "repozero-public": 0,
    }
    policy = get_protocol("repozero-strict").grading_policy(4096)
    assert (policy.stop_after_timeouts, policy.timeout_s, policy.output_cap) == (3, 5.0, 4096)
    public = get_protocol("repozero-public").grading_policy(4096)
    assert (public.stop_after_timeouts, public.comparator) == (0, "paper_compat")
