"""`repozero run`: the main job — a dataset, a model, a scaffold and an ACE budget, on one event loop."""

from __future__ import annotations

import argparse
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from repozero.commands import add_command
from repozero.commands.common import config_from_args, json_stdout, print_json
from repozero.commands.executors import add_executor_flags, executor_from_args
from repozero.kernel.errors import UsageError
from repozero.kernel.log import terminal_panel
from repozero.orchestrator.engine.display import resolve_mode
from repozero.orchestrator.engine.protocols import PROTOCOLS
from repozero.orchestrator.engine.results import RunSummary
from repozero.orchestrator.engine.run import resume_run, start_run
from repozero.orchestrator.engine.runlock import RunLock
from repozero.orchestrator.engine.spec import RunSpec
from repozero.orchestrator.sweeps.pooled_cases import grade_run_pool


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    cmd = add_command(subparsers, "run", "run every (sample, attempt) episode with ACE; resumable", parent)
    cmd.add_argument("--dataset", help="dataset folder or builtin:NAME")
    cmd.add_argument("--model", help="endpoint name from config, or fake:POLICY (a scripted loopback server)")
    cmd.add_argument("--scaffold", choices=["bash", "tools"], help="agent scaffold (default: agent.scaffold)")
    cmd.add_argument("--ace-rounds", type=int, help="ACE budget: 0 = coding only, 1 = code-test-refine, ...")
    cmd.add_argument(
        "--ace-branches", type=int, help="ACE as a tree: N continuations of the best branch after each round"
    )
    cmd.add_argument("--attempts", type=int, help="attempts per sample (best-of-n; pass@k in reports)")
    cmd.add_argument("--protocol", choices=sorted(PROTOCOLS), help="what agents see and how ACE runs")
    cmd.add_argument("--samples", metavar="GLOB", help="only samples whose id matches")
    cmd.add_argument("--split", metavar="NAME", help="only samples of this split (train, test; default: all)")
    cmd.add_argument("--sandbox", choices=["local", "docker"], help="sandbox backend (default: config)")
    cmd.add_argument("--concurrency", type=int, help="episodes in flight (default: run.concurrency)")
    cmd.add_argument(
        "--display",
        choices=["auto", "live", "plain", "off"],
        default="auto",
        help="progress on stderr: a live table (terminal), run_progress lines (plain), or none; "
        "auto picks live on a terminal",
    )
    cmd.add_argument("--out", metavar="RUN_DIR", help="run directory (default: runs/<time>-<model>-...)")
    cmd.add_argument(
        "--resume", metavar="RUN_DIR", type=Path, help="resume a run: finished episodes are kept"
    )
    cmd.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    add_executor_flags(cmd)
    cmd.set_defaults(func=_run)


def _spec(args: argparse.Namespace, config: Any) -> RunSpec:
    if not args.dataset or not args.model:
        raise UsageError("give --dataset and --model (or --resume RUN_DIR)")
    return RunSpec.from_config(
        config,
        dataset=args.dataset,
        model=args.model,
        scaffold=args.scaffold,
        ace_rounds=args.ace_rounds,
        ace_branches=args.ace_branches,
        attempts=args.attempts,
        protocol=args.protocol,
        samples=args.samples,
        split=args.split,
        sandbox=args.sandbox,
        out=args.out,
        concurrency=args.concurrency,
    )


def _run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    # a live panel will own the terminal: from the start, info events go to RUN_DIR/events.log only
    with terminal_panel() if resolve_mode(args.display) == "live" else nullcontext():
        with json_stdout(args.json):
            summary = _start_or_resume(args, config)
            if not summary.interrupted:
                _grade_pool(config, Path(summary.run_dir))
    _report(summary, args.json)
    return 130 if summary.interrupted else 0


def _start_or_resume(args: argparse.Namespace, config: Any) -> RunSummary:
    if args.resume is None:
        return start_run(config, _spec(args, config), display=args.display, executor=executor_from_args(args))
    fixed = [
        f
        for f in (
            "dataset",
            "model",
            "scaffold",
            "ace_rounds",
            "ace_branches",
            "protocol",
            "samples",
            "split",
        )
        if getattr(args, f)
    ]
    if fixed:
        raise UsageError(f"--resume keeps the run's settings; drop --{fixed[0].replace('_', '-')}")
    return resume_run(
        config,
        args.resume,
        args.attempts,
        args.concurrency,
        display=args.display,
        executor=executor_from_args(args),
    )


def _grade_pool(config: Any, run_dir: Path) -> None:
    """`pool.json`, as a sweep writes for each cell: every attempt graded on its sample's pooled fresh
    cases, for the report's `pooled fresh cases passed` selector. Under the run's lock, as the episodes
    were (a `--resume` meanwhile is refused); what an earlier call graded is kept."""
    from repozero.kernel.runtime import run_async

    with RunLock(run_dir, flag="--resume"):
        run_async(grade_run_pool, config, run_dir)


def _report(summary: RunSummary, as_json: bool) -> None:
    if as_json:
        print_json(
            {
                "run_dir": summary.run_dir,
                "episodes": summary.episodes,
                "finished": summary.finished,
                "scored": summary.scored,
                "pass_rate": summary.pass_rate if summary.scored else None,
                "success_rate": summary.success_rate if summary.scored else None,
                "infra_errors": summary.infra_errors,
                "model_retries": summary.model_retries,
                "model_retry_wait_s": round(summary.model_retry_wait_s, 3),
            }
        )
        return
    state = "interrupted" if summary.interrupted else "done"
    rates = (
        f"pass rate {summary.pass_rate:.3f}   success rate {summary.success_rate:.3f} (over {summary.scored} scored)"
        if summary.scored
        else "pass rate —   success rate — (nothing scored yet)"
    )
    print(
        f"{state}: {summary.finished}/{summary.episodes} episodes finished in {summary.run_dir}\n"
        f"{rates}   infra errors {summary.infra_errors} (reported apart, not scored)\n"
        + (
            f"leaked sandbox containers {summary.leaked_containers} (reaped at exit; listed in leaked.json)\n"
            if summary.leaked_containers
            else ""
        )
        + (
            f"model calls retried {summary.model_retries} "
            f"(waited {summary.model_retry_wait_s:.1f} s, not charged to agents' time)\n"
            if summary.model_retries
            else ""
        )
        + (
            f"resume: repozero run --resume {summary.run_dir}"
            if summary.interrupted
            else f"report: repozero report {summary.run_dir}"
        )
    )
