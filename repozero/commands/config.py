"""`repozero config show`: print the effective config (defaults + file + overrides)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import msgspec

from repozero.commands import add_command, group
from repozero.commands.common import config_from_args
from repozero.config_file import config_to_toml
from repozero.orchestrator.engine.config import config_data


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    commands = group(subparsers, "config", "inspect the configuration", parent)
    show = add_command(
        commands,
        "show",
        "print the effective config as TOML (or JSON with --json), credentials redacted",
        parent,
    )
    show.add_argument("--json", action="store_true", help="print JSON instead of TOML")
    show.set_defaults(func=_show)


def _show(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    if args.json:
        sys.stdout.write(msgspec.json.encode(config_data(config)).decode() + "\n")
    else:
        sys.stdout.write(config_to_toml(config))
    return 0
