"""`repozero cache show|prune`: the Oracle's caches on disk, and removing what has not been used lately."""

from __future__ import annotations

import argparse
import re
from typing import Any

import msgspec
from rich.console import Console
from rich.table import Table

from repozero.commands import add_command, group
from repozero.commands.common import config_from_args, print_json
from repozero.kernel.errors import ConfigError
from repozero.oracle.config import cache_root
from repozero.oracle.pruning import cache_kinds, prune

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800}


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    commands = group(
        subparsers, "cache", "show and prune the Oracle's caches (venvs, programs, verdicts)", parent
    )
    show = add_command(commands, "show", "where each cache lives, its size, entries and last use", parent)
    show.add_argument("--json", action="store_true", help="print one JSON object")
    show.set_defaults(func=_show)
    cut = add_command(commands, "prune", "remove cache entries not used for a while", parent)
    cut.add_argument(
        "--older-than", default="30d", metavar="AGE",
        help="remove entries unused for this long: a number and s, m, h, d or w (default 30d)",
    )  # fmt: skip
    cut.add_argument("--dry-run", action="store_true", help="only list what would be removed")
    cut.add_argument("--json", action="store_true", help="print one JSON object")
    cut.set_defaults(func=_prune)


def _seconds(text: str) -> float:
    match = re.fullmatch(r"(\d+(?:\.\d+)?)([smhdw])", text.strip())
    if match is None:
        raise ConfigError(f"--older-than: {text!r} is not an age like 30d, 12h or 90m")
    return float(match.group(1)) * _UNITS[match.group(2)]


def _human(size: int) -> str:
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GiB"


def _show(args: argparse.Namespace) -> int:
    root = cache_root(config_from_args(args).oracle)
    kinds = cache_kinds(root)
    if args.json:
        print_json(
            {"root": str(root), "kinds": [{**msgspec.to_builtins(k), "bytes": k.bytes} for k in kinds]}
        )
        return 0
    table = Table("cache", "entries", "size", "path", title=f"Oracle caches under {root}")
    for kind in kinds:
        table.add_row(kind.kind, str(len(kind.entries)), _human(kind.bytes), kind.path)
    Console().print(table)
    return 0


def _prune(args: argparse.Namespace) -> int:
    age = _seconds(args.older_than)
    root = cache_root(config_from_args(args).oracle)
    removed = prune(root, age, dry_run=args.dry_run)
    freed = sum(e.bytes for e in removed)
    if args.json:
        entries = msgspec.to_builtins(removed)
        print_json({"root": str(root), "dry_run": args.dry_run, "removed": entries, "bytes": freed})
        return 0
    verb = "would remove" if args.dry_run else "removed"
    for entry in removed:
        print(f"{verb} {entry.kind} {entry.path} ({_human(entry.bytes)})")
    print(f"{verb} {len(removed)} entr{'y' if len(removed) == 1 else 'ies'}, {_human(freed)}")
    return 0
