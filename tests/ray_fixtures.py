"""Ray fixtures: `cluster`, a real local Ray cluster (`ray.cluster_utils.Cluster`) for one test module, and
the helpers the Ray tests share to watch a run from outside (its results store, `nodes.json`) and to break
its disk (`small_traces`, `fill_disk`).

Loaded by `tests/conftest.py` (pytest's importlib mode keeps `tests/` off `sys.path`; a test module reaches
the helpers as `sys.modules["repozero_tests_ray_fixtures"]`); Ray is imported only when a test asks for the
fixture. A head with no CPUs and `RAY_WORKERS` one-CPU worker nodes (a module variable of the test file, 2
unless it says otherwise); the nodes are listed as `worker_nodes_started`. Module scope: starting nodes
costs several seconds each on 2 cores, and a test may remove a node.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

D = sys.modules["repozero_tests_disk_helpers"]

__all__ = ["cluster", "fill_disk", "nodes_json", "small_traces", "statuses", "wait_for"]


@pytest.fixture(scope="module")
def cluster(request: pytest.FixtureRequest) -> Iterator[Any]:
    from repozero.orchestrator.ray_executor.local_cluster import local_cluster

    workers = getattr(request.module, "RAY_WORKERS", 2)
    with local_cluster(workers=workers, cpus=1) as (c, nodes):
        c.worker_nodes_started = nodes
        yield c


def statuses(run_dir: Path) -> dict[str, str]:
    """Each episode's status in the run's results store, read as another process would."""
    if not (run_dir / "results.sqlite").exists():  # the driver has not made it yet
        return {}
    db = sqlite3.connect(run_dir / "results.sqlite")
    try:
        return dict(db.execute("SELECT episode_id, status FROM episodes").fetchall())
    except sqlite3.OperationalError:  # made, its tables not yet
        return {}
    finally:
        db.close()


def nodes_json(run_dir: Path) -> list[dict[str, Any]]:
    """The node runners as the coordinator last wrote them (`RUN_DIR/nodes.json`)."""
    path = run_dir / "nodes.json"
    return json.loads(path.read_text()) if path.exists() else []


def wait_for(
    what: str, check: Callable[[], Any], proc: subprocess.Popen[bytes], timeout_s: float = 900
) -> Any:
    """`check()`'s first true answer, polled while the driver `proc` runs."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        if proc.poll() is not None:
            raise AssertionError(f"driver exited ({proc.returncode}) before {what}")
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def small_traces(tmp_path: Path) -> Iterator[Path]:
    """`RUN_DIR/traces` (RUN_DIR: tmp_path/run) on a real 4 MiB filesystem of its own (tmpfs; needs root,
    as in CI's container), the rest of the run directory on the usual disk: the shared folder the nodes
    write their shards to."""
    with D.mounted_tmpfs(tmp_path / "run" / "traces", 4) as traces:
        yield traces


fill_disk = D.fill_disk
