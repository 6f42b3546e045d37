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
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import ray
import structlog
from ray._common.utils import get_default_ray_temp_dir
from ray.cluster_utils import Cluster

from repozero.orchestrator.ray_executor.cluster import ASYNCIO_NODE_LABEL, RUNNER_ENV

__all__ = ["add_node", "local_cluster", "node_args"]

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
    """Fixed agent ports and node id (so the port files can be announced) and a small object store. A
    worker node is started as docs/ray.md advises: the runner's environment (`RUNNER_ENV`) in its own,
    said by its label, and workers prestarted when a driver connects, so a runner needs no worker start."""
    env = {"RAY_OVERRIDE_NODE_ID_FOR_TESTING": ray.NodeID.from_random().hex()}
    labels = {}
    if cpus:
        env |= {**RUNNER_ENV, "RAY_enable_worker_prestart": "1"}
        labels[ASYNCIO_NODE_LABEL] = "true"
    return {
        "num_cpus": cpus,
        "object_store_memory": OBJECT_STORE_BYTES,
        "env_vars": env,
        "labels": labels,
        "metrics_agent_port": _free_port(),
        "dashboard_agent_listen_port": _free_port(),
        "runtime_env_agent_port": _free_port(),
        "metrics_export_port": _free_port(),
    }


def announce_agent_port(session_dir: Path, args: dict[str, Any]) -> None:
    """Write the dashboard agent's port file before its node starts.

    A raylet reads that port from a file the agent writes once it is up, and aborts after a fixed 15 s
    (Ray 2.60: `WaitForPersistedPort`, not configurable; the agent's listen port is not passed to the
    raylet). On a 2-core machine busy with other work the agent's Python start-up alone takes longer.
    The port is ours (`node_args`), the agent listens on it and rewrites the same file when it is up.
    No supported setting replaces this (ray-project/ray#65983; docs/ray.md): the node id that names the
    file is only known in advance through Ray's test hook RAY_OVERRIDE_NODE_ID_FOR_TESTING."""
    session_dir.mkdir(parents=True, exist_ok=True)
    name = f"dashboard_agent_listen_port_{args['env_vars']['RAY_OVERRIDE_NODE_ID_FOR_TESTING']}"
    (session_dir / name).write_text(str(args["dashboard_agent_listen_port"]))


def add_node(cluster: Cluster, cpus: int) -> Any:
    """A worker node joined to `cluster` (its agent's port announced first)."""
    args = node_args(cpus)
    assert cluster.head_node is not None
    announce_agent_port(Path(cluster.head_node.get_session_dir_path()), args)
    return cluster.add_node(**args)


def _start(workers: int, cpus: int) -> tuple[Cluster, list[Any]]:
    """The cluster, or nothing left behind: a node that failed to start leaves processes Ray does not
    track (its GCS, agents), so every process this attempt started is ended."""
    before = _descendants(os.getpid())
    head = {
        **node_args(0),
        "include_dashboard": False,
        "session_name": f"session_rz_{os.getpid()}_{time.time_ns()}",
    }
    try:
        with _start_up_priority(before):
            announce_agent_port(Path(get_default_ray_temp_dir()) / head["session_name"], head)
            cluster = Cluster(initialize_head=True, head_node_args=head)
            nodes = [add_node(cluster, cpus) for _ in range(workers)]
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
