"""Archiving the target tree after every round (tar.gz beside the snapshot folder)."""

from __future__ import annotations

import shutil
import tarfile
from pathlib import Path

__all__ = ["archive_tree", "clear_tree"]


def archive_tree(folder: Path) -> Path:
    """Write `<folder>.tar.gz` holding the folder's files (paths relative to it); returns its path."""
    out = folder.with_name(folder.name + ".tar.gz")
    tmp = out.with_name(out.name + ".tmp")
    with tarfile.open(tmp, "w:gz", compresslevel=6) as tar:
        tar.add(folder, arcname=".")
    tmp.replace(out)
    return out


def clear_tree(folder: Path) -> None:
    """Remove a snapshot folder (its archive, if any, stays)."""
    if folder.exists():
        shutil.rmtree(folder)
