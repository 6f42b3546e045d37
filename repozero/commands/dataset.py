"""`repozero dataset list|show|hash|import-repozero`: look at datasets and bring them in."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from repozero.commands import add_command, group
from repozero.commands.common import print_json
from repozero.commands.dataset_stats import print_stats
from repozero.datasets import content_hash, import_repozero, load_dataset
from repozero.datasets.disk import builtin_root
from repozero.datasets.import_c2rust import import_c2rust
from repozero.datasets.stats import dataset_stats


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    commands = group(subparsers, "dataset", "list, show, hash, import, build and validate datasets", parent)
    lister = add_command(commands, "list", "list the samples of a dataset (or the built-in datasets)", parent)
    lister.add_argument("dataset", nargs="?", help="dataset folder or builtin:NAME (default: list built-ins)")
    lister.add_argument("--json", action="store_true", help="print a JSON array, one object per sample")
    lister.set_defaults(func=_list)
    show = add_command(commands, "show", "show one sample: interface, cases, provenance", parent)
    show.add_argument("dataset", help="dataset folder or builtin:NAME")
    show.add_argument("sample", help="sample id")
    show.add_argument("--json", action="store_true", help="print the sample record as JSON")
    show.set_defaults(func=_show)
    stats = add_command(
        commands, "stats", "the dataset's shape: libraries, difficulty, cases, API calls", parent
    )
    stats.add_argument("dataset", help="dataset folder or builtin:NAME")
    stats.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    stats.set_defaults(func=_stats)
    hasher = add_command(commands, "hash", "print the dataset's content hash", parent)
    hasher.add_argument("dataset", help="dataset folder or builtin:NAME")
    hasher.set_defaults(func=_hash)
    importer = add_command(
        commands, "import-repozero", "import the public RepoZero layout (Py2JS or C2Rust)", parent
    )
    importer.add_argument(
        "--tests", required=True, type=Path, help="folder holding LIB/testN.py (or LIB/…/testN.cpp) programs"
    )
    importer.add_argument("--cases", required=True, type=Path, help="JSONL file of cases")
    source = importer.add_mutually_exclusive_group(required=True)
    source.add_argument("--source-package", help="Py2JS: the pinned PyPI package, NAME==VERSION")
    source.add_argument(
        "--debian-package", action="append", metavar="NAME[=VERSION]",
        help="C2Rust: a Debian package holding the C/C++ library (repeatable)",
    )  # fmt: skip
    importer.add_argument("--out", required=True, type=Path, help="new dataset folder (must not exist)")
    importer.add_argument("--name", help="dataset name (default: the --out folder's name)")
    importer.set_defaults(func=_import)


def _summary(sample: Any) -> dict[str, Any]:
    return {
        "id": sample.id,
        "library": sample.library,
        "subset": sample.subset,
        "difficulty": sample.difficulty,
        "category": sample.category,
        "split": sample.split,
        "kept_cases": len(sample.kept_cases),
        "dropped_cases": len(sample.provenance.dropped),
    }


def _list(args: argparse.Namespace) -> int:
    if args.dataset is None:
        names = sorted(p.name for p in builtin_root().iterdir() if (p / "dataset.toml").is_file())
        if args.json:
            print_json([f"builtin:{n}" for n in names])
        else:
            for name in names:
                print(f"builtin:{name}")
        return 0
    dataset = load_dataset(args.dataset)
    rows = [_summary(s) for s in dataset.samples]
    if args.json:
        print_json(rows)
        return 0
    table = Table(title=f"{dataset.name} ({len(rows)} samples)")
    for column in (
        "id",
        "package",
        "subset",
        "difficulty",
        "category",
        "split",
        "kept_cases",
        "dropped_cases",
    ):
        table.add_column(column, no_wrap=column == "id")  # an id is what --samples needs: never cut
    for row in rows:
        table.add_row(*("—" if v is None else str(v) for v in row.values()))
    Console().print(table)
    return 0


def _show(args: argparse.Namespace) -> int:
    dataset = load_dataset(args.dataset)
    sample = dataset.sample(args.sample)
    if args.json:
        print_json(sample)
        return 0
    console = Console()
    console.print(
        f"[bold]{sample.id}[/bold]  {sample.source.package}  {sample.subset}  "
        f"{sample.difficulty} ({sample.difficulty_rule or 'no rule recorded'})  {sample.category}"
    )
    console.print(f"test program: {sample.test_program.path}   entry: {' '.join(sample.target.entry)}")
    args_text = ", ".join(
        f"--{a.name} <{a.format}>{'' if a.required else '?'}" for a in sample.interface.args
    )
    console.print(f"interface: {args_text or '(no named arguments)'}; stdin {sample.interface.stdin}")
    table = Table(title=f"cases ({len(sample.kept_cases)} kept, {len(sample.provenance.dropped)} dropped)")
    for column in ("id", "visibility", "argv", "expected"):
        table.add_column(column, overflow="fold")
    for case in sample.cases:
        expected = (
            "pending"
            if case.expected_stdout is None
            else f"{len(case.expected_stdout)} bytes, exit {case.expected_exit}"
        )
        table.add_row(case.id, case.visibility, repr(case.argv)[:80], expected)
    console.print(table)
    return 0


def _stats(args: argparse.Namespace) -> int:
    dataset = load_dataset(args.dataset)
    stats = dataset_stats(dataset, content_hash(dataset))
    if args.json:
        print_json(stats)
    else:
        print_stats(stats)
    return 0


def _hash(args: argparse.Namespace) -> int:
    print(content_hash(load_dataset(args.dataset)))
    return 0


def _import(args: argparse.Namespace) -> int:
    if args.debian_package:
        count = import_c2rust(args.tests, args.cases, args.debian_package, args.out, args.name)
    else:
        count = import_repozero(args.tests, args.cases, args.source_package, args.out, args.name)
    print(f"imported {count} samples into {args.out} (pending: run `repozero dataset build {args.out}`)")
    return 0
