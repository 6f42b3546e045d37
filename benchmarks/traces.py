"""Trace capture rate: the real writer (zstd frames, prefix dedup, blobs, flush interval, fsync at every
episode end) beside a naive writer (json.dumps per event, one write + flush per line), same events.
Then (part 2) export to Parquet of 1M model-call rows beside a naive per-row writer, and the viewer's
latency on 10,000 episodes.

    python benchmarks/traces.py [--episodes N] [--rl-episodes N] [--steps N] [--repeats N]
                                [--export-rows N] [--writer-rows N] [--viewer-episodes N]

Two workloads of the same shape (a 30-step coder conversation, a command per step, grades): RL capture
with prompt/completion token ids and logprobs on every call (`..._with_token_ids`), and the default
(token ids off, as with closed APIs). Prints `<metric>: <number>` lines; the last is
`trace_events_per_s` of the default workload (target >= 100,000).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import anyio.lowlevel
import msgspec

from repozero.kernel.log import configure_logging
from repozero.traces import (
    AgentFinished,
    EpisodeFinished,
    EpisodeStarted,
    Event,
    ModelCalled,
    ToolExecuted,
    TraceConfig,
    TraceReader,
    TraceWriter,
)
from repozero.traces.export import ExportOptions, RunSource, export_runs, trajectories
from repozero.traces.export.parquet_tables import STEP_COLUMNS
from repozero.traces.export.trajectories import new_messages

TESTS = Path(__file__).resolve().parent.parent / "tests"  # the synthetic events are a test fixture
sys.path.insert(0, str(TESTS))
from synthetic_traces import episode_events  # noqa: E402


async def run_real(events: list[Event], root: Path) -> tuple[float, float]:
    """Emit everything through the real writer; the clock stops when the last episode is durable.
    Returns (wall seconds, CPU seconds of this process)."""
    start, cpu = time.perf_counter(), time.process_time()
    async with TraceWriter(root, TraceConfig()) as writer:
        for i, event in enumerate(events):
            writer.emit(event)
            if i % 64 == 0:
                await anyio.lowlevel.checkpoint()  # events come from many tasks: let the flusher run
        await writer.flush()
    return time.perf_counter() - start, time.process_time() - cpu


def run_naive(events: list[Event], path: Path) -> float:
    start = time.perf_counter()
    with open(path, "w", encoding="utf-8") as f:
        for event in events:
            f.write(json.dumps(msgspec.to_builtins(event)) + "\n")
            f.flush()
        os.fsync(f.fileno())
    return time.perf_counter() - start


def _size(path: Path) -> int:
    return (
        sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
        if path.is_dir()
        else path.stat().st_size
    )


def measure(events: list[Event], naive_count: int, tmp: Path, name: str, repeats: int) -> dict[str, float]:
    """Both writers on the same events (the naive one on the first `naive_count`: its cost per event
    does not depend on how many there are); sizes per event; the read-back rate of whole calls.
    Rates are the best of `repeats` runs (the machine is shared); `trace_events_per_cpu_s` counts
    CPU time only, which other load on the machine does not inflate."""
    naive, real = tmp / f"{name}.jsonl", tmp / name
    naive_s = min(run_naive(events[:naive_count], naive) for _ in range(repeats))
    naive_bytes = _size(naive) / naive_count
    naive.unlink()
    runs = [
        anyio.run(run_real, events, real / str(i), backend_options={"use_uvloop": True})
        for i in range(repeats)
    ]
    real_s, cpu_s = min(wall for wall, _ in runs), min(cpu for _, cpu in runs)
    real_bytes = _size(real / "0") / len(events)
    read_start = time.perf_counter()
    reader = TraceReader(real / "0")
    calls = sum(1 for _ in reader.model_calls(reader.records()))
    read_s = time.perf_counter() - read_start
    return {
        "events": len(events),
        "naive_events_per_s": naive_count / naive_s,
        "naive_bytes_per_event": naive_bytes,
        "trace_bytes_per_event": real_bytes,
        "read_model_calls_per_s": calls / read_s,
        "speedup_vs_naive": (naive_s / naive_count) / (real_s / len(events)),
        "trace_events_per_cpu_s": len(events) / cpu_s,
        "trace_events_per_s": len(events) / real_s,
    }


def _events(episodes: int, steps: int, token_ids: bool) -> tuple[list[Event], int]:
    rng = random.Random(7)
    per_episode = [episode_events(ep, rng=rng, steps=steps, token_ids=token_ids) for ep in range(episodes)]
    return [e for episode in per_episode for e in episode], len(per_episode[0])


# -- part 2: export to trainers, and the viewer ---------------------------------------------------


def _renamed(events: list[Event], i: int) -> list[Event]:
    """A pool episode under new ids (commands left out: they are not rows of the export)."""
    eid, replace, out = f"b{i}", msgspec.structs.replace, []
    for e in events:
        match e:
            case ModelCalled():
                call = replace(
                    e.call, episode_id=eid, conversation_id=f"{eid}-coder", call_id=f"{eid}-{e.call.step}"
                )
                out.append(ModelCalled(call=call))
            case EpisodeStarted() | EpisodeFinished():
                out.append(type(e)(episode=replace(e.episode, episode_id=eid, group_id=f"g{i // 4}")))  # type: ignore[call-arg]
            case AgentFinished():
                out.append(
                    AgentFinished(agent=replace(e.agent, episode_id=eid, conversation_id=f"{eid}-coder"))
                )
            case ToolExecuted():
                pass
    return out


async def _write_rows(root: Path, rows: int, steps: int) -> None:
    """A trace directory with `rows` model calls: 32 synthetic episodes under new ids (token ids off,
    as for the default capture workload)."""
    rng = random.Random(11)
    pool = [episode_events(ep, rng=rng, steps=steps, token_ids=False) for ep in range(32)]
    async with TraceWriter(root, TraceConfig(fsync=False)) as writer:
        for i in range(-(-rows // steps)):
            for event in _renamed(pool[i % len(pool)], i):
                writer.emit(event)
            await anyio.lowlevel.checkpoint()


def naive_write(trajs: list[Any], out: Path) -> int:
    """The same steps table, one dict per row (json.dumps for messages), written from lists of dicts."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from repozero.traces.export.columns import arrow_type

    schema = pa.schema([(name, arrow_type(kind)) for name, kind in STEP_COLUMNS])
    rows: list[dict[str, object]] = []
    with pq.ParquetWriter(out, schema, compression="zstd") as parquet:
        for traj in trajs:
            prev, tid, n = None, traj.trajectory_id("bench"), len(traj.calls)
            for i, (call, delta) in enumerate(zip(traj.calls, traj.deltas, strict=True)):
                shared, new = new_messages(prev, call, delta)
                rows.append(_naive_row(tid, call, delta, i, n, shared, new, traj.episode.record.reward))
                prev = call
            if len(rows) >= 65_536:
                parquet.write_table(pa.Table.from_pylist(rows, schema=schema))
                rows = []
        parquet.write_table(pa.Table.from_pylist(rows, schema=schema))
    return sum(len(t.calls) for t in trajs)


def columnar_write(trajs: list[Any], blobs: Any, out: Path) -> int:
    """The export's own writer (column buffers, Arrow row groups) on the same trajectories."""
    from repozero.traces.export.output import ParquetFile
    from repozero.traces.export.parquet_tables import step_rows

    parquet = ParquetFile(out, STEP_COLUMNS)
    rows = sum(
        step_rows(parquet, blobs, "bench", traj, traj.episode.record.reward, "train") for traj in trajs
    )
    parquet.close()
    return rows


def _naive_row(
    trajectory_id: str, call: Any, delta: Any, i: int, n: int, shared: int, new: list[Any], reward: float
) -> dict[str, object]:
    u, t, tokens, r = call.usage, call.timing, delta.tokens, call.response
    return {
        "run_id": "bench", "episode_id": call.episode_id, "trajectory_id": trajectory_id,
        "conversation_id": call.conversation_id, "call_id": call.call_id, "role": call.role, "round": call.round,
        "step": call.step, "step_index": i, "num_steps": n, "is_last_step": i == n - 1, "model": call.model,
        "endpoint": call.endpoint, "replica": call.replica, "finish_reason": call.finish_reason,
        "token_fidelity": call.token_fidelity, "prompt_tokens": u.prompt_tokens,
        "completion_tokens": u.completion_tokens, "cached_tokens": u.cached_tokens,
        "reasoning_tokens": u.reasoning_tokens, "cost_usd": u.cost_usd, "started_at": t.started_at,
        "latency_s": t.latency_s, "ttft_s": t.ttft_s, "queue_wait_s": t.queue_wait_s,
        "retry_wait_s": t.retry_wait_s, "retries": len(call.retries), "messages_shared": shared,
        "new_messages": json.dumps(msgspec.to_builtins(new)), "response_content": r.content,
        "response_reasoning": r.reasoning,
        "response_tool_calls": [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in r.tool_calls],
        "prompt_ids_count": tokens.prompt_shared + len(tokens.prompt_ids) if tokens and tokens.prompt_ids is not None else None,
        "completion_ids": tokens.completion_ids if tokens else None,
        "completion_logprobs": tokens.completion_logprobs if tokens else None,
        "reward": reward if i == n - 1 else 0.0, "split": "train",
    }  # fmt: skip


def measure_export(tmp: Path, rows: int, writer_rows: int, steps: int = 25) -> dict[str, float]:
    """`export_runs(..., format="parquet")` on `rows` model calls end to end (decompress, decode, rebuild
    calls, write both tables); then the export's writer beside a naive per-row writer on the same
    `writer_rows` rows held in memory (reading is the same for both, so it is left out of that ratio).
    CPU seconds, which other load on the shared machine does not inflate, make the ratios."""
    anyio.run(_write_rows, tmp / "run" / "traces", rows, steps, backend_options={"use_uvloop": True})
    trace_bytes = _size(tmp / "run" / "traces")
    start, cpu = time.perf_counter(), time.process_time()
    summary = export_runs([tmp / "run"], tmp / "out", ExportOptions(format="parquet"))
    export_s, export_cpu = time.perf_counter() - start, time.process_time() - cpu
    exported = summary.files["steps.parquet"]
    source, trajs, held = RunSource(tmp / "run"), [], 0
    for ep in source.episodes(tokens=False):
        trajs += trajectories(ep)
        held += len(ep.calls)
        if held >= writer_rows:
            break
    cpu = time.process_time()
    mine = columnar_write(trajs, source.blobs, tmp / "columnar.parquet")
    mine_cpu = time.process_time() - cpu
    cpu = time.process_time()
    naive = naive_write(trajs, tmp / "naive.parquet")
    naive_cpu = time.process_time() - cpu
    return {
        "export_rows": exported,
        "export_trace_bytes_per_row": trace_bytes / exported,
        "export_naive_writer_rows_per_cpu_s": naive / naive_cpu,
        "export_writer_rows_per_cpu_s": mine / mine_cpu,
        "export_writer_speedup_vs_naive": naive_cpu / mine_cpu,
        "export_parquet_rows_per_cpu_s": exported / export_cpu,
        "export_parquet_rows_per_s": exported / export_s,
    }


def measure_viewer(tmp: Path, episodes: int) -> dict[str, float]:
    """The viewer on `episodes` finished episodes: index build, a page of the list (filtered, sorted,
    paginated), one whole episode; beside a reader that scans the shards to list episodes."""
    import statistics

    from repozero.traces.viewer import EpisodeQuery, ViewerIndex, episode_view

    rng = random.Random(3)
    events = [e for ep in range(episodes) for e in episode_events(ep, rng=rng, steps=2, token_ids=False)]
    anyio.run(_write_all, tmp / "traces", events, backend_options={"use_uvloop": True})
    start = time.perf_counter()
    index = ViewerIndex([tmp])
    index_s = time.perf_counter() - start
    run = index.run("0")
    queries = [
        {"offset": str(50 * k), "status": status, "sort": sort, "min_reward": "0.5"}
        for k in range(20) for status in ("", "failed") for sort in ("sample", "reward")
    ]  # fmt: skip
    page_s = []
    for params in queries:
        start = time.perf_counter()
        msgspec.json.encode(run.query(EpisodeQuery(params)))
        page_s.append(time.perf_counter() - start)
    start = time.perf_counter()
    found = run.source.episode("synthetic-ep77")
    assert found is not None
    msgspec.json.encode(episode_view(found, run.source.blobs))
    episode_s = time.perf_counter() - start
    start = time.perf_counter()
    scanned = {
        r.episode_id for r in TraceReader(tmp / "traces").records() if type(r).__name__ == "EpisodeRecord"
    }  # type: ignore[union-attr]
    scan_s = time.perf_counter() - start
    assert len(scanned) == episodes
    page = statistics.median(page_s)
    return {
        "viewer_episodes": episodes,
        "viewer_index_ms": 1000 * index_s,
        "viewer_episode_open_ms": 1000 * episode_s,
        "viewer_page_ms": 1000 * page,
        "viewer_page_speedup_vs_shard_scan": scan_s / page,
    }


async def _write_all(root: Path, events: list[Event]) -> None:
    async with TraceWriter(root, TraceConfig(fsync=False)) as writer:
        for i, event in enumerate(events):
            writer.emit(event)
            if i % 1024 == 0:
                await anyio.lowlevel.checkpoint()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=1000, help="episodes of the default workload")
    parser.add_argument("--rl-episodes", type=int, default=200, help="episodes of the token-id workload")
    parser.add_argument("--naive-episodes", type=int, default=100)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--export-rows", type=int, default=1_000_000, help="model-call rows to export")
    parser.add_argument("--writer-rows", type=int, default=100_000, help="rows for the writer comparison")
    parser.add_argument("--viewer-episodes", type=int, default=10_000)
    args = parser.parse_args()
    configure_logging(level="warning")
    results = {}
    with tempfile.TemporaryDirectory(prefix="rz-bench-traces-") as tmp:
        for name, token_ids, episodes in (("rl", True, args.rl_episodes), ("default", False, args.episodes)):
            events, per_episode = _events(episodes, args.steps, token_ids)
            naive_count = per_episode * min(args.naive_episodes, episodes)
            results[name] = measure(events, naive_count, Path(tmp), name, args.repeats)
            del events
    for key, value in results["rl"].items():
        print(f"{key}_with_token_ids: {value:.6g}")
    for key, value in results["default"].items():
        if key != "trace_events_per_s":
            print(f"{key}: {value:.6g}")
    with tempfile.TemporaryDirectory(prefix="rz-bench-export-") as tmp:
        part2 = {
            **measure_viewer(Path(tmp) / "viewer", args.viewer_episodes),
            **measure_export(Path(tmp) / "export", args.export_rows, args.writer_rows),
        }
    for key, value in part2.items():
        print(f"{key}: {value:.6g}")
    print(f"trace_events_per_s: {results['default']['trace_events_per_s']:.0f}")


if __name__ == "__main__":
    main()
