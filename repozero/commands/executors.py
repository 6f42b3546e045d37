"""`--executor local|ray` and `--ray-address` for `run` and `sweep`: where the episodes run.

Ray is imported only here, only when `--executor ray` is given: the local executor needs none of it.
"""

from __future__ import annotations

import argparse
import importlib.util
from typing import Any

from repozero.kernel.errors import UsageError

__all__ = ["add_executor_flags", "executor_from_args"]


def add_executor_flags(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument(
        "--executor",
        choices=["local", "ray"],
        default="local",
        help="local: one event loop here (default); ray: a node runner per node of a Ray cluster (docs/ray.md)",
    )
    cmd.add_argument(
        "--ray-address",
        metavar="auto|HOST:PORT",
        help="the Ray cluster to join with --executor ray (default: RAY_ADDRESS, else a local instance)",
    )
    cmd.add_argument(
        "--ray-storage",
        metavar="URL",
        default="",
        help="with --executor ray: the nodes copy their traces and targets to this fsspec URL (file://, s3://) "
        "instead of writing a shared run directory (docs/ray.md)",
    )


def executor_from_args(args: argparse.Namespace) -> Any:
    """None for the local executor; a `RayExecutor` for `--executor ray`."""
    if args.executor != "ray":
        if args.ray_address or args.ray_storage:
            flag = "--ray-address" if args.ray_address else "--ray-storage"
            raise UsageError(f"{flag}: only with --executor ray")
        return None
    if importlib.util.find_spec("ray") is None:
        raise UsageError("--executor ray: Ray is not installed; install the extra: pip install -e '.[ray]'")
    from repozero.orchestrator.ray_executor import RayExecutor

    return RayExecutor(
        args.ray_address, args.ray_storage
    ).join()  # a wrong address fails before anything is written
