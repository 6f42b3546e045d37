"""The trace writer and reader, for real on disk: what goes in comes back whole, flushed when promised."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import anyio
import msgspec
import pytest

from repozero.kernel.errors import RepoZeroError
from repozero.traces import (
    EpisodeFinished,
    Event,
    ModelCall,
    ModelCalled,
    ModelCallRecord,
    ShardOpened,
    ToolExecutionRecord,
    TraceConfig,
    TraceReader,
    TraceSink,
    TraceWriter,
    record_of,
)
from repozero.traces.frames import FrameReader

from .synthetic_traces import episode_events, run_events

FAST = TraceConfig(flush_interval_s=0.05, fsync=False)


def _episodes(n: int, *, steps: int = 4, big_output_at: int | None = None, seed: int = 1) -> list[Event]:
    rng = random.Random(seed)
    return [
        e for ep in range(n) for e in episode_events(ep, rng=rng, steps=steps, big_output_at=big_output_at)
    ]


async def _write(root: Path, events: list[Event], config: TraceConfig = FAST) -> TraceWriter:
    with anyio.fail_after(30):
        async with TraceWriter(root, config) as writer:
            for event in events:
                writer.emit(event)
    return writer


async def _eventually(condition: Callable[[], bool]) -> None:
    """Poll the disk until `condition` holds (the caller's fail_after bounds the wait)."""
    while True:
        if condition():
            return
        await anyio.sleep(0.01)


def _calls(events: list[Event]) -> list[ModelCall]:
    return [e.call for e in events if isinstance(e, ModelCalled)]


@pytest.mark.anyio
async def test_everything_written_is_read_back_and_calls_are_whole(tmp_path: Path) -> None:
    started, finished = run_events()
    events = [started, *_episodes(3, big_output_at=1), finished]
    await _write(tmp_path, events, TraceConfig(flush_interval_s=0.05))  # fsync on, as in real runs
    reader = TraceReader(tmp_path)
    records = list(reader.records())
    assert isinstance(records[0], ShardOpened)
    assert [type(r) for r in records[1:]] == [
        ModelCallRecord if isinstance(e, ModelCalled) else type(record_of(e)) for e in events
    ]
    calls = [reader.resolve(c) for c in reader.model_calls(records)]
    assert calls == _calls(events)  # messages, tools, token ids: exactly what the agent sent and got
    assert reader.torn == {}


@pytest.mark.anyio
async def test_message_prefixes_tools_and_token_ids_are_stored_once(tmp_path: Path) -> None:
    steps = 6
    events = _episodes(1, steps=steps)
    await _write(tmp_path, events)
    rows = [r for r in TraceReader(tmp_path).records() if isinstance(r, ModelCallRecord)]
    # call 0 stores system + user; every later call only the tool result its predecessor led to
    assert [len(r.delta) for r in rows] == [2] + [1] * (steps - 1)
    assert rows[0].tools is not None and all(r.tools is None for r in rows[1:])
    full = [len(c.tokens.prompt_ids or []) for c in _calls(events) if c.tokens]
    stored = [len(r.tokens.prompt_ids or []) for r in rows if r.tokens]
    assert stored[0] == full[0] and sum(stored) < sum(full) / 2
    assert [r.tokens.prompt_shared for r in rows[1:] if r.tokens] == [
        f - s for f, s in zip(full[1:], stored[1:], strict=True)
    ]


@pytest.mark.anyio
async def test_large_payloads_go_to_content_addressed_blobs_once(tmp_path: Path) -> None:
    events = _episodes(2, steps=3, big_output_at=1)  # the same 200 kB output in both episodes
    writer = await _write(tmp_path, events)
    blobs = list((tmp_path / "blobs").rglob("*.zst"))
    assert len(blobs) == 1 and writer.stats.blobs == 1
    reader = TraceReader(tmp_path)
    tools = [r for r in reader.records() if isinstance(r, ToolExecutionRecord)]
    big = [t for t in tools if not isinstance(t.output, str)]
    assert len(big) == 2 and reader.blobs.text(big[0].output) == "x" * 200_000
    raw = b"".join(payload for _, payload in FrameReader(writer.shard_path))
    assert b"x" * 1000 not in raw  # shards hold the reference, not the payload


@pytest.mark.anyio
async def test_the_interval_flush_writes_without_being_asked(tmp_path: Path) -> None:
    events = _episodes(1)[:5]  # no episode end: only the timer can flush these
    with anyio.fail_after(20):
        async with TraceWriter(tmp_path, FAST) as writer:
            for event in events:
                writer.emit(event)
            await _eventually(lambda: len(list(TraceReader(tmp_path).records())) == 1 + len(events))
            assert writer.stats.frames >= 2  # the shard header, then the timer's frame


@pytest.mark.anyio
async def test_an_episode_end_flushes_fsyncs_and_enters_the_manifest(tmp_path: Path) -> None:
    config = TraceConfig(flush_interval_s=3600.0)  # the timer never fires during this test
    events = _episodes(2)
    with anyio.fail_after(20):
        async with TraceWriter(tmp_path, config) as writer:
            for event in events:
                writer.emit(event)
            reader = TraceReader(tmp_path)
            await _eventually(lambda: len(reader.finished_episodes()) == 2)
            entries = reader.finished_episodes()
            assert [e.episode_id for e in entries] == ["synthetic-ep0", "synthetic-ep1"]
            assert all(e.shard == writer.shard_path.name for e in entries)
            assert [e.library for e in entries] == ["lib0", "lib1"]  # train/test splits need it
            episode = reader.episode(entries[1])  # read from its byte range while the writer is open
    mine = [e for e in events if getattr(record_of(e), "episode_id", "") == "synthetic-ep1"]
    assert episode.episode == record_of(mine[-1]) and episode.start == record_of(mine[0])
    assert [reader.resolve(c) for c in episode.model_calls] == _calls(mine)
    assert len(episode.tool_executions) == 4 and len(episode.rounds) == 1 and len(episode.agents) == 1
    assert len(episode.hidden_grades) == len(episode.visible_grades) == len(episode.oracle_answers) == 1
    assert len(episode.failed_calls) == 1


@pytest.mark.anyio
async def test_a_full_buffer_is_written_at_once(tmp_path: Path) -> None:
    config = TraceConfig(flush_interval_s=3600.0, frame_bytes=4096, fsync=False)
    with anyio.fail_after(20):
        async with TraceWriter(tmp_path, config) as writer:
            frames = writer.stats.frames
            for event in _episodes(1)[:-1]:
                writer.emit(event)  # never awaits
            assert writer.stats.frames > frames + 3


@pytest.mark.anyio
async def test_conversations_are_kept_apart_by_episode_and_may_drop_history(tmp_path: Path) -> None:
    a, b = _episodes(1, seed=1), _episodes(1, seed=2)
    b = [_rename(e) for e in b]  # same conversation ids, another episode id
    interleaved = [e for pair in zip(a, b, strict=True) for e in pair]
    calls = _calls(a)
    # a later call that summarises history: drops messages 2..3, keeps the rest
    pruned = msgspec.structs.replace(
        calls[-1], call_id="pruned", messages=[*calls[-1].messages[:2], *calls[-1].messages[4:]]
    )
    await _write(tmp_path, [*interleaved[:-2], ModelCalled(call=pruned), *interleaved[-2:]])
    reader = TraceReader(tmp_path)
    got = [reader.resolve(c) for c in reader.model_calls(reader.records())]
    assert [c for c in got if c.episode_id == "synthetic-ep0"] == [*calls, pruned]
    assert [c for c in got if c.episode_id == "other-ep0"] == _calls(b)


def _rename(event: Event) -> Event:
    data = msgspec.to_builtins(event)
    text = msgspec.json.encode(data).replace(b'"synthetic-ep0"', b'"other-ep0"')
    return msgspec.json.decode(text, type=type(event))


@pytest.mark.anyio
async def test_writers_never_share_a_file_and_a_closed_writer_refuses_events(tmp_path: Path) -> None:
    first = await _write(tmp_path, _episodes(1))
    second = await _write(tmp_path, _episodes(1, seed=3))
    assert first.shard_path != second.shard_path
    assert len(TraceReader(tmp_path).finished_episodes()) == 2
    with pytest.raises(RuntimeError, match="closed"):
        first.emit(_episodes(1)[0])
    with pytest.raises(RepoZeroError, match="cannot create trace file"):
        await TraceWriter(tmp_path, FAST, writer_id=first.writer_id).open()


@pytest.mark.anyio
async def test_unfinished_episodes_are_listed(tmp_path: Path) -> None:
    events = _episodes(2)
    await _write(
        tmp_path,
        [e for e in events if not (isinstance(e, EpisodeFinished) and "ep1" in e.episode.episode_id)],
    )
    reader = TraceReader(tmp_path)
    assert [e.episode_id for e in reader.unfinished_episodes()] == ["synthetic-ep1"]
    assert reader.episode("synthetic-ep1").entry is None and reader.episode("synthetic-ep1").episode is None


@pytest.mark.anyio
async def test_an_error_or_a_cancel_in_the_body_still_closes_cleanly(tmp_path: Path) -> None:
    events = _episodes(1)
    with anyio.fail_after(20):
        with pytest.raises(ValueError, match="boom"):  # the body's own exception, not a group
            async with TraceWriter(tmp_path / "error", FAST) as writer:
                for event in events:
                    writer.emit(event)
                raise ValueError("boom")
        with anyio.move_on_after(0.2) as scope:
            async with TraceWriter(tmp_path / "cancel", FAST) as writer:
                for event in events:
                    writer.emit(event)
                await anyio.sleep_forever()
    assert scope.cancelled_caught
    for name in ("error", "cancel"):  # the final flush ran (shielded), the episode is in the manifest
        reader = TraceReader(tmp_path / name)
        assert len(list(reader.records())) == 1 + len(events)
        assert [e.episode_id for e in reader.finished_episodes()] == ["synthetic-ep0"]


@pytest.mark.anyio
async def test_an_episode_whose_flush_is_cancelled_by_the_close_still_enters_the_manifest(
    tmp_path: Path,
) -> None:
    """The writer closes while its flush loop waits for the fsync thread with episodes taken from the
    queue: the close's own flush writes them (they were dropped: on disk, but in no manifest)."""
    events = _episodes(3)
    parked = anyio.Event()
    with anyio.fail_after(20):
        async with TraceWriter(tmp_path, TraceConfig(flush_interval_s=3600.0)) as writer:
            real = writer._in_thread

            async def park_the_first_fsync(fn: Callable[..., None], *args: object) -> None:
                if not parked.is_set():
                    parked.set()
                    await anyio.sleep_forever()  # cancelled there by the close, as at a thread checkpoint
                await real(fn, *args)

            writer._in_thread = park_the_first_fsync  # type: ignore[method-assign]
            for event in events:
                writer.emit(event)
            await parked.wait()  # the loop took the finished episodes and waits on "the disk"
    reader = TraceReader(tmp_path)
    assert [e.episode_id for e in reader.finished_episodes()] == [f"synthetic-ep{i}" for i in range(3)]
    assert writer.stats.episodes == 3 and reader.lost_episodes() == []


@pytest.mark.anyio
async def test_writer_started_in_the_callers_task_group(tmp_path: Path) -> None:
    events = _episodes(1)
    with anyio.fail_after(20):
        async with anyio.create_task_group() as tg:
            writer = TraceWriter(tmp_path, FAST)
            await tg.start(writer.run)
            for event in events:
                writer.emit(event)
            await writer.aclose()  # run() returns by itself
    assert len(list(TraceReader(tmp_path).records())) == 1 + len(events)
    assert isinstance(writer, TraceSink)  # what the event bus subscribes


FULL_DISK = """
import resource, signal, sys, anyio, random
from repozero.traces import TraceConfig, TraceWriter
sys.path.insert(0, sys.argv[2])  # tests/, for its synthetic_traces
from synthetic_traces import episode_events
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead

async def main():
    async with TraceWriter(sys.argv[1], TraceConfig(fsync=False, frame_bytes=16384)) as writer:
        resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))
        for ep in range(100):
            for event in episode_events(ep, rng=random.Random(ep), steps=4):
                writer.emit(event)

anyio.run(main)
"""


def test_a_full_disk_stops_the_writer_with_a_clear_error_and_a_readable_shard(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(tmp_path), str(Path(__file__).parent)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "cannot write traces: File too large" in proc.stderr
    assert "RepoZeroError" in proc.stderr and "ExceptionGroup" not in proc.stderr  # raised as itself
    reader = TraceReader(tmp_path)
    records = list(reader.records())  # intact up to the last whole frame; nothing appended after
    assert len(records) > 10 and reader.torn == {}  # the partial frame was cut back off
    assert (tmp_path / "shards" / reader.shards()[0].name).stat().st_size <= 200_000
