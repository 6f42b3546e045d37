"""`dataset build`: run the Oracle over every case input of a dataset and record the ground truth.

Each sample's inputs (its cases, plus cases an earlier build dropped) go through the determinism filter
(a generated sample's inputs that break its interface excepted: they stay `invalid_input`, unrun).
Kept cases get their expected stdout; the whitebox ones are those the sample already marks whitebox (if
kept), then the first kept cases in input order, up to 4. A sample left with fewer than 10 kept cases is
marked `dropped`. Everything is computed first and written after, each file atomically, the dataset's
content hash last.
"""

from __future__ import annotations

import fnmatch
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import anyio
import msgspec

from repozero.datasets import (
    Case,
    Dataset,
    DroppedCase,
    Generation,
    Provenance,
    Sample,
    content_hash,
    load_dataset,
    write_dataset_info,
    write_sample,
)
from repozero.datasets.interface import input_problems
from repozero.kernel.errors import DatasetError, UsageError
from repozero.kernel.log import get_logger
from repozero.kernel.records import Record
from repozero.oracle.actor import Oracle
from repozero.oracle.config import OracleConfig
from repozero.oracle.groups import plain_errors
from repozero.oracle.records import Fingerprint, GroundTruthRequest, Verdict, sample_request

__all__ = ["BuildReport", "SampleBuild", "build_dataset", "build_sample", "select_samples"]

log = get_logger(__name__)


class SampleBuild(Record, kw_only=True):
    """What a build did to one sample."""

    id: str
    status: str
    kept: int
    dropped: int
    reasons: dict[str, int]
    whitebox: list[str]


class BuildReport(Record, kw_only=True):
    dataset: str
    content_hash: str
    repeats: int
    seconds: float
    samples: list[SampleBuild]


def select_samples(dataset: Dataset, pattern: str) -> list[Sample]:
    """Samples whose id matches the glob, or a UsageError naming the ids there are."""
    chosen = [s for s in dataset.samples if fnmatch.fnmatchcase(s.id, pattern)]
    if not chosen:
        known = ", ".join(s.id for s in dataset.samples) or "none"
        raise UsageError(f"--samples {pattern!r} matches no sample of {dataset.root} (samples: {known})")
    for sample in chosen:
        if (sample.source.language == "python") != (sample.test_program.language == "python"):
            raise DatasetError(
                f"{dataset.sample_dir(sample.id) / 'sample.json'}: $.test_program.language "
                f"{sample.test_program.language!r} cannot run on a {sample.source.language!r} source"
            )
    return chosen


def _inputs(sample: Sample) -> list[Case]:
    """Every input a build considers: current cases, then inputs an earlier build dropped."""
    seen = {c.id for c in sample.cases}
    again = [Case(id=d.id, argv=d.argv, stdin=d.stdin) for d in sample.provenance.dropped if d.id not in seen]
    return [*sample.cases, *again]


async def build_sample(
    dataset: Dataset,
    sample: Sample,
    oracle: Oracle,
    config: OracleConfig,
    repeats: int,
    use_cache: bool = True,
) -> Sample:
    """The sample with fresh ground truth, whitebox choice, status and provenance (not yet written).

    A sample `dataset generate` made keeps the rule it was made by: an input that breaks its interface is not
    run but dropped as `invalid_input` (`datasets/interface.py`), so a rebuild gives the same cases. Other
    samples' interfaces describe rather than bind (py2js-lite keeps inputs outside them on purpose, to
    probe error paths): every input of theirs runs."""
    inputs = _inputs(sample)
    problems = (
        input_problems(((c.argv, c.stdin) for c in inputs), sample.interface)
        if isinstance(sample.provenance.generation, Generation)
        else [""] * len(inputs)
    )
    valid = [c for c, problem in zip(inputs, problems, strict=True) if not problem]
    request = sample_request(
        dataset, sample, valid, repeats=repeats, timeout_s=config.timeout_s, output_cap=config.output_cap
    )
    ran = iter(await oracle.ground_truth(request, use_cache=use_cache) if valid else [])
    verdicts = [
        Verdict(id=c.id, reason="invalid_input", stdout=None, exit_code=0, detail=problem)
        if problem
        else next(ran)
        for c, problem in zip(inputs, problems, strict=True)
    ]
    fingerprint = await oracle.fingerprint(request.env)
    return _with_ground_truth(sample, inputs, verdicts, fingerprint, request, config)


def _with_ground_truth(
    sample: Sample,
    inputs: list[Case],
    verdicts: list[Verdict],
    fingerprint: Fingerprint,
    request: GroundTruthRequest,
    config: OracleConfig,
) -> Sample:
    kept = [(c, v) for c, v in zip(inputs, verdicts, strict=True) if v.kept]
    told = [c.id for c, _ in kept if c.visibility == "whitebox"][: config.whitebox]
    whitebox = set(told + [c.id for c, _ in kept if c.id not in told][: config.whitebox - len(told)])
    cases = [
        msgspec.structs.replace(
            c,
            expected_stdout=v.stdout,
            expected_exit=0,
            visibility="whitebox" if c.id in whitebox else "hidden",
        )
        for c, v in kept
    ]
    dropped = [
        DroppedCase(id=c.id, argv=c.argv, stdin=c.stdin, reason=v.reason, detail=v.detail)
        for c, v in zip(inputs, verdicts, strict=True)
        if v.reason is not None
    ]
    provenance = Provenance(
        fingerprint=fingerprint.entries,
        fingerprint_hash=fingerprint.hash,
        repeats=request.repeats,
        timeout_s=request.timeout_s,
        output_cap=request.output_cap,
        built_at=datetime.now(UTC).isoformat(timespec="seconds"),
        dropped=dropped,
        generation=sample.provenance.generation,  # who wrote the sample does not change with a rebuild
    )
    status = "live" if len(cases) >= config.min_kept else "dropped"
    return msgspec.structs.replace(sample, cases=cases, status=status, provenance=provenance)


def _summary(sample: Sample) -> SampleBuild:
    reasons = Counter(d.reason for d in sample.provenance.dropped)
    return SampleBuild(
        id=sample.id,
        status=sample.status,
        kept=len(sample.cases),
        dropped=len(sample.provenance.dropped),
        reasons=dict(sorted(reasons.items())),
        whitebox=[c.id for c in sample.whitebox],
    )


async def build_dataset(
    root: str | Path,
    oracle: Oracle,
    config: OracleConfig,
    *,
    repeats: int | None = None,
    samples: str = "*",
    use_cache: bool = True,
) -> BuildReport:
    """Build ground truth for the matching samples of the dataset at `root` and write it back."""
    started = time.monotonic()
    dataset = load_dataset(root)
    chosen = select_samples(dataset, samples)
    n = repeats or config.repeats
    if n < 1:
        raise UsageError(f"--repeats {n}: must be at least 1")
    built: dict[str, Sample] = {}

    async def one(sample: Sample) -> None:
        built[sample.id] = await build_sample(dataset, sample, oracle, config, n, use_cache)
        log.info("dataset_sample_built", sample=sample.id, status=built[sample.id].status,
                 kept=len(built[sample.id].cases), dropped=len(built[sample.id].provenance.dropped))  # fmt: skip

    with plain_errors():
        async with anyio.create_task_group() as tg:
            for sample in chosen:
                tg.start_soon(one, sample)
    for sample in chosen:  # computed first, written after: an interrupted build leaves the old files
        write_sample(dataset.root, built[sample.id])
        dataset.replace(built[sample.id])
    digest = content_hash(dataset)
    write_dataset_info(dataset.root, msgspec.structs.replace(dataset.info, content_hash=digest))
    return BuildReport(
        dataset=str(dataset.root),
        content_hash=digest,
        repeats=n,
        seconds=round(time.monotonic() - started, 3),
        samples=[_summary(built[s.id]) for s in chosen],
    )
