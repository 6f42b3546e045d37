"""A local sandbox's host-side state — a fresh uid, a size-limited tmpfs holding work/, tmp/ and home/,
cgroups — set up at open, torn down at close, and reaped at the next start if a run crashed."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import time
from pathlib import Path

import anyio

from repozero.errors import SandboxError
from repozero.log import get_logger
from repozero.sandbox.base import SandboxSpec
from repozero.sandbox.cgroups import SandboxCgroups
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.hostfs import HostView
from repozero.sandbox.isolation import Isolation
from repozero.sandbox.launch import Layout, sandbox_dirs

__all__ = ["Workspace", "default_root", "reap_stale"]

log = get_logger(__name__)
_taken_uids: set[int] = set()


def default_root() -> Path:
    return Path(os.environ.get("TMPDIR", "/tmp")) / "repozero-sbx"


def _start_time(pid: int) -> str:
    """A process's start time (field 22 of /proc/PID/stat): tells a live owner from a reused pid."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat.rsplit(")", 1)[1].split()[19]


def _status_files() -> list[Path]:
    """/proc/PID/status of every process (listdir, not glob: glob trips over processes exiting meanwhile)."""
    return [Path("/proc", d, "status") for d in os.listdir("/proc") if d.isdigit()]


def _procs_of_uid(uid: int) -> list[int]:
    pids = []
    for status in _status_files():
        try:
            for line in status.read_text().splitlines():
                if line.startswith("Uid:"):
                    if int(line.split()[1]) == uid:
                        pids.append(int(status.parent.name))
                    break
        except (OSError, ValueError):
            continue
    return pids


def _live_uids() -> set[int]:
    uids = set()
    for status in _status_files():
        try:
            text = status.read_text()
        except OSError:
            continue
        for line in text.splitlines():
            if line.startswith("Uid:"):
                uids.add(int(line.split()[1]))
                break
    return uids


async def kill_uid(uid: int, *, attempts: int = 100) -> bool:
    """SIGKILL every process of `uid` (a per-sandbox uid: exactly that sandbox's processes)."""
    for _ in range(attempts):
        pids = _procs_of_uid(uid)
        if not pids:
            return True
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        await anyio.sleep(0.002)
    return not _procs_of_uid(uid)


def _pick_uid(cfg: SandboxConfig, base: Path) -> int:
    recorded = {o.get("uid") for o in _owners(base).values()}  # a stale sandbox's uid may still be reaped
    live = _live_uids() | _taken_uids | {u for u in recorded if isinstance(u, int)}
    for _ in range(1000):
        uid = cfg.local_uid_base + secrets.randbelow(cfg.local_uid_count)
        if uid not in live:
            _taken_uids.add(uid)
            return uid
    raise SandboxError("no free uid in sandbox.local_uid_base/local_uid_count")


class Workspace:
    """Host dirs, uid and cgroups of one local sandbox."""

    def __init__(
        self, sid: str, root: Path, layout: Layout, cgroups: SandboxCgroups | None, mounted: bool
    ) -> None:
        self.id, self.root, self.layout, self.cgroups, self.mounted = sid, root, layout, cgroups, mounted
        self.logs = root / "logs"
        self.view: HostView | None = None

    @classmethod
    async def create(
        cls, iso: Isolation, cfg: SandboxConfig, spec: SandboxSpec, toolchain: Path
    ) -> Workspace:
        base = Path(cfg.local_root) if cfg.local_root else default_root()
        base.mkdir(parents=True, exist_ok=True)
        os.chmod(base, 0o711)
        sid = "sbx-" + secrets.token_hex(6)
        root = base / sid
        uid = _pick_uid(cfg, base) if iso.privileged else os.getuid()
        gid = uid if iso.privileged else os.getgid()
        _write_owner(root, uid if iso.privileged else None)  # first: a reaper never sees a dir without one
        root.mkdir(mode=0o711)
        mounted = False
        try:
            if iso.tmpfs:
                await _mount_tmpfs(root, spec.tmpfs_mb)
                mounted = True
            cgroups = None
            if iso.cgroup_pids and iso.cgroup_memory:
                cgroups = SandboxCgroups.create(
                    iso.cgroup_pids,
                    iso.cgroup_memory,
                    _cgroup_name(sid),
                    pids=spec.pids,
                    memory_mb=spec.memory_mb,
                )
            layout = _prepare(root, uid, gid, iso, spec, toolchain, cgroups)
        except BaseException:
            with anyio.CancelScope(shield=True):
                await _teardown(root, mounted, None, uid if iso.privileged else None)
            raise
        ws = cls(sid, root, layout, cgroups, mounted)
        workdir = sandbox_dirs(iso, layout)[0]
        mounts = _view_mounts(iso, layout)
        ws.view = HostView(
            mounts, workdir=workdir, uid=uid if iso.privileged else None, gid=gid if iso.privileged else None
        )
        return ws

    async def kill_all(self) -> None:
        """Kill every process of the sandbox (its cgroups, then its uid)."""
        if self.cgroups is not None:
            await self.cgroups.kill_all()
        if self.layout.uid is not None and self.layout.uid != os.getuid() and self.layout.uid != 0:
            await kill_uid(self.layout.uid)

    async def destroy(self) -> None:
        await self.kill_all()
        uid = self.layout.uid if self.layout.uid not in (None, 0, os.getuid()) else None
        await _teardown(self.root, self.mounted, self.cgroups, uid)
        _taken_uids.discard(self.layout.uid or -1)


def _view_mounts(iso: Isolation, layout: Layout) -> dict[str, Path]:
    from repozero.sandbox.launch import IN_HOME, IN_TMP, IN_WORK

    if iso.namespaces:
        return {IN_WORK: Path(layout.work), IN_TMP: Path(layout.tmp), IN_HOME: Path(layout.home)}
    return {p: Path(p) for p in (layout.work, layout.tmp, layout.home)}


def _prepare(
    root: Path,
    uid: int,
    gid: int,
    iso: Isolation,
    spec: SandboxSpec,
    toolchain: Path,
    cgroups: SandboxCgroups | None,
) -> Layout:
    for name in ("work", "tmp", "home"):
        (root / name).mkdir(mode=0o700)
        if iso.privileged:
            os.chown(root / name, uid, gid)
    (root / "etc").mkdir(mode=0o755)
    (root / "logs").mkdir(mode=0o700)
    (root / "etc" / "passwd").write_text(
        f"root:x:0:0:root:/root:/usr/sbin/nologin\nsandbox:x:{uid}:{gid}:sandbox:/home/sandbox:/bin/bash\n"
    )
    (root / "etc" / "group").write_text(f"root:x:0:\nsandbox:x:{gid}:\n")
    for path in (*spec.path_dirs, *spec.ro_paths):
        if not Path(path).is_absolute() or not Path(path).exists():
            raise SandboxError(f"sandbox spec: {path!r} must be an existing absolute host path")
    return Layout(
        toolchain=str(toolchain), work=str(root / "work"), tmp=str(root / "tmp"), home=str(root / "home"),
        etc=str(root / "etc"), uid=uid if iso.privileged else None, gid=gid if iso.privileged else None,
        cgroup_procs=cgroups.procs_files if cgroups else [], path_dirs=list(spec.path_dirs),
        ro_paths=list(spec.ro_paths),
    )  # fmt: skip


async def _mount_tmpfs(root: Path, size_mb: int) -> None:
    opts = f"size={size_mb}m,nr_inodes=100k,mode=0711,nosuid,nodev"
    result = await anyio.run_process(
        ["mount", "-t", "tmpfs", "-o", opts, "repozero-sbx", str(root)], check=False
    )
    if result.returncode != 0:
        raise SandboxError(
            f"cannot mount the sandbox tmpfs at {root}: {result.stderr.decode(errors='replace')}"
        )


async def _teardown(root: Path, mounted: bool, cgroups: SandboxCgroups | None, uid: int | None) -> None:
    if uid is not None:
        await kill_uid(uid)
    if cgroups is not None:
        await cgroups.kill_all()
        await cgroups.remove()
    if mounted:
        await anyio.run_process(["umount", "-l", str(root)], check=False)
    shutil.rmtree(root, ignore_errors=True)
    _owner_file(root).unlink(missing_ok=True)


def _owner_file(root: Path) -> Path:
    """`<root>.json` beside the sandbox dir: who owns it (pid, start time) and its uid."""
    return root.with_name(root.name + ".json")


def _write_owner(root: Path, uid: int | None) -> None:
    record = {"pid": os.getpid(), "start": _start_time(os.getpid()), "uid": uid}
    staging = root.with_name(f".{root.name}.json")
    staging.write_text(json.dumps(record))
    staging.rename(_owner_file(root))


def _owners(base: Path) -> dict[Path, dict[str, object]]:
    """Every sandbox dir under `base` (or owner record without a dir yet) → its owner record ({} if none)."""
    found: dict[Path, dict[str, object]] = {}
    for entry in base.glob("sbx-*") if base.is_dir() else []:
        root = entry.with_suffix("") if entry.suffix == ".json" else entry
        if root in found:
            continue
        try:
            found[root] = json.loads(_owner_file(root).read_text())
        except (OSError, ValueError):
            found[root] = {}
    return found


def _cgroup_name(sid: str) -> str:
    """`<sandbox id>.<owner pid>.<owner start time>`: a crashed run's groups are found even without its dirs."""
    return f"{sid}.{os.getpid()}.{_start_time(os.getpid())}"


def _owner_alive(pid: int, start: object) -> bool:
    return bool(pid) and _start_time(pid) == start


def _stale_cgroups(iso: Isolation) -> list[Path]:
    """Per-sandbox cgroups (under any local_root) whose owning process is gone."""
    found = []
    for parent in (iso.cgroup_pids, iso.cgroup_memory):
        for group in Path(parent).glob("sbx-*.*.*") if parent else []:
            _, pid, start = group.name.split(".", 2)
            if pid.isdigit() and not _owner_alive(int(pid), start):
                found.append(group)
    return found


def _stale(base: Path) -> list[tuple[Path, dict[str, object], bool]]:
    """(root, owner record, mounted) of every sandbox whose owning process is gone."""
    found: list[tuple[Path, dict[str, object], bool]] = []
    for root, owner in _owners(base).items():
        if not owner and root.exists() and time.time() - root.stat().st_mtime < 60:
            continue  # a dir without a record: left by an older version, or mid-removal; give it time
        pid = owner.get("pid")
        if not _owner_alive(pid if isinstance(pid, int) else 0, owner.get("start")):
            found.append((root, owner, os.path.ismount(root)))
    return found


def _our_mounts() -> list[Path]:
    """Mount points of every sandbox tmpfs on this host (source `repozero-sbx`), under any local_root."""
    found = []
    with open("/proc/self/mountinfo") as info:
        for line in info:
            fields = line.split()
            dash = fields.index("-")
            if fields[dash + 1] == "tmpfs" and fields[dash + 2] == "repozero-sbx":
                found.append(Path(fields[4].encode().decode("unicode_escape")))
    return found


def _stale_elsewhere(base: Path) -> list[tuple[Path, dict[str, object], bool]]:
    """Sandboxes of a dead owner mounted outside `base` (another local_root, e.g. a killed test run)."""
    found: list[tuple[Path, dict[str, object], bool]] = []
    for root in _our_mounts():
        if root.parent == base:
            continue
        try:
            owner = json.loads(_owner_file(root).read_text())
        except (OSError, ValueError):
            continue  # not ours to judge without a record
        pid = owner.get("pid")
        if not _owner_alive(pid if isinstance(pid, int) else 0, owner.get("start")):
            found.append((root, owner, True))
    return found


async def reap_stale(base: Path, iso: Isolation) -> int:
    """Tear down sandboxes whose owning process is gone (a crashed or killed run); returns how many."""
    stale = _stale(base) + _stale_elsewhere(base)
    for root, owner, mounted in stale:
        uid = owner.get("uid")
        await _teardown(root, mounted, None, uid if isinstance(uid, int) else None)
    groups = _stale_cgroups(iso)
    if groups:
        cgroups = SandboxCgroups(groups)
        await cgroups.kill_all()
        await cgroups.remove()
    if stale or groups:
        log.info("sandbox_reaped_stale", sandboxes=len(stale), cgroups=len(groups), root=str(base))
    return len(stale)
