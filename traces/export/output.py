"""The files of one export: written under temporary names, renamed into place only when all succeeded.

A crashed or refused export leaves no file that looks finished; `export.json` (the summary) comes last.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, BinaryIO

import msgspec

from repozero.kernel.errors import UsageError

from .columns import ColumnBuffer, pyarrow

__all__ = ["ExportOutput", "JsonlFile", "ParquetFile"]

SUMMARY_NAME = "export.json"
ROW_GROUP_ROWS = 65_536


class ParquetFile:
    """One Parquet table, streamed in row groups of at most `ROW_GROUP_ROWS` rows (zstd)."""

    def __init__(self, path: Path, spec: list[tuple[str, str]]) -> None:
        import pyarrow.parquet as pq

        self.path, self.rows = path, 0
        self.buffer = ColumnBuffer(spec)
        self._writer = pq.ParquetWriter(_tmp(path), self.buffer.schema(), compression="zstd")

    @property
    def cols(self) -> dict[str, Any]:
        return self.buffer.cols

    def rows_done(self) -> None:
        """Call after appending rows to every column: writes a row group once the buffer is full."""
        if self.buffer.full(ROW_GROUP_ROWS):
            self.flush()

    def flush(self) -> None:
        if len(self.buffer):
            batch = self.buffer.to_arrow()
            self._writer.write_batch(batch)
            self.rows += batch.num_rows
            self.buffer.clear()

    def close(self) -> None:
        self.flush()
        self._writer.close()


class JsonlFile:
    """One JSON-lines file (rows encoded by msgspec)."""

    def __init__(self, path: Path) -> None:
        self.path, self.rows = path, 0
        self._file: BinaryIO = open(_tmp(path), "wb")
        self._encode = msgspec.json.Encoder().encode

    def write(self, row: Any) -> None:
        self._file.write(self._encode(row) + b"\n")
        self.rows += 1

    def close(self) -> None:
        self._file.close()


class ExportOutput:
    """The output folder: refuses to overwrite an earlier export unless asked; commits atomically."""

    def __init__(self, out: Path, *, overwrite: bool) -> None:
        if out.exists() and not out.is_dir():
            raise UsageError(f"--out {out}: exists and is not a directory")
        if (out / SUMMARY_NAME).exists() and not overwrite:
            raise UsageError(f"--out {out}: already holds an export ({SUMMARY_NAME}); pass --overwrite")
        out.mkdir(parents=True, exist_ok=True)
        self.out = out
        self.files: dict[str, ParquetFile | JsonlFile] = {}

    def parquet(self, name: str, spec: list[tuple[str, str]]) -> ParquetFile:
        pyarrow()  # a clear error before anything is created
        return self._add(name, ParquetFile(self.out / name, spec))

    def jsonl(self, name: str) -> JsonlFile:
        return self._add(name, JsonlFile(self.out / name))

    def _add(self, name: str, file: Any) -> Any:
        self.files[name] = file
        return file

    def close(self) -> dict[str, int]:
        """Close every file (still under its temporary name); returns rows per file."""
        for file in self.files.values():
            file.close()
        return {name: file.rows for name, file in self.files.items()}

    def commit(self, summary: Any) -> None:
        """Rename every closed file into place, then write the summary."""
        (self.out / SUMMARY_NAME).unlink(missing_ok=True)
        for file in self.files.values():
            os.replace(_tmp(file.path), file.path)
        data = msgspec.json.format(msgspec.json.encode(summary), indent=2)
        tmp = _tmp(self.out / SUMMARY_NAME)
        tmp.write_bytes(data + b"\n")
        os.replace(tmp, self.out / SUMMARY_NAME)

    def abort(self) -> None:
        """Remove every temporary file (after an error)."""
        for file in self.files.values():
            try:
                file.close()
            except Exception:  # already broken: removing it is all that is left to do
                pass
            _tmp(file.path).unlink(missing_ok=True)


def _tmp(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")
