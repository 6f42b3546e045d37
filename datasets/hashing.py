"""The dataset content hash: one digest over everything that can change a score.

Covered: each sample's test program folder (every file's path and bytes), API spec, interface, source
pins, target entry point, status, and every case's input, visibility and ground truth. Not covered:
provenance (timestamps, fingerprints), descriptions, difficulty labels — re-labelling must not split runs.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from repozero.datasets.disk import Dataset
from repozero.kernel.records import json_encoder

__all__ = ["content_hash", "sample_hash"]


def _tree_digest(folder: Path) -> list[tuple[str, str]]:
    if not folder.is_dir():
        return []
    files = sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return [(p.relative_to(folder).as_posix(), hashlib.sha256(p.read_bytes()).hexdigest()) for p in files]


def sample_hash(dataset: Dataset, sample_id: str) -> str:
    sample = dataset.sample(sample_id)
    cases = [
        (c.id, c.argv, c.stdin, c.expected_stdout, c.expected_exit, c.visibility)
        for c in sorted(sample.cases, key=lambda c: c.id)
    ]
    spec = dataset.sample_dir(sample_id) / sample.api_spec
    payload = {
        "id": sample.id,
        "program": _tree_digest(dataset.program_dir(sample_id)),
        "test_program": sample.test_program,
        "api_spec": hashlib.sha256(spec.read_bytes()).hexdigest(),
        "interface": sample.interface,
        "source": sample.source,
        "entry": sample.target.entry,
        "status": sample.status,
        "cases": cases,
    }
    return hashlib.sha256(json_encoder.encode(payload)).hexdigest()


def content_hash(dataset: Dataset) -> str:
    """sha256 over the sorted per-sample hashes; prefixed so its kind is plain in manifests."""
    digest = hashlib.sha256()
    for sample in sorted(dataset.samples, key=lambda s: s.id):
        digest.update(f"{sample.id}\0{sample_hash(dataset, sample.id)}\n".encode())
    return "sha256:" + digest.hexdigest()
