"""Finished episodes read back for export and viewing, so interrupted or retried tries never leak in.

An episode counts only once the trace manifest lists it (its lines are durable by then). Within its lines,
an infrastructure retry starts again with a fresh `episode_started` line: only the last try is kept, but
every try's model calls still pass through the prefix decoder, since the writer encoded against them.
One pass per shard decodes only the kinds of line the caller asked for.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import msgspec

from repozero.errors import UsageError

from ..frames import FrameReader, TraceFormatError
from ..grades import HiddenGradeRecord, OracleAnswerRecord, VisibleGradeRecord
from ..messages import ModelCall
from ..prefix import PrefixDecoder
from ..reader import TraceReader
from ..records import (
    AgentRunRecord,
    EpisodeRecord,
    EpisodeStartRecord,
    ManifestEntry,
    ModelCallFailedRecord,
    ModelCallRecord,
    RoundRecord,
    RunRecord,
    ToolExecutionRecord,
    TraceRecord,
    record_decoder,
)

__all__ = ["ALL_KINDS", "EXPORT_KINDS", "FinishedEpisode", "RunSource", "open_runs"]

ALL_KINDS = frozenset(
    {
        "run", "episode_started", "episode", "model_call", "model_call_failed", "agent_run",
        "tool_execution", "round", "oracle_answer", "visible_grade", "hidden_grade",
    }
)  # fmt: skip
"""Every kind of line that belongs to an episode (plus `run`)."""

EXPORT_KINDS = frozenset({"run", "episode_started", "episode", "model_call", "agent_run"})
"""What trainer exports need: command outputs and grades reach them through messages and rewards."""

_KIND_AT = len(b'{"kind":"')


class FinishedEpisode(msgspec.Struct, frozen=True, kw_only=True):
    """One finished episode's last try; `calls[i]` is whole, `deltas[i]` is the same call as stored."""

    entry: ManifestEntry
    record: EpisodeRecord
    start: EpisodeStartRecord | None = None
    calls: list[ModelCall] = []
    deltas: list[ModelCallRecord] = []
    failed_calls: list[ModelCallFailedRecord] = []
    tool_executions: list[ToolExecutionRecord] = []
    agents: list[AgentRunRecord] = []
    rounds: list[RoundRecord] = []
    oracle_answers: list[OracleAnswerRecord] = []
    visible_grades: list[VisibleGradeRecord] = []
    hidden_grades: list[HiddenGradeRecord] = []


class _Try:
    """The records of one episode's current try, gathered until its `episode` line."""

    def __init__(self, start: EpisodeStartRecord | None) -> None:
        self.start = start
        self.lists: dict[type, list[Any]] = {}

    def add(self, record: Any) -> None:
        self.lists.setdefault(type(record), []).append(record)

    def finish(self, entry: ManifestEntry, record: EpisodeRecord) -> FinishedEpisode:
        get = self.lists.get
        return FinishedEpisode(
            entry=entry, record=record, start=self.start, calls=get(ModelCall, []),
            deltas=get(ModelCallRecord, []), failed_calls=get(ModelCallFailedRecord, []),
            tool_executions=get(ToolExecutionRecord, []), agents=get(AgentRunRecord, []),
            rounds=get(RoundRecord, []), oracle_answers=get(OracleAnswerRecord, []),
            visible_grades=get(VisibleGradeRecord, []), hidden_grades=get(HiddenGradeRecord, []),
        )  # fmt: skip


class RunSource:
    """One run directory (or a bare trace directory): its finished episodes and its blob store."""

    def __init__(self, path: str | os.PathLike[str], run_id: str = "") -> None:
        path = Path(path)
        trace_dir = next((p for p in (path / "traces", path) if (p / "shards").is_dir()), None)
        if trace_dir is None:
            raise UsageError(f"{path}: not a run directory (no traces/shards/ in it) nor a trace directory")
        self.path, self.trace_dir = path, trace_dir
        self.reader = TraceReader(trace_dir)
        self.blobs = self.reader.blobs
        self.manifest = _run_manifest(path)
        self.entries = _latest_entries(self.reader.finished_episodes())
        """Episode id → its manifest entry (the latest, when a resumed run finished it twice)."""
        self.run_id = run_id or str(self.manifest.get("run_id") or self._entry_run_id() or path.name)

    def _entry_run_id(self) -> str:
        return next((e.run_id for e in self.entries.values() if e.run_id), "")

    def episodes(self, kinds: frozenset[str] = EXPORT_KINDS) -> Iterator[FinishedEpisode]:
        """Every finished episode, shard by shard in finishing order, holding the `kinds` asked for."""
        by_shard: dict[str, dict[str, ManifestEntry]] = {}
        for entry in self.entries.values():
            by_shard.setdefault(entry.shard, {})[entry.episode_id] = entry
        for shard in sorted(by_shard):
            wanted = by_shard[shard]
            yield from self._shard(shard, wanted, kinds, 0, max(e.end_offset for e in wanted.values()))

    def episode(self, episode_id: str, kinds: frozenset[str] = ALL_KINDS) -> FinishedEpisode | None:
        """One finished episode, decoded from its byte range only (None if it never finished)."""
        entry = self.entries.get(episode_id)
        if entry is None:
            return None
        found = self._shard(entry.shard, {episode_id: entry}, kinds, entry.first_offset, entry.end_offset)
        return next(iter(found), None)

    def run_record(self) -> RunRecord | None:
        """The run's `run` line (the first shard's first frames), if captured."""
        for path in self.reader.shards():
            for record in _records(path, frozenset({"run"}), 0, None):
                return record  # type: ignore[return-value]
        return None

    def _shard(
        self, shard: str, wanted: dict[str, ManifestEntry], kinds: frozenset[str], start: int, end: int | None
    ) -> Iterator[FinishedEpisode]:
        path = self.trace_dir / "shards" / shard
        if not path.exists():
            raise TraceFormatError(f"{self.trace_dir}: the manifest names shard {shard}, which is missing")
        prefixes, tries = PrefixDecoder(), dict[str, _Try]()
        calls, agents = "model_call" in kinds, "agent_run" in kinds
        needed = kinds | {"episode_started", "episode"} | ({"agent_run"} if calls else set())
        for record in _records(path, needed, start, end):
            eid: str | None = getattr(record, "episode_id", None)
            if eid is None:
                continue
            match record:
                case ModelCallRecord():
                    call = prefixes.decode(record)  # every try's calls: a later call may extend them
                    if eid in wanted:
                        current = tries.setdefault(eid, _Try(None))
                        current.add(call)
                        current.add(record)
                case EpisodeStartRecord():
                    if eid in wanted:
                        tries[eid] = _Try(record)  # a retry starts afresh
                case EpisodeRecord():
                    prefixes.drop_episode(eid)
                    last_try = tries.pop(eid, None)
                    if eid in wanted:
                        yield (last_try or _Try(None)).finish(wanted[eid], record)
                case AgentRunRecord():
                    prefixes.drop_conversation(eid, record.conversation_id)
                    if eid in wanted and agents:
                        tries.setdefault(eid, _Try(None)).add(record)
                case _:
                    if eid in wanted:
                        tries.setdefault(eid, _Try(None)).add(record)


def _records(path: Path, kinds: Iterable[str], start: int, end: int | None) -> Iterator[TraceRecord]:
    """The records of one shard's frames whose kind is in `kinds` (other lines are never decoded)."""
    decoder, keep = record_decoder(), {k.encode() for k in kinds}
    everything = keep >= {k.encode() for k in ALL_KINDS}
    for offset, payload in FrameReader(path, start=start, end=end):
        if not everything:
            lines = [line for line in payload.split(b"\n") if line and _kind(line) in keep]
            payload = b"\n".join(lines)
        try:
            yield from decoder.decode_lines(payload)
        except msgspec.ValidationError as exc:
            raise TraceFormatError(f"{path} (frame at byte {offset}): {exc}") from None


def _kind(line: bytes) -> bytes:
    return line[_KIND_AT : line.find(b'"', _KIND_AT)]


def _latest_entries(entries: list[ManifestEntry]) -> dict[str, ManifestEntry]:
    latest: dict[str, ManifestEntry] = {}
    for entry in entries:
        seen = latest.get(entry.episode_id)
        if seen is None or entry.finished_at >= seen.finished_at:
            latest[entry.episode_id] = entry
    return latest


def _run_manifest(path: Path) -> dict[str, Any]:
    """The run directory's manifest.json as plain data (traces never import the orchestrator)."""
    try:
        data = json.loads((path / "manifest.json").read_bytes())
    except FileNotFoundError:
        return {}
    except ValueError as exc:
        raise UsageError(f"{path / 'manifest.json'}: invalid JSON: {exc}") from None
    return data if isinstance(data, dict) else {}


def open_runs(paths: Iterable[str | os.PathLike[str]]) -> list[RunSource]:
    """Run sources with distinct run ids (a repeated id gets a `~N` suffix)."""
    runs: list[RunSource] = []
    seen: set[str] = set()
    for path in paths:
        run = RunSource(path)
        run_id, n = run.run_id, 1
        while run_id in seen:
            n += 1
            run_id = f"{run.run_id}~{n}"
        run.run_id = run_id
        seen.add(run_id)
        runs.append(run)
    return runs
