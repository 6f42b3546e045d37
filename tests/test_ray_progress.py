"""The Ray driver's bookkeeping without a cluster: the model-call counters node runners send with their
results (summed per node, never lowered by a late result), an episode reopened because its node's traces
never reached the storage, and a node's scratch folder removed with the parents it leaves empty — only
under `repozero-ray/`, never a folder beside it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from repozero.orchestrator.engine.progress import CallCounts, RunProgress


def test_node_counters_sum_per_node_and_a_late_result_does_not_lower_them() -> None:
    progress = RunProgress(4)
    progress.remote_calls(
        "node-a", CallCounts(model_calls=5, failed_calls=1, rate_limit_waits=2, rate_limit_wait_s=1.5)
    )
    progress.remote_calls("node-b", CallCounts(model_calls=3))
    progress.remote_calls(
        "node-a", CallCounts(model_calls=4, failed_calls=1)
    )  # an earlier unit's, arriving late
    s = progress.snapshot()
    assert (s.model_calls, s.failed_calls, s.rate_limit_waits, s.rate_limit_wait_s) == (8, 1, 2, 1.5)
    progress.remote_calls("node-b", CallCounts(model_calls=7))
    assert progress.snapshot().model_calls == 12


def test_a_reopened_episode_is_no_longer_done_but_its_tokens_stay_spent() -> None:
    progress = RunProgress(3)
    for episode, solved in (("e0", True), ("e1", False)):
        progress.started(episode)
        progress.ended(episode, infra_error=False, solved=solved, tokens=10, cost_usd=0.5)
    progress.reopened(infra_error=False, solved=True)
    s = progress.snapshot()
    assert (s.done, s.scored, s.solved, s.pass_rate, s.tokens, s.cost_usd) == (1, 1, 0, 0.0, 20, 1.0)


def test_a_scratch_folder_goes_with_the_parents_it_leaves_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from repozero.orchestrator.ray_executor.storage import drop_scratch, scratch_dir

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    url = "file:///shared/runs/r1"
    first, second = scratch_dir(url, "node-a"), scratch_dir(url, "node-b")
    other = scratch_dir("s3://bucket/other", "node-a")
    for folder in (first, second, other):
        (folder / "traces").mkdir(parents=True)
        (folder / "traces" / "shard").write_text("x")
    drop_scratch(first)  # the other node's copy of the same URL is beside it: its URL's folder stays
    assert not first.exists() and second.is_dir() and first.parent.is_dir()
    drop_scratch(second)
    assert not second.parent.exists() and other.is_dir()  # the URL's folder went; another URL's stays
    drop_scratch(other)
    assert not (tmp_path / "repozero-ray").exists()  # the last one takes repozero-ray/ with it
    outside = tmp_path / "mine" / "copy"  # a folder not under repozero-ray/: its empty parent stays
    outside.mkdir(parents=True)
    drop_scratch(outside)
    assert not outside.exists() and (tmp_path / "mine").is_dir()


def test_a_runner_needs_a_runtime_env_unless_its_node_says_it_holds_the_runner_env() -> None:
    from repozero.orchestrator.ray_executor.cluster import ASYNCIO_NODE_LABEL, RUNNER_ENV, runner_env

    labelled = {"NodeID": "a", "Labels": {ASYNCIO_NODE_LABEL: "true"}}
    assert runner_env(labelled, {}) == {}  # a prestarted worker will do
    storage = {"AWS_ENDPOINT_URL": "http://127.0.0.1:9"}
    assert runner_env(labelled, storage) == {"runtime_env": {"env_vars": {**storage, **RUNNER_ENV}}}
    for other in ({"NodeID": "b", "Labels": {}}, {"NodeID": "c"}, {"Labels": {ASYNCIO_NODE_LABEL: "yes"}}):
        assert runner_env(other, {}) == {"runtime_env": {"env_vars": RUNNER_ENV}}


def test_a_failed_join_names_token_auth_when_a_token_is_here_and_the_driver_would_not_send_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ray 2.60: a head started where a token exists wants it; a driver given an explicit address sends it
    only with RAY_AUTH_MODE=token (checked by hand against a real head: docs/ray.md, "Token authentication")."""
    from repozero.orchestrator.ray_executor.cluster import auth_hint

    for name in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert auth_hint("10.0.0.1:6379") == ""  # no token anywhere: nothing to say
    (tmp_path / ".ray").mkdir()
    (tmp_path / ".ray" / "auth_token").write_text("x" * 64)
    assert "set RAY_AUTH_MODE=token" in auth_hint("10.0.0.1:6379")
    assert auth_hint("auto") == "" and auth_hint(None) == ""  # Ray sends the token itself then
    monkeypatch.setenv("RAY_AUTH_MODE", "token")
    assert auth_hint("10.0.0.1:6379") == ""  # already sent
    monkeypatch.delenv("RAY_AUTH_MODE")
    (tmp_path / ".ray" / "auth_token").unlink()
    monkeypatch.setenv("RAY_AUTH_TOKEN", "y" * 64)
    assert "RAY_AUTH_MODE=token" in auth_hint("10.0.0.1:6379")
