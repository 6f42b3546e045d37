"""The run manifest: written first, before any episode, so every result can be traced to what made it."""

from __future__ import annotations

import hashlib
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from repozero.kernel import __version__
from repozero.kernel.errors import DatasetError, UsageError
from repozero.kernel.records import Record

if TYPE_CHECKING:  # the manifest is read by reports: building one is the run's business
    from repozero.datasets import Dataset
    from repozero.orchestrator.engine.config import Config
    from repozero.orchestrator.engine.protocols import Protocol
    from repozero.orchestrator.engine.spec import RunSpec
    from repozero.traces import RunRecord

__all__ = [
    "MANIFEST_NAME",
    "RunManifest",
    "git_sha",
    "new_manifest",
    "read_manifest",
    "run_record",
    "write_manifest",
]

MANIFEST_NAME = "manifest.json"
SCHEMA_VERSION = 1


class RunManifest(Record, kw_only=True):
    schema_version: int = SCHEMA_VERSION
    run_id: str
    created_at: float
    package_version: str = __version__
    git_sha: str = ""
    dataset_name: str
    dataset_path: str
    dataset_hash: str
    samples: list[str]
    model: str
    scaffold: str
    ace_rounds: int
    attempts: int
    ace_branches: int = 1
    protocol: dict[str, Any]
    grader_version: str
    config: dict[str, Any]
    config_hash: str
    seed: int = 0
    sandbox_backend: str = "local"
    toolchains: dict[str, str] = {}
    images: dict[str, str] = {}
    limiters: dict[str, int] = {}
    resumed_at: list[float] = []


def _check_recorded_hash(dataset: Dataset, digest: str) -> None:
    """A dataset whose files no longer hash to what its `dataset.toml` recorded (a sample.json edited
    or cut since the build, its cases or gold changed) is refused before a run records anything."""
    recorded = dataset.info.content_hash
    if recorded and recorded != digest:
        raise DatasetError(
            f"{dataset.root / 'dataset.toml'}: content_hash is {recorded} but the samples hash to {digest}: "
            "a sample changed since the dataset was built; restore it, or rebuild it (`repozero dataset "
            "build`) and record the new hash"
        )


def new_manifest(
    config: Config,
    spec: RunSpec,
    dataset: Dataset,
    protocol: Protocol,
    *,
    run_id: str,
    samples: list[str],
    limiters: dict[str, int],
) -> RunManifest:
    """What a run is about to do, before any episode: the run directory's first file."""
    from repozero.datasets import content_hash
    from repozero.oracle.grading import GRADER_VERSION
    from repozero.orchestrator.engine.config import config_data
    from repozero.sandbox import toolchain_versions

    cfg = config_data(config)  # credentials redacted: the manifest is shared, uploaded, attached
    digest = content_hash(dataset)
    _check_recorded_hash(dataset, digest)
    return RunManifest(
        run_id=run_id,
        created_at=time.time(),
        git_sha=git_sha(),
        dataset_name=dataset.name,
        dataset_path=str(dataset.root.resolve()),
        dataset_hash=digest,
        samples=samples,
        model=spec.model,
        scaffold=spec.scaffold,
        ace_rounds=spec.ace_rounds,
        ace_branches=spec.ace_branches,
        attempts=spec.attempts,
        protocol=msgspec.to_builtins(protocol),
        grader_version=GRADER_VERSION,
        config=cfg,
        config_hash=config_hash(cfg),
        seed=spec.seed,
        sandbox_backend=spec.sandbox,
        toolchains=toolchain_versions(),
        limiters=limiters,
    )


def run_record(manifest: RunManifest) -> RunRecord:
    """The trace's run record: the manifest's facts a trace reader needs."""
    from repozero.traces import RunRecord

    return RunRecord(
        run_id=manifest.run_id,
        started_at=manifest.created_at,
        protocol=manifest.protocol["name"],
        grader_version=manifest.grader_version,
        config=manifest.config,
        versions={"repozero": manifest.package_version, "git": manifest.git_sha, **manifest.toolchains},
        dataset={"name": manifest.dataset_name, "hash": manifest.dataset_hash},
    )


def git_sha() -> str:
    """The checkout's commit, when the package runs from a git checkout ("" otherwise)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True, text=True, timeout=5
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def config_hash(config: dict[str, Any]) -> str:
    return "sha256:" + hashlib.sha256(msgspec.json.encode(config, order="deterministic")).hexdigest()


def write_manifest(run_dir: Path, manifest: RunManifest) -> None:
    from repozero.datasets.disk import write_atomic

    write_atomic(
        run_dir / MANIFEST_NAME, msgspec.json.format(msgspec.json.encode(manifest), indent=2) + b"\n"
    )


def read_manifest(run_dir: Path) -> RunManifest:
    path = run_dir / MANIFEST_NAME
    try:
        return msgspec.json.decode(path.read_bytes(), type=RunManifest)
    except FileNotFoundError:
        raise UsageError(f"{run_dir}: not a run directory (no {MANIFEST_NAME})") from None
    except msgspec.ValidationError as exc:
        raise UsageError(f"{path}: {exc}") from None
    except msgspec.DecodeError as exc:
        raise UsageError(f"{path}: invalid JSON: {exc}") from None


def now() -> float:
    return time.time()
