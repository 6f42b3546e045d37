"""Trace capture rate: the real writer (zstd frames, prefix dedup, blobs, flush interval, fsync at every
episode end) beside a naive writer (json.dumps per event, one write + flush per line), same events.

    python benchmarks/traces.py [--episodes N] [--rl-episodes N] [--steps N] [--repeats N]

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
import tempfile
import time
from pathlib import Path

import anyio
import anyio.lowlevel
import msgspec

from repozero.log import configure_logging
from repozero.traces import Event, TraceConfig, TraceReader, TraceWriter
from repozero.traces.synthetic import episode_events


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=1000, help="episodes of the default workload")
    parser.add_argument("--rl-episodes", type=int, default=200, help="episodes of the token-id workload")
    parser.add_argument("--naive-episodes", type=int, default=100)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
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
    # part 2 (export) prints its lines here, above the capture figure
    print(f"trace_events_per_s: {results['default']['trace_events_per_s']:.0f}")


if __name__ == "__main__":
    main()
