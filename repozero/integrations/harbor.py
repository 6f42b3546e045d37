"""Export a RepoZero dataset as Harbor tasks: one task folder per sample, graded as RepoZero grades it.

A task is what Harbor's loader reads: `instruction.md` (our coder prompt: API spec, whitebox cases,
rules), `task.toml`, `environment/` (a Dockerfile on our offline target image), `tests/` (the verifier: the
sample's graded cases with their ground truth, our rule modules and batch driver, built into a separate,
network-less verifier image) and `solution/` (the gold reference, where the sample has one). Hidden cases go
to `tests/` only, never to `instruction.md` or `environment/`.
"""

from __future__ import annotations

import base64
import fnmatch
import inspect
import json
import shutil
import tempfile
from pathlib import Path

import structlog

from repozero import Config, Dataset, Sample, load_dataset
from repozero.integrations import harbor_files as files
from repozero.integrations import harbor_verify
from repozero.integrations.harbor_internals import (
    DRIVER_PATH,
    BatchStops,
    CaseInput,
    UsageError,
    case_jobs,
    cheats,
    coder_task,
    driver_argv,
    get_protocol,
    graded_cases,
    image_ref,
    node_entry,
    pack_batch,
    rust_cheats,
    select_split,
    task_view,
    timeout_threshold_ns,
    toolchain_for,
)

__all__ = ["AGENT_TIMEOUT_S", "BUILD_TIMEOUT_S", "ExportedTask", "export_harbor", "select_samples"]

log = structlog.get_logger()

AGENT_TIMEOUT_S = 3600
BUILD_TIMEOUT_S = 300
"""The grader's `cargo build` limit for Rust targets."""


class ExportedTask:
    """One written task: its folder, and what the hidden-case audit and the runners need to know."""

    def __init__(self, sample: Sample, path: Path, has_gold: bool) -> None:
        self.sample, self.path, self.has_gold = sample.id, path, has_gold
        self.language = sample.target.language


def select_samples(dataset: Dataset, split: str | None, pattern: str | None) -> list[Sample]:
    """The live samples of `split` whose id matches the glob `pattern` (UsageError naming the flag if none)."""
    chosen = select_split(dataset, split)
    if pattern:
        chosen = [s for s in chosen if fnmatch.fnmatch(s.id, pattern)]
    if not chosen:
        raise UsageError(f"--samples {pattern!r}: no live sample of {dataset.name} matches")
    return chosen


def export_harbor(
    config: Config, dataset_name: str, out: Path, *, split: str | None = None, samples: str | None = None
) -> list[ExportedTask]:
    """Write one Harbor task per selected sample into `out/<sample-id>/` (an existing one is replaced)."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: exists and is not a folder")
    dataset = load_dataset(dataset_name)
    protocol = get_protocol(config.run.protocol)
    if protocol.comparator != "strict":
        raise UsageError(
            f"protocol {protocol.name!r} compares with {protocol.comparator!r}; Harbor tasks compare strictly "
            "(choose a strict protocol with --set run.protocol=...)"
        )
    out.mkdir(parents=True, exist_ok=True)
    tasks = [_export_one(config, dataset, sample, out) for sample in select_samples(dataset, split, samples)]
    log.info("harbor_exported", dataset=dataset.name, tasks=len(tasks), out=str(out))
    return tasks


def _export_one(config: Config, dataset: Dataset, sample: Sample, out: Path) -> ExportedTask:
    stage = Path(tempfile.mkdtemp(dir=out, prefix=f".{sample.id}."))
    try:
        has_gold = _write_task(config, dataset, sample, stage)
        final = out / sample.id
        if final.exists():
            shutil.rmtree(final)
        stage.rename(final)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    log.debug("harbor_task_written", sample=sample.id, gold=has_gold)
    return ExportedTask(sample, final, has_gold)


def _write_task(config: Config, dataset: Dataset, sample: Sample, root: Path) -> bool:
    protocol = get_protocol(config.run.protocol)
    view = task_view(
        dataset, sample.id, show_test_program=protocol.show_test_program, whitebox=protocol.whitebox_cases
    )
    (root / "instruction.md").write_text(coder_task(view, scaffold="harbor", workdir=files.WORKDIR))
    image = image_ref(toolchain_for(sample))
    (root / "environment").mkdir()
    (root / "environment" / "Dockerfile").write_text(files.agent_dockerfile(image))
    n_cases = _write_tests(config, sample, root / "tests", image)
    policy = protocol.grading_policy(config.sandbox.output_cap)
    per_case = policy.timeout_s + config.sandbox.case_kill_after_s + 0.5
    meta = {
        "repozero_dataset": dataset.name,
        "repozero_sample": sample.id,
        "repozero_protocol": protocol.name,
        "target_language": sample.target.language,
        "difficulty": sample.difficulty,
        "category": sample.category,
    }
    (root / "task.toml").write_text(
        files.task_toml(
            name=f"repozero/{dataset.name}-{sample.id}",
            sample=sample.id,
            dataset=dataset.name,
            meta=meta,
            agent_timeout_s=AGENT_TIMEOUT_S,
            verifier_timeout_s=int(BUILD_TIMEOUT_S + n_cases * per_case + 120),
        )
    )
    return _write_solution(dataset, sample, root / "solution")


def _write_tests(config: Config, sample: Sample, tests: Path, image: str) -> int:
    """The verifier: test.sh, verify.py and the rule modules, the batch (argv/stdin) and the ground truth."""
    policy = get_protocol(config.run.protocol).grading_policy(config.sandbox.output_cap)
    cases = graded_cases(sample)
    (tests / "rules").mkdir(parents=True)
    (tests / "rules" / "cheats.py").write_text(
        inspect.getsource(cheats).replace(
            "from repozero.oracle.rust_cheats import", "from rust_cheats import"
        )
    )
    (tests / "rules" / "rust_cheats.py").write_text(inspect.getsource(rust_cheats))
    (tests / "verify.py").write_text(inspect.getsource(harbor_verify))
    (tests / "batch.sh").write_text(DRIVER_PATH.read_text())
    entry = node_entry(sample.target.entry, files.WORKDIR, policy.node_permissions)
    batch = pack_batch(entry, [CaseInput(id=c.id, argv=c.argv, stdin=c.stdin) for c in cases])
    (tests / "batch.tar").write_bytes(batch)
    task = {
        "sample": sample.id,
        "language": sample.target.language,
        "entry": sample.target.entry,
        "timeout_ns": timeout_threshold_ns(policy.timeout_s),
        "cases": [
            {
                "id": c.id,
                "visibility": c.visibility,
                "expected_exit": c.expected_exit,
                "expected_stdout": base64.b64encode(c.expected_stdout or b"").decode(),
            }
            for c in cases
        ],
    }
    (tests / "task.json").write_text(json.dumps(task, indent=1) + "\n")
    args = driver_argv(
        timeout_s=policy.timeout_s,
        output_cap=policy.output_cap,
        stderr_cap=config.sandbox.stderr_cap,
        kill_after_s=config.sandbox.case_kill_after_s,
        cwd=files.WORKDIR,
        kill_strays=True,
        jobs=case_jobs(config.sandbox.case_parallelism, config.sandbox.docker_cpus),
        stops=BatchStops(timeouts=policy.stop_after_timeouts, crashes=policy.stop_after_crashes),
    )[3:]  # after `sh -c <driver text>`: the script name and the flags
    binary = sample.target.entry[0] if sample.target.language == "rust" else ""
    script = files.test_sh(
        sample=sample.id,
        language=sample.target.language,
        entry_binary=binary,
        driver_args=args,
        build_timeout_s=BUILD_TIMEOUT_S,
    )
    (tests / "test.sh").write_text(script)
    (tests / "test.sh").chmod(0o755)
    (tests / "Dockerfile").write_text(files.verifier_dockerfile(image, image_ref("python-source")))
    (tests / "docker-compose.yaml").write_text(files.VERIFIER_COMPOSE)
    return len(cases)


def _write_solution(dataset: Dataset, sample: Sample, solution: Path) -> bool:
    gold = dataset.gold_dir(sample.id)
    if not gold.is_dir():
        return False
    shutil.copytree(gold, solution / "gold", symlinks=True)
    (solution / "solve.sh").write_text(files.solve_sh())
    (solution / "solve.sh").chmod(0o755)
    return True
