"""What a hostile target costs to grade: every broken variant of the grader's tests, graded under the strict
protocol on each sandbox backend, one at a time; the slowest grade is the metric (issue 40 item 7: at most
30 s each on both backends; a JavaScript memory hog took 291 s before cases had a memory cap of their own).

The variants are the tests' own (`tests/test_grader.py` BROKEN plus its memory hogs, `tests/test_grader_rust.py`
VARIANTS), loaded from those files so the two never drift apart. A Rust variant is graded once untimed first:
its build is cached by content, and a build is not what a hostile target costs (the loop's cases are).

`--baseline` also grades the everywhere-hog with no case memory cap and no crash stop (the old grader),
once per backend, printed as `baseline_<backend>_s`.

    python benchmarks/hostile_grading.py [--sandbox local,docker] [--no-rust] [--baseline]

Prints one `grade <backend> <variant> <seconds> <statuses>` line per grade, then last
`hostile_grade_max_s: <seconds>`.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path
from types import ModuleType

import anyio
import msgspec

from repozero.datasets import load_dataset
from repozero.kernel.log import configure_logging
from repozero.oracle.evaluate import GradeJob, grade_one, target_job
from repozero.oracle.grading import GradingPolicy
from repozero.orchestrator.engine.protocols import get_protocol
from repozero.sandbox import SandboxBackend, open_backend
from repozero.sandbox.config import SandboxConfig

TESTS = Path(__file__).resolve().parent.parent / "tests"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"hostile_{name}", TESTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def js_jobs(root: Path) -> dict[str, GradeJob]:
    """Every broken variant of the JavaScript grader test, and its two memory hogs."""
    tg = _load("test_grader")
    root.mkdir(parents=True)
    dataset = load_dataset(tg.DATASET)
    trees = {name: tg.variant(root, name, edit, extra) for name, (edit, extra, *_) in tg.BROKEN.items()}
    upper = 'if (mode === "upper") {'
    trees["memory_hog"] = tg.variant(root, "memory_hog", lambda s: s.replace(upper, upper + " " + tg.HOG))
    trees["memory_hog_everywhere"] = tg.variant(root, "memory_hog_everywhere", tg.prepend(tg.HOG))
    return {f"js:{name}": target_job(dataset, "wordstat", tree) for name, tree in trees.items()}


def rust_jobs(root: Path) -> dict[str, GradeJob]:
    """Every variant of the Rust grader test but the good crate (a compile error builds nothing to run)."""
    tr = _load("test_grader_rust")
    root.mkdir(parents=True)
    tag = uuid.uuid4().hex[:8]
    return {
        f"rust:{name}": GradeJob(sample=tr.SAMPLE, cases=tr.CASES, target_dir=str(tr._crate(root, name, tag)))
        for name in tr.VARIANTS
        if name != "good"
    }


async def grade_timed(backend: SandboxBackend, job: GradeJob, policy: GradingPolicy) -> tuple[float, str]:
    start = time.monotonic()
    grade = await grade_one(backend, job, policy, run_id="hostile")
    statuses = ",".join(c.status for c in grade.cases)
    return time.monotonic() - start, f"{grade.failure_category} {statuses} {grade.infra_detail[:80]}"


async def run(backends: list[str], jobs: dict[str, GradeJob], baseline: bool) -> float:
    policy = get_protocol("repozero-strict").grading_policy(SandboxConfig().output_cap)
    uncapped = msgspec.structs.replace(policy, case_memory_mb={}, stop_after_crashes=0)
    worst = 0.0
    for name in backends:
        async with open_backend(SandboxConfig(backend=name), name) as backend:  # type: ignore[arg-type]
            for variant, job in jobs.items():
                if variant.startswith("rust:"):
                    await grade_one(backend, job, policy, run_id="hostile")  # the build, cached by content
                seconds, what = await grade_timed(backend, job, policy)
                worst = max(worst, seconds)
                print(f"grade {name} {variant} {seconds:.2f} {what}", flush=True)
            if baseline:
                seconds, what = await grade_timed(backend, jobs["js:memory_hog_everywhere"], uncapped)
                print(f"grade {name} js:memory_hog_everywhere(uncapped) {seconds:.2f} {what}", flush=True)
                print(f"baseline_{name}_s: {seconds:.1f}", flush=True)
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sandbox", default="local,docker", help="backends, comma-separated")
    parser.add_argument("--no-rust", action="store_true", help="leave out the Rust variants (cargo builds)")
    parser.add_argument("--baseline", action="store_true", help="also grade the hog without a memory cap")
    args = parser.parse_args()
    configure_logging(level="warning")
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        root = Path(tmp)
        os.environ["XDG_CACHE_HOME"] = str(root / "cache")  # the Rust builds' cache: this run's own
        jobs = js_jobs(root / "js")
        if not args.no_rust:
            jobs |= rust_jobs(root / "rust")
        worst = anyio.run(
            run, args.sandbox.split(","), jobs, args.baseline, backend_options={"use_uvloop": True}
        )
    print(f"hostile_grade_max_s: {worst:.1f}")
    sys.exit(0)


if __name__ == "__main__":
    main()
