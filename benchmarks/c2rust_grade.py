"""C2Rust grading: our grader against the public C2Rust harness's Docker way, same target, same run.

Workload: the C2Rust fixture's sample (`tests/fixtures/c2rust`, inih-parse), its gold Rust port as the
target, 40 cases (its kept cases, cycled). Ours: `grade_one` on the Docker backend — one `rust` container
from the backend's warm pool (filled before the clock starts, as a run prewarms its toolchains), the build cached by the tree's content hash (warmed once before the clock starts, as when the
same tree is graded again), the cases in one batch. The public way, in one long-lived `native-source`
container started before the clock: for every case `docker cp` + `docker exec chmod` + `docker exec` of the
C++ test program (the reference), then the same for the Rust binary, each `docker exec` running the argv
joined into a shell string as that harness does (ours never does). Both must agree on which cases pass.

Prints `<metric>: <number>` lines; the last is `c2rust_grade_speedup` (public seconds over ours; target ≥ 20).

    python benchmarks/c2rust_grade.py [--cases 40]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import anyio
import msgspec

from repozero.datasets import Case, load_dataset
from repozero.kernel.log import configure_logging
from repozero.oracle.config import OracleConfig, cache_root
from repozero.oracle.evaluate import GradeJob, grade_one
from repozero.oracle.grading import GradingPolicy
from repozero.oracle.native_env import LocalNativeEnvironment
from repozero.oracle.records import env_spec, program_ref
from repozero.oracle.targets import build_key, build_root
from repozero.sandbox import SandboxSpec
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.docker import DockerBackend
from repozero.sandbox.images import image_ref

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "c2rust"
SAMPLE = "inih-parse"
POLICY = GradingPolicy(timeout_s=5.0)


def _docker(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["docker", *args], input=stdin, capture_output=True, check=False)


def public_way(container: str, binaries: dict[str, Path], cases: list[Case]) -> tuple[list[bool], float]:
    """Per case, per binary: docker cp, docker exec chmod, docker exec (argv joined into a shell string)."""
    passed = []
    started = time.perf_counter()
    for case in cases:
        outputs = {}
        for name, binary in binaries.items():
            inside = f"/tmp/{name}"
            _docker("cp", str(binary), f"{container}:{inside}")
            _docker("exec", container, "chmod", "+x", inside)
            command = " ".join([inside, *case.argv])  # the public harness's shell string
            outputs[name] = _docker(
                "exec", "-i", container, "sh", "-c", command, stdin=case.stdin or b""
            ).stdout
        passed.append(outputs["cpp"].strip() == outputs["rust"].strip())
    return passed, time.perf_counter() - started


async def our_way(job: GradeJob) -> tuple[list[bool], float]:
    async with DockerBackend(SandboxConfig(backend="docker"), run_id="bench-c2rust") as backend:
        await grade_one(backend, job, POLICY)  # warm: the build is cached by content from here on
        await backend.prewarm(SandboxSpec(toolchain="rust", run_id="bench-c2rust", role="grader"))
        started = time.perf_counter()
        grade = await grade_one(backend, job, POLICY)
        elapsed = time.perf_counter() - started
    return [c.status == "pass" for c in grade.cases], elapsed


async def reference_binary(dataset_root: Path) -> Path:
    """The C test program compiled as the Oracle compiles it (cached by content on the host)."""
    dataset = load_dataset(dataset_root)
    sample = dataset.sample(SAMPLE)
    env = LocalNativeEnvironment(env_spec(sample.source), cache_root(OracleConfig()))
    staged = await env.stage_program(program_ref(dataset.program_dir(SAMPLE), sample.test_program.path))
    return Path(staged) / "exe"


def main(args: argparse.Namespace) -> int:
    dataset = load_dataset(FIXTURE)
    sample = dataset.sample(SAMPLE)
    kept = sample.kept_cases
    cases = [msgspec.structs.replace(kept[i % len(kept)], id=f"k{i:03d}") for i in range(args.cases)]
    job = GradeJob(sample=sample, cases=cases, target_dir=str(dataset.gold_dir(SAMPLE)))
    ours, ours_s = anyio.run(our_way, job, backend_options={"use_uvloop": True})
    cpp = anyio.run(reference_binary, FIXTURE)
    rust = build_root() / build_key(Path(job.target_dir)) / "tree" / sample.target.entry[0]
    image = image_ref("native-source")
    started = _docker("run", "-d", "--rm", "--network", "none", image, "sleep", "infinity")
    container = started.stdout.decode().strip()
    if started.returncode != 0:
        print(f"cannot start {image}: {started.stderr.decode()[-300:]}", file=sys.stderr)
        return 1
    try:
        public, public_s = public_way(container, {"cpp": cpp, "rust": rust}, cases)
    finally:
        _docker("rm", "-f", container)
    agree = ours == public
    print(f"cases: {len(cases)}")
    print(f"passed_ours: {sum(ours)}")
    print(f"passed_public: {sum(public)}")
    print(f"verdicts_agree: {int(agree)}")
    print(f"seconds_ours: {ours_s:.2f}")
    print(f"seconds_public: {public_s:.2f}")
    print(f"ms_per_case_public: {public_s / len(cases) * 1000:.1f}")
    print(f"c2rust_grade_speedup: {public_s / ours_s:.1f}")
    return 0 if agree else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cases", type=int, default=40)
    configure_logging(level="warning")
    sys.exit(main(parser.parse_args()))
