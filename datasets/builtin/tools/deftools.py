"""What make_py2js_lite.py and c2rust/make_c2rust_lite.py share: reading sample definitions from a defs/
folder, their cases and arguments as records, writing every pending sample.json, the split by library and
dataset.toml with the content hash of what is on disk."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from repozero.datasets import (
    Argument,
    Case,
    DatasetInfo,
    Sample,
    content_hash,
    load_dataset,
    write_dataset_info,
    write_sample,
)

__all__ = ["arguments", "cases", "load_defs", "split_of", "write_info", "write_samples", "write_splits"]


def load_defs(folder: Path, namespace: str) -> list[Any]:
    """Every SAMPLE in `folder`/*.py, in id order."""
    found = []
    for path in sorted(folder.glob("*.py")):
        spec = importlib.util.spec_from_file_location(f"{namespace}.{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found.append(module.SAMPLE)
    return sorted(found, key=lambda d: d.id)


def cases(d: Any) -> list[Case]:
    """A definition's case drafts as pending cases, `c000`, `c001`, … in order."""
    return [
        Case(
            id=f"c{i:03d}",
            argv=list(cd.argv),
            stdin=None if cd.stdin is None else cd.stdin.encode("utf-8"),
            description=cd.desc,
        )
        for i, cd in enumerate(d.cases)
    ]


def arguments(d: Any) -> list[Argument]:
    return [
        Argument(name=a.name, format=a.format, required=a.required, description=a.description) for a in d.args
    ]


def write_samples(
    root: Path,
    defs: list[Any],
    build: Callable[[Any, int], Sample],
    reach_file: Path,
    train: frozenset[str],
    only: list[str] | None,
) -> None:
    """Write each definition's pending sample (those in `only`, when given), labelled with its measured
    reach (reach.json; by calls alone until measured) and its library's split."""
    reach = json.loads(reach_file.read_text()) if reach_file.is_file() else {}
    for d in defs:
        if only and d.id not in only:
            continue
        if d.id not in reach:
            print(f"{d.id}: no reach measured yet (run measure_reach.py --sample {d.id}); labelled by calls")
        sample = build(d, int(reach.get(d.id, {}).get("reach", 0)))
        sample = msgspec.structs.replace(sample, split=split_of(sample.library, train))
        write_sample(root, sample)
        print(f"{d.id}: {len(sample.cases)} cases, {sample.difficulty}, {sample.category}, {sample.split}")


def split_of(library: str, train: frozenset[str]) -> str:
    """`train` for a library in `train`, `test` for any other: by library, so no library is in both."""
    return "train" if library in train else "test"


def write_splits(root: Path, train: frozenset[str], only: list[str] | None) -> None:
    """Set the split of each sample on disk (those in `only`, when given), changing nothing else in its
    sample.json: the ground truth stays, no rebuild needed."""
    for sample in load_dataset(root).samples:
        if only and sample.id not in only:
            continue
        split = split_of(sample.library, train)
        write_sample(root, msgspec.structs.replace(sample, split=split))
        print(f"{sample.id}: {split} ({sample.library})")


def write_info(root: Path, info: DatasetInfo) -> None:
    """dataset.toml: `info` with the content hash of the samples now on disk."""
    if not (root / "dataset.toml").is_file():  # load_dataset needs one to read the samples
        write_dataset_info(root, info)
    digest = content_hash(load_dataset(root))
    write_dataset_info(root, msgspec.structs.replace(info, content_hash=digest))
    print(f"content_hash: {digest}")
