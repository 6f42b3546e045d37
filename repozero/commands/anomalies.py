"""`repozero anomalies RUN_DIR`: operations that started and never finished — live, or after a crash."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import msgspec
from rich.console import Console
from rich.table import Table

from repozero.commands import add_command
from repozero.commands.common import print_json
from repozero.orchestrator.report.anomalies import AnomalyReport, find_open_actions


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    cmd = add_command(
        subparsers,
        "anomalies",
        "list operations (model calls, sandbox commands, case batches, Oracle batches) started and never "
        "finished: still running in a live run (with their age), or abandoned by a crashed one",
        parent,
    )
    cmd.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="a run directory (holding actions.jsonl)")
    cmd.add_argument(
        "--min-age", type=float, default=0.0, metavar="S", help="only operations running at least S seconds"
    )
    cmd.add_argument("--json", action="store_true", help="print one JSON object")
    cmd.set_defaults(func=_anomalies)


def _anomalies(args: argparse.Namespace) -> int:
    report = find_open_actions(args.run_dir, min_age_s=args.min_age)
    if args.json:
        print_json(msgspec.to_builtins(report))
    else:
        _print(report)
    return 0


def _age(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes // 60}h{minutes % 60:02d}m" if minutes >= 60 else f"{minutes}m{secs:02d}s"


def _print(report: AnomalyReport) -> None:
    console = Console()
    live = [p.pid for p in report.processes if p.live]
    state = f"live (pid {', '.join(map(str, live))})" if live else "no live writer (finished or crashed)"
    console.print(
        f"{report.run_dir}: {report.started} operations started, {report.finished} finished, "
        f"{len(report.open)} open; run {state}"
    )
    if report.nodes:
        _print_nodes(console, report)
    if not report.open:
        return
    table = Table("age", "state", "operation", "episode", "round", "detail", "pid")
    if report.nodes:
        table.add_column("node")
    for a in report.open:  # oldest (most suspicious) first
        detail = " ".join(f"{k}={v}" for k, v in a.detail.items())
        table.add_row(
            _age(a.age_s), a.state, a.op, a.episode_id or "—", "—" if a.round is None else str(a.round), detail,
            str(a.pid), *([a.node or "—"] if report.nodes else []),
        )  # fmt: skip
    console.print(table)


def _print_nodes(console: Console, report: AnomalyReport) -> None:
    """A Ray run's node runners (RUN_DIR/nodes.json): a lost node and the units it gave back come first."""
    lost = [n for n in report.nodes if n.state != "alive"]
    console.print(f"Ray nodes: {len(report.nodes)}, {len(lost)} lost")
    table = Table("node", "state", "running", "done", "given back", "reason")
    for n in sorted(report.nodes, key=lambda n: n.state == "alive"):
        table.add_row(n.node, n.state, str(n.in_flight), str(n.finished), str(n.given_back), n.lost_reason)
    console.print(table)
