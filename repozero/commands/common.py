"""Helpers shared by command modules: config from the common options, JSON output."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import msgspec

from repozero.config import Config, load_config

__all__ = ["config_from_args", "print_json", "register"]


def config_from_args(args: argparse.Namespace) -> Config:
    """The config `main` already loaded (and validated) for this command."""
    cfg = getattr(args, "cfg", None)
    return cfg if cfg is not None else load_config(args.config, args.overrides or [])


def print_json(value: Any) -> None:
    sys.stdout.write(msgspec.json.encode(value).decode() + "\n")


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    """Not a command module."""
