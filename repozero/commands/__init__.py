"""CLI commands. Each command module defines `register(subparsers, parent)`; `repozero/cli.py` lists them
(`COMMAND_MODULES`). The others (`common.py`, `dataset_stats.py`, `executors.py`) are their helpers.

Modules of one command group (e.g. `dataset build` beside `dataset list`) share the group through
`group()`, so each feature keeps its commands in its own module.
"""

from __future__ import annotations

import argparse
import difflib
from typing import Any, NoReturn

__all__ = ["Parser", "add_command", "group", "unrecognized"]

_GROUPS_ATTR = "_repozero_groups"


class Parser(argparse.ArgumentParser):
    """argparse without prefix matching: `--ace-round 1` is an error, not silently `--ace-rounds` (a
    later flag sharing the prefix would change what an old command line means)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)


def unrecognized(parser: argparse.ArgumentParser, extras: list[str]) -> NoReturn:
    """Exit 2 with `parser`'s usage (the subcommand's, not the top level's) and the closest flag."""
    flags = [o for action in parser._actions for o in action.option_strings if o.startswith("--")]
    first = next((e.split("=", 1)[0] for e in extras if e.startswith("-")), extras[0])
    close = difflib.get_close_matches(first, flags, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]}?" if close else ""
    parser.error(f"unrecognized arguments: {' '.join(extras)}{hint}")


def add_command(
    subparsers: Any, name: str, help: str, parent: argparse.ArgumentParser
) -> argparse.ArgumentParser:
    """A subcommand parser that also takes the common options; it names itself in the parsed arguments
    (`_parser`), so an unknown flag is reported with its usage."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name, help=help, description=help, parents=[parent]
    )
    parser.set_defaults(_parser=parser)
    return parser


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
