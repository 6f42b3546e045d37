"""`repozero traces export|view`: captured traces → trainer files, and a local page to look at any episode."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from repozero.commands import add_command, group
from repozero.commands.common import print_json
from repozero.traces.export import FORMATS, ExportFilters, ExportOptions, ExportSummary, export_runs


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    commands = group(subparsers, "traces", "inspect captured traces (RL/SFT)", parent)
    export = add_command(commands, "export", "write finished episodes as SFT, RL or Parquet files", parent)
    export.add_argument("runs", nargs="+", type=Path, metavar="RUN_DIR", help="run (or trace) directories")
    export.add_argument("--format", required=True, choices=FORMATS, help="what to write (see docs/traces-export.md)")  # fmt: skip
    export.add_argument("--out", required=True, type=Path, metavar="DIR", help="output folder")
    export.add_argument("--overwrite", action="store_true", help="replace an earlier export in DIR")
    export.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    _filter_options(export.add_argument_group("filters"))
    _shape_options(export.add_argument_group("split and row shape"))
    export.set_defaults(func=_export)
    view = add_command(commands, "view", "browse runs, episodes and timelines on a local web page", parent)
    view.add_argument("runs", nargs="+", type=Path, metavar="RUN_DIR", help="run (or trace) directories")
    view.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (0: any free port; default 8765)")  # fmt: skip
    view.set_defaults(func=_view)


def _filter_options(g: Any) -> None:
    g.add_argument("--passed-only", action="store_true", help="only solved episodes")
    g.add_argument("--min-reward", type=float, metavar="R", help="only episodes with reward >= R")
    g.add_argument("--role", action="append", default=[], metavar="ROLE", help="keep this agent role (repeatable)")  # fmt: skip
    g.add_argument("--model", action="append", default=[], metavar="GLOB", help="keep calls of matching models (repeatable)")  # fmt: skip
    g.add_argument("--protocol", action="append", default=[], metavar="NAME", help="keep this protocol (repeatable)")  # fmt: skip
    g.add_argument("--keep-infra", action="store_true", help="keep infrastructure failures (loss mask zero)")
    g.add_argument("--drop-cheats", action="store_true", help="drop episodes flagged for cheating")
    g.add_argument("--drop-zero-variance", action="store_true", help="drop groups whose attempts all scored the same")  # fmt: skip
    g.add_argument("--dedup", action="store_true", help="keep the first of identical trajectories")
    g.add_argument("--reward-formula", metavar="NAME", help="recompute rewards with this formula")


def _shape_options(g: Any) -> None:
    g.add_argument("--split-test", type=float, default=0.0, metavar="FRACTION", help="send this share of episodes, by library, to test")  # fmt: skip
    g.add_argument("--seed", type=int, default=0, help="seed of the library split (default 0)")
    g.add_argument("--tool-arguments", choices=["dict", "string"], default="dict", help="sft: tool-call arguments as JSON objects (default) or exact text")  # fmt: skip
    g.add_argument("--keep-inexact", action="store_true", help="rl-steps: keep calls without exact token ids (marked)")  # fmt: skip
    g.add_argument("--on-mismatch", choices=["split", "skip"], default="split", help="rl-merged: when prefixes do not line up (default split)")  # fmt: skip
    g.add_argument("--mask-truncated", action="store_true", help="RL: zero the loss mask of completions cut by max tokens")  # fmt: skip


def options_from_args(args: argparse.Namespace) -> ExportOptions:
    filters = ExportFilters(
        passed_only=args.passed_only, min_reward=args.min_reward, roles=args.role, models=args.model,
        protocols=args.protocol, keep_infra=args.keep_infra, drop_cheats=args.drop_cheats,
        drop_zero_variance=args.drop_zero_variance, dedup=args.dedup,
    )  # fmt: skip
    return ExportOptions(
        format=args.format, filters=filters, reward_formula=args.reward_formula, split_test=args.split_test,
        seed=args.seed, tool_arguments=args.tool_arguments, keep_inexact=args.keep_inexact,
        on_mismatch=args.on_mismatch, mask_truncated=args.mask_truncated,
    )  # fmt: skip


def _export(args: argparse.Namespace) -> int:
    summary = export_runs(args.runs, args.out, options_from_args(args), overwrite=args.overwrite)
    if args.json:
        print_json(summary)
    else:
        _print_summary(summary)
    return 0


def _print_summary(summary: ExportSummary) -> None:
    table = Table(title=f"{summary.format} export in {summary.out}", show_header=False)
    for name, rows in summary.files.items():
        table.add_row(f"file {name}", f"{rows} rows")
    table.add_row("episodes finished", str(summary.episodes_finished))
    table.add_row("episodes exported", str(summary.episodes_exported))
    for name, split in summary.splits.items():
        table.add_row(f"split {name}", f"{split.episodes} episodes, {len(split.libraries)} libraries")
    for reason, count in summary.skipped.items():
        table.add_row(f"left out ({reason})", str(count))
    if summary.split_rows:
        table.add_row("extra rows from prefix splits", str(summary.split_rows))
    Console().print(table)


def _view(args: argparse.Namespace) -> int:
    from repozero.kernel.runtime import run_async
    from repozero.traces.viewer import serve

    run_async(serve, args.runs, args.port)
    return 0
