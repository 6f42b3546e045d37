"""CLI commands. Each module defines `register(subparsers, parent)`; the CLI discovers them all.

Modules of one command group (e.g. `dataset build` beside `dataset list`) share the group through
`group()`, so each feature keeps its commands in its own module.
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_command", "group"]

_GROUPS_ATTR = "_repozero_groups"


def add_command(
    subparsers: Any, name: str, help: str, parent: argparse.ArgumentParser
) -> argparse.ArgumentParser:
    """A subcommand parser that also takes the common options."""
    return subparsers.add_parser(name, help=help, description=help, parents=[parent])


def group(subparsers: Any, name: str, help: str, parent: argparse.ArgumentParser) -> Any:
    """The sub-subparsers of command group `name`, created on first use."""
    groups = getattr(subparsers, _GROUPS_ATTR, None)
    if groups is None:
        groups = {}
        setattr(subparsers, _GROUPS_ATTR, groups)
    if name not in groups:
        parser = add_command(subparsers, name, help, parent)
        groups[name] = parser.add_subparsers(dest=f"{name}_command", metavar="COMMAND", required=True)
    return groups[name]
