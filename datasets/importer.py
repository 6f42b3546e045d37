"""Import the public RepoZero layout: `LIB/testN.py` scripts plus JSONL lines of `--key value` cases.

Every key but `filename` becomes `--key value` in line order, each value converted exactly as Python's
`str()` does (`1e-05`, `True`, `None`), so the argv is byte for byte what the public harness passes —
but kept as a list, never joined into a shell string.
"""

from __future__ import annotations

import json
import re
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

from repozero.datasets.disk import staged_folder, write_atomic, write_dataset_info, write_sample
from repozero.datasets.models import (
    Argument,
    Case,
    DatasetInfo,
    Interface,
    Sample,
    Source,
    Target,
    TestProgram,
)
from repozero.kernel.errors import DatasetError
from repozero.kernel.textio import read_source, read_text

__all__ = ["DIFFICULTY_RULE", "difficulty_for_index", "import_repozero", "value_to_arg"]

DIFFICULTY_RULE = "repozero-public: test index 1-6 easy, 7-13 medium, 14+ hard"
_TEST_NAME = re.compile(r"^test(\d+)\.py$")
_PIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*==[A-Za-z0-9][A-Za-z0-9.+!_-]*$")
_NO_SPEC = (
    "# {sample}\n\nThe public RepoZero layout ships no API spec for this test program. The test program\n"
    "itself (shown to the agent) and the package's public documentation are the specification.\n"
)


def value_to_arg(value: Any) -> str:
    """What the public harness passes for a JSON value: Python's `str()` of the decoded object."""
    return value if isinstance(value, str) else str(value)


def difficulty_for_index(index: int) -> str:
    return "easy" if index <= 6 else "medium" if index <= 13 else "hard"


def _arg_format(values: list[Any]) -> str:
    kinds = {type(v) for v in values}
    for kind, name in ((bool, "bool"), (int, "int"), (str, "str")):
        if kinds == {kind}:
            return name
    if kinds <= {int, float}:
        return "float"
    return "json" if kinds & {list, dict} else "str"


def read_case_lines(cases_file: Path, key: str, names: str) -> list[tuple[int, dict[str, Any]]]:
    """(line number, row) of a public-layout JSON-lines cases file whose rows name their test program in
    `key` (`names`: what that string should look like, for the error)."""
    rows = []
    text = read_text(cases_file, error=DatasetError)  # split on \n only: a JSON string may hold U+2028
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{cases_file}:{number}: invalid JSON: {exc.msg}") from None
        if not isinstance(row, dict) or not isinstance(row.get(key), str):
            raise DatasetError(f"{cases_file}:{number}: $.{key}: expected a string naming {names}")
        rows.append((number, row))
    return rows


def _sample_for(
    filename: str, rows: list[dict[str, Any]], package: str, tests_dir: Path, where: str
) -> tuple[Sample, Path]:
    parts = Path(filename).parts
    match = _TEST_NAME.match(parts[-1]) if len(parts) == 2 else None
    if match is None:
        raise DatasetError(f"{where}: $.filename {filename!r}: expected LIB/testN.py")
    script = tests_dir / filename
    if not script.is_file():
        raise DatasetError(f"{where}: $.filename {filename!r}: no such file under {tests_dir}")
    read_source(script, "python", error=DatasetError)  # unreadable to python: fail now, not in the Oracle
    lib, index = parts[0], int(match.group(1))
    keys: dict[str, list[Any]] = defaultdict(list)
    cases = []
    for number, row in enumerate(rows):
        argv: list[str] = []
        for key, value in row.items():
            if key != "filename":
                argv += [f"--{key}", value_to_arg(value)]
                keys[key].append(value)
        cases.append(Case(id=f"c{number:03d}", argv=argv))
    args = [Argument(name=k, format=_arg_format(v), required=len(v) == len(rows)) for k, v in keys.items()]  # type: ignore[arg-type]
    sample = Sample(
        id=f"{lib}-test{index}",
        subset="py2js",
        source=Source(language="python", package=package, requirements=[package]),
        test_program=TestProgram(path=parts[-1]),
        interface=Interface(args=args, stdin="none", style="named"),
        target=Target(language="javascript", entry=["node", f"test{index}.mjs"]),
        cases=cases,
        difficulty=difficulty_for_index(index),  # type: ignore[arg-type]
        difficulty_rule=DIFFICULTY_RULE,
        category=lib,
    )
    return sample, script


def import_repozero(
    tests_dir: Path, cases_file: Path, package: str, out: Path, name: str | None = None
) -> int:
    """Write a pending dataset (no ground truth yet) to `out`; returns the number of samples."""
    if not _PIN.match(package):
        raise DatasetError(
            f"--source-package {package!r}: expected NAME==VERSION, e.g. 'python-slugify==8.0.4'"
        )
    if not tests_dir.is_dir():
        raise DatasetError(f"--tests {tests_dir}: not a folder")
    if not cases_file.is_file():
        raise DatasetError(f"--cases {cases_file}: no such file")
    grouped: dict[str, list[dict[str, Any]]] = defaultdict(list)
    first_line: dict[str, int] = {}
    for number, row in read_case_lines(cases_file, "filename", "LIB/testN.py"):
        grouped[row["filename"]].append(row)
        first_line.setdefault(row["filename"], number)
    built = [
        _sample_for(f, rows, package, tests_dir, f"{cases_file}:{first_line[f]}")
        for f, rows in grouped.items()
    ]
    with staged_folder(out) as stage:
        for sample, script in built:
            folder = stage / "samples" / sample.id
            (folder / "program").mkdir(parents=True)
            shutil.copy2(script, folder / "program" / script.name)
            write_atomic(folder / sample.api_spec, _NO_SPEC.format(sample=sample.id).encode())
            write_sample(stage, sample)
        write_dataset_info(
            stage, DatasetInfo(name=name or out.name, description=f"imported from {cases_file.name}")
        )
    return len(built)
