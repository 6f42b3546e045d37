"""Scale and observability: limiters from config and the machine (in the manifest), the progress display's
plain lines, action logs read back by `repozero anomalies` (live and after a crash), and memory that stays
flat in the number of finished episodes."""

from __future__ import annotations

import gc
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections import Counter
from pathlib import Path
from typing import Any

import anyio
import pytest
import structlog

from repozero.config_file import load_config
from repozero.kernel.errors import ConfigError
from repozero.orchestrator.engine.actions import ActionLog
from repozero.orchestrator.engine.config import Config
from repozero.orchestrator.engine.display import RunProgress, progress_fields, show_progress
from repozero.orchestrator.engine.limits import LimiterQueue
from repozero.orchestrator.engine.parts import run_sizes
from repozero.orchestrator.engine.run import start_run
from repozero.orchestrator.engine.spec import RunSpec
from repozero.orchestrator.report.anomalies import find_open_actions
from repozero.traces import EpisodeFinished

from .synthetic_traces import episode_events

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
CORES = len(os.sched_getaffinity(0))


def repozero(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "repozero", *args], capture_output=True, text=True, timeout=timeout
    )


def anomalies(run_dir: Path, *extra: str) -> dict[str, Any]:
    proc = repozero("anomalies", str(run_dir), "--json", *extra)
    assert proc.returncode == 0, proc.stderr
    return dict(json.loads(proc.stdout))


# --- limiters ---------------------------------------------------------------------------------------------


def limiter_sizes(config: Config, concurrency: int, backend: str, model: str) -> dict[str, int]:
    spec = RunSpec(dataset=str(FIXTURE), model=model, sandbox=backend, concurrency=concurrency)
    return run_sizes(config, spec)[2]


def test_limiter_defaults_come_from_the_machine_and_config_overrides_them() -> None:
    sizes = limiter_sizes(load_config(), 64, "local", "fake:gold")
    memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert sizes["episodes"] == 64 and sizes["grading"] == CORES and sizes["oracle"] == max(8, 4 * CORES)
    assert sizes["sandboxes"] == max(8, memory // (48 << 20)) and sizes["model:fake"] == 1024
    config = load_config(
        None,
        [
            "limits.sandboxes.docker=12",
            "limits.docker_api=5",
            "limits.grading=3",
            "endpoints.qwen.base_urls=['http://gpu:8000/v1']",
            "endpoints.qwen.max_connections=77",
        ],
    )
    docker = limiter_sizes(config, 8, "docker", "qwen")
    assert docker == {
        "episodes": 8, "sandboxes": 12, "grading": 3, "oracle": max(8, 4 * CORES), "docker_api": 5, "model:qwen": 77,
    }  # fmt: skip
    assert (
        limiter_sizes(load_config(None, ["sandbox.docker_api_concurrency=9"]), 1, "docker", "fake:gold")[
            "docker_api"
        ]
        == 9
    )
    for bad, named in [
        ("limits.sandboxes.k8s=3", "limits.sandboxes.k8s"),
        ("limits.grading=-1", "limits.grading"),
    ]:
        with pytest.raises(ConfigError, match=named):
            limiter_sizes(load_config(None, [bad]), 4, "local", "fake:gold")


def test_run_records_its_limiters_logs_plain_progress_and_leaves_no_open_action(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    proc = repozero(
        "run", "--dataset", str(FIXTURE), "--model", "fake:buggy-then-fix", "--ace-rounds", "1", "--out", str(run_dir),
        "--concurrency", "3", "--display", "plain", "--json", "--log-json",
        "--set", "limits.sandboxes.local=7", "--set", "limits.grading=3", "--set", "limits.oracle=5",
        "--set", "limits.model_connections.fake=9", "--set", "run.progress_interval_s=0.2",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["limiters"] == {"episodes": 3, "sandboxes": 7, "grading": 3, "oracle": 5, "model:fake": 9}
    lines = [json.loads(x) for x in proc.stderr.splitlines() if x.startswith("{")]
    progress = [x for x in lines if x["event"] == "run_progress"]
    assert progress and progress[-1].get("final") and progress[-1]["done"] == "2/2"
    assert progress[-1]["limit_sandboxes"] == "0/7" and progress[-1]["limit_model:fake"] == "0/9"
    assert progress[-1]["pass_rate"] == 1.0 and progress[-1]["tokens"] > 0
    assert {x.get("run_id") for x in lines if x["event"].startswith("episode_")} == {"run"}
    report = anomalies(run_dir)
    assert report["open"] == [] and report["started"] == report["finished"] > 0
    ops = {json.loads(x).get("op") for x in (run_dir / "actions.jsonl").read_text().splitlines()}
    assert {"sandbox_open", "model_call", "sandbox_shell", "run_cases", "oracle_batch", "get_tree"} <= ops
    rounds = {
        json.loads(x).get("round")
        for x in (run_dir / "actions.jsonl").read_text().splitlines()
        if '"op":"model_call"' in x
    }
    assert rounds == {0, 1}  # every model call carries its episode's round


# --- the display --------------------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_progress_counts_events_and_prints_plain_lines() -> None:
    rng = random.Random(7)
    progress = RunProgress(total=5, already_done=1, saturation=lambda: {"sandboxes": LimiterQueue(2, 8, 0)})
    for n in range(3):
        for event in episode_events(n, rng=rng, steps=4):
            progress.emit(event)
    progress.emit(episode_events(3, rng=rng, steps=1)[0])  # a fourth episode starts
    snap = progress.snapshot()
    assert (snap.done, snap.running, snap.queued, snap.model_calls) == (4, 1, 0, 12)
    assert snap.pass_rate == 0.0 and snap.tokens > 12 * 60 and snap.eta_s is not None
    fields = progress_fields(snap)
    assert fields["done"] == "4/5" and fields["limit_sandboxes"] == "2/8"
    with structlog.testing.capture_logs() as logs, anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(show_progress, progress, "plain", 0.05)
            await anyio.sleep(0.3)
            tg.cancel_scope.cancel()
    lines = [x for x in logs if x["event"] == "run_progress"]
    assert len(lines) >= 3 and lines[-1].get("final") is True
    # the last line is the stopped run's: what was in flight is counted as interrupted, not as running
    assert (lines[-1]["running"], lines[-1]["interrupted"], lines[-2]["running"]) == (0, 1, 1)


# --- anomalies ----------------------------------------------------------------------------------------------


def test_an_unfinished_action_is_listed_and_a_finished_one_is_not(tmp_path: Path) -> None:
    with ActionLog(tmp_path / "actions.jsonl", "r1") as actions:
        done = actions.start("model_call", endpoint="e")
        actions.end(done)
        actions.start("sandbox_shell", command="sleep 1000")
        with pytest.raises(RuntimeError), actions.track("run_cases", cases=3):
            raise RuntimeError("boom")
        report = anomalies(tmp_path)
        assert [(a["op"], a["state"], a["detail"]) for a in report["open"]] == [
            ("sandbox_shell", "running", {"command": "sleep 1000"})
        ]
        assert (report["started"], report["finished"]) == (3, 2)
        assert find_open_actions(tmp_path, min_age_s=3600).open == []
    # a second writer that dies: its action is abandoned; this test's process lives, its action runs on
    code = (
        "import os, signal, sys; from pathlib import Path; from repozero.orchestrator.engine.actions import ActionLog\n"
        "a = ActionLog(Path(sys.argv[1]), 'r1'); a.start('oracle_batch', cases=2); os.kill(os.getpid(), 9)"
    )
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "actions.jsonl")], timeout=30)
    report = anomalies(tmp_path)
    states = sorted((a["op"], a["state"]) for a in report["open"])
    assert states == [("oracle_batch", "abandoned"), ("sandbox_shell", "running")]
    assert "oracle_batch" in repozero("anomalies", str(tmp_path)).stdout
    with (tmp_path / "actions.jsonl").open("a") as f:  # a writer on another host: liveness unknown here
        f.write('{"process": 77, "proc_start": "1", "host": "elsewhere", "t": 1.0}\n')
        f.write('{"a": "4d.1", "op": "model_call", "t": 2.0, "episode_id": "e1"}\n{"a": "4d.2", "op"')
    other = [a for a in anomalies(tmp_path)["open"] if a["pid"] == 77]
    assert [(a["op"], a["state"], a["episode_id"]) for a in other] == [("model_call", "unknown", "e1")]


def test_a_hanging_model_call_shows_live_with_its_age_then_abandoned_after_kill_9(tmp_path: Path) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "repozero", "fake-llm", "serve", "--dataset", str(FIXTURE), "--fault-rate", "1",
         "--faults", "hang", "--hang-s", "120"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    run_dir = tmp_path / "run"
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        cmd = [
            sys.executable, "-m", "repozero", "run", "--dataset", str(FIXTURE), "--model", "stuck", "--samples",
            "fx-slug", "--ace-rounds", "0", "--out", str(run_dir), "--display", "off",
            "--set", f"endpoints.stuck.base_urls=['{url}/v1']", "--set", "endpoints.stuck.model=fake",
        ]  # fmt: skip
        run = subprocess.Popen(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        try:
            deadline = time.monotonic() + 60
            while '"op":"model_call"' not in _read(run_dir / "actions.jsonl"):
                assert time.monotonic() < deadline and run.poll() is None
                time.sleep(0.1)
            time.sleep(1.2)
            live = anomalies(run_dir, "--min-age", "1")
            assert [(a["op"], a["state"], a["episode_id"], a["round"]) for a in live["open"]] == [
                ("model_call", "running", "fx-slug--a0", 0)
            ]
            assert live["open"][0]["age_s"] >= 1.0
        finally:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
        after = anomalies(run_dir)
        assert [(a["op"], a["state"]) for a in after["open"]] == [("model_call", "abandoned")]
    finally:
        server.terminate()
        server.wait()
        if server.stdout is not None:
            server.stdout.close()


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except FileNotFoundError:
        return ""


# --- memory ----------------------------------------------------------------------------------------------


EARLY, LATE = (10, 12, 14), (36, 38, 40)


def _kind(obj: object) -> str:
    """An object's type name; a weak reference whose referent is gone counts apart: it is garbage a weak
    container has not pruned yet, as many or as few as the work in flight (52 to 197 in one run, none left
    once the run ends), not something an episode leaves behind."""
    if type(obj) is weakref.ReferenceType:
        referent = obj()
        return (
            "ReferenceType (dead)" if referent is None else f"ReferenceType to {type(referent).__qualname__}"
        )
    return type(obj).__qualname__


class MemoryProbe:
    """At some finished-episode counts: live objects by type and pymalloc blocks, after a full collection."""

    def __init__(self) -> None:
        self.finished = 0
        self.types: dict[int, Counter[str]] = {}
        self.blocks: dict[int, int] = {}

    def emit(self, event: object) -> None:
        if not isinstance(event, EpisodeFinished):  # the run's are its subclass EpisodeScored
            return
        self.finished += 1
        if self.finished in EARLY + LATE:
            gc.collect()
            # counted one by one: `Counter(generator)` asks `isinstance(generator, Mapping)`, and that ABC
            # check leaves weak references to the generator type in Mapping's subclasses' caches — ~4 new
            # ones per episode here, the probe measuring itself
            counts: Counter[str] = Counter()
            for obj in gc.get_objects():
                counts[_kind(obj)] += 1
            self.types[self.finished] = counts
            self.blocks[self.finished] = sys.getallocatedblocks()

    def growth(self) -> tuple[dict[str, int], int]:
        """Per type and in blocks: the least seen late minus the least seen early (in-flight episodes
        only ever add, so the least of a few samples is the nearest to what stays)."""
        names = set().union(*self.types.values())
        by_type = {
            n: min(self.types[k][n] for k in LATE) - min(self.types[k][n] for k in EARLY) for n in names
        }
        return by_type, min(self.blocks[k] for k in LATE) - min(self.blocks[k] for k in EARLY)


def test_memory_stays_flat_in_the_number_of_finished_episodes(tmp_path: Path) -> None:
    """40 episodes in-process — loopback server, model client and sessions, local sandboxes, grading,
    traces, results store, action log, display: no kind of object grows with each finished episode."""
    probe = MemoryProbe()
    spec = RunSpec(
        dataset=str(FIXTURE), model="fake:steps:2", ace_rounds=0, attempts=40, samples="fx-slug",
        out=str(tmp_path / "run"), concurrency=4,
    )  # fmt: skip
    summary = start_run(load_config(), spec, display="off", sinks=[probe])
    assert summary.finished == 40 and summary.infra_errors == 0
    by_type, blocks = probe.growth()
    # Bound methods of locks come with anyio's worker threads: a pool that grows to at most 40 threads.
    by_type.pop("builtin_function_or_method", None)
    by_type.pop("ReferenceType (dead)", None)  # unpruned garbage of weak containers, not kept (see _kind)
    assert threading.active_count() <= 48
    episodes = LATE[0] - EARLY[-1]
    grown = {name: n for name, n in by_type.items() if n >= episodes}  # one per episode, or more
    assert not grown, grown
    assert blocks < 100 * episodes, blocks
