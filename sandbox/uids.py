"""Per-sandbox uids of the local backend: claimed atomically across every process on the host, released
when no process of the uid is left, and taken over from a crashed run at the next start; and the scans of
the host's processes by uid that reaping and hosts without cgroups need."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from pathlib import Path

from repozero.kernel.errors import SandboxError
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.owner import my_start_time, owner_alive
from repozero.sandbox.process import kill_until_gone

__all__ = [
    "UID_CLAIMS",
    "kill_uids",
    "pick_uid",
    "procs_of_uid",
    "procs_of_uids",
    "release_uid",
    "take_stale_claims",
    "taken_uids",
    "write_new",
]

taken_uids: set[int] = set()
"""Uids this process's open sandboxes hold (each also claimed in `UID_CLAIMS`)."""
UID_CLAIMS = Path("/run/repozero-sbx-uids")
"""One file per uid a sandbox holds, of any process and any local_root on the host: `<uid>` is the owner
(pid, start time). Removed when the sandbox is closed; a crashed run's are reaped at the next start."""


def _status_files() -> list[Path]:
    """/proc/PID/status of every process (listdir, not glob: glob trips over processes exiting meanwhile)."""
    return [Path("/proc", d, "status") for d in os.listdir("/proc") if d.isdigit()]


def procs_of_uids(uids: set[int]) -> list[int]:
    """Every process on the host whose real uid is in `uids` (a scan of /proc: for reaping and fallbacks)."""
    pids = []
    for status in _status_files():
        try:
            for line in status.read_text().splitlines():
                if line.startswith("Uid:"):
                    if int(line.split()[1]) in uids:
                        pids.append(int(status.parent.name))
                    break
        except (OSError, ValueError):
            continue
    return pids


def procs_of_uid(uid: int) -> list[int]:
    return procs_of_uids({uid})


async def kill_uids(uids: set[int], *, attempts: int = 100) -> bool:
    """SIGKILL every process of `uids` (per-sandbox uids: exactly those sandboxes' processes).

    Scans every process on the host, so it is only for what has no cgroup: a crashed run's leftovers at
    the next start, and hosts without cgroups."""
    return await kill_until_gone(lambda: procs_of_uids(uids), attempts=attempts)


def _claim_uid(uid: int) -> bool:
    """Claim `uid` for a sandbox of this process, atomically across every process on the host (a hard
    link fails if the claim exists): False if another sandbox, live or crashed, holds it. (String paths
    and plain syscalls: this runs on the event loop at every open.)"""
    claims = str(UID_CLAIMS)
    if not os.path.isdir(claims):
        os.makedirs(claims, mode=0o700, exist_ok=True)
    staging = f"{claims}/.{uid}.{os.getpid()}.{secrets.token_hex(4)}"
    write_new(staging, json.dumps({"pid": os.getpid(), "start": my_start_time()}).encode())
    try:
        os.link(staging, f"{claims}/{uid}")
        return True
    except FileExistsError:
        return False
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(staging)


def write_new(path: str, data: bytes, mode: int = 0o644) -> None:
    """Create (or truncate) `path` with `data`: three syscalls, no `pathlib` or buffered file object."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, mode)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def release_uid(uid: int) -> None:
    """Called once no process of the uid is left."""
    (UID_CLAIMS / str(uid)).unlink(missing_ok=True)
    taken_uids.discard(uid)


def pick_uid(cfg: SandboxConfig) -> int:
    """A uid no live sandbox of any process holds, and no crashed run's leftovers may still run as: its
    claim stays until the next start reaps it (`reap_stale`). No scan of the host's processes."""
    try:
        for _ in range(1000):
            uid = cfg.local_uid_base + secrets.randbelow(cfg.local_uid_count)
            if uid not in taken_uids and _claim_uid(uid):
                taken_uids.add(uid)
                return uid
    except OSError as exc:
        raise SandboxError(f"cannot claim a sandbox uid in {UID_CLAIMS}: {exc}") from exc
    raise SandboxError("no free uid in sandbox.local_uid_base/local_uid_count")


def take_stale_claims() -> list[int]:
    """Uids claimed by a process that is gone (a crashed or killed run), each taken over by this reaper:
    the claim is renamed away atomically, so of concurrent reapers exactly one kills that uid's processes,
    and never after the uid was claimed again. The caller kills them, then removes the claims."""
    taken = []
    for entry in os.listdir(UID_CLAIMS) if UID_CLAIMS.is_dir() else []:
        if entry.isdigit() and _dead_claim(UID_CLAIMS / entry):
            mine = UID_CLAIMS / f".reaping.{entry}.{os.getpid()}"
            try:
                os.rename(UID_CLAIMS / entry, mine)
            except FileNotFoundError:
                continue  # another reaper took it
            if _dead_claim(mine):
                taken.append(int(entry))
            else:  # reaped and claimed again meanwhile: give it back
                with contextlib.suppress(FileExistsError):
                    os.link(mine, UID_CLAIMS / entry)
                mine.unlink()
    return taken


def _dead_claim(path: Path) -> bool:
    try:
        owner = json.loads(path.read_text())
    except (OSError, ValueError):
        return False
    pid = owner.get("pid")
    return not owner_alive(pid if isinstance(pid, int) else 0, owner.get("start"))
