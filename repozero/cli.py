"""The `repozero` command line: a thin composition root over the subpackages.

Each command module in `repozero.commands` adds its own subcommands (`register(subparsers, parent)`);
`COMMAND_MODULES` lists them. Bad input exits 2 with a message naming the file, field or flag; a failure at
run time exits 1; neither prints a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from repozero import __version__
from repozero.commands import (
    Parser,
    agent,
    anomalies,
    cache,
    config,
    dataset,
    dataset_generate,
    endpoints,
    export,
    fakellm,
    oracle_dataset,
    report,
    results,
    run,
    sandbox_cmds,
    sweep,
    traces,
    traces_export,
    unrecognized,
)
from repozero.commands import eval as eval_command
from repozero.commands.results import SUBCOMMANDS
from repozero.config_file import load_config
from repozero.kernel.errors import RepoZeroError
from repozero.kernel.log import configure_logging
from repozero.kernel.runtime import tune_gc

__all__ = ["build_parser", "main"]

COMMAND_MODULES = (
    agent, anomalies, cache, config, dataset, dataset_generate, endpoints, eval_command, export, fakellm,
    oracle_dataset, report, results, run, sandbox_cmds, sweep, traces, traces_export,
)  # fmt: skip
"""The modules that add commands, each with its `register(subparsers, parent)`, in the order help lists them."""


def common_options(suppress: bool = False) -> argparse.ArgumentParser:
    """Options every command takes, before or after the command name."""
    default = argparse.SUPPRESS if suppress else None
    parser = Parser(add_help=False)
    group = parser.add_argument_group("common options")
    group.add_argument("--config", metavar="FILE", default=default, help="TOML config file")
    group.add_argument(
        "--set",
        metavar="KEY=VALUE",
        action="append",
        dest="overrides",
        default=argparse.SUPPRESS if suppress else [],
        help="override a config key, e.g. oracle.repeats=5",
    )
    group.add_argument(
        "--log-json",
        action="store_true",
        default=argparse.SUPPRESS if suppress else False,
        help="log JSON lines to stderr",
    )
    group.add_argument(
        "--log-level",
        default=argparse.SUPPRESS if suppress else None,
        choices=["debug", "info", "warning", "error"],
        help="what stderr shows (default: info; warning while a live run panel is up, whose info events "
        "go to RUN_DIR/events.log)",
    )
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="repozero",
        description="Benchmark and test-time-scaling engine for agents that build repositories from scratch.",
        parents=[common_options()],
    )
    parser.add_argument("--version", action="version", version=f"repozero {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    parent = common_options(suppress=True)
    for module in COMMAND_MODULES:
        module.register(subparsers, parent)
    return parser


def entry() -> int:
    """The `repozero` program (console script and `python -m repozero`): the process is ours, so the
    cycle collector is tuned for it before anything runs (`tune_gc`); `main` is what callers embed."""
    tune_gc()
    return main()


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    if (
        words[:1] == ["results"]
        and len(words) > 1
        and not words[1].startswith("-")
        and words[1] not in SUBCOMMANDS
    ):
        words.insert(1, "show")  # `repozero results RUN` is `repozero results show RUN`
    args, extras = parser.parse_known_args(words)
    if extras:
        unrecognized(getattr(args, "_parser", parser), extras)
    configure_logging(json=args.log_json, level=args.log_level)
    try:
        args.cfg = load_config(args.config, args.overrides)
        return int(args.func(args) or 0)
    except RepoZeroError as exc:
        print(f"repozero: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("repozero: interrupted", file=sys.stderr)
        return 130
