"""A shard is a run of independent zstd frames, each a batch of JSON lines, so a crash tears only the tail.

Every flush appends whole frames (with a checksum) to the file; a reader decodes frame after frame and
stops at the first one that is incomplete or fails its checksum: everything before it is intact. The file
is also plain `.jsonl.zst`: `zstd -dc shard.jsonl.zst` prints the lines (up to a torn tail).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, Protocol

import msgspec
import zstandard

from repozero.kernel.errors import RepoZeroError
from repozero.kernel.textio import utf8_problem

__all__ = ["FRAME_MAGIC", "FrameReader", "TraceFormatError", "compressor", "frame_error", "write_all"]

_CHUNK = 1 << 20
FRAME_MAGIC = b"\x28\xb5\x2f\xfd"
"""The four bytes every zstd frame starts with."""


class TraceFormatError(RepoZeroError):
    """A trace file is not what its writer would have written (not a torn tail: that is expected).

    The CLI exits 2 for it, as for any bad file a person hands us; it stays outside `UsageError` so the
    viewer still answers a broken file with a 500, not a 400 about the request.
    """

    exit_code = 2


class LineDecoder(Protocol):
    def decode(self, line: bytes, /) -> Any: ...


def frame_error(
    path: Path, offset: int, payload: bytes, exc: msgspec.DecodeError, decoder: LineDecoder
) -> TraceFormatError:
    """Why a frame's lines did not decode, naming the line (as `zstd -dc` prints the shard) and the field.

    A shard no writer of ours would produce was edited by hand or by another program: the error says how to
    go on. Looked for line by line only once the frame as a whole has failed (the fast path decodes frames).
    """
    where = f"{path} (frame at byte {offset})"
    problem = utf8_problem(payload)  # msgspec names no offset for bad UTF-8; looked for only on failure
    if problem is not None:  # first: a line before the bad byte may fail validation instead
        return TraceFormatError(f"{where}, decompressed {problem}; expected UTF-8 JSON lines")
    before = _lines_before(path, offset)
    for n, line in enumerate(payload.split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            decoder.decode(line)
        except msgspec.DecodeError as bad:
            why = str(bad) if isinstance(bad, msgspec.ValidationError) else f"invalid JSON ({bad})"
            at = (
                f"line {before + n} (`zstd -dc {path.name}`)"
                if before is not None
                else f"line {n} of the frame"
            )
            return TraceFormatError(
                f"{where}: {at}: {why}. This is not a line a trace writer "
                f"writes (edited by hand?): restore the shard from a copy, or move it out of the run "
                f"(the results of its episodes stand; their traces are then lost)"
            )
    return TraceFormatError(f"{where}: {exc}")


def _lines_before(path: Path, offset: int) -> int | None:
    """How many lines the shard's frames before `offset` hold (None if no frame starts at `offset`)."""
    lines = 0
    for at, payload in FrameReader(path):
        if at >= offset:
            return lines if at == offset else None
        lines += payload.count(b"\n")
    return None


def compressor(level: int) -> zstandard.ZstdCompressor:
    """A compressor whose every `compress()` call makes one self-contained, checksummed frame."""
    return zstandard.ZstdCompressor(level=level, write_checksum=True, write_content_size=True)


def write_all(fd: int, data: bytes) -> None:
    """Write all of `data` at the end of an O_APPEND file (a short write only happens on a full disk)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class FrameReader:
    """Reads the frames of one shard from `start` (a frame boundary) up to `end` or a torn tail.

    After iterating, `torn_at` holds the offset of the first unreadable frame (None if the file ended
    cleanly) and `reason` says why it was unreadable.
    """

    def __init__(self, path: Path, *, start: int = 0, end: int | None = None) -> None:
        self.path = path
        self.start = start
        self.end = end
        self.torn_at: int | None = None
        self.reason = ""
        self._dctx = zstandard.ZstdDecompressor()

    def __iter__(self) -> Iterator[tuple[int, bytes]]:
        """Yield (offset, payload) per complete frame, in file order."""
        with open(self.path, "rb") as f:
            f.seek(self.start)
            offset, pending = self.start, b""
            while self.end is None or offset < self.end:
                payload, used, pending = self._next_frame(f, pending)
                if payload is None:
                    if used:
                        self.torn_at = offset
                    return
                yield offset, payload
                offset += used

    def _next_frame(self, f: BinaryIO, pending: bytes) -> tuple[bytes | None, int, bytes]:
        """Decode one frame: (payload or None, bytes it used, bytes read past its end)."""
        read = f.read
        dobj = self._dctx.decompressobj()
        parts: list[bytes] = []
        used = 0
        data = pending or read(_CHUNK)
        while data:
            try:
                parts.append(dobj.decompress(data))
            except zstandard.ZstdError as exc:
                self.reason = f"corrupt frame: {exc}"
                return None, used + len(data), b""
            if dobj.eof:
                rest = dobj.unused_data
                return b"".join(parts), used + len(data) - len(rest), rest
            used += len(data)
            data = read(_CHUNK)
        if used:
            self.reason = "incomplete frame at end of file"
        return None, used, b""
