"""`dataset validate`: is this dataset what a build would write, and does the source still agree with it?

Checks the schema (loading), the content hash, per live sample exactly 4 whitebox cases and at least 10
kept cases with ground truth and provenance, and re-runs a random handful of kept cases per live sample
through the Oracle (cache off) to catch drift. A different environment fingerprint is a warning (another
machine can build the same packages a little differently); different output is a problem.
"""

from __future__ import annotations

import random
import secrets
from pathlib import Path

import anyio

from repozero.datasets import Dataset, Sample, content_hash, load_dataset
from repozero.kernel.records import Record
from repozero.oracle.actor import Oracle
from repozero.oracle.config import OracleConfig
from repozero.oracle.groups import plain_errors
from repozero.oracle.records import sample_request

__all__ = ["ValidationReport", "check_sample", "validate_dataset"]


class ValidationReport(Record, kw_only=True):
    dataset: str
    ok: bool
    samples: int
    live: int
    rechecked: int
    seed: int
    problems: list[str]
    warnings: list[str]


def check_sample(sample: Sample, config: OracleConfig) -> list[str]:
    """What is wrong with one sample's counts and records (no running)."""
    if sample.status == "pending":
        return [f"{sample.id}: status is pending (run `repozero dataset build`)"]
    if sample.status == "dropped":
        return []
    problems = []
    pending = [c.id for c in sample.cases if c.expected_stdout is None]
    if pending:
        problems.append(f"{sample.id}: live but cases {', '.join(pending[:5])} have no ground truth")
    if len(sample.whitebox) != config.whitebox:
        problems.append(
            f"{sample.id}: {len(sample.whitebox)} whitebox cases, expected exactly {config.whitebox}"
        )
    if len(sample.kept_cases) < config.min_kept:
        problems.append(f"{sample.id}: live with {len(sample.kept_cases)} kept cases (< {config.min_kept})")
    nonzero = [c.id for c in sample.kept_cases if c.expected_exit != 0]
    if nonzero:
        problems.append(f"{sample.id}: kept cases {', '.join(nonzero[:5])} expect a nonzero exit")
    if sample.provenance.repeats < 1 or not sample.provenance.fingerprint_hash:
        problems.append(f"{sample.id}: provenance lacks the fingerprint or the number of repeats")
    return problems


async def _recheck(
    dataset: Dataset, sample: Sample, oracle: Oracle, config: OracleConfig, rng: random.Random
) -> tuple[int, list[str], list[str]]:
    """Re-run a few kept cases; (cases rechecked, problems, warnings)."""
    kept = sample.kept_cases
    picked = rng.sample(kept, min(config.validate_cases, len(kept)))
    if not picked:
        return 0, [], []
    request = sample_request(
        dataset,
        sample,
        picked,
        repeats=config.validate_repeats,
        timeout_s=sample.provenance.timeout_s or config.timeout_s,
        output_cap=sample.provenance.output_cap or config.output_cap,
    )
    verdicts = await oracle.ground_truth(request, use_cache=False)
    problems = []
    for case, verdict in zip(picked, verdicts, strict=True):
        if not verdict.kept:
            problems.append(f"{sample.id}/{case.id}: drift: now {verdict.reason} ({verdict.detail})")
        elif verdict.stdout != case.expected_stdout:
            problems.append(f"{sample.id}/{case.id}: drift: stdout differs from the recorded ground truth")
    warnings = []
    fingerprint = await oracle.fingerprint(request.env)
    if fingerprint.hash != sample.provenance.fingerprint_hash:
        changed = sorted(
            k for k in fingerprint.entries.keys() | sample.provenance.fingerprint.keys()
            if fingerprint.entries.get(k) != sample.provenance.fingerprint.get(k)
        )  # fmt: skip
        warnings.append(
            f"{sample.id}: environment fingerprint differs from the build's ({', '.join(changed)})"
        )
    return len(picked), problems, warnings


async def validate_dataset(
    root: str | Path, oracle: Oracle, config: OracleConfig, *, seed: int | None = None
) -> ValidationReport:
    """Check everything; `ok` only when every check holds."""
    dataset = load_dataset(root)
    problems: list[str] = []
    if dataset.info.content_hash != (actual := content_hash(dataset)):
        problems.append(
            f"dataset.toml: content_hash {dataset.info.content_hash or '(empty)'} != actual {actual}"
        )
    for sample in dataset.samples:
        problems.extend(check_sample(sample, config))
    chosen_seed = seed if seed is not None else secrets.randbelow(2**31)
    live = [s for s in dataset.samples if s.status == "live"]
    results: dict[str, tuple[int, list[str], list[str]]] = {}

    async def recheck(sample: Sample) -> None:
        rng = random.Random(f"{chosen_seed}:{sample.id}")
        results[sample.id] = await _recheck(dataset, sample, oracle, config, rng)

    with plain_errors():
        async with anyio.create_task_group() as tg:
            for sample in live:
                tg.start_soon(recheck, sample)
    warnings: list[str] = []
    for sample in live:
        problems.extend(results[sample.id][1])
        warnings.extend(results[sample.id][2])
    return ValidationReport(
        dataset=str(dataset.root),
        ok=not problems,
        samples=len(dataset.samples),
        live=len(live),
        rechecked=sum(r[0] for r in results.values()),
        seed=chosen_seed,
        problems=problems,
        warnings=warnings,
    )
