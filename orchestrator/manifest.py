"""The run manifest: written first, before any episode, so every result can be traced to what made it."""

from __future__ import annotations

import hashlib
import subprocess
import time
from pathlib import Path
from typing import Any

import msgspec

from repozero import __version__
from repozero.errors import UsageError
from repozero.records import Record

__all__ = ["MANIFEST_NAME", "RunManifest", "git_sha", "read_manifest", "write_manifest"]

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
    from repozero.datasets.store import write_atomic

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
