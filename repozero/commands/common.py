"""Helpers shared by command modules: config from the common options, JSON output."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec

from repozero.config_file import load_config
from repozero.orchestrator.engine.config import Config

__all__ = ["config_from_args", "json_stdout", "print_json"]


def config_from_args(args: argparse.Namespace) -> Config:
    """The config `main` already loaded (and validated) for this command."""
    cfg = getattr(args, "cfg", None)
    return cfg if cfg is not None else load_config(args.config, args.overrides or [])


def print_json(value: Any) -> None:
    sys.stdout.write(msgspec.json.encode(value).decode() + "\n")


@contextmanager
def json_stdout(enabled: bool) -> Iterator[None]:
    """With `--json`, stdout carries the JSON alone: while the block runs, whatever writes to file
    descriptor 1 — Ray's forwarded raylet and worker lines, a library's print — goes to stderr; stdout is
    restored for the JSON printed after the block."""
    if not enabled:
        yield
        return
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
