"""A Ray cluster of several nodes on this one machine (`ray.cluster_utils.Cluster`): for trying
`--executor ray` without machines, for the tests and for benchmarks/ray_scaling.py.

A head with no CPUs (it runs the driver only) and worker nodes with `cpus` each. Start-up is retried: on
a loaded machine a node's raylet gives its Python agents a fixed few seconds to come up and aborts when
they are slower (docs/ray.md, "Start-up on a loaded machine").
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import ray
import structlog
from ray.cluster_utils import Cluster

__all__ = ["local_cluster"]

log = structlog.get_logger()

START_ATTEMPTS = 3
OBJECT_STORE_BYTES = 80 << 20
"""Per node: the runners exchange small msgpack records, never large objects."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _node_args(cpus: int) -> dict[str, Any]:
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
    cluster = Cluster(initialize_head=True, head_node_args={**_node_args(0), "include_dashboard": False})
    try:
        nodes = [cluster.add_node(**_node_args(cpus)) for _ in range(workers)]
        cluster.wait_for_nodes()
    except BaseException:
        cluster.shutdown()
        raise
    return cluster, nodes


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
