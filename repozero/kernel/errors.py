"""One small exception tree, so callers can tell bad input (exit 2) from broken infrastructure (exit 1).

This module imports nothing of ours: every subpackage may raise these.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "DatasetError",
    "DiskFullError",
    "ModelError",
    "OracleError",
    "RepoZeroError",
    "SandboxError",
    "UsageError",
]


class RepoZeroError(Exception):
    """Base of every error we raise on purpose; a failure at run time (exit 1)."""

    exit_code = 1


class UsageError(RepoZeroError):
    """Bad input from a person: a file, field or flag is wrong (exit 2, like argparse)."""

    exit_code = 2


class ConfigError(UsageError):
    """A config file or override is wrong; the message names the key."""


class DatasetError(UsageError):
    """A dataset on disk is malformed; the message names the file and JSON path."""


class DiskFullError(RepoZeroError):
    """The disk holding the run directory is full: the run stops (resumable) instead of labelling every
    episode an infrastructure failure. The message names the file that could not be written."""


class SandboxError(RepoZeroError):
    """The sandbox itself broke (not the code running in it)."""


class OracleError(RepoZeroError):
    """The Oracle could not produce ground truth for reasons of infrastructure."""


class ModelError(RepoZeroError):
    """A model endpoint failed in a way retries could not fix."""
