"""The Oracle's result cache: a repeated question is free; a low-N answer is never served for a high-N one.

Key: (contract version, fork-server version, environment fingerprint, program digest, argv, stdin, N,
timeout, output cap) — every input that can change a verdict. Stored as append-only JSON lines, one file
per environment fingerprint, loaded on first use; a torn last line (a crash mid-write) is skipped, and the
next entry written starts on a line of its own (glued to the torn one, it would be lost too).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import msgspec

from repozero.kernel.records import Record, json_encoder
from repozero.oracle.contract import CONTRACT_VERSION
from repozero.oracle.pruning import touch_used
from repozero.oracle.records import ProgramRef, Verdict
from repozero.oracle.source_env import FORKSERVER
from repozero.sandbox import CaseInput

__all__ = ["ResultCache", "cache_key"]

_RUNNER_VERSION = hashlib.sha256(FORKSERVER.read_bytes()).hexdigest()[:16]


class _Entry(Record, kw_only=True):
    key: str
    verdict: Verdict


_entry_decoder = msgspec.json.Decoder(_Entry)


def cache_key(
    fingerprint_hash: str,
    program: ProgramRef,
    case: CaseInput,
    repeats: int,
    timeout_s: float,
    output_cap: int,
    memory_mb: int = 0,
) -> str:
    """A digest of everything that can change the verdict for this case."""
    parts = [
        CONTRACT_VERSION, _RUNNER_VERSION, fingerprint_hash, program.digest, program.path,
        case.argv, case.stdin, repeats, float(timeout_s), output_cap,
    ]  # fmt: skip
    if memory_mb:  # keys made without a limit stay what they were
        parts.append(memory_mb)
    return hashlib.sha256(json_encoder.encode(parts)).hexdigest()


class ResultCache:
    """Verdicts by key, in memory and (when `root` is set) on disk; verdicts carry no case id of their own."""

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self._loaded: dict[str, dict[str, Verdict]] = {}
        self._torn: set[Path] = set()
        """Files read whose last line has no end: the next entry starts with a newline."""

    def _table(self, fingerprint_hash: str) -> dict[str, Verdict]:
        table = self._loaded.get(fingerprint_hash)
        if table is None:
            table = self._loaded[fingerprint_hash] = self._load(fingerprint_hash)
        return table

    def _path(self, fingerprint_hash: str) -> Path | None:
        if self.root is None:
            return None
        return self.root / f"{fingerprint_hash.removeprefix('sha256:')[:32]}.jsonl"

    def _load(self, fingerprint_hash: str) -> dict[str, Verdict]:
        path = self._path(fingerprint_hash)
        table: dict[str, Verdict] = {}
        if path is None or not path.is_file():
            return table
        touch_used(path)  # for `repozero cache prune`
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):
            self._torn.add(path)
        for line in data.splitlines():
            try:
                entry = _entry_decoder.decode(line)
            except msgspec.DecodeError:
                continue
            table[entry.key] = entry.verdict
        return table

    def get(self, fingerprint_hash: str, key: str) -> Verdict | None:
        return self._table(fingerprint_hash).get(key)

    def put(self, fingerprint_hash: str, key: str, verdict: Verdict) -> None:
        self._table(fingerprint_hash)[key] = verdict
        path = self._path(fingerprint_hash)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        line = json_encoder.encode(_Entry(key=key, verdict=verdict)) + b"\n"
        if path in self._torn:  # an empty line in between, at worst: skipped when read
            self._torn.discard(path)
            line = b"\n" + line
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)  # one write per entry on an O_APPEND file: entries never interleave
        finally:
            os.close(fd)
