"""The grader (docs/grader.md): run a target on a sample's cases in a target-only sandbox and judge strictly.

One batch per sample through the sandbox's in-sandbox driver; statuses per case; one failure category per
sample in the paper's precedence plus cheat; infra errors reported apart, never as a model's failure.
Hidden cases' outputs never leave this module: a grade carries only their ids and statuses.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import msgspec
import structlog

from repozero.datasets import Case, Sample
from repozero.kernel.errors import SandboxError
from repozero.kernel.records import Record
from repozero.kernel.vocabulary import CaseStatus, FailureCategory, OracleErrorPolicy
from repozero.oracle.cheats import runtime_flags, scan_target
from repozero.oracle.compare import Comparator, Diagnosis, compare, diagnose
from repozero.oracle.reruns import run_with_reruns
from repozero.sandbox import CaseInput, CaseRun, GradingSandbox

__all__ = [
    "GRADER_VERSION",
    "CaseOutput",
    "CaseResult",
    "CaseStatus",
    "FailureCategory",
    "GradingPolicy",
    "SampleGrade",
    "failure_category",
    "grade_in_sandbox",
    "grade_view",
    "node_entry",
    "status_of",
]

GRADER_VERSION = "1.0.0"
log = structlog.get_logger()


class GradingPolicy(Record, kw_only=True):
    """What a protocol fixes about grading."""

    comparator: Comparator = "strict"
    timeout_s: float = 5.0
    output_cap: int = 1 << 20
    node_permissions: bool = True
    """Run Node with its permission model: read the repo only, no child processes, no workers."""
    stop_after_timeouts: int = 0
    """K > 0: once K consecutive cases (in case order) time out, the rest are `not_run` — a hanging target
    costs K × timeout, not cases × timeout. Not-run cases count as failed. 0: every case runs."""
    stop_after_crashes: int = 0
    """K > 0: the same after K consecutive crashes of one kind (deaths by one signal: the memory cap's
    SIGKILL, an abort, a segfault) — a target that exhausts its memory on every input costs K deaths."""
    case_memory_mb: dict[str, int] = {}
    """Memory one graded case may take beyond what its sandbox holds, by target language (the sandbox's
    memory group lowered while the cases run): a runaway allocation dies as `oom` when it reaches it, not at
    the sandbox's whole cap after Node's garbage collector has fought its own heap limit for tens of
    seconds. A language not named: only the sandbox's cap."""
    oracle_error_policy: OracleErrorPolicy = "drop"
    """`count_as_failure` (the public scripts): a scoring grade counts every input the Oracle failed on
    (dropped as `oracle_error` when the dataset was built) as one more failed case."""


class CaseResult(Record, kw_only=True):
    """A case's verdict. No inputs or outputs: safe to store for hidden cases."""

    id: str
    visibility: str
    status: CaseStatus
    exit_code: int | None = None
    wall_s: float = 0.0
    diagnosis: Diagnosis | None = None
    rerun: bool = False
    """It timed out in its batch on a busy machine and ran again alone; this is the lone run's verdict
    (`oracle/reruns.py`)."""


class CaseOutput(Record, kw_only=True):
    """What a visible case printed, for feedback to the coder. Never built for hidden cases."""

    id: str
    stdout: bytes
    stderr: bytes
    exit_code: int
    truncated: bool = False


class SampleGrade(Record, kw_only=True):
    sample: str
    passed: bool
    success_rate: float
    failure_category: FailureCategory | None
    cheat_flags: list[str]
    infra_error: bool
    infra_detail: str = ""
    cases: list[CaseResult]
    outputs: list[CaseOutput] = []
    grader_version: str = GRADER_VERSION


def node_entry(entry: Sequence[str], workdir: str, permissions: bool) -> list[str]:
    """Insert Node's permission flags (repo read-only, nothing else) into a `node FILE` entry point."""
    if not permissions or not entry or Path(entry[0]).name != "node":
        return list(entry)
    return [entry[0], "--permission", f"--allow-fs-read={workdir}", *entry[1:]]


def entry_script(entry: Sequence[str]) -> str | None:
    """The script an interpreter entry point runs (`node test1.mjs` → `test1.mjs`), if any."""
    return next((arg for arg in entry[1:] if not arg.startswith("-")), None)


def inspect_target(target_dir: Path, entry: Sequence[str]) -> tuple[list[str], bool]:
    """Static cheat flags, and whether the entry point's script exists (a small, bounded tree walk)."""
    if not target_dir.is_dir():
        return [], False
    script = entry_script(entry)
    return scan_target(target_dir), script is None or (target_dir / script).is_file()


def status_of(case: Case, run: CaseRun, comparator: Comparator) -> CaseStatus:
    if run.not_run:
        return "not_run"
    if run.timed_out:
        return "timeout"
    if run.oom:
        return "oom"
    if run.exit_code != case.expected_exit:
        # a clean exit with the wrong code is a wrong answer; a failing exit where success was due is a crash
        return "wrong_output" if run.exit_code == 0 else "runtime_error"
    if case.expected_stdout is not None and compare(comparator, case.expected_stdout, run.stdout):
        return "pass"
    return "wrong_output"


def failure_category(
    results: Sequence[CaseResult], cheat_flags: Sequence[str], no_executable: bool
) -> FailureCategory | None:
    """The paper's four plus cheat, in precedence: no_executable, cheat, whitebox_fail, runtime_error, mismatch."""
    if no_executable:
        return "no_executable"
    if cheat_flags:
        return "cheat"
    failed = [r for r in results if r.status != "pass"]
    if not failed:
        return None
    if any(r.visibility == "whitebox" for r in failed):
        return "whitebox_fail"
    if any(r.status in ("runtime_error", "timeout", "oom") for r in failed):
        return "runtime_error"
    return "mismatch"


def _summarise(
    sample: Sample, results: list[CaseResult], flags: list[str], no_exe: bool, outputs: list[CaseOutput]
) -> SampleGrade:
    passed_cases = sum(r.status == "pass" for r in results)
    category = failure_category(results, flags, no_exe)
    rate = 0.0 if flags or not results else passed_cases / len(results)
    return SampleGrade(
        sample=sample.id,
        passed=category is None and bool(results),
        success_rate=rate,
        failure_category=category,
        cheat_flags=flags,
        infra_error=False,
        cases=results,
        outputs=outputs,
    )


def _not_run(cases: Sequence[Case], status: CaseStatus) -> list[CaseResult]:
    return [CaseResult(id=c.id, visibility=c.visibility, status=status) for c in cases]


def no_executable_grade(sample: Sample, cases: Sequence[Case], flags: list[str]) -> SampleGrade:
    """Nothing to run: every case `not_run`, category `no_executable` (no sandbox needed)."""
    return _summarise(sample, _not_run(cases, "not_run"), flags, True, [])


def infra_grade(sample: Sample, cases: Sequence[Case], detail: str) -> SampleGrade:
    return SampleGrade(
        sample=sample.id,
        passed=False,
        success_rate=0.0,
        failure_category=None,
        cheat_flags=[],
        infra_error=True,
        infra_detail=detail,
        cases=_not_run(cases, "infra_error"),
    )


async def grade_in_sandbox(
    sandbox: GradingSandbox,
    sample: Sample,
    cases: Sequence[Case],
    target_dir: Path,
    policy: GradingPolicy,
    *,
    visible_ids: frozenset[str] = frozenset(),
) -> SampleGrade:
    """Grade the target at `target_dir` (a host folder) in `sandbox`, a fresh target-only sandbox.

    `visible_ids` names the cases whose outputs may be returned for feedback; all others (hidden)
    come back as statuses only.
    """
    flags, runnable = inspect_target(target_dir, sample.target.entry)
    if not runnable:
        return _summarise(sample, _not_run(cases, "not_run"), flags, True, [])
    try:
        await sandbox.put_tree(target_dir, sandbox.workdir)
        runs, reran = await run_with_reruns(
            sandbox,
            node_entry(sample.target.entry, sandbox.workdir, policy.node_permissions),
            [CaseInput(id=c.id, argv=c.argv, stdin=c.stdin) for c in cases],
            policy,
            policy.case_memory_mb.get(sample.target.language, 0),
            sample=sample.id,
        )
    except SandboxError as exc:
        log.warning("grade_infra_error", sample=sample.id, error=str(exc))
        return infra_grade(sample, cases, str(exc))
    by_id = {run.id: run for run in runs}
    results, outputs, runtime = [], [], set()
    for case in cases:
        run = by_id.get(case.id)
        if run is None:
            results.append(CaseResult(id=case.id, visibility=case.visibility, status="infra_error"))
            continue
        status = status_of(case, run, policy.comparator)
        if status == "not_run":
            results.append(CaseResult(id=case.id, visibility=case.visibility, status=status))
            continue
        runtime.update(runtime_flags(run.stderr))
        diag = (
            None
            if status == "pass"
            else diagnose(case.expected_stdout or b"", run.stdout, case.expected_exit, run.exit_code)
        )
        results.append(
            CaseResult(
                id=case.id,
                visibility=case.visibility,
                status=status,
                exit_code=run.exit_code,
                wall_s=run.wall_s,
                diagnosis=diag,
                rerun=case.id in reran,
            )
        )
        if case.id in visible_ids:
            outputs.append(
                CaseOutput(
                    id=case.id,
                    stdout=run.stdout,
                    stderr=run.stderr,
                    exit_code=run.exit_code,
                    truncated=run.truncated,
                )
            )
    if any(r.status == "infra_error" for r in results):
        return infra_grade(sample, cases, "the batch driver returned no record for some cases")
    return _summarise(sample, results, sorted(set(flags) | runtime), False, outputs)


def count_oracle_errors(grade: SampleGrade, sample: Sample, policy: GradingPolicy) -> SampleGrade:
    """A scoring grade under `oracle_error_policy = "count_as_failure"`: the sample's inputs the Oracle
    failed on join the denominator as failed cases (so no such sample is ever solved)."""
    errors = sum(d.reason == "oracle_error" for d in sample.provenance.dropped)
    if policy.oracle_error_policy != "count_as_failure" or not errors or grade.infra_error:
        return grade
    passed = sum(c.status == "pass" for c in grade.cases)
    return msgspec.structs.replace(
        grade,
        passed=False,
        success_rate=passed / (len(grade.cases) + errors),
        failure_category=grade.failure_category or "mismatch",
    )


def merge_grades(grade: SampleGrade, extra: SampleGrade) -> SampleGrade:
    """One grade of two case sets graded apart (the visible cases, then the tester's new ones)."""
    cases = grade.cases + extra.cases
    passed = sum(c.status == "pass" for c in cases)
    return msgspec.structs.replace(
        grade,
        cases=cases,
        outputs=grade.outputs + extra.outputs,
        passed=grade.passed and extra.passed,
        success_rate=passed / len(cases) if cases else 0.0,
        cheat_flags=sorted(set(grade.cheat_flags) | set(extra.cheat_flags)),
    )


def grade_view(grade: SampleGrade, sample: Sample, ids: Sequence[str], *, outputs: bool) -> SampleGrade:
    """The grade of the cases `ids` (in that order), cut from a grade of more: one grading run serves the
    hidden view (scoring, statuses only) and the visible one (feedback, with outputs) of a round."""
    by_id = {c.id: c for c in grade.cases}
    cases = [by_id[i] for i in ids if i in by_id]
    if grade.infra_error:
        return msgspec.structs.replace(grade, cases=cases, outputs=[])
    wanted = set(ids) if outputs else set()
    shown = [o for o in grade.outputs if o.id in wanted]
    no_exe = grade.failure_category == "no_executable"
    return _summarise(sample, cases, grade.cheat_flags, no_exe, shown)
