"""The pooled fresh cases of a run: every attempt's final code graded on all its sample's testers' inputs.

A best-of-k selector that may not read hidden cases can still test: each attempt's tester proposed inputs
the Oracle answered (fresh, visible cases). Pooled over a sample's attempts, they are a test suite no
attempt saw whole. `grade_pool` grades each finished attempt's last target tree on its sample's pool and
writes `RUN_DIR/pool.json`: per case, which attempts' testers proposed it; per attempt, which it passes.
A sweep does it for each cell once its episodes are over; `repozero run` for its run (`grade_run_pool`).
The report's `pooled fresh cases passed` selector reads it (orchestrator/report/selectors.py); at k it
counts only the cases the k chosen attempts' testers proposed. Cases come from the traces' Oracle answers
(kept verdicts only); hidden cases are never read here — the grading job holds pool cases and nothing else.
"""

from __future__ import annotations

import hashlib
import tarfile
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

import anyio
import msgspec
import structlog

from repozero.datasets import Case, Dataset, Sample, load_dataset
from repozero.datasets.disk import write_atomic
from repozero.kernel.records import Record
from repozero.oracle.evaluate import GradeJob, grade_one
from repozero.oracle.grading import GradingPolicy
from repozero.orchestrator.engine.config import Config
from repozero.orchestrator.engine.limits import effective_config
from repozero.orchestrator.engine.manifest import read_manifest
from repozero.orchestrator.engine.node_status import target_archive
from repozero.orchestrator.engine.protocols import get_protocol
from repozero.orchestrator.engine.results import EpisodeResult, ResultsStore
from repozero.sandbox import SandboxBackend, open_backend
from repozero.traces import TraceReader
from repozero.traces.grades import OracleAnswerRecord

__all__ = ["POOL_FILE", "PoolFile", "SamplePool", "grade_pool", "grade_run_pool", "pool_cases", "read_pool"]

log = structlog.get_logger()

POOL_FILE = "pool.json"
Origin: TypeAlias = dict[str, list[int]]
"""Pool case id → the attempts whose testers proposed it."""


class SamplePool(Record, kw_only=True):
    proposed_by: Origin
    """Pool case id → the attempts whose testers proposed it (the Oracle kept it)."""
    passed: dict[int, list[str]]
    """Attempt → the pool case ids its last round's code passes (graded attempts only)."""


class PoolFile(Record, kw_only=True):
    schema_version: int = 1
    samples: dict[str, SamplePool] = {}


def read_pool(run_dir: Path) -> PoolFile | None:
    path = run_dir / POOL_FILE
    if not path.is_file():
        return None
    try:
        return msgspec.json.decode(path.read_bytes(), type=PoolFile)
    except msgspec.MsgspecError as exc:
        log.warning("pool_unreadable", path=str(path), error=str(exc))
        return None


def pool_cases(
    run_dir: Path, finished: Iterable[EpisodeResult], *, testers: bool = True
) -> dict[str, tuple[list[Case], Origin]]:
    """Per sample with ≥ 2 finished attempts: its pooled fresh cases (deduplicated by input) and, per
    case, the attempts whose testers proposed it. `testers` False (no ACE round, so no tester ran):
    every pool is empty, and the traces are not read."""
    by_episode = {r.episode_id: r for r in finished if not r.infra_error}
    attempts: dict[str, set[int]] = {}
    for r in by_episode.values():
        attempts.setdefault(r.sample, set()).add(r.attempt)
    pools: dict[str, tuple[list[Case], Origin]] = {s: ([], {}) for s, a in attempts.items() if len(a) >= 2}
    traces = run_dir / "traces"
    reader = TraceReader(traces)
    for record in reader.records() if traces.is_dir() and testers else ():
        episode = by_episode.get(getattr(record, "episode_id", ""))
        if not isinstance(record, OracleAnswerRecord) or episode is None or episode.sample not in pools:
            continue
        cases, origin = pools[episode.sample]
        for v in record.verdicts:
            if v.kept and v.stdout is not None and v.exit_code is not None:
                # a large stdin or stdout is stored once in the blob folder: read it back
                stdin = None if v.stdin is None else reader.blobs.data(v.stdin)
                case = _case(v.argv, stdin, reader.blobs.data(v.stdout), v.exit_code)
                if case.id not in origin:
                    cases.append(case)
                origin.setdefault(case.id, []).append(episode.attempt)
    return {s: (cases, {c: sorted(set(a)) for c, a in sorted(o.items())}) for s, (cases, o) in pools.items()}


def _case(argv: list[str], stdin: bytes | None, stdout: bytes, exit_code: int) -> Case:
    key = msgspec.json.encode([argv, None if stdin is None else stdin.hex()])
    return Case(
        id=f"pool-{hashlib.sha256(key).hexdigest()[:12]}",
        argv=argv,
        stdin=stdin,
        expected_stdout=stdout,
        expected_exit=exit_code,
        visibility="whitebox",
        description="a tester's input, pooled over the sample's attempts",
    )


async def grade_pool(
    run_dir: Path,
    dataset: Dataset,
    backend: SandboxBackend | None,
    policy: GradingPolicy,
    limiter: anyio.CapacityLimiter,
) -> PoolFile:
    """Grade every finished attempt not yet graded on its sample's current pool; write `pool.json`.
    `backend` None: the run had no tester (ACE rounds 0), every pool is empty and nothing is graded."""
    store = ResultsStore.open_readonly(run_dir / "results.sqlite")
    try:
        # a store whose first commit was lost (a cut write-ahead log) has no tables: nothing finished
        finished = [r for r in store.episode_results() if not r.infra_error] if store.has_schema() else []
    finally:
        store.close()
    old = read_pool(run_dir) or PoolFile()
    pools = pool_cases(run_dir, finished, testers=backend is not None)
    passed: dict[str, dict[int, list[str]]] = {}
    async with anyio.create_task_group() as tg:
        for sample, (cases, origin) in sorted(pools.items()):
            before = old.samples.get(sample)
            graded = passed[sample] = dict(before.passed) if before and before.proposed_by == origin else {}
            for result in finished:  # the same pool keeps earlier grades; a new pool grades every attempt
                if result.sample == sample and result.attempt not in graded:
                    job = _Job(dataset.sample(sample), cases, result, graded)
                    tg.start_soon(_grade_attempt, run_dir, backend, policy, limiter, job)
    out = PoolFile(
        samples={
            s: SamplePool(proposed_by=origin, passed=dict(sorted(passed[s].items())))
            for s, (_, origin) in sorted(pools.items())
        }
    )
    data, path = msgspec.json.encode(out) + b"\n", run_dir / POOL_FILE
    if not path.is_file() or path.read_bytes() != data:  # nothing new: the file stays as it was
        write_atomic(path, data)
    return out


async def grade_run_pool(config: Config, run_dir: Path) -> PoolFile:
    """A run's pool graded as a sweep cell's is, once its episodes are over: with the dataset, protocol,
    ACE rounds and sandbox backend its manifest recorded, at most its `grading` limiter's size at once.
    Without ACE rounds no tester ran: no sandbox is opened and every pool is empty."""
    manifest = read_manifest(run_dir)
    dataset = load_dataset(manifest.dataset_path)
    policy = get_protocol(manifest.protocol["name"]).grading_policy(config.sandbox.output_cap)
    limiter = anyio.CapacityLimiter(max(manifest.limiters.get("grading", 1), 1))
    if manifest.ace_rounds == 0:
        return await grade_pool(run_dir, dataset, None, policy, limiter)
    sandbox = effective_config(config).sandbox
    async with open_backend(sandbox, manifest.sandbox_backend, run_id=manifest.run_id) as backend:
        return await grade_pool(run_dir, dataset, backend, policy, limiter)


@dataclass
class _Job:
    sample: Sample
    cases: list[Case]
    result: EpisodeResult
    graded: dict[int, list[str]]
    """Where the attempt's passed case ids go."""


async def _grade_attempt(
    run_dir: Path,
    backend: SandboxBackend | None,
    policy: GradingPolicy,
    limiter: anyio.CapacityLimiter,
    job: _Job,
) -> None:
    result = job.result
    if not job.cases or backend is None:  # nothing to run: every attempt passes the empty pool
        job.graded[result.attempt] = []
        return
    archive = target_archive(run_dir, result.episode_id, max(result.rounds_used - 1, 0))
    if not archive.is_file():
        log.warning("pool_target_missing", episode_id=result.episode_id, path=str(archive))
        return
    with tempfile.TemporaryDirectory(prefix="rz-pool-") as tmp:
        await anyio.to_thread.run_sync(_extract, archive, Path(tmp))
        grade_job = GradeJob(sample=job.sample, cases=job.cases, target_dir=tmp, scoring=False)
        async with limiter:
            grade = await grade_one(backend, grade_job, policy, run_id=run_dir.name)
    if grade.infra_error:  # not recorded: the next invocation grades it again
        log.warning("pool_grade_failed", episode_id=result.episode_id, detail=grade.infra_detail)
        return
    job.graded[result.attempt] = sorted(c.id for c in grade.cases if c.status == "pass")


def _extract(archive: Path, into: Path) -> None:
    with tarfile.open(archive, "r:gz") as tar:
        tar.extractall(into, filter="data")
