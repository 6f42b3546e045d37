"""Reading a trace directory back: every intact record, the finished episodes, whole model calls.

A torn tail (a writer killed mid-flush) is skipped and noted in `TraceReader.torn`; everything before
it is returned. Exporters and the viewer build on this module only.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

import msgspec

from repozero.kernel.log import get_logger

from .blobs import BlobStore
from .frames import FRAME_MAGIC, FrameReader, TraceFormatError, frame_error
from .messages import ModelCall, TraceMessage, TraceToolCall
from .prefix import PrefixDecoder
from .records import (
    AgentRunRecord,
    EpisodeRecord,
    EpisodeStartRecord,
    HiddenGradeRecord,
    ManifestEntry,
    ModelCallFailedRecord,
    ModelCallRecord,
    OracleAnswerRecord,
    RoundRecord,
    ToolExecutionRecord,
    TraceRecord,
    VisibleGradeRecord,
)
from .upgrade import manifest_decoder, record_decoder

__all__ = ["EpisodeTrace", "TraceReader"]

log = get_logger("repozero.traces")


class EpisodeTrace(msgspec.Struct, frozen=True, kw_only=True):
    """Everything recorded about one episode, model calls whole (large payloads still as `BlobRef`)."""

    entry: ManifestEntry | None
    start: EpisodeStartRecord | None = None
    episode: EpisodeRecord | None = None
    rounds: list[RoundRecord] = []
    model_calls: list[ModelCall] = []
    failed_calls: list[ModelCallFailedRecord] = []
    tool_executions: list[ToolExecutionRecord] = []
    agents: list[AgentRunRecord] = []
    oracle_answers: list[OracleAnswerRecord] = []
    visible_grades: list[VisibleGradeRecord] = []
    hidden_grades: list[HiddenGradeRecord] = []


class TraceReader:
    """A trace directory written by one or more `TraceWriter`s (see store.py for the layout)."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        self.blobs = BlobStore(self.root / "blobs")
        self.torn: dict[str, str] = {}
        """Shard name → why its tail was skipped, for shards read so far."""
        self._decoder = record_decoder()
        self._manifest_decoder = manifest_decoder()

    def shards(self) -> list[Path]:
        return sorted((self.root / "shards").glob("*.jsonl.zst"))

    def records(self, shard: str | Path | None = None, *, start: int = 0, end: int | None = None) -> Iterator[TraceRecord]:  # fmt: skip
        """Every record of one shard (a name or path) or of all shards, in write order per shard."""
        paths = [self._shard_path(shard)] if shard is not None else self.shards()
        for path in paths:
            frames = FrameReader(path, start=start, end=end)
            for offset, payload in frames:
                try:
                    yield from self._decoder.decode_lines(payload)
                except msgspec.DecodeError as exc:
                    raise frame_error(path, offset, payload, exc, self._decoder) from None
            if frames.torn_at is not None and end is not None and frames.torn_at < end:
                raise TraceFormatError(
                    f"{path}: {frames.reason} at byte {frames.torn_at}, inside the records the trace "
                    f"manifest puts in bytes {start}-{end}: cut short, or changed after it was written"
                )
            if frames.torn_at is not None:
                self.torn[path.name] = f"{frames.reason} at byte {frames.torn_at}"
                log.warning("trace_torn_tail", shard=str(path), at=frames.torn_at, reason=frames.reason)

    def _shard_path(self, shard: str | Path) -> Path:
        path = Path(shard)
        return path if path.is_absolute() or path.exists() else self.root / "shards" / path.name

    def finished_episodes(self) -> list[ManifestEntry]:
        """Manifest entries of every writer, in finishing order per writer (a torn last line is skipped)."""
        entries = []
        for path in sorted((self.root / "manifest").glob("*.jsonl")):
            for line in path.read_bytes().splitlines():
                try:
                    entries.append(self._manifest_decoder.decode(line))
                except msgspec.DecodeError:
                    log.warning("trace_manifest_torn_line", manifest=str(path))
        return entries

    def lost_episodes(self) -> list[ManifestEntry]:
        """Finished episodes whose records are no longer all on disk: their shard is missing or ends before
        the entry's `end_offset` (truncated, e.g. by a power cut or a partial copy). A stat per shard, no
        decompression: resume and reports can afford to ask."""
        sizes = {path.name: path.stat().st_size for path in self.shards()}
        latest: dict[str, ManifestEntry] = {}
        for e in self.finished_episodes():  # a resumed run may have finished one twice: the last counts
            if e.episode_id not in latest or e.finished_at >= latest[e.episode_id].finished_at:
                latest[e.episode_id] = e
        return [e for e in latest.values() if e.end_offset > sizes.get(e.shard, -1)]

    def check_offsets(self) -> None:
        """Raise `TraceFormatError` if a shard no longer has frames where the manifest says its episodes'
        records start and end: it was re-compressed or edited by hand after it was written (`zstd -dc`,
        edit, `zstd`), and reading an episode by its byte range would find nothing. A 4-byte read per
        offset, no decompression (run and report can afford it); a shard merely cut short passes (every
        frame before the cut is still in place: `lost_episodes` names what it took). When the shard holds
        a line that does not decode, the error names that line instead."""
        offsets: dict[str, dict[int, str]] = {}
        for e in self.finished_episodes():
            offsets.setdefault(e.shard, {}).update({e.first_offset: e.episode_id, e.end_offset: e.episode_id})
        for shard, wanted in sorted(offsets.items()):
            path = self.root / "shards" / shard
            bad = _not_a_frame_start(path, wanted)
            if bad is not None:
                for _ in self.records(path):  # names the first line that does not decode, if any
                    pass
                raise TraceFormatError(
                    f"{path}: changed after it was written (re-compressed or edited by hand?): the trace "
                    f"manifest puts records of episode {wanted[bad]} at byte {bad}, where no frame starts: "
                    f"restore the shard from a copy, or move it out of the run (the results of its "
                    f"episodes stand; their traces are then lost)"
                )

    def unfinished_episodes(self) -> list[EpisodeStartRecord]:
        """Episodes that started but never reached the manifest (crashed or cancelled runs)."""
        done = {e.episode_id for e in self.finished_episodes()}
        return [r for r in self.records() if isinstance(r, EpisodeStartRecord) and r.episode_id not in done]

    def model_calls(self, records: Iterable[TraceRecord]) -> Iterator[ModelCall]:
        """Whole model calls (full message lists, full token ids) from records in write order."""
        decoder = PrefixDecoder()
        for record in records:
            match record:
                case ModelCallRecord():
                    yield decoder.decode(record)
                case AgentRunRecord():
                    decoder.drop_conversation(record.episode_id, record.conversation_id)
                case EpisodeRecord():
                    decoder.drop_episode(record.episode_id)

    def episode(self, which: str | ManifestEntry) -> EpisodeTrace:
        """One episode's records, read from its byte range (a finished one) or from every shard."""
        entry = which if isinstance(which, ManifestEntry) else self._entry(which)
        episode_id = entry.episode_id if entry else str(which)
        source = (
            self.records(entry.shard, start=entry.first_offset, end=entry.end_offset)
            if entry
            else self.records()
        )
        mine = _last_try([r for r in source if getattr(r, "episode_id", None) == episode_id])
        by_kind: dict[type, list[TraceRecord]] = {}
        for r in mine:
            by_kind.setdefault(type(r), []).append(r)
        starts, ends = by_kind.get(EpisodeStartRecord, []), by_kind.get(EpisodeRecord, [])
        return EpisodeTrace(
            entry=entry,
            start=starts[-1] if starts else None,  # type: ignore[arg-type]
            episode=ends[-1] if ends else None,  # type: ignore[arg-type]
            rounds=by_kind.get(RoundRecord, []),  # type: ignore[arg-type]
            model_calls=list(self.model_calls(mine)),
            failed_calls=by_kind.get(ModelCallFailedRecord, []),  # type: ignore[arg-type]
            tool_executions=by_kind.get(ToolExecutionRecord, []),  # type: ignore[arg-type]
            agents=by_kind.get(AgentRunRecord, []),  # type: ignore[arg-type]
            oracle_answers=by_kind.get(OracleAnswerRecord, []),  # type: ignore[arg-type]
            visible_grades=by_kind.get(VisibleGradeRecord, []),  # type: ignore[arg-type]
            hidden_grades=by_kind.get(HiddenGradeRecord, []),  # type: ignore[arg-type]
        )

    def _entry(self, episode_id: str) -> ManifestEntry | None:
        found = [e for e in self.finished_episodes() if e.episode_id == episode_id]
        return found[-1] if found else None

    def resolve(self, call: ModelCall) -> ModelCall:
        """The call with every blob reference in its messages replaced by the text itself."""
        return msgspec.structs.replace(
            call, messages=[self._resolve_message(m) for m in call.messages], response=self._resolve_message(call.response)
        )  # fmt: skip

    def _resolve_message(self, m: TraceMessage) -> TraceMessage:
        text = self.blobs.text
        return msgspec.structs.replace(
            m,
            content=text(m.content),
            reasoning=None if m.reasoning is None else text(m.reasoning),
            tool_calls=[
                TraceToolCall(id=c.id, name=c.name, arguments=text(c.arguments)) for c in m.tool_calls
            ],
        )


def _not_a_frame_start(path: Path, offsets: dict[int, str]) -> int | None:
    """The first of `offsets` inside the file where no zstd frame starts (None: all in place, or no file)."""
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        return None  # lost_episodes names it
    with f:
        size = os.fstat(f.fileno()).st_size
        for offset in sorted(o for o in offsets if o < size):
            head = os.pread(f.fileno(), len(FRAME_MAGIC), offset)
            # a file cut inside a frame's first four bytes ends with a prefix of them: cut short, not changed
            if head != FRAME_MAGIC and not (len(head) < len(FRAME_MAGIC) and FRAME_MAGIC.startswith(head)):
                return offset
    return None


def _last_try(records: list[TraceRecord]) -> list[TraceRecord]:
    """The records from the episode's last start on: an infra retry starts the episode again."""
    starts = [i for i, r in enumerate(records) if isinstance(r, EpisodeStartRecord)]
    return records[starts[-1] :] if starts else records
