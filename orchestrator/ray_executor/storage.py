"""`--ray-storage URL`: the nodes' traces and targets go through fsspec instead of a shared filesystem.

Each node runner works in a scratch folder on its own machine laid out as the run directory is
(`traces/…`, `nodes/<node>/…`) and copies it to URL once it has closed its sessions; the driver copies
URL into the run directory when the episodes are over, so the same readers merge the shards and
`report`, `traces`, `--resume` and a sweep's pooled grading read a Ray run unchanged. Object stores
have no append: a shard goes up whole, once, at the end (docs/ray.md says what that costs).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

import fsspec
import structlog

from repozero.kernel.errors import UsageError

__all__ = ["check_storage", "download", "drop_scratch", "scratch_dir", "storage_env", "upload"]

log = structlog.get_logger()

SKIPPED = {"run.lock"}
"""Not copied: a node's lock on its scratch folder means nothing elsewhere."""

FORWARDED_PREFIX = "FSSPEC_"
FORWARDED_AWS = frozenset(
    {
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AWS_ENDPOINT_URL",
        "AWS_ENDPOINT_URL_S3",
        "AWS_REGION",
        "AWS_DEFAULT_REGION",
    }
)
"""What `storage_env` passes from the driver to the node runners (docs/ray.md, "Storage on S3")."""


def check_storage(url: str) -> None:
    """A usage error naming `--ray-storage` unless fsspec knows the URL's protocol (its package
    installed, e.g. s3fs for `s3://`) and can list or make its root.

    Any exception is the location's fault here: backends raise their own types for what a user got wrong
    (botocore's NoCredentialsError or EndpointConnectionError for s3://, neither an OSError), and a
    traceback before the run starts is worse than a message naming the flag."""
    try:
        fs, root = fsspec.core.url_to_fs(url)
        fs.makedirs(root, exist_ok=True)
    except Exception as exc:
        raise UsageError(
            f"--ray-storage {url}: not a usable fsspec location ({type(exc).__name__}: {exc})"
        ) from None


def storage_env() -> dict[str, str]:
    """The driver's settings for reaching the storage, for the node runners' environment.

    fsspec backends read their endpoint and credentials from the environment (`FSSPEC_<PROTOCOL>_<ARG>`;
    s3fs through botocore: `AWS_ENDPOINT_URL`, `AWS_ACCESS_KEY_ID`, …). A node runner's process has the
    environment of the `ray start` that made its node, not the driver's: without these the driver checks
    and fetches one store and the nodes write to another, or fail to write at all. Variables naming a file
    or a profile in one (AWS_PROFILE, AWS_SHARED_CREDENTIALS_FILE, AWS_CA_BUNDLE) are left out: a file on
    the driver's machine is not on a node's."""
    return {k: v for k, v in os.environ.items() if k in FORWARDED_AWS or k.startswith(FORWARDED_PREFIX)}


SCRATCH = "repozero-ray"


def scratch_dir(url: str, node: str) -> Path:
    """This node's working copy of the run directory for `url` (one per cell and node runner):
    `$TMPDIR/repozero-ray/<digest of url>/<node>`."""
    digest = hashlib.sha256(url.encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / SCRATCH / digest / node


def drop_scratch(local: Path) -> None:
    """Remove a node's scratch copy once it is uploaded, then its URL's folder and `repozero-ray/` if
    that left them empty. `rmdir` removes only an empty folder, so another runner's copy beside it (a
    second node on this machine, another run) stays; a folder that is not ours is never touched."""
    shutil.rmtree(local, ignore_errors=True)
    for folder in (local.parent, local.parent.parent):
        if SCRATCH not in folder.parts:
            return
        try:
            folder.rmdir()
        except OSError:  # not empty (still in use), or already gone
            return


def upload(local: Path, url: str) -> int:
    """Copy every file under `local` to the same relative path under `url`, then drop `local`."""
    fs, root = fsspec.core.url_to_fs(url)
    root = root.rstrip("/")
    files = sorted(p for p in local.rglob("*") if p.is_file() and p.name not in SKIPPED)
    remotes = [f"{root}/{path.relative_to(local).as_posix()}" for path in files]
    for folder in sorted({r.rsplit("/", 1)[0] for r in remotes}):  # once each (on S3: a request each)
        fs.makedirs(folder, exist_ok=True)
    for path, remote in zip(files, remotes, strict=True):
        fs.put_file(str(path), remote)
    copied = len(files)
    drop_scratch(local)
    log.info("ray_storage_uploaded", url=url, files=copied)
    return copied


def download(url: str, into: Path) -> int:
    """Copy every file under `url` to the same relative path under `into` (what is there is replaced:
    a node's files are its own, named by the node)."""
    fs, root = fsspec.core.url_to_fs(url)
    root = root.rstrip("/")
    if not fs.isdir(root):  # nothing uploaded yet; or not a folder (replaced by a file): nothing of ours
        return 0
    copied = 0
    for remote in sorted(fs.find(root)):
        local = into / remote[len(root) :].lstrip("/")
        local.parent.mkdir(parents=True, exist_ok=True)
        fs.get_file(remote, str(local))
        copied += 1
    log.info("ray_storage_downloaded", url=url, files=copied)
    return copied
