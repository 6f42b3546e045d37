"""Grading throughput: batched + concurrent grading vs one process per case, sequentially, same run; and
what a target that hangs costs.

Part `speedup` (the default): both paths grade the same targets with the same sandbox backend and must give
identical case statuses. Prints `seconds_batched`, `seconds_per_case_sequential`, then last
`grade_speedup: <x>` (target ≥ 1.8 on 2 cores).

Part `hanging`: a target whose entry point loops forever, graded on 40 cases at the strict protocol's 5 s
per case and its stop after 3 consecutive timeouts (cases run at once up to the sandbox's CPU quota). The
statuses must be 3 timeouts then 37 `not_run`. Prints last `hanging_target_grade_s: <s>` (target ≤ 30 s
with `--sandbox docker`; without the stop it would be 40 × 5 s over the quota).

`--part all` runs `hanging`, then `speedup` (so `grade_speedup` stays the last line).

    python benchmarks/grade_throughput.py [--part speedup|hanging|all] [--dataset builtin:py2js-lite]
        [--copies 4] [--sandbox local|docker] [--docker-cpus N]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import msgspec

from repozero.config_file import load_config
from repozero.datasets import load_dataset
from repozero.kernel.log import configure_logging
from repozero.oracle.evaluate import GradeJob, gold_jobs, grade_many, grade_one, target_job, toolchain_for
from repozero.oracle.grading import GradingPolicy, entry_script, node_entry, status_of
from repozero.orchestrator.engine.config import Config
from repozero.orchestrator.engine.protocols import get_protocol
from repozero.sandbox import CaseRun, SandboxBackend, SandboxSpec, open_backend

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


async def speedup_part(args: argparse.Namespace, config: Config) -> None:
    jobs = jobs_for(args.dataset, args.copies)
    policy = GradingPolicy(timeout_s=get_protocol("repozero-strict").case_timeout_s)
    cases = sum(len(j.cases) for j in jobs)
    async with open_backend(config.sandbox, args.sandbox, run_id="bench-grade") as backend:
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


HANGING_CASES = 40


def hanging_job(folder: Path) -> GradeJob:
    """A gold target of the built-in dataset whose entry script loops forever, on 40 of its cases."""
    dataset = load_dataset("builtin:py2js-lite")
    sample = next(s for s in dataset.samples if len(s.kept_cases) >= HANGING_CASES)
    target = folder / sample.id
    shutil.copytree(dataset.gold_dir(sample.id), target)
    script = entry_script(sample.target.entry)
    if script is None:
        raise SystemExit(f"{sample.id}: the entry point names no script to replace")
    (target / script).write_text("for (;;) {}\n")
    return GradeJob(sample=sample, cases=sample.kept_cases[:HANGING_CASES], target_dir=str(target))


async def hanging_part(args: argparse.Namespace, config: Config) -> None:
    policy = get_protocol("repozero-strict").grading_policy(config.sandbox.output_cap)
    with tempfile.TemporaryDirectory(prefix="rz-hanging-") as folder:
        job = hanging_job(Path(folder))
        async with open_backend(config.sandbox, args.sandbox, run_id="bench-hanging") as backend:
            await grade_many(backend, jobs_for(None, 1), policy)  # warm-up (toolchain caches, images)
            start = time.perf_counter()
            grade = await grade_one(backend, job, policy, run_id="bench-hanging")
            took = time.perf_counter() - start
    statuses = [c.status for c in grade.cases]
    k = policy.stop_after_timeouts
    if statuses != ["timeout"] * k + ["not_run"] * (len(statuses) - k):
        raise SystemExit(f"unexpected statuses for the hanging target: {statuses} ({grade.infra_detail})")
    print(f"hanging_cases: {len(statuses)}")
    print(f"hanging_case_timeout_s: {policy.timeout_s}")
    print(f"hanging_stop_after_timeouts: {k}")
    print(f"hanging_target_grade_s: {took:.2f}")


PARTS: dict[str, Callable[[argparse.Namespace, Config], Awaitable[None]]] = {
    "hanging": hanging_part,
    "speedup": speedup_part,
}
"""In the order `--part all` runs them: the default part's metric stays the last line."""


async def main(args: argparse.Namespace, config: Config) -> None:
    if args.docker_cpus is not None:
        sandbox = msgspec.structs.replace(config.sandbox, docker_cpus=args.docker_cpus)
        config = msgspec.structs.replace(config, sandbox=sandbox)
    for name in list(PARTS) if args.part == "all" else [args.part]:
        await PARTS[name](args, config)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=[*PARTS, "all"], default="speedup")
    parser.add_argument("--dataset", help="grade the gold references of this dataset (default: a fixture)")
    parser.add_argument("--copies", type=int, default=4, help="grade every target this many times")
    parser.add_argument("--sandbox", choices=["local", "docker"], default="local")
    parser.add_argument("--docker-cpus", type=float, help="CPU quota per container (default: the config's)")
    ns = parser.parse_args()
    configure_logging(level="warning")
    anyio.run(main, ns, load_config(), backend_options={"use_uvloop": True})
