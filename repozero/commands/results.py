"""`repozero results export SWEEP_OR_RUN`: the one results table over a sweep's cells or a run."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from repozero.commands import add_command, group
from repozero.orchestrator.results_table import FORMATS, export_table


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    results = group(subparsers, "results", "tables of a sweep's or a run's results", parent)
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


def _export(args: argparse.Namespace) -> int:
    rows = export_table(args.path, args.format, args.out)
    print(f"{rows} rows → {args.out}", file=sys.stderr)
    return 0
