"""`repozero dataset generate`: build a benchmark with a model — the paper's construction pipeline
(docs/generate.md)."""

from __future__ import annotations

import argparse
import re
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from repozero.commands import add_command, group
from repozero.commands.common import config_from_args, print_json
from repozero.kernel.errors import UsageError
from repozero.kernel.log import terminal_panel
from repozero.kernel.runtime import run_async, until_signal
from repozero.oracle.groups import plain_errors
from repozero.orchestrator.engine.display import resolve_mode
from repozero.orchestrator.generate.gen_context import package_slug
from repozero.orchestrator.generate.records import GenerateSettings
from repozero.orchestrator.generate.runner import generate_dataset
from repozero.orchestrator.generate.summary import GenerateSummary, print_summary

__all__ = ["register"]


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    commands = group(subparsers, "dataset", "list, show, hash, import, build and validate datasets", parent)
    cmd = add_command(
        commands, "generate", "build a dataset with a model: programs, cases, Oracle, votes", parent
    )
    source = cmd.add_mutually_exclusive_group(required=True)
    source.add_argument("--source", metavar="PKG==VERSION", help="Py2JS: a pinned PyPI package")
    source.add_argument("--debian-package", metavar="NAME[=VERSION]", help="C2Rust: a Debian C/C++ library")
    cmd.add_argument(
        "--language", choices=["c", "cpp"], default="c", help="C2Rust: the test programs' language"
    )
    cmd.add_argument("--model", required=True, help="the writer: a configured endpoint or fake:POLICY")
    cmd.add_argument(
        "--voters",
        metavar="M1,M2,M3|none",
        help="models that vote on difficulty (default: --model ×3); none: the measured rule decides",
    )
    cmd.add_argument("--files", type=int, default=10, metavar="N", help="test programs to write (default 10)")
    cmd.add_argument("--api-calls", default="1..10", metavar="MIN..MAX", help="package APIs per program")
    cmd.add_argument("--cases", type=int, default=60, metavar="N", help="inputs proposed per program")
    cmd.add_argument("--rewrites", type=int, default=2, metavar="N",
                     help="rewrites of a rejected or non-running program (default 2)")  # fmt: skip
    cmd.add_argument("--min-kept", type=int, default=10, metavar="N",
                     help="kept cases a program needs (default 10; the paper's datasets use 20)")  # fmt: skip
    cmd.add_argument("--repeats", type=int, help="Oracle runs per case (default: oracle.repeats, 20)")
    cmd.add_argument("--split", metavar="NAME", help="recorded on every sample (train/test, by library)")
    cmd.add_argument("--seed", type=int, default=0, help="sampling seed recorded with every sample")
    cmd.add_argument("--concurrency", type=int, help="program slots in flight (default: run.concurrency)")
    cmd.add_argument("--out", type=Path, help="new dataset folder (default: generated-PKG)")
    cmd.add_argument("--resume", action="store_true", help="continue the run OUT.generate/ holds")
    cmd.add_argument("--display", choices=["auto", "live", "plain", "off"], default="auto",
                     help="progress on stderr (as `run`)")  # fmt: skip
    cmd.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    cmd.set_defaults(func=_generate)


def _range(text: str) -> tuple[int, int]:
    found = re.fullmatch(r"\s*(\d+)\s*\.\.\s*(\d+)\s*", text)
    if found is None or not 0 < int(found[1]) <= int(found[2]):
        raise UsageError(f"--api-calls {text!r}: expected MIN..MAX with 0 < MIN <= MAX, e.g. 2..6")
    return int(found[1]), int(found[2])


def _settings(args: argparse.Namespace, repeats: int) -> GenerateSettings:
    if args.source is not None and not re.fullmatch(r"[A-Za-z0-9._-]+==[A-Za-z0-9._+!-]+", args.source):
        raise UsageError(f"--source {args.source!r}: expected a pinned PyPI package, PKG==VERSION")
    for flag, value, least in (("--files", args.files, 1), ("--cases", args.cases, 1), ("--rewrites", args.rewrites, 0),
                               ("--repeats", repeats, 1), ("--min-kept", args.min_kept, 1)):  # fmt: skip
        if value < least:
            raise UsageError(f"{flag} {value}: must be at least {least}")
    voters = [v.strip() for v in args.voters.split(",")] if args.voters else [args.model] * 3
    if voters == ["none"]:
        voters = []
    elif not all(voters):
        raise UsageError(f"--voters {args.voters!r}: an empty model name")
    return GenerateSettings(
        source=args.source or args.debian_package, language="python" if args.source else args.language,
        model=args.model, voters=voters, files=args.files, api_calls=_range(args.api_calls), cases=args.cases,
        repeats=repeats, rewrites=args.rewrites, seed=args.seed, min_kept=args.min_kept, split=args.split,
    )  # fmt: skip


def _generate(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    settings = _settings(args, args.repeats or config.oracle.repeats)
    out = args.out or Path(f"generated-{package_slug(settings.source)}")
    summaries: list[GenerateSummary] = []

    async def job() -> None:
        summaries.append(await generate_dataset(
            config, settings, out, resume=args.resume, display=args.display, concurrency=args.concurrency))  # fmt: skip

    with plain_errors(), terminal_panel() if resolve_mode(args.display) == "live" else nullcontext():
        interrupted = run_async(lambda: until_signal([job], event="generate_interrupted"))
    if interrupted:
        print(
            "repozero: interrupted; run again with the same flags and --resume to continue", file=sys.stderr
        )
        return 130
    summary = summaries[0]
    if args.json:
        print_json(summary)
    else:
        print_summary(summary)
    return 0
