"""Large payloads stored once, by content: `blobs/<sha256[:2]>/<sha256>.zst`, verified on every read.

A command's 1 MiB output, a file the agent wrote through a tool, a long feedback message: stored once,
referenced from trace lines by a `BlobRef`, so shards stay small and repeated payloads cost nothing.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import msgspec
import zstandard

from repozero.kernel.textio import utf8_problem

from .frames import TraceFormatError, compressor
from .grades import OracleAnswerRecord, OracleVerdict, VisibleCaseResult, VisibleGradeRecord
from .messages import BlobRef, Data, Text, TraceMessage, TraceToolCall
from .records import RoundRecord, ToolExecutionRecord, TraceRecord

__all__ = ["BlobStore", "Externalizer"]

_replace = msgspec.structs.replace


class BlobStore:
    """The blob folder of one trace directory. `put` queues; `write_pending` writes (before the frames
    that reference the blobs, so a reader never meets a reference to a blob not yet written)."""

    def __init__(self, root: Path, *, level: int = 3) -> None:
        self.root = root
        self._cctx = compressor(level)
        self._dctx = zstandard.ZstdDecompressor()
        self._known: set[str] = set()
        self._pending: dict[str, bytes] = {}

    def path(self, sha256: str) -> Path:
        return self.root / sha256[:2] / f"{sha256}.zst"

    def put(self, data: bytes) -> BlobRef:
        """A reference to `data`; the blob is written at the next `write_pending` unless it exists."""
        sha = hashlib.sha256(data).hexdigest()
        if sha not in self._known:
            self._known.add(sha)
            if not self.path(sha).exists():
                self._pending[sha] = data
        return BlobRef(sha256=sha, size=len(data))

    def write_pending(self) -> list[Path]:
        """Write queued blobs (temp file, then rename); returns their paths, to fsync at episode end."""
        written = []
        for sha, data in self._pending.items():
            path = self.path(sha)
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            tmp.write_bytes(self._cctx.compress(data))
            os.replace(tmp, path)
            written.append(path)
        self._pending.clear()
        return written

    def get(self, ref: BlobRef) -> bytes:
        """The blob's bytes, checked against its hash."""
        path = self.path(ref.sha256)
        try:
            data = self._dctx.decompress(path.read_bytes())
        except (OSError, zstandard.ZstdError) as exc:
            raise TraceFormatError(f"{path}: cannot read blob: {exc}") from None
        if hashlib.sha256(data).hexdigest() != ref.sha256:
            raise TraceFormatError(f"{path}: content does not match its sha256")
        return data

    def text(self, value: Text) -> str:
        if isinstance(value, str):
            return value
        data = self.get(value)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise TraceFormatError(f"{self.path(value.sha256)}, decompressed {utf8_problem(data)}") from None

    def data(self, value: Data) -> bytes:
        return value if isinstance(value, bytes) else self.get(value)


class Externalizer:
    """Replaces the large fields of records with blob references, field by field, per record kind."""

    def __init__(self, blobs: BlobStore, threshold: int) -> None:
        self.blobs = blobs
        self.threshold = threshold
        self._safe_chars = threshold // 4  # a str this long is at most `threshold` bytes in UTF-8

    def text(self, value: Text) -> Text:
        if isinstance(value, str) and len(value) > self._safe_chars:
            raw = value.encode("utf-8")
            if len(raw) > self.threshold:
                return self.blobs.put(raw)
        return value

    def data(self, value: Data) -> Data:
        if isinstance(value, bytes) and len(value) > self.threshold:
            return self.blobs.put(value)
        return value

    def message(self, m: TraceMessage) -> TraceMessage:
        if _chars(m) <= self._safe_chars:
            return m  # the usual case: even all its texts together are small
        content, reasoning = self.text(m.content), m.reasoning and self.text(m.reasoning)
        calls = [self._tool_call(c) for c in m.tool_calls]
        if content is m.content and reasoning is m.reasoning and all(map(_same, calls, m.tool_calls)):
            return m
        return _replace(m, content=content, reasoning=reasoning, tool_calls=calls)

    def _tool_call(self, call: TraceToolCall) -> TraceToolCall:
        arguments = self.text(call.arguments)
        return call if arguments is call.arguments else _replace(call, arguments=arguments)

    def record(self, r: TraceRecord) -> TraceRecord:
        """The record with its large fields in the blob folder (the same object when none is large)."""
        match r:
            case ToolExecutionRecord():
                if _len(r.command) + _len(r.output) <= self._safe_chars:
                    return r
                command, output = self.text(r.command), self.text(r.output)
                if command is not r.command or output is not r.output:
                    return _replace(r, command=command, output=output)
            case RoundRecord() if r.feedback is not None:
                feedback = self.text(r.feedback)
                if feedback is not r.feedback:
                    return _replace(r, feedback=feedback)
            case OracleAnswerRecord():
                verdicts = [self._verdict(v) for v in r.verdicts]
                if not all(map(_same, verdicts, r.verdicts)):
                    return _replace(r, verdicts=verdicts)
            case VisibleGradeRecord():
                cases = [self._visible(c) for c in r.cases]
                if not all(map(_same, cases, r.cases)):
                    return _replace(r, cases=cases)
        return r

    def _verdict(self, v: OracleVerdict) -> OracleVerdict:
        stdin = v.stdin if v.stdin is None else self.data(v.stdin)
        stdout = v.stdout if v.stdout is None else self.data(v.stdout)
        return v if stdin is v.stdin and stdout is v.stdout else _replace(v, stdin=stdin, stdout=stdout)

    def _visible(self, c: VisibleCaseResult) -> VisibleCaseResult:
        stdin = c.stdin if c.stdin is None else self.data(c.stdin)
        expected, stdout, stderr = self.data(c.expected_stdout), self.data(c.stdout), self.text(c.stderr)
        if stdin is c.stdin and expected is c.expected_stdout and stdout is c.stdout and stderr is c.stderr:
            return c
        return _replace(c, stdin=stdin, expected_stdout=expected, stdout=stdout, stderr=stderr)


def _same(a: object, b: object) -> bool:
    return a is b


def _len(value: Text | None) -> int:
    """Characters of an inline text (0 for None or a blob reference)."""
    return len(value) if value.__class__ is str else 0  # type: ignore[arg-type]


def _chars(m: TraceMessage) -> int:
    """Characters of a message's inline texts together (one pass; the hot path of every model call)."""
    content, reasoning = m.content, m.reasoning
    n = len(content) if content.__class__ is str else 0  # type: ignore[arg-type]
    if reasoning.__class__ is str:
        n += len(reasoning)  # type: ignore[arg-type]
    for call in m.tool_calls:
        if call.arguments.__class__ is str:
            n += len(call.arguments)  # type: ignore[arg-type]
    return n
