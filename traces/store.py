"""The trace writer: every event of a run, on disk within a flush interval, never corrupted by a crash.

Layout of a trace directory (one per run; any number of writers share it, one shard each)::

    shards/<writer_id>.jsonl.zst     JSON lines in independent zstd frames, appended (see frames.py)
    manifest/<writer_id>.jsonl       one line per finished episode, appended after its lines are fsynced
    blobs/<sha256[:2]>/<sha256>.zst  payloads above `traces.blob_threshold_bytes`

`emit` (on the event loop) encodes the record into a buffer; the buffer is compressed into a frame and
appended when it reaches `traces.frame_bytes`, every `traces.flush_interval_s`, and at every episode end.
Only fsync leaves the loop (`anyio.to_thread`): it can stall for tens or hundreds of milliseconds on a
busy disk, and every episode's I/O would stall with it. Compressing at most one frame (~1 MiB) at a time
keeps each pause of the loop to a few milliseconds.
"""

from __future__ import annotations

import errno
import os
import secrets
import socket
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import anyio
import msgspec
from anyio.abc import TaskGroup

from repozero.kernel.errors import DiskFullError, RepoZeroError
from repozero.kernel.log import get_logger

from .blobs import BlobStore, Externalizer
from .config import TraceConfig
from .events import (
    AgentFinished,
    EpisodeFinished,
    Event,
    ModelCalled,
    ToolExecuted,
    record_of,
)
from .frames import compressor, write_all
from .prefix import PrefixEncoder
from .records import EpisodeRecord, ManifestEntry, ShardOpened, TraceRecord

__all__ = ["TraceWriter", "WriterStats"]

log = get_logger("repozero.traces")

_APPEND = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND


class WriterStats(msgspec.Struct):
    """Counters of one writer (for benchmarks and the end-of-run log line)."""

    records: int = 0
    frames: int = 0
    raw_bytes: int = 0
    written_bytes: int = 0
    episodes: int = 0
    blobs: int = 0


class TraceWriter:
    """A `TraceSink` writing one shard. Use `async with TraceWriter(dir) as w:` or `await tg.start(w.run)`.

    `emit` never awaits. Episodes are durable (and in the manifest) shortly after `EpisodeFinished`;
    `await flush()` waits for that explicitly.
    """

    def __init__(
        self, root: str | os.PathLike[str], config: TraceConfig | None = None, *, writer_id: str = ""
    ) -> None:
        self.root = Path(root)
        self.config = config = config or TraceConfig()
        self.writer_id = writer_id or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.shard_path = self.root / "shards" / f"{self.writer_id}.jsonl.zst"
        self.manifest_path = self.root / "manifest" / f"{self.writer_id}.jsonl"
        self.stats = WriterStats()
        self.blobs = BlobStore(self.root / "blobs", level=config.zstd_level)
        self._externalizer = Externalizer(self.blobs, config.blob_threshold_bytes)
        self._prefix = PrefixEncoder(self._externalizer.message)
        self._cctx = compressor(config.zstd_level)
        self._encode_into = msgspec.json.Encoder().encode_into
        self._buf = bytearray()
        self._shard_fd = self._manifest_fd = -1
        self._written = 0
        self._first_offset: dict[str, int] = {}
        self._ending: list[ManifestEntry] = []
        self._unsynced_blobs: list[Path] = []
        self._wake = anyio.Event()
        self._sync_lock = anyio.Lock()
        self._closed = False
        self._failed: RepoZeroError | None = None
        self._retry_at_close = False
        self._manifest_written = 0
        self._tg: TaskGroup | None = None

    # -- lifecycle ---------------------------------------------------------------------------------

    async def open(self) -> None:
        """Create the shard and manifest (never reusing a file) and write the shard's first line."""
        try:
            for sub in ("shards", "manifest", "blobs"):
                (self.root / sub).mkdir(parents=True, exist_ok=True)
            self._shard_fd = os.open(self.shard_path, _APPEND, 0o644)
            self._manifest_fd = os.open(self.manifest_path, _APPEND, 0o644)
        except OSError as exc:
            self._close_files()
            raise RepoZeroError(f"{exc.filename}: cannot create trace file: {exc.strerror}") from None
        if self.config.fsync:
            await self._in_thread(_fsync_dirs, [self.root / "shards", self.root / "manifest"])
        self._append(
            ShardOpened(
                writer_id=self.writer_id, host=socket.gethostname(), pid=os.getpid(), opened_at=time.time(),
                zstd_level=self.config.zstd_level,
            )
        )  # fmt: skip
        self._flush_now()
        log.debug("trace_shard_opened", shard=str(self.shard_path))

    async def run(self, *, task_status: anyio.abc.TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Open, then flush on the interval and at episode ends until closed or cancelled; then close."""
        await self.open()
        task_status.started()
        try:
            await self._flush_loop()
        finally:
            with anyio.CancelScope(shield=True):
                await self.aclose()

    async def _flush_loop(self) -> None:
        while not self._closed:
            with anyio.move_on_after(self.config.flush_interval_s):
                await self._wake.wait()
            self._wake = anyio.Event()
            try:
                await self.flush()
            except RepoZeroError as exc:  # the disk broke: say so, and let the next emit raise it
                self._failed = exc
                log.error("trace_write_failed", shard=str(self.shard_path), error=str(exc))
                return

    async def aclose(self) -> None:
        """Flush everything, make it durable, close the files (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self._wake.set()
        if self._retry_at_close:  # the run stopped on a full disk and gave room back: write what is held
            self._failed, self._retry_at_close = None, False
        try:
            if self._failed is None:
                await self.flush()
                if self.config.fsync:  # also the manifest: a flush cancelled between its write and fsync
                    await self._in_thread(os.fsync, self._shard_fd)
                    await self._in_thread(os.fsync, self._manifest_fd)
        finally:
            self._close_files()
        log.debug("trace_shard_closed", shard=str(self.shard_path), records=self.stats.records)

    def _close_files(self) -> None:
        for fd in (self._shard_fd, self._manifest_fd):
            if fd >= 0:
                os.close(fd)
        self._shard_fd = self._manifest_fd = -1

    async def __aenter__(self) -> Self:
        await self.open()
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        self._tg.start_soon(self._flush_loop)
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        # The flush task never raises and the final close runs out here, so the body's exception (or
        # a disk error while closing) propagates as itself, not wrapped in an exception group.
        assert self._tg is not None
        self._tg.cancel_scope.cancel()
        await self._tg.__aexit__(None, None, None)
        with anyio.CancelScope(shield=True):
            await self.aclose()

    @property
    def failed(self) -> RepoZeroError | None:
        """The write failure that stopped this writer (every later emit and flush raises it), if any."""
        return self._failed

    # -- the sink ----------------------------------------------------------------------------------

    def emit(self, event: Event) -> None:
        """Buffer one event's record (a model call as its delta); never awaits."""
        if self._failed is not None:
            raise self._failed
        if self._closed:
            raise RuntimeError(f"trace writer {self.writer_id} is closed")
        match event:  # the frequent kinds first
            case ModelCalled():
                self._append(self._prefix.encode(event.call))
            case ToolExecuted():
                self._append(self._externalizer.record(event.execution))
            case AgentFinished():
                self._append(event.agent)
                self._prefix.drop_conversation(event.agent.episode_id, event.agent.conversation_id)
            case EpisodeFinished():
                self._append(event.episode)
                self._episode_finished(event.episode)
            case _:
                self._append(self._externalizer.record(record_of(event)))  # type: ignore[arg-type]

    def _append(self, record: TraceRecord) -> None:
        episode_id = getattr(record, "episode_id", None)
        if episode_id is not None and episode_id not in self._first_offset:
            self._first_offset[episode_id] = self._written  # its lines land at or after this frame
        self._encode_into(record, self._buf, -1)
        self._buf += b"\n"
        self.stats.records += 1
        if len(self._buf) >= self.config.frame_bytes:
            self._flush_now()

    def _episode_finished(self, ep: EpisodeRecord) -> None:
        self._prefix.drop_episode(ep.episode_id)
        self._ending.append(
            ManifestEntry(
                episode_id=ep.episode_id, run_id=ep.run_id, group_id=ep.group_id, sample=ep.sample, library=ep.library,
                attempt=ep.attempt, policy_model=ep.policy_model, status=ep.status,
                termination_reason=ep.termination_reason, infra_error=ep.infra_error, reward=ep.reward,
                rounds=ep.rounds, shard=self.shard_path.name,
                first_offset=self._first_offset.pop(ep.episode_id, self._written), end_offset=-1,
                finished_at=ep.finished_at,
            )
        )  # fmt: skip
        self._wake.set()

    # -- flushing ----------------------------------------------------------------------------------

    def _flush_now(self) -> None:
        """Write pending blobs, then the buffer as one frame (synchronous; at most `frame_bytes`)."""
        if not self._buf:
            return
        try:
            written = self.blobs.write_pending()
            frame = self._cctx.compress(self._buf)
            write_all(self._shard_fd, frame)
        except OSError as exc:  # cut a partial frame off; if that fails too, never append after it
            self._failed = self._write_error(exc, self.shard_path, self._shard_fd, self._written, "traces")
            raise self._failed from None
        self._unsynced_blobs += written
        self.stats.blobs += len(written)
        self.stats.frames += 1
        self.stats.raw_bytes += len(self._buf)
        self.stats.written_bytes += len(frame)
        self._written += len(frame)
        self._buf = bytearray()

    async def flush(self) -> None:
        """Write everything emitted so far; make finished episodes durable and append them to the manifest.
        After a write failed, raise it again: nothing is appended after a torn tail."""
        if self._failed is not None:
            raise self._failed
        self._flush_now()
        async with self._sync_lock:
            # Lines emitted while we waited for the lock may belong to the episodes we now take:
            # write them first (nothing awaits between taking the list and measuring `end`).
            self._flush_now()
            ending, self._ending = self._ending, []
            if not ending:
                return
            end, blobs = self._written, self._unsynced_blobs
            self._unsynced_blobs = []
            written = False
            try:
                if self.config.fsync:
                    await self._in_thread(_fsync_shard_and_blobs, self._shard_fd, blobs)
                lines = b"".join(
                    msgspec.json.encode(msgspec.structs.replace(e, end_offset=end)) + b"\n" for e in ending
                )
                try:
                    write_all(self._manifest_fd, lines)
                except OSError as exc:
                    self._failed = self._write_error(
                        exc, self.manifest_path, self._manifest_fd, self._manifest_written, "manifest"
                    )
                    raise self._failed from None
                written = True
            finally:
                # Cancelled before the lines were written (the writer closing while this flush waited for
                # the fsync thread), or a failed write: the entries go back, for the close's flush or a
                # retry to write them whole. Dropped here, those episodes would be on disk but in no
                # manifest: missing from every export.
                if not written:
                    self._ending = ending + self._ending
                    self._unsynced_blobs = blobs + self._unsynced_blobs
            self._manifest_written += len(lines)
            self.stats.episodes += len(ending)
            if self.config.fsync:
                await self._in_thread(os.fsync, self._manifest_fd)

    def _write_error(self, exc: OSError, path: Path, fd: int, good: int, what: str) -> RepoZeroError:
        """Cut the file back to its last whole frame or line; a full disk is retried once at close."""
        try:
            os.ftruncate(fd, good)
        except OSError:
            return RepoZeroError(f"{path}: cannot write {what}: {exc.strerror} (a torn tail is left)")
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            self._retry_at_close = True
            return DiskFullError(f"{path}: no space left on device")
        return RepoZeroError(f"{path}: cannot write {what}: {exc.strerror}")

    async def _in_thread(self, fn: Callable[..., None], *args: Any) -> None:
        """fsync off the loop (it can stall for long on a busy disk); a failure is the disk's."""
        try:
            await anyio.to_thread.run_sync(fn, *args)
        except OSError as exc:
            self._failed = RepoZeroError(f"{self.root}: cannot sync traces to disk: {exc.strerror}")
            raise self._failed from None


def _fsync_shard_and_blobs(shard_fd: int, blobs: list[Path]) -> None:
    """Runs in a worker thread: blobs (and their folders) first, then the shard that references them."""
    for path in blobs:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    _fsync_dirs(sorted({p.parent for p in blobs}))
    os.fsync(shard_fd)


def _fsync_dirs(dirs: list[Path]) -> None:
    for path in dirs:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
