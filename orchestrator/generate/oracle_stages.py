"""The stages that run the source through the Oracle: the API listing, environment validation, the
determinism filter and the coverage measurement — all in the Oracle's own sandbox, as `dataset build` runs.
"""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

from repozero.datasets import Source
from repozero.kernel.errors import OracleError
from repozero.oracle.actor import Oracle
from repozero.oracle.config import OracleConfig
from repozero.oracle.records import EnvSpec, GroundTruthRequest, env_spec, program_ref
from repozero.orchestrator.generate.records import (
    CaseDraft,
    CoverageStage,
    FilterStage,
    GenerateSettings,
    RunCheck,
    ValidationStage,
)
from repozero.orchestrator.generate.whitebox import choose_whitebox
from repozero.sandbox import CaseInput

__all__ = ["ApiListing", "filter_cases", "list_api", "measure_coverage", "validate_environment"]

PROBES = Path(__file__).parent / "probes"
PROBE_TIMEOUT_S = 120.0
COVERAGE_S_PER_CASE = 10.0
"""The reach probe runs every kept case in one process under a line tracer (tens of times slower than a
plain run): its time limit grows with the cases, on top of PROBE_TIMEOUT_S."""


class ApiListing:
    """What the sample writer is shown, and what the static checks allow: the package's public modules
    (Python) or its header include paths and the function names they declare (C/C++)."""

    def __init__(self, modules: list[str], text: str, names: list[str] | None = None) -> None:
        self.modules = modules
        self.text = text
        self.names = names or []


def source_of(settings: GenerateSettings) -> Source:
    if settings.language != "python":  # a Debian package: the environment is the machine's
        return Source(language=settings.language, package=settings.source)
    return Source(language=settings.language, package=settings.source, requirements=[settings.source])


def _stage_probe(folder: Path, name: str, extra: dict[str, str] | None = None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(PROBES / name, folder / name)
    for path, text in (extra or {}).items():
        (folder / path).write_text(text, encoding="utf-8")


async def _one_run(
    oracle: Oracle,
    env: EnvSpec,
    folder: Path,
    script: str,
    case: CaseInput,
    timeout_s: float = PROBE_TIMEOUT_S,
) -> tuple[int, bytes, str]:
    request = GroundTruthRequest(
        env=env, program=program_ref(folder, script), cases=[case], repeats=1, timeout_s=timeout_s,
        output_cap=16 << 20,
    )  # fmt: skip
    (verdict,) = await oracle.ground_truth(request, use_cache=False)
    return verdict.exit_code, verdict.stdout or b"", verdict.stderr.decode(errors="replace")


async def list_api(oracle: Oracle, settings: GenerateSettings, work: Path) -> ApiListing:
    """The distribution's public API, read inside its environment (OracleError when it cannot be)."""
    folder = work / "probes" / "api"
    _stage_probe(folder, "list_api.py")
    dist = settings.source.split("==")[0]
    code, out, err = await _one_run(
        oracle, env_spec(source_of(settings)), folder, "list_api.py", CaseInput(id="api", argv=[dist])
    )
    if code != 0:
        raise OracleError(f"listing the API of {settings.source} failed (exit {code}): {err[-500:]}")
    raw = json.loads(out)
    return ApiListing(modules=list(raw["modules"]), text=str(raw["api"]))


def _inputs(cases: list[CaseDraft]) -> list[CaseInput]:
    return [CaseInput(id=c.id, argv=c.argv, stdin=c.stdin) for c in cases]


async def validate_environment(
    oracle: Oracle, settings: GenerateSettings, folder: Path, script: str, cases: list[CaseDraft],
    config: OracleConfig, attempt: int,
) -> ValidationStage:  # fmt: skip
    """Run every valid proposal once: the program is kept only if at least `min_runs` run without error."""
    valid = [c for c in cases if not c.invalid]
    request = GroundTruthRequest(
        env=env_spec(source_of(settings)), program=program_ref(folder, script), cases=_inputs(valid),
        repeats=1, timeout_s=config.timeout_s, output_cap=config.output_cap,
    )  # fmt: skip
    try:
        verdicts = await oracle.ground_truth(request) if valid else []
    except OracleError as exc:  # a C/C++ program that does not compile is the writer's to fix
        reason = "compile_error" if "does not compile" in str(exc) else "environment_failed"
        return ValidationStage(attempt=attempt, runs=[], reason=reason, detail=str(exc)[:1500])
    runs = [
        RunCheck(id=v.id, exit_code=v.exit_code, error=_last_line(v.stderr) if v.exit_code else "")
        for v in verdicts
    ]
    ok = sum(r.exit_code == 0 for r in runs)
    if ok >= settings.min_runs:
        return ValidationStage(attempt=attempt, runs=runs, reason=None)
    errors = sorted({r.error for r in runs if r.exit_code}) or ["no valid input"]
    detail = f"{ok} of {len(valid)} valid inputs ran without error (need {settings.min_runs}): {errors[0]}"
    return ValidationStage(attempt=attempt, runs=runs, reason="too_few_runs", detail=detail)


def _last_line(stderr: bytes) -> str:
    lines = stderr.decode(errors="replace").strip().splitlines()
    return lines[-1][:200] if lines else ""


async def filter_cases(
    oracle: Oracle, settings: GenerateSettings, folder: Path, script: str, cases: list[CaseDraft],
    validation: ValidationStage, config: OracleConfig,
) -> FilterStage:  # fmt: skip
    """The Oracle's determinism filter (N repeats) over the inputs that ran in validation."""
    ran = {r.id for r in validation.runs if r.exit_code == 0}
    dropped = {c.id: "invalid_input" for c in cases if c.invalid}
    details = {c.id: c.invalid for c in cases if c.invalid}
    for run in validation.runs:
        if run.exit_code:
            dropped[run.id], details[run.id] = "oracle_error", f"exit {run.exit_code}: {run.error}"
    env = env_spec(source_of(settings))
    request = GroundTruthRequest(
        env=env, program=program_ref(folder, script), cases=_inputs([c for c in cases if c.id in ran]),
        repeats=settings.repeats, timeout_s=config.timeout_s, output_cap=config.output_cap,
    )  # fmt: skip
    verdicts = await oracle.ground_truth(request)
    fingerprint = await oracle.fingerprint(env)
    kept = {v.id: v.stdout for v in verdicts if v.kept and v.stdout is not None}
    for v in verdicts:
        if v.reason is not None:
            dropped[v.id], details[v.id] = v.reason, v.detail[:300]
    reason = None if len(kept) >= settings.min_kept else "too_few_kept"
    return FilterStage(
        kept=kept, dropped=dropped, details=details, fingerprint=fingerprint.entries,
        fingerprint_hash=fingerprint.hash, reason=reason,
    )  # fmt: skip


async def measure_coverage(
    oracle: Oracle, settings: GenerateSettings, folder: Path, script: str, cases: list[CaseDraft],
    filtered: FilterStage, work: Path,
) -> CoverageStage:  # fmt: skip
    """Lines of the package reached over the kept cases (shown to voters), and the whitebox choice.

    A C/C++ library's lines are those of its headers gcov sees reached (`oracle/native_coverage.py`; none
    where the Oracle cannot measure them, e.g. on Docker); whitebox cases are chosen for distinct outputs."""
    kept = [c for c in cases if c.id in filtered.kept]
    outputs = {c.id: filtered.kept[c.id] for c in kept}
    if settings.language != "python":
        whitebox = choose_whitebox([c.id for c in kept], {}, outputs, settings.whitebox)
        measure = getattr(oracle, "native_lines", None)  # an Oracle that cannot measure: not measured
        lines = (
            await measure(env_spec(source_of(settings)), program_ref(folder, script), _inputs(kept))
            if measure
            else None
        )
        return CoverageStage(lines=lines or 0, per_case={}, whitebox=whitebox)
    probe = work / "probe"
    shutil.rmtree(probe, ignore_errors=True)
    shutil.copytree(folder, probe)
    _stage_probe(probe, "reach.py")
    payload = [
        {"id": c.id, "argv": c.argv, "stdin_b64": base64.b64encode(c.stdin).decode() if c.stdin else None}
        for c in kept
    ]
    dist = settings.source.split("==")[0]
    case = CaseInput(id="reach", argv=[dist, script], stdin=json.dumps(payload).encode())
    limit = PROBE_TIMEOUT_S + COVERAGE_S_PER_CASE * len(kept)
    code, out, err = await _one_run(oracle, env_spec(source_of(settings)), probe, "reach.py", case, limit)
    if code != 0:
        why = f"killed: over its {limit:.0f} s limit, or out of memory" if code in (124, 137) else err[-500:]
        raise OracleError(f"measuring coverage failed (exit {code}): {why}")
    raw = json.loads(out)
    per_case = {str(k): list(v) for k, v in raw["per_case"].items()}
    whitebox = choose_whitebox([c.id for c in kept], per_case, outputs, settings.whitebox)
    return CoverageStage(lines=int(raw["lines"]), per_case=per_case, whitebox=whitebox)
