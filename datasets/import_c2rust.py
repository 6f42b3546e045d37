"""Import the public RepoZero C2Rust layout: `LIB/…/tests/testN.cpp` programs plus JSONL case lines.

A line is `{"file_name": "LIB/…/tests/testN.cpp", "<key>": "<value>", …}`; the public harness passes the
values as *positional* arguments in line order (`[str(v) for k, v in line.items() if k != "file_name"]`),
so each becomes one argv element, converted exactly as Python's `str()` does — kept as a list, never a
shell string. The library comes from Debian packages named on the command line (`NAME` or
`NAME=VERSION`); the program's sibling headers are copied with it. The entry point is the binary `testN`
of a Cargo package at the target root. Samples are pending until `repozero dataset build`.
"""

from __future__ import annotations

import re
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

from repozero.datasets.disk import staged_folder, write_atomic, write_dataset_info, write_sample
from repozero.datasets.importer import DIFFICULTY_RULE, difficulty_for_index, read_case_lines, value_to_arg
from repozero.datasets.models import Case, DatasetInfo, Interface, Sample, Source, Target, TestProgram
from repozero.kernel.errors import DatasetError

__all__ = ["import_c2rust"]

_TEST_NAME = re.compile(r"^test(\d+)\.(c|cc|cpp|cxx)$")
_DEBIAN = re.compile(r"^[a-z0-9][a-z0-9+.-]+(?:=[A-Za-z0-9.+~:-]+)?$")
_HEADERS = {".h", ".hh", ".hpp", ".hxx", ".inc"}
_NO_SPEC = (
    "# {sample}\n\nThe public RepoZero C2Rust layout ships no API spec for this test program. The test\n"
    "program itself (shown to the agent) and the library's public documentation are the specification.\n"
    "Build a Cargo package at the repository root whose binary `{binary}` takes the same positional\n"
    "arguments and prints the same output (`cargo build --release` makes `target/release/{binary}`).\n"
)


def _sample_for(
    file_name: str, rows: list[dict[str, Any]], packages: list[str], tests_dir: Path, where: str
) -> tuple[Sample, Path]:
    parts = Path(file_name).parts
    match = _TEST_NAME.match(parts[-1]) if len(parts) >= 2 else None
    if match is None:
        raise DatasetError(f"{where}: $.file_name {file_name!r}: expected LIB/…/testN.c or LIB/…/testN.cpp")
    program = tests_dir / file_name
    if not program.is_file():
        raise DatasetError(f"{where}: $.file_name {file_name!r}: no such file under {tests_dir}")
    lib, index = parts[0], int(match.group(1))
    language = "c" if match.group(2) == "c" else "cpp"
    cases = [
        Case(id=f"c{n:03d}", argv=[value_to_arg(v) for k, v in row.items() if k != "file_name"])
        for n, row in enumerate(rows)
    ]
    sample = Sample(
        id=f"{lib}-test{index}",
        subset="c2rust",
        source=Source(language=language, package=packages[0], requirements=packages[1:]),  # type: ignore[arg-type]
        test_program=TestProgram(path=parts[-1], language=language),  # type: ignore[arg-type]
        interface=Interface(args=[], stdin="none", style="free"),
        target=Target(language="rust", entry=[f"target/release/test{index}"]),
        cases=cases,
        difficulty=difficulty_for_index(index),  # type: ignore[arg-type]
        difficulty_rule=DIFFICULTY_RULE,
        category=lib,
    )
    return sample, program


def _check(tests_dir: Path, cases_file: Path, packages: list[str]) -> None:
    if not packages:
        raise DatasetError("--debian-package: at least one, e.g. libhowardhinnant-date-dev")
    for package in packages:
        if not _DEBIAN.match(package):
            raise DatasetError(
                f"--debian-package {package!r}: expected NAME or NAME=VERSION, e.g. libcjson-dev"
            )
    if not tests_dir.is_dir():
        raise DatasetError(f"--tests {tests_dir}: not a folder")
    if not cases_file.is_file():
        raise DatasetError(f"--cases {cases_file}: no such file")


def import_c2rust(
    tests_dir: Path, cases_file: Path, packages: list[str], out: Path, name: str | None = None
) -> int:
    """Write a pending C2Rust dataset (no ground truth yet) to `out`; returns the number of samples."""
    _check(tests_dir, cases_file, packages)
    grouped: dict[str, list[dict[str, Any]]] = defaultdict(list)
    first_line: dict[str, int] = {}
    for number, row in read_case_lines(cases_file, "file_name", "LIB/…/testN.cpp"):
        grouped[row["file_name"]].append(row)
        first_line.setdefault(row["file_name"], number)
    built = [
        _sample_for(f, rows, packages, tests_dir, f"{cases_file}:{first_line[f]}")
        for f, rows in grouped.items()
    ]
    seen: dict[str, str] = {}
    for (sample, _), file_name in zip(built, grouped, strict=True):
        if sample.id in seen:
            raise DatasetError(
                f"{cases_file}: {file_name!r} and {seen[sample.id]!r} both make sample {sample.id}"
            )
        seen[sample.id] = file_name
    with staged_folder(out) as stage:
        for sample, program in built:
            folder = stage / "samples" / sample.id / "program"
            folder.mkdir(parents=True)
            shutil.copy2(program, folder / program.name)
            for header in program.parent.iterdir():
                if header.suffix in _HEADERS and header.is_file():
                    shutil.copy2(header, folder / header.name)
            binary = Path(sample.target.entry[0]).name
            spec = _NO_SPEC.format(sample=sample.id, binary=binary).encode()
            write_atomic(stage / "samples" / sample.id / sample.api_spec, spec)
            write_sample(stage, sample)
        write_dataset_info(
            stage, DatasetInfo(name=name or out.name, description=f"imported from {cases_file.name}")
        )
    return len(built)
