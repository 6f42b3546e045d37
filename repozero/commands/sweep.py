"""`repozero sweep SPEC.toml`: a matrix of runs (cells), extended on every invocation, never redone."""

from __future__ import annotations

import argparse
from contextlib import nullcontext
from typing import Any

import msgspec

from repozero.commands import add_command
from repozero.commands.common import config_from_args, json_stdout, print_json
from repozero.commands.executors import add_executor_flags, executor_from_args
from repozero.kernel.errors import UsageError
from repozero.kernel.log import terminal_panel
from repozero.orchestrator.engine.display import resolve_mode
from repozero.orchestrator.sweeps.sweep import SweepSummary, open_sweep, run_sweep
from repozero.orchestrator.sweeps.sweep_plan import CellPlan


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    cmd = add_command(
        subparsers,
        "sweep",
        "run every cell of a sweep spec (axes × samples × attempts); re-run it to extend, never redo",
        parent,
    )
    cmd.add_argument("spec", metavar="SPEC.toml", help="the sweep spec (docs/sweeps.md)")
    cmd.add_argument(
        "--dry-run", action="store_true", help="print per cell: planned, done, to do, projected tokens and $"
    )
    cmd.add_argument(
        "--pilot",
        type=int,
        metavar="N",
        help="first run each cell until it has N finished episodes (kept), then project the rest",
    )
    cmd.add_argument("--out", metavar="DIR", help="sweep directory (default: <run.out>/sweeps/<spec name>)")
    cmd.add_argument("--json", action="store_true", help="print the plan or summary as one JSON object")
    cmd.add_argument(
        "--display",
        choices=["auto", "live", "plain", "off"],
        default="auto",
        help="progress on stderr: a live panel with a line per cell (terminal), sweep_progress lines "
        "(plain), or none; auto picks live on a terminal",
    )
    add_executor_flags(cmd)
    cmd.set_defaults(func=_sweep)


def _sweep(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    if args.pilot is not None and args.pilot < 1:
        raise UsageError(f"--pilot: must be ≥ 1, got {args.pilot}")
    executor = executor_from_args(args)
    sweep = open_sweep(config, args.spec, args.out, display=args.display)
    if args.pilot is not None:
        summary = run_sweep(config, sweep, pilot=args.pilot, executor=executor)
        if summary.interrupted:
            return 130
    if args.dry_run or args.pilot is not None:
        _print_plan([p for p, _ in sweep.plans()], str(sweep.dir), args.json)
        return 0
    # a live panel will own the terminal: from the start, info events go to the cells' events.log only
    with terminal_panel() if resolve_mode(args.display) == "live" else nullcontext(), json_stdout(args.json):
        summary = run_sweep(config, sweep, executor=executor)
    _print_summary(summary, args.json)
    return 130 if summary.interrupted else 0


def _print_plan(plans: list[CellPlan], where: str, as_json: bool) -> None:
    if as_json:
        print_json({"sweep_dir": where, "cells": [msgspec.to_builtins(p) for p in plans]})
        return
    print(f"sweep {where}: {len(plans)} cells")
    print(_table(plans))
    known = [p for p in plans if p.projected_tokens is not None]
    if known:
        tokens = sum(p.projected_tokens or 0 for p in known)
        usd = sum(p.projected_usd or 0.0 for p in known)
        print(f"projected for the {len(known)} cells with finished episodes: {tokens} tokens, ${usd:.2f}")
    if len(known) < len(plans):
        print("cells without finished episodes have no projection: use --pilot N")


def _table(plans: list[CellPlan]) -> str:
    rows = [["cell", "axes", "planned", "done", "to do", "tokens (proj.)", "$ (proj.)"]]
    for p in plans:
        axes = " ".join(f"{k}={v}" for k, v in p.axes.items())
        tokens = "?" if p.projected_tokens is None else str(p.projected_tokens)
        usd = "?" if p.projected_usd is None else f"{p.projected_usd:.2f}"
        rows.append([p.cell_key, axes, str(p.planned), str(p.done), str(p.to_do), tokens, usd])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows)


def _print_summary(summary: SweepSummary, as_json: bool) -> None:
    if as_json:
        print_json(msgspec.to_builtins(summary))
        return
    state = "interrupted" if summary.interrupted else "done"
    print(f"{state}: started {summary.ran} episodes in {summary.sweep_dir}")
    print(_table(summary.cells))
    print(f"report per cell: repozero report {summary.sweep_dir}/cells/<cell>")
