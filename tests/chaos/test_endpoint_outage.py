"""The model endpoint goes away mid-run: the loopback model server is killed (-9), nothing listens on its
port for 20 s, then a gateway on the same port answers 429 and 503 with `Retry-After` for a burst, then the
server is back. Calls wait and retry within the endpoint's limits, the waits are not charged to the agents'
time limit (shorter than the outage), no episode is scored as the model's failure, and the run's summary
counts the retries; then the invariant."""

from __future__ import annotations

import json
import signal
import sys
import time
from pathlib import Path

import httpx
import pytest

from repozero.orchestrator.engine.results import ResultsStore
from repozero.traces import EpisodeTrace, TraceReader

H = sys.modules["repozero_chaos_helpers"]
pytestmark = pytest.mark.slow

TIME_LIMIT_S = 15.0
"""The agents' time limit: their own time, model waits excluded."""
OUTAGE_S = 20.0
"""Longer than the agents' time limit: were the waits charged, the agent running then would end `time_limit`."""
BURST_S = 5.0
GATEWAY = Path(__file__).with_name("retry_after_server.py")


def test_endpoint_restart_and_retry_after_bursts_cost_no_episode(tmp_path: Path) -> None:
    ds = H.make_dataset(tmp_path)
    port = H.free_port()
    config = H.endpoint_config(
        tmp_path / "endpoint.toml", "loop", port,
        max_retries=40, retry_initial_s=1.0, retry_max_s=4.0, eject_after_failures=3, eject_s=2.0,
        agent__time_limit_s=TIME_LIMIT_S,
    )  # fmt: skip
    run_dir = tmp_path / "run"
    server = H.serve_fake(port, ds, tmp_path / "server-1.log")
    run = H.start(
        "run", "--config", str(config), "--dataset", str(ds), "--model", "loop", "--ace-rounds", "1",
        "--concurrency", "2", "--out", str(run_dir), "--display", "off", "--json",
        log=tmp_path / "run.log", stdout=tmp_path / "run.out",
    )  # fmt: skip
    try:
        _wait_requests(port, 4)  # both episodes are talking to the model
        assert run.poll() is None and H.finished_count(run_dir) < 2, "the run ended before the outage"
        H.stop(server, signal.SIGKILL)
        went_away = time.monotonic()
        time.sleep(OUTAGE_S)  # connection refused: calls back off and retry
        assert run.poll() is None
        gateway = H.start_script(GATEWAY, str(port), "1", log=tmp_path / "gateway.log")
        H.wait_listening(port)
        time.sleep(BURST_S)  # 429 / 503 with Retry-After: 1
        H.stop(gateway, signal.SIGKILL)
        back = time.monotonic()
        server = H.serve_fake(port, ds, tmp_path / "server-2.log")
        code = run.wait(timeout=300)
    finally:
        H.stop(run)
        H.stop(server)
    err = (tmp_path / "run.log").read_text()
    H.assert_no_traceback(err)
    assert code == 0, err[-3000:]
    summary = json.loads((tmp_path / "run.out").read_text())
    assert summary["finished"] == 2 and summary["infra_errors"] == 0, summary
    assert summary["model_retries"] >= 1 and summary["model_retry_wait_s"] >= 0.8 * (back - went_away), (
        summary
    )

    statuses = H.assert_each_episode_once(run_dir)
    assert set(statuses.values()) == {"finished"}
    store = ResultsStore.open_readonly(run_dir / "results.sqlite")
    try:
        results = store.episode_results()
        rounds = store.all_rounds()
    finally:
        store.close()
    # nothing scored as the model's failure, no agent out of time: buggy-then-fix fixes its bug in round 1
    assert all(r.passed is True and r.exit_status != "time_limit" for r in results), results
    # in every round, not only the scored last one (the outage falls in round 0): the coder submitted
    assert all(len(rounds[r.episode_id]) == r.rounds_used == 2 for r in results), rounds
    assert {r.coder_exit for rs in rounds.values() for r in rs} == {"submitted"}, rounds

    reader = TraceReader(run_dir / "traces")
    traces = [reader.episode(e) for e in reader.finished_episodes()]
    retries = [a for t in traces for c in t.model_calls for a in c.retries]
    assert sum(a.wait_s for a in retries) >= OUTAGE_S * 0.8  # recorded on the calls that waited
    assert any(a.status is None for a in retries)  # connection refused while nothing listened
    told = [a for a in retries if a.status in (429, 503)]
    assert {a.status for a in told} == {429, 503}, retries
    assert all(1.0 <= a.wait_s <= 1.1 + 1e-6 for a in told)  # Retry-After: 1, honoured (plus ≤10% jitter)
    for trace in traces:
        _assert_waits_are_model_time(trace)


def _assert_waits_are_model_time(trace: EpisodeTrace) -> None:
    """Every agent run of every round (coder and tester) ended as its script does, and the retry waits of
    its calls are inside its model time: the agent's own time (wall minus model) never holds them."""
    waited: dict[tuple[str, int], float] = {}  # a coder's conversation goes on across rounds: one run a round
    for call in trace.model_calls:
        key = (call.conversation_id, call.round)
        waited[key] = waited.get(key, 0.0) + sum(a.wait_s for a in call.retries)
    assert trace.agents and {a.round for a in trace.agents} == {0, 1}, trace.agents
    for run in trace.agents:
        assert run.termination == "submitted", run
        assert run.model_s >= waited.get((run.conversation_id, run.round), 0.0), (run, waited)
        assert run.wall_s - run.model_s < TIME_LIMIT_S, run


def _wait_requests(port: int, n: int, timeout: float = 180) -> None:
    """Until the model server has answered `n` requests (its /health counts them)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if httpx.get(f"http://127.0.0.1:{port}/health", timeout=10).json()["requests"] >= n:
            return
        time.sleep(0.1)
    raise AssertionError(f"fewer than {n} model requests after {timeout} s")
