"""Shards survive any cut: a reader returns every complete frame before a torn or corrupt one, and stops."""

from __future__ import annotations

import random
from pathlib import Path

import anyio
import pytest
import zstandard

from repozero.traces import TraceConfig, TraceFormatError, TraceReader, TraceWriter
from repozero.traces.frames import FrameReader

from .synthetic_traces import episode_events


@pytest.fixture
def shard(tmp_path: Path) -> Path:
    """A real shard of many small frames."""

    async def write() -> Path:
        config = TraceConfig(flush_interval_s=3600.0, frame_bytes=8192, fsync=False)
        rng = random.Random(5)
        with anyio.fail_after(20):
            async with TraceWriter(tmp_path / "src", config) as writer:
                for ep in range(2):
                    for event in episode_events(ep, rng=rng, steps=4):
                        writer.emit(event)
        return writer.shard_path

    return anyio.run(write, backend="asyncio")


def _frames(path: Path) -> list[tuple[int, bytes]]:
    return list(FrameReader(path))


def test_a_cut_anywhere_keeps_exactly_the_frames_before_it(shard: Path, tmp_path: Path) -> None:
    data = shard.read_bytes()
    frames = _frames(shard)
    assert len(frames) > 5
    starts = [offset for offset, _ in frames] + [len(data)]
    rng = random.Random(0)
    cuts = (
        {0, len(data)}
        | {s + d for s in starts for d in (-1, 0, 1, 7)}
        | {rng.randrange(len(data)) for _ in range(60)}
    )
    cut_file = tmp_path / "cut.jsonl.zst"
    for cut in sorted(c for c in cuts if 0 <= c <= len(data)):
        cut_file.write_bytes(data[:cut])
        reader = FrameReader(cut_file)
        got = list(reader)
        whole = [f for f, end in zip(frames, starts[1:], strict=True) if end <= cut]
        assert got == whole, cut
        assert (reader.torn_at is None) == (cut in starts), cut
        if reader.torn_at is not None:
            assert reader.torn_at == starts[len(whole)] and "incomplete" in reader.reason


def test_a_corrupt_frame_ends_the_readable_part(shard: Path) -> None:
    frames = _frames(shard)
    data = bytearray(shard.read_bytes())
    victim = frames[3][0] + 40
    data[victim] ^= 0xFF
    shard.write_bytes(bytes(data))
    reader = FrameReader(shard)
    assert list(reader) == frames[:3]
    assert reader.torn_at == frames[3][0] and reader.reason.startswith("corrupt frame")


def test_the_reader_skips_a_torn_tail_and_says_so(shard: Path) -> None:
    root = shard.parent.parent
    complete = list(TraceReader(root).records())
    with open(shard, "ab") as f:
        f.write(zstandard.ZstdCompressor().compress(b'{"kind": "shard"}\n' * 100)[:-9])
    reader = TraceReader(root)
    assert list(reader.records()) == complete
    assert "incomplete frame" in reader.torn[shard.name]


def test_a_shard_is_plain_jsonl_zst(shard: Path) -> None:
    """Any zstd tool reads a shard (frames are concatenated, which zstd allows)."""
    with open(shard, "rb") as f:
        text = zstandard.ZstdDecompressor().stream_reader(f, read_across_frames=True).read()
    assert text == b"".join(p for _, p in _frames(shard))
    assert text.count(b"\n") == len(list(TraceReader(shard.parent.parent).records()))


def test_a_torn_manifest_line_is_skipped_and_a_bad_blob_is_refused(tmp_path: Path) -> None:
    async def write() -> TraceWriter:
        async with TraceWriter(tmp_path, TraceConfig(fsync=False)) as writer:
            for event in episode_events(0, rng=random.Random(1), steps=2, big_output_at=0):
                writer.emit(event)
        return writer

    writer = anyio.run(write, backend="asyncio")
    with open(writer.manifest_path, "ab") as f:
        f.write(b'{"schema_version": 1, "episode_id": "torn')
    reader = TraceReader(tmp_path)
    assert [e.episode_id for e in reader.finished_episodes()] == ["synthetic-ep0"]
    blob = next((tmp_path / "blobs").rglob("*.zst"))
    blob.write_bytes(zstandard.ZstdCompressor().compress(b"tampered"))
    second_call = next(c for c in reader.model_calls(reader.records()) if c.step == 1)  # its tool message
    with pytest.raises(TraceFormatError, match="does not match its sha256"):
        reader.resolve(second_call)
