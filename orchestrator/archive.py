"""Archiving the target tree after every round (tar.gz beside the snapshot folder)."""

from __future__ import annotations

import tarfile
from pathlib import Path

__all__ = ["archive_tree"]


def archive_tree(folder: Path) -> Path:
    """Write `<folder>.tar.gz` holding the folder's files (paths relative to it); returns its path."""
    out = folder.with_name(folder.name + ".tar.gz")
    tmp = out.with_name(out.name + ".tmp")
    with tarfile.open(tmp, "w:gz", compresslevel=6) as tar:
        tar.add(folder, arcname=".")
    tmp.replace(out)
    return out
