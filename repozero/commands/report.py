"""`repozero report RUN_DIR…`: the paper's tables and figures for any runs, side by side."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from repozero.commands import add_command
from repozero.kernel.errors import UsageError
from repozero.orchestrator.report import DEFAULT_RESAMPLES, Report, build_report, load_run
from repozero.orchestrator.report.render_html import render_html
from repozero.orchestrator.report.render_json import render_json
from repozero.orchestrator.report.render_md import render_markdown

RENDERERS = {"md": render_markdown, "html": render_html, "json": render_json}


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    parser = add_command(subparsers, "report", "tables and figures for one or more run directories", parent)
    parser.add_argument(
        "runs",
        nargs="+",
        type=Path,
        metavar="RUN_DIR",
        help="run directories (one column each); a sweep directory stands for all its cells",
    )
    parser.add_argument(
        "--out", type=Path, help="write report.<format> here (all three formats unless --format); else stdout"
    )
    parser.add_argument("--format", choices=sorted(RENDERERS), help="md (default on stdout), html or json")
    parser.add_argument(
        "--resamples",
        type=int,
        default=DEFAULT_RESAMPLES,
        help=f"bootstrap resamples (default {DEFAULT_RESAMPLES})",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="bootstrap seed, recorded in the report (default 0)"
    )
    parser.set_defaults(func=_report)


def _report(args: argparse.Namespace) -> int:
    if args.resamples < 2:
        raise UsageError(f"--resamples {args.resamples}: need at least 2")
    if args.out is None and args.format == "html":
        raise UsageError("--format html writes a file: give --out DIR")
    runs = [load_run(path) for given in args.runs for path in _run_dirs(given)]
    report = build_report(runs, resamples=args.resamples, seed=args.seed)
    if args.out is None:
        sys.stdout.write(RENDERERS[args.format or "md"](report))
        return 0
    for path in _write(report, args.out, [args.format] if args.format else list(RENDERERS)):
        print(path)
    return 0


def _run_dirs(path: Path) -> list[Path]:
    """A sweep directory stands for its cells (each a run directory); anything else is itself."""
    if (path / "manifest.json").exists() or not (path / "cells").is_dir():
        return [path]
    cells = sorted(c for c in (path / "cells").iterdir() if (c / "manifest.json").exists())
    return cells or [path]


def _write(report: Report, out: Path, formats: list[str]) -> list[Path]:
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for fmt in formats:
        path = out / f"report.{fmt}"
        path.write_text(RENDERERS[fmt](report), encoding="utf-8")
        written.append(path)
    return written
