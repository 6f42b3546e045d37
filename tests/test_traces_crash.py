"""Must show: kill a writer mid-write, read back everything up to its last flush, nothing corrupt.

A real child process (tests/trace_crash_writer.py) writes through a real `TraceWriter` and acknowledges
explicit flushes on stdout; it is SIGKILLed while still writing: at a random moment, or while the kernel
is copying an 18 MB frame into the shard (caught by watching the file grow).
"""

from __future__ import annotations

import importlib.util
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import anyio.lowlevel
import pytest
from anyio.abc import Process
from anyio.streams.buffered import BufferedByteReceiveStream

from repozero.traces import EpisodeRecord, ModelCalled, ShardOpened, TraceReader, record_of

CHILD = Path(__file__).with_name("trace_crash_writer.py")


def _child_module() -> Any:
    spec = importlib.util.spec_from_file_location("trace_crash_writer", CHILD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _key(record: object) -> tuple[str, str]:
    """A record's kind and id; a `ModelCall` (sent) and its `ModelCallRecord` (stored) share one."""
    kind = type(record).__name__.removesuffix("Record")
    return (
        kind,
        f"{getattr(record, 'call_id', '') or getattr(record, 'episode_id', '')}/{getattr(record, 'step', '')}",
    )


def _expected(seed: int, mode: str, count: int) -> list[tuple[str, str]]:
    """What the child emitted, in order (regenerated with its own generator and seed)."""
    keys: list[tuple[str, str]] = []
    for batch in _child_module().batches(mode, random.Random(seed)):
        keys += [_key(e.call if isinstance(e, ModelCalled) else record_of(e)) for e in batch]
        if len(keys) >= count:
            return keys[:count]
    raise AssertionError("unreachable")


async def _acks(proc: Process, n: int) -> int:
    assert proc.stdout is not None
    lines, flushed = BufferedByteReceiveStream(proc.stdout), 0
    for _ in range(n):
        flushed = int((await lines.receive_until(b"\n", 100)).split()[1])
    return flushed


async def _kill(proc: Process) -> None:
    proc.send_signal(signal.SIGKILL)
    assert await proc.wait() == -signal.SIGKILL


async def _wait_for_growth(path: Path) -> None:
    """Return as soon as the file grows: the writer is inside a frame write (busy-polls; the caller
    bounds it with fail_after)."""
    file = anyio.Path(path)
    before = (await file.stat()).st_size
    while True:
        if (await file.stat()).st_size != before:
            return


def _open_child(out: Path, seed: int, mode: str) -> Any:
    argv = [sys.executable, str(CHILD), str(out), str(seed), mode]
    return anyio.open_process(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _check_read_back(out: Path, seed: int, mode: str, flushed: int) -> TraceReader:
    reader = TraceReader(out)
    records = list(reader.records())  # raises on anything corrupt; skips only a torn tail
    assert isinstance(records[0], ShardOpened)
    got = [_key(r) for r in records[1:]]
    assert len(got) >= flushed  # everything acknowledged before the kill is there ...
    assert got == _expected(seed, mode, len(got))  # ... in order, nothing missing, nothing extra
    calls = list(reader.model_calls(records))  # every prefix chain is intact
    assert len(calls) == sum(kind == "ModelCall" for kind, _ in got)
    for entry in reader.finished_episodes():  # every manifest entry points at readable lines
        episode = reader.episode(entry)
        assert isinstance(episode.episode, EpisodeRecord) and episode.start is not None
        assert {c.conversation_id for c in episode.model_calls} == {f"{entry.episode_id}-coder"}
    return reader


@pytest.mark.anyio
@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_killed_writer_loses_nothing_it_flushed_and_corrupts_nothing(
    tmp_path: Path, seed: int
) -> None:
    with anyio.fail_after(60):
        async with await _open_child(tmp_path, seed, "episodes") as proc:
            flushed = await _acks(proc, 1 + seed)
            await anyio.sleep(random.Random(seed).uniform(0, 0.05))  # between acknowledgements
            await _kill(proc)
    reader = _check_read_back(tmp_path, seed, "episodes", flushed)
    assert reader.finished_episodes()


@pytest.mark.anyio
async def test_a_writer_killed_inside_a_frame_write_leaves_a_tail_readers_skip(tmp_path: Path) -> None:
    torn = []
    for attempt in range(5):  # the kill lands inside the write almost always; allow bad luck
        out = tmp_path / str(attempt)
        with anyio.fail_after(60):
            async with await _open_child(out, attempt, "big") as proc:
                flushed = await _acks(proc, 1)
                await _wait_for_growth(out / "shards" / "crash.jsonl.zst")
                await _kill(proc)
        reader = _check_read_back(out, attempt, "big", flushed)
        torn += list(reader.torn.values())
        if torn:
            break
    print(f"torn after {attempt + 1} attempt(s): {torn}")
    assert torn and "incomplete frame" in torn[0]
