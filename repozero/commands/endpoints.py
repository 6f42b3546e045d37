"""`repozero endpoints check [NAME]`: is each configured replica up, how fast, and what does it return?"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.table import Table

from repozero.agents.models.check import check_endpoints
from repozero.commands import add_command, group
from repozero.commands.common import config_from_args, print_json
from repozero.kernel.errors import UsageError
from repozero.kernel.runtime import run_async


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    commands = group(subparsers, "endpoints", "inspect the configured model endpoints", parent)
    check = add_command(
        commands,
        "check",
        "send one tiny request to each replica: route (own HTTP/1.1, or httpx via a proxy), latency, model, "
        "token ids, logprobs",
        parent,
    )
    check.add_argument("name", nargs="?", help="endpoint name (default: every configured endpoint)")
    check.add_argument(
        "--timeout", type=float, default=60.0, help="seconds to wait for each reply (default 60)"
    )
    check.add_argument("--json", action="store_true", help="print a JSON array, one object per replica")
    check.set_defaults(func=_check)


def _check(args: argparse.Namespace) -> int:
    endpoints = config_from_args(args).endpoints
    if not endpoints:
        raise UsageError("no endpoints configured; add an [endpoints.NAME] section (see docs/models.md)")
    results = run_async(check_endpoints, endpoints, args.name, args.timeout)
    if args.json:
        print_json(results)
    else:
        _print_table(results)
    return 0 if all(r.ok for r in results) else 1


def _print_table(results: list[Any]) -> None:
    yes = {True: "yes", False: "no"}
    table = Table(title="model endpoints")
    columns = (
        "endpoint", "replica", "route", "ok", "latency_s", "model", "max_model_len", "token_ids", "logprobs",
    )  # fmt: skip
    for column in columns:
        table.add_column(column)
    for r in results:
        context = "?" if r.max_model_len is None else str(r.max_model_len)
        row = (r.endpoint, r.replica, r.route, yes[r.ok], f"{r.latency_s:.3f}", r.model, context)
        table.add_row(*row, yes[r.token_ids], yes[r.logprobs])
    console = Console(width=max(Console().width, 140))
    console.print(table)
    for r in results:
        if r.error:
            console.print(f"{r.endpoint} {r.replica}: {r.error}", markup=False, highlight=False)
        for warning in r.warnings:
            console.print(f"warning: {r.endpoint} {r.replica}: {warning}", markup=False, highlight=False)
