"""Ray fixtures: `cluster`, a real local Ray cluster (`ray.cluster_utils.Cluster`) for one test module.

Loaded by `tests/conftest.py` (pytest's importlib mode keeps `tests/` off `sys.path`); Ray is imported only
when a test asks for the fixture. A head with no CPUs and `RAY_WORKERS` one-CPU worker nodes (a module
variable of the test file, 2 unless it says otherwise); the nodes are listed as `worker_nodes_started`.
Module scope: starting nodes costs several seconds each on 2 cores, and a test may remove a node.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

__all__ = ["cluster"]


@pytest.fixture(scope="module")
def cluster(request: pytest.FixtureRequest) -> Iterator[Any]:
    from repozero.orchestrator.ray_executor.local_cluster import local_cluster

    workers = getattr(request.module, "RAY_WORKERS", 2)
    with local_cluster(workers=workers, cpus=1) as (c, nodes):
        c.worker_nodes_started = nodes
        yield c
