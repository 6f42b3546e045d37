"""Reading RUN_DIR/actions.jsonl back: which operations started and never ended, and whether the process
that started them still runs (a live run: how long they have been going) or died (a crash: abandoned)."""

from __future__ import annotations

import socket
import time
from pathlib import Path
from typing import Any, Literal

import msgspec

from repozero.kernel.errors import UsageError
from repozero.kernel.records import Record
from repozero.orchestrator.engine.actions import ACTIONS_FILE, still_running
from repozero.orchestrator.engine.node_status import NODES_DIR, NodeStatus, nodes_file, read_nodes

__all__ = ["AnomalyReport", "OpenAction", "WriterProcess", "find_open_actions"]

_decode = msgspec.json.Decoder(dict[str, Any]).decode
_HOST = socket.gethostname()
_KNOWN = {"a", "op", "t", "run_id", "episode_id", "sample", "attempt", "round"}


class WriterProcess(Record, kw_only=True):
    pid: int
    host: str
    opened_at: float
    live: bool | None
    """None: it ran on another host (its liveness cannot be judged from here)."""


class OpenAction(Record, kw_only=True):
    """An operation that started and has not ended."""

    action_id: str
    op: str
    started_at: float
    age_s: float
    state: Literal["running", "abandoned", "unknown"]
    """`running`: its process is alive (the run goes on); `abandoned`: its process is gone (a crash);
    `unknown`: its process ran on another host."""
    pid: int
    episode_id: str | None = None
    sample: str | None = None
    attempt: int | None = None
    round: int | None = None
    detail: dict[str, Any] = {}
    node: str | None = None
    """The Ray node runner whose log holds it (None: the run's own log)."""


class AnomalyReport(Record, kw_only=True):
    run_dir: str
    started: int
    finished: int
    processes: list[WriterProcess]
    open: list[OpenAction]
    """Oldest first (the longest running at the top)."""
    nodes: list[NodeStatus] = []
    """A Ray run's node runners, alive or lost, as its coordinator last wrote them (docs/ray.md)."""


def _live(record: dict[str, Any]) -> bool | None:
    if record.get("host", _HOST) != _HOST:
        return None
    return still_running(int(record["process"]), str(record.get("proc_start")))


def find_open_actions(run_dir: Path, *, min_age_s: float = 0.0, now: float | None = None) -> AnomalyReport:
    """Every action of the run that started and never ended, at least `min_age_s` old. A Ray run's
    actions are in its node runners' own logs (`RUN_DIR/nodes/<node>/`), read together, and its
    node runners' states (alive, lost) come from the coordinator's `nodes.json`."""
    path = run_dir / ACTIONS_FILE
    logs: list[tuple[str | None, Path]] = [(None, path)] if path.is_file() else []
    logs += [(p.parent.name, p) for p in sorted((run_dir / NODES_DIR).glob(f"*/{ACTIONS_FILE}"))]
    status = nodes_file(run_dir)
    if not logs and status is None:
        raise UsageError(f"{path}: no action log (not a run directory, or a run from before action logs)")
    now = time.time() if now is None else now
    started = finished = 0
    processes: list[WriterProcess] = []
    found: list[OpenAction] = []
    for node, log_path in logs:
        counts, procs, actions = _read_log(log_path, node, now)
        started, finished = started + counts[0], finished + counts[1]
        processes += procs
        found += actions
    return AnomalyReport(
        run_dir=str(run_dir),
        started=started,
        finished=finished,
        processes=processes,
        open=sorted((a for a in found if a.age_s >= min_age_s), key=lambda a: a.started_at),
        nodes=read_nodes(status) if status is not None else [],
    )


def _read_log(
    path: Path, node: str | None, now: float
) -> tuple[tuple[int, int], list[WriterProcess], list[OpenAction]]:
    """One action log: (operations started, ended), its writer processes, the operations left open."""
    writers: dict[int, WriterProcess] = {}
    processes: list[WriterProcess] = []
    opened: dict[str, tuple[dict[str, Any], WriterProcess | None]] = {}
    started = finished = 0
    with path.open("rb") as lines:
        for line in lines:
            try:
                record = _decode(line)
            except msgspec.DecodeError:  # a line cut by a crash mid-write
                continue
            if "process" in record:
                pid = int(record["process"])
                proc = WriterProcess(
                    pid=pid,
                    host=str(record.get("host", _HOST)),
                    opened_at=float(record.get("t", 0.0)),
                    live=_live(record),
                )
                writers[pid] = proc
                processes.append(proc)
            elif "op" in record:
                started += 1
                pid = int(str(record["a"]).split(".", 1)[0], 16)
                opened[record["a"]] = (record, writers.get(pid))
            elif "end" in record:
                finished += 1
                opened.pop(record.get("a", ""), None)
    return (started, finished), processes, [_open_action(r, proc, now, node) for r, proc in opened.values()]


def _open_action(
    record: dict[str, Any], proc: WriterProcess | None, now: float, node: str | None
) -> OpenAction:
    started_at = float(record.get("t", 0.0))
    pid = proc.pid if proc is not None else int(str(record["a"]).split(".", 1)[0], 16)
    return OpenAction(
        action_id=str(record["a"]),
        op=str(record["op"]),
        started_at=started_at,
        age_s=max(now - started_at, 0.0),
        state=_state(proc),
        pid=pid,
        episode_id=record.get("episode_id"),
        sample=record.get("sample"),
        attempt=record.get("attempt"),
        round=record.get("round"),
        detail={k: v for k, v in record.items() if k not in _KNOWN},
        node=node,
    )


def _state(proc: WriterProcess | None) -> Literal["running", "abandoned", "unknown"]:
    if proc is None or proc.live is False:
        return "abandoned"
    return "running" if proc.live else "unknown"
