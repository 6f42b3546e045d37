"""`--ray-storage URL`: the nodes' traces and targets go through fsspec instead of a shared filesystem.

Each node runner works in a scratch folder on its own machine laid out as the run directory is
(`traces/…`, `nodes/<node>/…`) and copies it to URL once it has closed its sessions; the driver copies
URL into the run directory when the episodes are over, so the same readers merge the shards and
`report`, `traces`, `--resume` and a sweep's pooled grading read a Ray run unchanged. Object stores
have no append: a shard goes up whole, once, at the end (docs/ray.md says what that costs).
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from pathlib import Path

import fsspec
import structlog

from repozero.errors import UsageError

__all__ = ["check_storage", "download", "scratch_dir", "upload"]

log = structlog.get_logger()

SKIPPED = {"run.lock"}
"""Not copied: a node's lock on its scratch folder means nothing elsewhere."""


def check_storage(url: str) -> None:
    """A usage error naming `--ray-storage` unless fsspec knows the URL's protocol (its package
    installed, e.g. s3fs for `s3://`) and can list or make its root."""
    try:
        fs, root = fsspec.core.url_to_fs(url)
        fs.makedirs(root, exist_ok=True)
    except (ImportError, ValueError, OSError) as exc:
        raise UsageError(f"--ray-storage {url}: not a usable fsspec location ({exc})") from None


def scratch_dir(url: str, node: str) -> Path:
    """This node's working copy of the run directory for `url` (one per cell and node runner)."""
    digest = hashlib.sha256(url.encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / "repozero-ray" / digest / node


def upload(local: Path, url: str) -> int:
    """Copy every file under `local` to the same relative path under `url`, then drop `local`."""
    fs, root = fsspec.core.url_to_fs(url)
    copied = 0
    for path in sorted(p for p in local.rglob("*") if p.is_file() and p.name not in SKIPPED):
        remote = f"{root.rstrip('/')}/{path.relative_to(local).as_posix()}"
        fs.makedirs(remote.rsplit("/", 1)[0], exist_ok=True)
        fs.put_file(str(path), remote)
        copied += 1
    shutil.rmtree(local, ignore_errors=True)
    log.info("ray_storage_uploaded", url=url, files=copied)
    return copied


def download(url: str, into: Path) -> int:
    """Copy every file under `url` to the same relative path under `into` (what is there is replaced:
    a node's files are its own, named by the node)."""
    fs, root = fsspec.core.url_to_fs(url)
    root = root.rstrip("/")
    if not fs.exists(root):
        return 0
    copied = 0
    for remote in sorted(fs.find(root)):
        local = into / remote[len(root) :].lstrip("/")
        local.parent.mkdir(parents=True, exist_ok=True)
        fs.get_file(remote, str(local))
        copied += 1
    log.info("ray_storage_downloaded", url=url, files=copied)
    return copied
