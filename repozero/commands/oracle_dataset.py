"""`repozero dataset build|validate`: record ground truth with the Oracle, and check a dataset against it."""

from __future__ import annotations

import argparse
from typing import Any

import msgspec
from rich.console import Console
from rich.table import Table

from repozero.commands import add_command, group
from repozero.commands.common import config_from_args, print_json
from repozero.kernel.runtime import run_async
from repozero.oracle import BuildReport, ValidationReport, build_dataset, open_oracle, validate_dataset
from repozero.oracle.config import OracleConfig

__all__ = ["register"]


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    commands = group(subparsers, "dataset", "list, show, hash, import, build and validate datasets", parent)
    build = add_command(
        commands, "build", "run the Oracle over every case input and record ground truth", parent
    )
    build.add_argument("dataset", help="dataset folder or builtin:NAME (written in place)")
    build.add_argument("--repeats", type=int, help="runs per case, all must agree (default: oracle.repeats)")
    build.add_argument("--samples", default="*", metavar="GLOB", help="only samples whose id matches")
    build.add_argument(
        "--timeout", type=float, metavar="S", help="per-case timeout (default: oracle.timeout_s)"
    )
    build.add_argument("--no-cache", action="store_true", help="run everything again, ignore cached verdicts")
    build.add_argument("--json", action="store_true", help="print the build report as JSON")
    build.set_defaults(func=_build)
    validate = add_command(commands, "validate", "check schema, counts, content hash and drift", parent)
    validate.add_argument("dataset", help="dataset folder or builtin:NAME")
    validate.add_argument("--cases", type=int, metavar="K", help="cases re-run per live sample (default 3)")
    validate.add_argument("--seed", type=int, help="seed for choosing the cases to re-run (default: random)")
    validate.add_argument("--json", action="store_true", help="print the validation report as JSON")
    validate.set_defaults(func=_validate)


def _oracle_config(args: argparse.Namespace, **changes: Any) -> OracleConfig:
    config = config_from_args(args).oracle
    return msgspec.structs.replace(config, **{k: v for k, v in changes.items() if v is not None})


def _build(args: argparse.Namespace) -> int:
    config = _oracle_config(args, timeout_s=args.timeout)

    async def main() -> BuildReport:
        async with open_oracle(config, sandbox=config_from_args(args).sandbox) as oracle:
            return await build_dataset(
                args.dataset,
                oracle,
                config,
                repeats=args.repeats,
                samples=args.samples,
                use_cache=not args.no_cache,
            )

    report = run_async(main)
    if args.json:
        print_json(report)
        return 0
    table = Table(title=f"{report.dataset}: N = {report.repeats}, {report.seconds:.1f} s")
    for column in ("sample", "status", "kept", "dropped", "reasons"):
        table.add_column(column)
    for s in report.samples:
        reasons = ", ".join(f"{k} {v}" for k, v in s.reasons.items())
        table.add_row(s.id, s.status, str(s.kept), str(s.dropped), reasons)
    Console().print(table)
    print(f"content_hash: {report.content_hash}")
    return 0


def _validate(args: argparse.Namespace) -> int:
    config = _oracle_config(args, validate_cases=args.cases)

    async def main() -> ValidationReport:
        async with open_oracle(config, sandbox=config_from_args(args).sandbox) as oracle:
            return await validate_dataset(args.dataset, oracle, config, seed=args.seed)

    report = run_async(main)
    if args.json:
        print_json(report)
    else:
        console = Console(highlight=False)
        for warning in report.warnings:
            console.print(f"[yellow]warning[/yellow] {warning}")
        for problem in report.problems:
            console.print(f"[red]problem[/red] {problem}")
        verdict = "ok" if report.ok else f"{len(report.problems)} problem(s)"
        console.print(
            f"{report.dataset}: {verdict} — {report.samples} samples, {report.live} live, "
            f"{report.rechecked} cases re-run (seed {report.seed})"
        )
    return 0 if report.ok else 1
