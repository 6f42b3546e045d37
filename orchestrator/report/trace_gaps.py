"""Finished episodes that have no trace at all in a run directory, named with why, for the report.

A power cut's damage (a shard cut short) and a store that lost its last writes are found in `load.py`; this
finds the rest: an episode the results store holds as ended whose trace no writer's manifest lists. On a
Ray run that is an episode of a node whose trace shard is not in the run directory — a node lost before its
scratch copy reached `--ray-storage` (its finished episodes then run again, unless the run ended first),
or a node on another machine writing a run directory of its own without `--ray-storage`. The node is
known from its own folder (`RUN_DIR/nodes/<node>/targets/<episode>`) and its state from `nodes.json`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from repozero.orchestrator.engine.node_status import NODES_DIR, NodeStatus, nodes_file, read_nodes

__all__ = ["untraced_note"]


def _node_of(run_dir: Path, episode_id: str) -> str | None:
    """The node whose folder holds the episode's targets (the newest, if it ran on more than one)."""
    found = [p for p in (run_dir / NODES_DIR).glob(f"*/targets/{episode_id}") if p.is_dir()]
    return max(found, key=lambda p: p.stat().st_mtime).parent.parent.name if found else None


def _why(node: str | None, statuses: dict[str, NodeStatus]) -> str:
    if node is None:
        return "no node folder holds them: written with traces off, or their shard was removed"
    status = statuses.get(node)
    if status is not None and status.state == "lost":
        reason = f": {status.lost_reason}" if status.lost_reason else ""
        return f"they ran on node {node}, lost{reason} before its traces reached the run directory"
    return (
        f"they ran on node {node}, whose trace shard is not in the run directory (on another machine "
        "without --ray-storage, or an upload that failed)"
    )


def untraced_note(run_dir: Path, ended: Iterable[str], traced: Iterable[str]) -> list[str]:
    """One note per reason for the `ended` episodes missing from `traced` ([] when none is)."""
    missing = sorted(set(ended) - set(traced))
    if not missing:
        return []
    where = nodes_file(run_dir)
    statuses = {s.node: s for s in read_nodes(where)} if where is not None else {}
    by_reason: dict[str, list[str]] = {}
    for episode_id in missing:
        by_reason.setdefault(_why(_node_of(run_dir, episode_id), statuses), []).append(episode_id)
    return [
        f"traces of {len(ids)} finished episode(s) missing ({why}): "
        + ", ".join(ids[:10])
        + (" …" if len(ids) > 10 else "")
        for why, ids in by_reason.items()
    ]
