"""The report names finished episodes that have no trace in the run directory, and why.

A real run's directory (`repozero run`, fixture dataset, fake model), then what a Ray run leaves when a node
was lost before its trace shard reached the run directory and the run ended before running its episodes
again: `nodes.json` naming the node lost, the node's own folder holding the episode's targets, and no trace
manifest line for the episode. A second episode's trace is gone with no node to blame.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from repozero.orchestrator.report import build_report, load_run
from repozero.traces import TraceReader

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"


def _drop_from_trace_manifest(run_dir: Path, episode_id: str) -> None:
    for path in (run_dir / "traces" / "manifest").glob("*.jsonl"):
        lines = path.read_bytes().splitlines(keepends=True)
        path.write_bytes(b"".join(ln for ln in lines if json.loads(ln)["episode_id"] != episode_id))


def test_finished_episodes_without_a_trace_are_named_with_their_lost_node(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "repozero", "run", "--dataset", str(FIXTURE), "--model", "fake:gold"]
    cmd += ["--ace-rounds", "0", "--samples", "fx-*", "--out", str(out), "--display", "off"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    first, second, *_ = sorted(e.episode_id for e in TraceReader(out / "traces").finished_episodes())
    assert not any("traces of" in m for m in load_run(out).missing)  # a whole run: nothing to name
    node = "node-0123456789ab-1"
    (out / "nodes" / node / "targets" / first).mkdir(parents=True)
    status = {"node": node, "state": "lost", "in_flight": 0, "finished": 1, "given_back": 0}
    (out / "nodes.json").write_text(json.dumps([{**status, "lost_reason": "ActorDiedError"}]))
    _drop_from_trace_manifest(out, first)
    _drop_from_trace_manifest(out, second)
    missing = load_run(out).missing
    lost = [m for m in missing if f"node {node}, lost: ActorDiedError" in m]
    assert (
        len(lost) == 1 and lost[0].startswith("traces of 1 finished episode(s) missing") and first in lost[0]
    )
    gone = [m for m in missing if "no node folder holds them" in m]
    assert len(gone) == 1 and second in gone[0] and first not in gone[0], missing
    report = build_report([load_run(out)], resamples=10)
    assert any(first in note for note in report.notes), report.notes
