"""`repozero eval`: grade one target, or every sample's gold reference, strictly (docs/grader.md)."""

from __future__ import annotations

import argparse
import fnmatch
from pathlib import Path
from typing import Any

import msgspec
from rich.console import Console
from rich.table import Table

from repozero.commands import add_command
from repozero.commands.common import config_from_args, print_json
from repozero.datasets import load_dataset
from repozero.kernel.errors import UsageError
from repozero.kernel.runtime import run_async
from repozero.oracle.evaluate import EvalSummary, GradeJob, gold_jobs, grade_many, summarise, target_job
from repozero.oracle.grading import GradingPolicy
from repozero.orchestrator.engine.config import Config
from repozero.orchestrator.engine.protocols import PROTOCOLS, get_protocol
from repozero.orchestrator.engine.spec import select_split
from repozero.sandbox import open_backend


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    cmd = add_command(
        subparsers, "eval", "grade a target repository (or the gold references) against a dataset", parent
    )
    cmd.add_argument("--dataset", required=True, help="dataset folder or builtin:NAME")
    cmd.add_argument("--sample", help="sample id (with --target)")
    cmd.add_argument("--target", type=Path, help="target repository folder to grade")
    cmd.add_argument("--gold", action="store_true", help="grade every sample's gold reference")
    cmd.add_argument("--samples", metavar="GLOB", help="with --gold: only samples whose id matches")
    cmd.add_argument("--split", metavar="NAME", help="with --gold: only samples of this split (train, test)")
    cmd.add_argument("--sandbox", choices=["local", "docker"], help="sandbox backend (default: config)")
    cmd.add_argument(
        "--protocol",
        choices=sorted(PROTOCOLS),
        help="grade as this protocol does: comparator, case timeout, oracle errors (default: run.protocol); "
        "repozero-public reproduces the public scripts' scores",
    )
    cmd.add_argument(
        "--comparator",
        choices=["strict", "paper_compat"],
        help="override the protocol's comparator (paper_compat: the public RepoZero comparison)",
    )
    cmd.add_argument("--json", action="store_true", help="print one JSON object")
    cmd.set_defaults(func=_eval)


def _jobs(args: argparse.Namespace) -> list[GradeJob]:
    dataset = load_dataset(args.dataset)
    if args.gold:
        if args.target or args.sample:
            raise UsageError("--gold grades the gold references: drop --target/--sample")
        jobs = gold_jobs(dataset)
        if args.split:
            in_split = {s.id for s in select_split(dataset, args.split)}
            jobs = [j for j in jobs if j.sample.id in in_split]
        if args.samples:
            jobs = [j for j in jobs if fnmatch.fnmatch(j.sample.id, args.samples)]
        if not jobs:
            raise UsageError(f"--dataset {args.dataset}: no live sample with a gold reference to grade")
        return jobs
    if args.split:
        raise UsageError("--split chooses among the gold references: use it with --gold")
    if not (args.sample and args.target):
        raise UsageError("give --sample ID and --target DIR, or --gold")
    if not args.target.is_dir():
        raise UsageError(f"--target {args.target}: not a folder")
    return [target_job(dataset, args.sample, args.target)]


def _eval(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    jobs = _jobs(args)
    policy = get_protocol(args.protocol or config.run.protocol).grading_policy(config.sandbox.output_cap)
    if args.comparator:
        policy = msgspec.structs.replace(policy, comparator=args.comparator)
    summary = summarise(run_async(_grade, config, args.sandbox, jobs, policy))
    print_json(_as_json(summary)) if args.json else _print_table(summary)
    return 1 if summary.infra_errors else 0


async def _grade(
    config: Config, backend_name: str | None, jobs: list[GradeJob], policy: GradingPolicy
) -> list[Any]:
    async with open_backend(config.sandbox, backend_name, run_id=None) as backend:
        return await grade_many(backend, jobs, policy)


def _as_json(summary: EvalSummary) -> dict[str, Any]:
    return {
        "samples": [
            {
                "sample": g.sample,
                "passed": g.passed,
                "success_rate": g.success_rate,
                "failure_category": g.failure_category,
                "cheat_flags": g.cheat_flags,
                "infra_error": g.infra_error,
                "cases": [{"id": c.id, "status": c.status} for c in g.cases],
            }
            for g in summary.samples
        ],
        "pass_rate": summary.pass_rate,
        "success_rate": summary.success_rate,
        "infra_errors": summary.infra_errors,
        "grader_version": summary.grader_version,
    }


def _print_table(summary: EvalSummary) -> None:
    table = Table(title=f"grader {summary.grader_version}")
    for column in ("sample", "passed", "success rate", "category", "cheat flags", "failing cases"):
        table.add_column(column, overflow="fold")
    for g in summary.samples:
        failing = ", ".join(f"{c.id}:{c.status}" for c in g.cases if c.status != "pass")
        table.add_row(
            g.sample,
            "infra error" if g.infra_error else ("yes" if g.passed else "no"),
            f"{g.success_rate:.3f}",
            g.failure_category or "",
            ", ".join(g.cheat_flags),
            failing[:200],
        )
    console = Console()
    console.print(table)
    console.print(
        f"pass rate {summary.pass_rate:.3f}   success rate {summary.success_rate:.3f}   "
        f"infra errors {summary.infra_errors}"
    )
