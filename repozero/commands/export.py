"""`repozero export harbor`: write a dataset's samples as Harbor tasks (docs/integrations.md)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from repozero.commands import group
from repozero.commands.common import config_from_args, print_json


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    exports = group(subparsers, "export", "write a dataset in another evaluation framework's format", parent)
    cmd = exports.add_parser(
        "harbor",
        help="one Harbor task per sample (instruction, environment, verifier, gold solution)",
        description="Write one Harbor task per sample into OUT/<sample-id>/, graded as `repozero eval` grades.",
        parents=[parent],
    )
    cmd.set_defaults(_parser=cmd, func=_harbor)
    cmd.add_argument("dataset", metavar="DATASET", help="dataset folder or builtin:NAME")
    cmd.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder for the task folders")
    cmd.add_argument("--split", metavar="S", help="only samples of this split (train, test)")
    cmd.add_argument("--samples", metavar="GLOB", help="only samples whose id matches")
    cmd.add_argument("--json", action="store_true", help="print one JSON object")


def _harbor(args: argparse.Namespace) -> int:
    from repozero.integrations.harbor import export_harbor  # the adapter loads only when asked for

    tasks = export_harbor(
        config_from_args(args), args.dataset, args.out, split=args.split, samples=args.samples
    )
    if args.json:
        print_json(
            {
                "out": str(args.out),
                "tasks": [{"sample": t.sample, "path": str(t.path), "gold": t.has_gold} for t in tasks],
            }
        )
    else:
        for t in tasks:
            print(f"{t.path}  ({t.language}{', gold solution' if t.has_gold else ', no gold'})")
        print(f"{len(tasks)} Harbor task(s) in {args.out}")
    return 0
