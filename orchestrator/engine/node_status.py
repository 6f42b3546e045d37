"""What a Ray run's node runners leave in its run directory, read without importing Ray: their states as
the coordinator last wrote them (`RUN_DIR/nodes.json`: the live panel, `repozero anomalies`), and their
own folders `RUN_DIR/nodes/<node>/` (targets, action logs; docs/ray.md).

A run on Ray writes `nodes.json` in its run directory; a sweep on Ray in its sweep directory, above the
cells (`SWEEP/cells/<cell>/`), whose nodes' own folders are `SWEEP/cells/<cell>/nodes/<node>/`.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from repozero.kernel.errors import UsageError
from repozero.kernel.records import Record

__all__ = ["NODES_DIR", "NODES_FILE", "NodeStatus", "nodes_file", "read_nodes", "target_archive"]

NODES_FILE = "nodes.json"
NODES_DIR = "nodes"
"""`RUN_DIR/nodes/<node>/`: what a node runner writes that is its own (targets, actions, its run log)."""


class NodeStatus(Record, kw_only=True):
    """One node runner: its state and counts, as the driver's coordinator sees them."""

    node: str
    state: str
    """`alive` or `lost`."""
    in_flight: int
    finished: int
    given_back: int
    """Units it held when it was lost, leased again elsewhere; with `--ray-storage` also those it finished
    whose traces and targets never reached the storage (it was lost, or its upload failed): run again."""
    lost_reason: str = ""


def nodes_file(run_dir: Path) -> Path | None:
    """The `nodes.json` that covers `run_dir` (a Ray run's own, or its sweep's for a cell); None if none."""
    for where in (run_dir, run_dir.parent.parent if run_dir.parent.name == "cells" else None):
        if where is not None and (where / NODES_FILE).is_file():
            return where / NODES_FILE
    return None


def read_nodes(path: Path) -> list[NodeStatus]:
    """The node statuses in `path` (written whole, atomically, by the coordinator)."""
    try:
        return msgspec.json.decode(path.read_bytes(), type=list[NodeStatus])
    except (OSError, msgspec.DecodeError) as exc:
        raise UsageError(f"{path}: not a readable node status file ({exc})") from None


def target_archive(run_dir: Path, episode_id: str, round_: int) -> Path:
    """An episode's target archive after `round_`: `RUN_DIR/targets/…` as a local run writes it, else the
    node folder's that has it (the newest, when a resumed Ray run ran the episode again elsewhere)."""
    rel = Path("targets") / episode_id / f"round-{round_}.tar.gz"
    if (run_dir / rel).is_file():
        return run_dir / rel
    found = [p for p in (run_dir / NODES_DIR).glob(f"*/{rel}") if p.is_file()]
    return max(found, key=lambda p: p.stat().st_mtime) if found else run_dir / rel
