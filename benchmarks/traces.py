"""Trace capture rate: the real writer (zstd frames, prefix dedup, blobs, flush interval, fsync at every
episode end) beside a naive writer (json.dumps per event, one write + flush per line), same events.

    python benchmarks/traces.py [--episodes N] [--steps N]

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

from repozero.traces import Event, TraceConfig, TraceReader, TraceWriter
from repozero.traces.synthetic import episode_events


async def run_real(events: list[Event], root: Path) -> float:
    """Emit everything through the real writer; the clock stops when the last episode is durable."""
    start = time.perf_counter()
    async with TraceWriter(root, TraceConfig()) as writer:
        for i, event in enumerate(events):
            writer.emit(event)
            if i % 64 == 0:
                await anyio.lowlevel.checkpoint()  # events come from many tasks: let the flusher run
        await writer.flush()
    return time.perf_counter() - start


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


def measure(events: list[Event], tmp: Path, name: str) -> dict[str, float]:
    """Both writers on the same events; sizes; and the read-back rate of whole model calls."""
    naive_s = run_naive(events, tmp / f"{name}.jsonl")
    real_s = anyio.run(run_real, events, tmp / name, backend_options={"use_uvloop": True})
    naive_bytes, real_bytes = _size(tmp / f"{name}.jsonl"), _size(tmp / name)
    (tmp / f"{name}.jsonl").unlink()
    read_start = time.perf_counter()
    reader = TraceReader(tmp / name)
    calls = sum(1 for _ in reader.model_calls(reader.records()))
    read_s = time.perf_counter() - read_start
    return {
        "naive_events_per_s": len(events) / naive_s,
        "bytes_ratio_naive_over_trace": naive_bytes / real_bytes,
        "read_model_calls_per_s": calls / read_s,
        "speedup_vs_naive": naive_s / real_s,
        "trace_events_per_s": len(events) / real_s,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--steps", type=int, default=30)
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory(prefix="rz-bench-traces-") as tmp:
        for name, token_ids in (("token_ids", True), ("default", False)):
            rng = random.Random(7)
            events = [
                e
                for ep in range(args.episodes)
                for e in episode_events(ep, rng=rng, steps=args.steps, token_ids=token_ids)
            ]
            results[name] = measure(events, Path(tmp), name)
    print(f"events: {len(events)}")
    for key, value in results["token_ids"].items():
        print(f"{key}_with_token_ids: {value:.1f}")
    for key, value in results["default"].items():
        if key != "trace_events_per_s":
            print(f"{key}: {value:.1f}")
    # part 2 (export) prints its lines here, above the capture figure
    print(f"trace_events_per_s: {results['default']['trace_events_per_s']:.0f}")


if __name__ == "__main__":
    main()
