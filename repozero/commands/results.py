"""`repozero results show RUN|SWEEP` (or `repozero results RUN|SWEEP`): which samples failed, and how;
`repozero results export SWEEP_OR_RUN`: the one results table over a sweep's cells or a run."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from repozero.commands import add_command, group
from repozero.commands.common import print_json
from repozero.orchestrator.report.per_sample import SampleLine, per_sample_lines
from repozero.orchestrator.report.results_table import FORMATS, export_table

__all__ = ["SUBCOMMANDS", "register"]

SUBCOMMANDS = ("show", "export")


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    results = group(
        subparsers, "results", "per-sample results, and tables of a sweep's or a run's results", parent
    )
    show = add_command(
        results, "show", "one line per sample and run (or sweep cell): passes, success rate, failure", parent
    )
    show.add_argument("path", type=Path, metavar="RUN_OR_SWEEP", help="a run directory or a sweep directory")
    show.add_argument("--failed", action="store_true", help="only samples with a failed attempt")
    show.add_argument("--sample", metavar="GLOB", help="only samples whose id matches")
    show.add_argument("--json", action="store_true", help="print a JSON array, one object per line")
    show.set_defaults(func=_show)
    cmd = add_command(
        results,
        "export",
        "one row per episode (round 'final') and per ACE round, keyed (cell_key, sample, attempt, round)",
        parent,
    )
    cmd.add_argument("path", type=Path, metavar="SWEEP_OR_RUN", help="a sweep directory or a run directory")
    cmd.add_argument("--format", choices=FORMATS, default="jsonl", help="file format (default jsonl)")
    cmd.add_argument("--out", type=Path, required=True, metavar="FILE", help="where to write the table")
    cmd.set_defaults(func=_export)


def _show(args: argparse.Namespace) -> int:
    lines = per_sample_lines(args.path, failed=args.failed, sample=args.sample)
    if args.json:
        print_json(lines)
        return 0
    runs = {line.run for line in lines}
    table = Table(title=f"{args.path}: {len(lines)} sample lines" + (" (failed only)" if args.failed else ""))
    for column in (["run"] if len(runs) > 1 else []) + ["sample", "difficulty", "category", "passed", "SR",
                                                        "failure", "round", "first episode"]:  # fmt: skip
        table.add_column(column, no_wrap=column in ("sample", "first episode"))
    for line in lines:
        table.add_row(*([line.run] if len(runs) > 1 else []), *_cells(line))
    Console(highlight=False).print(table)
    return 0


def _cells(line: SampleLine) -> list[str]:
    passed = f"{line.passed}/{line.attempts}" + (f" (+{line.infra} infra)" if line.infra else "")
    round_ = "—" if line.rounds_to_pass is None else str(line.rounds_to_pass)
    return [line.sample, line.difficulty, line.category, passed, f"{line.success_rate:.2f}",
            line.failure or "", round_, line.episodes[0]]  # fmt: skip


def _export(args: argparse.Namespace) -> int:
    rows = export_table(args.path, args.format, args.out)
    print(f"{rows} rows → {args.out}", file=sys.stderr)
    return 0
