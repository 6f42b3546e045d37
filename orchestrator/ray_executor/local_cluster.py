"""A Ray cluster of several nodes on this one machine (`ray.cluster_utils.Cluster`): for trying
`--executor ray` without machines, for the tests and for benchmarks/ray_scaling.py.

A head with no CPUs (it runs the driver only) and worker nodes with `cpus` each. Start-up is retried: on
a loaded machine a node's raylet gives its Python agents a fixed few seconds to come up and aborts when
they are slower (docs/ray.md, "Start-up on a loaded machine").
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import ray
import structlog
from ray.cluster_utils import Cluster

__all__ = ["local_cluster", "node_args"]

log = structlog.get_logger()

START_ATTEMPTS = 4
START_UP_NICE = -10
OBJECT_STORE_BYTES = 80 << 20
"""Per node: the runners exchange small msgpack records, never large objects."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def node_args(cpus: int) -> dict[str, Any]:
    """Fixed agent ports (the raylet need not discover them) and a small object store."""
    return {
        "num_cpus": cpus,
        "object_store_memory": OBJECT_STORE_BYTES,
        "metrics_agent_port": _free_port(),
        "dashboard_agent_listen_port": _free_port(),
        "runtime_env_agent_port": _free_port(),
        "metrics_export_port": _free_port(),
    }


def _start(workers: int, cpus: int) -> tuple[Cluster, list[Any]]:
    """The cluster, or nothing left behind: a node that failed to start leaves processes Ray does not
    track (its GCS, agents), so every process this attempt started is ended."""
    before = _descendants(os.getpid())
    try:
        with _start_up_priority(before):
            cluster = Cluster(
                initialize_head=True, head_node_args={**node_args(0), "include_dashboard": False}
            )
            nodes = [cluster.add_node(**node_args(cpus)) for _ in range(workers)]
            cluster.wait_for_nodes()
    except BaseException:
        for pid in _descendants(os.getpid()) - before:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        raise
    return cluster, nodes


@contextmanager
def _start_up_priority(before: set[int]) -> Iterator[None]:
    """Start the nodes' processes at a raised CPU priority (root only), then put every one of them back
    to the normal priority: a node's raylet waits a fixed few seconds for its agents, which a machine
    busy with other work does not give them; the episodes afterwards run at the normal priority."""
    if os.geteuid() != 0:
        yield
        return
    old = os.getpriority(os.PRIO_PROCESS, 0)
    os.setpriority(os.PRIO_PROCESS, 0, START_UP_NICE)
    try:
        yield
    finally:
        for pid in _descendants(os.getpid()) - before:
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, pid, old)
        os.setpriority(os.PRIO_PROCESS, 0, old)


def _descendants(pid: int) -> set[int]:
    """Every process below `pid` (Linux: /proc/PID/task/TID/children)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        for task in Path(f"/proc/{todo.pop()}/task").glob("*"):
            with contextlib.suppress(OSError):
                kids = {int(k) for k in (task / "children").read_text().split()}
                todo += sorted(kids - found)
                found |= kids
    return found


@contextmanager
def local_cluster(workers: int = 2, cpus: int = 1) -> Iterator[tuple[Cluster, list[Any]]]:
    """(the cluster, its worker nodes), this process connected to it; everything stopped at exit."""
    os.environ.setdefault("RAY_raylet_start_wait_time_s", "120")
    for attempt in range(1, START_ATTEMPTS + 1):
        try:
            cluster, nodes = _start(workers, cpus)
            break
        except Exception as exc:  # Ray says only "timed out during startup": retry that, a few times
            log.warning("ray_local_cluster_retry", attempt=attempt, error=str(exc).splitlines()[0])
            if attempt == START_ATTEMPTS:
                raise
    try:
        ray.init(
            address=cluster.address,
            logging_level=logging.WARNING,
            log_to_driver=False,
            configure_logging=False,
        )
        yield cluster, nodes
    finally:
        ray.shutdown()
        cluster.shutdown()
