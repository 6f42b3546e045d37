"""A real small filesystem for disk-full tests, and a writer that fills it: shared by the chaos disk-full
tests and the Ray traces-disk test. Loaded by `tests/conftest.py` (pytest's importlib mode keeps `tests/`
off `sys.path`); a test module reaches it as `sys.modules["repozero_tests_disk_helpers"]`."""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

__all__ = ["fill_disk", "mounted_tmpfs"]


@contextmanager
def mounted_tmpfs(path: Path, size_mb: int) -> Iterator[Path]:
    """`path` (made if missing) as a tmpfs of `size_mb` MiB (needs root, as in CI's container; the test is
    skipped elsewhere), unmounted at the end."""
    path.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_mb}m", "tmpfs", str(path)], capture_output=True
    )
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.decode().strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def fill_disk(path: Path) -> int:
    """Write zeros to `path` until its disk refuses (another program filling the shared disk); the bytes
    written. Any refusal but ENOSPC is an error."""
    written = 0
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        chunk = b"\0" * (64 << 10)
        while chunk:
            try:
                written += os.write(fd, chunk)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC, exc
                chunk = chunk[: len(chunk) // 2]
        return written
    finally:
        os.close(fd)
