"""What make_py2js_lite.py and c2rust/make_c2rust_lite.py share: reading sample definitions from a defs/
folder, their cases and arguments as records, and writing every pending sample.json."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from repozero.datasets import Argument, Case, Sample, write_sample

__all__ = ["arguments", "cases", "load_defs", "write_samples"]


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
    root: Path, defs: list[Any], build: Callable[[Any, int], Sample], reach_file: Path, only: list[str] | None
) -> None:
    """Write each definition's pending sample (those in `only`, when given), labelled with its measured
    reach (reach.json; by calls alone until measured)."""
    reach = json.loads(reach_file.read_text()) if reach_file.is_file() else {}
    for d in defs:
        if only and d.id not in only:
            continue
        if d.id not in reach:
            print(f"{d.id}: no reach measured yet (run measure_reach.py --sample {d.id}); labelled by calls")
        sample = build(d, int(reach.get(d.id, {}).get("reach", 0)))
        write_sample(root, sample)
        print(f"{d.id}: {len(sample.cases)} cases, {sample.difficulty}, {sample.category}")
