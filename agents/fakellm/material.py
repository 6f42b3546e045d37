"""What the scripted policies may use from a sample: its gold tree, its buggy tree, its tester inputs and
its whitebox cases — never a hidden case. Read once per sample and cached.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from repozero.agents.fakellm.patch import PatchError, apply_patch
from repozero.datasets import Case, Dataset
from repozero.kernel.errors import DatasetError
from repozero.kernel.records import Record
from repozero.kernel.textio import read_text
from repozero.sandbox.toolchains import build_command

__all__ = ["SampleMaterial", "SampleShelf"]


class SampleMaterial(Record):
    """One sample, as the policies see it."""

    sample_id: str
    entry: list[str]
    build: list[str]
    """What makes the entry point before it runs (`cargo build …` for Rust; empty for JavaScript)."""
    gold: dict[str, bytes]
    buggy: dict[str, bytes]
    tester_inputs: list[dict[str, Any]]
    whitebox: list[Case]


def read_tree(root: Path) -> dict[str, bytes]:
    """Every file under `root`, keyed by its POSIX path relative to `root`."""
    if not root.is_dir():
        return {}
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _tester_inputs(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    try:
        raw = json.loads(read_text(path, error=DatasetError))
    except ValueError as exc:
        raise DatasetError(f"{path}: invalid JSON: {exc}") from None
    inputs = raw.get("inputs") if isinstance(raw, dict) else None
    if not isinstance(inputs, list) or not all(isinstance(i, dict) and "argv" in i for i in inputs):
        raise DatasetError(f'{path}: expected {{"inputs": [{{"argv": [...], "stdin": null}}, ...]}}')
    return inputs


class SampleShelf:
    """Loads each sample's material on first use and keeps it."""

    def __init__(self, dataset: Dataset) -> None:
        self.dataset = dataset
        self._cache: dict[str, SampleMaterial] = {}

    def get(self, sample_id: str) -> SampleMaterial:
        """The material of `sample_id`; DatasetError if the dataset has no such sample."""
        if sample_id not in self._cache:
            self._cache[sample_id] = self._load(sample_id)
        return self._cache[sample_id]

    def _load(self, sample_id: str) -> SampleMaterial:
        sample = self.dataset.sample(sample_id)
        folder = self.dataset.sample_dir(sample_id)
        gold = read_tree(self.dataset.gold_dir(sample_id))
        patch_path = folder / "buggy.patch"
        buggy = gold
        if patch_path.is_file():
            try:
                buggy = apply_patch(gold, patch_path.read_bytes())
            except PatchError as exc:
                raise DatasetError(f"{patch_path}: {exc}") from None
        return SampleMaterial(
            sample_id=sample_id,
            entry=list(sample.target.entry),
            build=build_command(sample.target.language),
            gold=gold,
            buggy=buggy,
            tester_inputs=_tester_inputs(folder / "tester_inputs.json"),
            whitebox=[c for c in sample.cases if c.visibility == "whitebox"],
        )
