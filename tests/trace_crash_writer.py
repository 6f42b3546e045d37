"""Child process of the crash tests: writes through a real `TraceWriter` until it is killed.

    python trace_crash_writer.py OUT_DIR SEED episodes|big

`episodes`: synthetic episodes as fast as it can (interval flushes every 20 ms, 2 MiB frames, blobs,
fsync at episode ends). `big`: tool outputs of 3 MB of incompressible text kept inline, 6 per frame, so
each frame write takes long enough to be killed in the middle of it. After each explicit `flush()` it
prints `flushed N` (N = events emitted so far, all now written), so the parent knows what must survive.
"""

from __future__ import annotations

import base64
import importlib.util
import itertools
import random
import sys
import time
from pathlib import Path
from types import ModuleType

import anyio
import anyio.lowlevel

from repozero.kernel.log import configure_logging
from repozero.traces import Event, ToolExecuted, ToolExecutionRecord, TraceConfig, TraceWriter

BIG_PER_FRAME = 6


def _sibling(name: str) -> ModuleType:
    """A helper module beside this file, by path: this file runs as a script and is loaded by path too."""
    spec = importlib.util.spec_from_file_location(
        f"repozero_tests_{name}", Path(__file__).with_name(f"{name}.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


episode_events = _sibling("synthetic_traces").episode_events


def big_event(i: int, rng: random.Random) -> ToolExecuted:
    output = base64.b64encode(rng.randbytes(2_250_000)).decode()
    return ToolExecuted(
        execution=ToolExecutionRecord(
            episode_id="big", conversation_id="big", call_id=f"big-{i}", step=i, tool="execute_bash",
            command="cat /dev/urandom", started_at=time.time(), duration_s=0.1, output=output,
        )
    )  # fmt: skip


def batches(mode: str, rng: random.Random) -> itertools.chain[list[Event]]:
    """What to emit between two explicit flushes."""
    if mode == "big":
        return itertools.chain.from_iterable(
            [[big_event(i * BIG_PER_FRAME + j, rng) for j in range(BIG_PER_FRAME)]] for i in itertools.count()
        )
    episodes = (episode_events(ep, rng=rng, steps=6, big_output_at=ep % 5, big_output_bytes=50_000) for ep in itertools.count())  # fmt: skip
    return itertools.chain.from_iterable(
        [[*next(episodes), *next(episodes), *next(episodes)]] for _ in itertools.count()
    )


async def main(out: str, seed: int, mode: str) -> None:
    rng = random.Random(seed)
    if mode == "big":
        config = TraceConfig(flush_interval_s=3600.0, frame_bytes=1 << 30, blob_threshold_bytes=1 << 30)
    else:
        config = TraceConfig(flush_interval_s=0.02, frame_bytes=1 << 21)
    emitted = 0
    async with TraceWriter(out, config, writer_id="crash") as writer:
        for batch in batches(mode, rng):
            for event in batch:
                writer.emit(event)
                emitted += 1
                if emitted % 20 == 0:
                    await anyio.lowlevel.checkpoint()  # let the interval flush run between explicit ones
            await writer.flush()
            print(f"flushed {emitted}", flush=True)


if __name__ == "__main__":
    configure_logging(level="warning")  # logs go to stderr: stdout carries the acknowledgements
    anyio.run(main, sys.argv[1], int(sys.argv[2]), sys.argv[3], backend_options={"use_uvloop": True})
