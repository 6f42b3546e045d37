"""What telling a broken environment apart costs a grade (docs/reliability.md §13).

A local sandbox checks its toolchain dir against its STAMP after every grading batch and after every
failed command (`toolchains.toolchain_problem`): one listing per sub-dir of the `node` toolchain. This
times that check on a whole dir, beside one grading batch of the fixture's gold target (its cases under
the batch driver, in one local sandbox) for scale.

    python benchmarks/toolchain_check.py [--rounds N]

The last line is `toolchain_check_us: <microseconds per check>`.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import anyio

from repozero.datasets import load_dataset
from repozero.oracle.evaluate import GradeJob, grade_one, graded_cases
from repozero.oracle.grading import GradingPolicy
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.local import LocalBackend
from repozero.sandbox.toolchains import build_toolchain, toolchain_problem

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "fakellm"


async def _grade_s(root: Path) -> float:
    dataset = load_dataset(FIXTURE)
    sample = dataset.sample("fx-stats")
    job = GradeJob(sample=sample, cases=graded_cases(sample), target_dir=str(dataset.gold_dir(sample.id)))
    backend = LocalBackend(SandboxConfig(toolchain_dir=str(root)))
    await grade_one(backend, job, GradingPolicy())  # warm: the toolchain built, node's pages read
    started = time.perf_counter()
    grade = await grade_one(backend, job, GradingPolicy())
    assert grade.passed, grade
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rz-toolchain-check-") as tmp:
        folder = build_toolchain("node", Path(tmp))
        assert toolchain_problem(folder) == ""
        started = time.perf_counter()
        for _ in range(args.rounds):
            toolchain_problem(folder)
        check_us = (time.perf_counter() - started) / args.rounds * 1e6
        grade_s = anyio.run(_grade_s, Path(tmp))
        entries = sum(1 for _ in (folder / "bin").iterdir())
    print(f"entries checked: {entries} in bin/")
    print(f"one grade of fx-stats (5 cases, local sandbox): {grade_s * 1000:.0f} ms")
    print(f"check / grade: {check_us / 1e6 / grade_s:.2%}")
    print(f"toolchain_check_us: {check_us:.0f}")


if __name__ == "__main__":
    main()
