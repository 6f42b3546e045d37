"""Grading throughput: batched + concurrent grading vs one process per case, sequentially, same run.

Both paths grade the same targets with the same sandbox backend and must give identical case statuses.
Prints `seconds_batched`, `seconds_per_case_sequential`, then last `grade_speedup: <x>` (target ≥ 1.8 on
2 cores).

    python benchmarks/grade_throughput.py [--dataset builtin:py2js-lite] [--copies 4] [--sandbox local]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import anyio

from repozero.config import Config, load_config
from repozero.datasets import load_dataset
from repozero.oracle.evaluate import GradeJob, gold_jobs, grade_many, target_job, toolchain_for
from repozero.oracle.grading import GradingPolicy, node_entry, status_of
from repozero.sandbox import CaseRun, SandboxBackend, SandboxSpec
from repozero.wiring import open_backend

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "grader"


def jobs_for(dataset_name: str | None, copies: int) -> list[GradeJob]:
    if dataset_name:
        jobs = gold_jobs(load_dataset(dataset_name))
    else:
        jobs = [target_job(load_dataset(FIXTURE / "dataset"), "wordstat", FIXTURE / "good")]
    return jobs * copies


async def sequential(backend: SandboxBackend, jobs: list[GradeJob], policy: GradingPolicy) -> list[list[str]]:
    """The naive grader: one sandbox per sample, one process per case, one case after another."""
    statuses = []
    for job in jobs:
        spec = SandboxSpec(
            toolchain=toolchain_for(job.sample), run_id="bench", sample=job.sample.id, role="grader"
        )
        async with backend.open(spec) as box:
            await box.put_tree(Path(job.target_dir), box.workdir)
            entry = node_entry(job.sample.target.entry, box.workdir, policy.node_permissions)
            row = []
            for case in job.cases:
                result = await box.exec(
                    [*entry, *case.argv],
                    stdin=case.stdin,
                    timeout_s=policy.timeout_s,
                    output_cap=policy.output_cap,
                )
                run = CaseRun(
                    id=case.id,
                    stdout=result.stdout,
                    stderr=result.stderr,
                    exit_code=result.exit_code,
                    wall_s=result.wall_s,
                    timed_out=result.timed_out,
                    truncated=result.truncated,
                )
                row.append(status_of(case, run, policy.comparator))
            statuses.append(row)
    return statuses


async def main(args: argparse.Namespace, config: Config) -> None:
    jobs = jobs_for(args.dataset, args.copies)
    policy = GradingPolicy(timeout_s=config.sandbox.case_timeout_s)
    cases = sum(len(j.cases) for j in jobs)
    async with open_backend(config, args.sandbox, run_id="bench-grade") as backend:
        await grade_many(backend, jobs[:1], policy)  # warm-up (toolchain caches, images)
        start = time.perf_counter()
        grades = await grade_many(backend, jobs, policy)
        batched = time.perf_counter() - start
        start = time.perf_counter()
        naive = await sequential(backend, jobs, policy)
        naive_s = time.perf_counter() - start
    fast = [[c.status for c in g.cases] for g in grades]
    if fast != naive:
        raise SystemExit(f"results differ between the two graders: {fast} vs {naive}")
    print(f"samples: {len(jobs)}")
    print(f"cases: {cases}")
    print(f"seconds_batched: {batched:.3f}")
    print(f"seconds_per_case_sequential: {naive_s:.3f}")
    print(f"ms_per_case_batched: {1000 * batched / cases:.2f}")
    print(f"ms_per_case_sequential: {1000 * naive_s / cases:.2f}")
    print(f"grade_speedup: {naive_s / batched:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", help="grade the gold references of this dataset (default: a fixture)")
    parser.add_argument("--copies", type=int, default=4, help="grade every target this many times")
    parser.add_argument("--sandbox", choices=["local", "docker"], default="local")
    ns = parser.parse_args()
    anyio.run(main, ns, load_config(), backend_options={"use_uvloop": True})
